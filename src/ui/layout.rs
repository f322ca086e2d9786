//! The one geometry of the game screen: where the board, its cells, the side
//! panel and the footer go for a terminal size. The view draws with it and the
//! mouse hit-test asks it, so a click always lands on the cell that was drawn
//! there. Pure arithmetic on [`Rect`]; depends on `rules` for squares only.

use crate::rules::{BoardSize, Color, Game, Square};
use ratatui::layout::Rect;

/// Width of the row-number column at the left of the board.
const LABEL_W: u16 = 3;
/// Narrowest side panel.
pub const PANEL_MIN: u16 = 26;
/// Widest side panel.
const PANEL_MAX: u16 = 40;
/// Space between the board and the panel.
const GAP: u16 = 2;
/// Lowest panel that still shows players, turn, status and a few moves.
const PANEL_MIN_H: u16 = 13;

/// How the cells of the board are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellStyle {
    /// Cell interior width (odd, at least 3, so a disc is centred).
    pub width: u16,
    /// Cell interior height.
    pub height: u16,
    /// Whether grid lines are drawn between cells.
    pub lines: bool,
}

impl CellStyle {
    /// From largest to smallest; the first that fits is used.
    pub const ALL: [CellStyle; 4] = [
        CellStyle {
            width: 7,
            height: 3,
            lines: true,
        },
        CellStyle {
            width: 5,
            height: 2,
            lines: true,
        },
        CellStyle {
            width: 3,
            height: 1,
            lines: true,
        },
        CellStyle {
            width: 3,
            height: 1,
            lines: false,
        },
    ];

    /// Distance between the left edges of neighbouring cells.
    #[must_use]
    pub fn pitch_x(self) -> u16 {
        self.width + u16::from(self.lines)
    }

    /// Distance between the top edges of neighbouring cells.
    #[must_use]
    pub fn pitch_y(self) -> u16 {
        self.height + u16::from(self.lines)
    }

    /// Size of the board with its labels for a board of `side` squares.
    #[must_use]
    pub fn board_size(self, side: u8) -> (u16, u16) {
        let side = u16::from(side);
        let grid_w = side * self.pitch_x() + u16::from(self.lines);
        let grid_h = side * self.pitch_y() + u16::from(self.lines);
        (LABEL_W + grid_w + 1, 1 + grid_h)
    }
}

/// The board's place on screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Everything the board occupies, labels included.
    pub area: Rect,
    /// How cells are drawn.
    pub style: CellStyle,
    /// Squares per side.
    pub side: u8,
}

impl BoardGeometry {
    /// Top-left corner of the grid (its outer line, or the first cell).
    #[must_use]
    pub fn grid_origin(&self) -> (u16, u16) {
        (self.area.x + LABEL_W, self.area.y + 1)
    }

    /// The interior of the cell of `square`.
    #[must_use]
    pub fn cell(&self, square: Square) -> Rect {
        let (gx, gy) = self.grid_origin();
        let l = u16::from(self.style.lines);
        Rect {
            x: gx + l + u16::from(square.column()) * self.style.pitch_x(),
            y: gy + l + u16::from(square.row()) * self.style.pitch_y(),
            width: self.style.width,
            height: self.style.height,
        }
    }

    /// The square whose cell interior contains screen cell (`x`, `y`).
    #[must_use]
    pub fn square_at(&self, x: u16, y: u16) -> Option<Square> {
        let (gx, gy) = self.grid_origin();
        let l = u16::from(self.style.lines);
        let dx = x.checked_sub(gx + l)?;
        let dy = y.checked_sub(gy + l)?;
        let (col, row) = (dx / self.style.pitch_x(), dy / self.style.pitch_y());
        let inside = dx % self.style.pitch_x() < self.style.width
            && dy % self.style.pitch_y() < self.style.height;
        if !inside || col >= u16::from(self.side) || row >= u16::from(self.side) {
            return None;
        }
        Square::checked_at(col as u8, row as u8)
    }
}

/// The game screen's parts, or why it cannot be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenLayout {
    /// The terminal is smaller than the smallest layout.
    TooSmall {
        /// Columns needed.
        width: u16,
        /// Rows needed.
        height: u16,
    },
    /// Board, panel and footer.
    Game {
        /// The board.
        board: BoardGeometry,
        /// The side panel.
        panel: Rect,
        /// The one-line key summary at the bottom.
        footer: Rect,
    },
}

/// The smallest terminal for a board of `size`.
#[must_use]
pub fn minimum(size: BoardSize) -> (u16, u16) {
    let compact = CellStyle::ALL[CellStyle::ALL.len() - 1];
    let (bw, bh) = compact.board_size(size.side());
    (bw + GAP + PANEL_MIN, bh.max(PANEL_MIN_H) + 1)
}

