//! `reversi bench`: a fixed suite for comparing builds, one figure per line:
//! the kernel set it runs with (`REVERSI_KERNELS` forces one), perft,
//! fixed-depth midgame searches on fixed positions, a few FFO endgame
//! solves; optionally the 6×6 game solved from the start (`--six`), and the
//! ProbCut fitting runs (`--fit-probcut` for the midgame, `--fit-endcut` for
//! the exact solver's selective iterations), whose models `--models-out`
//! writes into a weights file with the weights they were fitted for.

use super::UserError;
use crate::ai::{Engine, Level, Limits, Score};
use crate::learn::tuning;
use crate::notation::{parse_obf, parse_transcript};
use crate::rules::kernels::KERNELS_VAR;
use crate::rules::{BoardSize, KernelSet, Position, Rules, Scoring, perft_with};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi bench`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 128, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// Depth of the midgame searches.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// ProbCut selectivity of the midgame searches (0: none … 4).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub selectivity: u8,
    /// Midgame positions from this file instead of the built-in five: one
    /// move transcript from the start per line (e.g. `f5d6c3`); text after
    /// `#` is a comment and blank lines are skipped.
    #[arg(long, value_name = "FILE")]
    pub midgame: Option<std::path::PathBuf>,
    /// Also solve the 6×6 game from the start (perfect play: −4 for Black).
    #[arg(long)]
    pub six: bool,
    /// Run only these parts of the suite (comma-separated; default: all).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "PARTS")]
    pub only: Vec<Part>,
    /// Instead of the suite: sample self-play positions and fit the ProbCut
    /// models, printing one line per (phase band, depth).
    #[arg(long)]
    pub fit_probcut: bool,
    /// Instead of the suite: sample self-play positions with 12–24 empties,
    /// solve them, and fit the endgame ProbCut models (exact score against
    /// shallow searches), printing one line per (shallow depth, parity).
    #[arg(long)]
    pub fit_endcut: bool,
    /// With `--fit-probcut` and/or `--fit-endcut`: write the weights the fit
    /// was made with (`--weights`, else the shipped ones) into this file with
    /// the fitted search models (atomically); models not fitted in this run
    /// keep their values from those weights (else from the shipped weights).
    #[arg(long, value_name = "FILE")]
    pub models_out: Option<std::path::PathBuf>,
    /// Games sampled by `--fit-probcut` and `--fit-endcut` (default 40); with
    /// `--ladder`, games per match (default 100).
    #[arg(long)]
    pub games: Option<usize>,
    /// Instead of the suite: re-measure the level ladder. Each level plays
    /// `greedy` (the player that always flips the most discs) and the level
    /// below; prints a table of scores, Elo differences and time per move.
    /// `--threads` is then the number of games played at once.
    #[arg(long)]
    pub ladder: bool,
    /// The levels `--ladder` measures: `FROM-TO` or one level.
    #[arg(long, value_name = "FROM-TO", requires = "ladder", value_parser = super::ladder::parse_levels)]
    pub levels: Option<(crate::ai::Level, crate::ai::Level)>,
    /// Seed of `--ladder`'s openings and players.
    #[arg(long, default_value_t = 1, requires = "ladder")]
    pub seed: u64,
    /// The strongest level that `--ladder` matches against `greedy` (the
    /// strong levels win nearly every game and are costly); default: all.
    #[arg(long, value_name = "N", requires = "ladder", value_parser = super::ladder::parse_level)]
    pub greedy_up_to: Option<crate::ai::Level>,
    /// Instead of the suite: the error of the static evaluations against exact
    /// scores at 20–24 empties, on positions from this self-play games file.
    #[arg(long)]
    pub eval_error: Option<std::path::PathBuf>,
    /// Positions measured by `--eval-error`.
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    /// The evaluation.
    #[command(flatten)]
    pub evaluation: super::EvalArgs,
}

/// A part of the suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    /// The evaluation's speed.
    Eval,
    /// Perft from the 8×8 and 6×6 starts.
    Perft,
    /// The fixed-depth midgame searches.
    Midgame,
    /// The FFO solves.
    Endgame,
}

