//! `reversi match`: games between two engines with statistics.

use super::{UserError, VariantArg};
use crate::arena::{self, GameResult, MatchConfig, MoveTimes, PlayerSpec, record_of, summarize};
use crate::notation::ggf::write_ggf;
use crate::rules::{BoardSize, Move};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `reversi match`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct MatchArgs {
    /// Player A, built in: `random` (a random legal move), `greedy` (the move
    /// flipping most discs), or `level:N`, `depth:N`, `nominal:N` (the NBoard
    /// depth N), `time:SECS`, combinable with commas and with `eval:KIND`,
    /// `open:N`, `late:N`, `exact:N`, `wld:N`, `prob:N`, `psel:N`,
    /// `cautious:N`, `sel:N`, `settle:N`, `doubt:N`, `temp:DISCS`,
    /// `book:DISCS` or `book:off` (the opening book; levels 10–12 play from it).
    #[arg(long, default_value = "level:3", conflicts_with = "a_cmd")]
    pub a: String,
    /// Player B, built in (as --a).
    #[arg(long, default_value = "level:1", conflicts_with = "b_cmd")]
    pub b: String,
    /// Player A is an external NBoard engine started with this command.
    #[arg(long)]
    pub a_cmd: Option<String>,
    /// Player B is an external NBoard engine started with this command.
    #[arg(long)]
    pub b_cmd: Option<String>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub games: u32,
    /// Random plies from the start that make an opening.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub plies: u32,
    /// Files of openings, one transcript per line (instead of random ones);
    /// several files are played as one list, in the order given.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    pub openings: Vec<PathBuf>,
    /// Seed for the openings and the engines' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once (one per core).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Seconds an external engine may take for one move (and to start).
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Board size.
    #[arg(long, value_enum, default_value_t)]
    pub variant: VariantArg,
    /// Anti Reversi and the scoring rule.
    #[command(flatten)]
    pub rules: super::start::RuleFlags,
    /// Hash table size per built-in engine, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// Write every game to this GGF file (replayable with `reversi replay`),
    /// each move with its time and the mover's own evaluation when its
    /// engine gave one (`B[f5/1.25/0.04]`).
    #[arg(long, alias = "pgn")]
    pub ggf: Option<PathBuf>,
}

fn spec(builtin: &str, cmd: Option<&String>, which: &str) -> Result<PlayerSpec, UserError> {
    match cmd {
        Some(c) => Ok(PlayerSpec::External { command: c.clone() }),
        None => PlayerSpec::parse_builtin(builtin)
            .map_err(|e| UserError::input(format!("--{which}: {e}"))),
    }
}

/// Phases of the game for the time report, by empty squares before the move.
const PHASES: [(&str, u32, u32); 3] =
    [("opening", 41, 64), ("midgame", 21, 40), ("endgame", 0, 20)];

/// "time per move for A: median …, mean …, max … (N moves)" and the mean in
/// each phase of the game.
fn write_times(out: &mut impl Write, name: &str, c: &MoveTimes) -> std::io::Result<()> {
    writeln!(
        out,
        "time per move for {name}: median {:.4} s, mean {:.4} s, max {:.4} s ({} moves)",
        c.median().as_secs_f64(),
        c.mean().as_secs_f64(),
        c.max().as_secs_f64(),
        c.moves()
    )?;
    let phases: Vec<String> = PHASES
        .iter()
        .map(|&(phase, lo, hi)| {
            let (mean, moves) = c.mean_in(lo..=hi);
            format!(
                "{phase} ({hi}–{lo} empties) {:.4} s × {moves}",
                mean.as_secs_f64()
            )
        })
        .collect();
    writeln!(out, "  mean by phase for {name}: {}", phases.join(", "))
}

/// Runs `reversi match`.
///
/// # Errors
/// Bad player specifications or openings (exit 2), or an output failure.
pub fn run(args: &MatchArgs) -> Result<(), UserError> {
    let config = match_config(args)?;
    if let Some(path) = &args.ggf {
        super::check_output_folder(path, "--ggf")?;
    }
    check_engines(args, config.timeout)?;
    let openings = openings(args, config.rules.size)?;
    let games = args.games as usize;
    let (a_name, b_name) = (config.a.name(), config.b.name());
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "match: A = {a_name}, B = {b_name}, {games} games, {}",
        config.rules
    )?;
    let results = arena::play_match(
        &config,
        &openings,
        games,
        args.threads as usize,
        |finished| -> Result<(), UserError> { write_progress(&mut out, finished, games) },
    )?;
    write_summary(&mut out, &results, &a_name, &b_name)?;
    if let Some(path) = &args.ggf {
        let text: String = results
            .iter()
            .map(|r| write_ggf(&record_of(r, &a_name, &b_name)) + "\n")
            .collect();
        crate::storage::atomic_write(path, text.as_bytes())
            .map_err(|e| UserError::file(path, e))?;
        writeln!(out, "games written to {}", path.display())?;
    }
    Ok(())
}

