//! Cleaning of every text a player sends (names, chat lines) so that nothing
//! can drive another player's terminal or hide in it: escape sequences (CSI,
//! OSC, DCS and the two-character ones) are removed whole, then every
//! remaining control character (C0, DEL, C1), the bidirectional controls and
//! the invisible characters (zero-width spaces and joiners, word joiner, byte
//! order mark); line and paragraph separators become spaces. Texts with a
//! byte limit (a close reason, an error quoting a frame) are cut at a
//! character boundary.
//!
//! Names are then normalised (NFKC) and checked: a small alphabet, and
//! letters of one script (Unicode TR39's "highly restrictive" level, which
//! also allows Latin mixed with the scripts written beside it in Chinese,
//! Japanese and Korean). Two names are one name when they look alike:
//! [`name_key`] and [`name_keys`] compare them by TR39's confusable skeleton
//! after case folding, so that `ann`, `Ann`, `аnn` (Cyrillic а), `ａnn`
//! (fullwidth) and `𝐚𝐧𝐧` (mathematical bold) are one player.

use caseless::default_case_fold_str;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{RestrictionLevel, RestrictionLevelDetection, skeleton};

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 20;

/// `text` without escape sequences, control characters and invisible
/// characters; tabs and line breaks (U+2028 and U+2029 too) become spaces,
/// and runs of spaces are kept as they are.
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
            '\t' | '\n' | '\r' | '\u{2028}' | '\u{2029}' => out.push(' '),
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

/// Characters never passed on: controls, those that reorder text (the
/// bidirectional marks, embeddings, overrides and isolates) and those that
/// show nothing (zero-width space, non-joiner and joiner, word joiner and
/// the invisible operators, byte order mark, Mongolian vowel separator).
fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{61c}'
                | '\u{180e}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
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
    /// Names starting `AI-` (or anything that looks like it) belong to the
    /// server's engine.
    #[error("names starting with \"AI-\" (or what looks like it) are kept for the server's engine")]
    Reserved,
    /// A character outside TR39's identifier profile (a historic script, a
    /// symbol that is not a letter).
    #[error("{0:?} (U+{code:04X}) is not used in names", code = u32::from(*.0))]
    Restricted(char),
    /// Letters of scripts that are not written together (Latin with
    /// Cyrillic, say), the way names are forged to look like others.
    #[error("{0:?} (U+{code:04X}) is from another script than the letters before it: write the name in one script", code = u32::from(*.0))]
    MixedScripts(char),
}

/// Cleans `name`, normalises it (NFKC: fullwidth and styled letters become
/// plain ones) and checks it: 1 to [`MAX_NAME_CHARS`] letters, digits, `_`,
/// `-` or `.`, surrounding spaces trimmed, letters of one script (TR39's
/// highly restrictive level), not starting `AI-`. Returns the name as the
/// salon shows it.
///
/// ```
/// use reversi::net::text::{NameError, validate_name};
/// assert_eq!(validate_name(" ａnn ").unwrap(), "ann");
/// assert_eq!(validate_name("p\u{430}ypal"), Err(NameError::MixedScripts('\u{430}')));
/// ```
///
/// # Errors
/// [`NameError`] saying what is wrong.
pub fn validate_name(name: &str) -> Result<String, NameError> {
    let name: String = clean(name).trim().nfkc().collect();
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
    check_scripts(&name)?;
    let reserved = name_keys("AI-");
    if name_keys(&name)
        .iter()
        .zip(&reserved)
        .any(|(k, r)| k.starts_with(r.as_str()))
    {
        return Err(NameError::Reserved);
    }
    Ok(name)
}

/// Refuses characters outside TR39's identifier profile and mixes of
/// scripts beyond its highly restrictive level, naming the first character
/// that breaks the rule.
fn check_scripts(name: &str) -> Result<(), NameError> {
    if name.detect_restriction_level() <= RestrictionLevel::HighlyRestrictive {
        return Ok(());
    }
    for (i, c) in name.char_indices() {
        let upto = &name[..i + c.len_utf8()];
        match upto.detect_restriction_level() {
            RestrictionLevel::Unrestricted => return Err(NameError::Restricted(c)),
            level if level > RestrictionLevel::HighlyRestrictive => {
                return Err(NameError::MixedScripts(c));
            }
            _ => {}
        }
    }
    Ok(())
}

