//! The midgame search: negamax alpha-beta with principal-variation
//! (null-window) search, the transposition table, move ordering and
//! ProbCut selective pruning ([`super::probcut`]).
//!
//! Scores are in hundredths of a disc; a finished game scores its exact
//! margin × 100, and when the remaining depth reaches every empty square of a
//! small endgame, the exact solver takes over (its value × 100).
//!
//! Move ordering, best first: the table move; then, at depth ≥ 4, the static
//! evaluation of each move less a penalty per reply it leaves the opponent;
//! at depth ≤ 3, fastest first (fewest replies).
//! The table is not used at depth 1 (its children are leaves). The
//! measurements behind these choices are in `docs/tuning.md`.

use super::features::Features;
use super::probcut;
use super::searcher::{Entries, Searcher};
use super::step::{INF, MoveList, Prefetch, Window, pick};

/// Largest number of empties the midgame hands to the exact solver when its
/// depth covers them.
const EXACT_HANDOVER: u32 = 12;

/// Remaining depth from which the midgame search uses the table.
const MIN_TABLE_DEPTH: u32 = 2;

/// Weight of each reply the opponent has in the ordering key of depth ≥ 4,
/// hundredths of a disc (measured in `docs/tuning.md`, "Constants of the
/// search").
const SORT_MOBILITY: i32 = 200;

/// How far (hundredths of a disc) the static evaluation may fall short of a
/// ProbCut threshold before the shallow search is still tried: most nodes
/// then try only the one bound their static value points to (measured in
/// `docs/tuning.md`, "Constants of the search").
const PROBCUT_SLACK: f64 = 200.0;

