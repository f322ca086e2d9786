//! The playing levels: the ladder from 1 (beginner) to 12 (master), each a
//! name, who it suits and the search limits it plays with. `docs/levels.md`
//! has the strength of each, measured against the `greedy` player and the
//! level below.

use super::{Evaluation, Limits};
use std::fmt;
use std::time::Duration;

/// A playing level, 1 (beginner) to [`Level::MAX`] (master).
///
/// The ladder is anchored on the player that always takes the move flipping
/// the most discs (`greedy` in `reversi match`), which is how most people
/// play their first games: level 1 scores about half against it, and each
/// level is meant to be about 150–250 Elo stronger than the one below
/// (`reversi bench --ladder` measures it; `docs/levels.md` has the figures).
///
/// Written as its number in data (the salon's protocol, stored games); a
/// number outside the ladder does not read as a level.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(try_from = "u8", into = "u8")]
pub struct Level(u8);

impl TryFrom<u8> for Level {
    type Error = LevelError;

    /// The level numbered `n`.
    fn try_from(n: u8) -> Result<Level, LevelError> {
        Level::new(n).ok_or_else(|| LevelError {
            text: n.to_string(),
        })
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

/// Text that names no level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("level {text} does not exist: use {} to {} or {}", Level::MIN.number(), Level::MAX.number(), Level::ALL.map(Level::name).join(", "))]
pub struct LevelError {
    /// The text, trimmed.
    pub text: String,
}

impl std::str::FromStr for Level {
    type Err = LevelError;

    /// Reads a level by number (`3`) or name (`casual`, any case): the one
    /// reader of levels for flags, match specs, the config file and records.
    ///
    /// ```
    /// use reversi::ai::Level;
    /// assert_eq!("3".parse::<Level>().unwrap(), Level::DEFAULT);
    /// assert_eq!("Master".parse::<Level>().unwrap(), Level::MAX);
    /// assert!("0".parse::<Level>().is_err());
    /// assert!("grandmaster".parse::<Level>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<Level, LevelError> {
        let t = text.trim().to_ascii_lowercase();
        t.parse::<u8>()
            .ok()
            .and_then(Level::new)
            .or_else(|| Level::ALL.into_iter().find(|l| l.name() == t))
            .ok_or_else(|| LevelError {
                text: text.trim().to_string(),
            })
    }
}

/// One rung of the ladder.
struct Rung {
    name: &'static str,
    suits: &'static str,
    depth: u32,
    exact: u32,
    selectivity: u8,
    evaluation: Evaluation,
    /// Hundredths of a disc.
    temperature: i32,
    /// Seconds.
    time: f64,
    /// The opening book's margin, hundredths of a disc (`None`: no book).
    book: Option<u16>,
}

/// The ladder, weakest first. See [`Level::limits`].
const LADDER: [Rung; 12] = [
    Rung {
        name: "beginner",
        suits: "learning the rules: grabs the most discs, never looks ahead",
        depth: 1,
        exact: 0,
        selectivity: 0,
        evaluation: Evaluation::Discs,
        temperature: 100,
        time: 0.2,
        book: None,
    },
    Rung {
        name: "novice",
        suits: "your first wins: keeps its options open, blind to corners",
        depth: 2,
        exact: 0,
        selectivity: 0,
        evaluation: Evaluation::Mobility,
        temperature: 50,
        time: 0.2,
        book: None,
    },
    Rung {
        name: "casual",
        suits: "casual games: knows corners and edges, looks one move ahead",
        depth: 1,
        exact: 0,
        selectivity: 0,
        evaluation: Evaluation::Positional,
        temperature: 50,
        time: 0.2,
        book: None,
    },
    Rung {
        name: "hobby",
        suits: "casual players: knows corners, looks two moves ahead",
        depth: 2,
        exact: 0,
        selectivity: 0,
        evaluation: Evaluation::Positional,
        temperature: 130,
        time: 0.3,
        book: None,
    },
    Rung {
        name: "improver",
        suits: "keen casual players: sees corners and edges, three moves ahead",
        depth: 3,
        exact: 6,
        selectivity: 0,
        evaluation: Evaluation::Positional,
        temperature: 110,
        time: 0.3,
        book: None,
    },
    Rung {
        name: "intermediate",
        suits: "new club players: a real feel for the board, short sight",
        depth: 2,
        exact: 6,
        selectivity: 0,
        evaluation: Evaluation::Full,
        temperature: 120,
        time: 0.3,
        book: None,
    },
    Rung {
        name: "club",
        suits: "club players: 3 moves ahead, the last 8 moves perfect",
        depth: 3,
        exact: 8,
        selectivity: 0,
        evaluation: Evaluation::Full,
        temperature: 50,
        time: 0.5,
        book: None,
    },
    Rung {
        name: "advanced",
        suits: "good club players: 4 moves ahead, the last 10 perfect",
        depth: 4,
        exact: 10,
        selectivity: 0,
        evaluation: Evaluation::Full,
        temperature: 0,
        time: 0.5,
        book: None,
    },
    Rung {
        name: "strong",
        suits: "strong players: 6 moves ahead, the last 12 perfect",
        depth: 6,
        exact: 12,
        selectivity: 3,
        evaluation: Evaluation::Full,
        temperature: 0,
        time: 0.5,
        book: None,
    },
    Rung {
        name: "tournament",
        suits: "tournament players: 8 moves ahead, the last 14 perfect",
        depth: 8,
        exact: 14,
        selectivity: 3,
        evaluation: Evaluation::Full,
        temperature: 0,
        time: 1.0,
        book: Some(200),
    },
    Rung {
        name: "expert",
        suits: "experts: 12 moves ahead, the last 18 moves perfect",
        depth: 12,
        exact: 18,
        selectivity: 2,
        evaluation: Evaluation::Full,
        temperature: 0,
        time: 1.0,
        book: Some(150),
    },
    Rung {
        name: "master",
        suits: "masters: full strength, up to 4 seconds a move",
        depth: 60,
        exact: 24,
        selectivity: 1,
        evaluation: Evaluation::Full,
        temperature: 0,
        time: 4.0,
        book: Some(100),
    },
];

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(LADDER.len() as u8);
    /// The default level: casual play.
    pub const DEFAULT: Level = Level(3);
    /// The weakest level the hints use (eight moves deep).
    pub const HINTS: Level = Level(10);
    /// The level of `reversi analyze` without `--level` or `--depth`.
    pub const EXPERT: Level = Level(11);
    /// All levels, weakest first.
    pub const ALL: [Level; LADDER.len()] = {
        let mut all = [Level(1); LADDER.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Level(i as u8 + 1);
            i += 1;
        }
        all
    };

