//! The start of a game from the flags `--position`, `--variant` and the moves
//! (`--moves`, or `show`'s positional moves): one builder for every command
//! that takes them (`show`, `analyze`, `play`, `replay`), so that they accept
//! the same input and fail with the same messages.

use super::{UserError, VariantArg};
use crate::notation::{parse_board, parse_transcript};
use crate::rules::{BoardSize, Game, Position, Rules};

/// The start-position flags of one command.
#[derive(Clone, Copy, Debug, Default)]
pub struct Start<'a> {
    /// `--position`: a board string.
    pub position: Option<&'a str>,
    /// `--variant`: the board size (must agree with `position`).
    pub variant: Option<VariantArg>,
    /// The moves played from the start position.
    pub moves: Option<&'a str>,
    /// The flag that carries the moves, named in errors (`None`: positional).
    pub moves_flag: Option<&'static str>,
}

impl Start<'_> {
    /// The position before the moves.
    ///
    /// # Errors
    /// [`UserError`] (status 2) for a bad board string or a `--variant` that
    /// disagrees with it.
    pub fn position(&self) -> Result<Position, UserError> {
        let Some(text) = self.position else {
            return Ok(Position::initial(self.variant.unwrap_or_default().into()));
        };
        let p = parse_board(text)
            .map_err(|e| UserError::input(format!("--position: {e} (at column {})", e.column)))?;
        if let Some(v) = self.variant {
            let wanted = BoardSize::from(v);
            if wanted != p.size() {
                return Err(UserError::input(format!(
                    "--position is for {}, but --variant is {wanted}",
                    p.size()
                )));
            }
        }
        Ok(p)
    }

    /// The game: the start position, `rules` for its board size, the moves.
    ///
    /// # Errors
    /// As [`Start::position`], or a bad or illegal move.
    pub fn game(&self, rules: impl FnOnce(BoardSize) -> Rules) -> Result<Game, UserError> {
        let start = self.position()?;
        let rules = rules(start.size());
        let named = |e: &dyn std::fmt::Display| match self.moves_flag {
            Some(flag) => UserError::input(format!("{flag}: {e}")),
            None => UserError::input(e),
        };
        let moves = match self.moves {
            Some(text) => parse_transcript(text, &start).map_err(|e| named(&e))?,
            None => Vec::new(),
        };
        Game::with_moves(rules, start, &moves).map_err(|e| named(&e))
    }
}
