//! `reversi nboard`: the NBoard engine protocol on stdin/stdout.

use super::UserError;

/// Arguments of `reversi nboard`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct NboardArgs {
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_name = "MB", value_parser = super::parse_hash)]
    pub hash: u32,
    /// The opening book (on unless the GUI sends `set book off`).
    #[command(flatten)]
    pub book: super::BookFlags,
    /// The evaluation the engine uses.
    #[command(flatten)]
    pub eval: super::EvalArgs,
}

/// Runs the protocol until `quit` or the end of the input.
///
/// # Errors
/// When stdout cannot be written.
pub fn run(args: &NboardArgs) -> Result<(), UserError> {
    let mut template = crate::ai::Engine::new(1);
    args.eval.apply(&mut template)?;
    let weights = template.weights();
    let book = args.book.load()?;
    let hash = args.hash as usize;
    let input = std::io::BufReader::new(std::io::stdin());
    crate::nboard::run(
        input,
        std::io::stdout(),
        Box::new(std::io::stderr()),
        move || {
            let mut e = crate::ai::Engine::new(hash);
            e.set_weights(weights.clone());
            e.set_book(book.clone());
            e
        },
    )?;
    Ok(())
}
