//! The move list beside the board, the same for a game here and at a salon
//! table: a title with the count of moves played, then numbered rows of
//! Black's and White's move (passes shown), scrolled so that the current
//! move is visible; the current move highlighted, the moves after it (the
//! redo tail) dimmed, and each reviewed move's mark. Its rows are
//! [`MoveList`]'s, the geometry that clicks are read with too.

use super::layout::MoveList;
use super::model::Look;
use super::review::class_style;
use super::theme::Theme;
use crate::ai::review::Class;
use crate::i18n::{Lang, tr};
use crate::rules::Game;
use crate::tr;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The list's title and its count: "Moves", "12 played" (a list without a
/// move says "No moves played" alone).
#[must_use]
pub fn heading(lang: Lang, played: usize) -> [String; 2] {
    [
        tr(lang, "moves-title"),
        tr!(lang, "moves-played", n = played),
    ]
}

/// Draws the moves of `game` in `area` (nothing under two rows), with the
/// review mark `mark` gives each move (by its index).
pub fn draw(
    lang: Lang,
    frame: &mut Frame<'_>,
    game: &Game,
    mark: &dyn Fn(usize) -> Option<Class>,
    look: Look,
    area: Rect,
    th: &Theme,
) {
    if area.height < 2 {
        return;
    }
    let list = MoveList::new(area, game);
    let [title, played] = if game.is_empty() {
        [tr(lang, "moves-none"), String::new()]
    } else {
        heading(lang, game.ply())
    };
    let played = if played.is_empty() {
        played
    } else {
        format!("  {played}")
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(title, th.title),
            Span::styled(played, th.dim),
        ])),
        Rect::new(area.x, area.y, area.width, 1),
    );
    let current = game.ply().checked_sub(1);
    for (y, (n, r)) in list.shown() {
        frame.render_widget(
            Paragraph::new(Span::styled(format!("{n:>3}. "), th.dim)),
            Rect::new(area.x, y, area.width, 1),
        );
        for (slot, idx) in r.iter().enumerate() {
            let text = match idx {
                Some(i) => super::words::move_name(lang, game.moves()[*i]),
                None if r[0].is_none() && look.ascii => "..".into(),
                None if r[0].is_none() => "…".into(),
                None => String::new(),
            };
            let style = match idx {
                Some(i) if Some(*i) == current => th.selected,
                Some(i) if *i >= game.ply() => th.dim,
                _ => Style::new(),
            };
            let class = idx.and_then(mark);
            let mark = class.map_or("", Class::mark);
            let width = text.chars().count() + mark.chars().count();
            let cell = list.cell_for(y, slot, width);
            let pad = 4usize.saturating_sub(width);
            frame.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::styled(text, style),
                    Span::styled(
                        mark.to_string(),
                        class.map_or(style, |c| class_style(look.color, c)),
                    ),
                    Span::styled(" ".repeat(pad), style),
                ])),
                cell,
            );
        }
    }
}
