//! Perft: counting the leaves of the game tree, to check move generation and
//! measure its speed.
//!
//! Convention: a pass is a ply of its own, and a game that ends before the
//! requested depth contributes no leaf. From the 8×8 start this gives 4, 12, 56,
//! 244, 1396, 8200, 55092, 390216, 3005288, 24571056, … for depths 1, 2, 3, ….
//! The last ply is counted in bulk (a popcount of the legal moves).

use super::kernels::{KernelSet, Kernels, entry, kernel_sets, with_kernels};
use super::position::Position;

/// The number of leaves `depth` plies below `position` (see the module docs),
/// with the kernel set [`KernelSet::selected`].
/// Depth 0 counts the position itself.
///
/// ```
/// use reversi::rules::{perft, BoardSize, Position};
/// assert_eq!(perft(&Position::initial(BoardSize::Eight), 3), 56);
/// ```
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    perft_with(position, depth, KernelSet::selected())
}

/// [`perft`] with the kernel set `kernels` (every set counts the same).
#[must_use]
pub fn perft_with(position: &Position, depth: u32, kernels: KernelSet) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o, mask) = (
        position.player(),
        position.opponent(),
        position.size().mask(),
    );
    with_kernels!(kernels, k => k.perft(p, o, mask, depth))
}

/// The recursion of [`perft`] as an entry of each kernel set (see
/// [`super::kernels`]).
trait Count: Kernels {
    /// [`count`], compiled for the set.
    ///
    /// # Safety
    /// The CPU must have the set's extensions (`self` is a token of it).
    unsafe fn count(self, p: u64, o: u64, mask: u64, depth: u32, passed: bool) -> u64;

    /// [`Count::count`] from the start of a perft.
    #[inline(always)]
    fn perft(self, p: u64, o: u64, mask: u64, depth: u32) -> u64 {
        // SAFETY: `self` is a token: the CPU has the set's extensions.
        unsafe { self.count(p, o, mask, depth, false) }
    }
}

macro_rules! count_entry {
    ($set:path, $features:tt) => {
        impl Count for $set {
            entry! { $features
                unsafe fn count(self, p: u64, o: u64, mask: u64, depth: u32, passed: bool) -> u64 {
                    count(self, p, o, mask, depth, passed)
                }
            }
        }
    };
}
kernel_sets!(count_entry);

/// The leaves `depth` (≥ 1) plies below (`p`, `o`); `passed` when the last
/// ply was a pass.
#[inline(always)]
fn count<K: Count>(k: K, p: u64, o: u64, mask: u64, depth: u32, passed: bool) -> u64 {
    let mut legal = k.moves(p, o) & mask;
    if legal == 0 {
        if passed {
            return 0;
        }
        if depth == 1 {
            // A pass is a leaf only if the game goes on.
            return u64::from(k.moves(o, p) & mask != 0);
        }
        // SAFETY: `k` is a token: the CPU has the set's extensions.
        return unsafe { k.count(o, p, mask, depth - 1, true) };
    }
    if depth == 1 {
        return u64::from(legal.count_ones());
    }
    if depth == 2 {
        return count_last_two(k, p, o, mask, legal);
    }
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = k.flips(sq, p, o);
        // SAFETY: as above.
        total += unsafe { k.count(o ^ f, p | f | (1 << sq), mask, depth - 1, false) };
    }
    total
}

/// Depth 2 with `legal != 0`: each move's child is counted in bulk.
#[inline(always)]
fn count_last_two<K: Kernels>(k: K, p: u64, o: u64, mask: u64, mut legal: u64) -> u64 {
    let mut total = 0;
    while legal != 0 {
        let sq = legal.trailing_zeros() as usize;
        legal &= legal - 1;
        let f = k.flips(sq, p, o);
        let (np, no) = (o ^ f, p | f | (1 << sq));
        let child = k.moves(np, no) & mask;
        total += if child != 0 {
            u64::from(child.count_ones())
        } else {
            u64::from(k.moves(no, np) & mask != 0)
        };
    }
    total
}
