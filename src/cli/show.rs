//! `reversi show`: a position as plain text or JSON.
use super::UserError;
/// Arguments of `reversi show`.
#[derive(Debug, Default, clap::Args)]
pub struct ShowArgs {}
/// Runs `reversi show`.
///
/// # Errors
/// On bad input.
pub fn run(_args: &ShowArgs) -> Result<(), UserError> {
    Ok(())
}
