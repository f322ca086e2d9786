//! `reversi train`: fit the pattern evaluation to self-play games.

use super::UserError;
use crate::learn::dataset::{Sample, samples_of, validation_games};
use crate::learn::fit::{FitConfig, PhaseReport, fit};
use crate::learn::selfplay::{self, GameRecord};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `reversi train`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct TrainArgs {
    /// Games files written by `reversi selfplay`.
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// Where to write the weights (atomically).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Use at most this many games (the first ones of the files).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Game phases (weight sets).
    #[arg(long, default_value_t = FitConfig::default().phases as u32, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub phases: u32,
    /// Full-batch passes over the data.
    #[arg(long, default_value_t = FitConfig::default().epochs as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Adam step size, in discs.
    #[arg(long, default_value_t = FitConfig::default().rate)]
    pub rate: f32,
    /// L2 regularisation as pseudo-observations per weight.
    #[arg(long, default_value_t = FitConfig::default().l2)]
    pub l2: f32,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    /// Seed of the validation split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
}

/// Reads the games of `paths`, at most `max` in all.
fn read_games(paths: &[PathBuf], max: usize) -> Result<Vec<GameRecord>, UserError> {
    let mut games = Vec::new();
    for path in paths {
        let more = selfplay::read_games(path, max - games.len())
            .map_err(|e| super::games_file_error(path, &e))?;
        games.extend(more);
    }
    Ok(games)
}

/// Runs `reversi train`.
pub fn run(args: &TrainArgs) -> Result<(), UserError> {
    if !(0.0..1.0).contains(&args.validation) {
        return Err(UserError::input("--validation must be in [0, 1)"));
    }
    let start = Instant::now();
    let games = read_games(&args.games, args.max_games.unwrap_or(usize::MAX))?;
    if games.is_empty() {
        return Err(UserError::input("no games to train on"));
    }
    let held = validation_games(games.len(), args.validation, args.seed);
    let mut train: Vec<Sample> = Vec::new();
    let mut validation: Vec<Sample> = Vec::new();
    for (g, &v) in games.iter().zip(&held) {
        let s = samples_of(g);
        if v {
            validation.extend(s);
        } else {
            train.extend(s);
        }
    }
    eprintln!(
        "{} games ({} held out): {} training and {} validation positions, read in {:.1} s",
        games.len(),
        held.iter().filter(|&&v| v).count(),
        train.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    let config = FitConfig {
        phases: args.phases as usize,
        epochs: args.epochs as usize,
        rate: args.rate,
        l2: args.l2,
        threads: args.threads.map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |t| t as usize,
        ),
    };
    let t = Instant::now();
    let (weights, reports) = fit(&train, &validation, &config, &|r: &PhaseReport| {
        eprintln!("  phase {:2} fitted", r.phase);
    });
    println!("phase  empties  train-pos  valid-pos  train-MAE  valid-MAE  zero-MAE");
    for r in &reports {
        println!(
            "{:5}  {:2}..{:2}  {:9}  {:9}  {:9.2}  {:9.2}  {:8.2}",
            r.phase,
            r.empties.0,
            r.empties.1,
            r.train,
            r.validation,
            r.train_mae,
            r.validation_mae,
            r.baseline_mae
        );
    }
    let bytes = weights.to_bytes();
    crate::storage::atomic_write(&args.out, &bytes)
        .map_err(|e| UserError::from(anyhow::anyhow!("{}: {e}", args.out.display())))?;
    println!(
        "fitted in {:.1} s; wrote {} ({} bytes)",
        t.elapsed().as_secs_f64(),
        args.out.display(),
        bytes.len()
    );
    Ok(())
}
