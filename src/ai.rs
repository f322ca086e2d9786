//! The AI: iterative-deepening alpha-beta search with an exact endgame solver.
//!
//! Depends on [`crate::rules`] only; no printing, no globals. The engine is a
//! function of (position, rules, limits, table, stop flag, seed) returning a
//! [`SearchResult`], reporting progress through a callback.
//!
//! This file holds the public API the UI and tools use; the search itself lives
//! in the submodules:
//!
//! * `root` — iterative deepening with aspiration windows, the exact solve when
//!   few enough empties remain, noise, best move so far, Lazy SMP threads;
//! * `midgame` — PVS with the table, move ordering by shallow search, ProbCut;
//! * `endgame` — the exact solver (table and stability cutoffs, enhanced
//!   transposition cutoffs, fastest-first and parity ordering, dedicated code
//!   for the last four empties);
//! * [`review`] — the review of a whole game: each move against the best,
//!   classes, a summary per player;
//! * [`probcut`] — the fitted ProbCut models and the fitting function;
//! * `eval` — [`Evaluator`]: the learned evaluation on 8×8, the hand-written
//!   one for the other variants;
//! * [`pattern`] — the features of the learned evaluation (patterns, classes);
//! * `features` — the pattern configurations kept up to date move by move;
//! * `weights` — [`PatternWeights`]: the learned weights, their file format and
//!   the shipped file;
//! * `table` — the lock-free shared transposition table;
//! * `geometry` — per-variant masks, scoring and stable-disc detection;
//! * `searcher` — one thread's state and stop conditions;
//! * `tools` — data collection for tuning (`reversi bench --fit-probcut`).
//!
//! All variants are searched: 6×6 through the board mask, Anti Reversi and the
//! scoring rules through [`crate::rules::final_margin`] (the solver maximises
//! exactly what the rules score).

mod endgame;
mod eval;
mod features;
mod geometry;
mod measure;
mod midgame;
pub mod pattern;
pub mod probcut;
pub mod review;
mod root;
mod searcher;
mod step;
mod table;
mod weights;

pub use eval::Evaluator;
pub use measure::{EndcutSample, ProbCutSample, endcut_samples, probcut_samples};
pub use table::max_hash_megabytes;
pub use weights::{PatternWeights, WeightsError};

use crate::rules::{Move, Position, Rules};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// The exact final disc margin under the game's rules (positive: the side to
    /// move wins).
    Exact(i32),
    /// An estimate in hundredths of a disc.
    Estimate(i32),
}

impl Score {
    /// The score in discs.
    #[must_use]
    pub fn discs(self) -> f64 {
        match self {
            Score::Exact(d) => f64::from(d),
            Score::Estimate(c) => f64::from(c) / 100.0,
        }
    }

    /// Whether the score is an exact endgame result.
    #[must_use]
    pub fn is_exact(self) -> bool {
        matches!(self, Score::Exact(_))
    }

    /// The score negated (for the other side).
    #[must_use]
    pub fn negate(self) -> Score {
        match self {
            Score::Exact(d) => Score::Exact(-d),
            Score::Estimate(c) => Score::Estimate(-c),
        }
    }
}

impl fmt::Display for Score {
    /// Exact scores as whole discs (`+12`), estimates with a tilde (`~+3.45`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Exact(d) => write!(f, "{d:+}"),
            Score::Estimate(c) => write!(f, "~{:+.2}", f64::from(*c) / 100.0),
        }
    }
}

