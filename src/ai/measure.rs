//! Search measurements for tuning: the non-selective full-window values of
//! positions at every depth, and their exact scores, from which
//! `learn::tuning` fits the ProbCut models ([`super::probcut::fit`]).
//! Only the measurement lives here, because it needs the searcher's
//! internals; sampling the positions and the fit belong to `learn`.

use super::searcher::{Searcher, StopConditions};
use super::step::{INF, Window};
use super::table::Table;
use crate::rules::kernels::with_kernels;
use crate::rules::{KernelSet, Position, Rules};
use std::sync::atomic::{AtomicBool, AtomicU64};

/// The full midgame window: every value is exact.
const FULL: Window = Window::new(-INF, INF);

/// Values of one position searched without selectivity at every depth from 0
/// (the static evaluation) to `values.len() - 1`, in hundredths of a disc for
/// the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbCutSample {
    /// Number of empty squares.
    pub empties: u32,
    /// `values[d]`: the full-window search value at depth `d`.
    pub values: Vec<i32>,
}

/// For each position, the non-selective full-window values at depths
/// `0..=max_depth` (fresh table per position), with the kernel set
/// [`KernelSet::selected`].
#[must_use]
pub fn probcut_samples(
    positions: &[Position],
    rules: &Rules,
    eval: &super::Evaluator,
    max_depth: u32,
) -> Vec<ProbCutSample> {
    let kernels = KernelSet::selected();
    let mut table = Table::new(16);
    let flag = AtomicBool::new(false);
    let shared = AtomicU64::new(0);
    let mut out = Vec::with_capacity(positions.len());
    for pos in positions {
        table.clear();
        let (p, o) = (pos.player(), pos.opponent());
        let values = with_kernels!(kernels, k => {
            let mut s = Searcher::new(k, &table, rules, eval.clone(), unlimited(&flag, &shared));
            (0..=max_depth).map(|d| s.midgame(p, o, d, FULL, true)).collect()
        });
        out.push(ProbCutSample {
            empties: pos.empties().count(),
            values,
        });
    }
    out
}

/// A position's exact score (discs) and its shallow search values, for fitting
/// the endgame ProbCut models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndcutSample {
    /// Number of empty squares.
    pub empties: u32,
    /// The exact final margin for the side to move, in discs.
    pub exact: i32,
    /// `values[d]`: the full-window midgame search value at depth `d`
    /// (hundredths of a disc).
    pub values: Vec<i32>,
}

/// For each position, its exact score and the non-selective full-window
/// midgame values at depths `0..=max_depth` (fresh table per position),
/// with the kernel set [`KernelSet::selected`].
#[must_use]
pub fn endcut_samples(
    positions: &[Position],
    rules: &Rules,
    eval: &super::Evaluator,
    max_depth: u32,
    progress: &mut dyn FnMut(usize),
) -> Vec<EndcutSample> {
    let kernels = KernelSet::selected();
    let mut table = Table::new(64);
    let flag = AtomicBool::new(false);
    let shared = AtomicU64::new(0);
    let mut out = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        table.clear();
        let (p, o) = (pos.player(), pos.opponent());
        let (exact, values) = with_kernels!(kernels, k => {
            let mut s = Searcher::new(k, &table, rules, eval.clone(), unlimited(&flag, &shared));
            let exact = s.solve(p, o, -64, 64);
            let values = (0..=max_depth).map(|d| s.midgame(p, o, d, FULL, true)).collect();
            (exact, values)
        });
        out.push(EndcutSample {
            empties: pos.empties().count(),
            exact,
            values,
        });
        progress(i + 1);
    }
    out
}

/// Stop conditions that never stop a search (the flag is never set).
fn unlimited<'a>(flag: &'a AtomicBool, shared: &'a AtomicU64) -> StopConditions<'a> {
    StopConditions {
        flag,
        deadline: None,
        nodes: None,
        shared_nodes: shared,
    }
}
