//! `reversi relabel`: label positions drawn from games by search, into a
//! resumable file that `reversi train` reads (see [`crate::learn::relabel`]).

use super::UserError;
use super::resumable::{Resume, open_resumable, progress, resume, threads_or_cores};
use crate::ai::Engine;
use crate::learn::relabel::{RelabelConfig, relabel_game};
use crate::parallel::run_in_order;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Arguments of `reversi relabel`.
#[derive(Debug, clap::Args)]
pub struct RelabelArgs {
    /// Games files, as `reversi train` reads them: self-play files or
    /// collections (`.wtb`, `.ggf`, `.gam`, transcripts).
    #[arg(required = true)]
    pub games: Vec<PathBuf>,
    /// The labels file; an existing file with the same settings is resumed.
    #[arg(long, short)]
    pub out: PathBuf,
    /// Use at most this many games (the first ones of the files).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Midgame search depth of a label.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Solve exactly from this many empties (those labels are exact scores).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub exact: u32,
    /// Positions drawn from each game.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub per_game: u32,
    /// Empties of the drawn positions, as MIN..MAX.
    #[arg(long, default_value = "0..54", value_parser = super::resumable::parse_range)]
    pub empties: (u32, u32),
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// ProbCut selectivity of the midgame search: 0 none, 1 (2.6 σ) … 4
    /// (1.1 σ, as the nominal depths); a selective search reaches a depth
    /// in a fraction of the time. Exact solves are never selective.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub selectivity: u8,
    /// Carry each drawn position 0 to this many random moves further before
    /// labelling it, so that the labels also cover the off-line positions a
    /// search meets (0: none).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub random_plies: u32,
    /// Label a midgame position with the mean of the search's last two
    /// depths (`depth − 1` and `depth`: one odd, one even, whose scores lean
    /// in opposite directions) instead of the last depth's score, as
    /// self-play labels are. Exact solves are labels either way.
    #[arg(long)]
    pub mean_of_two: bool,
    /// Games labelled at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 16, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// The evaluation the labelling search uses.
    #[command(flatten)]
    pub eval: super::EvalArgs,
}

/// Runs `reversi relabel`.
pub fn run(args: &RelabelArgs) -> Result<(), UserError> {
    let config = RelabelConfig {
        depth: args.depth,
        exact: args.exact,
        per_game: args.per_game,
        min_empties: args.empties.0,
        max_empties: args.empties.1,
        seed: args.seed,
        selectivity: args.selectivity,
        random_plies: args.random_plies,
        mean_of_two: args.mean_of_two,
    };
    let mut template = Engine::new(1);
    args.eval.apply(&mut template)?;
    let weights = template.weights();
    let games = super::train::read_games(&args.games, args.max_games.unwrap_or(usize::MAX), None)?;
    let header = config.header();
    let Resume { first, keep, last } = resume(&args.out, &header)?;
    if let Some(g) = last
        && g >= games.len()
    {
        return Err(UserError::input(format!(
            "{}: labels game {g}, but the input has only {} games",
            args.out.display(),
            games.len()
        )));
    }
    let file = open_resumable(&args.out, &header, keep)?;
    let mut out = std::io::BufWriter::new(file);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let total = games.len();
    let mut written = 0usize;
    let result = run_in_order(
        first..total,
        threads_or_cores(args.threads),
        &stop,
        || {
            let mut e = Engine::new(args.hash as usize);
            e.set_weights(weights.clone());
            e
        },
        |engine, i| relabel_game(engine, &games[i], i, &config),
        |i, labelled| {
            let mut text = String::new();
            for l in &labelled {
                text.push_str(&l.to_line());
                text.push('\n');
            }
            written += labelled.len();
            out.write_all(text.as_bytes()).and_then(|()| out.flush())?;
            progress(i + 1 - first, i + 1, total, start);
            Ok(())
        },
    );
    eprintln!();
    result.map_err(|e: std::io::Error| UserError::file(&args.out, e))?;
    eprintln!(
        "{}: {written} positions of games {first}..{total} labelled in {:.1} s",
        args.out.display(),
        start.elapsed().as_secs_f64(),
    );
    Ok(())
}
