//! Where a search's time goes by game phase: the mean and median time and
//! the mean nodes of one search per game at each given number of empties,
//! with a fresh table each (the figures of `docs/tuning.md`, "Nominal
//! depth").
//!
//! ```sh
//! cargo run --release --example searchcost -- GAMES SPEC EMPTIES [COUNT]
//! ```
//! `GAMES`: move transcripts from the start, one game per line; `SPEC`: a
//! `reversi match` player such as `depth:16,exact:22,sel:4`; `EMPTIES`: a
//! comma-separated list such as `44,36,30,24`; `COUNT`: the games used
//! (default 20). With `REVERSI_EACH=1` in the environment, one line per
//! position too: the game's line number, its empties, the move, the score,
//! the seconds and the nodes, tab-separated.

mod common;

use reversi::ai::Engine;
use reversi::arena::PlayerSpec;
use reversi::rules::Rules;
use std::sync::atomic::AtomicBool;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, spec, empties, rest @ ..] = args.as_slice() else {
        return Err("usage: searchcost GAMES SPEC EMPTIES [COUNT]".into());
    };
    let text = std::fs::read_to_string(games).map_err(|e| format!("{games}: {e}"))?;
    let PlayerSpec::Builtin { limits, .. } =
        PlayerSpec::parse_builtin(spec).map_err(|e| e.to_string())?
    else {
        return Err(format!("{spec}: not a searching player"));
    };
    let empties = empties
        .split(',')
        .map(|e| {
            e.trim()
                .parse::<u32>()
                .map_err(|_| format!("{e}: not a number of empties"))
        })
        .collect::<Result<Vec<u32>, String>>()?;
    let count = match rest.first() {
        Some(c) => c.parse().map_err(|_| format!("{c}: not a count"))?,
        None => 20,
    };
    let rules = Rules::default();
    let stop = AtomicBool::new(false);
    let each = std::env::var_os("REVERSI_EACH").is_some_and(|v| v == "1");
    for &e in &empties {
        let mut times = Vec::new();
        let mut nodes = 0u64;
        for (i, p) in common::positions_at(&text, &rules, e, count) {
            let r = Engine::new(64).search(&p, &rules, &limits, &stop, 1, &mut |_| {});
            nodes += r.nodes;
            times.push(r.elapsed.as_secs_f64());
            if each {
                println!(
                    "{}\t{e}\t{}\t{}\t{:.4}\t{}",
                    i + 1,
                    r.best_move,
                    r.score,
                    r.elapsed.as_secs_f64(),
                    r.nodes
                );
            }
        }
        times.sort_by(f64::total_cmp);
        let n = times.len().max(1) as f64;
        println!(
            "empties {e:2}: {} positions, mean {:.4} s, median {:.4} s, mean nodes {:.0}",
            times.len(),
            times.iter().sum::<f64>() / n,
            times.get(times.len() / 2).copied().unwrap_or(0.0),
            nodes as f64 / n
        );
    }
    Ok(())
}
