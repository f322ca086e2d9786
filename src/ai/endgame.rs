//! The exact endgame solver: plays for the final margin under the variant's
//! scoring ([`crate::rules::final_margin`], so 6×6 and Anti Reversi work too).
//!
//! Three tiers by the number of empty squares `n`, after Edax (R. Delorme,
//! <https://github.com/abulmo/edax-reversi>, `endgame.c`):
//!
//! * `n` ≥ [`Searcher::min_table_empties`] (8): principal-variation search
//!   with the transposition table, a stability cutoff, enhanced transposition
//!   cutoffs from 14 empties, the table move first and then "fastest first"
//!   (fewest replies for the opponent, corners counting double), potential
//!   mobility, parity and corners as tie-breakers; from 15 empties the keys
//!   are refined by a shallow midgame search of each move (1 ply from 15
//!   empties, 2 from 20, 3 from 22).
//! * 5 ≤ `n` < 8: no table; fastest-first ordering at 7 empties, parity order
//!   (moves in quadrants with an odd number of empties first) below.
//! * `n` ≤ 4: the empties are kept in a small array in parity order and played
//!   without move generation (`last4`, `last3`, `last2`); the last empty is
//!   counted directly from the flips of both sides.
//!
//! Scores are whole discs; all functions are fail-soft.
//!
//! **Selective solving.** With `end_selectivity` above 0 (set by the root for
//! its first, selective iteration, [`super::probcut::solve_schedule`]), the
//! deep solver also tries endgame ProbCut from
//! [`super::probcut::ENDCUT_MIN_EMPTIES`] empties: a 4-ply midgame search
//! predicts the exact score, and a node whose prediction clears the window
//! at that confidence is cut. Such results are stored with their selectivity,
//! and neither the table cutoff nor the enhanced transposition cutoff of a
//! less selective (or exact) search ever uses them; their best moves still
//! order the exact iteration that follows. The measurements behind these
//! choices are in `docs/tuning.md`.

use super::features::Features;
use super::probcut;
use super::searcher::{Entries, Searcher};
use crate::rules::movegen::around;

/// Above every score (scores lie in -64..=64).
const INF: i32 = 127;

/// Empties from which the deep solver refines its move order with a shallow
/// midgame search.
const SORT_BY_SEARCH: u32 = 15;

/// Empties from which the deep solver tries enhanced transposition cutoffs.
const ETC_EMPTIES: u32 = 14;

/// Endgame ProbCut tests only the bounds the static evaluation is within this
/// many hundredths of, as the midgame's ProbCut does (measured in
/// `docs/tuning.md`, "Constants of the search").
const ENDCUT_SLACK: f64 = 1000.0;

/// Weight of the fastest-first key against the shallow search value.
const SORT_MOBILITY_WEIGHT: i32 = 4;

use super::step::{INF as INF_MID, MoveList, Prefetch, Window, pick};

/// `alpha` from which the stability cutoff is tried, per number of empties on
/// 8×8 (from Edax; shifted for smaller boards).
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
];

/// The squares around each square (no wrapping): a move there needs an
/// opponent disc among them.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let b = 1u64 << i;
        let w = b & 0xfefe_fefe_fefe_fefe;
        let e = b & 0x7f7f_7f7f_7f7f_7f7f;
        t[i] =
            (b << 8) | (b >> 8) | (e << 1) | (e << 9) | (e >> 7) | (w >> 1) | (w >> 9) | (w << 7);
        i += 1;
    }
    t
};

