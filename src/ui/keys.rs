//! The keys of the model: what [`super::update()`] knows of a key press. The
//! runtime maps the terminal's events to these at the edge, so the model and
//! the update function never depend on the terminal library. Each screen's
//! keys are one table ([`GAME_KEYS`], [`REPLAY_KEYS`], [`FORM_KEYS`]) that
//! drives both its handling and its help.

use crate::i18n::{Lang, tr};

/// A key, as far as the game tells keys apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A character key (letters as typed: `H` is Shift-h).
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Backspace (text entry).
    Backspace,
    /// Any other key (function keys…): no command, but it still
    /// ends a half-typed square.
    Other,
}

/// A key press: the key and the modifiers held with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyPress {
    /// The key.
    pub key: Key,
    /// Ctrl was held.
    pub ctrl: bool,
    /// Alt was held.
    pub alt: bool,
    /// Shift was held (already part of a character key's character).
    pub shift: bool,
}

impl KeyPress {
    /// `key` with no modifier.
    #[must_use]
    pub const fn plain(key: Key) -> KeyPress {
        KeyPress {
            key,
            ctrl: false,
            alt: false,
            shift: false,
        }
    }

    /// `key` with Ctrl held.
    #[cfg(test)]
    #[must_use]
    pub const fn ctrl(key: Key) -> KeyPress {
        KeyPress {
            ctrl: true,
            ..KeyPress::plain(key)
        }
    }

    /// `key` with Alt held.
    #[cfg(test)]
    #[must_use]
    pub const fn alt(key: Key) -> KeyPress {
        KeyPress {
            alt: true,
            ..KeyPress::plain(key)
        }
    }

    /// Whether no modifier is held.
    #[must_use]
    pub fn is_plain(self) -> bool {
        !(self.ctrl || self.alt || self.shift)
    }

    /// Whether Ctrl or Alt is held: a chord, never read as a plain key.
    #[must_use]
    pub fn is_chord(self) -> bool {
        self.ctrl || self.alt
    }
}

impl From<Key> for KeyPress {
    fn from(key: Key) -> KeyPress {
        KeyPress::plain(key)
    }
}

/// What a key does on the game screen while a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Cursor one square left.
    Left,
    /// Cursor one square right.
    Right,
    /// Cursor one square up.
    Up,
    /// Cursor one square down.
    Down,
    /// Play at the cursor.
    Play,
    /// Play at the cursor, or pause and resume the AI when nobody or nobody
    /// to move is a person.
    PlayOrPause,
    /// Enter replay.
    Replay,
    /// Save the game.
    Save,
    /// Copy the moves.
    Copy,
    /// Undo back to the person's previous turn.
    Undo,
    /// Redo forward to the person's next turn.
    Redo,
    /// Show or hide the hint.
    Hint,
    /// Legal-move dots on or off.
    Dots,
    /// Hand the side to move to the AI, or take it back.
    TakeOver,
    /// AI pace faster.
    Faster,
    /// AI pace slower.
    Slower,
    /// The new-game screen.
    NewGame,
    /// Quit (asking while a game is unfinished).
    Quit,
    /// Hide the hint and the status message.
    Dismiss,
}

/// What a key does in replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReplayAction {
    /// One move back.
    Back,
    /// One move forward.
    Forward,
    /// To the start.
    First,
    /// To the end.
    Last,
    /// A page of moves back.
    PageBack,
    /// A page of moves forward.
    PageForward,
    /// Start or stop autoplay.
    Autoplay,
    /// Autoplay faster.
    Faster,
    /// Autoplay slower.
    Slower,
    /// Continue playing from the shown move (asking unless it is the last).
    Continue,
    /// Start or stop the review of every move.
    Review,
    /// To the previous mistake.
    PreviousMistake,
    /// To the next mistake.
    NextMistake,
    /// Back to playing, at the move play was at.
    Leave,
    /// Save the game, as while playing.
    Save,
    /// Copy the moves, as while playing.
    Copy,
    /// Quit, as while playing.
    Quit,
}

/// What a key does on the new-game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormAction {
    /// The field above.
    Previous,
    /// The field below.
    Next,
    /// The selected field's previous value.
    Decrease,
    /// The selected field's next value.
    Increase,
    /// Start the game (or go online).
    Start,
    /// Back to the game left for this screen, if any.
    Back,
    /// The rules lesson.
    Learn,
    /// Quit.
    Quit,
}

