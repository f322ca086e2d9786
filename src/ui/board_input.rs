//! The board's input, the same on every screen with a board (a game, a
//! table at the salon, the lesson): the cursor, moved by the arrows and by
//! `h j k l` and stopped at the board's edge, and a square typed as its
//! column letter then its row digit (`f5`).
//!
//! `h` is both a column and "left": it moves the cursor and waits for a
//! row digit, so `h` then `3` still names h3. The screens keep what they do
//! with a square chosen (play it, send it, judge it) and with other keys.

use super::keys::Key;
use crate::rules::{BoardSize, Square};

/// The keys that move the cursor, and which way (columns, rows).
pub const CURSOR_KEYS: [(Key, (i8, i8)); 8] = [
    (Key::Left, (-1, 0)),
    (Key::Right, (1, 0)),
    (Key::Up, (0, -1)),
    (Key::Down, (0, 1)),
    (Key::Char('h'), (-1, 0)),
    (Key::Char('l'), (1, 0)),
    (Key::Char('k'), (0, -1)),
    (Key::Char('j'), (0, 1)),
];

/// The cursor and a column letter typed, waiting for its row digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardInput {
    cursor: Square,
    typed: Option<char>,
}

/// What a key did to the board input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardKey {
    /// Not a key of the board (a column typed before it is dropped).
    Other,
    /// The cursor moved (or stayed, at the board's edge).
    Moved,
    /// A column letter, waiting for its row digit.
    Column,
    /// A row digit after a column letter, naming a square of the board:
    /// the cursor is on it now.
    Square(Square),
    /// A column letter and a digit that name no square of the board, as
    /// typed (`a9`, `a0`, `f7` on 6×6).
    OffBoard(String),
}

impl BoardInput {
    /// The input of a new board of `size`: the cursor on the square left of
    /// and above the centre's top-left disc (d3 on 8×8, c2 on 6×6).
    #[must_use]
    pub fn new(size: BoardSize) -> BoardInput {
        let mid = size.side() / 2;
        BoardInput::at(Square::at(mid - 1, mid - 2))
    }

    /// The input with the cursor on `cursor` and nothing typed.
    #[must_use]
    pub fn at(cursor: Square) -> BoardInput {
        BoardInput {
            cursor,
            typed: None,
        }
    }

    /// The square under the cursor.
    #[must_use]
    pub fn cursor(&self) -> Square {
        self.cursor
    }

    /// The column letter typed, waiting for its row digit.
    #[must_use]
    pub fn typed(&self) -> Option<char> {
        self.typed
    }

    /// Puts the cursor on `square` (a click), dropping a column typed.
    pub fn point(&mut self, square: Square) {
        self.cursor = square;
        self.typed = None;
    }

    /// Drops a column letter typed (the board stops taking moves).
    pub fn cancel(&mut self) {
        self.typed = None;
    }

    /// Reads `key` on a board of `size`.
    pub fn key(&mut self, key: Key, size: BoardSize) -> BoardKey {
        let side = size.side();
        let typed = self.typed.take();
        if let Key::Char(c) = key {
            if let (Some(column), '0'..='9') = (typed, c) {
                let (col, row) = (column as u8 - b'a', (c as u8).wrapping_sub(b'1'));
                if row >= side {
                    return BoardKey::OffBoard(format!("{column}{c}"));
                }
                self.cursor = Square::at(col, row);
                return BoardKey::Square(self.cursor);
            }
            if c.is_ascii_lowercase() && c as u8 - b'a' < side {
                self.typed = Some(c);
                if c != 'h' {
                    return BoardKey::Column;
                }
            }
        }
        let Some((_, (dx, dy))) = CURSOR_KEYS.iter().find(|(k, _)| *k == key) else {
            return BoardKey::Other;
        };
        let last = side as i8 - 1;
        let col = (self.cursor.column() as i8 + dx).clamp(0, last);
        let row = (self.cursor.row() as i8 + dy).clamp(0, last);
        self.cursor = Square::at(col as u8, row as u8);
        BoardKey::Moved
    }
}