/// A playing level, 1 (beginner) to 6 (master).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

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
    /// assert_eq!("5".parse::<Level>().unwrap().name(), "expert");
    /// assert_eq!("Club".parse::<Level>().unwrap().number(), 4);
    /// assert!("7".parse::<Level>().is_err());
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

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(6);
    /// The default level (medium).
    pub const DEFAULT: Level = Level(3);
    /// All levels, weakest first.
    pub const ALL: [Level; 6] = [Level(1), Level(2), Level(3), Level(4), Level(5), Level(6)];

    /// The level numbered `n` (1..=6).
    #[must_use]
    pub fn new(n: u8) -> Option<Level> {
        (1..=6).contains(&n).then_some(Level(n))
    }

    /// The level's number, 1..=6.
    #[must_use]
    pub fn number(self) -> u8 {
        self.0
    }

    /// The level's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        ["beginner", "novice", "casual", "club", "expert", "master"][usize::from(self.0 - 1)]
    }

    /// The search limits of this level.
    ///
    /// | level | depth | exact empties | selectivity | noise (discs) | time cap |
    /// |---|---|---|---|---|---|
    /// | 1 beginner | 1 | 0 | none | ±10 | 0.2 s |
    /// | 2 novice | 2 | 6 | none | ±4 | 0.3 s |
    /// | 3 casual | 4 | 10 | none | ±1.2 | 0.5 s |
    /// | 4 club | 8 | 14 | 3 (t = 1.5) | 0 | 1 s |
    /// | 5 expert | 12 | 18 | 2 (t = 2.0) | 0 | 1 s |
    /// | 6 master | 60 | 24 | 1 (t = 2.6) | 0 | 4 s |
    ///
    /// Iterative deepening stops starting new iterations after 40 % of the time
    /// cap; the exact solve is abandoned for the midgame answer at the cap.
    #[must_use]
    pub fn limits(self) -> Limits {
        let (depth, exact, selectivity, noise, secs) = match self.0 {
            1 => (1, 0, 0, 1000, 0.2),
            2 => (2, 6, 0, 400, 0.3),
            3 => (4, 10, 0, 120, 0.5),
            4 => (8, 14, 3, 0, 1.0),
            5 => (12, 18, 2, 0, 1.0),
            _ => (60, 24, 1, 0, 4.0),
        };
        Limits {
            depth,
            exact_empties: exact,
            time: Some(Duration::from_secs_f64(secs)),
            nodes: None,
            noise,
            selectivity,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.0, self.name())
    }
}

/// What bounds a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum midgame depth in plies.
    pub depth: u32,
    /// Solve exactly when this many empty squares or fewer remain.
    pub exact_empties: u32,
    /// Wall-clock budget; the best move so far is returned when it runs out.
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Random noise added to root move scores, in hundredths of a disc (0: none).
    pub noise: i32,
    /// ProbCut selectivity of the midgame search: 0 none, 1 cautious (cut at
    /// 2.6 σ) … 4 aggressive (1.1 σ). Exact solves are never selective.
    pub selectivity: u8,
}

impl Limits {
    /// A fixed-depth search with no time limit and no noise.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            exact_empties: 0,
            time: None,
            nodes: None,
            noise: 0,
            selectivity: 0,
        }
    }

    /// An exact solve (any number of empties) with no other limit.
    #[must_use]
    pub fn exact() -> Limits {
        Limits {
            depth: 60,
            exact_empties: 64,
            ..Limits::depth(60)
        }
    }
}

/// A progress report during a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Depth completed.
    pub depth: u32,
    /// Best move so far.
    pub best_move: Move,
    /// Its score.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Pass` when the side to move must pass).
    pub best_move: Move,
    /// Its score for the side to move.
    pub score: Score,
    /// Depth completed (empties when exact).
    pub depth: u32,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock time used.
    pub elapsed: Duration,
}

/// One legal move and its score, as returned by [`Engine::analyze`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEval {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: Score,
}

/// The search engine: owns the transposition table between searches.
///
/// `Send`: the UI may move it to a worker thread. Searches with more than one
/// thread ([`Engine::set_threads`]) share the table (Lazy SMP).
#[derive(Debug)]
pub struct Engine {
    table: table::Table,
    threads: usize,
    /// The learned weights (8×8); `None`: the hand-written evaluation.
    weights: Option<Arc<PatternWeights>>,
}

