//! The keys of the lobby and of a table, one table per screen: the update
//! reads the command of a key from it and the `?` help lists its rows, so
//! the help cannot name a key the screen does not read.

use super::super::keys::Key;

/// What a key does in the lobby or at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// Selection or cursor up.
    Up,
    /// Selection or cursor down.
    Down,
    /// Cursor left.
    Left,
    /// Cursor right.
    Right,
    /// The first table of the list.
    First,
    /// The last table of the list.
    Last,
    /// Join the selected table (or watch it when it is not open to us).
    Join,
    /// Watch the selected table.
    Watch,
    /// The create form.
    Create,
    /// Ask the server for the list again.
    Refresh,
    /// Play at the cursor.
    Play,
    /// Ask the opponent to take back our last move.
    Undo,
    /// Claim the game of an opponent gone past the grace period.
    Claim,
    /// Type a chat line.
    Chat,
    /// Copy the invitation to a table waiting for an opponent.
    Invite,
    /// Scroll the chat back to older lines.
    ChatOlder,
    /// Scroll the chat on to newer lines.
    ChatNewer,
    /// Legal-move dots on or off.
    Dots,
    /// Replay the finished game.
    Replay,
    /// Save the finished game.
    Save,
    /// Resign (asking first), or leave a watched or finished table.
    Resign,
    /// This help.
    Help,
    /// Back to the new-game screen.
    Back,
    /// Quit at once.
    Quit,
}

/// What a help row says (each has its catalogue message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Help {
    /// Choose a table.
    Choose,
    /// The first or the last table.
    FirstLast,
    /// Join a table.
    Join,
    /// Watch a table.
    Watch,
    /// Create a table.
    Create,
    /// Refresh the list.
    Refresh,
    /// Back to the new-game screen.
    Back,
    /// Move the cursor.
    Cursor,
    /// Play at the cursor.
    Play,
    /// Type a square.
    TypeSquare,
    /// Click a square.
    Click,
    /// Ask to take back.
    Undo,
    /// Claim an abandoned game.
    Claim,
    /// Chat.
    Chat,
    /// Copy the invitation.
    Invite,
    /// Scroll the chat.
    ChatScroll,
    /// Dots.
    Dots,
    /// Replay or save a finished game.
    ReplaySave,
    /// Resign or leave.
    Resign,
    /// This help.
    Keys,
    /// Quit.
    Quit,
}

/// One row of a screen's help: the keys as shown (`Enter`, `Esc` and
/// `Space` said in the screen's language), what they do, and the bindings
/// the screen reads for the row (none for clicks and typed squares).
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys as the help shows them.
    pub label: &'static str,
    /// What they do.
    pub help: Help,
    /// The keys read for this row, with their commands.
    pub keys: &'static [(Key, Command)],
}

/// The lobby's keys.
pub const LOBBY_KEYS: [Binding; 9] = [
    Binding {
        label: "↑↓ jk",
        help: Help::Choose,
        keys: &[
            (Key::Up, Command::Up),
            (Key::Down, Command::Down),
            (Key::Char('k'), Command::Up),
            (Key::Char('j'), Command::Down),
        ],
    },
    Binding {
        label: "Home End",
        help: Help::FirstLast,
        keys: &[(Key::Home, Command::First), (Key::End, Command::Last)],
    },
    Binding {
        label: "Enter",
        help: Help::Join,
        keys: &[(Key::Enter, Command::Join)],
    },
    Binding {
        label: "w",
        help: Help::Watch,
        keys: &[(Key::Char('w'), Command::Watch)],
    },
    Binding {
        label: "c",
        help: Help::Create,
        keys: &[(Key::Char('c'), Command::Create)],
    },
    Binding {
        label: "r",
        help: Help::Refresh,
        keys: &[(Key::Char('r'), Command::Refresh)],
    },
    Binding {
        label: "?",
        help: Help::Keys,
        keys: &[(Key::Char('?'), Command::Help)],
    },
    Binding {
        label: "Esc",
        help: Help::Back,
        keys: &[(Key::Esc, Command::Back)],
    },
    Binding {
        label: "q Q Ctrl-C",
        help: Help::Quit,
        keys: &[
            (Key::Char('q'), Command::Quit),
            (Key::Char('Q'), Command::Quit),
        ],
    },
];

