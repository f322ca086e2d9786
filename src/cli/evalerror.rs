//! `reversi bench --eval-error GAMES`: how far the static evaluations are from
//! exact scores, and how fast they are.
//!
//! Takes one position with 20–24 empties from each game of a self-play file
//! (after its random opening), solves it exactly, and prints the mean
//! absolute error in discs of the learned and the hand-written evaluation
//! (the latter also after the least-squares scale that suits it best, since
//! it was never calibrated in discs).

use super::UserError;
use crate::ai::{Engine, Evaluator, Limits, Score};
use crate::learn::selfplay::read_games;
use crate::random;
use crate::rules::{BoardSize, Position, Rules};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Positions with 20..=24 empties, one per game, at most `count`.
fn positions(path: &Path, count: usize) -> Result<Vec<Position>, UserError> {
    let games = read_games(path, usize::MAX).map_err(|e| super::games_file_error(path, &e))?;
    let mut out = Vec::new();
    for g in games {
        if out.len() >= count {
            break;
        }
        let want = 20 + (out.len() % 5) as u32;
        if let Some((_, p)) = g.positions().into_iter().find(|(ply, p)| {
            *ply >= g.random_plies as usize && p.empties().count() == want && p.has_legal_move()
        }) {
            out.push(p);
        }
    }
    Ok(out)
}

/// Runs the measurement with `engine` (whose evaluation is "learned").
pub fn run(
    path: &Path,
    count: usize,
    engine: &mut Engine,
    out: &mut impl Write,
) -> Result<(), UserError> {
    let rules = Rules::standard(BoardSize::Eight);
    let learned = engine.evaluator(&rules);
    let hand = Evaluator::new(&rules);
    let list = positions(path, count)?;
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let mut rows = Vec::new();
    for (i, p) in list.iter().enumerate() {
        engine.clear();
        let r = engine.search(p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
        let Score::Exact(exact) = r.score else {
            continue;
        };
        let l = f64::from(learned.evaluate(p)) / 100.0;
        let h = f64::from(hand.evaluate(p)) / 100.0;
        rows.push((f64::from(exact), l, h));
        eprint!("\r{}/{} solved", i + 1, list.len());
    }
    eprintln!();
    let n = rows.len().max(1) as f64;
    let mae = |f: &dyn Fn(&(f64, f64, f64)) -> f64| rows.iter().map(f).sum::<f64>() / n;
    let scale = rows.iter().map(|r| r.0 * r.2).sum::<f64>()
        / rows.iter().map(|r| r.2 * r.2).sum::<f64>().max(1e-9);
    writeln!(
        out,
        "{} positions (20-24 empties) solved in {:.1} s",
        rows.len(),
        t.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "mean absolute error, discs: learned {:.2} ({})  hand-written {:.2}  hand-written x{scale:.2} {:.2}  zero {:.2}",
        mae(&|r| (r.0 - r.1).abs()),
        if learned.is_learned() {
            "pattern weights"
        } else {
            "NOT LOADED: hand-written"
        },
        mae(&|r| (r.0 - r.2).abs()),
        mae(&|r| (r.0 - scale * r.2).abs()),
        mae(&|r| r.0.abs()),
    )?;
    Ok(())
}

/// Static evaluations per second of the learned and the hand-written
/// evaluation, on positions from random games.
pub fn speed(engine: &Engine, out: &mut impl Write) -> Result<(), UserError> {
    let rules = Rules::standard(BoardSize::Eight);
    let learned = engine.evaluator(&rules);
    let hand = Evaluator::new(&rules);
    let mut rng = random::seeded(0);
    let mut list = Vec::new();
    while list.len() < 20_000 {
        let mut p = Position::initial(BoardSize::Eight);
        while !p.is_game_over() {
            let moves = p.moves_list();
            p = p.play_unchecked(moves[random::below(&mut rng, moves.len())]);
            list.push(p);
        }
    }
    for (name, e) in [("learned", &learned), ("hand-written", &hand)] {
        let t = Instant::now();
        let mut sum = 0i64;
        for _ in 0..10 {
            for p in &list {
                sum += i64::from(e.evaluate(std::hint::black_box(p)));
            }
        }
        let s = t.elapsed().as_secs_f64();
        std::hint::black_box(sum);
        writeln!(
            out,
            "evaluation {name}: {:.1} ns per position",
            s * 1e9 / (10 * list.len()) as f64
        )?;
    }
    Ok(())
}
