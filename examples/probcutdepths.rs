//! How well a shallow search predicts a deep one beyond the depths the
//! ProbCut models are fitted at: positions sampled as `reversi bench
//! --fit-probcut` samples them, each searched without selectivity at every
//! depth up to `MAX`, then `deep ≈ a·shallow + b ± σ` fitted for every
//! deep depth and several shallow ones, per phase band (the figures of
//! `docs/tuning.md`, "ProbCut beyond depth 10").
//!
//! ```sh
//! cargo run --release --example probcutdepths -- GAMES MAX [THREADS]
//! ```
//! `GAMES`: self-play games sampled (one position every third ply);
//! `MAX`: the deepest search; `THREADS`: positions searched at once
//! (default 2).

use reversi::ai::probcut::{MIN_DEPTH, band, fit, shallow_depth};
use reversi::ai::{Evaluator, PatternWeights, ProbCutSample, probcut_samples};
use reversi::learn::tuning::self_play_positions;
use reversi::rules::{BoardSize, Rules};

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: Option<u32>| -> Result<u32, String> {
        match (args.get(i), default) {
            (Some(a), _) => a.parse().map_err(|_| format!("{a}: not a number")),
            (None, Some(d)) => Ok(d),
            (None, None) => Err("usage: probcutdepths GAMES MAX [THREADS]".into()),
        }
    };
    let games = number(0, None)? as usize;
    let max = number(1, None)?;
    let threads = number(2, Some(2))?.max(1) as usize;
    let rules = Rules::standard(BoardSize::Eight);
    let weights = PatternWeights::shipped().map_err(|e| e.to_string())?;
    if let Some(m) = weights.models() {
        println!("# the shipped models: band deep shallow a b sigma");
        for (b, row) in m.midgame.iter().enumerate() {
            for (i, model) in row.iter().enumerate() {
                let deep = i as u32 + MIN_DEPTH;
                println!(
                    "# {b} {deep:4} {:7} {:7.4} {:7.1} {:7.1}",
                    shallow_depth(deep),
                    model.a,
                    model.b,
                    model.sigma
                );
            }
        }
    }
    let eval = Evaluator::with_weights(&rules, Some(weights));
    let positions = self_play_positions(BoardSize::Eight, games, 3, 14, 2026);
    let started = std::time::Instant::now();
    let chunk = positions.len().div_ceil(threads).max(1);
    let samples: Vec<ProbCutSample> = std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let (rules, eval) = (&rules, &eval);
                scope.spawn(move || probcut_samples(part, rules, eval, max))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a sampling thread panicked"))
            .collect()
    });
    println!(
        "# {} positions from {games} games, depths 0..={max}, {:.0} s",
        samples.len(),
        started.elapsed().as_secs_f64()
    );
    println!("# band deep shallow     n      a       b   sigma");
    for b in 0..3 {
        for deep in 3..=max {
            let mut shallows: Vec<u32> = vec![shallow_depth(deep)];
            for s in [2, 4, 6, 8] {
                if s < deep && s % 2 == deep % 2 && !shallows.contains(&s) {
                    shallows.push(s);
                }
            }
            for s in shallows {
                let pairs: Vec<(i32, i32)> = samples
                    .iter()
                    .filter(|x| band(x.empties) == b)
                    .map(|x| (x.values[s as usize], x.values[deep as usize]))
                    .collect();
                if let Some(m) = fit(&pairs) {
                    println!(
                        "{b} {deep:4} {s:7} {:5} {:7.4} {:7.1} {:7.1}",
                        pairs.len(),
                        m.a,
                        m.b,
                        m.sigma
                    );
                }
            }
        }
    }
    Ok(())
}
