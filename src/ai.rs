//! The AI: iterative-deepening alpha-beta search with an exact endgame solver.
//!
//! Depends on [`crate::rules`], on [`crate::notation`] for the moves a
//! review writes and reads back, and on the seedable generator of
//! [`crate::random`]; no printing, no globals. The engine is a function of
//! (position, rules, limits, table, stop flag, seed) returning a
//! [`SearchResult`], reporting progress through a callback.
//!
//! This file holds the public API the UI and tools use (scores, limits,
//! results, the [`Engine`]); the levels and the search itself live in the
//! submodules:
//!
//! * [`Level`] (`level`) — the ladder of playing levels and their limits;
//! * [`Reference`] (`reference`) — the `random` and `greedy` players, which
//!   do not search;
//! * [`book`] — the opening book: its file, building and extending it, and
//!   the moves it gives;
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
//! * `step` — the pieces the midgame search, the solver and the root share
//!   (the score bound, playing a move on the bitboards, move lists);
//! * `measure` — measurements for tuning: the values that `learn` fits the
//!   ProbCut models to ([`probcut_samples`], [`endcut_samples`]);
//! * [`worker`] — the engine on a thread of its own, fed jobs, answering
//!   through a callback (the game screen and the NBoard protocol).
//!
//! All variants are searched: 6×6 through the board mask, Anti Reversi and the
//! scoring rules through [`crate::rules::final_margin`] (the solver maximises
//! exactly what the rules score).

pub mod book;
mod endgame;
mod eval;
mod features;
mod geometry;
mod level;
mod measure;
mod midgame;
pub mod pattern;
pub mod probcut;
mod reference;
pub mod review;
mod root;
mod searcher;
mod step;
mod table;
mod weights;
pub mod worker;

pub use eval::Evaluator;
pub use level::{Level, LevelError};
pub use measure::{EndcutSample, ProbCutSample, endcut_samples, probcut_samples};
pub use reference::Reference;
pub use table::max_hash_megabytes;
pub use weights::{BIAS_SLOTS, EVAL_LIMIT, PatternWeights, WeightsError};

use crate::rules::kernels::with_kernels;
use crate::rules::{Bitboard, BoardSize, KernelSet, Move, Position, Rules};
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

/// Empty squares above which a search uses [`Limits::opening_depth`].
pub const OPENING_EMPTIES: u32 = 40;

/// Empty squares from which a search uses [`Limits::late_depth`].
pub const LATE_EMPTIES: u32 = 34;

/// Plies the nominal depths ([`Limits::nominal`]) add to the midgame search
/// from [`OPENING_EMPTIES`] empty squares down: the games against NTest are
/// won and lost there (`docs/tuning.md`).
pub const NOMINAL_MIDGAME_PLIES: u32 = 2;

/// Plies the nominal depths add from [`LATE_EMPTIES`] empty squares down,
/// where two plies more cost less than higher up (`docs/tuning.md`, "The
/// other half of the openings").
pub const NOMINAL_LATE_PLIES: u32 = 4;

/// Empty squares above their proven result-only solve from which the
/// nominal depths run a probable result-only solve instead of the midgame
/// search: 2 (25 and 24 empties at depth 16).
pub const NOMINAL_PROBABLE_SQUARES: u32 = 2;

/// The endgame ProbCut selectivity of that probable solve: 2 (2.0 σ), fewer
/// lost results than the midgame search in half the time of 2.6 σ
/// (measured in `docs/tuning.md`, "Constants of the search").
pub const NOMINAL_PROBABLE_SELECTIVITY: u8 = 2;

/// Empty squares above their proven result-only solve from which the
/// nominal depths' probable solve is cautious ([`Limits::cautious_empties`]):
/// 1 (24 empties at depth 16), where a probable solve's mistake costs a
/// result most often (measured in `docs/tuning.md`, "Constants of the
/// search").
pub const NOMINAL_CAUTIOUS_SQUARES: u32 = 1;

