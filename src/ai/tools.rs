//! Data collection for tuning: sample positions from self-play of noisy low
//! levels, and measure shallow-versus-deep search values for fitting the
//! ProbCut models ([`super::probcut::fit`]). Used by `reversi bench
//! --fit-probcut`; deterministic for a given seed.

use super::midgame::INF;
use super::searcher::{Searcher, StopConditions};
use super::table::Table;
use super::{Engine, Limits};
use crate::rules::{BoardSize, Move, Position, Rules};
use std::sync::atomic::{AtomicBool, AtomicU64};

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

/// Positions sampled from `games` self-play games of a noisy 2-ply search
/// (seeded by `seed`), one every `every` plies, while more than `min_empties`
/// squares are empty.
#[must_use]
pub fn self_play_positions(
    size: BoardSize,
    games: usize,
    every: usize,
    min_empties: u32,
    seed: u64,
) -> Vec<Position> {
    let rules = Rules::standard(size);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        noise: 300,
        ..Limits::depth(2)
    };
    let mut out = Vec::new();
    for g in 0..games {
        let mut p = Position::initial(size);
        let mut ply = 0;
        while !p.is_game_over() && p.empties().count() > min_empties {
            let r = engine.search(
                &p,
                &rules,
                &limits,
                &stop,
                seed ^ (g as u64) << 20 ^ ply,
                &mut |_| {},
            );
            p = p.play_unchecked(r.best_move);
            ply += 1;
            if r.best_move != Move::Pass && ply as usize % every == g % every {
                out.push(p);
            }
        }
    }
    out
}

/// For each position, the non-selective full-window values at depths
/// `0..=max_depth` (fresh table per position).
#[must_use]
pub fn probcut_samples(
    positions: &[Position],
    rules: &Rules,
    eval: &super::Evaluator,
    max_depth: u32,
) -> Vec<ProbCutSample> {
    let mut table = Table::new(16);
    let flag = AtomicBool::new(false);
    let shared = AtomicU64::new(0);
    positions
        .iter()
        .map(|pos| {
            table.clear();
            let mut s = Searcher::new(&table, rules, eval.clone(), unlimited(&flag, &shared));
            let values = (0..=max_depth)
                .map(|d| s.midgame(pos.player(), pos.opponent(), d, -INF, INF, true))
                .collect();
            ProbCutSample {
                empties: pos.empties().count(),
                values,
            }
        })
        .collect()
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
/// midgame values at depths `0..=max_depth` (fresh table per position).
#[must_use]
pub fn endcut_samples(
    positions: &[Position],
    rules: &Rules,
    eval: &super::Evaluator,
    max_depth: u32,
    progress: &mut dyn FnMut(usize),
) -> Vec<EndcutSample> {
    let mut table = Table::new(64);
    let flag = AtomicBool::new(false);
    let shared = AtomicU64::new(0);
    let mut out = Vec::with_capacity(positions.len());
    for (i, pos) in positions.iter().enumerate() {
        table.clear();
        let mut s = Searcher::new(&table, rules, eval.clone(), unlimited(&flag, &shared));
        let (p, o) = (pos.player(), pos.opponent());
        let exact = s.solve(p, o, -64, 64);
        let values = (0..=max_depth)
            .map(|d| s.midgame(p, o, d, -INF, INF, true))
            .collect();
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
