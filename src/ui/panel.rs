//! The side panel's text: title, players with their counts, whose turn or
//! the result, the replay and review lines, the status message; and how many
//! rows it takes when wrapped, which is where the move list starts, for the
//! drawing and for mouse clicks alike. Reads the model only.

use super::app::App;
use super::graph;
use super::layout::{ScreenLayout, layout};
use super::model::{Look, Match, Mode, Player};
use super::replay;
use super::review;
use super::theme::{Theme, disc_label, theme};
use super::words::{
    level_name, outcome as outcome_text, rules as rules_text, seconds, side, side_name,
};
use crate::i18n::tr;
use crate::rules::{Color, Move, Scoring, Status};
use crate::tr;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Replaces glyphs an ASCII terminal may not show.
pub(super) fn fix(look: Look, s: &str) -> String {
    if look.ascii {
        s.replace('–', "-")
            .replace('×', "x")
            .replace('…', "...")
            .replace(['·', '—', '−'], "-")
    } else {
        s.to_string()
    }
}

fn player_name(m: &Match, color: Color) -> String {
    if let Some(name) = m.recorded_name(color) {
        return name.to_string();
    }
    match m.player(color) {
        Player::Human if m.human_colour().is_some() => tr("player-you"),
        Player::Human => tr("player-human"),
        Player::Ai(level) => tr!("player-ai", n = level.number(), name = level_name(level)),
    }
}

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_ASCII: [&str; 4] = ["|", "/", "-", "\\"];

fn turn_line(app: &App, m: &Match, th: &Theme) -> Line<'static> {
    let game = &m.game;
    match game.status() {
        Status::GameOver => Line::from(Span::styled(tr("turn-game-over"), th.title)),
        Status::MustPass(c) | Status::ToMove(c) => {
            let who = side(c);
            let spinner = |started| {
                let secs = app.clock.saturating_duration_since(started);
                let frame = (secs.as_millis() / 100) as usize;
                let spin = if app.look.ascii {
                    SPINNER_ASCII[frame % SPINNER_ASCII.len()]
                } else {
                    SPINNER[frame % SPINNER.len()]
                };
                (secs, spin)
            };
            if let Some(hint) = m.hint.as_ref().filter(|h| h.evals.is_empty()) {
                let (secs, spin) = spinner(hint.started);
                Line::from(vec![
                    Span::styled(format!("{} {spin} ", tr("turn-weighing")), th.title),
                    Span::raw(seconds(secs.as_secs_f64(), 1)),
                ])
            } else if let Some(job) = &m.ai {
                let (secs, spin) = spinner(job.started);
                let mut spans = vec![
                    Span::styled(
                        format!("{} {spin} ", tr!("turn-thinking", side = who)),
                        th.title,
                    ),
                    Span::raw(seconds(secs.as_secs_f64(), 1)),
                ];
                if let Some(p) = &job.progress {
                    spans.push(Span::styled(
                        format!("  d{} {} {}", p.depth, p.best_move, p.score),
                        th.dim,
                    ));
                }
                Line::from(spans)
            } else if m.paused && m.player(c).is_ai() {
                Line::from(Span::styled(tr!("turn-paused", side = who), th.title))
            } else if m.player(c) == Player::Human && m.human_colour().is_some() {
                Line::from(Span::styled(tr!("turn-yours", side = who), th.title))
            } else {
                Line::from(Span::styled(tr!("turn-to-move", side = who), th.title))
            }
        }
    }
}

/// Rows of the panel's top part (players, turn, status) for `m` on a terminal
/// of `area`: where the move list starts, for drawing and for mouse clicks.
#[must_use]
pub fn panel_top_rows(app: &App, m: &Match, area: (u16, u16)) -> u16 {
    match layout(Rect::new(0, 0, area.0, area.1), m.game.rules().size) {
        ScreenLayout::Game { panel, .. } => panel_heights(app, m, panel)
            .iter()
            .sum::<u16>()
            .min(panel.height),
        ScreenLayout::TooSmall { .. } => 0,
    }
}

/// Rows of the panel's text and of the review graph below it.
pub(super) fn panel_heights(app: &App, m: &Match, panel: Rect) -> [u16; 2] {
    let lines = panel_lines(app, m, panel.width);
    let text = (wrapped_height(&lines, panel.width) as u16).min(panel.height);
    [text, graph::height(m, panel.height, text)]
}

