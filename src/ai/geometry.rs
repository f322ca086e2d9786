//! Board geometry the search needs, precomputed once per variant: the board
//! mask, corners, X and C squares, parity quadrants, and the scoring of a
//! finished game; plus stable-disc detection for any board size.
//!
//! Works on side-relative raw `u64` pairs like [`crate::rules::movegen`].
//! Depends on `rules` only.

use crate::rules::{Rules, Scoring, final_margin};

/// Column a of the 8×8 grid.
const COL_A: u64 = 0x0101_0101_0101_0101;
/// Column h of the 8×8 grid.
const COL_H: u64 = 0x8080_8080_8080_8080;
/// Row 1 of the 8×8 grid.
const ROW_1: u64 = 0x0000_0000_0000_00ff;
/// Row 8 of the 8×8 grid.
const ROW_8: u64 = 0xff00_0000_0000_0000;

/// The four line axes as (shift, squares with a neighbour towards higher
/// indices, squares with a neighbour towards lower indices).
const AXES: [(u32, u64, u64); 4] = [
    (1, !COL_H, !COL_A),
    (8, !ROW_8, !ROW_1),
    (9, !COL_H & !ROW_8, !COL_A & !ROW_1),
    (7, !COL_A & !ROW_8, !COL_H & !ROW_1),
];

/// Precomputed facts about one variant (board size, anti, scoring).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    /// Squares on the board.
    pub mask: u64,
    /// Number of squares (64 or 36).
    pub squares: i32,
    /// The four corners.
    pub corners: u64,
    /// For each corner index 0..4: the corner, its X square, its C squares.
    pub corner_groups: [(u64, u64, u64); 4],
    /// The four parity quadrants.
    pub quadrants: [u64; 4],
    /// Quadrant index (0..4) of every square of the grid.
    pub quadrant_of: [u8; 64],
    /// Anti Reversi: the objective is inverted.
    pub anti: bool,
    /// What empty squares count for at the end.
    pub scoring: Scoring,
}

impl Geometry {
    /// The geometry of `rules`.
    pub fn new(rules: &Rules) -> Geometry {
        let side = u32::from(rules.size.side());
        let at = |c: u32, r: u32| 1u64 << (r * 8 + c);
        let last = side - 1;
        let corner_squares = [
            (0, 0, 1i32, 1i32),
            (last, 0, -1, 1),
            (0, last, 1, -1),
            (last, last, -1, -1),
        ];
        let mut corner_groups = [(0, 0, 0); 4];
        let mut corners = 0;
        for (i, &(c, r, dc, dr)) in corner_squares.iter().enumerate() {
            let step = |v: u32, d: i32| (v as i32 + d) as u32;
            let corner = at(c, r);
            let x = at(step(c, dc), step(r, dr));
            let cs = at(step(c, dc), r) | at(c, step(r, dr));
            corner_groups[i] = (corner, x, cs);
            corners |= corner;
        }
        let half = side / 2;
        let mut quadrants = [0u64; 4];
        let mut quadrant_of = [0u8; 64];
        for r in 0..side {
            for c in 0..side {
                let q = usize::from(r >= half) * 2 + usize::from(c >= half);
                quadrants[q] |= at(c, r);
                quadrant_of[(r * 8 + c) as usize] = q as u8;
            }
        }
        Geometry {
            mask: rules.size.mask(),
            squares: rules.size.squares() as i32,
            corners,
            corner_groups,
            quadrants,
            quadrant_of,
            anti: rules.anti,
            scoring: rules.scoring,
        }
    }

    /// The final margin for the side owning `p` when the game ends now.
    #[inline(always)]
    pub fn final_score(&self, p: u64, o: u64) -> i32 {
        final_margin(
            p.count_ones() as i32,
            o.count_ones() as i32,
            self.squares,
            self.anti,
            self.scoring,
        )
    }

    /// An upper bound of the final margin of the side to move given the
    /// stable discs that work against it (the opponent's, or in Anti Reversi
    /// its own).
    #[inline(always)]
    pub fn stability_bound(&self, p: u64, o: u64) -> i32 {
        let against = if self.anti {
            stable_discs(p, o, self.mask)
        } else {
            stable_discs(o, p, self.mask)
        };
        self.squares - 2 * against.count_ones() as i32
    }

    /// Bit set of the quadrants (bit `q`) holding an odd number of `empties`.
    #[inline(always)]
    pub fn parity(&self, empties: u64) -> u32 {
        let mut bits = 0;
        for (q, &m) in self.quadrants.iter().enumerate() {
            bits |= ((empties & m).count_ones() & 1) << q;
        }
        bits
    }
}

/// Squares lying on a line (in each of the four axes) that is completely
/// filled, where squares off the board (`!mask`) count as filled. Returns one
/// bit set per axis.
#[inline(always)]
fn full_lines(occupied: u64, mask: u64) -> [u64; 4] {
    let occ = occupied | !mask;
    let mut out = [0u64; 4];
    for (i, &(k, plus, minus)) in AXES.iter().enumerate() {
        // up: the squares from here to the edge in the + direction are filled.
        let mut up = occ & !plus;
        let mut down = occ & !minus;
        for _ in 0..7 {
            up = occ & (!plus | ((up >> k) & plus));
            down = occ & (!minus | ((down << k) & minus));
        }
        out[i] = up & down;
    }
    out
}

/// The discs of `p` that can never be flipped, found by a fixed point: a disc
/// is stable if along each of the four axes its line is full, or one of its
/// two neighbours on that axis is the edge of the board or a stable disc of
/// `p`. Works for any board mask (6×6 included). Conservative: it may miss
/// some stable discs, never reports an unstable one.
#[inline(always)]
#[must_use]
pub(crate) fn stable_discs(p: u64, o: u64, mask: u64) -> u64 {
    // Quick exit: without a disc of `p` on an edge-anchored line nothing is
    // stable except through full lines; the fixed point still handles that.
    let full = full_lines(p | o, mask);
    let walls = !mask;
    let mut stable = 0u64;
    loop {
        let x = stable | walls;
        let mut candidate = p;
        for (i, &(k, plus, minus)) in AXES.iter().enumerate() {
            let by_plus = ((x >> k) & plus) | !plus;
            let by_minus = ((x << k) & minus) | !minus;
            candidate &= full[i] | by_plus | by_minus;
        }
        if candidate == stable {
            return stable;
        }
        stable = candidate;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::BoardSize;

    #[test]
    fn corners_are_stable_and_centre_is_not() {
        let p = 1u64 | (1 << 27);
        let o = 1 << 28;
        assert_eq!(stable_discs(p, o, u64::MAX), 1);
    }

    #[test]
    fn full_board_is_stable() {
        let p = 0x5555_5555_5555_5555;
        assert_eq!(stable_discs(p, !p, u64::MAX), p);
        let m = BoardSize::Six.mask();
        assert_eq!(stable_discs(p & m, !p & m, m), p & m);
    }

    #[test]
    fn six_by_six_corner_is_stable() {
        let g = Geometry::new(&Rules::standard(BoardSize::Six));
        assert_eq!(g.corners.count_ones(), 4);
        let f1 = 1u64 << 5;
        assert_eq!(stable_discs(f1, 1 << 4, g.mask), f1);
        assert_eq!(g.quadrants.iter().map(|q| q.count_ones()).sum::<u32>(), 36);
    }
}
