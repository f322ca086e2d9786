//! `reversi solve [FILE|-]`: exact solves of OBF positions, one per line.
//!
//! Scores are the final disc margin for the side to move with empty squares
//! counted for the winner, as in the FFO files. A bad line is reported on
//! stderr with its line number, the others are still solved, and the exit
//! status is then 2.

use super::UserError;
use crate::ai::{Engine, Limits, Score, SearchResult};
use crate::notation::{Obf, parse_obf};
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
    let (reader, source) = open_input(args.file.as_deref())?;
    let mut engine = Engine::new(args.hash as usize);
    args.evaluation.apply(&mut engine)?;
    engine.set_threads(args.threads as usize);
    let mut out = std::io::stdout().lock();
    let (mut solved, mut bad, mut wrong) = (0u32, 0u32, 0u32);
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
        let r = solve(&mut engine, &obf);
        solved += 1;
        total_nodes += r.nodes;
        total_time += r.elapsed;
        let solution = Solution {
            line: i + 1,
            text,
            obf: &obf,
            result: &r,
        };
        if solution.expected().is_some_and(|e| e != solution.score()) {
            wrong += 1;
        }
        if args.json {
            out.write_all(super::json_line(&solution.json()).as_bytes())?;
        } else {
            writeln!(out, "{}", solution.text_line())?;
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
    // A score that disagrees with the one listed is a failed check (status 1).
    if wrong > 0 {
        return Err(UserError::from(anyhow::anyhow!(
            "{source}: {wrong} of {solved} scores differ from the listed ones (WRONG)"
        )));
    }
    Ok(())
}

/// The lines to read and their name in messages: standard input (`None` or
/// `-`, with a hint when it is a terminal) or the file at `path`.
fn open_input(path: Option<&str>) -> Result<(Box<dyn BufRead>, String), UserError> {
    match path {
        None | Some("-") => {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                eprintln!(
                    "reversi: reading OBF positions from standard input, one per line \
                     (end with Ctrl-D; or give a file)"
                );
            }
            Ok((Box::new(stdin.lock()), "standard input".into()))
        }
        Some(path) => {
            let file = std::fs::File::open(path)
                .map_err(|e| UserError::file(std::path::Path::new(path), e))?;
            Ok((Box::new(std::io::BufReader::new(file)), path.to_string()))
        }
    }
}

/// The exact solve of an OBF position from an empty table, empty squares
/// counted for the winner.
fn solve(engine: &mut Engine, obf: &Obf) -> SearchResult {
    let p = obf.position;
    let rules = Rules {
        scoring: Scoring::EmptiesToWinner,
        ..Rules::standard(p.size())
    };
    engine.clear();
    engine.search(
        &p,
        &rules,
        &Limits::exact(),
        &AtomicBool::new(false),
        0,
        &mut |_| {},
    )
}

/// A solved line of the input, for output.
struct Solution<'a> {
    /// Its line number (from 1).
    line: usize,
    /// The line, trimmed.
    text: &'a str,
    obf: &'a Obf,
    result: &'a SearchResult,
}

impl Solution<'_> {
    /// The solved score for the side to move.
    fn score(&self) -> i32 {
        match self.result.score {
            Score::Exact(v) | Score::Estimate(v) => v,
        }
    }

    /// The best score listed on the line, if any.
    fn expected(&self) -> Option<i32> {
        self.obf.scores.iter().map(|s| s.1).max()
    }

    /// Nodes per second.
    fn rate(&self) -> f64 {
        self.result.nodes as f64 / self.result.elapsed.as_secs_f64().max(1e-9)
    }

    fn json(&self) -> SolveJson {
        let r = self.result;
        SolveJson {
            line: self.line,
            board: self.text.split(';').next().unwrap_or("").trim().to_string(),
            best: r.best_move.to_string(),
            score: self.score(),
            expected: self.expected(),
            nodes: r.nodes,
            time: (r.elapsed.as_secs_f64() * 1e4).round() / 1e4,
            nps: self.rate().round() as u64,
            pv: pv_text(&r.pv),
        }
    }

    /// The text line: move, score, nodes, time, speed, whether the score
    /// and move match those listed, and the principal variation.
    fn text_line(&self) -> String {
        let r = self.result;
        let (score, expected) = (self.score(), self.expected());
        let best_known = self
            .obf
            .scores
            .iter()
            .any(|s| s.0 == r.best_move && Some(s.1) == expected);
        let check = match expected {
            Some(e) if e == score && best_known => "ok",
            Some(e) if e == score => "ok (score)",
            Some(_) => "WRONG",
            None => "",
        };
        format!(
            "#{:<3} {:>4} {:+4}  nodes {:>13}  time {:8.3} s  {:>6.2} Mn/s  {check}  pv {}",
            self.line,
            r.best_move.to_string(),
            score,
            r.nodes,
            r.elapsed.as_secs_f64(),
            self.rate() / 1e6,
            pv_text(&r.pv)
        )
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