/// Lays out the game screen in `area` for a board of `size`.
#[must_use]
pub fn layout(area: Rect, size: BoardSize) -> ScreenLayout {
    let side = size.side();
    let main_h = area.height.saturating_sub(1);
    let fits = |style: &CellStyle| {
        let (bw, bh) = style.board_size(side);
        bw + GAP + PANEL_MIN <= area.width && bh <= main_h && main_h >= PANEL_MIN_H
    };
    let Some(style) = CellStyle::ALL.iter().copied().find(fits) else {
        let (width, height) = minimum(size);
        return ScreenLayout::TooSmall { width, height };
    };
    let (bw, bh) = style.board_size(side);
    let panel_w = (area.width - bw - GAP).min(PANEL_MAX);
    let total_w = bw + GAP + panel_w;
    let x0 = area.x + (area.width - total_w) / 2;
    let y0 = area.y + u16::from(main_h > bh + 1);
    let board = BoardGeometry {
        area: Rect::new(x0, y0, bw, bh),
        style,
        side,
    };
    let panel = Rect::new(x0 + bw + GAP, y0, panel_w, main_h - (y0 - area.y));
    let footer = Rect::new(area.x, area.y + main_h, area.width, 1);
    ScreenLayout::Game {
        board,
        panel,
        footer,
    }
}

/// What a screen cell holds, for the mouse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// A board square.
    Square(Square),
    /// A move in the move list: its index in the game's moves.
    Move(usize),
}

/// What is under screen cell (`x`, `y`) of a terminal of `area` (columns,
/// rows) showing `game`, with the panel's top part `top_rows` high; the same
/// layout as the drawing.
#[must_use]
pub fn hit_test(area: (u16, u16), game: &Game, top_rows: u16, x: u16, y: u16) -> Option<Hit> {
    match layout(Rect::new(0, 0, area.0, area.1), game.rules().size) {
        ScreenLayout::Game { board, panel, .. } => {
            board.square_at(x, y).map(Hit::Square).or_else(|| {
                MoveList::new(moves_area(panel, top_rows), game)
                    .move_at(x, y)
                    .map(Hit::Move)
            })
        }
        ScreenLayout::TooSmall { .. } => None,
    }
}

/// The part of the panel below its top part (`top_rows` high and one blank
/// row) where the move list goes.
#[must_use]
pub fn moves_area(panel: Rect, top_rows: u16) -> Rect {
    let top = top_rows.min(panel.height);
    Rect::new(
        panel.x,
        panel.y + top + 1,
        panel.width,
        panel.height.saturating_sub(top + 1),
    )
}

/// Width of the move number column of the move list ("` 12. `").
const NUMBER_W: u16 = 5;
/// Width of one move in the move list, spacing included.
const MOVE_W: u16 = 6;

/// The move list's rows: a title, then numbered rows of Black's and White's
/// move, scrolled so that the current move is visible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveList {
    /// Where the list is drawn (title row first).
    pub area: Rect,
    /// Every row: the number of its first move (moves count one by one from 1,
    /// passes included, as Othello and WTHOR number them, not in pairs) and the
    /// indices of Black's and White's moves.
    pub rows: Vec<(usize, [Option<usize>; 2])>,
    /// The first row shown.
    pub first: usize,
}

impl MoveList {
    /// The list for `game` in `area`.
    #[must_use]
    pub fn new(area: Rect, game: &Game) -> MoveList {
        let mut rows: Vec<(usize, [Option<usize>; 2])> = Vec::new();
        for i in 0..game.len() {
            let mover = game
                .position_at(i)
                .map_or(Color::Black, |p| p.side_to_move());
            let slot = mover.index();
            match rows.last_mut() {
                Some((_, r)) if slot == 1 && r[1].is_none() => r[1] = Some(i),
                _ => {
                    let mut r = [None, None];
                    r[slot] = Some(i);
                    rows.push((i + 1, r));
                }
            }
        }
        let visible = usize::from(area.height.saturating_sub(1));
        let current = game.ply().checked_sub(1);
        let current_row = current
            .and_then(|c| rows.iter().position(|(_, r)| r.contains(&Some(c))))
            .unwrap_or(0);
        let first = if rows.len() <= visible {
            0
        } else {
            (current_row + 1)
                .saturating_sub(visible)
                .min(rows.len() - visible)
        };
        MoveList { area, rows, first }
    }

    /// The rows shown, with their screen row.
    pub fn shown(&self) -> impl Iterator<Item = (u16, &(usize, [Option<usize>; 2]))> {
        let visible = usize::from(self.area.height.saturating_sub(1));
        self.rows
            .iter()
            .skip(self.first)
            .take(visible)
            .enumerate()
            .map(|(i, r)| (self.area.y + 1 + i as u16, r))
    }

    /// The screen cells of the move in `slot` (0 Black, 1 White) of a row.
    #[must_use]
    pub fn cell(&self, y: u16, slot: usize) -> Rect {
        let x = self.area.x + NUMBER_W + slot as u16 * MOVE_W;
        Rect::new(x, y, MOVE_W - 2, 1).intersection(self.area)
    }

