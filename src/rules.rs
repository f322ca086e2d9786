//! The rules of Reversi on bitboards: squares, colours, positions, move
//! generation, flips, passes, scoring, variants, game history and perft.
//!
//! This module depends on `std` only (plus `thiserror` for error types) and
//! never on the AI or the user interface.
//!
//! Conventions (from the French rules pages in the project's seeds): columns a–h
//! left to right, rows 1–8 top to bottom; d4/e5 white and d5/e4 black at the
//! start; Black moves first; a move must enclose at least one line and every
//! enclosed line flips; passing is automatic and never voluntary; the game ends
//! when neither side can move.

mod bitboard;
mod game;
pub mod kernels;
pub mod movegen;
mod perft;
mod position;
mod square;
pub mod symmetry;
mod variant;

pub use bitboard::{Bitboard, Squares};
pub use game::{Game, GameError};
pub use kernels::{KernelSet, Kernels, KernelsError};
pub use perft::{perft, perft_with};
pub use position::{IllegalMove, Move, Position, PositionError, Status};
pub use square::{BoardSize, Color, Square};
pub use symmetry::{Symmetry, canonical};
pub use variant::{Outcome, Rules, Scoring, final_margin};
