//! The board widget: labels, grid, discs, legal dots, the cursor, the last move
//! and its flips, the flip preview and hint scores. It draws into the cells
//! that [`super::layout`] places, so the mouse hit-test agrees with it.
//!
//! Every mark has a glyph as well as a colour: brackets for the cursor,
//! parentheses for the last move, `*` for a flipped disc and `~` for a disc the
//! move under the cursor would flip (the last two only without colour, where
//! the background cannot say it).

use super::layout::BoardGeometry;
use super::model::Look;
use super::theme::{Glyphs, Theme, glyphs, theme};
use crate::ai::{MoveEval, Score};
use crate::i18n::Lang;
use crate::rules::{Bitboard, Color, Game, Move, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

/// What the board shows for one frame: a game and the marks over it.
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// The game: its shown position, and the last move before it.
    pub game: &'a Game,
    /// The cursor, when it is shown (with the flips of a move there); not
    /// in replay.
    pub cursor: Option<Square>,
    /// The hint: the scores of the shown position's moves, best first
    /// (empty: no hint).
    pub hint: &'a [MoveEval],
    /// Whether legal dots are shown.
    pub dots: bool,
    /// Glyphs and colours.
    pub look: Look,
    /// The language the hint's numbers are written in ("+17,1" in French).
    pub lang: Lang,
}

/// Draws the board into `buf` at `geo`.
pub fn draw(view: &BoardView<'_>, geo: &BoardGeometry, buf: &mut Buffer) {
    let th = theme(view.look);
    let gl = glyphs(view.look);
    let game = view.game;
    let position = game.position();
    let area = buf.area.intersection(geo.area);
    if area.is_empty() {
        return;
    }
    draw_labels(geo, &th, buf);
    draw_grid(geo, &th, &gl, buf);

    let over = position.is_game_over();
    let legal = if over {
        Bitboard::EMPTY
    } else {
        position.legal_moves()
    };
    let (last, flipped) = last_placement(game);
    let preview = match view.cursor {
        Some(cursor) if legal.contains(cursor) => position.flips(cursor),
        _ => Bitboard::EMPTY,
    };

    for sq in (0..geo.side).flat_map(|r| (0..geo.side).map(move |c| Square::at(c, r))) {
        let cell = geo.cell(sq);
        let mut style = th.board;
        let mut centre: (String, Style) = (String::new(), th.board);
        let (mut left, mut right) = (" ", " ");
        match position.disc_at(sq) {
            Some(Color::Black) => centre = (gl.black.into(), th.black),
            Some(Color::White) => centre = (gl.white.into(), th.white),
            None if legal.contains(sq) && view.dots => centre = (gl.dot.into(), th.dot),
            // Without grid lines or a coloured board, show where the squares are.
            None if !geo.style.lines && !view.look.color => centre = ("-".into(), th.dim),
            None => {}
        }
        if let Some((rank, e)) = view
            .hint
            .iter()
            .enumerate()
            .find(|(_, e)| e.mv == Move::Place(sq))
        {
            centre = (
                short_score(view.lang, e.score, cell.width),
                if rank == 0 { th.best } else { th.hint },
            );
            if rank == 0 {
                style = th.best;
            }
        }
        if preview.contains(sq) {
            style = style.patch(th.preview);
            if !view.look.color {
                right = "~";
            }
        } else if flipped.contains(sq) {
            style = style.patch(th.flipped);
            if !view.look.color {
                right = "*";
            }
        }
        if last == Some(sq) {
            style = style.patch(th.last);
            (left, right) = ("(", ")");
        }
        if view.cursor == Some(sq) {
            style = style.patch(th.cursor);
            (left, right) = ("[", "]");
        }
        fill(buf, cell, style);
        let cx = cell.x + cell.width / 2;
        let cy = cell.y + cell.height / 2;
        let text_w = centre.0.chars().count() as u16;
        let tx = cx.saturating_sub(text_w / 2).max(cell.x);
        put(buf, tx, cy, &centre.0, style.patch(centre.1));
        if text_w <= 1 {
            put(buf, cx - 1, cy, left, style);
            put(buf, cx + 1, cy, right, style);
        }
    }
}

