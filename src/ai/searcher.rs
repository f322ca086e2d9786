//! The state of one search thread: the shared table, the variant, the
//! evaluation, the node counter and the stop conditions (flag, deadline, node
//! budget). The midgame search ([`super::midgame`]) and the exact solver
//! ([`super::endgame`]) are `impl` blocks on [`Searcher`].

use super::eval::Evaluator;
use super::geometry::Geometry;
use super::table::Table;
use crate::rules::Rules;
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

/// One search thread.
pub(crate) struct Searcher<'a> {
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

impl<'a> Searcher<'a> {
    /// A searcher for `rules` on `table`.
    pub fn new(
        table: &'a Table,
        rules: &Rules,
        eval: Evaluator,
        stop: StopConditions<'a>,
    ) -> Searcher<'a> {
        let variant_salt = u64::from(rules.anti) * 0x1111
            + u64::from(rules.scoring == crate::rules::Scoring::EmptiesToWinner) * 0x2222
            + u64::from(rules.size.side()) * 0x3333;
        Searcher {
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
}
