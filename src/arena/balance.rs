//! Balanced openings: random openings kept only when a judge search finds
//! them nearly even.
//!
//! Most positions eight random plies from the start are already won for one
//! side: in a match between strong engines from such openings, both games of
//! a pair usually go to the same colour whoever plays it, and only the few
//! even openings tell the engines apart. Testing sets of strong programs are
//! made of openings that a deep search values near zero for this reason
//! (the XOT set of the Othello engine community, for one). The judge is one
//! built-in search, the same for both colours, so the filter favours no side.
//!
//! Candidates are [`super::random_openings`] from the seed, judged in order,
//! each with a fresh table: the set depends only on the seed and the
//! settings, never on the number of threads.

use super::{EvalSpec, random_openings};
use crate::ai::{Engine, Limits};
use crate::rules::{BoardSize, Color, Move, Position, Rules};
use std::sync::atomic::AtomicBool;

/// Settings of a search for balanced openings.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    /// Board size.
    pub size: BoardSize,
    /// Random plies from the start.
    pub plies: usize,
    /// Largest absolute judged value kept, in discs.
    pub within: f64,
    /// The judge's search limits.
    pub limits: Limits,
    /// The judge's evaluation.
    pub eval: EvalSpec,
    /// Seed of the candidates.
    pub seed: u64,
    /// Hash table of each judging thread, MiB.
    pub hash_mb: usize,
}

/// One judged candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The opening's moves from the start.
    pub moves: Vec<Move>,
    /// The judge's value for Black, in discs.
    pub black_value: f64,
    /// Whether it is within the bound (and so kept).
    pub kept: bool,
}

/// Judges candidates in order until `count` are kept (or the candidates or
/// `stop` end it), handing each judged candidate to `seen` in order.
/// Returns the kept openings.
pub fn balanced_openings(
    config: &BalanceConfig,
    count: usize,
    threads: usize,
    stop: &AtomicBool,
    mut seen: impl FnMut(&Judged),
) -> Vec<Vec<Move>> {
    // Enough candidates for all but the most lopsided settings; drawing
    // them is cheap next to judging them.
    let candidates = random_openings(config.size, config.plies, count * 50 + 100, config.seed);
    let rules = Rules::standard(config.size);
    let mut kept = Vec::new();
    let judge = |engine: &mut Engine, i: usize| {
        engine.clear();
        let mut p = Position::initial(config.size);
        for &m in &candidates[i] {
            p = p.play_unchecked(m);
        }
        let never = AtomicBool::new(false);
        let r = engine.search(&p, &rules, &config.limits, &never, 0, &mut |_| {});
        let discs = r.score.discs();
        if p.side_to_move() == Color::Black {
            discs
        } else {
            -discs
        }
    };
    let engine = || {
        let mut e = Engine::new(config.hash_mb);
        config.eval.apply_to(&mut e);
        e
    };
    let _ =
        crate::parallel::run_in_order(0..candidates.len(), threads, stop, engine, judge, |i, v| {
            let j = Judged {
                moves: candidates[i].clone(),
                black_value: v,
                kept: v.abs() <= config.within,
            };
            seen(&j);
            if j.kept {
                kept.push(j.moves);
            }
            if kept.len() >= count { Err(()) } else { Ok(()) }
        });
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(within: f64) -> BalanceConfig {
        BalanceConfig {
            size: BoardSize::Eight,
            plies: 6,
            within,
            limits: Limits::depth(3),
            eval: EvalSpec::Default,
            seed: 3,
            hash_mb: 1,
        }
    }

    #[test]
    fn kept_openings_are_within_the_bound_and_do_not_depend_on_threads() {
        let never = AtomicBool::new(false);
        let mut judged = Vec::new();
        let one = balanced_openings(&config(1.5), 6, 1, &never, |j| judged.push(j.clone()));
        let two = balanced_openings(&config(1.5), 6, 2, &never, |_| {});
        assert_eq!(one.len(), 6);
        assert_eq!(one, two);
        // Every candidate is reported in order, and kept exactly when its
        // value is within the bound.
        let kept: Vec<Vec<Move>> = judged
            .iter()
            .filter(|j| j.kept)
            .map(|j| j.moves.clone())
            .collect();
        assert_eq!(kept, one);
        assert!(
            judged
                .iter()
                .all(|j| j.kept == (j.black_value.abs() <= 1.5))
        );
        // A judged candidate is judged as a search of it from scratch would.
        let rules = Rules::standard(BoardSize::Eight);
        let j = &judged[0];
        let mut p = Position::initial(BoardSize::Eight);
        for &m in &j.moves {
            p = p.play_unchecked(m);
        }
        let never = AtomicBool::new(false);
        let r = Engine::new(1).search(&p, &rules, &Limits::depth(3), &never, 0, &mut |_| {});
        let for_black = if p.side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        assert!((r.score.discs() * for_black - j.black_value).abs() < 1e-9);
    }

    #[test]
    fn a_tighter_bound_rejects_more() {
        let never = AtomicBool::new(false);
        let (mut loose, mut tight) = (0, 0);
        balanced_openings(&config(4.0), 5, 2, &never, |_| loose += 1);
        balanced_openings(&config(0.5), 5, 2, &never, |_| tight += 1);
        assert!(
            tight >= loose,
            "judged {tight} for the tight bound, {loose} for the loose"
        );
    }
}
