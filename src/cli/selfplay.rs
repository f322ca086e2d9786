//! `reversi selfplay`: generate training games into a resumable file.

use super::UserError;
use super::resumable::{
    Resume, existing, open_resumable, parse_range, progress, resume, threads_or_cores,
};
use crate::learn::selfplay::{self, GameRecord, SelfPlayConfig};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi selfplay`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct SelfPlayArgs {
    /// The games file; an existing file with the same settings is resumed.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Total number of games the file should hold.
    #[arg(long, default_value_t = 1000, value_parser = clap::builder::RangedI64ValueParser::<u64>::new().range(1..=100_000_000))]
    pub games: u64,
    /// Midgame search depth.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Solve exactly from this many empties (the labels of those positions are exact).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub exact: u32,
    /// Random opening plies, as MIN..MAX.
    #[arg(long, default_value = "8..20", value_parser = parse_range)]
    pub random: (u32, u32),
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once and their hash tables.
    #[command(flatten)]
    pub workers: super::Workers,
    /// Write a labels file for `reversi train` instead of games: every
    /// position searched, labelled by the search's score (the mean of its
    /// last two depths; exact from `--exact` empties).
    #[arg(long)]
    pub labels: bool,
    /// With `--labels`: ProbCut selectivity of the midgame search, 0 none,
    /// 1 (2.6 σ) … 4 (1.1 σ, as the nominal depths).
    #[arg(long, default_value_t = 0, requires = "labels", value_parser = clap::value_parser!(u8).range(0..=4))]
    pub selectivity: u8,
    /// With `--labels`: start game `i` with the first moves of game `i mod n`
    /// of these collections (`.wtb`, `.ggf`, `.gam`, transcripts; as many
    /// moves as `--random` draws) instead of random moves.
    #[arg(long, requires = "labels", value_name = "GAMES")]
    pub from: Vec<PathBuf>,
    /// With `--labels`: the chance, in thousandths, that a move after the
    /// random opening is a random legal move instead of the engine's.
    #[arg(long, default_value_t = 0, requires = "labels", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub explore: u32,
    /// With `--labels`: the evaluation that plays and labels the games.
    #[command(flatten)]
    pub eval: super::EvalArgs,
}

/// Runs `reversi selfplay`.
pub fn run(args: &SelfPlayArgs) -> Result<(), UserError> {
    if args.labels {
        return run_labels(args);
    }
    if args.eval.weights.is_some() || args.eval.eval != super::EvalKind::Learned {
        return Err(UserError::input(
            "--weights and --eval apply with --labels only (games are played with the shipped weights)",
        ));
    }
    let config = SelfPlayConfig {
        depth: args.depth,
        exact: args.exact,
        random_min: args.random.0,
        random_max: args.random.1,
        seed: args.seed,
    };
    let header = config.header();
    let mut done = 0u64;
    let keep = existing(&args.out, &header, |_, line| {
        done += 1;
        GameRecord::parse_line(line).is_some()
    })?;
    let file = open_resumable(&args.out, &header, keep)?;
    if done >= args.games {
        eprintln!("{}: already holds {done} games", args.out.display());
        return Ok(());
    }
    let threads = threads_or_cores(args.workers.threads);
    let mut out = std::io::BufWriter::new(file);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let total = args.games as usize;
    let mut error = None;
    selfplay::run(
        &config,
        done as usize,
        total,
        threads,
        args.workers.hash as usize,
        &stop,
        |i, game| {
            let r = writeln!(out, "{}", game.to_line()).and_then(|()| out.flush());
            if let Err(e) = r {
                error.get_or_insert(e);
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            progress(i + 1 - done as usize, i + 1, total, start);
        },
    );
    eprintln!();
    match error {
        Some(e) => Err(UserError::file(&args.out, e)),
        None => Ok(()),
    }
}

/// Runs `reversi selfplay --labels`: games of self-play written as the
/// labels of their searched positions ([`crate::learn::playlabels`]).
fn run_labels(args: &SelfPlayArgs) -> Result<(), UserError> {
    use crate::learn::playlabels::{PlayLabelConfig, play_labelled};
    let config = PlayLabelConfig {
        depth: args.depth,
        exact: args.exact,
        selectivity: args.selectivity,
        random_min: args.random.0,
        random_max: args.random.1,
        explore: args.explore,
        seed: args.seed,
    };
    let openings: Option<Vec<Vec<crate::rules::Move>>> = if args.from.is_empty() {
        None
    } else {
        let games = super::train::read_games(&args.from, usize::MAX, None)?;
        Some(games.into_iter().map(|g| g.moves).collect())
    };
    let mut header = config.header();
    if let Some(o) = &openings {
        header.push_str(&format!(" from={}", o.len()));
    }
    // The last game in the file is played again (a kill may have cut it).
    let Resume { first, keep, last } = resume(&args.out, &header)?;
    let total = args.games as usize;
    if last.is_some() && first >= total {
        eprintln!("{}: already holds {total} games", args.out.display());
        return Ok(());
    }
    let file = open_resumable(&args.out, &header, keep)?;
    let mut out = std::io::BufWriter::new(file);
    let mut template = crate::ai::Engine::new(1);
    args.eval.apply(&mut template)?;
    let weights = template.weights();
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let result = crate::parallel::run_in_order(
        first..total,
        threads_or_cores(args.workers.threads),
        &stop,
        || {
            let mut e = crate::ai::Engine::new(args.workers.hash as usize);
            e.set_weights(weights.clone());
            e
        },
        |engine, i| play_labelled(engine, &config, openings.as_deref(), i as u64),
        |i, labelled| {
            let mut text = String::new();
            for l in &labelled {
                text.push_str(&l.to_line());
                text.push('\n');
            }
            out.write_all(text.as_bytes()).and_then(|()| out.flush())?;
            progress(i + 1 - first, i + 1, total, start);
            Ok::<_, std::io::Error>(())
        },
    );
    eprintln!();
    result.map_err(|e| UserError::file(&args.out, e))
}
