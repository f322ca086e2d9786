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
    #[must_use]
    pub const fn ctrl(key: Key) -> KeyPress {
        KeyPress {
            ctrl: true,
            ..KeyPress::plain(key)
        }
    }

    /// `key` with Alt held.
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
