//! The keys of the model: what [`super::update()`] knows of a key press. The
//! runtime maps the terminal's events to these at the edge, so the model and
//! the update function never depend on the terminal library.

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

/// One row of the help: the keys as the help names them, what they do, and
/// the bindings of the game screen the row describes.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys as the help shows them.
    pub label: &'static str,
    /// What they do, as the help says it.
    pub help: &'static str,
    /// The keys the game screen reads for this row, with their actions
    /// (none for what is read elsewhere: clicks, typed squares, the review
    /// keys of replay, `?`, `R` and Ctrl-C that work on every screen).
    pub keys: &'static [(Key, Action)],
}

/// The keys of the game screen: what [`super::update()`] does for each key
/// while playing, and the help's list of keys, from this one table.
pub const GAME_KEYS: [Binding; 16] = [
    Binding {
        label: "←↑↓→ hjkl",
        help: "move the cursor",
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
        label: "Enter Space",
        help: "play at the cursor",
        keys: &[
            (Key::Enter, Action::Play),
            (Key::Char(' '), Action::PlayOrPause),
        ],
    },
    Binding {
        label: "f5 …",
        help: "type a square to play it",
        keys: &[],
    },
    Binding {
        label: "click",
        help: "play the clicked square",
        keys: &[],
    },
    Binding {
        label: "u / r",
        help: "undo / redo (back to your previous turn)",
        keys: &[
            (Key::Char('u'), Action::Undo),
            (Key::Char('r'), Action::Redo),
        ],
    },
    Binding {
        label: "H",
        help: "hint: every move's score, best highlighted",
        keys: &[(Key::Char('H'), Action::Hint)],
    },
    Binding {
        label: "L or .",
        help: "legal-move dots on/off",
        keys: &[
            (Key::Char('L'), Action::Dots),
            (Key::Char('.'), Action::Dots),
        ],
    },
    Binding {
        label: "t",
        help: "hand the side to move to the AI, or take it",
        keys: &[(Key::Char('t'), Action::TakeOver)],
    },
    Binding {
        label: "Space + -",
        help: "pause AI vs AI; AI pace faster / slower",
        keys: &[
            (Key::Char(' '), Action::PlayOrPause),
            (Key::Char('+'), Action::Faster),
            (Key::Char('='), Action::Faster),
            (Key::Char('-'), Action::Slower),
        ],
    },
    Binding {
        label: "v or click",
        help: "replay move by move (click a move in the list)",
        keys: &[(Key::Char('v'), Action::Replay)],
    },
    Binding {
        label: "a  [ ]",
        help: "review moves, jump: ?!/?/?? lost 1+/4+/10+ discs",
        keys: &[],
    },
    Binding {
        label: "s / y",
        help: "save the game (GGF) / copy the moves",
        keys: &[
            (Key::Char('s'), Action::Save),
            (Key::Char('y'), Action::Copy),
        ],
    },
    Binding {
        label: "n",
        help: "new game",
        keys: &[(Key::Char('n'), Action::NewGame)],
    },
    Binding {
        label: "R",
        help: "the rules in full",
        keys: &[],
    },
    Binding {
        label: "? / Esc",
        help: "this help / close a window, hide the hint",
        keys: &[(Key::Esc, Action::Dismiss)],
    },
    Binding {
        label: "q / Ctrl-C",
        help: "quit (asks while a game is unfinished) / at once",
        keys: &[(Key::Char('q'), Action::Quit)],
    },
];

/// The action of `key` on the game screen while playing, if it has one.
#[must_use]
pub fn game_action(key: Key) -> Option<Action> {
    GAME_KEYS
        .iter()
        .flat_map(|b| b.keys)
        .find(|(k, _)| *k == key)
        .map(|(_, a)| *a)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How the help names a key.
    fn name(key: Key) -> String {
        match key {
            Key::Char(' ') => "Space".into(),
            // The + key without Shift.
            Key::Char('=') => "+".into(),
            Key::Char(c) => c.to_string(),
            Key::Left => "←".into(),
            Key::Right => "→".into(),
            Key::Up => "↑".into(),
            Key::Down => "↓".into(),
            other => format!("{other:?}"),
        }
    }

    /// The keys a help label names (`hjkl` and `←↑↓→` are four keys each).
    fn named(label: &str) -> Vec<String> {
        label
            .split_whitespace()
            .flat_map(|w| {
                if w == "hjkl" || w == "←↑↓→" {
                    w.chars().map(String::from).collect()
                } else {
                    vec![w.to_string()]
                }
            })
            .collect()
    }

    #[test]
    fn the_help_names_every_bound_key_in_its_row_and_a_key_has_one_action() {
        for b in GAME_KEYS {
            for (key, action) in b.keys {
                let n = name(*key);
                assert!(named(b.label).contains(&n), "{n} is bound in {:?}", b.label);
                assert_eq!(game_action(*key), Some(*action), "{n} has two actions");
            }
        }
    }

    #[test]
    fn every_key_the_help_names_for_playing_is_bound_in_its_row() {
        // Read elsewhere: `?`, `R` and Ctrl-C on every screen, clicks, typed
        // squares, the review keys of replay; and the words between keys.
        let elsewhere = [
            "?", "R", "Ctrl-C", "click", "f5", "…", "a", "[", "]", "/", "or",
        ];
        for b in GAME_KEYS {
            for k in named(b.label) {
                assert!(
                    elsewhere.contains(&k.as_str())
                        || b.keys.iter().any(|(key, _)| name(*key) == k),
                    "the help names {k} in {:?} but it is not bound there",
                    b.label
                );
            }
        }
    }
}
