//! `reversi bench`: a fixed suite for comparing builds (placeholder).

use super::UserError;

/// Arguments of `reversi bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {}

/// Runs `reversi bench`.
///
/// # Errors
/// Only on a failure to write to stdout.
pub fn run(_args: &BenchArgs) -> Result<(), UserError> {
    Ok(())
}
