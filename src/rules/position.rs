//! `Position`: one board state with the side to move, and `Move`.
//!
//! Inside, the discs are stored relative to the side to move (`player`,
//! `opponent`), so a pass is a swap and negamax search is natural; the public API
//! speaks absolute colours. A `Position` keeps no history (see [`super::Game`]).

use super::bitboard::Bitboard;
use super::movegen;
use super::square::{BoardSize, Color, Square};
use std::fmt;

/// A move: place a disc on a square, or pass (only when no placement is legal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc of the side to move on this square.
    Place(Square),
    /// Pass: allowed, and forced, only when the side to move has no legal placement.
    Pass,
}

impl fmt::Display for Move {
    /// `d3` for a placement, `pass` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

/// Why a move cannot be played in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The square is outside the board (only possible on 6×6).
    #[error("{0} is not on the {1} board")]
    OffBoard(Square, BoardSize),
    /// The square already holds a disc.
    #[error("{0} is not legal: the square is occupied")]
    Occupied(Square),
    /// The square encloses no line of opponent discs.
    #[error("{0} is not legal: it encloses no line")]
    EnclosesNothing(Square),
    /// A pass while a placement is available.
    #[error("{0} cannot pass: a legal move exists")]
    PassNotAllowed(Color),
    /// Neither side can move any more.
    #[error("the game is over")]
    GameOver,
}

/// Why a set of discs does not make a valid position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The same square holds a black and a white disc.
    #[error("{0} holds both a black and a white disc")]
    Overlap(Square),
    /// A disc lies outside the board.
    #[error("{0} is outside the {1} board")]
    OffBoard(Square, BoardSize),
}

/// Where a position stands: the side to move can play, must pass, or the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has at least one legal placement.
    ToMove(Color),
    /// The side to move has no placement but the opponent has: it passes.
    MustPass(Color),
    /// Neither side can move.
    GameOver,
}

/// A board state with the side to move. `Copy`, 24 bytes, no history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    player: u64,
    opponent: u64,
    side: Color,
    size: BoardSize,
}

impl Position {
    /// The starting position: d4, e5 white and d5, e4 black on 8×8 (c3, d4 white
    /// and d3, c4 black on 6×6), Black to move.
    ///
    /// ```
    /// use reversi::rules::{BoardSize, Color, Position};
    /// let p = Position::initial(BoardSize::Eight);
    /// assert_eq!(p.side_to_move(), Color::Black);
    /// assert_eq!(p.legal_moves().count(), 4);
    /// ```
    #[must_use]
    pub const fn initial(size: BoardSize) -> Position {
        let (black, white) = match size {
            BoardSize::Eight => ((1 << 35) | (1 << 28), (1 << 27) | (1 << 36)),
            BoardSize::Six => ((1 << 19) | (1 << 26), (1 << 18) | (1 << 27)),
        };
        Position {
            player: black,
            opponent: white,
            side: Color::Black,
            size,
        }
    }