/// What bounds a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum midgame depth in plies.
    pub depth: u32,
    /// The midgame depth while more than [`OPENING_EMPTIES`] squares are
    /// empty (`None`: `depth`).
    pub opening_depth: Option<u32>,
    /// The midgame depth from [`LATE_EMPTIES`] empty squares down (`None`:
    /// `depth`).
    pub late_depth: Option<u32>,
    /// Solve exactly when this many empty squares or fewer remain.
    pub exact_empties: u32,
    /// Above `exact_empties`, solve for the result only (win, draw or loss,
    /// not the margin) when this many empty squares or fewer remain (not
    /// above `exact_empties`: never). The move chosen wins (or draws) when
    /// that is possible; the score reported is the estimate on the right
    /// side of zero.
    pub wld_empties: u32,
    /// Above both `exact_empties` and `wld_empties`, a *probable* result-only
    /// solve when this many empty squares or fewer remain (not above them:
    /// never): the solve of `wld_empties` with endgame ProbCut at
    /// `probable_selectivity`, never proven. Only with an evaluation
    /// that has an endgame ProbCut model (the learned one); otherwise the
    /// midgame search plays on.
    pub probable_empties: u32,
    /// The endgame ProbCut selectivity of the probable solves, 1 (2.6 σ) to
    /// 4 (1.1 σ); 0: the midgame's `selectivity` (at least 1).
    pub probable_selectivity: u8,
    /// From this many empty squares down, a probable solve runs at
    /// selectivity 1 (2.6 σ) whatever `probable_selectivity` says (0:
    /// never): the squares nearest the proof, where a probable solve's
    /// mistake costs a result most often.
    pub cautious_empties: u32,
    /// Wall-clock budget; the best move so far is returned when it runs out.
    pub time: Option<Duration>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Random noise added to root move scores, in hundredths of a disc (0: none).
    pub noise: i32,
    /// ProbCut selectivity of the midgame search: 0 none, 1 cautious (cut at
    /// 2.6 σ) … 4 aggressive (1.1 σ). Exact solves are never selective.
    pub selectivity: u8,
    /// What the search knows of the game: the engine's full evaluation or a
    /// weaker one (for the lower levels).
    pub evaluation: Evaluation,
    /// The temperature of the choice between close root moves, in hundredths
    /// of a disc (0: always the best move). A move `d` below the best is
    /// chosen with a weight `exp(-d / temperature)`; moves more than three
    /// temperatures below the best are never chosen.
    pub temperature: i32,
    /// Stop one ply short of the midgame depth when the best move has been
    /// the same for this many iterations in a row (0: never). Only where no
    /// solve follows and the search is not an analysis.
    pub settle: u32,
    /// Search this many plies past the midgame depth when its last iteration
    /// chose another move than either of the two before it (0: never). Only
    /// where no solve follows and the search is not an analysis.
    pub doubt: u32,
    /// Play from the engine's opening book where it knows the position
    /// (standard 8×8 Reversi): a move drawn among the book moves within this
    /// many hundredths of a disc of the best book move and of the book's
    /// value of the start for the side (0: the best), each as often as the
    /// collections' games played it ([`book::Book::choose`]). `None`: no
    /// book.
    pub book: Option<u16>,
}

/// How much of the game the static evaluation understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Evaluation {
    /// The engine's evaluation: the learned patterns on 8×8 (unless the engine
    /// was told otherwise), the hand-written one elsewhere.
    #[default]
    Full,
    /// The hand-written evaluation: mobility, frontier, corners, X and C
    /// squares, stable discs.
    Positional,
    /// Mobility only: the difference in legal moves (no sense of corners or
    /// edges).
    Mobility,
    /// The disc count only (the "most flips" view of the game).
    Discs,
}