/// `--fit-probcut` and/or `--fit-endcut`, and `--models-out`.
fn fit_models(args: &BenchArgs, engine: &Engine, out: &mut impl Write) -> Result<(), UserError> {
    let Some(weights) = engine.weights() else {
        if args.models_out.is_some() {
            return Err(UserError::input(
                "--models-out: the hand-written evaluation has no weights file",
            ));
        }
        // The hand-written evaluation: the tables are printed only.
        if args.fit_probcut {
            tuning::fit_probcut(args.games.unwrap_or(40), engine, out)?;
        }
        if args.fit_endcut {
            tuning::fit_endcut(args.games.unwrap_or(40), engine, out, &mut solved)?;
        }
        return Ok(());
    };
    if let Some(path) = &args.models_out {
        super::check_output_folder(path, "--models-out")?;
    }
    let mut models = weights
        .models()
        .or(crate::ai::PatternWeights::shipped()
            .ok()
            .as_deref()
            .and_then(|w| w.models()))
        .copied()
        .ok_or_else(|| UserError::input("no search models to start from"))?;
    if args.fit_probcut {
        let fitted = tuning::fit_probcut(args.games.unwrap_or(40), engine, out)?;
        for (row, fit) in models.midgame.iter_mut().zip(fitted) {
            for (m, f) in row.iter_mut().zip(fit) {
                *m = f.unwrap_or(*m);
            }
        }
    }
    if args.fit_endcut {
        let fitted = tuning::fit_endcut(args.games.unwrap_or(40), engine, out, &mut solved)?;
        for (m, f) in models.endcut.iter_mut().zip(fitted) {
            *m = f.unwrap_or(*m);
        }
    }
    if let Some(path) = &args.models_out {
        let w = (*weights).clone().with_models(Some(models));
        crate::storage::atomic_write(path, &w.to_bytes()).map_err(|e| UserError::file(path, e))?;
        writeln!(
            out,
            "# weights with these models written to {}",
            path.display()
        )?;
    }
    Ok(())
}

/// The count of positions solved by `--fit-endcut`, on one line, ended
/// before the table.
fn solved(i: usize, total: usize) {
    eprint!("\r{i}/{total} solved");
    if i == total {
        eprintln!();
    }
}

/// Midgame positions as move transcripts from the start: the start itself,
/// common openings and longer lines (5–13 plies).
const MIDGAME: [&str; 5] = [
    "",
    "f5d6c3d3c4",
    "f5f6e6f4e3c5c4e7",
    "f5d6c3d3c4f4f6f3e6e7",
    "f5d6c3d3c4f4f6f3e6e7d7c6b6",
];
/// FFO positions solved by the suite (the faster of #40–#59).
const ENDGAME: [usize; 4] = [40, 41, 42, 44];

const FFO_40_59: &str = include_str!("../../tests/data/fforum-40-59.obf");

/// Runs `reversi bench`.
///
/// # Errors
/// Only on a failure to write to stdout.
pub fn run(args: &BenchArgs) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    if args.ladder {
        let run = super::ladder::LadderRun {
            levels: args.levels.unwrap_or((Level::MIN, Level::MAX)),
            games: args.games.unwrap_or(100).max(2),
            threads: args.threads as usize,
            seed: args.seed,
            greedy_up_to: args.greedy_up_to.unwrap_or(Level::MAX),
        };
        return super::ladder::run(&run, &mut out);
    }
    let mut engine = Engine::new(args.hash as usize);
    args.evaluation.apply(&mut engine)?;
    if args.fit_probcut || args.fit_endcut {
        return fit_models(args, &engine, &mut out);
    }
    if args.models_out.is_some() {
        return Err(UserError::input(
            "--models-out needs --fit-probcut or --fit-endcut",
        ));
    }
    engine.set_threads(args.threads as usize);
    if let Some(path) = &args.eval_error {
        return super::evalerror::run(path, args.positions, &mut engine, &mut out);
    }
    let positions = midgame_positions(args.midgame.as_deref())?;
    writeln!(out, "{}", kernels_line(engine.kernels()))?;
    let runs = |part| args.only.is_empty() || args.only.contains(&part);
    if runs(Part::Eval) {
        super::evalerror::speed(&engine, &mut out)?;
    }
    if runs(Part::Perft) {
        bench_perft(engine.kernels(), &mut out)?;
    }
    if runs(Part::Midgame) {
        bench_midgame(&mut engine, &positions, args, &mut out)?;
    }
    if runs(Part::Endgame) {
        bench_endgame(&mut engine, &mut out)?;
    }
    if args.six {
        bench_six(&mut engine, &mut out)?;
    }
    Ok(())
}

/// The kernel set the suite runs with, and those the CPU has
/// (`REVERSI_KERNELS` chooses among them).
fn kernels_line(running: KernelSet) -> String {
    let available: Vec<&str> = KernelSet::available().iter().map(|s| s.name()).collect();
    format!(
        "kernels {running} (this CPU has {}; {} chooses)",
        available.join(", "),
        KERNELS_VAR
    )
}

/// Perft to depth 10 from the 8×8 and 6×6 starts, with `kernels`.
fn bench_perft(kernels: KernelSet, out: &mut impl Write) -> Result<(), UserError> {
    for (size, depth) in [(BoardSize::Eight, 10), (BoardSize::Six, 10)] {
        let t = Instant::now();
        let leaves = perft_with(&Position::initial(size), depth, kernels);
        let s = t.elapsed().as_secs_f64();
        writeln!(
            out,
            "perft {size} depth {depth}: {leaves} leaves  {s:.3} s  {:.1} M leaves/s",
            leaves as f64 / s / 1e6
        )?;
    }
    Ok(())
}