    /// The level numbered `n` (1 to [`Level::MAX`]).
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=Level::MAX.0).contains(&n).then_some(Level(n))
    }

    /// The level's number, 1 to [`Level::MAX`].
    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    fn rung(self) -> &'static Rung {
        &LADDER[usize::from(self.0 - 1)]
    }

    /// The level's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.rung().name
    }

    /// Who the level suits and how it plays, in a player's words:
    /// `"who: how"`.
    #[must_use]
    pub fn suits(self) -> &'static str {
        self.rung().suits
    }

    /// The search limits of this level.
    ///
    /// | level | evaluation | depth | exact empties | selectivity | temperature (discs) | time cap | book (discs) |
    /// |---|---|---|---|---|---|---|---|
    /// | 1 beginner | discs | 1 | 0 | none | 1.0 | 0.2 s | none |
    /// | 2 novice | mobility | 2 | 0 | none | 0.5 | 0.2 s | none |
    /// | 3 casual | hand-written | 1 | 0 | none | 0.5 | 0.2 s | none |
    /// | 4 hobby | hand-written | 2 | 0 | none | 1.3 | 0.3 s | none |
    /// | 5 improver | hand-written | 3 | 6 | none | 1.1 | 0.3 s | none |
    /// | 6 intermediate | learned | 2 | 6 | none | 1.2 | 0.3 s | none |
    /// | 7 club | learned | 3 | 8 | none | 0.5 | 0.5 s | none |
    /// | 8 advanced | learned | 4 | 10 | none | 0 | 0.5 s | none |
    /// | 9 strong | learned | 6 | 12 | 3 (t = 1.5) | 0 | 0.5 s | none |
    /// | 10 tournament | learned | 8 | 14 | 3 (t = 1.5) | 0 | 1 s | within 2 |
    /// | 11 expert | learned | 12 | 18 | 2 (t = 2.0) | 0 | 1 s | within 1.5 |
    /// | 12 master | learned | 60 | 24 | 1 (t = 2.6) | 0 | 4 s | within 1 |
    ///
    /// "Within N": where the opening book knows the position, a move drawn
    /// among the book moves at most N discs below the best ([`Limits::book`]).
    ///
    /// Iterative deepening stops starting new iterations after 40 % of the time
    /// cap; the exact solve is abandoned for the midgame answer at the cap.
    #[must_use]
    pub fn limits(self) -> Limits {
        let r = self.rung();
        Limits {
            depth: r.depth,
            opening_depth: None,
            late_depth: None,
            exact_empties: r.exact,
            wld_empties: 0,
            probable_empties: 0,
            probable_selectivity: 0,
            cautious_empties: 0,
            time: Some(Duration::from_secs_f64(r.time)),
            nodes: None,
            noise: 0,
            selectivity: r.selectivity,
            evaluation: r.evaluation,
            temperature: r.temperature,
            settle: 0,
            doubt: 0,
            book: r.book,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}