impl Limits {
    /// A fixed-depth search with no time limit and no noise.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth,
            opening_depth: None,
            late_depth: None,
            exact_empties: 0,
            wld_empties: 0,
            probable_empties: 0,
            probable_selectivity: 0,
            cautious_empties: 0,
            time: None,
            nodes: None,
            noise: 0,
            selectivity: 0,
            evaluation: Evaluation::Full,
            temperature: 0,
            settle: 0,
            doubt: 0,
            book: None,
        }
    }

    /// The search of a nominal depth, as `set depth N` of the NBoard
    /// protocol asks for: a midgame search `depth` plies deep while more
    /// than [`OPENING_EMPTIES`] squares are empty,
    /// [`NOMINAL_MIDGAME_PLIES`] plies deeper from there and
    /// [`NOMINAL_LATE_PLIES`] deeper from [`LATE_EMPTIES`] down, with
    /// ProbCut at selectivity 4; a result-only (win/draw/loss) solve from
    /// `W = ⌊15 + (depth − 6) · 0.5 / 0.738⌋ + 2` empties (at most 24; from
    /// 21 empties a selective solve comes first) and an exact solve from
    /// `W − 4`: 21 and 17 at depth 12, 23 and 19 at 16, 24 and 20 at 18,
    /// one empty square before the schedule of NTest's `set depth` (at most
    /// 24); from `W +` [`NOMINAL_PROBABLE_SQUARES`] empties a probable
    /// result-only solve at [`NOMINAL_PROBABLE_SELECTIVITY`] replaces the
    /// midgame search, at 2.6 σ from `W +` [`NOMINAL_CAUTIOUS_SQUARES`]
    /// down. No time limit, no noise.
    /// `docs/tuning.md` has the matches against NTest behind these choices.
    #[must_use]
    pub fn nominal(depth: u32) -> Limits {
        let solve = 15.0 + (f64::from(depth) - 6.0) * 0.5 / 0.738;
        let wld = (solve.floor().max(0.0) as u32 + 2).min(24);
        Limits {
            opening_depth: Some(depth),
            late_depth: Some((depth + NOMINAL_LATE_PLIES).min(60)),
            exact_empties: wld.saturating_sub(4),
            wld_empties: wld,
            probable_empties: wld + NOMINAL_PROBABLE_SQUARES,
            probable_selectivity: NOMINAL_PROBABLE_SELECTIVITY,
            cautious_empties: wld + NOMINAL_CAUTIOUS_SQUARES,
            selectivity: 4,
            ..Limits::depth((depth + NOMINAL_MIDGAME_PLIES).min(60))
        }
    }

    /// The midgame depth of a search from a position with `empties` empty
    /// squares: [`Limits::opening_depth`] above [`OPENING_EMPTIES`],
    /// [`Limits::late_depth`] from [`LATE_EMPTIES`] down, else (and where
    /// those are `None`) [`Limits::depth`].
    #[must_use]
    pub fn depth_at(&self, empties: u32) -> u32 {
        if empties > OPENING_EMPTIES {
            self.opening_depth.unwrap_or(self.depth)
        } else if empties > LATE_EMPTIES {
            self.depth
        } else {
            self.late_depth.unwrap_or(self.depth)
        }
    }

    /// The endgame ProbCut selectivity of a probable solve from a position
    /// with `empties` empty squares: 1 (2.6 σ) from
    /// [`Limits::cautious_empties`] down, else
    /// [`Limits::probable_selectivity`], or the midgame's `selectivity` (at
    /// least 1) where that is 0 (`docs/tuning.md`, "A cautious probable
    /// solve at 24 empties" and "A cautious probable solve next to the
    /// proof").
    #[must_use]
    pub fn probable_selectivity_at(&self, empties: u32) -> u8 {
        match self.probable_selectivity {
            _ if empties <= self.cautious_empties => 1,
            0 => self.selectivity.max(1),
            s => s,
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
    /// The move comes from the opening book (no search ran).
    pub book: bool,
}

/// One legal move and its score, as returned by [`Engine::analyze`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveEval {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: Score,
    /// The score is the opening book's value of the move.
    pub book: bool,
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
    /// The opening book searches with [`Limits::book`] play from.
    book: Option<Arc<book::Book>>,
    /// The kernel set searches run with.
    kernels: KernelSet,
}

