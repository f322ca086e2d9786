//! `reversi perft DEPTH`: leaf counts per depth with time and leaves/s.

use super::{UserError, VariantArg};
use crate::rules::{Position, perft};
use std::io::Write;
use std::time::Instant;

/// Arguments of `reversi perft`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct PerftArgs {
    /// Deepest ply to count (1–20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Board size.
    #[arg(long, value_enum, default_value_t)]
    pub variant: VariantArg,
    /// Count only DEPTH, not every depth from 1.
    #[arg(long)]
    pub only: bool,
}

/// Runs `reversi perft`.
///
/// # Errors
/// Only on a failure to write to stdout.
pub fn run(args: &PerftArgs) -> Result<(), UserError> {
    let start = Position::initial(args.variant.into());
    let mut out = std::io::stdout().lock();
    let first = if args.only { args.depth } else { 1 };
    let mut total_leaves = 0u64;
    let mut total_secs = 0f64;
    for depth in first..=args.depth {
        let t = Instant::now();
        let leaves = perft(&start, depth);
        let secs = t.elapsed().as_secs_f64();
        total_leaves += leaves;
        total_secs += secs;
        writeln!(
            out,
            "depth {depth:2}  leaves {leaves:>14}  time {secs:9.3} s  {:>8.1} M leaves/s",
            leaves as f64 / secs.max(1e-9) / 1e6
        )?;
        out.flush()?;
    }
    writeln!(
        out,
        "total           leaves {total_leaves:>14}  time {total_secs:9.3} s  {:>8.1} M leaves/s",
        total_leaves as f64 / total_secs.max(1e-9) / 1e6
    )?;
    Ok(())
}
