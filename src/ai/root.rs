//! The root of a search: iterative deepening with aspiration windows, then
//! (when few enough empties remain) the exact solve, or a result-only one
//! (win/draw/loss, a window of (−1, 1)) above `exact_empties` up to
//! `wld_empties`, or a probable one (endgame ProbCut only, never proven)
//! above both up to `probable_empties`; best move so far, noise,
//! per-move scores for analysis, progress reports; and the parallel search
//! (Lazy SMP: helper threads run the same iterations on the shared table,
//! with the root moves in a different order, and the main thread's result is
//! the answer). In the exact phase a helper starts on another root move than
//! the main thread (timings in `docs/tuning.md`).
//!
//! The exact phase itself may be iterative ([`probcut::solve_schedule`]):
//! from 21 empties, with the learned evaluation, a selective solve (endgame
//! ProbCut) comes first; its value centres the exact solve's window and its
//! best moves order it. If time runs out during the exact iteration, the
//! selective one's answer stands (as an estimate).

use super::probcut;
use super::searcher::{Entries, Searcher, StopConditions};
use super::step::{INF, Window};
use super::table::Table;
use super::{Limits, MoveEval, Progress, Score, SearchResult};
use crate::random;
use crate::rules::kernels::with_kernels;
use crate::rules::{KernelSet, Move, Position, Rules, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Before an exact solve of `n` empties, the midgame search goes `n` minus
/// this many plies deep (at least 1, at most 14).
const PRESEARCH_MARGIN: u32 = 12;

/// The presearch before an exact solve stops deepening after this many
/// nodes: in some positions (one side nearly wiped out, FFO #39) a depth-8
/// midgame search costs more than the whole solve.
const PRESEARCH_NODES: u64 = 2_000_000;

/// Half-width in discs of the first window of the root's exact solve around
/// the midgame estimate (64 or more: a full window).
const EXACT_ASPIRATION: i32 = 3;

/// A root move and what the search knows of it.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    x: u8,
    /// Last value (hundredths, or discs in the exact phase); a bound for moves
    /// that failed low under PVS.
    score: i32,
    /// Random noise added when choosing (hundredths).
    noise: i32,
}

/// Everything one search call needs.
pub(crate) struct Job<'a> {
    pub position: Position,
    pub rules: Rules,
    pub limits: Limits,
    pub seed: u64,
    /// Search every root move with a full window (analysis, noisy levels).
    pub full_window: bool,
    /// Root moves left out of the search (a book's known moves, when the
    /// book asks for the best of the others). The caller makes sure at
    /// least one legal move remains.
    pub exclude: u64,
    pub threads: usize,
    pub stop: &'a AtomicBool,
    /// The static evaluation.
    pub eval: super::Evaluator,
    /// The kernel set the search runs with.
    pub kernels: KernelSet,
}

/// The best answer found, with per-move scores when the root used full windows.
pub(crate) struct Answer {
    pub result: SearchResult,
    pub moves: Vec<MoveEval>,
}

/// Runs a search with `job.threads` threads on `table`.
pub(crate) fn run(table: &Table, job: &Job, progress: &mut dyn FnMut(&Progress)) -> Answer {
    with_kernels!(job.kernels, k => run_with(k, table, job, progress))
}

