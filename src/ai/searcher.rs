//! The state of one search thread: the kernel set, the shared table, the
//! variant, the evaluation, the node counter and the stop conditions (flag,
//! deadline, node budget). The midgame search ([`super::midgame`]) and the
//! exact solver ([`super::endgame`]) are `impl` blocks on [`Searcher`].
//!
//! The search's recursive functions are [`Entries`] of each kernel set
//! ([`crate::rules::kernels`]): compiled with the set's instruction-set
//! extensions, each calls its node's `#[inline(always)]` body, which
//! recurses through the entries again, so every function a node inlines
//! runs with the set's instructions.

use super::eval::Evaluator;
use super::features::{Features, Lanes};
use super::geometry::Geometry;
use super::step::Window;
use super::table::Table;
use crate::rules::Rules;
use crate::rules::kernels::{Kernels, entry, kernel_sets};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// How often (in nodes, a power of two minus one) the stop conditions are read.
const POLL_MASK: u64 = 1023;

/// Hash salts keeping exact and estimated entries apart.
pub(crate) const SALT_EXACT: u64 = 0x5bd1_e995_7f4a_7c15;
/// Salt of midgame (estimated) entries.
pub(crate) const SALT_MIDGAME: u64 = 0x2545_f491_4f6c_dd1d;

/// What ends a search early.
pub(crate) struct StopConditions<'a> {
    /// Set by another thread (the UI, or the main search thread for helpers).
    pub flag: &'a AtomicBool,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
    /// Node budget for all threads together.
    pub nodes: Option<u64>,
    /// Nodes of all threads, summed when each thread polls.
    pub shared_nodes: &'a AtomicU64,
}

/// One search thread, with the kernels of the set `K`.
pub(crate) struct Searcher<'a, K> {
    /// The token of the kernel set: the CPU can run it.
    pub kernels: K,
    /// The shared transposition table.
    pub table: &'a Table,
    /// Precomputed board facts of the variant.
    pub geo: Geometry,
    /// The static evaluation.
    pub eval: Evaluator,
    /// Salt of the variant, mixed into both kinds of hash keys.
    pub variant_salt: u64,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Nodes already added to `stop.shared_nodes`.
    reported: u64,
    /// When the search stopped early; every value computed after it is void.
    pub aborted: bool,
    /// Stop conditions.
    pub stop: StopConditions<'a>,
    /// ProbCut confidence level index (0: no selective pruning).
    pub selectivity: u8,
    /// Empties from which the exact solver uses the table (below: the
    /// shallow solvers, no table).
    pub min_table_empties: u32,
    /// Selectivity of the exact solver (0: exact; above: endgame ProbCut at
    /// that confidence level, used by the root's selective iterations).
    pub end_selectivity: u8,
}

impl<'a, K: Kernels> Searcher<'a, K> {
    /// A searcher for `rules` on `table` with the kernel set `kernels`.
    pub fn new(
        kernels: K,
        table: &'a Table,
        rules: &Rules,
        eval: Evaluator,
        stop: StopConditions<'a>,
    ) -> Searcher<'a, K> {
        let variant_salt = u64::from(rules.anti) * 0x1111
            + u64::from(rules.scoring == crate::rules::Scoring::EmptiesToWinner) * 0x2222
            + u64::from(rules.size.side()) * 0x3333;
        Searcher {
            kernels,
            table,
            geo: Geometry::new(rules),
            eval,
            variant_salt: variant_salt.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            nodes: 0,
            reported: 0,
            aborted: false,
            stop,
            selectivity: 0,
            end_selectivity: 0,
            min_table_empties: 8,
        }
    }

    /// Counts a node and, every [`POLL_MASK`]+1 nodes, reads the stop
    /// conditions. Returns `true` when the search must unwind.
    #[inline(always)]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & POLL_MASK == 0 {
            self.poll();
        }
        self.aborted
    }

    #[cold]
    fn poll(&mut self) {
        let add = self.nodes - self.reported;
        self.reported = self.nodes;
        let total = self.stop.shared_nodes.fetch_add(add, Ordering::Relaxed) + add;
        if self.stop.flag.load(Ordering::Relaxed)
            || self.stop.nodes.is_some_and(|n| total >= n)
            || self.stop.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.aborted = true;
        }
    }

    /// Adds the nodes not yet reported to the shared counter.
    pub fn flush_nodes(&mut self) {
        let add = self.nodes - self.reported;
        self.reported = self.nodes;
        self.stop.shared_nodes.fetch_add(add, Ordering::Relaxed);
    }

    /// The midgame (estimated) table key of a position.
    #[inline(always)]
    pub fn key_midgame(&self, p: u64, o: u64) -> u64 {
        super::table::hash(p, o, SALT_MIDGAME ^ self.variant_salt)
    }

    /// The exact table key of a position.
    #[inline(always)]
    pub fn key_exact(&self, p: u64, o: u64) -> u64 {
        super::table::hash(p, o, SALT_EXACT ^ self.variant_salt)
    }

    /// Legal moves of `p` against `o` on this board.
    #[inline(always)]
    pub fn moves(&self, p: u64, o: u64) -> u64 {
        self.kernels.moves(p, o) & self.geo.mask
    }

    /// The discs of `o` that `p` flips by playing on `x`.
    #[inline(always)]
    pub fn flips(&self, x: u8, p: u64, o: u64) -> u64 {
        self.kernels.flips(usize::from(x), p, o)
    }

    /// The position after `p` plays on `x`, from the opponent's side (new
    /// player, new opponent). `x` must be a legal move.
    #[inline(always)]
    pub fn play(&self, p: u64, o: u64, x: u8) -> (u64, u64) {
        let f = self.flips(x, p, o);
        (o ^ f, p | f | (1u64 << x))
    }
}