/// The last placement and the discs it flipped; after a pass, the placement
/// before it (so the board still shows what just happened).
fn last_placement(game: &Game) -> (Option<Square>, Bitboard) {
    match game.last_move() {
        Some(Move::Place(sq)) => (Some(sq), game.last_flips()),
        Some(Move::Pass) if game.ply() >= 2 => {
            match (
                game.played()[game.ply() - 2],
                game.position_at(game.ply() - 2),
            ) {
                (Move::Place(sq), Some(before)) => (Some(sq), before.flips(sq)),
                _ => (None, Bitboard::EMPTY),
            }
        }
        _ => (None, Bitboard::EMPTY),
    }
}

/// A score for a cell `width` wide, in discs from the mover's view: whole
/// discs in narrow cells, a tenth of a disc for estimates in wider ones.
#[must_use]
pub fn short_score(lang: Lang, score: Score, width: u16) -> String {
    let d = score.discs();
    if width >= 5 && !score.is_exact() && d.abs() < 99.5 {
        let s = super::words::signed(lang, d, 1);
        return match s.strip_prefix('+') {
            Some(zero) if !zero.chars().any(|c| ('1'..='9').contains(&c)) => zero.to_string(),
            _ => s,
        };
    }
    let d = (d.round() as i32).clamp(-99, 99);
    if d == 0 { "0".into() } else { format!("{d:+}") }
}

fn draw_labels(geo: &BoardGeometry, th: &Theme, buf: &mut Buffer) {
    for i in 0..geo.side {
        let cell = geo.cell(Square::at(i, i));
        let letter = char::from(b'a' + i).to_string();
        put(buf, cell.x + cell.width / 2, geo.area.y, &letter, th.dim);
        let number = format!("{:>2}", i + 1);
        put(buf, geo.area.x, cell.y + cell.height / 2, &number, th.dim);
    }
}

fn draw_grid(geo: &BoardGeometry, th: &Theme, gl: &Glyphs, buf: &mut Buffer) {
    let (gx, gy) = geo.grid_origin();
    let s = geo.style;
    let side = u16::from(geo.side);
    let w = side * s.pitch_x() + u16::from(s.lines);
    let h = side * s.pitch_y() + u16::from(s.lines);
    fill(buf, Rect::new(gx, gy, w, h), th.board);
    if !s.lines {
        return;
    }
    let ascii = gl.cross == "+";
    for y in 0..h {
        for x in 0..w {
            let on_v = x % s.pitch_x() == 0;
            let on_h = y % s.pitch_y() == 0;
            let glyph = match (on_v, on_h) {
                (false, false) => continue,
                (true, false) => gl.v,
                (false, true) => gl.h,
                (true, true) if ascii => gl.cross,
                (true, true) => corner(x == 0, x == w - 1, y == 0, y == h - 1),
            };
            put(buf, gx + x, gy + y, glyph, th.grid);
        }
    }
}

fn corner(left: bool, right: bool, top: bool, bottom: bool) -> &'static str {
    match (left, right, top, bottom) {
        (true, _, true, _) => "┌",
        (_, true, true, _) => "┐",
        (true, _, _, true) => "└",
        (_, true, _, true) => "┘",
        (_, _, true, _) => "┬",
        (_, _, _, true) => "┴",
        (true, _, _, _) => "├",
        (_, true, _, _) => "┤",
        _ => "┼",
    }
}

fn fill(buf: &mut Buffer, rect: Rect, style: Style) {
    let rect = rect.intersection(buf.area);
    for y in rect.top()..rect.bottom() {
        for x in rect.left()..rect.right() {
            if let Some(c) = buf.cell_mut((x, y)) {
                c.set_symbol(" ").set_style(style);
            }
        }
    }
}

fn put(buf: &mut Buffer, x: u16, y: u16, text: &str, style: Style) {
    let a = buf.area;
    if y >= a.bottom() || x >= a.right() || y < a.y || x < a.x {
        return;
    }
    buf.set_stringn(x, y, text, usize::from(a.right() - x), style);
}