/// [`run`] with the kernel set `k`.
fn run_with<K: Entries>(
    k: K,
    table: &Table,
    job: &Job,
    progress: &mut dyn FnMut(&Progress),
) -> Answer {
    let start = Instant::now();
    let deadline = job.limits.time.map(|t| start + t);
    let shared_nodes = AtomicU64::new(0);
    let helpers_stop = AtomicBool::new(false);
    let stop = |flag| StopConditions {
        flag,
        deadline,
        nodes: job.limits.nodes,
        shared_nodes: &shared_nodes,
    };
    let p = job.position;
    if !p.has_legal_move() {
        // A pass (or a finished game): the value is that of the other side.
        let score = if p.is_game_over() {
            Score::Exact(job.rules.final_margin(&p))
        } else {
            let passed = Job {
                position: p.play_unchecked(Move::Pass),
                full_window: false,
                exclude: 0,
                rules: job.rules,
                limits: job.limits,
                seed: job.seed,
                threads: job.threads,
                stop: job.stop,
                eval: job.eval.clone(),
                kernels: job.kernels,
            };
            let inner = run(table, &passed, &mut |_| {}).result;
            shared_nodes.fetch_add(inner.nodes, Ordering::Relaxed);
            inner.score.negate()
        };
        let result = SearchResult {
            book: false,
            best_move: Move::Pass,
            score,
            depth: 0,
            pv: vec![Move::Pass],
            nodes: shared_nodes.load(Ordering::Relaxed),
            elapsed: start.elapsed(),
        };
        let moves = if p.is_game_over() {
            Vec::new()
        } else {
            vec![MoveEval {
                book: false,
                mv: Move::Pass,
                score,
            }]
        };
        return Answer { result, moves };
    }
    let mut answer = std::thread::scope(|scope| {
        for h in 1..job.threads.max(1) {
            let helper_stop = stop(&helpers_stop);
            scope.spawn(move || {
                let mut d = Driver::new(k, table, job, helper_stop, h);
                d.iterate(&mut |_| {});
                d.s.flush_nodes();
            });
        }
        let mut d = Driver::new(k, table, job, stop(job.stop), 0);
        d.iterate(progress);
        d.s.flush_nodes();
        helpers_stop.store(true, Ordering::Relaxed);
        let (best, score, depth) = d.best.unwrap_or((d.moves[0].x, Score::Estimate(0), 0));
        let pv = d.principal_variation(best, score.is_exact());
        let moves = if job.full_window {
            d.move_evals()
        } else {
            Vec::new()
        };
        Answer {
            result: SearchResult {
                book: false,
                best_move: Move::Place(square(best)),
                score,
                depth,
                pv,
                nodes: shared_nodes.load(Ordering::Relaxed),
                elapsed: start.elapsed(),
            },
            moves,
        }
    });
    // The helpers have joined: count their nodes too.
    answer.result.nodes = shared_nodes.load(Ordering::Relaxed);
    answer.result.elapsed = start.elapsed();
    answer
}

fn square(x: u8) -> Square {
    Square::new(x).expect("search squares are on the grid")
}

/// The solve a search ends with, when the limits ask for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solve {
    /// The exact margin.
    Exact,
    /// The result only (win, draw or loss), proven.
    Result,
    /// The result only, with endgame ProbCut and never proven.
    Probable,
}

/// What the root move values of a completed iteration are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RootScores {
    /// Midgame estimates, in hundredths of a disc.
    Midgame,
    /// Disc values of a selective (endgame ProbCut) solve: estimates.
    Selective,
    /// Exact disc values.
    Exact,
    /// Win/draw/loss bounds of a result-only solve (discs: 1 or more a win,
    /// 0 a draw, −1 or less a loss).
    Wld,
}

impl RootScores {
    /// A root move value as a [`Score`].
    fn score(self, v: i32) -> Score {
        match self {
            RootScores::Midgame => Score::Estimate(v),
            RootScores::Selective => Score::Estimate(v * 100),
            RootScores::Exact => Score::Exact(v),
            RootScores::Wld => Score::Estimate(v.signum() * 100),
        }
    }

    /// Hundredths of a disc per unit of a root move value.
    fn hundredths(self) -> i32 {
        match self {
            RootScores::Midgame => 1,
            RootScores::Selective | RootScores::Exact | RootScores::Wld => 100,
        }
    }
}

/// One thread's iterative deepening.
struct Driver<'a, K> {
    s: Searcher<'a, K>,
    p: u64,
    o: u64,
    limits: Limits,
    full_window: bool,
    helper: usize,
    start: Instant,
    moves: Vec<RootMove>,
    /// What `moves[..].score` are.
    scores: RootScores,
    best: Option<(u8, Score, u32)>,
    /// A uniform draw in [0, 1) that picks among close moves when the
    /// limits have a temperature.
    draw: f64,
}