impl Engine {
    /// An engine with a table of about `hash_mb` MiB (at least 1), one thread.
    #[must_use]
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            table: table::Table::new(hash_mb),
            threads: 1,
            weights: PatternWeights::shipped().ok(),
            book: book::Book::shipped().ok().filter(|b| !b.is_empty()),
            kernels: KernelSet::selected(),
        }
    }

    /// Chooses the kernel set searches run with (every set finds the same
    /// moves, values and node counts; only the speed differs). The default
    /// is [`KernelSet::selected`]: the set `REVERSI_KERNELS` names, else
    /// the best the CPU has.
    pub fn set_kernels(&mut self, kernels: KernelSet) {
        self.kernels = kernels;
    }

    /// The kernel set searches run with.
    #[must_use]
    pub fn kernels(&self) -> KernelSet {
        self.kernels
    }

    /// Chooses the opening book (`None`: none). The default is the shipped
    /// book (`data/book.rvb`). Only searches whose [`Limits::book`] is set
    /// play from it.
    pub fn set_book(&mut self, book: Option<Arc<book::Book>>) {
        self.book = book;
    }

    /// The opening book this engine plays from, if any.
    #[must_use]
    pub fn book(&self) -> Option<Arc<book::Book>> {
        self.book.clone()
    }

    /// The book's moves of `position` under `rules` and `limits`, best
    /// first: none without [`Limits::book`], off the standard 8×8 game, or
    /// where the book does not know the position.
    #[must_use]
    pub fn book_moves(
        &self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
    ) -> Vec<book::BookMove> {
        self.book_for(rules, limits)
            .map_or_else(Vec::new, |b| b.moves(position))
    }

    /// The book searches under `rules` and `limits` play from: none without
    /// [`Limits::book`] or off the standard 8×8 game.
    fn book_for(&self, rules: &Rules, limits: &Limits) -> Option<&book::Book> {
        self.book
            .as_deref()
            .filter(|_| limits.book.is_some() && rules.size == BoardSize::Eight && !rules.anti)
    }

    /// The book's move for a search, drawn with `seed` by
    /// [`book::Book::choose`].
    fn book_move(
        &self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        seed: u64,
    ) -> Option<SearchResult> {
        let start = std::time::Instant::now();
        let book = self.book_for(rules, limits)?;
        let margin = i32::from(limits.book?);
        let mut rng = crate::random::seeded(seed);
        let chosen = book.choose(position, margin, &mut rng)?;
        Some(SearchResult {
            best_move: chosen.mv,
            score: Score::Estimate(chosen.value),
            depth: 0,
            pv: vec![chosen.mv],
            nodes: 0,
            elapsed: start.elapsed(),
            book: true,
        })
    }

    /// Chooses the evaluation: the learned `weights` (used on 8×8 Reversi), or
    /// `None` for the hand-written evaluation everywhere. The default is the
    /// shipped weights, or the hand-written evaluation when they fail to load
    /// ([`PatternWeights::shipped`] says why).
    pub fn set_weights(&mut self, weights: Option<Arc<PatternWeights>>) {
        self.weights = weights;
    }

    /// The learned weights this engine uses on 8×8 (`None`: the hand-written
    /// evaluation).
    #[must_use]
    pub fn weights(&self) -> Option<Arc<PatternWeights>> {
        self.weights.clone()
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
        if let Some(r) = self.book_move(position, rules, limits, seed) {
            return r;
        }
        let job = root::Job {
            seed,
            ..self.job(position, rules, limits, stop)
        };
        self.run(&job, progress).result
    }

    /// [`Engine::search`] among the legal moves outside `exclude` only: the
    /// best of the others and its score (what an opening book needs for the
    /// moves its games never tried). `None` when no legal move is left
    /// (a pass included). No noise and no temperature apply.
    pub fn search_excluding(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        exclude: Bitboard,
    ) -> Option<SearchResult> {
        if (position.legal_moves() & !exclude).is_empty() {
            return None;
        }
        let limits = Limits {
            noise: 0,
            temperature: 0,
            ..*limits
        };
        let job = root::Job {
            exclude: exclude.0,
            ..self.job(position, rules, &limits, stop)
        };
        Some(self.run(&job, &mut |_| {}).result)
    }

    /// A score for every legal move, best first (`Pass` alone when the side
    /// to move must pass, nothing when the game is over). Scores are exact when
    /// the position has at most `limits.exact_empties` empties and the solve
    /// finished in time. No noise is added and no temperature applies.
    pub fn analyze(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> Vec<MoveEval> {
        self.analysis(position, rules, limits, stop, progress).0
    }

    /// [`Engine::analyze`] with the search behind it: the scores of every
    /// legal move and the result of the same run (principal variation, depth,
    /// nodes and time of the whole analysis). No noise, no temperature.
    pub fn analysis(
        &mut self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress),
    ) -> (Vec<MoveEval>, SearchResult) {
        let limits = Limits {
            noise: 0,
            temperature: 0,
            ..*limits
        };
        let job = root::Job {
            full_window: true,
            ..self.job(position, rules, &limits, stop)
        };
        let answer = self.run(&job, progress);
        let mut moves = answer.moves;
        // The book's values where it knows the moves.
        let known = self.book_moves(position, rules, &limits);
        if !known.is_empty() {
            for m in &mut moves {
                if let Some(k) = known.iter().find(|k| k.mv == m.mv) {
                    m.score = Score::Estimate(k.value);
                    m.book = true;
                }
            }
            moves.sort_by(|a, b| b.score.discs().total_cmp(&a.score.discs()));
        }
        (moves, answer.result)
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
        let w = step::Window::new(alpha, beta);
        let (p, o) = (position.player(), position.opponent());
        with_kernels!(self.kernels, k => {
            self.with_searcher(k, rules, |s| s.midgame(p, o, depth, w, true))
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
        let (p, o) = (position.player(), position.opponent());
        with_kernels!(self.kernels, k => {
            self.with_searcher(k, rules, |s| s.solve(p, o, alpha, beta))
        })
    }

    fn with_searcher<K: searcher::Entries, T>(
        &mut self,
        kernels: K,
        rules: &Rules,
        f: impl FnOnce(&mut searcher::Searcher<K>) -> T,
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
        let mut s = searcher::Searcher::new(kernels, &self.table, rules, eval, stop);
        f(&mut s)
    }

    /// The search of `position` under `limits` with this engine's threads and
    /// evaluation: seed 0, a null window for every root move but the first.
    fn job<'s>(
        &self,
        position: &Position,
        rules: &Rules,
        limits: &Limits,
        stop: &'s AtomicBool,
    ) -> root::Job<'s> {
        root::Job {
            position: *position,
            rules: *rules,
            limits: *limits,
            seed: 0,
            full_window: false,
            exclude: 0,
            threads: self.threads,
            stop,
            eval: match limits.evaluation {
                Evaluation::Full => self.evaluator(rules),
                weaker => Evaluator::weaker(rules, weaker),
            },
            kernels: self.kernels,
        }
    }

    /// Runs `job` in a new table generation.
    fn run(&mut self, job: &root::Job, progress: &mut dyn FnMut(&Progress)) -> root::Answer {
        self.table.new_generation();
        root::run(&self.table, job, progress)
    }
}

/// The UI moves the engine to a worker thread: it must stay `Send`.
const _: () = {
    const fn assert_send<T: Send>() {}
    assert_send::<Engine>();
};
