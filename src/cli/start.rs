//! The start of a game from the flags `--position`, `--variant` and the moves
//! (`--moves`, or `show`'s positional moves): one builder for every command
//! that takes them (`show`, `analyze`, `play`, `replay`), so that they accept
//! the same input and fail with the same messages.

use super::{UserError, VariantArg};
use crate::notation::{parse_board, parse_transcript};
use crate::rules::{BoardSize, Game, Position, Rules, Scoring};

/// The rule flags of every command that sets up a game from the command line
/// (`play`, `show`, `analyze`, `match`, `replay --moves`, `review --moves`,
/// `online --create`): one spelling for each rule.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct RuleFlags {
    /// Anti Reversi: the side with fewer discs wins.
    #[arg(long)]
    pub anti: bool,
    /// Empty squares at the end go to the winner (the default on 6×6).
    #[arg(long, conflicts_with = "empties_to_nobody")]
    pub empties_to_winner: bool,
    /// Empty squares at the end count for nobody (the default on 8×8).
    #[arg(long)]
    pub empties_to_nobody: bool,
}

impl RuleFlags {
    /// The rules on a board of `size`: its usual scoring unless a flag says
    /// otherwise.
    #[must_use]
    pub fn rules(&self, size: BoardSize) -> Rules {
        let mut rules = Rules::standard(size);
        rules.anti = self.anti;
        if let Some(scoring) = self.scoring() {
            rules.scoring = scoring;
        }
        rules
    }

    /// The scoring rule a flag asks for, if any.
    #[must_use]
    pub fn scoring(&self) -> Option<Scoring> {
        if self.empties_to_winner {
            Some(Scoring::EmptiesToWinner)
        } else if self.empties_to_nobody {
            Some(Scoring::EmptiesToNobody)
        } else {
            None
        }
    }

    /// Whether any rule flag is given.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.anti || self.scoring().is_some()
    }
}

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
