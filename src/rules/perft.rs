//! Perft: counting the leaves of the game tree, to check move generation and
//! measure its speed.
//!
//! Convention: a pass is a ply of its own, and a game that ends before the
//! requested depth contributes no leaf. From the 8×8 start this gives 4, 12, 56,
//! 244, 1396, 8200, 55092, 390216, 3005288, 24571056, … for depths 1, 2, 3, ….
//! The last ply is counted in bulk (a popcount of the legal moves).

use super::movegen::{Compiled, Kernels};
use super::position::Position;

/// The number of leaves `depth` plies below `position` (see the module docs).
/// Depth 0 counts the position itself.
///
/// ```
/// use reversi::rules::{perft, BoardSize, Position};
/// assert_eq!(perft(&Position::initial(BoardSize::Eight), 3), 56);
/// ```
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_with::<Compiled>(position, depth)
}

/// [`perft`] with the kernels `K`: [`super::movegen::Portable`] checks the
/// portable kernels end to end in a build whose [`perft`] runs vectorised
/// ones.
#[must_use]
pub fn perft_with<K: Kernels>(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    count::<K>(
        position.player(),
        position.opponent(),
        position.size().mask(),
        depth,
        false,
    )
}

fn count<K: Kernels>(p: u64, o: u64, mask: u64, depth: u32, passed: bool) -> u64 {
    let mut legal = K::moves(p, o) & mask;
    if legal == 0 {
        if passed {
            return 0;
        }
        if depth == 1 {
            // A pass is a leaf only if the game goes on.
            return u64::from(K::moves(o, p) & mask != 0);
        }
        return count::<K>(o, p, mask, depth - 1, true);
    }
    if depth == 1 {
        return u64::from(legal.count_ones());
    }
    if depth == 2 {
        return count_last_two::<K>(p, o, mask, legal);
    }
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = K::flips(sq, p, o);
        total += count::<K>(o ^ f, p | f | (1 << sq), mask, depth - 1, false);
    }
    total
}

/// Depth 2 with `legal != 0`: each move's child is counted in bulk.
#[inline]
fn count_last_two<K: Kernels>(p: u64, o: u64, mask: u64, mut legal: u64) -> u64 {
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = K::flips(sq, p, o);
        let (np, no) = (o ^ f, p | f | (1 << sq));
        let child = K::moves(np, no) & mask;
        total += if child != 0 {
            u64::from(child.count_ones())
        } else {
            u64::from(K::moves(no, np) & mask != 0)
        };
    }
    total
}