    /// [`MoveList::cell`] wide enough for `chars` characters: a word longer
    /// than a square and its mark ("passe") takes a column of the gap.
    #[must_use]
    pub fn cell_for(&self, y: u16, slot: usize, chars: usize) -> Rect {
        let cell = self.cell(y, slot);
        let wide = u16::try_from(chars).unwrap_or(u16::MAX).min(MOVE_W - 1);
        Rect {
            width: cell.width.max(wide),
            ..cell
        }
        .intersection(self.area)
    }

    /// The index of the move drawn at (`x`, `y`), if any.
    #[must_use]
    pub fn move_at(&self, x: u16, y: u16) -> Option<usize> {
        let (_, (_, r)) = self.shown().find(|(row_y, _)| *row_y == y)?;
        (0..2).find_map(|slot| {
            let c = self.cell(y, slot);
            (x >= c.x && x < c.right()).then_some(r[slot]).flatten()
        })
    }
}

/// The size the new-game form needs.
pub const FORM_SIZE: (u16, u16) = (52, 17);

/// A rectangle of at most `width` × `height` centred in `area`.
#[must_use]
pub fn centred(area: Rect, width: u16, height: u16) -> Rect {
    let w = width.min(area.width);
    let h = height.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_hit_tests_to_its_square_in_every_style() {
        for (w, h) in [(100, 40), (80, 24), (60, 16), (56, 14), (200, 60)] {
            for size in [BoardSize::Eight, BoardSize::Six] {
                let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, w, h), size) else {
                    panic!("{w}x{h} should fit");
                };
                for sq in size.iter() {
                    let c = board.cell(sq);
                    for (x, y) in [(c.x, c.y), (c.right() - 1, c.bottom() - 1)] {
                        assert_eq!(board.square_at(x, y), Some(sq), "{w}x{h} {sq}");
                        let game = Game::new(crate::rules::Rules::standard(size));
                        assert_eq!(hit_test((w, h), &game, 3, x, y), Some(Hit::Square(sq)));
                    }
                    assert!(c.right() <= w && c.bottom() < h);
                }
                if board.style.lines {
                    let c = board.cell(Square::at(0, 0));
                    assert_eq!(board.square_at(c.x - 1, c.y), None, "grid line is no cell");
                }
            }
        }
    }

    #[test]
    fn each_row_carries_the_number_of_its_first_move_counted_one_by_one() {
        use crate::rules::{Position, Rules};
        let rules = Rules::standard(BoardSize::Eight);
        let start = Position::initial(BoardSize::Eight);
        let moves = crate::notation::parse_transcript("f5d6c3d3c4f4", &start).unwrap();
        let game = Game::with_moves(rules, start, &moves).unwrap();
        let list = MoveList::new(Rect::new(0, 0, 20, 10), &game);
        let numbers: Vec<usize> = list.rows.iter().map(|(n, _)| *n).collect();
        assert_eq!(numbers, [1, 3, 5]);
        // The number is that of the row's first move: move 5 is c4.
        assert_eq!(list.rows[2].1[0], Some(4));
        // A game that starts with White to move: the first row holds White's move 1.
        let white_first = Position::from_discs(
            start.discs(Color::Black),
            start.discs(Color::White),
            Color::White,
            BoardSize::Eight,
        )
        .unwrap();
        let mut game = Game::from_position(rules, white_first).unwrap();
        for _ in 0..2 {
            let mv = game.position().moves_list()[0];
            game.play(mv).unwrap();
        }
        let list = MoveList::new(Rect::new(0, 0, 20, 10), &game);
        let rows: Vec<_> = list.rows.clone();
        assert_eq!(rows, [(1, [None, Some(0)]), (2, [Some(1), None])]);
    }

    #[test]
    fn larger_terminals_get_larger_cells() {
        let big = layout(Rect::new(0, 0, 100, 40), BoardSize::Eight);
        let small = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight);
        let (ScreenLayout::Game { board: b, .. }, ScreenLayout::Game { board: s, .. }) =
            (big, small)
        else {
            panic!("both fit");
        };
        assert!(b.style.width > s.style.width);
    }

    #[test]
    fn too_small_names_the_minimum() {
        let (w, h) = minimum(BoardSize::Eight);
        assert!(matches!(
            layout(Rect::new(0, 0, w - 1, h), BoardSize::Eight),
            ScreenLayout::TooSmall { .. }
        ));
        assert!(matches!(
            layout(Rect::new(0, 0, w, h), BoardSize::Eight),
            ScreenLayout::Game { .. }
        ));
        for (w, h) in [(0, 0), (1, 1), (5, 200), (300, 3)] {
            let _ = layout(Rect::new(0, 0, w, h), BoardSize::Eight);
        }
    }
}
