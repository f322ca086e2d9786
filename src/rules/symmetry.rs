//! The eight symmetries of the square board (rotations and reflections), on
//! bitboards, squares and positions. Used by tests and by pattern evaluation.

use super::position::Position;
use super::square::{BoardSize, Square};

/// One of the 8 symmetries of the square, as a composition of a transpose
/// (a1–h8 diagonal), then a left–right mirror, then a top–bottom flip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    mirror: bool,
    flip: bool,
}

impl Symmetry {
    /// All eight symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            transpose: false,
            mirror: false,
            flip: false,
        }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry {
                transpose: i & 4 != 0,
                mirror: i & 2 != 0,
                flip: i & 1 != 0,
            };
            i += 1;
        }
        all
    };

    /// Applies the symmetry to a bitboard of a board of `size`.
    #[must_use]
    pub fn bits(self, mut b: u64, size: BoardSize) -> u64 {
        let spare = u32::from(8 - size.side());
        if self.transpose {
            b = transpose(b);
        }
        if self.mirror {
            b = mirror(b) >> spare;
        }
        if self.flip {
            b = b.swap_bytes() >> (8 * spare);
        }
        b
    }

    /// Applies the symmetry to a square of a board of `size`.
    #[must_use]
    pub fn square(self, sq: Square, size: BoardSize) -> Square {
        Square::from_lowest_bit(self.bits(sq.bit(), size)).unwrap_or(sq)
    }

    /// Applies the symmetry to a position (same side to move).
    #[must_use]
    pub fn position(self, p: &Position) -> Position {
        let size = p.size();
        Position::from_side_relative(
            self.bits(p.player(), size),
            self.bits(p.opponent(), size),
            p.side_to_move(),
            size,
        )
    }
}

/// The least of the eight images of `position` as its side-relative pair
/// (discs of the side to move, discs of the other side), with the symmetry
/// that gives it: one key for all the positions the board's symmetries make
/// the same (opening books and names use it).
///
/// ```
/// use reversi::rules::{BoardSize, Move, Position, Square, canonical};
/// let start = Position::initial(BoardSize::Eight);
/// let f5 = start.play(Move::Place(Square::at(5, 4))).unwrap();
/// let d3 = start.play(Move::Place(Square::at(3, 2))).unwrap();
/// assert_eq!(canonical(&f5).0, canonical(&d3).0);
/// ```
#[must_use]
pub fn canonical(position: &Position) -> ((u64, u64), Symmetry) {
    let size = position.size();
    let (p, o) = (position.player(), position.opponent());
    let mut best = ((p, o), Symmetry::ALL[0]);
    for &s in &Symmetry::ALL[1..] {
        let image = (s.bits(p, size), s.bits(o, size));
        if image < best.0 {
            best = (image, s);
        }
    }
    best
}

/// Mirrors each row left to right (column a ↔ h).
#[must_use]
pub fn mirror(b: u64) -> u64 {
    let b = ((b >> 1) & 0x5555_5555_5555_5555) | ((b & 0x5555_5555_5555_5555) << 1);
    let b = ((b >> 2) & 0x3333_3333_3333_3333) | ((b & 0x3333_3333_3333_3333) << 2);
    ((b >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((b & 0x0f0f_0f0f_0f0f_0f0f) << 4)
}

/// Transposes the board across the a1–h8 diagonal (column ↔ row).
#[must_use]
pub fn transpose(mut b: u64) -> u64 {
    let mut t = 0x0f0f_0f0f_0000_0000 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    t = 0x3333_0000_3333_0000 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    t = 0x5500_5500_5500_5500 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    b
}