/// A fixed-depth search of each midgame position from an empty table, then
/// the totals.
fn bench_midgame(
    engine: &mut Engine,
    positions: &[Position],
    args: &BenchArgs,
    out: &mut impl Write,
) -> Result<(), UserError> {
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    let (mut nodes, mut secs) = (0u64, 0f64);
    for (i, &p) in positions.iter().enumerate() {
        engine.clear();
        let r = engine.search(
            &p,
            &rules,
            &Limits {
                selectivity: args.selectivity,
                ..Limits::depth(args.depth)
            },
            &stop,
            0,
            &mut |_| {},
        );
        let s = r.elapsed.as_secs_f64();
        nodes += r.nodes;
        secs += s;
        writeln!(
            out,
            "midgame {} depth {}: {} {}  nodes {}  {s:.3} s  {:.2} Mn/s",
            i + 1,
            r.depth,
            r.best_move,
            r.score,
            r.nodes,
            r.nodes as f64 / s / 1e6
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "midgame total depth {} selectivity {}: nodes {nodes}  {secs:.3} s  {:.2} Mn/s  {:.3} s per position",
        args.depth,
        args.selectivity,
        nodes as f64 / secs / 1e6,
        secs / positions.len() as f64
    )?;
    Ok(())
}

/// The exact solve of each FFO position of [`ENDGAME`] from an empty table,
/// checked against the known score, then the totals.
fn bench_endgame(engine: &mut Engine, out: &mut impl Write) -> Result<(), UserError> {
    let stop = AtomicBool::new(false);
    let ffo = Rules {
        scoring: Scoring::EmptiesToWinner,
        ..Rules::standard(BoardSize::Eight)
    };
    let (mut nodes, mut secs) = (0u64, 0f64);
    for (i, line) in FFO_40_59.lines().enumerate() {
        if !ENDGAME.contains(&(40 + i)) {
            continue;
        }
        let obf = parse_obf(line).map_err(|e| UserError::input(e.to_string()))?;
        let expected = obf.scores.iter().map(|s| s.1).max();
        engine.clear();
        let r = engine.search(&obf.position, &ffo, &Limits::exact(), &stop, 0, &mut |_| {});
        let s = r.elapsed.as_secs_f64();
        nodes += r.nodes;
        secs += s;
        let ok = expected.is_some_and(|e| r.score == Score::Exact(e));
        writeln!(
            out,
            "endgame FFO #{} ({} empties): {} {} {}  nodes {}  {s:.3} s  {:.2} Mn/s",
            40 + i,
            obf.position.empties().count(),
            r.best_move,
            r.score,
            if ok { "ok" } else { "WRONG" },
            r.nodes,
            r.nodes as f64 / s / 1e6
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "endgame total: nodes {nodes}  {secs:.3} s  {:.2} Mn/s",
        nodes as f64 / secs / 1e6
    )?;
    Ok(())
}

/// The 6×6 game solved from the start.
fn bench_six(engine: &mut Engine, out: &mut impl Write) -> Result<(), UserError> {
    let stop = AtomicBool::new(false);
    let six = Rules::standard(BoardSize::Six);
    engine.clear();
    let p = Position::initial(BoardSize::Six);
    let r = engine.search(&p, &six, &Limits::exact(), &stop, 0, &mut |_| {});
    let s = r.elapsed.as_secs_f64();
    writeln!(
        out,
        "6x6 solved: {} for Black, first move {}  nodes {}  {s:.3} s  {:.2} Mn/s",
        r.score,
        r.best_move,
        r.nodes,
        r.nodes as f64 / s / 1e6
    )?;
    Ok(())
}

/// The midgame positions: the built-in transcripts, or those of `path` (a
/// game already over is an error naming its line).
fn midgame_positions(path: Option<&std::path::Path>) -> Result<Vec<Position>, UserError> {
    let start = Position::initial(BoardSize::Eight);
    let games = match path {
        None => MIDGAME
            .iter()
            .map(|t| parse_transcript(t, &start).map(|moves| (0, moves)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| UserError::input(e.to_string()))?,
        Some(path) => super::read_transcripts(path, BoardSize::Eight, "midgame positions")?,
    };
    let mut positions = Vec::with_capacity(games.len());
    for (line, moves) in games {
        let p = moves.iter().fold(start, |p, &m| p.play_unchecked(m));
        if p.is_game_over() {
            let at = path.map_or(String::new(), |p| format!("{}:{line}: ", p.display()));
            return Err(UserError::input(format!("{at}the game is over")));
        }
        positions.push(p);
    }
    Ok(positions)
}