impl Engine {
    /// An engine with a table of about `hash_mb` MiB (at least 1), one thread.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            table: table::Table::new(hash_mb),
            threads: 1,
            weights: PatternWeights::shipped().ok(),
        }
    }

    /// Chooses the evaluation: the learned `weights` (used on 8×8 Reversi), or
    /// `None` for the hand-written evaluation everywhere. The default is the
    /// shipped weights, or the hand-written evaluation when they fail to load
    /// ([`PatternWeights::shipped`] says why).
    pub fn set_weights(&mut self, weights: Option<Arc<PatternWeights>>) {
        self.weights = weights;
    }

    /// The evaluation this engine uses for the variant `rules`.
    #[must_use]
    pub fn evaluator(&self, rules: &Rules) -> Evaluator {
        Evaluator::with_weights(rules, self.weights.clone())
    }

    /// Clears the transposition table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Sets the number of search threads (at least 1; 1 is the default).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// The number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The table size in MiB.
    #[must_use]
    pub fn hash_mb(&self) -> usize {
        self.table.megabytes()
    }

    /// Searches `position` for the best move under `limits`. Returns promptly
    /// with the best move found so far when `stop` is set. `seed` drives the
    /// level's randomness. On a finished game's position it returns `Pass` with
    /// the final margin; when the side to move must pass, `Pass` with the value
    /// of the position after the pass.
    pub fn search(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        self.run(position, rules, limits, stop, seed, false, progress)
            .result
    }

    /// A score for every legal move, best first (`Pass` alone when the side
    /// to move must pass, nothing when the game is over). Scores are exact when
    /// the position has at most `limits.exact_empties` empties and the solve
    /// finished in time. No noise is added.
    pub fn analyze(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Vec<MoveEval> {
        let limits = Limits {
            noise: 0,
            ..*limits
        };
        self.run(position, rules, &limits, stop, 0, true, progress)
            .moves
    }

    /// The plain fixed-depth alpha-beta value of `position` (hundredths of a
    /// disc, no selectivity, no time limit) within the window (`alpha`,
    /// `beta`), fail-soft: a value `v <= alpha` is an upper bound, `v >= beta` a
    /// lower bound, anything between is exact. For tests and tools.
    pub fn alpha_beta(
        &mut self,
        position: &Position,
        rules: &Rules,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.with_searcher(rules, |s| {
            s.midgame(
                position.player(),
                position.opponent(),
                depth,
                alpha,
                beta,
                true,
            )
        })
    }

    /// The exact final margin of `position` within the window (`alpha`,
    /// `beta`) in discs, fail-soft as [`Engine::alpha_beta`]. For tests and tools.
    pub fn solve_window(
        &mut self,
        position: &Position,
        rules: &Rules,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.with_searcher(rules, |s| {
            s.solve(position.player(), position.opponent(), alpha, beta)
        })
    }

    fn with_searcher<T>(
        &mut self,
        rules: &Rules,
        f: impl FnOnce(&mut searcher::Searcher) -> T,
    ) -> T {
        let flag = AtomicBool::new(false);
        let shared = std::sync::atomic::AtomicU64::new(0);
        let stop = searcher::StopConditions {
            flag: &flag,
            deadline: None,
            nodes: None,
            shared_nodes: &shared,
        };
        let eval = self.evaluator(rules);
        let mut s = searcher::Searcher::new(&self.table, rules, eval, stop);
        f(&mut s)
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        seed: u64,
        full_window: bool,
        progress: &mut dyn FnMut(&Progress),
    ) -> root::Answer {
        self.table.new_generation();
        let job = root::Job {
            position: *position,
            rules: *rules,
            limits: *limits,
            seed,
            full_window,
            threads: self.threads,
            stop,
            eval: self.evaluator(rules),
        };
        root::run(&self.table, &job, progress)
    }
}

/// The UI moves the engine to a worker thread: it must stay `Send`.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Engine>();
};
