//! The game screen without a terminal, for benchmarks and tests outside the
//! crate: a game between two people set on a screen of a given size, keys
//! pressed on it, the whole frame drawn into any ratatui backend, the board
//! widget drawn alone. This is the one part of the terminal UI that another
//! program can drive; the interactive game is the `reversi` binary.

use crate::rules::Game;
use crate::ui::app::{App, Msg};
use crate::ui::board::{self, BoardView};
use crate::ui::keys::{Key, KeyPress};
use crate::ui::layout::{ScreenLayout, layout};
use crate::ui::model::{Choices, Look, Player, Setup};
use crate::ui::update::{start, update};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::time::Instant;

/// A game on a screen of a fixed size.
#[derive(Clone, Debug)]
pub struct GameScreen {
    app: App,
}

impl GameScreen {
    /// `game` played by two people on a `width` × `height` screen, in colour
    /// or not, with Unicode or ASCII glyphs.
    #[must_use]
    pub fn new(game: Game, color: bool, ascii: bool, width: u16, height: u16) -> GameScreen {
        let mut app = App::new(Choices::default(), Look { color, ascii }, 1, Instant::now());
        start(
            &mut app,
            Setup {
                game,
                players: [Player::Human, Player::Human],
                names: [None, None],
                note: None,
                replay: false,
                reviews: Default::default(),
            },
        );
        update(&mut app, Msg::Resize { width, height });
        GameScreen { app }
    }

    /// Presses the key of character `c` (no modifier), as a person would.
    pub fn press(&mut self, c: char) {
        update(&mut self.app, Msg::Key(KeyPress::plain(Key::Char(c))));
    }

    /// Draws the whole screen into `frame`.
    pub fn draw(&self, frame: &mut Frame<'_>) {
        crate::ui::view(&self.app, frame);
    }

    /// Draws the board widget alone into `buf`, where the screen's layout
    /// puts it; returns the width of its cells, or `None` when the screen is
    /// too small for the board.
    pub fn draw_board(&self, buf: &mut Buffer) -> Option<u16> {
        let m = self.app.current()?;
        let (w, h) = self.app.area();
        let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, w, h), m.game.rules().size)
        else {
            return None;
        };
        let view = BoardView {
            game: &m.game,
            cursor: Some(m.input.cursor()),
            hint: m.hint_shown(),
            dots: true,
            look: self.app.look(),
            lang: self.app.lang(),
        };
        board::draw(&view, &board, buf);
        Some(board.style.width)
    }
}