impl<'a, K: Entries> Driver<'a, K> {
    fn new(
        kernels: K,
        table: &'a Table,
        job: &Job,
        stop: StopConditions<'a>,
        helper: usize,
    ) -> Driver<'a, K> {
        let pos = job.position;
        let mut s = Searcher::new(kernels, table, &job.rules, job.eval.clone(), stop);
        s.selectivity = job.limits.selectivity;
        let mut rng = random::seeded(job.seed);
        let noise = job.limits.noise.max(0).unsigned_abs();
        let mut moves: Vec<RootMove> = (pos.legal_moves() & !crate::rules::Bitboard(job.exclude))
            .iter()
            .map(|sq| {
                let noise = if noise > 0 {
                    random::symmetric(&mut rng, noise)
                } else {
                    0
                };
                RootMove {
                    x: sq.index() as u8,
                    score: -INF,
                    noise,
                }
            })
            .collect();
        if helper > 0 {
            let k = helper % moves.len();
            moves.rotate_left(k);
        }
        let draw = random::unit(&mut rng);
        Driver {
            s,
            p: pos.player(),
            o: pos.opponent(),
            limits: job.limits,
            full_window: job.full_window || job.limits.noise > 0 || job.limits.temperature > 0,
            helper,
            start: Instant::now(),
            moves,
            scores: RootScores::Midgame,
            best: None,
            draw,
        }
    }

    fn report(&mut self, progress: &mut dyn FnMut(&Progress)) {
        self.s.flush_nodes();
        if let Some((x, score, depth)) = self.best {
            progress(&Progress {
                depth,
                best_move: Move::Place(square(x)),
                score,
                nodes: self.s.stop.shared_nodes.load(Ordering::Relaxed),
                elapsed: self.start.elapsed(),
            });
        }
    }

    /// Whether another iteration is worth starting under the time limit.
    fn has_time(&self) -> bool {
        match self.limits.time {
            Some(t) => self.start.elapsed() < t.mul_f64(0.4),
            None => true,
        }
    }

    fn iterate(&mut self, progress: &mut dyn FnMut(&Progress)) {
        let n = (!(self.p | self.o) & self.s.geo.mask).count_ones();
        // Result-only solves where the limits ask for them, never for
        // analysis (which wants every move's margin); a probable one only
        // with an endgame ProbCut model.
        let l = self.limits;
        let solve = if n <= l.exact_empties {
            Some(Solve::Exact)
        } else if self.full_window {
            None
        } else if n <= l.wld_empties {
            Some(Solve::Result)
        } else if n <= l.probable_empties && self.s.eval.endcut_model(n).is_some() {
            Some(Solve::Probable)
        } else {
            None
        };
        let mut max_depth = l.depth_at(n).clamp(1, n.max(1));
        if solve.is_some() {
            // A short midgame search first: move order and a fallback answer.
            max_depth = max_depth.min(n.saturating_sub(PRESEARCH_MARGIN).clamp(1, 14));
        }
        let first = 1 + (self.helper as u32 & 1);
        let mut prev = 0;
        // For `settle` and `doubt`: the last iteration's move, and how many
        // iterations in a row have chosen it.
        let adaptive = solve.is_none() && !self.full_window;
        let (mut last, mut streak) = (None, 0);
        let mut top = max_depth;
        let mut depth = first.min(max_depth);
        while depth <= top {
            let v = if depth >= 5 && !self.full_window {
                self.aspiration(depth, prev)
            } else {
                self.root_midgame(depth, -INF, INF)
            };
            if self.s.aborted {
                return;
            }
            prev = v;
            self.choose(depth);
            self.report(progress);
            if !self.has_time() && depth < top {
                return;
            }
            if solve.is_some() && self.s.nodes > PRESEARCH_NODES {
                break;
            }
            if adaptive && let Some((x, _, _)) = self.best {
                streak = if last == Some(x) { streak + 1 } else { 1 };
                last = Some(x);
                if l.settle > 0 && depth + 1 == max_depth && streak >= l.settle {
                    break;
                }
                // Three iterations or more, and not the same move in the last three.
                if l.doubt > 0
                    && depth == max_depth
                    && depth + 1 - first.min(max_depth) >= 3
                    && streak < 3
                {
                    top = (max_depth + l.doubt).min(n.max(1));
                }
            }
            depth += 1;
        }
        if let Some(solve) = solve {
            self.solve_iterations(n, prev, solve, progress);
        }
    }

    /// The exact phase: from [`probcut::SELECTIVE_SOLVE_EMPTIES`] empties,
    /// solves with endgame ProbCut at decreasing selectivity first (each
    /// iteration leaves best moves and bounds in the table and a better
    /// window centre for the next), then exactly, or for the result only;
    /// a probable solve stops after its selective iteration. An interrupted
    /// iteration leaves the answer of the last completed one.
    fn solve_iterations(
        &mut self,
        n: u32,
        mut prev: i32,
        solve: Solve,
        progress: &mut dyn FnMut(&Progress),
    ) {
        let wld = solve != Solve::Exact;
        let mut fallback = (self.moves.clone(), RootScores::Midgame);
        if self.helper > 0 && self.moves.len() > 1 {
            // Helpers start on other root moves than the main thread, so
            // their exact results reach it through the table.
            let k = self.helper % self.moves.len();
            self.moves.rotate_left(k);
        }
        // Helpers go straight to the exact solve, on another root move: their
        // exact entries serve the main thread in both of its iterations (FFO
        // #40–#47, two threads, one run each: 18.9–19.5 s against 24.5–26.2 s
        // with helpers iterating too).
        // A probable solve has one iteration, the helpers' too, at the
        // selectivity of its number of empties.
        let probable_schedule = [self.limits.probable_selectivity_at(n)];
        let schedule: &[u8] = if solve == Solve::Probable {
            &probable_schedule
        } else if self.helper > 0 {
            &[0]
        } else {
            probcut::solve_schedule(n, self.s.eval.endcut_model(n).is_some())
        };
        for &sel in schedule {
            self.s.end_selectivity = sel;
            self.scores = match (sel, wld) {
                (0, false) => RootScores::Exact,
                (0, true) => RootScores::Wld,
                _ => RootScores::Selective,
            };
            // A result-only solve asks each iteration, the selective ones
            // too, for the result alone: a window of (-1, 1).
            let v = if wld {
                self.root_exact(-1, 1)
            } else {
                self.solve_root(prev)
            };
            if self.s.aborted {
                (self.moves, self.scores) = fallback;
                self.s.end_selectivity = 0;
                return;
            }
            let estimate = prev;
            if !wld {
                prev = v * 100;
            }
            self.choose(n);
            if wld && let Some((_, score, _)) = &mut self.best {
                // The result is proven (probable after a selective
                // iteration); the margin is the midgame estimate, moved to
                // that side of zero when it disagrees.
                *score = Score::Estimate(match v.signum() {
                    1 => estimate.max(100),
                    -1 => estimate.min(-100),
                    _ => 0,
                });
            }
            if sel > 0 {
                fallback = (self.moves.clone(), RootScores::Selective);
            }
            self.report(progress);
        }
        self.s.end_selectivity = 0;
    }

    /// The exact solve of the root: with a full window for analysis; otherwise
    /// first in a window of ±[`EXACT_ASPIRATION`] discs around the midgame
    /// estimate `prev` (hundredths), widened on failure.
    fn solve_root(&mut self, prev: i32) -> i32 {
        let sq = self.s.geo.squares;
        if self.full_window || EXACT_ASPIRATION >= sq {
            return self.root_exact(-sq, sq);
        }
        let est = (prev as f64 / 100.0).round() as i32;
        let mut delta = EXACT_ASPIRATION;
        let (mut alpha, mut beta) = ((est - delta).max(-sq), (est + delta).min(sq));
        loop {
            let v = self.root_exact(alpha, beta);
            if self.s.aborted {
                return v;
            }
            if v <= alpha && alpha > -sq {
                alpha = (v - delta).max(-sq);
            } else if v >= beta && beta < sq {
                beta = (v + delta).min(sq);
            } else {
                return v;
            }
            delta *= 2;
        }
    }

    /// Picks the best root move (with noise) after a completed iteration;
    /// with a temperature, one of the close moves drawn by their weights.
    fn choose(&mut self, depth: u32) {
        let scale = self.scores.hundredths();
        let value = |m: &RootMove| m.score * scale + m.noise;
        // The first of equal moves (the sort is stable, PVS order kept).
        let pick = self.moves.iter().rev().max_by_key(|m| value(m)).copied();
        let pick = match (pick, self.limits.temperature) {
            (Some(best), t) if t > 0 => Some(self.soften(value(&best), t, value)),
            (pick, _) => pick,
        };
        if let Some(m) = pick {
            self.best = Some((m.x, self.scores.score(m.score), depth));
        }
    }

    /// The move the draw picks among those within three `temperature`s of
    /// `best` (hundredths), each weighted by `exp(-(best - value) / temperature)`.
    fn soften(&self, best: i32, temperature: i32, value: impl Fn(&RootMove) -> i32) -> RootMove {
        let t = f64::from(temperature);
        let close: Vec<(RootMove, f64)> = self
            .moves
            .iter()
            .filter(|m| best - value(m) <= 3 * temperature)
            .map(|m| (*m, (-f64::from(best - value(m)) / t).exp()))
            .collect();
        let total: f64 = close.iter().map(|(_, w)| w).sum();
        let mut target = self.draw * total;
        for &(m, w) in &close {
            if target < w {
                return m;
            }
            target -= w;
        }
        close.last().map_or(self.moves[0], |(m, _)| *m)
    }

    fn aspiration(&mut self, depth: u32, prev: i32) -> i32 {
        let mut delta = 150;
        let (mut alpha, mut beta) = (prev - delta, prev + delta);
        loop {
            let v = self.root_midgame(depth, alpha, beta);
            if self.s.aborted {
                return v;
            }
            if v <= alpha && alpha > -INF {
                alpha = (v - delta).max(-INF);
            } else if v >= beta && beta < INF {
                beta = (v + delta).min(INF);
            } else {
                return v;
            }
            delta *= 2;
        }
    }

    /// One root iteration at `depth`; returns the best value (fail-soft).
    fn root_midgame(&mut self, depth: u32, alpha: i32, beta: i32) -> i32 {
        let full = self.full_window;
        self.root_loop(alpha, beta, full, |s, np, no, a, b, pv| {
            -s.midgame(np, no, depth - 1, Window::new(-b, -a), pv)
        })
    }

    /// The exact solve of every root move.
    fn root_exact(&mut self, alpha: i32, beta: i32) -> i32 {
        let full = self.full_window;
        self.root_loop(alpha, beta, full, |s, np, no, a, b, _| {
            -s.solve(np, no, -b, -a)
        })
    }

    /// The root move loop shared by the midgame and the exact phase: PVS (or a
    /// full window per move), then the moves sorted by score, stably.
    fn root_loop(
        &mut self,
        mut alpha: i32,
        beta: i32,
        full: bool,
        mut search: impl FnMut(&mut Searcher<'a, K>, u64, u64, i32, i32, bool) -> i32,
    ) -> i32 {
        let low = if full { alpha } else { -INF };
        let mut best = -INF;
        for i in 0..self.moves.len() {
            let (np, no) = self.s.play(self.p, self.o, self.moves[i].x);
            let v = if full {
                search(&mut self.s, np, no, low, beta, true)
            } else if i == 0 {
                search(&mut self.s, np, no, alpha, beta, true)
            } else {
                let v = search(&mut self.s, np, no, alpha, alpha + 1, false);
                if v > alpha && v < beta {
                    search(&mut self.s, np, no, alpha, beta, true)
                } else if v <= alpha {
                    // An upper bound: rank it below the best move found.
                    v.min(alpha - 1)
                } else {
                    v
                }
            };
            if self.s.aborted {
                return best;
            }
            self.moves[i].score = v;
            if v > best {
                best = v;
                if v > alpha && !full {
                    alpha = v;
                    if v >= beta {
                        // Keep the remaining moves below this one.
                        for m in &mut self.moves[i + 1..] {
                            m.score = m.score.min(v - 1);
                        }
                        break;
                    }
                }
            }
        }
        self.moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        best
    }

    fn move_evals(&self) -> Vec<MoveEval> {
        let mut out: Vec<MoveEval> = self
            .moves
            .iter()
            .map(|m| MoveEval {
                book: false,
                mv: Move::Place(square(m.x)),
                score: self.scores.score(m.score),
            })
            .collect();
        out.sort_by(|a, b| b.score.discs().total_cmp(&a.score.discs()));
        out
    }

    /// The principal variation from the table, starting with `first`.
    fn principal_variation(&self, first: u8, exact: bool) -> Vec<Move> {
        let mut pv = vec![Move::Place(square(first))];
        let (mut p, mut o) = self.s.play(self.p, self.o, first);
        for _ in 0..64 {
            let moves = self.s.moves(p, o);
            if moves == 0 {
                if self.s.moves(o, p) == 0 {
                    break;
                }
                pv.push(Move::Pass);
                (p, o) = (o, p);
                continue;
            }
            let key = if exact {
                self.s.key_exact(p, o)
            } else {
                self.s.key_midgame(p, o)
            };
            match self.s.table.probe(key).and_then(|e| e.best) {
                Some(x) if moves & (1u64 << x) != 0 => {
                    pv.push(Move::Place(square(x)));
                    (p, o) = self.s.play(p, o, x);
                }
                _ => break,
            }
        }
        pv
    }
}