/// One row of a screen's key help: the keys as the help names them, what
/// they do, and the bindings the screen reads for the row. Names and texts
/// are functions of the language.
#[derive(Clone, Copy, Debug)]
pub struct Binding<A: 'static> {
    /// The keys as the help shows them, in a language.
    pub label: fn(Lang) -> String,
    /// What they do, as the help says it.
    pub help: fn(Lang) -> String,
    /// The keys the screen reads for this row, with their actions (none for
    /// what is read elsewhere: clicks, typed squares, and `?`, `R` and
    /// Ctrl-C that work on every screen).
    pub keys: &'static [(Key, A)],
}

impl<A> Binding<A> {
    /// The row as the help shows it in `lang`: the keys' names and what
    /// they do.
    #[must_use]
    pub fn row(&self, lang: Lang) -> (String, String) {
        ((self.label)(lang), (self.help)(lang))
    }
}

/// The action that `table` binds to `key`, if any.
#[must_use]
pub fn action<A: Copy>(table: &[Binding<A>], key: Key) -> Option<A> {
    table
        .iter()
        .flat_map(|b| b.keys)
        .find(|(k, _)| *k == key)
        .map(|(_, a)| *a)
}

/// The keys of the game screen: what [`super::update()`] does for each key
/// while playing, and the help's list of keys, from this one table (the
/// review keys `a [ ]` are replay's, in [`REPLAY_KEYS`]).
pub const GAME_KEYS: [Binding<Action>; 16] = [
    Binding {
        label: |_| "←↑↓→ hjkl".into(),
        help: |lang| tr(lang, "help-move-cursor"),
        keys: &[
            (Key::Left, Action::Left),
            (Key::Up, Action::Up),
            (Key::Down, Action::Down),
            (Key::Right, Action::Right),
            (Key::Char('h'), Action::Left),
            (Key::Char('j'), Action::Down),
            (Key::Char('k'), Action::Up),
            (Key::Char('l'), Action::Right),
        ],
    },
    Binding {
        label: |lang| tr(lang, "help-key-enter-space"),
        help: |lang| tr(lang, "help-play-cursor"),
        keys: &[
            (Key::Enter, Action::Play),
            (Key::Char(' '), Action::PlayOrPause),
        ],
    },
    Binding {
        label: |_| "f5 …".into(),
        help: |lang| tr(lang, "help-type-square"),
        keys: &[],
    },
    Binding {
        label: |lang| tr(lang, "help-key-click"),
        help: |lang| tr(lang, "help-click"),
        keys: &[],
    },
    Binding {
        label: |_| "u / r".into(),
        help: |lang| tr(lang, "help-undo-redo"),
        keys: &[
            (Key::Char('u'), Action::Undo),
            (Key::Char('r'), Action::Redo),
        ],
    },
    Binding {
        label: |_| "H".into(),
        help: |lang| tr(lang, "help-hint"),
        keys: &[(Key::Char('H'), Action::Hint)],
    },
    Binding {
        label: |lang| tr(lang, "help-key-dots"),
        help: |lang| tr(lang, "help-dots"),
        keys: &[
            (Key::Char('L'), Action::Dots),
            (Key::Char('.'), Action::Dots),
        ],
    },
    Binding {
        label: |_| "t".into(),
        help: |lang| tr(lang, "help-take-over"),
        keys: &[(Key::Char('t'), Action::TakeOver)],
    },
    Binding {
        label: |lang| format!("{} + -", tr(lang, "key-space")),
        help: |lang| tr(lang, "help-pace"),
        keys: &[
            (Key::Char(' '), Action::PlayOrPause),
            (Key::Char('+'), Action::Faster),
            (Key::Char('='), Action::Faster),
            (Key::Char('-'), Action::Slower),
        ],
    },
    Binding {
        label: |lang| tr(lang, "help-key-replay"),
        help: |lang| tr(lang, "help-replay"),
        keys: &[(Key::Char('v'), Action::Replay)],
    },
    Binding {
        label: |_| "a  [ ]".into(),
        help: |lang| tr(lang, "help-review"),
        keys: &[],
    },
    Binding {
        label: |_| "s / y".into(),
        help: |lang| tr(lang, "help-save"),
        keys: &[
            (Key::Char('s'), Action::Save),
            (Key::Char('y'), Action::Copy),
        ],
    },
    Binding {
        label: |_| "n".into(),
        help: |lang| tr(lang, "help-new"),
        keys: &[(Key::Char('n'), Action::NewGame)],
    },
    Binding {
        label: |_| "R".into(),
        help: |lang| tr(lang, "help-rules-full"),
        keys: &[],
    },
    Binding {
        label: |lang| format!("? / {}", tr(lang, "key-esc")),
        help: |lang| tr(lang, "help-close"),
        keys: &[(Key::Esc, Action::Dismiss)],
    },
    Binding {
        label: |_| "q / Ctrl-C".into(),
        help: |lang| tr(lang, "help-quit"),
        keys: &[(Key::Char('q'), Action::Quit)],
    },
];