/// The keys at a table (outside typing a chat line; while typing, the
/// chat's scrolling keys are read too).
pub const TABLE_KEYS: [Binding; 15] = [
    Binding {
        label: "←↑↓→ hjkl",
        help: Help::Cursor,
        keys: &[
            (Key::Left, Command::Left),
            (Key::Up, Command::Up),
            (Key::Down, Command::Down),
            (Key::Right, Command::Right),
            (Key::Char('h'), Command::Left),
            (Key::Char('j'), Command::Down),
            (Key::Char('k'), Command::Up),
            (Key::Char('l'), Command::Right),
        ],
    },
    Binding {
        label: "Enter Space",
        help: Help::Play,
        keys: &[(Key::Enter, Command::Play), (Key::Char(' '), Command::Play)],
    },
    Binding {
        label: "f5 …",
        help: Help::TypeSquare,
        keys: &[],
    },
    Binding {
        label: "click",
        help: Help::Click,
        keys: &[],
    },
    Binding {
        label: "u",
        help: Help::Undo,
        keys: &[(Key::Char('u'), Command::Undo)],
    },
    Binding {
        label: "w",
        help: Help::Claim,
        keys: &[(Key::Char('w'), Command::Claim)],
    },
    Binding {
        label: "t",
        help: Help::Chat,
        keys: &[(Key::Char('t'), Command::Chat)],
    },
    Binding {
        label: "PgUp PgDn",
        help: Help::ChatScroll,
        keys: &[
            (Key::PageUp, Command::ChatOlder),
            (Key::PageDown, Command::ChatNewer),
        ],
    },
    Binding {
        label: "y",
        help: Help::Invite,
        keys: &[(Key::Char('y'), Command::Invite)],
    },
    Binding {
        label: ".",
        help: Help::Dots,
        keys: &[(Key::Char('.'), Command::Dots)],
    },
    Binding {
        label: "v s",
        help: Help::ReplaySave,
        keys: &[
            (Key::Char('v'), Command::Replay),
            (Key::Char('s'), Command::Save),
        ],
    },
    Binding {
        label: "?",
        help: Help::Keys,
        keys: &[(Key::Char('?'), Command::Help)],
    },
    Binding {
        label: "q",
        help: Help::Resign,
        keys: &[(Key::Char('q'), Command::Resign)],
    },
    Binding {
        label: "Esc",
        help: Help::Back,
        keys: &[(Key::Esc, Command::Back)],
    },
    Binding {
        label: "Q Ctrl-C",
        help: Help::Quit,
        keys: &[(Key::Char('Q'), Command::Quit)],
    },
];

/// The command of `key` in `keys`, if it has one.
#[must_use]
pub fn command(keys: &[Binding], key: Key) -> Option<Command> {
    keys.iter()
        .flat_map(|b| b.keys)
        .find(|(k, _)| *k == key)
        .map(|(_, c)| *c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How the footer names a key, in English as the labels are.
    fn name(key: Key) -> String {
        super::super::super::keys::key_name(crate::i18n::Lang::En, key, false)
    }

    /// The keys a label names (`←↑↓→`, `↑↓`, `jk` and `hjkl` are a key a
    /// character).
    fn named(label: &str) -> Vec<String> {
        label
            .split_whitespace()
            .flat_map(|w| {
                if w.chars().count() > 1 && w.chars().all(|c| "←↑↓→hjkl".contains(c)) {
                    w.chars().map(String::from).collect()
                } else {
                    vec![w.to_string()]
                }
            })
            .collect()
    }

    /// The cursor keys a table's help names are those the board input
    /// moves the cursor with, each the same way.
    #[test]
    fn the_cursor_commands_are_the_board_inputs_keys() {
        let bound = TABLE_KEYS.iter().flat_map(|b| b.keys).copied();
        crate::ui::board_input::assert_cursor_keys(bound, |c| match c {
            Command::Left => Some((-1, 0)),
            Command::Right => Some((1, 0)),
            Command::Up => Some((0, -1)),
            Command::Down => Some((0, 1)),
            _ => None,
        });
    }

    #[test]
    fn each_screens_help_names_exactly_the_keys_it_reads() {
        let elsewhere = ["Ctrl-C", "click", "f5", "…"];
        for keys in [&LOBBY_KEYS[..], &TABLE_KEYS[..]] {
            for b in keys {
                for (key, c) in b.keys {
                    let n = name(*key);
                    assert!(named(b.label).contains(&n), "{n} is read in {:?}", b.label);
                    assert_eq!(command(keys, *key), Some(*c), "{n} has two commands");
                }
                for k in named(b.label) {
                    assert!(
                        elsewhere.contains(&k.as_str())
                            || b.keys.iter().any(|(key, _)| name(*key) == k),
                        "the help names {k} in {:?} but it is not read there",
                        b.label
                    );
                }
            }
        }
    }
}
