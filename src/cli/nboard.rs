//! `reversi nboard`: the NBoard engine protocol on stdin/stdout.

use super::UserError;

/// Arguments of `reversi nboard`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct NboardArgs {
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
}

/// Runs the protocol until `quit` or the end of the input.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: &NboardArgs) -> Result<(), UserError> {
    let input = std::io::BufReader::new(std::io::stdin());
    crate::nboard::run(
        input,
        std::io::stdout(),
        Box::new(std::io::stderr()),
        args.hash as usize,
    )?;
    Ok(())
}