/// The key that opens and closes the help on every screen.
pub const HELP_KEY: Key = Key::Char('?');

/// One entry of the game screen's footer: the actions whose keys it names
/// (each action's first key in [`GAME_KEYS`], joined by `sep`) and what it
/// says. The footer ends with the help key and quitting.
#[derive(Clone, Copy, Debug)]
pub struct FooterItem {
    /// The actions named.
    pub actions: &'static [Action],
    /// Between the keys' names.
    pub sep: &'static str,
    /// What the entry says, in a language.
    pub word: fn(Lang) -> String,
}

const fn item(actions: &'static [Action], word: fn(Lang) -> String) -> FooterItem {
    FooterItem {
        actions,
        sep: "/",
        word,
    }
}

/// The footer while a person plays.
pub const FOOTER_PLAYING: [FooterItem; 6] = [
    FooterItem {
        actions: &[Action::Left, Action::Up, Action::Down, Action::Right],
        sep: "",
        word: |lang| tr(lang, "key-move"),
    },
    item(&[Action::Play], |lang| tr(lang, "key-play")),
    item(&[Action::Undo], |lang| tr(lang, "key-undo")),
    item(&[Action::Redo], |lang| tr(lang, "key-redo")),
    item(&[Action::Hint], |lang| tr(lang, "key-hint")),
    item(&[Action::NewGame], |lang| tr(lang, "key-new")),
];

/// The footer while the AI plays both sides.
pub const FOOTER_WATCHING: [FooterItem; 5] = [
    item(&[Action::PlayOrPause], |lang| tr(lang, "key-pause")),
    item(&[Action::Faster, Action::Slower], |lang| {
        tr(lang, "key-pace")
    }),
    item(&[Action::TakeOver], |lang| tr(lang, "key-take-over")),
    item(&[Action::Undo], |lang| tr(lang, "key-back")),
    item(&[Action::NewGame], |lang| tr(lang, "key-new")),
];

/// The footer once the game is over.
pub const FOOTER_OVER: [FooterItem; 4] = [
    item(&[Action::Replay], |lang| tr(lang, "key-replay")),
    item(&[Action::NewGame], |lang| tr(lang, "key-new-game")),
    item(&[Action::Save], |lang| tr(lang, "key-save")),
    item(&[Action::Undo], |lang| tr(lang, "key-step-back")),
];

/// The footer's last two entries, help and quit, after `items`: each as the
/// key's name and what it does (`ascii`: arrows spelt without Unicode).
#[must_use]
pub fn footer(lang: Lang, items: &[FooterItem], ascii: bool) -> Vec<(String, String)> {
    let first_key = |a: Action| {
        GAME_KEYS
            .iter()
            .flat_map(|b| b.keys)
            .find(|(_, x)| *x == a)
            .map(|(k, _)| *k)
    };
    let arrows = [Key::Left, Key::Up, Key::Down, Key::Right];
    let mut out: Vec<(String, String)> = items
        .iter()
        .map(|it| {
            let keys: Vec<Key> = it.actions.iter().filter_map(|a| first_key(*a)).collect();
            let name = if ascii && keys == arrows {
                tr(lang, "key-arrows")
            } else {
                let names: Vec<String> = keys.iter().map(|k| key_name(lang, *k, ascii)).collect();
                names.join(it.sep)
            };
            (name, (it.word)(lang))
        })
        .collect();
    out.push((key_name(lang, HELP_KEY, ascii), tr(lang, "key-help")));
    if let Some(q) = first_key(Action::Quit) {
        out.push((key_name(lang, q, ascii), tr(lang, "key-quit")));
    }
    out
}

