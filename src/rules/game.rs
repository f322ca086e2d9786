//! `Game`: the one place where a game's history lives — the rules, the start
//! position, every move played (passes recorded explicitly) and a cursor.
//!
//! Undo and redo move the cursor; a new move after an undo drops the redo tail
//! (unless it is the very move that was undone, which keeps the tail). Replay is
//! the same cursor jumping to any ply.

use super::bitboard::Bitboard;
use super::position::{IllegalMove, Move, Position, Status};
use super::square::Color;
use super::variant::{Outcome, Rules};

/// Why a game cannot be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The start position is for another board size than the rules.
    #[error("the start position is {found}, the rules are for {expected}")]
    SizeMismatch {
        /// The rules' board size.
        expected: super::square::BoardSize,
        /// The position's board size.
        found: super::square::BoardSize,
    },
    /// A move in a list of moves was illegal.
    #[error("move {index}: {error}")]
    Illegal {
        /// 1-based number of the move in the list.
        index: usize,
        /// Why it is illegal.
        error: IllegalMove,
    },
}

/// A game: rules, start position, moves and a cursor over them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: Rules,
    /// `positions[i]` is the position after `i` moves; `positions.len() == moves.len() + 1`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    cursor: usize,
}

impl Game {
    /// A new game from the initial position of the rules' board size.
    #[must_use]
    pub fn new(rules: Rules) -> Game {
        Game {
            rules,
            positions: vec![Position::initial(rules.size)],
            moves: Vec::new(),
            cursor: 0,
        }
    }

    /// A new game starting from `start`.
    ///
    /// # Errors
    /// [`GameError::SizeMismatch`] if `start` is for another board size.
    pub fn from_position(rules: Rules, start: Position) -> Result<Game, GameError> {
        if start.size() != rules.size {
            return Err(GameError::SizeMismatch {
                expected: rules.size,
                found: start.size(),
            });
        }
        Ok(Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            cursor: 0,
        })
    }

    /// A game from `start` with `moves` played in order, cursor at the end.
    ///
    /// # Errors
    /// [`GameError`] if the sizes differ or a move is illegal.
    pub fn with_moves(rules: Rules, start: Position, moves: &[Move]) -> Result<Game, GameError> {
        let mut game = Game::from_position(rules, start)?;
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv).map_err(|error| GameError::Illegal {
                index: i + 1,
                error,
            })?;
        }
        Ok(game)
    }

    /// The rules of this game.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> Position {
        self.positions[0]
    }

    /// The current position (at the cursor).
    #[must_use]
    pub fn position(&self) -> Position {
        self.positions[self.cursor]
    }

    /// The position after `ply` moves, if that many are recorded.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<Position> {
        self.positions.get(ply).copied()
    }

    /// Every recorded move, including those after the cursor (the redo tail).
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves up to the cursor.
    #[must_use]
    pub fn played(&self) -> &[Move] {
        &self.moves[..self.cursor]
    }

    /// The cursor: how many moves lead to the current position.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// Number of recorded moves, redo tail included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The colour to move now.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.position().side_to_move()
    }

    /// The status of the current position.
    #[must_use]
    pub fn status(&self) -> Status {
        self.position().status()
    }

    /// The result, when the current position is final.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.rules.outcome(&self.position())
    }

    /// The move that led to the current position.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.cursor.checked_sub(1).map(|i| self.moves[i])
    }

    /// The discs flipped by the move that led to the current position.
    #[must_use]
    pub fn last_flips(&self) -> Bitboard {
        match (self.cursor.checked_sub(1), self.last_move()) {
            (Some(i), Some(Move::Place(sq))) => self.positions[i].flips(sq),
            _ => Bitboard::EMPTY,
        }
    }

    /// Plays `mv` at the cursor. If it differs from the next recorded move, the
    /// redo tail is dropped.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not legal; the game is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let next = self.position().play(mv)?;
        if self.moves.get(self.cursor) != Some(&mv) {
            self.moves.truncate(self.cursor);
            self.positions.truncate(self.cursor + 1);
            self.moves.push(mv);
            self.positions.push(next);
        }
        self.cursor += 1;
        Ok(())
    }

    /// Plays the pass if the side to move has to pass; returns whether it did.
    pub fn pass_if_forced(&mut self) -> bool {
        matches!(self.status(), Status::MustPass(_)) && self.play(Move::Pass).is_ok()
    }

    /// Steps back one move; returns whether there was one.
    pub fn undo(&mut self) -> bool {
        let ok = self.cursor > 0;
        self.cursor -= usize::from(ok);
        ok
    }

    /// Steps forward one recorded move; returns whether there was one.
    pub fn redo(&mut self) -> bool {
        let ok = self.cursor < self.moves.len();
        self.cursor += usize::from(ok);
        ok
    }

    /// Whether [`Game::undo`] would do something.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    /// Whether [`Game::redo`] would do something.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        self.cursor < self.moves.len()
    }

    /// Moves the cursor to `ply` (clamped to the recorded moves); returns the ply reached.
    pub fn jump(&mut self, ply: usize) -> usize {
        self.cursor = ply.min(self.moves.len());
        self.cursor
    }

    /// Drops the moves after the cursor.
    pub fn truncate(&mut self) {
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
    }

    /// The number of recorded moves a take-back by `side` leaves: the game as
    /// it was before `side` last placed a disc, the moves after it (the
    /// opponent's, passes) going with it. `None` when `side` has placed no
    /// disc. The salon's rule for a take-back one player asks of the other.
    ///
    /// ```
    /// use reversi::rules::{Color, Game, Move, Rules, Square};
    /// let mut g = Game::new(Rules::default());
    /// assert_eq!(g.take_back_to(Color::Black), None);
    /// for (column, row) in [(5, 4), (3, 5), (2, 2)] {
    ///     g.play(Move::Place(Square::at(column, row))).unwrap(); // f5 d6 c3
    /// }
    /// assert_eq!(g.take_back_to(Color::Black), Some(2));
    /// assert_eq!(g.take_back_to(Color::White), Some(1));
    /// ```
    #[must_use]
    pub fn take_back_to(&self, side: Color) -> Option<usize> {
        (0..self.moves.len()).rev().find(|&i| {
            matches!(self.moves[i], Move::Place(_)) && self.positions[i].side_to_move() == side
        })
    }
}
