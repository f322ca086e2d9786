//! Whether the root's iterations foretell a deeper search's move: for one
//! position per game at each given number of empties, a search `EXTRA`
//! plies deeper than `SPEC`'s depth there (fresh table, one thread), and the
//! best move of every iteration. Counts, at `SPEC`'s depth `D`:
//!
//! * *unsettled*: the move at `D` differs from the move at `D − 1` or at
//!   `D − 2` (what `doubt:N` searches further); how often the deepest
//!   iteration then plays another move, and what its extra plies cost;
//! * *settled*: the moves at `D − 3`, `D − 2` and `D − 1` agree (what
//!   `settle:3` stops at); how often `D` and the deepest iteration change
//!   it, and what skipping `D` would save.
//!
//! ```sh
//! cargo run --release --example stability -- GAMES SPEC EMPTIES COUNT EXTRA
//! ```
//! `GAMES`, `SPEC`, `EMPTIES` and `COUNT` as for `searchcost`.

mod common;

use reversi::ai::Engine;
use reversi::arena::PlayerSpec;
use reversi::rules::{Move, Rules};
use std::sync::atomic::AtomicBool;

/// Totals over positions.
#[derive(Default)]
struct Tally {
    positions: u32,
    changed: u32,
    changed_deeper: u32,
    seconds: f64,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, spec, empties, count, extra, ..] = args.as_slice() else {
        return Err("usage: stability GAMES SPEC EMPTIES COUNT EXTRA".into());
    };
    let text = std::fs::read_to_string(games).map_err(|e| format!("{games}: {e}"))?;
    let PlayerSpec::Builtin { limits, .. } =
        PlayerSpec::parse_builtin(spec).map_err(|e| e.to_string())?
    else {
        return Err(format!("{spec}: not a searching player"));
    };
    let extra: u32 = extra
        .parse()
        .map_err(|_| format!("{extra}: not a number"))?;
    let count: usize = count.parse().map_err(|_| format!("{count}: not a count"))?;
    let rules = Rules::default();
    let stop = AtomicBool::new(false);
    let (mut all, mut unsettled, mut settled) =
        (Tally::default(), Tally::default(), Tally::default());
    let mut base_seconds = 0.0;
    for e in empties.split(',') {
        let e: u32 = e
            .trim()
            .parse()
            .map_err(|_| format!("{e}: not a number of empties"))?;
        for (_, p) in common::positions_at(&text, &rules, e, count) {
            let d = limits.depth_at(e);
            if d < 4 {
                continue;
            }
            let mut deeper = limits;
            deeper.depth += extra;
            deeper.opening_depth = deeper.opening_depth.map(|x| x + extra);
            deeper.late_depth = deeper.late_depth.map(|x| x + extra);
            let mut its: Vec<(u32, Move, f64)> = Vec::new();
            Engine::new(64).search(&p, &rules, &deeper, &stop, 1, &mut |pr| {
                its.push((pr.depth, pr.best_move, pr.elapsed.as_secs_f64()));
            });
            let at = |k: u32| its.iter().find(|i| i.0 == k).copied();
            let (Some(last), Some(b), Some(b1), Some(b2), Some(b3)) =
                (its.last().copied(), at(d), at(d - 1), at(d - 2), at(d - 3))
            else {
                continue;
            };
            base_seconds += b.2;
            let add = |t: &mut Tally, changed: bool, deeper: bool, seconds: f64| {
                t.positions += 1;
                t.changed += u32::from(changed);
                t.changed_deeper += u32::from(deeper);
                t.seconds += seconds;
            };
            add(&mut all, false, last.1 != b.1, last.2 - b.2);
            if b.1 != b1.1 || b.1 != b2.1 {
                add(&mut unsettled, false, last.1 != b.1, last.2 - b.2);
            }
            if b1.1 == b2.1 && b2.1 == b3.1 {
                add(&mut settled, b.1 != b1.1, last.1 != b1.1, b.2 - b1.2);
            }
        }
    }
    println!(
        "{} positions; {extra} plies more change the move in {} and cost {:.2} s over the {:.2} s of {spec}",
        all.positions, all.changed_deeper, all.seconds, base_seconds
    );
    println!(
        "unsettled at the depth: {} positions; {extra} plies more change the move in {} and cost {:.2} s",
        unsettled.positions, unsettled.changed_deeper, unsettled.seconds
    );
    println!(
        "settled before the depth: {} positions; the depth changes the move in {}, {extra} plies more in {}; skipping the depth saves {:.2} s",
        settled.positions, settled.changed, settled.changed_deeper, settled.seconds
    );
    Ok(())
}