/// The footer entries that fit in `width` columns, each shown as
/// `KEY WHAT`, two spaces apart: the entries before the last two
/// (help and quit, or leave) are dropped from the end until the line fits.
/// `?` lists every key in any case.
#[must_use]
pub fn fit_footer(mut keys: Vec<(String, String)>, width: usize) -> Vec<(String, String)> {
    let columns = |keys: &[(String, String)]| -> usize {
        let sum: usize = keys
            .iter()
            .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
            .sum();
        sum.saturating_sub(2)
    };
    while columns(&keys) > width && keys.len() > 2 {
        keys.remove(keys.len() - 3);
    }
    keys
}

/// A key as the footer names it.
#[must_use]
pub fn key_name(lang: Lang, key: Key, ascii: bool) -> String {
    let arrow = |unicode: &str, plain: &str| if ascii { plain } else { unicode }.to_string();
    match key {
        Key::Char(' ') => tr(lang, "key-space"),
        Key::Char(c) => c.to_string(),
        Key::Enter => tr(lang, "key-enter"),
        Key::Esc => tr(lang, "key-esc"),
        Key::Left => arrow("←", "<-"),
        Key::Right => arrow("→", "->"),
        Key::Up => arrow("↑", "^"),
        Key::Down => arrow("↓", "v"),
        Key::Tab => "Tab".into(),
        Key::BackTab => "Shift-Tab".into(),
        Key::Home => "Home".into(),
        Key::End => "End".into(),
        Key::PageUp => "PgUp".into(),
        Key::PageDown => "PgDn".into(),
        Key::Backspace => "Backspace".into(),
        Key::Other => String::new(),
    }
}

/// The action of `key` on the game screen while playing, if it has one.
#[must_use]
pub fn game_action(key: Key) -> Option<Action> {
    action(&GAME_KEYS, key)
}

/// The keys of replay: what they do and the footer's list of keys, from
/// this one table. The footer names the main keys of a row (`←/→`, not
/// `h l u r` too).
pub const REPLAY_KEYS: [Binding<ReplayAction>; 10] = [
    Binding {
        label: |_| "←/→".into(),
        help: |lang| tr(lang, "key-step"),
        keys: &[
            (Key::Left, ReplayAction::Back),
            (Key::Char('h'), ReplayAction::Back),
            (Key::Char('u'), ReplayAction::Back),
            (Key::Right, ReplayAction::Forward),
            (Key::Char('l'), ReplayAction::Forward),
            (Key::Char('r'), ReplayAction::Forward),
        ],
    },
    Binding {
        label: |lang| tr(lang, "key-space"),
        help: |lang| tr(lang, "key-autoplay"),
        keys: &[(Key::Char(' '), ReplayAction::Autoplay)],
    },
    Binding {
        label: |_| "c".into(),
        help: |lang| tr(lang, "key-continue-here"),
        keys: &[(Key::Char('c'), ReplayAction::Continue)],
    },
    Binding {
        label: |_| "a".into(),
        help: |lang| tr(lang, "key-review"),
        keys: &[(Key::Char('a'), ReplayAction::Review)],
    },
    Binding {
        label: |_| "[ ]".into(),
        help: |lang| tr(lang, "key-mistakes"),
        keys: &[
            (Key::Char('['), ReplayAction::PreviousMistake),
            (Key::Char(']'), ReplayAction::NextMistake),
        ],
    },
    Binding {
        label: |_| "+/-".into(),
        help: |lang| tr(lang, "key-pace"),
        keys: &[
            (Key::Char('+'), ReplayAction::Faster),
            (Key::Char('='), ReplayAction::Faster),
            (Key::Char('-'), ReplayAction::Slower),
        ],
    },
    Binding {
        label: |lang| tr(lang, "key-home-end"),
        help: |lang| tr(lang, "key-jump"),
        keys: &[
            (Key::Home, ReplayAction::First),
            (Key::End, ReplayAction::Last),
            (Key::PageUp, ReplayAction::PageBack),
            (Key::PageDown, ReplayAction::PageForward),
        ],
    },
    Binding {
        label: |lang| tr(lang, "key-esc"),
        help: |lang| tr(lang, "key-leave"),
        keys: &[
            (Key::Esc, ReplayAction::Leave),
            (Key::Char('v'), ReplayAction::Leave),
        ],
    },
    Binding {
        label: |_| "q".into(),
        help: |lang| tr(lang, "key-quit"),
        keys: &[(Key::Char('q'), ReplayAction::Quit)],
    },
    // Not in the footer (no label): saving and copying, as while playing.
    Binding {
        label: |_| String::new(),
        help: |_| String::new(),
        keys: &[
            (Key::Char('s'), ReplayAction::Save),
            (Key::Char('y'), ReplayAction::Copy),
        ],
    },
];