/// Calls `$then!` with the tokens `$pre` and then the list of the search's
/// entries: the name of each, the body it runs ([`Searcher`] methods marked
/// `#[inline(always)]`) and its arguments. The one list the trait, the
/// safe calls and each set's implementation are made from.
macro_rules! with_entries {
    ($then:ident $($pre:tt)*) => {
        $then! { $($pre)*
            /// The value of (`p`, `o`) searched `depth` plies deep within
            /// the window `w`, fail-soft, in hundredths of a disc, given the
            /// features of (`p`, `o`) ([`super::eval::Evaluator::features`]):
            /// [`Searcher::mid_node`].
            mid => mid_node(p: u64, o: u64, f: &Features, depth: u32, w: Window, pv: bool);
            /// The exact solver from `min_table_empties` empties: table,
            /// stability cutoff, PVS ([`Searcher::deep_node`]).
            solve_deep => deep_node(p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u32);
            /// The exact solver below `min_table_empties` empties
            /// ([`Searcher::shallow_node`]).
            solve_shallow => shallow_node(p: u64, o: u64, alpha: i32, beta: i32, n: u32, parity: u32);
            /// Four empties left ([`Searcher::last4_node`]).
            last4 => last4_node(p: u64, o: u64, alpha: i32, beta: i32, x: [u8; 4], passed: bool);
            /// Three empties left ([`Searcher::last3_node`]).
            last3 => last3_node(p: u64, o: u64, alpha: i32, beta: i32, x: [u8; 3], passed: bool);
        }
    };
}

/// The trait [`Entries`] and the safe calls of its entries on [`Searcher`].
macro_rules! declare_entries {
    ($($(#[$doc:meta])* $name:ident => $body:ident($($arg:ident: $ty:ty),*);)*) => {
        /// The recursive functions of the search, one entry per kernel set,
        /// each compiled with the set's extensions around the node's body.
        ///
        /// # Safety
        /// An entry may only run on a CPU with the set's extensions: the
        /// safe calls on [`Searcher`] pass the searcher's token as proof.
        pub(crate) trait Entries: Lanes {
            $(
                $(#[$doc])*
                unsafe fn $name(s: &mut Searcher<'_, Self>, $($arg: $ty),*) -> i32;
            )*
        }

        /// The safe calls of the [`Entries`]: `self.kernels` is a token of
        /// `K`, which exists only on a CPU with the set's extensions.
        impl<K: Entries> Searcher<'_, K> {
            $(
                $(#[$doc])*
                #[inline(always)]
                pub(crate) fn $name(&mut self, $($arg: $ty),*) -> i32 {
                    // SAFETY: `self.kernels` proves the CPU has the set's
                    // extensions.
                    unsafe { K::$name(self, $($arg),*) }
                }
            )*
        }
    };
}
with_entries!(declare_entries);

/// [`Entries`] for the kernel set `$set`, compiled with `$features`.
macro_rules! implement_entries {
    ($set:path, $features:tt; $($(#[$doc:meta])* $name:ident => $body:ident($($arg:ident: $ty:ty),*);)*) => {
        impl Entries for $set {
            $(
                entry! { $features
                    unsafe fn $name(s: &mut Searcher<'_, Self>, $($arg: $ty),*) -> i32 {
                        s.$body($($arg),*)
                    }
                }
            )*
        }
    };
}

/// [`implement_entries`] with the list of [`with_entries`].
macro_rules! search_entries {
    ($set:path, $features:tt) => {
        with_entries!(implement_entries $set, $features;);
    };
}
kernel_sets!(search_entries);
