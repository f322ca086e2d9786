//! Tuning the search from measurements: positions sampled from self-play of
//! a noisy 2-ply search, their shallow and deep search values
//! ([`crate::ai::probcut_samples`], [`crate::ai::endcut_samples`]), and the
//! fit of the ProbCut models (written into a weights file by `reversi bench
//! --models-out`; the hand-written evaluation's are pasted into
//! `src/ai/probcut.rs`).
//! Used by `reversi bench --fit-probcut` and `--fit-endcut`; deterministic
//! for a given seed. The history of the tuning is in `docs/tuning.md`.

use crate::ai::probcut::{FIT_DEPTHS, Model};
use crate::ai::{self, Engine, Limits};
use crate::rules::{BoardSize, Move, Position, Rules};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

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

/// The midgame models of a fit, `[band][depth - MIN_DEPTH]` (`None` where
/// there were too few positions).
pub type MidgameFit = [[Option<Model>; FIT_DEPTHS]; 3];

/// Samples positions from `games` games, measures shallow and deep values,
/// fits and prints the midgame ProbCut models (`reversi bench --fit-probcut`),
/// and returns them.
///
/// # Errors
/// Only a failure to write to `out`.
pub fn fit_probcut(
    games: usize,
    engine: &Engine,
    out: &mut impl Write,
) -> std::io::Result<MidgameFit> {
    let t = Instant::now();
    let positions = self_play_positions(BoardSize::Eight, games, 3, 14, 2026);
    let rules = Rules::standard(BoardSize::Eight);
    let max = ai::probcut::MAX_FIT_DEPTH;
    let eval = engine.evaluator(&rules);
    let samples = ai::probcut_samples(&positions, &rules, &eval, max);
    print_sampled(out, samples.len(), games, &format!("depths 0..={max}"), t)?;
    writeln!(
        out,
        "# {} evaluation; band depth shallow  n      a       b   sigma",
        if eval.is_learned() {
            "learned"
        } else {
            "hand-written"
        }
    )?;
    let mut fitted = [[None; FIT_DEPTHS]; 3];
    for (band, row) in fitted.iter_mut().enumerate() {
        for depth in ai::probcut::MIN_DEPTH..=max {
            let d0 = ai::probcut::shallow_depth(depth);
            let pairs: Vec<(i32, i32)> = samples
                .iter()
                .filter(|s| ai::probcut::band(s.empties) == band)
                .map(|s| (s.values[d0 as usize], s.values[depth as usize]))
                .collect();
            row[(depth - ai::probcut::MIN_DEPTH) as usize] =
                print_fit(out, &format!("{band} {depth:2} {d0:2}"), &pairs)?;
        }
    }
    Ok(fitted)
}

/// Samples positions with 12–24 empties, solves them, and prints the fitted
/// `exact ≈ a·shallow + b ± σ` per shallow depth and parity of the empties;
/// returns those of the shallow depth the solver uses
/// ([`ai::probcut::ENDCUT_DEPTH`]), even empties first. `progress` hears
/// of every position solved (how many, out of how many).
///
/// # Errors
/// Only a failure to write to `out`.
pub fn fit_endcut(
    games: usize,
    engine: &Engine,
    out: &mut impl Write,
    progress: &mut dyn FnMut(usize, usize),
) -> std::io::Result<[Option<Model>; 2]> {
    let t = Instant::now();
    let positions: Vec<Position> = self_play_positions(BoardSize::Eight, games, 1, 11, 4242)
        .into_iter()
        .filter(|p| (12..=24).contains(&p.empties().count()) && p.has_legal_move())
        .collect();
    let rules = Rules::standard(BoardSize::Eight);
    let eval = engine.evaluator(&rules);
    let max = 8;
    let total = positions.len();
    let samples = ai::endcut_samples(&positions, &rules, &eval, max, &mut |i| progress(i, total));
    print_sampled(
        out,
        samples.len(),
        games,
        &format!("shallow depths 0..={max}"),
        t,
    )?;
    writeln!(
        out,
        "# pooled over 12-24 empties: shallow parity  n      a       b   sigma (hundredths; parity = empties % 2)"
    )?;
    let mut used = [None; 2];
    for d in 0..=max {
        for parity in 0..2 {
            let pairs: Vec<(i32, i32)> = samples
                .iter()
                .filter(|s| s.empties % 2 == parity)
                .map(|s| (s.values[d as usize], s.exact * 100))
                .collect();
            let m = print_fit(out, &format!("{d} {parity}"), &pairs)?;
            if d == ai::probcut::ENDCUT_DEPTH {
                used[parity as usize] = m;
            }
        }
    }
    Ok(used)
}

/// One line of a fitting run: `label`, the number of pairs and the fitted
/// `a`, `b`, `σ` (nothing when the pairs cannot be fitted); the model.
fn print_fit(
    out: &mut impl Write,
    label: &str,
    pairs: &[(i32, i32)],
) -> std::io::Result<Option<Model>> {
    let model = ai::probcut::fit(pairs);
    if let Some(m) = model {
        writeln!(
            out,
            "{label} {:5} {:7.4} {:7.1} {:7.1}",
            pairs.len(),
            m.a,
            m.b,
            m.sigma
        )?;
    }
    Ok(model)
}

/// The first line of a fit: how many positions from how many games, what
/// was measured and how long it took since `started`.
fn print_sampled(
    out: &mut impl Write,
    positions: usize,
    games: usize,
    what: &str,
    started: Instant,
) -> std::io::Result<()> {
    writeln!(
        out,
        "# {positions} positions from {games} games, {what}, {:.1} s",
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}
