//! Cleaning of every text a player sends (names, chat lines) so that nothing
//! can drive another player's terminal: escape sequences (CSI, OSC, DCS and the
//! two-character ones) are removed whole, then every remaining control
//! character (C0, DEL, C1) and the bidirectional-override characters. Names
//! are then checked against a small alphabet. Texts with a byte limit (a
//! close reason, an error quoting a frame) are cut at a character boundary.

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// `text` without escape sequences and control characters; tabs and line
/// breaks become spaces, and runs of spaces are kept as they are.
///
/// ```
/// use reversi::net::text::clean;
/// assert_eq!(clean("hi \u{1b}[2J\u{1b}]0;pwned\u{7}there"), "hi there");
/// ```
#[must_use]
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_escape(&mut chars),
            // C1 introducers of CSI, OSC, DCS, SOS, PM, APC: skip their bodies too.
            '\u{9b}' => skip_csi(&mut chars),
            '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => skip_string(&mut chars),
            '\t' | '\n' | '\r' => out.push(' '),
            c if is_unsafe(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Cuts `text` to at most `max` bytes at a character boundary (it may
/// quote anything a client sent).
///
/// ```
/// use reversi::net::text::truncate_bytes;
/// let mut s = String::from("déjà");
/// truncate_bytes(&mut s, 2);
/// assert_eq!(s, "d");
/// ```
pub fn truncate_bytes(text: &mut String, max: usize) {
    if text.len() > max {
        let cut = (0..=max)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
        text.truncate(cut);
    }
}

/// Characters never passed on: controls, and those that reorder text.
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

type Chars<'a> = std::iter::Peekable<std::str::Chars<'a>>;

/// After ESC: a CSI (`[`), a string sequence (`]`, `P`, `X`, `^`, `_`), or a
/// two-character sequence (ESC and one more character).
fn skip_escape(chars: &mut Chars<'_>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        Some(']' | 'P' | 'X' | '^' | '_') => skip_string(chars),
        // Intermediate bytes (ESC ( B and the like) take one more character.
        Some(' '..='/') => {
            chars.next();
        }
        _ => {}
    }
}

/// A CSI body: parameter and intermediate bytes, then one final byte.
fn skip_csi(chars: &mut Chars<'_>) {
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) || !(' '..='\u{7e}').contains(&c) {
            break;
        }
    }
}

/// A string body, up to BEL, ST (ESC \) or the C1 ST.
fn skip_string(chars: &mut Chars<'_>) {
    while let Some(c) = chars.next() {
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' => {
                if chars.peek() == Some(&'\\') {
                    chars.next();
                }
                break;
            }
            _ => {}
        }
    }
}

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Nothing left after cleaning.
    #[error("the name is empty")]
    Empty,
    /// Longer than [`MAX_NAME_CHARS`].
    #[error("the name is longer than {MAX_NAME_CHARS} characters")]
    TooLong,
    /// A character outside letters, digits, `_`, `-`, `.`.
    #[error("the name may only hold letters, digits, '_', '-' and '.', not {0:?}")]
    BadChar(char),
    /// Names starting `AI-` belong to the server's engine.
    #[error("names starting with \"AI-\" are kept for the server's engine")]
    Reserved,
}

/// Cleans `name` and checks it: 1 to [`MAX_NAME_CHARS`] letters, digits, `_`,
/// `-` or `.`, surrounding spaces trimmed, not starting `AI-`.
///
/// # Errors
/// [`NameError`] saying what is wrong.
pub fn validate_name(name: &str) -> Result<String, NameError> {
    let name = clean(name).trim().to_string();
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(NameError::TooLong);
    }
    if let Some(c) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.')))
    {
        return Err(NameError::BadChar(c));
    }
    if name.to_ascii_uppercase().starts_with("AI-") {
        return Err(NameError::Reserved);
    }
    Ok(name)
}

/// A player name as the salon compares names: names that differ only in
/// letter case are one name.
#[must_use]
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

/// Whether two player names are the same name ([`name_key`]).
#[must_use]
pub fn same_name(a: &str, b: &str) -> bool {
    name_key(a) == name_key(b)
}

/// Compares two byte strings in time that depends on their lengths only, not
/// on where they first differ (for session tokens).
#[must_use]
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_controls_are_removed() {
        assert_eq!(clean("a\u{1b}[31mred\u{1b}[0m"), "ared");
        assert_eq!(
            clean("x\u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "xlink"
        );
        assert_eq!(clean("b\u{9b}2Jc"), "bc");
        assert_eq!(clean("\u{7}bell\u{0}\u{7f}"), "bell");
        assert_eq!(clean("l1\nl2\tx"), "l1 l2 x");
        assert_eq!(clean("\u{202e}evil"), "evil");
        assert_eq!(clean("\u{1b}(Bok"), "ok");
        assert_eq!(clean("é ü 黑"), "é ü 黑");
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(validate_name(" ann\u{1b}[1m ").unwrap(), "ann");
        assert_eq!(validate_name(""), Err(NameError::Empty));
        assert_eq!(validate_name("a b"), Err(NameError::BadChar(' ')));
        assert_eq!(validate_name(&"x".repeat(21)), Err(NameError::TooLong));
        assert_eq!(validate_name("ai-3"), Err(NameError::Reserved));
    }

    #[test]
    fn token_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
