//! Squares, colours and board sizes: the small vocabulary every other module speaks.
//!
//! A square is an index 0..64 on an 8×8 grid: `index = row * 8 + column`, with
//! a1 (column a, row 1) the top-left corner at index 0 and h8 at 63. The 6×6
//! board uses the top-left 6×6 corner of the same grid, so the board size is
//! only a mask (see [`BoardSize::mask`]).

use std::fmt;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    ///
    /// ```
    /// use reversi::rules::Color;
    /// assert_eq!(Color::Black.opponent(), Color::White);
    /// ```
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The colour's place in a pair kept per colour, Black first: 0 for
    /// Black, 1 for White (the index of [`Color::ALL`]).
    ///
    /// ```
    /// use reversi::rules::Color;
    /// assert_eq!(Color::ALL.map(Color::index), [0, 1]);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour's English name, capitalised ("Black", "White").
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The size of the board: the standard 8×8 or the small 6×6 variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BoardSize {
    /// The standard 8×8 board, 64 squares.
    #[default]
    Eight,
    /// The 6×6 variant, 36 squares (columns a–f, rows 1–6).
    Six,
}

impl BoardSize {
    /// Number of rows (and columns): 8 or 6.
    #[must_use]
    pub const fn side(self) -> u8 {
        match self {
            BoardSize::Eight => 8,
            BoardSize::Six => 6,
        }
    }

    /// Number of squares: 64 or 36.
    #[must_use]
    pub const fn squares(self) -> u32 {
        let s = self.side() as u32;
        s * s
    }

    /// The squares that exist on this board, as a bit mask over the 8×8 grid.
    #[must_use]
    pub const fn mask(self) -> u64 {
        match self {
            BoardSize::Eight => u64::MAX,
            BoardSize::Six => 0x0000_3f3f_3f3f_3f3f,
        }
    }

    /// Whether `square` lies on this board.
    #[must_use]
    pub const fn contains(self, square: Square) -> bool {
        self.mask() & square.bit() != 0
    }

    /// The squares of this board in reading order (a1, b1, …, then row 2, …).
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let side = self.side();
        (0..side).flat_map(move |row| (0..side).map(move |col| Square::at(col, row)))
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.side();
        write!(f, "{s}x{s}")
    }
}

/// One square of the 8×8 grid (also used for the 6×6 board's corner).
///
/// The field is private so every `Square` is valid: index 0..64.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at `index` (0..64, `row * 8 + column`), or `None`.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1).
    ///
    /// # Panics
    /// If `column` or `row` is 8 or more.
    #[must_use]
    pub const fn at(column: u8, row: u8) -> Square {
        assert!(column < 8 && row < 8, "square out of range");
        Square(row * 8 + column)
    }

    /// The square at `column` and `row` if both are in 0..8.
    #[must_use]
    pub const fn checked_at(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 {
            Some(Square(row * 8 + column))
        } else {
            None
        }
    }

    /// Index 0..64.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column 0..8 (0 = a).
    #[must_use]
    pub const fn column(self) -> u8 {
        self.0 % 8
    }

    /// Row 0..8 (0 = row 1, the top row).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// The single-bit mask of this square.
    #[must_use]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// The lowest set square of a non-empty mask.
    #[must_use]
    pub const fn from_lowest_bit(bits: u64) -> Option<Square> {
        if bits == 0 {
            None
        } else {
            Some(Square(bits.trailing_zeros() as u8))
        }
    }
}

impl fmt::Display for Square {
    /// Lowercase coordinates, e.g. `d3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'a' + self.column()) as char;
        write!(f, "{col}{}", self.row() + 1)
    }
}