impl<K: Entries> Searcher<'_, K> {
    /// The exact value of (`p`, `o`) within the window (`alpha`, `beta`), fail-soft.
    #[inline(always)]
    pub fn solve(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = !(p | o) & self.geo.mask;
        let n = empties.count_ones();
        if n <= 4 {
            let mut sq = [0u8; 4];
            let len = self.parity_sorted(empties, &mut sq);
            return self.solve_small(p, o, alpha, beta, &sq[..len]);
        }
        if n >= self.min_table_empties {
            self.solve_deep(p, o, alpha, beta, n, self.geo.parity(empties))
        } else {
            self.solve_shallow(p, o, alpha, beta, n, self.geo.parity(empties))
        }
    }

    /// The empties, odd-quadrant ones first, into `out`; returns how many.
    #[inline(always)]
    fn parity_sorted(&self, empties: u64, out: &mut [u8; 4]) -> usize {
        let parity = self.geo.parity(empties);
        let mut len = 0;
        for odd in [true, false] {
            let mut e = empties;
            while e != 0 {
                let x = e.trailing_zeros() as u8;
                e &= e - 1;
                let in_odd = parity & (1 << self.geo.quadrant_of[usize::from(x)]) != 0;
                if in_odd == odd {
                    out[len] = x;
                    len += 1;
                }
            }
        }
        len
    }

    /// Exact value with one empty square `x` left.
    #[inline(always)]
    fn solve_last(&mut self, p: u64, o: u64, x: u8) -> i32 {
        self.nodes += 1;
        let bit = 1u64 << x;
        let f = self.flips(x, p, o);
        if f != 0 {
            return self.geo.final_score(p | f | bit, o ^ f);
        }
        let f = self.flips(x, o, p);
        if f != 0 {
            return self.geo.final_score(p ^ f, o | f | bit);
        }
        self.geo.final_score(p, o)
    }

    /// Two to four empties, listed in `sq` (parity order), no move generation.
    #[inline(always)]
    fn solve_small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, sq: &[u8]) -> i32 {
        match *sq {
            [] => self.geo.final_score(p, o),
            [x] => self.solve_last(p, o, x),
            [x1, x2] => self.last2(p, o, alpha, beta, x1, x2),
            [x1, x2, x3] => self.last3(p, o, alpha, beta, [x1, x2, x3], false),
            [x1, x2, x3, x4, ..] => self.last4(p, o, alpha, beta, [x1, x2, x3, x4], false),
        }
    }

    /// Two empties left.
    #[inline(always)]
    fn last2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: u8, x2: u8) -> i32 {
        self.nodes += 1;
        let (b1, b2) = (1u64 << x1, 1u64 << x2);
        let mut best = -INF;
        if NEIGHBOURS[usize::from(x1)] & o != 0 {
            let f = self.flips(x1, p, o);
            if f != 0 {
                best = -self.solve_last(o ^ f, p | f | b1, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[usize::from(x2)] & o != 0 {
            let f = self.flips(x2, p, o);
            if f != 0 {
                best = best.max(-self.solve_last(o ^ f, p | f | b2, x1));
            }
        }
        if best > -INF {
            return best;
        }
        // Pass: the opponent moves, minimising.
        let mut worst = INF;
        if NEIGHBOURS[usize::from(x1)] & p != 0 {
            let f = self.flips(x1, o, p);
            if f != 0 {
                worst = self.solve_last(p ^ f, o | f | b1, x2);
                if worst <= alpha {
                    return worst;
                }
            }
        }
        if NEIGHBOURS[usize::from(x2)] & p != 0 {
            let f = self.flips(x2, o, p);
            if f != 0 {
                worst = worst.min(self.solve_last(p ^ f, o | f | b2, x1));
            }
        }
        if worst < INF {
            return worst;
        }
        self.geo.final_score(p, o)
    }

    /// The body of [`Searcher::last3`]: three empties left.
    #[inline(always)]
    pub(crate) fn last3_node(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        x: [u8; 3],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in 0..3 {
            let xi = x[i];
            if NEIGHBOURS[usize::from(xi)] & o == 0 {
                continue;
            }
            let f = self.flips(xi, p, o);
            if f == 0 {
                continue;
            }
            let (a, b) = match i {
                0 => (x[1], x[2]),
                1 => (x[0], x[2]),
                _ => (x[0], x[1]),
            };
            let v = -self.last2(o ^ f, p | f | (1u64 << xi), -beta, -alpha, a, b);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.geo.final_score(p, o);
            }
            return -self.last3(o, p, -beta, -alpha, x, true);
        }
        best
    }

    /// The body of [`Searcher::last4`]: four empties left.
    #[inline(always)]
    pub(crate) fn last4_node(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        x: [u8; 4],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        for i in 0..4 {
            let xi = x[i];
            if NEIGHBOURS[usize::from(xi)] & o == 0 {
                continue;
            }
            let f = self.flips(xi, p, o);
            if f == 0 {
                continue;
            }
            let rest = match i {
                0 => [x[1], x[2], x[3]],
                1 => [x[0], x[2], x[3]],
                2 => [x[0], x[1], x[3]],
                _ => [x[0], x[1], x[2]],
            };
            let v = -self.last3(o ^ f, p | f | (1u64 << xi), -beta, -alpha, rest, false);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        return v;
                    }
                }
            }
        }
        if best == -INF {
            if passed {
                return self.geo.final_score(p, o);
            }
            return -self.last4(o, p, -beta, -alpha, x, true);
        }
        best
    }

    /// The body of [`Searcher::solve_shallow`]: five to
    /// `min_table_empties - 1` empties, no table.
    #[inline(always)]
    pub(crate) fn shallow_node(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        parity: u32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = self.moves(p, o);
        if moves == 0 {
            if self.moves(o, p) == 0 {
                return self.geo.final_score(p, o);
            }
            return -self.solve_shallow(o, p, -beta, -alpha, n, parity);
        }
        let t = STABILITY_THRESHOLD[n as usize] + self.geo.squares - 64;
        if alpha >= t {
            let bound = self.geo.stability_bound(p, o);
            if bound <= alpha {
                return bound;
            }
        }
        let mut list = MoveList::new();
        if n >= 7 {
            self.order_fastest(p, o, moves, parity, None, Prefetch::None, &mut list);
        } else {
            self.order_parity(moves, parity, &mut list);
        }
        let len = list.len();
        let mut best = -INF;
        for i in 0..len {
            let x = pick(&mut list[..len], i);
            let (np, no) = self.play(p, o, x);
            let np_parity = parity ^ (1 << self.geo.quadrant_of[usize::from(x)]);
            let v = if n - 1 <= 4 {
                let mut sq = [0u8; 4];
                let empties = !(np | no) & self.geo.mask;
                let k = self.parity_sorted(empties, &mut sq);
                -self.solve_small(np, no, -beta, -alpha, &sq[..k])
            } else {
                -self.solve_shallow(np, no, -beta, -alpha, n - 1, np_parity)
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The body of [`Searcher::solve_deep`]: `min_table_empties` or more
    /// empties, table, stability cutoff, PVS.
    #[inline(always)]
    pub(crate) fn deep_node(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        n: u32,
        parity: u32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = self.moves(p, o);
        if moves == 0 {
            if self.moves(o, p) == 0 {
                return self.geo.final_score(p, o);
            }
            return -self.solve_deep(o, p, -beta, -alpha, n, parity);
        }
        let t = STABILITY_THRESHOLD[n as usize] + self.geo.squares - 64;
        if alpha >= t {
            let bound = self.geo.stability_bound(p, o);
            if bound <= alpha {
                return bound;
            }
        }
        let key = self.key_exact(p, o);
        let entry = self.table.probe(key);
        let mut tt_move = None;
        let sel = self.end_selectivity;
        if let Some(e) = entry {
            if let Some(v) = e.cutoff(n as u8, sel, Window::new(alpha, beta)) {
                return v;
            }
            tt_move = e.best;
        }
        if n >= ETC_EMPTIES
            && let Some(v) = self.enhanced_cutoff(p, o, moves, n, beta)
        {
            return v;
        }
        let endcut = sel > 0 && n >= probcut::ENDCUT_MIN_EMPTIES;
        // The evaluation's features, for the shallow midgame searches below.
        let f = (endcut || n >= SORT_BY_SEARCH).then(|| self.eval.features(p, o));
        if endcut
            && let Some(f) = &f
            && let Some(v) = self.endcut(p, o, f, n, alpha, beta)
        {
            return v;
        }
        let mut list = MoveList::new();
        // Below `ETC_EMPTIES` no enhanced cutoff has probed the children.
        let prefetch = if n > self.min_table_empties && n < ETC_EMPTIES {
            Prefetch::Exact
        } else {
            Prefetch::None
        };
        self.order_fastest(p, o, moves, parity, tt_move, prefetch, &mut list);
        let len = list.len();
        if n >= SORT_BY_SEARCH
            && let Some(f) = &f
        {
            self.reorder_by_search(p, o, f, n, &mut list[..len]);
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = list[0].0;
        for i in 0..len {
            let x = pick(&mut list[..len], i);
            let (np, no) = self.play(p, o, x);
            let np_parity = parity ^ (1 << self.geo.quadrant_of[usize::from(x)]);
            let v = if i == 0 {
                -self.solve_child(np, no, -beta, -alpha, n - 1, np_parity)
            } else {
                let mut v = -self.solve_child(np, no, -alpha - 1, -alpha, n - 1, np_parity);
                if v > alpha && v < beta {
                    v = -self.solve_child(np, no, -beta, -alpha, n - 1, np_parity);
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
        let w = Window::new(alpha0, beta);
        self.table
            .store(key, n as u8, sel, w, best, Some(best_move));
        best
    }

    /// Endgame ProbCut: a shallow midgame search predicts the exact score
    /// (`exact ≈ a·shallow + b ± σ`, [`probcut::SearchModels::endcut`]); when the
    /// prediction clears the window at the confidence of
    /// `end_selectivity`, the node is cut with that bound.
    #[inline(always)]
    fn endcut(
        &mut self,
        p: u64,
        o: u64,
        f: &Features,
        n: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let model = self.eval.endcut_model(n)?;
        let test = probcut::Test {
            model,
            margin: probcut::confidence(self.end_selectivity) * model.sigma,
            shallow: probcut::ENDCUT_DEPTH,
        };
        let sq = self.geo.squares;
        let e0 = self.eval.eval_with(self.kernels, f, p, o);
        let (up, down) =
            model.worth_testing(e0, alpha * 100, beta * 100, test.margin, ENDCUT_SLACK);
        let hi = (beta <= sq && up).then_some(beta * 100);
        let lo = (alpha >= -sq && down).then_some(alpha * 100);
        match self.probcut_test(p, o, f, &test, hi, lo) {
            _ if self.aborted => Some(0),
            Some(true) => Some(beta),
            Some(false) => Some(alpha),
            None => None,
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound
    /// already refutes it proves `value >= beta` without a search.
    #[inline(always)]
    fn enhanced_cutoff(&self, p: u64, o: u64, moves: u64, n: u32, beta: i32) -> Option<i32> {
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros() as u8;
            m &= m - 1;
            let (np, no) = self.play(p, o, x);
            if let Some(e) = self.table.probe(self.key_exact(np, no))
                && u32::from(e.depth) >= n - 1
                && e.selectivity <= self.end_selectivity
                && e.bound != super::table::Bound::Lower
                && -e.score >= beta
            {
                return Some(-e.score);
            }
        }
        None
    }

    #[inline(always)]
    fn solve_child(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u32) -> i32 {
        if n >= self.min_table_empties {
            self.solve_deep(p, o, alpha, beta, n, parity)
        } else {
            self.solve_shallow(p, o, alpha, beta, n, parity)
        }
    }

    /// Refines the fastest-first keys of `list` (the table move keeps its
    /// place) with a shallow midgame search of each move, (the caller picks in key order).
    #[inline(always)]
    fn reorder_by_search(&mut self, p: u64, o: u64, f: &Features, n: u32, list: &mut [(u8, i32)]) {
        let depth = match n {
            0..15 => 0,
            15..20 => 1,
            20..22 => 2,
            _ => 3,
        };
        let saved = self.selectivity;
        for item in list.iter_mut() {
            if item.1 >= 1 << 24 {
                continue;
            }
            let (np, no, nf) = self.play_features(p, o, f, item.0);
            // A move that leaves the opponent without a reply: its static
            // value with us to move again, cheaper than searching the pass.
            let v = if self.moves(np, no) == 0 {
                self.nodes += 1;
                self.eval.eval_with(self.kernels, &nf.pass(), no, np)
            } else {
                -self.mid(np, no, &nf, depth, Window::new(-INF_MID, INF_MID), false)
            };
            item.1 = item.1 * SORT_MOBILITY_WEIGHT + v;
        }
        self.selectivity = saved;
    }

    /// Moves keyed by parity (odd quadrants first) into `list`.
    #[inline(always)]
    fn order_parity(&self, moves: u64, parity: u32, list: &mut MoveList) {
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros() as u8;
            m &= m - 1;
            let odd = parity & (1 << self.geo.quadrant_of[usize::from(x)]) != 0;
            list.push((x, i32::from(odd)));
        }
    }

    /// Moves keyed best first: the table move, then fewest opponent replies
    /// (corners counting double), fewest potential replies, parity. Each
    /// child's table bucket of the kind `prefetch` names is fetched into the
    /// cache on the way, ahead of the child's probe.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's state as plain values, on the hottest path"
    )]
    #[inline(always)]
    pub(crate) fn order_fastest(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        parity: u32,
        tt_move: Option<u8>,
        prefetch: Prefetch,
        list: &mut MoveList,
    ) {
        let mut m = moves;
        let empty = !(p | o) & self.geo.mask;
        while m != 0 {
            let x = m.trailing_zeros() as u8;
            m &= m - 1;
            let (np, no) = self.play(p, o, x);
            match prefetch {
                Prefetch::None => {}
                Prefetch::Midgame => self.table.prefetch(self.key_midgame(np, no)),
                Prefetch::Exact => self.table.prefetch(self.key_exact(np, no)),
            }
            let key = if Some(x) == tt_move {
                1 << 24
            } else {
                let replies = self.moves(np, no);
                let mobility =
                    (replies.count_ones() + (replies & self.geo.corners).count_ones()) as i32;
                let potential = (around(no) & empty & !(1u64 << x)).count_ones() as i32;
                let odd = parity & (1 << self.geo.quadrant_of[usize::from(x)]) != 0;
                let corner = i32::from((1u64 << x) & self.geo.corners != 0);
                -(mobility << 6) - (potential << 1) + (i32::from(odd) << 3) + (corner << 4)
            };
            list.push((x, key));
        }
    }
}
