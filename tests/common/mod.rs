//! Shared test helpers: a seeded generator, seeded random games,
//! and a slow, obvious array-based reference implementation of the rules that
//! the bitboard code is compared with.
//!
//! The reference knows nothing of bitboards: a `[[Option<Color>; 8]; 8]` grid
//! (of which the top-left 6×6 is used on the small board), and eight direction
//! walks from the played square, exactly as the rules pages describe a move.
#![allow(dead_code)]

use reversi::random;
use reversi::rules::{BoardSize, Color, Move, Position, Square};

/// The program's seeded generator ([`reversi::random`]) behind the small
/// interface the tests use.
pub struct XorShift(random::Rng);

impl XorShift {
    /// A generator from a seed.
    pub fn new(seed: u64) -> XorShift {
        XorShift(random::seeded(seed))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        random::next(&mut self.0)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        random::below(&mut self.0, n)
    }
}

/// A random game played to its end from the initial position: the moves
/// (forced passes included) and every position (`positions[i]` after `i` moves).
pub fn random_game(rng: &mut XorShift, size: BoardSize) -> (Vec<Move>, Vec<Position>) {
    let mut p = Position::initial(size);
    let mut moves = Vec::new();
    let mut positions = vec![p];
    loop {
        let list = p.moves_list();
        if list.is_empty() {
            break;
        }
        let mv = list[rng.below(list.len())];
        p = p.play(mv).expect("a generated move is legal");
        moves.push(mv);
        positions.push(p);
    }
    (moves, positions)
}

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Where the reference position stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefStatus {
    /// The side to move has a legal placement.
    ToMove,
    /// It has none, the opponent has one.
    MustPass,
    /// Neither side can move.
    GameOver,
}

/// The reference position: a grid of cells, the board side (6 or 8) and the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefBoard {
    /// `cells[row][column]`; only `0..side` is used.
    pub cells: [[Option<Color>; 8]; 8],
    /// 6 or 8.
    pub side: usize,
    /// The colour to move.
    pub to_move: Color,
}

impl RefBoard {
    /// The reference copy of a bitboard position, read through its public API.
    pub fn from_position(p: &Position) -> RefBoard {
        let side = p.size().side() as usize;
        let mut cells = [[None; 8]; 8];
        for (row, line) in cells.iter_mut().enumerate().take(side) {
            for (col, cell) in line.iter_mut().enumerate().take(side) {
                *cell = p.disc_at(Square::at(col as u8, row as u8));
            }
        }
        RefBoard {
            cells,
            side,
            to_move: p.side_to_move(),
        }
    }

    /// A reference board on the full 8×8 grid from raw disc sets of the side to
    /// move (`p`, Black here) and the opponent (`o`); bits in both count as `p`.
    pub fn from_bits(p: u64, o: u64) -> RefBoard {
        let mut cells = [[None; 8]; 8];
        for (i, cell) in cells.iter_mut().flatten().enumerate() {
            if p >> i & 1 == 1 {
                *cell = Some(Color::Black);
            } else if o >> i & 1 == 1 {
                *cell = Some(Color::White);
            }
        }
        RefBoard {
            cells,
            side: 8,
            to_move: Color::Black,
        }
    }

    fn cell(&self, col: i32, row: i32) -> Option<Option<Color>> {
        let n = self.side as i32;
        (0..n)
            .contains(&col)
            .then_some(())
            .filter(|()| (0..n).contains(&row))
            .map(|()| self.cells[row as usize][col as usize])
    }

    /// The discs that the side to move would flip by playing (`col`, `row`):
    /// in each direction, a run of at least one opponent disc closed by an own
    /// disc. Empty when the square is occupied or off the board.
    pub fn flips(&self, col: usize, row: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cell(col as i32, row as i32) != Some(None) {
            return all;
        }
        let me = self.to_move;
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (col as i32 + dc, row as i32 + dr);
            loop {
                match self.cell(c, r) {
                    Some(Some(color)) if color != me => run.push((c as usize, r as usize)),
                    Some(Some(_)) => {
                        all.extend(run);
                        break;
                    }
                    _ => break,
                }
                c += dc;
                r += dr;
            }
        }
        all
    }

    /// The legal placements in reading order (row 1 first).
    pub fn legal_moves(&self) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for row in 0..self.side {
            for col in 0..self.side {
                if !self.flips(col, row).is_empty() {
                    v.push((col, row));
                }
            }
        }
        v
    }

    /// The board after the side to move places on (`col`, `row`).
    ///
    /// # Panics
    /// If the move flips nothing.
    pub fn play(&self, col: usize, row: usize) -> RefBoard {
        let flips = self.flips(col, row);
        assert!(!flips.is_empty(), "illegal reference move");
        let mut next = *self;
        next.cells[row][col] = Some(self.to_move);
        for (c, r) in flips {
            next.cells[r][c] = Some(self.to_move);
        }
        next.to_move = self.to_move.opponent();
        next
    }

    /// The board after a pass.
    pub fn pass(&self) -> RefBoard {
        let mut next = *self;
        next.to_move = self.to_move.opponent();
        next
    }

    /// Whether the side to move can play, must pass, or the game is over.
    pub fn status(&self) -> RefStatus {
        if !self.legal_moves().is_empty() {
            RefStatus::ToMove
        } else if !self.pass().legal_moves().is_empty() {
            RefStatus::MustPass
        } else {
            RefStatus::GameOver
        }
    }

    /// Number of discs of `color`.
    pub fn count(&self, color: Color) -> u32 {
        self.cells
            .iter()
            .flatten()
            .filter(|c| **c == Some(color))
            .count() as u32
    }

    /// The score if the game ended now: (winner, Black's score, White's score).
    /// The side with more discs wins (fewer in Anti Reversi). With
    /// `empties_to_winner`, the empty squares count for the winner: they widen
    /// the winner's margin (added to the winner's discs, or in Anti Reversi to
    /// the loser's), and are split evenly on a draw.
    pub fn score(&self, anti: bool, empties_to_winner: bool) -> (Option<Color>, u32, u32) {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        let empties = (self.side * self.side) as u32 - b - w;
        let more = if b > w {
            Some(Color::Black)
        } else if w > b {
            Some(Color::White)
        } else {
            None
        };
        let winner = if anti {
            more.map(Color::opponent)
        } else {
            more
        };
        if !empties_to_winner {
            return (winner, b, w);
        }
        match more {
            None => (None, b + empties / 2, w + empties - empties / 2),
            Some(Color::Black) => (winner, b + empties, w),
            Some(Color::White) => (winner, b, w + empties),
        }
    }
}

/// A list of (column, row) pairs as a bitboard.
pub fn bits_of(squares: &[(usize, usize)]) -> u64 {
    squares
        .iter()
        .fold(0, |acc, &(c, r)| acc | 1 << (r * 8 + c))
}

/// A square from its name, e.g. `sq("d3")`.
pub fn sq(name: &str) -> Square {
    reversi::notation::parse_square(name).expect("a square name")
}

/// The bitboard of some square names.
pub fn squares(names: &[&str]) -> u64 {
    names.iter().fold(0, |acc, n| acc | sq(n).bit())
}