    /// A position from the squares of each colour and the side to move.
    ///
    /// # Errors
    /// [`PositionError`] if a square is in both sets or outside the board.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        to_move: Color,
        size: BoardSize,
    ) -> Result<Position, PositionError> {
        if let Some(sq) = Square::from_lowest_bit(black.0 & white.0) {
            return Err(PositionError::Overlap(sq));
        }
        if let Some(sq) = Square::from_lowest_bit((black.0 | white.0) & !size.mask()) {
            return Err(PositionError::OffBoard(sq, size));
        }
        let (player, opponent) = match to_move {
            Color::Black => (black.0, white.0),
            Color::White => (white.0, black.0),
        };
        Ok(Position {
            player,
            opponent,
            side: to_move,
            size,
        })
    }

    /// A position from side-relative bitboards, for search code.
    ///
    /// # Panics
    /// In debug builds, if the sets overlap or leave the board.
    #[must_use]
    pub fn from_side_relative(
        player: u64,
        opponent: u64,
        side: Color,
        size: BoardSize,
    ) -> Position {
        debug_assert_eq!(player & opponent, 0);
        debug_assert_eq!((player | opponent) & !size.mask(), 0);
        Position {
            player,
            opponent,
            side,
            size,
        }
    }

    /// The discs of the side to move, as a raw bitboard.
    #[must_use]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the side not to move, as a raw bitboard.
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// The colour to move.
    #[must_use]
    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    /// The board size.
    #[must_use]
    pub const fn size(&self) -> BoardSize {
        self.size
    }

    /// The disc on `square`, if any.
    #[must_use]
    pub fn disc_at(&self, square: Square) -> Option<Color> {
        if self.player & square.bit() != 0 {
            Some(self.side)
        } else if self.opponent & square.bit() != 0 {
            Some(self.side.opponent())
        } else {
            None
        }
    }

    /// The squares holding discs of `color`.
    #[must_use]
    pub fn discs(&self, color: Color) -> Bitboard {
        Bitboard(if color == self.side {
            self.player
        } else {
            self.opponent
        })
    }

    /// Number of discs of `color`.
    #[must_use]
    pub fn count(&self, color: Color) -> u32 {
        self.discs(color).count()
    }

    /// The empty squares of the board.
    #[must_use]
    pub fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent) & self.size.mask())
    }

    /// The squares where the side to move may place a disc.
    #[inline]
    #[must_use]
    pub fn legal_moves(&self) -> Bitboard {
        Bitboard(movegen::moves(self.player, self.opponent) & self.size.mask())
    }

    /// Whether the side to move has at least one legal placement.
    #[inline]
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// The discs that placing on `square` would flip; empty if it is not legal.
    ///
    /// ```
    /// use reversi::rules::{BoardSize, Position, Square};
    /// let p = Position::initial(BoardSize::Eight);
    /// let d3 = Square::at(3, 2);
    /// let d4 = Square::at(3, 3);
    /// assert_eq!(p.flips(d3).iter().collect::<Vec<_>>(), vec![d4]);
    /// ```
    #[must_use]
    pub fn flips(&self, square: Square) -> Bitboard {
        if (self.player | self.opponent | !self.size.mask()) & square.bit() != 0 {
            return Bitboard::EMPTY;
        }
        Bitboard(movegen::flips(square.index(), self.player, self.opponent))
    }

    /// Whether neither side can move.
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_move()
            && (movegen::moves(self.opponent, self.player) & self.size.mask()) == 0
    }

    /// Whether the side to move can play, must pass, or the game is over.
    #[must_use]
    pub fn status(&self) -> Status {
        if self.has_legal_move() {
            Status::ToMove(self.side)
        } else if self.is_game_over() {
            Status::GameOver
        } else {
            Status::MustPass(self.side)
        }
    }

    /// Checks a move without playing it.
    ///
    /// # Errors
    /// The [`IllegalMove`] reason when the move is not legal here.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Pass => {
                if self.has_legal_move() {
                    Err(IllegalMove::PassNotAllowed(self.side))
                } else if self.is_game_over() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(())
                }
            }
            Move::Place(sq) => {
                if !self.size.contains(sq) {
                    Err(IllegalMove::OffBoard(sq, self.size))
                } else if (self.player | self.opponent) & sq.bit() != 0 {
                    Err(IllegalMove::Occupied(sq))
                } else if self.flips(sq).is_empty() {
                    if self.is_game_over() {
                        Err(IllegalMove::GameOver)
                    } else {
                        Err(IllegalMove::EnclosesNothing(sq))
                    }
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Whether `mv` is legal here.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// The position after `mv`.
    ///
    /// # Errors
    /// [`IllegalMove`] if the move is not legal; `self` is unchanged.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// The position after `mv`, without checking legality (for search, which only
    /// plays generated moves). An illegal placement gives a position that the
    /// rules would never reach; it does not panic.
    #[inline]
    #[must_use]
    pub fn play_unchecked(&self, mv: Move) -> Position {
        match mv {
            Move::Pass => Position {
                player: self.opponent,
                opponent: self.player,
                side: self.side.opponent(),
                size: self.size,
            },
            Move::Place(sq) => {
                let f = movegen::flips(sq.index(), self.player, self.opponent);
                Position {
                    player: self.opponent ^ f,
                    opponent: self.player | f | sq.bit(),
                    side: self.side.opponent(),
                    size: self.size,
                }
            }
        }
    }

    /// The legal moves as a list: the placements, or `[Pass]` when the side to
    /// move must pass, or nothing when the game is over.
    #[must_use]
    pub fn moves_list(&self) -> Vec<Move> {
        let legal = self.legal_moves();
        if !legal.is_empty() {
            legal.iter().map(Move::Place).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }
}