/// The replay part of the panel: where in the game, what happened, the analysis.
fn replay_lines(app: &App, m: &Match, th: &Theme, lines: &mut Vec<Line<'static>>) {
    let Mode::Replay(r) = &m.mode else {
        return;
    };
    lines.push(Line::from(Span::styled(
        fix(app.look, &replay::header(m)),
        th.title,
    )));
    let what = match m.shown_move() {
        None => tr("replay-start"),
        Some((before, mv)) => {
            let mover = side(before.side_to_move());
            match mv {
                Move::Pass => tr!("replay-passed", side = mover),
                Move::Place(sq) => tr!(
                    "replay-played",
                    side = mover,
                    square = sq.to_string(),
                    n = before.flips(sq).count()
                ),
            }
        }
    };
    lines.push(Line::from(what));
    if let Some(outcome) = m.game.outcome() {
        lines.push(Line::from(Span::styled(
            fix(
                app.look,
                &format!(" {} ", tr!("game-over", result = outcome_text(outcome))),
            ),
            th.banner,
        )));
    }
    for v in review::verdict(m) {
        lines.push(Line::from(Span::styled(fix(app.look, &v), th.dim)));
    }
    lines.extend(review::panel_lines(m, th).into_iter().map(|l| {
        Line::from(
            l.spans
                .into_iter()
                .map(|s| Span::styled(fix(app.look, &s.content), s.style))
                .collect::<Vec<_>>(),
        )
    }));
    if r.autoplay.is_some() {
        lines.push(Line::from(Span::styled(
            tr!(
                "autoplay-every",
                time = seconds(replay::step_delay(r.pace).as_secs_f64(), 2)
            ),
            th.dim,
        )));
    }
}

/// The panel's top part: title, players with counts, turn or result, status.
pub(super) fn panel_lines(app: &App, m: &Match, width: u16) -> Vec<Line<'static>> {
    let th = theme(app.look);
    let game = &m.game;
    let position = game.position();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let rules = game.rules();
    lines.push(Line::from(vec![
        Span::styled("Reversi", th.title),
        Span::styled(format!("  {}", rules_text(rules)), th.dim),
    ]));
    lines.push(Line::from(""));
    let to_move = (!position.is_game_over()).then(|| position.side_to_move());
    // The names' column: as wide as the longer name and a space, at least 6.
    let name_width = Color::ALL
        .iter()
        .map(|&c| side_name(c).chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(6);
    for color in Color::ALL {
        let marker = if to_move == Some(color) {
            if app.look.ascii { ">" } else { "▶" }
        } else {
            " "
        };
        let name = player_name(m, color);
        let count = format!("{:>2}", position.count(color));
        let style = if to_move == Some(color) {
            th.title
        } else {
            Style::new()
        };
        let head = format!("{marker} {} ", disc_label(app.look, color));
        let left = format!("{head}{:<name_width$}{name}", side_name(color));
        // A name too long for the row goes on the next one, under the side's
        // name, so that the count stays where the other side's is.
        let (left, below) = if fits_beside(&left, count.len(), width) {
            (left, None)
        } else {
            (format!("{head}{}", side_name(color)), Some(name))
        };
        let (left, pad) = beside(left, count.len(), width);
        lines.push(Line::from(vec![
            Span::styled(left, style),
            Span::raw(" ".repeat(pad)),
            Span::styled(count, th.title),
        ]));
        if let Some(name) = below {
            let indent = " ".repeat(head.chars().count());
            let room = usize::from(width).saturating_sub(indent.len() + 1);
            lines.push(Line::from(Span::styled(
                format!("{indent}{}", cut_to(&name, room)),
                style,
            )));
        }
    }
    lines.push(Line::from(""));
    if let Mode::Replay(_) = m.mode {
        replay_lines(app, m, &th, &mut lines);
    } else if let Some(outcome) = game.outcome() {
        let empties = position.empties().count();
        let rule = if rules.scoring == Scoring::EmptiesToWinner && empties > 0 {
            let note = if outcome.winner.is_some() {
                tr("empties-to-winner-note")
            } else {
                tr("empties-shared-note")
            };
            format!(" ({note})")
        } else {
            String::new()
        };
        let text = format!(
            " {}{rule} ",
            tr!("game-over", result = outcome_text(outcome))
        );
        lines.push(Line::from(Span::styled(fix(app.look, &text), th.banner)));
        let mut keys = vec![
            Span::styled("n", th.key),
            Span::raw(format!(" {}  ", tr("key-new-game"))),
        ];
        keys.extend([
            Span::styled("v", th.key),
            Span::raw(format!(" {}  ", tr("key-replay"))),
        ]);
        keys.extend([
            Span::styled("q", th.key),
            Span::raw(format!(" {}", tr("key-quit"))),
        ]);
        lines.push(Line::from(keys));
    } else {
        lines.push(turn_line(app, m, &th));
        if let Some(c) = m.typed {
            lines.push(Line::from(vec![
                Span::styled(format!("{c}_"), th.key),
                Span::styled(format!(" {}", tr("typed-row")), th.dim),
            ]));
        }
    }
    if let Some(s) = &app.status {
        // Whole, paths included: a saved game's path is where the player
        // learns where the file is.
        for row in text_rows(&fix(app.look, s), usize::from(width)) {
            lines.push(Line::from(Span::styled(row, th.status)));
        }
    }
    lines
}

/// Whether `left` and a `right_len`-column figure fit on a `width`-column
/// row with a space between them and the last column free.
fn fits_beside(left: &str, right_len: usize, width: u16) -> bool {
    left.chars().count() + right_len + 2 <= usize::from(width)
}