/// A player name as the salon compares names: NFKC, case folding, then
/// TR39's confusable skeleton (twice, with a fold between, since a
/// skeleton may be a capital: `0` is `O`), and a combining dot above a
/// soft-dotted `i` or `j` dropped (it takes the place of their own dot, so
/// `İ` folded, `i̇`, shows as `i`). Names with one key are one name: one
/// session, one invitation, one row of the stored sessions.
///
/// ```
/// use reversi::net::text::name_key;
/// for other in ["Ann", "\u{430}nn", "ａnn", "𝐚𝐧𝐧"] {
///     assert_eq!(name_key(other), name_key("ann"));
/// }
/// assert_eq!(name_key("l\u{130}l"), name_key("lil"));
/// ```
#[must_use]
pub fn name_key(name: &str) -> String {
    let name: String = name.nfkc().collect();
    lookalike(&name)
}

/// Both keys under which a name is known: [`name_key`], and the same taken
/// from the skeleton of the name as written, which catches capitals that
/// look like other letters (`I` and `l`, Cyrillic `В` and Latin `B`) before
/// case folding makes them different. A new name is refused while either
/// key belongs to another player.
#[must_use]
pub fn name_keys(name: &str) -> [String; 2] {
    let name: String = name.nfkc().collect();
    let shown: String = skeleton(&name).collect();
    [lookalike(&name), lookalike(&shown)]
}

fn lookalike(name: &str) -> String {
    let once: String = skeleton(&default_case_fold_str(name)).collect();
    let twice: String = skeleton(&default_case_fold_str(&once)).collect();
    let mut out = String::with_capacity(twice.len());
    for c in twice.chars() {
        if c == '\u{307}' && (out.ends_with('i') || out.ends_with('j')) {
            continue;
        }
        out.push(c);
    }
    out
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
        assert_eq!(validate_name("\u{410}\u{406}-3"), Err(NameError::Reserved));
        assert_eq!(validate_name("Al-3"), Err(NameError::Reserved));
        assert_eq!(validate_name("Ali-3").unwrap(), "Ali-3");
    }

    #[test]
    fn invisible_characters_and_separators_are_removed() {
        assert_eq!(clean("a\u{2028}b\u{2029}c"), "a b c");
        for c in [
            '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{feff}', '\u{202a}', '\u{202e}',
            '\u{2066}', '\u{2069}', '\u{61c}',
        ] {
            assert_eq!(clean(&format!("x{c}y")), "xy", "U+{:04X}", u32::from(c));
        }
        assert_eq!(clean("\u{200b}\u{feff}"), "");
    }

    #[test]
    fn names_normalise_and_keep_to_one_script() {
        assert_eq!(validate_name("𝐚𝐧𝐧").unwrap(), "ann");
        assert_eq!(validate_name("Jürgen").unwrap(), "Jürgen");
        assert_eq!(validate_name("Σοφία").unwrap(), "Σοφία");
        assert_eq!(validate_name("山田taro").unwrap(), "山田taro");
        assert_eq!(validate_name("ｱｲ").unwrap(), "アイ");
        assert_eq!(
            validate_name("p\u{430}ypal"),
            Err(NameError::MixedScripts('\u{430}'))
        );
        assert_eq!(
            validate_name("\u{3b1}lpha"),
            Err(NameError::MixedScripts('l'))
        );
        assert_eq!(
            validate_name("a\u{10330}"),
            Err(NameError::Restricted('\u{10330}'))
        );
        let said = validate_name("p\u{430}ypal").unwrap_err().to_string();
        assert!(
            said.contains("U+0430") && said.contains("one script"),
            "{said}"
        );
    }

    #[test]
    fn names_that_look_alike_share_a_key() {
        let same = |a: &str, b: &str| {
            let [a1, a2] = name_keys(a);
            let [b1, b2] = name_keys(b);
            a1 == b1 || a1 == b2 || a2 == b1 || a2 == b2
        };
        for (a, b) in [
            ("ann", "ANN"),
            ("ann", "\u{430}nn"),
            ("ann", "ａnn"),
            ("ann", "𝐚𝐧𝐧"),
            ("lil", "l\u{130}l"),
            ("lll", "lIl"),
            ("lll", "l1l"),
            ("BOB", "\u{412}\u{41e}\u{412}"),
            ("bob", "b0b"),
            ("rn", "m"),
            ("strasse", "straße"),
            ("Σοφία", "ΣΟΦΊΑ"),
        ] {
            assert!(same(a, b), "{a} and {b}");
        }
        for (a, b) in [
            ("ann", "anne"),
            ("lil", "lol"),
            ("rené", "rene"),
            ("bob", "bod"),
        ] {
            assert!(!same(a, b), "{a} and {b}");
        }
        // Case folding never tells two spellings of one name apart.
        for name in ["Iris", "ΣΟΦΊΑ", "ВОВ", "İstanbul"] {
            assert_eq!(name_key(name), name_key(&name.to_lowercase()), "{name}");
        }
    }

    #[test]
    fn token_comparison() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
