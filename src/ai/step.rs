//! Small pieces shared by the midgame search, the exact solver and the root
//! driver: the score bound of the midgame, the search window, the move
//! list, picking the next move of a sorted list and which table buckets
//! the ordering prefetches. They live here so that `midgame` and `endgame`
//! each depend on this module rather than on each other.

/// A search node's moves with their ordering keys, on the stack: room for
/// every square, and nothing written before a move is pushed (a node that
/// cuts after its first move pays for no more).
pub(crate) type MoveList = arrayvec::ArrayVec<(u8, i32), 64>;

/// Which table bucket of each child the move ordering fetches into the
/// cache while it orders the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prefetch {
    /// None (the children do not probe the table).
    None,
    /// The midgame search's.
    Midgame,
    /// The exact solver's.
    Exact,
}

/// Above every midgame score.
pub(crate) const INF: i32 = 30_000;

/// Moves the best-keyed move of `list[i..]` to `i` and returns its square
/// (lazy selection sort: most nodes cut after one or two moves).
#[inline(always)]
pub(crate) fn pick(list: &mut [(u8, i32)], i: usize) -> u8 {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].1 > list[best].1 {
            best = j;
        }
    }
    list.swap(i, best);
    list[i].0
}

/// The open interval (`alpha`, `beta`) a node is searched in, fail-soft: a
/// value `v <= alpha` is an upper bound, `v >= beta` a lower bound, anything
/// between is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// The value the side to move already has elsewhere.
    pub alpha: i32,
    /// The value the opponent already has elsewhere.
    pub beta: i32,
}

impl Window {
    /// The window (`alpha`, `beta`).
    #[inline(always)]
    pub(crate) const fn new(alpha: i32, beta: i32) -> Window {
        Window { alpha, beta }
    }

    /// The window from the opponent's side: (`-beta`, `-alpha`).
    #[inline(always)]
    pub(crate) const fn negated(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }

    /// The null window (`alpha`, `alpha + 1`): does a value exceed `alpha`?
    #[inline(always)]
    pub(crate) const fn null(alpha: i32) -> Window {
        Window {
            alpha,
            beta: alpha + 1,
        }
    }
}
