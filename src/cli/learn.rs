//! `reversi learn`: the guided first game in the full-screen UI.

use super::{LangArg, UserError};
use crate::ui::{self, Options};

/// Arguments of `reversi learn`.
#[derive(Debug, clap::Args)]
pub struct LearnArgs {
    /// Only ASCII characters (for terminals without good Unicode).
    #[arg(long)]
    pub ascii: bool,
    /// Do not capture the mouse (leaves text selection to the terminal).
    #[arg(long)]
    pub no_mouse: bool,
    /// The language of the game screen (see `reversi --help`).
    #[arg(long, value_enum, value_name = "LANG")]
    pub lang: Option<LangArg>,
}

/// Runs `reversi learn`: the lesson, then the new-game screen when it is left.
///
/// # Errors
/// No terminal (status 2) or a terminal failure.
pub fn run(args: &LearnArgs) -> Result<(), UserError> {
    super::play::require_terminal()?;
    let mut options = Options::interactive(super::screen_language(args.lang));
    options.look.ascii = args.ascii;
    options.mouse = !args.no_mouse;
    options.offer_resume = false;
    options.learn = true;
    ui::run(options).map_err(UserError::from)
}