/// Checks that `bound`, the keys a screen's key table binds to its cursor
/// actions with the way each moves, are exactly [`CURSOR_KEYS`] (the help
/// names the keys the input reads).
#[cfg(test)]
pub fn assert_cursor_keys<A: Copy>(
    bound: impl IntoIterator<Item = (Key, A)>,
    way: impl Fn(A) -> Option<(i8, i8)>,
) {
    let bound: Vec<(Key, (i8, i8))> = bound
        .into_iter()
        .filter_map(|(k, a)| Some((k, way(a)?)))
        .collect();
    assert_eq!(bound.len(), CURSOR_KEYS.len(), "{bound:?}");
    for pair in CURSOR_KEYS {
        assert!(bound.contains(&pair), "{pair:?} is not bound");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cursor keys the game's help and footer name are those the board
    /// input moves the cursor with, each the same way.
    #[test]
    fn the_games_cursor_actions_are_the_board_inputs_keys() {
        use super::super::keys::{Action, GAME_KEYS};
        let bound = GAME_KEYS.iter().flat_map(|b| b.keys).copied();
        assert_cursor_keys(bound, |a| match a {
            Action::Left => Some((-1, 0)),
            Action::Right => Some((1, 0)),
            Action::Up => Some((0, -1)),
            Action::Down => Some((0, 1)),
            _ => None,
        });
    }

    fn keys(input: &mut BoardInput, text: &str, size: BoardSize) -> Vec<BoardKey> {
        text.chars()
            .map(|c| input.key(Key::Char(c), size))
            .collect()
    }

    #[test]
    fn the_cursor_stops_at_every_edge() {
        for size in [BoardSize::Six, BoardSize::Eight] {
            let last = size.side() - 1;
            let mut input = BoardInput::new(size);
            for _ in 0..10 {
                input.key(Key::Left, size);
                input.key(Key::Char('k'), size);
            }
            assert_eq!(input.cursor(), Square::at(0, 0));
            for _ in 0..10 {
                input.key(Key::Char('l'), size);
                input.key(Key::Down, size);
            }
            assert_eq!(input.cursor(), Square::at(last, last));
            assert_eq!(input.key(Key::Char('j'), size), BoardKey::Moved);
            assert_eq!(input.cursor(), Square::at(last, last));
        }
    }

    #[test]
    fn a_typed_square_is_its_letter_then_its_digit() {
        let eight = BoardSize::Eight;
        let mut input = BoardInput::new(eight);
        assert_eq!(input.cursor().to_string(), "d3");
        assert_eq!(
            keys(&mut input, "f5", eight),
            [BoardKey::Column, BoardKey::Square(Square::at(5, 4))]
        );
        assert_eq!(input.cursor().to_string(), "f5");
        // h moves left and waits for a digit: h3 is still h3.
        assert_eq!(input.key(Key::Char('h'), eight), BoardKey::Moved);
        assert_eq!(input.cursor().to_string(), "e5");
        assert_eq!(input.typed(), Some('h'));
        assert_eq!(
            input.key(Key::Char('3'), eight),
            BoardKey::Square(Square::at(7, 2))
        );
        // Another key drops the letter.
        keys(&mut input, "c", eight);
        assert_eq!(input.key(Key::Enter, eight), BoardKey::Other);
        assert_eq!(input.key(Key::Char('4'), eight), BoardKey::Other);
        assert_eq!(input.typed(), None);
    }

    #[test]
    fn squares_off_the_board_are_named_and_letters_past_it_are_not_columns() {
        let six = BoardSize::Six;
        let mut input = BoardInput::new(six);
        assert_eq!(input.cursor().to_string(), "c2");
        assert_eq!(
            keys(&mut input, "f7", six)[1],
            BoardKey::OffBoard("f7".into())
        );
        assert_eq!(
            keys(&mut input, "a0", six)[1],
            BoardKey::OffBoard("a0".into())
        );
        assert_eq!(input.cursor().to_string(), "c2");
        // g and h are past a 6×6 board's columns: h only moves left there.
        assert_eq!(input.key(Key::Char('g'), six), BoardKey::Other);
        assert_eq!(input.key(Key::Char('h'), six), BoardKey::Moved);
        assert_eq!(input.typed(), None);
        assert_eq!(input.key(Key::Char('3'), six), BoardKey::Other);
    }
}