/// The action of `key` in replay, if it has one.
#[must_use]
pub fn replay_action(key: Key) -> Option<ReplayAction> {
    action(&REPLAY_KEYS, key)
}

/// The keys of the new-game screen: what they do and the form's list of
/// keys, from this one table; [`FORM_KEY_LINES`] lays the rows out.
pub const FORM_KEYS: [Binding<FormAction>; 8] = [
    Binding {
        label: |_| "↑↓".into(),
        help: |lang| tr(lang, "key-choose"),
        keys: &[
            (Key::Up, FormAction::Previous),
            (Key::Char('k'), FormAction::Previous),
            (Key::BackTab, FormAction::Previous),
            (Key::Down, FormAction::Next),
            (Key::Char('j'), FormAction::Next),
            (Key::Tab, FormAction::Next),
        ],
    },
    Binding {
        label: |_| "←→".into(),
        help: |lang| tr(lang, "key-change"),
        keys: &[
            (Key::Left, FormAction::Decrease),
            (Key::Char('h'), FormAction::Decrease),
            (Key::Right, FormAction::Increase),
            (Key::Char('l'), FormAction::Increase),
        ],
    },
    Binding {
        label: |lang| tr(lang, "key-enter"),
        help: |lang| tr(lang, "key-start"),
        keys: &[
            (Key::Enter, FormAction::Start),
            (Key::Char(' '), FormAction::Start),
        ],
    },
    Binding {
        label: |_| "?".into(),
        help: |lang| tr(lang, "key-help-rules"),
        keys: &[],
    },
    Binding {
        label: |_| "q".into(),
        help: |lang| tr(lang, "key-quit"),
        keys: &[(Key::Char('q'), FormAction::Quit)],
    },
    Binding {
        label: |_| "r".into(),
        help: |lang| tr(lang, "newgame-key-learn"),
        keys: &[(Key::Char('r'), FormAction::Learn)],
    },
    Binding {
        label: |_| "R".into(),
        help: |lang| tr(lang, "newgame-key-rules"),
        keys: &[],
    },
    Binding {
        label: |lang| tr(lang, "key-esc"),
        help: |lang| tr(lang, "key-back-to-game"),
        keys: &[(Key::Esc, FormAction::Back)],
    },
];

/// The lines of the form's key list: rows of [`FORM_KEYS`]; the last line
/// (Esc) only when there is a game to go back to.
pub const FORM_KEY_LINES: [std::ops::Range<usize>; 4] = [0..3, 3..5, 5..7, 7..8];