/// `left` and the spaces that put a `right_len`-column figure against the
/// right edge of a `width`-column row, with at least one space between: a
/// `left` too long for that loses its end to a `…`, so the figure never
/// runs into it or onto another row.
#[must_use]
pub fn beside(left: String, right_len: usize, width: u16) -> (String, usize) {
    // One column is kept free at the right edge, as the rows above do.
    let room = usize::from(width).saturating_sub(right_len + 2);
    let left = cut_to(&left, room);
    let pad = room + 1 - left.chars().count().min(room);
    (left, pad)
}

/// `text` in at most `room` characters, its end replaced by `…` if need be.
#[must_use]
pub fn cut_to(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(room.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// `text` in rows of at most `width` characters, broken between words, and
/// a path too long for a row broken after a `/` (within a folder or file
/// name only when that name alone is wider than a row), so that every part
/// of it, the file name above all, is shown whole and in order.
#[must_use]
pub fn text_rows(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let len = |s: &str| s.chars().count();
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    for word in text.split(' ') {
        let pieces = if len(word) > width && word.contains('/') {
            path_pieces(word, width)
        } else {
            vec![word.to_string()]
        };
        for (i, piece) in pieces.into_iter().enumerate() {
            // The pieces after a path's first start rows of their own.
            let joined = i == 0 && !row.is_empty();
            if joined && len(&row) + 1 + len(&piece) <= width {
                row.push(' ');
                row.push_str(&piece);
                continue;
            }
            if !row.is_empty() || joined {
                rows.push(std::mem::take(&mut row));
            }
            let mut rest = piece;
            while len(&rest) > width {
                let head: String = rest.chars().take(width).collect();
                rest = rest.chars().skip(width).collect();
                rows.push(head);
            }
            row = rest;
        }
    }
    rows.push(row);
    rows
}

/// A path in pieces of at most `width` characters, each ending after a `/`
/// where it can (a name wider than `width` is a piece of its own).
fn path_pieces(path: &str, width: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for part in path.split_inclusive('/') {
        if !piece.is_empty() && piece.chars().count() + part.chars().count() > width {
            pieces.push(std::mem::take(&mut piece));
        }
        piece.push_str(part);
    }
    pieces.push(piece);
    pieces
}

/// `text` with every path longer than `width` shortened in the middle, so that
/// wrapping never splits it and its end (the file name) is always shown:
/// `/home/me/…/games/2026-11-30T20-21-35.ggf`.
#[must_use]
pub fn shorten_paths(text: &str, width: usize) -> String {
    text.split(' ')
        .map(|word| {
            if word.chars().count() <= width || !word.contains('/') {
                return word.to_string();
            }
            shorten_path(word, width.max(4))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One path in at most `width` characters: whole folders from the start and
/// from the end around a `…`, the last part always (its own end, if even that
/// is too long).
fn shorten_path(path: &str, width: usize) -> String {
    let parts: Vec<&str> = path.split('/').collect();
    let last = parts[parts.len() - 1];
    let len = |s: &str| s.chars().count();
    if len(last) + 2 > width {
        let tail: String = last.chars().skip(len(last) + 1 - width).collect();
        return format!("…{tail}");
    }
    // Take folders alternately from the end and the start while they fit.
    let (mut head, mut tail) = (0, 1);
    let size = |head: usize, tail: usize| {
        let h: usize = parts[..head].iter().map(|p| len(p) + 1).sum();
        let t: usize = parts[parts.len() - tail..].iter().map(|p| len(p) + 1).sum();
        h + 1 + t
    };
    loop {
        let grown = if tail <= head {
            (head, tail + 1)
        } else {
            (head + 1, tail)
        };
        if grown.0 + grown.1 >= parts.len() || size(grown.0, grown.1) > width {
            break;
        }
        (head, tail) = grown;
    }
    let start: String = parts[..head].iter().map(|p| format!("{p}/")).collect();
    format!("{start}…/{}", parts[parts.len() - tail..].join("/"))
}

/// Rows `lines` take when wrapped word by word at `width`, as the panel's
/// paragraph wraps them (a word longer than the width is cut across rows).
pub(super) fn wrapped_height(lines: &[Line<'_>], width: u16) -> usize {
    let w = usize::from(width.max(1));
    lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            // `fresh`: a wrapped row with nothing on it yet (the spaces at a
            // wrap are dropped; those starting the line are kept).
            let (mut rows, mut used, mut fresh) = (1, 0, false);
            for (i, word) in text.split(' ').enumerate() {
                let n = word.chars().count();
                let empty_row = i == 0 || fresh;
                let need = if empty_row { n } else { used + 1 + n };
                if need <= w {
                    used = need;
                    fresh = fresh && n == 0;
                } else {
                    rows += usize::from(!empty_row) + n.saturating_sub(1) / w;
                    used = if n == 0 { 0 } else { (n - 1) % w + 1 };
                    fresh = n == 0;
                }
            }
            rows
        })
        .sum::<usize>()
}
