//! `reversi openings`: random openings that a judge search finds nearly
//! even, written as transcripts for `reversi match --openings` (see
//! [`crate::arena::balanced_openings`]).

use super::UserError;
use super::resumable::threads_or_cores;
use crate::arena::{BalanceConfig, PlayerSpec, balanced_openings};
use crate::notation::write_transcript;
use crate::rules::BoardSize;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Arguments of `reversi openings`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct OpeningsArgs {
    /// Where to write the openings, one transcript per line (atomically).
    #[arg(long, short)]
    pub out: PathBuf,
    /// How many openings to keep.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub count: u32,
    /// Random plies from the start.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub plies: u32,
    /// Keep the openings the judge values within this many discs of even.
    #[arg(long, default_value_t = 2.0)]
    pub within: f64,
    /// The judge, a built-in player as in `reversi match` (its search, and
    /// `weights:PATH` or `eval:hand` for its evaluation).
    #[arg(long, default_value = "depth:16,exact:18,wld:22,sel:4")]
    pub judge: String,
    /// Seed of the candidates.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Candidates judged at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Hash table per thread, MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
}

/// Runs `reversi openings`.
///
/// # Errors
/// A judge that is not a built-in search, a bound that is not a number of
/// discs (status 2), or a file that cannot be written.
pub fn run(args: &OpeningsArgs) -> Result<(), UserError> {
    if !(0.0..=64.0).contains(&args.within) {
        return Err(UserError::input(format!(
            "--within {}: need a number of discs from 0 to 64",
            args.within
        )));
    }
    let (limits, eval) = match PlayerSpec::parse_builtin(&args.judge) {
        Ok(PlayerSpec::Builtin { limits, eval, .. }) => (limits, eval),
        Ok(_) => {
            return Err(UserError::input(format!(
                "--judge {}: the judge must be a search (depth:N, level:N, time:S …)",
                args.judge
            )));
        }
        Err(e) => return Err(UserError::input(format!("--judge: {e}"))),
    };
    super::check_output_folder(&args.out, "--out")?;
    let config = BalanceConfig {
        size: BoardSize::Eight,
        plies: args.plies as usize,
        within: args.within,
        limits,
        eval,
        seed: args.seed,
        hash_mb: args.hash as usize,
    };
    let stop = AtomicBool::new(false);
    let (mut judged, mut kept) = (0usize, 0usize);
    let mut err = std::io::stderr();
    let openings = balanced_openings(
        &config,
        args.count as usize,
        threads_or_cores(args.threads),
        &stop,
        |j| {
            judged += 1;
            kept += usize::from(j.kept);
            if judged.is_multiple_of(50) {
                let _ = writeln!(err, "{judged} judged, {kept} kept");
            }
        },
    );
    let mut text = format!(
        "# reversi openings: {} random plies, judged by {} within ±{} discs, seed {}; {} kept of {} judged\n",
        args.plies,
        args.judge,
        args.within,
        args.seed,
        openings.len(),
        judged
    );
    for moves in &openings {
        text.push_str(&write_transcript(moves));
        text.push('\n');
    }
    crate::storage::atomic_write(&args.out, text.as_bytes())
        .map_err(|e| UserError::file(&args.out, e))?;
    println!(
        "{} openings written to {} ({} judged)",
        openings.len(),
        args.out.display(),
        judged
    );
    if openings.len() < args.count as usize {
        return Err(UserError::input(format!(
            "only {} of the {} openings asked for were found: widen --within or change --seed",
            openings.len(),
            args.count
        )));
    }
    Ok(())
}
