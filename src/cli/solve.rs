//! `reversi solve [FILE|-]`: exact solves of OBF positions, one per line.
//!
//! Scores are the final disc margin for the side to move with empty squares
//! counted for the winner, as in the FFO files. A bad line is reported on
//! stderr with its line number, the others are still solved, and the exit
//! status is then 2.

use super::UserError;
use crate::ai::{Engine, Limits, Score};
use crate::notation::parse_obf;
use crate::rules::{Move, Rules, Scoring};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// `reversi solve --json`: one object per position, one line each; schema in
/// `docs/json.md`.
#[derive(Debug, serde::Serialize)]
struct SolveJson {
    /// The line number in the input (from 1).
    line: usize,
    board: String,
    best: String,
    score: i32,
    /// The best score listed on the line, if any.
    expected: Option<i32>,
    nodes: u64,
    /// Seconds, rounded to 0.1 ms.
    time: f64,
    /// Nodes per second.
    nps: u64,
    /// The principal variation, moves separated by spaces.
    pv: String,
}

/// Arguments of `reversi solve`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct SolveArgs {
    /// The OBF file (`-` or nothing: standard input).
    pub file: Option<String>,
    /// One JSON object per position instead of text.
    #[arg(long)]
    pub json: bool,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 256, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// The evaluation.
    #[command(flatten)]
    pub evaluation: super::EvalArgs,
}

/// Runs `reversi solve`.
///
/// # Errors
/// A file that cannot be read; exit status 2 if any line was bad.
pub fn run(args: &SolveArgs) -> Result<(), UserError> {
    let (reader, source): (Box<dyn BufRead>, String) = match args.file.as_deref() {
        None | Some("-") => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!(
                    "reversi: reading OBF positions from standard input, one per line \
                     (end with Ctrl-D; or give a file)"
                );
            }
            (Box::new(stdin.lock()), "standard input".into())
        }
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| UserError::file(std::path::Path::new(path), e))?;
            (Box::new(std::io::BufReader::new(file)), path.to_string())
        }
    };
    let mut engine = Engine::new(args.hash as usize);
    args.evaluation.apply(&mut engine)?;
    engine.set_threads(args.threads as usize);
    let stop = AtomicBool::new(false);
    let mut out = std::io::stdout().lock();
    let (mut solved, mut bad) = (0u32, 0u32);
    let (mut total_nodes, mut total_time) = (0u64, Duration::ZERO);
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => UserError::input(format!(
                "{source}: line {}: not text (invalid UTF-8)",
                i + 1
            )),
            _ => UserError::input(format!("{source}: {e}")),
        })?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') || text.starts_with('%') {
            continue;
        }
        let obf = match parse_obf(text) {
            Ok(obf) => obf,
            Err(e) => {
                eprintln!("reversi: {source}: line {}: {e}", i + 1);
                bad += 1;
                continue;
            }
        };
        let p = obf.position;
        let rules = Rules {
            scoring: Scoring::EmptiesToWinner,
            ..Rules::standard(p.size())
        };
        engine.clear();
        let r = engine.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
        let score = match r.score {
            Score::Exact(v) | Score::Estimate(v) => v,
        };
        let expected = obf.scores.iter().map(|s| s.1).max();
        let best_known = obf
            .scores
            .iter()
            .any(|s| s.0 == r.best_move && Some(s.1) == expected);
        let secs = r.elapsed.as_secs_f64();
        let rate = r.nodes as f64 / secs.max(1e-9);
        solved += 1;
        total_nodes += r.nodes;
        total_time += r.elapsed;
        if args.json {
            let view = SolveJson {
                line: i + 1,
                board: text.split(';').next().unwrap_or("").trim().to_string(),
                best: r.best_move.to_string(),
                score,
                expected,
                nodes: r.nodes,
                time: (secs * 1e4).round() / 1e4,
                nps: rate.round() as u64,
                pv: pv_text(&r.pv),
            };
            out.write_all(super::json_line(&view).as_bytes())?;
        } else {
            let check = match expected {
                Some(e) if e == score && best_known => "ok",
                Some(e) if e == score => "ok (score)",
                Some(_) => "WRONG",
                None => "",
            };
            writeln!(
                out,
                "#{:<3} {:>4} {:+4}  nodes {:>13}  time {:8.3} s  {:>6.2} Mn/s  {check}  pv {}",
                i + 1,
                r.best_move.to_string(),
                score,
                r.nodes,
                secs,
                rate / 1e6,
                pv_text(&r.pv)
            )?;
        }
        out.flush()?;
    }
    if solved == 0 && bad == 0 {
        return Err(UserError::input(format!("{source}: no positions")));
    }
    if !args.json && solved > 0 {
        let secs = total_time.as_secs_f64();
        writeln!(
            out,
            "total {solved} positions  nodes {total_nodes}  time {secs:.3} s  {:.2} Mn/s",
            total_nodes as f64 / secs.max(1e-9) / 1e6
        )?;
    }
    if bad > 0 {
        return Err(UserError::input(format!("{source}: {bad} bad line(s)")));
    }
    Ok(())
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
