//! The classic opening names (the Tiger, the Buffalo, the Rose …), in
//! English and French, recognised under the board's eight symmetries.
//!
//! The names and their moves are data (`data/opening-names.txt`: the moves
//! from the start, the English name, the French name, tab-separated). A name
//! belongs to the position its moves reach, so `f5d6c3d3c4` and `d3c5f6f5e6`
//! (the same moves seen in a mirror) are both the Tiger, and so is any order
//! of moves that reaches that position. A game's opening is the name of the
//! last named position it went through ([`Openings::of_game`]).
//!
//! Depends on [`crate::rules`] only.

use super::parse_transcript;
use crate::rules::{BoardSize, Game, Move, Position, canonical};
use std::collections::HashMap;
use std::sync::OnceLock;

static NAMES: &str = include_str!("../../data/opening-names.txt");

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The moves from the start that the list gives for it.
    pub moves: String,
    /// Its English name.
    pub english: String,
    /// Its French name.
    pub french: String,
}

impl Opening {
    /// The name in English (`french == false`) or French.
    #[must_use]
    pub fn name(&self, french: bool) -> &str {
        if french { &self.french } else { &self.english }
    }
}

/// A line of the names file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("opening names, line {line}: {reason}")]
pub struct NamesError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The named openings, by position.
#[derive(Clone, Debug, Default)]
pub struct Openings {
    by_key: HashMap<(u64, u64), usize>,
    list: Vec<Opening>,
}

impl Openings {
    /// Reads a names file (see the module docs; `#` starts a comment line).
    ///
    /// # Errors
    /// [`NamesError`] for a line without three fields, moves that are not
    /// legal from the start, or two names for one position.
    pub fn parse(text: &str) -> Result<Openings, NamesError> {
        let start = Position::initial(BoardSize::Eight);
        let mut openings = Openings::default();
        for (i, line) in text.lines().enumerate() {
            let error = |reason: String| NamesError {
                line: i + 1,
                reason,
            };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
            let [moves, english, french] = fields[..] else {
                return Err(error("expected moves, English name, French name".into()));
            };
            let played = parse_transcript(moves, &start).map_err(|e| error(e.to_string()))?;
            let mut p = start;
            for m in played {
                p = p.play(m).map_err(|e| error(e.to_string()))?;
            }
            let key = canonical(&p).0;
            if let Some(&other) = openings.by_key.get(&key) {
                return Err(error(format!(
                    "the same position as {}",
                    openings.list[other].english
                )));
            }
            openings.by_key.insert(key, openings.list.len());
            openings.list.push(Opening {
                moves: moves.to_string(),
                english: english.to_string(),
                french: french.to_string(),
            });
        }
        Ok(openings)
    }

    /// The names shipped with the program.
    ///
    /// # Panics
    /// Never with the shipped file (a test reads it).
    #[must_use]
    pub fn shipped() -> &'static Openings {
        static OPENINGS: OnceLock<Openings> = OnceLock::new();
        OPENINGS.get_or_init(|| Openings::parse(NAMES).unwrap_or_default())
    }

    /// Every opening, in the file's order.
    #[must_use]
    pub fn list(&self) -> &[Opening] {
        &self.list
    }

    /// The opening named for `position` exactly, if any.
    #[must_use]
    pub fn at(&self, position: &Position) -> Option<&Opening> {
        if position.size() != BoardSize::Eight {
            return None;
        }
        self.by_key
            .get(&canonical(position).0)
            .map(|&i| &self.list[i])
    }

    /// The opening of a game from the standard start: the name of the last
    /// named position among those `moves` go through (`None` before the
    /// first named one, or from another start).
    #[must_use]
    pub fn of_game(&self, start: &Position, moves: &[Move]) -> Option<&Opening> {
        if *start != Position::initial(BoardSize::Eight) {
            return None;
        }
        let mut p = *start;
        let mut found = None;
        for &m in moves {
            p = p.play_unchecked(m);
            if let Some(o) = self.at(&p) {
                found = Some(o);
            }
        }
        found
    }

    /// The opening of `game` up to its cursor ([`Openings::of_game`]); the
    /// names belong to Othello, so an Anti Reversi game has none.
    #[must_use]
    pub fn of_played(&self, game: &Game) -> Option<&Opening> {
        if game.rules().anti {
            return None;
        }
        self.of_game(&game.start(), game.played())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(moves: &str) -> Option<String> {
        let start = Position::initial(BoardSize::Eight);
        let played = parse_transcript(moves, &start).expect("moves");
        Openings::shipped()
            .of_game(&start, &played)
            .map(|o| o.english.clone())
    }

    #[test]
    fn the_shipped_names_are_read_whole() {
        let parsed = Openings::parse(NAMES).expect("the shipped names");
        assert_eq!(parsed.list().len(), 77);
        assert_eq!(Openings::shipped().list().len(), 77);
    }

    /// The three second moves and the classics, from f5 (the list's moves
    /// start at c4), whatever the first move's orientation.
    #[test]
    fn openings_are_named_under_the_symmetries() {
        assert_eq!(name("f5"), None);
        assert_eq!(name("f5d6").as_deref(), Some("Perpendicular Opening"));
        assert_eq!(name("f5f4").as_deref(), Some("Parallel Opening"));
        assert_eq!(name("f5f6").as_deref(), Some("Diagonal Opening"));
        assert_eq!(name("f5d6c3d3c4").as_deref(), Some("Tiger"));
        assert_eq!(name("d3c5f6f5e6").as_deref(), Some("Tiger"));
        // The last named position stays the game's opening …
        assert_eq!(name("f5d6c3d3c4f4").as_deref(), Some("Tiger"));
        // … until a deeper one is reached.
        assert_eq!(name("f5d6c3d3c4f4f6").as_deref(), Some("Stephenson"));
        assert_eq!(name("f5d6c3d3c4b3").as_deref(), Some("Aubrey / Tanaka"));
        assert_eq!(name("f5d6c5f4e3c6d3f6e6d7").as_deref(), Some("Rose"));
        assert_eq!(name("f5d6c4d3c5").as_deref(), Some("Cat"));
        assert_eq!(
            name("f5f6e6f4c3").as_deref(),
            Some("Buffalo / Kenichi Variation")
        );
        assert_eq!(name("f5f6e6f4e3").as_deref(), Some("Cow"));
        // Another order of the same moves reaches the same position.
        assert_eq!(name("f5d6c4d3c3").as_deref(), Some("Tiger"));
        let start = Position::initial(BoardSize::Eight);
        let tiger = parse_transcript("f5d6c3d3c4", &start).expect("moves");
        let mut p = start;
        for m in tiger {
            p = p.play(m).expect("legal");
        }
        assert_eq!(
            Openings::shipped().at(&p).map(|o| o.name(true)),
            Some("Tigre")
        );
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        let e = Openings::parse("# a comment\nc4c3\tDiagonal\n").expect_err("two fields");
        assert_eq!(e.line, 2);
        let e = Openings::parse("c4c4\ta\tb\n").expect_err("illegal");
        assert_eq!(e.line, 1);
        let e = Openings::parse("c4c3\ta\tb\nd3c3\tc\td\n").expect_err("the same position");
        assert!(e.reason.contains('a'), "{}", e.reason);
    }
}