/// The match's players, rules and limits from the arguments.
fn match_config(args: &MatchArgs) -> Result<MatchConfig, UserError> {
    let size: BoardSize = args.variant.into();
    let rules = args.rules.rules(size);
    if !(0.01..=3600.0).contains(&args.timeout) {
        return Err(UserError::input("--timeout: expected 0.01 to 3600 seconds"));
    }
    Ok(MatchConfig {
        a: spec(&args.a, args.a_cmd.as_ref(), "a")?,
        b: spec(&args.b, args.b_cmd.as_ref(), "b")?,
        rules,
        timeout: Duration::from_secs_f64(args.timeout),
        hash_mb: args.hash as usize,
        seed: args.seed,
    })
}

/// Fails, naming the flag, unless each external engine starts and answers.
fn check_engines(args: &MatchArgs, timeout: Duration) -> Result<(), UserError> {
    for (which, cmd) in [("a", &args.a_cmd), ("b", &args.b_cmd)] {
        if let Some(cmd) = cmd {
            arena::check_engine(cmd, timeout).map_err(|e| {
                UserError::input(format!(
                    "--{which}-cmd: the engine \"{cmd}\" does not work: {e}"
                ))
            })?;
        }
    }
    Ok(())
}

/// The openings: those of the `--openings` files one after another, or
/// distinct random ones (one per pair of games).
fn openings(args: &MatchArgs, size: BoardSize) -> Result<Vec<Vec<Move>>, UserError> {
    let pairs = (args.games as usize).div_ceil(2);
    let openings: Vec<Vec<Move>> = if args.openings.is_empty() {
        arena::random_openings(size, args.plies as usize, pairs, args.seed)
    } else {
        let mut read = Vec::new();
        for path in &args.openings {
            let lines = super::read_transcripts(path, size, "openings")?;
            read.extend(lines.into_iter().map(|(_, moves)| moves));
        }
        read
    };
    if openings.is_empty() {
        return Err(UserError::input("no distinct openings could be drawn"));
    }
    Ok(openings)
}

/// One line for the game just finished, with the running score.
fn write_progress(
    out: &mut impl Write,
    finished: &[GameResult],
    games: usize,
) -> Result<(), UserError> {
    let Some(r) = finished.last() else {
        return Ok(());
    };
    let s = summarize(finished);
    let colours = if r.a_is_black { "A black" } else { "A white" };
    let what = match &r.forfeit {
        None => format!("{:+}", r.a_margin),
        Some((a_lost, why)) => {
            format!(
                "{:+} ({} forfeits: {why})",
                r.a_margin,
                if *a_lost { "A" } else { "B" }
            )
        }
    };
    writeln!(
        out,
        "game {:>4}/{games}  opening {:>3}  {colours}  A {what}  [+{} ={} -{}]",
        finished.len(),
        r.opening + 1,
        s.wins,
        s.draws,
        s.losses
    )?;
    out.flush()?;
    Ok(())
}

/// The result, the mean margin, the Elo difference and both players' times.
fn write_summary(
    out: &mut impl Write,
    results: &[GameResult],
    a_name: &str,
    b_name: &str,
) -> Result<(), UserError> {
    let s = summarize(results);
    writeln!(
        out,
        "result: A {a_name} vs B {b_name}: +{} ={} -{} ({} games)",
        s.wins,
        s.draws,
        s.losses,
        results.len()
    )?;
    writeln!(
        out,
        "mean disc margin for A: {:+.2} ± {:.2} (95%)",
        s.mean_margin, s.margin_ci
    )?;
    writeln!(out, "Elo difference A − B: {} (95%)", s.elo_text())?;
    for (name, c) in [("A", &s.times[0]), ("B", &s.times[1])] {
        write_times(out, name, c)?;
    }
    Ok(())
}
