//! The score graph of the review: Black's value (discs) after every move,
//! the shown move marked, exact values drawn distinctly from estimates,
//! passes and mistakes marked. In colour a ratatui [`Chart`]; with `--ascii`
//! or `NO_COLOR` a plot of plain characters:
//!
//! ```text
//! +12|      *
//!   0|--.-.-|**--
//! -12|  !   |  p
//! ```
//!
//! `*` exact, `.` estimate, `!` a mistake or blunder, `p` a pass, `|` the
//! shown move, `-` the zero line. Draws from the model only.

use super::model::{Look, Match};
use super::review;
use crate::ai::review::{Class, Point, black_values};
use crate::i18n::Lang;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph};

/// Rows of the graph: a caption and the plot.
pub const HEIGHT: u16 = 8;
/// Rows of the graph on a short panel.
const SHORT: u16 = 5;
/// Rows the move list keeps below the graph.
const LIST_MIN: u16 = 6;

/// Rows the graph takes in a panel of `panel_height` rows whose text takes
/// `text_rows`: none when the review is not shown or there is no room.
#[must_use]
pub fn height(m: &Match, panel_height: u16, text_rows: u16) -> u16 {
    if !review::is_shown(m) || m.game.is_empty() {
        return 0;
    }
    let free = panel_height.saturating_sub(text_rows + 1);
    if free >= HEIGHT + LIST_MIN {
        HEIGHT
    } else if free >= SHORT + LIST_MIN {
        SHORT
    } else {
        0
    }
}

/// The graph's points with their plies, and the highest absolute value
/// rounded up to a multiple of 4 (at least 4).
fn points(m: &Match) -> (Vec<(usize, Point, bool)>, f64) {
    let plies = m.reviews.plies(&m.game);
    let values = black_values(&m.game, &plies);
    let out: Vec<(usize, Point, bool)> = values
        .iter()
        .enumerate()
        .filter_map(|(k, v)| {
            let mistake = k
                .checked_sub(1)
                .and_then(|i| plies[i])
                .is_some_and(|r| r.class() >= Class::Mistake);
            v.map(|p| (k, p, mistake))
        })
        .collect();
    let top = out
        .iter()
        .map(|(_, p, _)| p.black.abs())
        .fold(4.0_f64, f64::max);
    (out, (top / 4.0).ceil() * 4.0)
}

/// Draws the graph of `m` in `area` (caption row first).
pub fn draw(lang: Lang, frame: &mut Frame<'_>, m: &Match, look: Look, area: Rect) {
    if area.height < 3 || area.width < 10 {
        return;
    }
    if look.color && !look.ascii {
        draw_chart(lang, frame, m, area);
    } else {
        draw_text(lang, frame, m, look, area);
    }
}

fn caption(lang: Lang, m: &Match, exact: &str, estimate: &str) -> String {
    let plies = m.reviews.plies(&m.game);
    let now = black_values(&m.game, &plies)
        .get(m.game.ply())
        .copied()
        .flatten()
        .map_or("?".to_string(), |p| {
            if p.exact {
                format!("{:+}", p.black)
            } else {
                super::words::signed(lang, p.black, 1)
            }
        });
    crate::tr!(
        lang,
        "graph-caption",
        now = now,
        exact = exact,
        estimate = estimate
    )
}

/// Runs of consecutive plies with the same exactness, for drawing as lines.
fn runs(points: &[(usize, Point, bool)], exact: bool) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut last: Option<usize> = None;
    for (k, p, _) in points.iter().filter(|(_, p, _)| p.exact == exact) {
        let xy = (*k as f64, p.black);
        match out.last_mut() {
            Some(run) if last == Some(k - 1) => run.push(xy),
            _ => out.push(vec![xy]),
        }
        last = Some(*k);
    }
    out
}

