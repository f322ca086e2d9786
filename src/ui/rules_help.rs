//! The rules in full, in the player's language: an overlay opened with `R`
//! from any screen (and named by the help and the lesson). Each topic is one
//! message of the catalogue: the board and its four discs, legal moves in
//! eight directions, several lines at once, forced passes, the end before a
//! full board, the count and the draw, empties to the winner, 6×6 and Anti
//! Reversi.

use super::layout::centred;
use super::model::Look;
use super::theme::theme;
use crate::i18n::{Lang, tr};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

/// The topics, each a title and a paragraph, in reading order.
#[must_use]
pub fn topics(lang: Lang) -> Vec<(String, String)> {
    vec![
        (tr(lang, "rules-board-title"), tr(lang, "rules-board")),
        (tr(lang, "rules-moves-title"), tr(lang, "rules-moves")),
        (tr(lang, "rules-lines-title"), tr(lang, "rules-lines")),
        (tr(lang, "rules-pass-title"), tr(lang, "rules-pass")),
        (tr(lang, "rules-end-title"), tr(lang, "rules-end")),
        (tr(lang, "rules-count-title"), tr(lang, "rules-count")),
        (tr(lang, "rules-empties-title"), tr(lang, "rules-empties")),
        (tr(lang, "rules-variants-title"), tr(lang, "rules-variants")),
    ]
}

/// Rows the text takes at `width` columns (words wrapped as the paragraph
/// wraps them).
fn rows(lines: &[Line<'_>], width: u16) -> u16 {
    let w = usize::from(width.max(1));
    let n: usize = lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            let (mut rows, mut used) = (1, 0);
            for word in text.split(' ') {
                let n = word.chars().count();
                if used == 0 {
                    used = n;
                } else if used + 1 + n <= w {
                    used += 1 + n;
                } else {
                    rows += 1;
                    used = n;
                }
            }
            rows
        })
        .sum();
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// Draws the rules over `area`, scrolled down by `scroll` rows (clamped so
/// that the last row stays in view).
pub fn draw(lang: Lang, frame: &mut Frame<'_>, look: Look, area: Rect, scroll: u16) {
    let th = theme(look);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, (title, text)) in topics(lang).into_iter().enumerate() {
        if i > 0 {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(Span::styled(fix(look, title), th.title)));
        lines.push(Line::from(fix(look, text)));
    }
    let width = 78.min(area.width);
    let inner = width.saturating_sub(4);
    let need = rows(&lines, inner);
    let height = (need + 2).min(area.height);
    let rect = centred(area, width, height);
    let room = height.saturating_sub(2);
    let scroll = scroll.min(need.saturating_sub(room));
    let hint = if need > room {
        format!(" {} ", tr(lang, "rules-scroll"))
    } else {
        format!(" {} ", tr(lang, "rules-close"))
    };
    let block = super::theme::boxed(look, &fix(look, tr(lang, "rules-heading")), &th)
        .title_bottom(Line::from(Span::styled(fix(look, hint), th.dim)).centered())
        .padding(ratatui::widgets::Padding::horizontal(1));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .scroll((scroll, 0))
            .block(block),
        rect,
    );
}

/// `s` with what an ASCII terminal may not show replaced (the language's
/// letters, such as é, stay).
#[must_use]
pub fn fix(look: Look, s: String) -> String {
    if look.ascii {
        // No-break spaces stay: they keep French punctuation off a row's start.
        s.replace(['–', '—'], "-")
            .replace(['’', '‘'], "'")
            .replace(['«', '»'], "\"")
            .replace('×', "x")
            .replace('…', "...")
            .replace('↑', "^")
            .replace('↓', "v")
    } else {
        s
    }
}