/// The action of `key` on the new-game screen, if it has one.
#[must_use]
pub fn form_action(key: Key) -> Option<FormAction> {
    action(&FORM_KEYS, key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// How the help names a key, in English as the labels are.
    fn name(key: Key) -> String {
        match key {
            // The + key without Shift.
            Key::Char('=') => "+".into(),
            key => key_name(Lang::En, key, false),
        }
    }

    /// The keys a help label names (`hjkl`, `←↑↓→`, `↑↓`, `←→` and `←/→`
    /// are one key a character).
    fn named(label: &str) -> Vec<String> {
        label
            .split_whitespace()
            .flat_map(|w| {
                if ["hjkl", "←↑↓→", "↑↓", "←→", "←/→", "+/-"].contains(&w) {
                    w.chars().map(String::from).collect()
                } else {
                    vec![w.to_string()]
                }
            })
            .collect()
    }

    /// A table's rows in English: the keys named and the keys bound.
    fn rows<A: Copy>(table: &[Binding<A>]) -> Vec<(String, Vec<(Key, A)>)> {
        table
            .iter()
            .map(|b| ((b.label)(Lang::En), b.keys.to_vec()))
            .collect()
    }

    /// No key has two actions in a table.
    fn one_action_a_key<A: Copy + PartialEq + std::fmt::Debug>(table: &[Binding<A>]) {
        for b in table {
            for (key, a) in b.keys {
                assert_eq!(action(table, *key), Some(*a), "{key:?} has two actions");
            }
        }
    }

    #[test]
    fn the_footer_names_keys_that_do_what_it_says() {
        let lang = Lang::En;
        {
            for items in [&FOOTER_PLAYING[..], &FOOTER_WATCHING, &FOOTER_OVER] {
                let shown = footer(lang, items, false);
                assert_eq!(shown.len(), items.len() + 2);
                for (it, (name, _)) in items.iter().zip(&shown) {
                    assert!(!name.is_empty(), "{:?} has no key", it.actions);
                    // The key named first is bound to the entry's first action.
                    let first = it.actions[0];
                    let key = GAME_KEYS
                        .iter()
                        .flat_map(|b| b.keys)
                        .find(|(k, a)| *a == first && name.starts_with(&key_name(lang, *k, false)))
                        .map(|(k, _)| *k);
                    assert_eq!(key.and_then(game_action), Some(first), "{name}");
                }
                assert_eq!(shown[items.len()].0, "?");
                assert_eq!(shown[items.len() + 1].0, "q");
            }
            assert_eq!(footer(lang, &FOOTER_PLAYING, true)[0].0, "arrows");
            assert_eq!(footer(lang, &FOOTER_WATCHING, false)[1].0, "+/-");
        }
    }

    #[test]
    fn the_help_names_every_bound_key_in_its_row_and_a_key_has_one_action() {
        for (label, keys) in rows(&GAME_KEYS) {
            for (key, _) in keys {
                let n = name(key);
                assert!(named(&label).contains(&n), "{n} is bound in {label:?}");
            }
        }
        one_action_a_key(&GAME_KEYS);
        one_action_a_key(&REPLAY_KEYS);
        one_action_a_key(&FORM_KEYS);
    }

    #[test]
    fn every_key_the_help_names_for_playing_is_bound_in_its_row() {
        // Read elsewhere: `?`, `R` and Ctrl-C on every screen, clicks, typed
        // squares, the review keys of replay; and the words between keys.
        let elsewhere = [
            "?", "R", "Ctrl-C", "click", "f5", "…", "a", "[", "]", "/", "or",
        ];
        for (label, keys) in rows(&GAME_KEYS) {
            for k in named(&label) {
                assert!(
                    elsewhere.contains(&k.as_str()) || keys.iter().any(|(key, _)| name(*key) == k),
                    "the help names {k} in {label:?} but it is not bound there"
                );
            }
        }
    }

    #[test]
    fn every_key_replay_and_the_form_name_is_bound_in_its_row() {
        // Named by a word, or read on every screen.
        let elsewhere = [
            "Space",
            "Enter",
            "Esc",
            "Home/End",
            "PgUp/PgDn",
            "?",
            "R",
            "/",
        ];
        let check = |label: &str, bound: Vec<String>| {
            for k in named(label) {
                assert!(
                    elsewhere.contains(&k.as_str()) || bound.contains(&k),
                    "{k} is named in {label:?} but not bound there"
                );
            }
        };
        for (label, keys) in rows(&REPLAY_KEYS) {
            check(&label, keys.iter().map(|(k, _)| name(*k)).collect());
        }
        for (label, keys) in rows(&FORM_KEYS) {
            check(&label, keys.iter().map(|(k, _)| name(*k)).collect());
        }
    }

    #[test]
    fn the_form_lines_show_every_row_once() {
        let rows: Vec<usize> = FORM_KEY_LINES.iter().cloned().flatten().collect();
        assert_eq!(rows, (0..FORM_KEYS.len()).collect::<Vec<_>>());
    }
}