impl<K: Entries> Searcher<'_, K> {
    /// The value of (`p`, `o`) searched `depth` plies deep within the window
    /// `w`, fail-soft, in hundredths of a disc.
    pub fn midgame(&mut self, p: u64, o: u64, depth: u32, w: Window, pv: bool) -> i32 {
        let f = self.eval.features(p, o);
        self.mid(p, o, &f, depth, w, pv)
    }

    /// The body of [`Searcher::mid`]: [`Searcher::midgame`] given the
    /// features of (`p`, `o`) ([`super::eval::Evaluator::features`]).
    #[inline(always)]
    pub(crate) fn mid_node(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        depth: u32,
        w: Window,
        pv: bool,
    ) -> i32 {
        let Window { mut alpha, beta } = w;
        if depth == 0 {
            return self.leaf(p, o, f);
        }
        if self.tick() {
            return 0;
        }
        let empties = !(p | o) & self.geo.mask;
        let n = empties.count_ones();
        if depth >= n && n <= EXACT_HANDOVER {
            let a = alpha.div_euclid(100);
            let b = -((-beta).div_euclid(100));
            return self.solve(p, o, a, b) * 100;
        }
        let moves = self.moves(p, o);
        if moves == 0 {
            if self.moves(o, p) == 0 {
                return self.geo.final_score(p, o) * 100;
            }
            // A pass uses up a ply: otherwise, when one side is nearly wiped
            // out, every other ply is a pass and the tree doubles in depth
            // (FFO #39 spent 40 s in a depth-8 presearch).
            return -self.mid(o, p, &f.pass(), depth - 1, w.negated(), pv);
        }

        let key = self.key_midgame(p, o);
        let use_table = depth >= MIN_TABLE_DEPTH;
        let mut tt_move = None;
        if use_table && let Some(e) = self.table.probe(key) {
            if (!pv || depth <= 2)
                && let Some(v) = e.cutoff(depth as u8, self.selectivity, w)
            {
                return v;
            }
            tt_move = e.best;
        }

        if self.selectivity > 0
            && !pv
            && depth >= probcut::MIN_DEPTH
            && let Some(v) = self.probcut(p, o, f, depth, w, n)
        {
            return v;
        }

        let mut list = MoveList::new();
        match depth {
            1 => order_leaves(moves, tt_move, &mut list),
            2 | 3 => {
                let parity = self.geo.parity(empties);
                let prefetch = if depth > MIN_TABLE_DEPTH {
                    Prefetch::Midgame
                } else {
                    Prefetch::None
                };
                self.order_fastest(p, o, moves, parity, tt_move, prefetch, &mut list);
            }
            _ => self.order_by_eval(p, o, f, moves, tt_move, &mut list),
        }
        let len = list.len();
        // Moves of equal keys keep their order, so a list of leaves with no
        // table move is already in the order picking would give.
        let in_order = depth == 1 && tt_move.is_none();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = list[0].0;
        for i in 0..len {
            let x = if in_order {
                list[i].0
            } else {
                pick(&mut list[..len], i)
            };
            let (np, no, nf) = self.play_features(p, o, f, x);
            let v = if depth == 1 {
                // A leaf, evaluated here rather than through the entry's
                // call: its value does not depend on the window, and the
                // re-search below would only count it once more.
                let v = -self.leaf(np, no, &nf);
                if i > 0 && v > alpha && v < beta {
                    self.nodes += 1;
                }
                v
            } else if i == 0 {
                -self.mid(np, no, &nf, depth - 1, Window::new(-beta, -alpha), pv)
            } else {
                let mut v = -self.mid(np, no, &nf, depth - 1, Window::null(-alpha - 1), false);
                if v > alpha && v < beta {
                    v = -self.mid(np, no, &nf, depth - 1, Window::new(-beta, -alpha), pv);
                }
                v
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = x;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if !use_table {
            return best;
        }
        self.table.store(
            key,
            depth as u8,
            self.selectivity,
            Window::new(alpha0, beta),
            best,
            Some(best_move),
        );
        best
    }

    /// A leaf: its static value (a node counted).
    #[inline(always)]
    fn leaf(&mut self, p: u64, o: u64, f: &Features) -> i32 {
        self.nodes += 1;
        self.eval.eval_with(self.kernels, f, p, o)
    }

    /// ProbCut: predicts the deep value from a shallow search and returns a
    /// bound when the prediction clears the window with the level's
    /// confidence.
    #[inline(always)]
    fn probcut(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        depth: u32,
        w: Window,
        n: u32,
    ) -> Option<i32> {
        let model = self.eval.probcut_model(depth, n)?;
        let test = probcut::Test {
            model,
            margin: probcut::confidence(self.selectivity) * model.sigma,
            shallow: probcut::shallow_depth(depth),
        };
        // Only the bounds the static value is near enough to are tested.
        let e0 = self.eval.eval_with(self.kernels, f, p, o);
        let (up, down) = model.worth_testing(e0, w.alpha, w.beta, test.margin, PROBCUT_SLACK);
        let hi = up.then_some(w.beta);
        let lo = down.then_some(w.alpha);
        let cut = self.probcut_test(p, o, f, &test, hi, lo);
        match cut {
            _ if self.aborted => Some(0),
            Some(true) => Some(w.beta),
            Some(false) => Some(w.alpha),
            None => None,
        }
    }

    /// The test shared by ProbCut and the exact solver's endgame ProbCut:
    /// does the shallow search of `test` predict, through its model and
    /// margin, a deep value of at least `beta` (`Some(true)`) or at most
    /// `alpha` (`Some(false)`)? Bounds are in hundredths; a `None` bound is
    /// not tested. The caller checks `aborted`.
    #[inline(always)]
    pub(crate) fn probcut_test(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        test: &probcut::Test,
        beta: Option<i32>,
        alpha: Option<i32>,
    ) -> Option<bool> {
        let probcut::Test {
            model,
            margin,
            shallow,
        } = *test;
        if let Some(beta) = beta {
            let up = model.above(beta, margin).ceil() as i32;
            if up < INF / 2 {
                let v = self.mid(p, o, f, shallow, Window::null(up - 1), false);
                if self.aborted || v >= up {
                    return Some(true);
                }
            }
        }
        if let Some(alpha) = alpha {
            let down = model.below(alpha, margin).floor() as i32;
            if down > -INF / 2 {
                let v = self.mid(p, o, f, shallow, Window::null(down), false);
                if self.aborted || v <= down {
                    return Some(false);
                }
            }
        }
        None
    }

    /// The position and features after the side to move plays on `x`.
    #[inline(always)]
    pub(crate) fn play_features(
        &self,
        p: u64,
        o: u64,
        f: &Features,
        x: u8,
    ) -> (u64, u64, Features) {
        let flipped = self.flips(x, p, o);
        let nf = self.eval.play(self.kernels, f, x, flipped);
        (o ^ flipped, p | flipped | 1 << x, nf)
    }

    /// Moves keyed best first into `list` at depth ≥ 4: the table move, then the static value of each move less a penalty per
    /// reply it leaves the opponent.
    #[inline(always)]
    fn order_by_eval(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        moves: u64,
        tt_move: Option<u8>,
        list: &mut MoveList,
    ) {
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros() as u8;
            m &= m - 1;
            let key = if Some(x) == tt_move {
                let (np, no) = self.play(p, o, x);
                self.table.prefetch(self.key_midgame(np, no));
                1 << 24
            } else {
                let (np, no, nf) = self.play_features(p, o, f, x);
                self.table.prefetch(self.key_midgame(np, no));
                self.nodes += 1;
                -self.eval.eval_with(self.kernels, &nf, np, no)
                    - SORT_MOBILITY * self.moves(np, no).count_ones() as i32
            };
            list.push((x, key));
        }
    }
}

/// The moves of a depth-1 node into `list`: the table move first (none while the table starts at [`MIN_TABLE_DEPTH`] 2), the
/// rest as they come (their children are leaves).
#[inline(always)]
fn order_leaves(moves: u64, tt_move: Option<u8>, list: &mut MoveList) {
    let mut m = moves;
    while m != 0 {
        let x = m.trailing_zeros() as u8;
        m &= m - 1;
        list.push((x, i32::from(Some(x) == tt_move)));
    }
}