fn draw_chart(lang: Lang, frame: &mut Frame<'_>, m: &Match, area: Rect) {
    let (points, top) = points(m);
    let len = m.game.len().max(1) as f64;
    let dim = Style::new().fg(Tint::DarkGray);
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(caption(lang, m, "█", "⠒"), dim))),
        Rect::new(area.x, area.y, area.width, 1),
    );
    let zero = [(0.0, 0.0), (len, 0.0)];
    let shown_x = m.game.ply() as f64;
    let shown = [(shown_x, -top), (shown_x, top)];
    let estimates = runs(&points, false);
    let exact = runs(&points, true);
    let passes: Vec<(f64, f64)> = points
        .iter()
        .filter(|(_, p, _)| p.pass)
        .map(|(k, p, _)| (*k as f64, p.black))
        .collect();
    let mistakes: Vec<(f64, f64)> = points
        .iter()
        .filter(|(_, _, bad)| *bad)
        .map(|(k, p, _)| (*k as f64, p.black))
        .collect();
    fn line(data: &[(f64, f64)], marker: Marker, tint: Tint) -> Dataset<'_> {
        Dataset::default()
            .data(data)
            .marker(marker)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(tint))
    }
    let mut sets = vec![
        line(&zero, Marker::Braille, Tint::DarkGray),
        line(&shown, Marker::Braille, Tint::Cyan),
    ];
    sets.extend(
        estimates
            .iter()
            .map(|r| line(r, Marker::Braille, Tint::Gray)),
    );
    sets.extend(
        exact
            .iter()
            .map(|r| line(r, Marker::HalfBlock, Tint::White)),
    );
    fn dots(data: &[(f64, f64)], tint: Tint) -> Dataset<'_> {
        Dataset::default()
            .data(data)
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(tint))
    }
    let passes_set = dots(&passes, Tint::Magenta);
    let mistakes_set = dots(&mistakes, Tint::Red);
    sets.push(passes_set);
    sets.push(mistakes_set);
    let label = |v: f64| Span::styled(format!("{v:+}"), dim);
    let chart = Chart::new(sets)
        .x_axis(Axis::default().bounds([0.0, len]))
        .y_axis(Axis::default().bounds([-top, top]).labels([
            label(-top),
            Span::styled("0", dim),
            label(top),
        ]));
    frame.render_widget(
        chart,
        Rect::new(area.x, area.y + 1, area.width, area.height - 1),
    );
}

fn draw_text(lang: Lang, frame: &mut Frame<'_>, m: &Match, look: Look, area: Rect) {
    let (points, top) = points(m);
    let len = m.game.len().max(1);
    let label_w = format!("{top:+}").len().max(2);
    let w = usize::from(area.width).saturating_sub(label_w + 1).max(1);
    let h = usize::from(area.height - 1);
    let col = |k: usize| k * (w - 1) / len;
    let row = |v: f64| (((top - v) / (2.0 * top)) * (h - 1) as f64).round() as usize;
    let mut grid = vec![vec![' '; w]; h];
    let zero = row(0.0).min(h - 1);
    grid[zero].iter_mut().for_each(|c| *c = '-');
    let shown = col(m.game.ply()).min(w - 1);
    for r in &mut grid {
        r[shown] = '|';
    }
    for (k, p, bad) in &points {
        let (x, y) = (col(*k).min(w - 1), row(p.black).min(h - 1));
        let glyph = if *bad {
            '!'
        } else if p.pass {
            'p'
        } else if p.exact {
            '*'
        } else {
            '.'
        };
        // Where plies share a cell, a mistake shows over a pass over the rest.
        let rank = |c: char| "!p".find(c).map_or(0, |i| 2 - i);
        let c = &mut grid[y][x];
        if rank(glyph) >= rank(*c) {
            *c = glyph;
        }
    }
    let dim = if look.color {
        Style::new().fg(Tint::DarkGray)
    } else {
        Style::new()
    };
    let mut lines = vec![Line::from(Span::styled(caption(lang, m, "*", "."), dim))];
    for (y, r) in grid.iter().enumerate() {
        let label = if y == 0 {
            format!("{top:+}")
        } else if y == zero {
            "0".into()
        } else if y == h - 1 {
            format!("{:+}", -top)
        } else {
            String::new()
        };
        let text: String = r.iter().collect();
        lines.push(Line::from(vec![
            Span::styled(format!("{label:>label_w$}|"), dim),
            Span::raw(text),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}
