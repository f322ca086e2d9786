//! Glyphs and styles for the three looks: colour, `NO_COLOR` (modifiers and
//! glyphs only, every signal still readable) and `--ascii`.
//!
//! The board has its own green background in colour so that black and white
//! discs read the same on dark and light terminals.

use super::model::Look;
use crate::rules::Color;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph};

/// The glyphs used on the board.
#[derive(Clone, Copy, Debug)]
pub struct Glyphs {
    /// A black disc.
    pub black: &'static str,
    /// A white disc.
    pub white: &'static str,
    /// A legal move.
    pub dot: &'static str,
    /// Horizontal grid line.
    pub h: &'static str,
    /// Vertical grid line.
    pub v: &'static str,
    /// Grid crossing.
    pub cross: &'static str,
}

/// The glyphs for `look`.
#[must_use]
pub fn glyphs(look: Look) -> Glyphs {
    if look.ascii {
        Glyphs {
            black: "X",
            white: "O",
            dot: ".",
            h: "-",
            v: "|",
            cross: "+",
        }
    } else if look.color {
        Glyphs {
            black: "●",
            white: "●",
            dot: "·",
            h: "─",
            v: "│",
            cross: "┼",
        }
    } else {
        Glyphs {
            black: "●",
            white: "○",
            dot: "·",
            h: "─",
            v: "│",
            cross: "┼",
        }
    }
}

/// The glyph of a disc of `color`, as shown in the panel (always tells the
/// colours apart, even where the board uses colour for that).
#[must_use]
pub fn disc_label(look: Look, color: Color) -> &'static str {
    match (look.ascii, color) {
        (true, Color::Black) => "X",
        (true, Color::White) => "O",
        (false, Color::Black) => "●",
        (false, Color::White) => "○",
    }
}

/// Styles for `look`.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    /// Empty board cell.
    pub board: Style,
    /// Grid lines.
    pub grid: Style,
    /// Black disc.
    pub black: Style,
    /// White disc.
    pub white: Style,
    /// Legal-move dot.
    pub dot: Style,
    /// The cursor's cell.
    pub cursor: Style,
    /// The last move's cell.
    pub last: Style,
    /// A disc flipped by the last move.
    pub flipped: Style,
    /// A disc the move under the cursor would flip.
    pub preview: Style,
    /// A hint score.
    pub hint: Style,
    /// The best hint score.
    pub best: Style,
    /// Labels and quiet text.
    pub dim: Style,
    /// Headings.
    pub title: Style,
    /// An error or notice in the status line.
    pub status: Style,
    /// The game-over banner.
    pub banner: Style,
    /// Keys in the footer and help.
    pub key: Style,
    /// The selected row of a list or form.
    pub selected: Style,
}

/// The styles for `look`.
#[must_use]
pub fn theme(look: Look) -> Theme {
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if look.color {
        let felt = Tint::Rgb(0, 110, 50);
        let board = Style::new().bg(felt).fg(Tint::Rgb(150, 200, 150));
        Theme {
            board,
            grid: Style::new().bg(felt).fg(Tint::Rgb(0, 70, 30)),
            black: board.fg(Tint::Rgb(0, 0, 0)),
            white: board.fg(Tint::Rgb(255, 255, 255)),
            dot: board.fg(Tint::Rgb(210, 240, 210)),
            cursor: Style::new()
                .bg(Tint::Rgb(60, 150, 230))
                .add_modifier(Modifier::BOLD),
            last: Style::new().bg(Tint::Rgb(200, 60, 60)),
            flipped: Style::new().bg(Tint::Rgb(20, 150, 80)),
            preview: Style::new().bg(Tint::Rgb(170, 160, 40)),
            hint: board.fg(Tint::Rgb(255, 240, 160)),
            best: Style::new()
                .bg(Tint::Rgb(230, 190, 30))
                .fg(Tint::Rgb(0, 0, 0))
                .add_modifier(Modifier::BOLD),
            dim: Style::new().fg(Tint::DarkGray),
            // Mid tones that read on dark and light terminal backgrounds.
            title: bold.fg(Tint::Rgb(0, 135, 175)),
            status: bold.fg(Tint::Rgb(215, 95, 0)),
            banner: bold.fg(Tint::Black).bg(Tint::Yellow),
            key: bold.fg(Tint::Rgb(0, 135, 175)),
            selected: Style::new().add_modifier(Modifier::REVERSED),
        }
    } else {
        let plain = Style::new();
        Theme {
            board: plain,
            grid: plain,
            black: bold,
            white: plain,
            dot: plain,
            cursor: Style::new().add_modifier(Modifier::REVERSED),
            last: Style::new().add_modifier(Modifier::UNDERLINED),
            flipped: plain,
            preview: Style::new().add_modifier(Modifier::ITALIC),
            hint: plain,
            best: bold.add_modifier(Modifier::REVERSED),
            dim: Style::new().add_modifier(Modifier::DIM),
            title: bold,
            status: bold,
            banner: bold.add_modifier(Modifier::REVERSED),
            key: bold,
            selected: Style::new().add_modifier(Modifier::REVERSED),
        }
    }
}

/// A window over the screen: `lines` centred in a [`boxed`] frame titled
/// `title`, on `rect` cleared of what was drawn under it.
pub fn draw_window(
    frame: &mut Frame<'_>,
    look: Look,
    rect: Rect,
    title: &str,
    lines: Vec<Line<'_>>,
) {
    let th = theme(look);
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .centered()
            .block(boxed(look, title, &th)),
        rect,
    );
}

/// A bordered box with a centred title: rounded corners, or plain ASCII with `--ascii`.
pub fn boxed(look: Look, title: &str, th: &Theme) -> Block<'static> {
    let block = Block::bordered()
        .title(Line::from(Span::styled(format!(" {title} "), th.title)).centered());
    if look.ascii {
        block.border_set(ratatui::symbols::border::Set {
            top_left: "+",
            top_right: "+",
            bottom_left: "+",
            bottom_right: "+",
            vertical_left: "|",
            vertical_right: "|",
            horizontal_top: "-",
            horizontal_bottom: "-",
        })
    } else {
        block.border_type(BorderType::Rounded)
    }
}
