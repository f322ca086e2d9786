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
use super::text::{cols, cut_to, text_rows, wrapped_height};
use super::theme::{Theme, disc_label, theme};
use super::words::{
    self, level_name, outcome as outcome_text, rules as rules_text, seconds, side, side_name,
};
use crate::i18n::{Lang, tr};
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

fn player_name(lang: Lang, m: &Match, color: Color) -> String {
    if let Some(name) = m.recorded_name(color) {
        return name.to_string();
    }
    match m.player(color) {
        Player::Human if m.human_colour().is_some() => tr(lang, "player-you"),
        Player::Human => tr(lang, "player-human"),
        Player::Ai(level) => tr!(
            lang,
            "player-ai",
            n = level.number(),
            name = level_name(lang, level)
        ),
    }
}

/// The columns of a cut player's name that keep it beside its count.
const NAME_SHOWN: usize = 10;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_ASCII: [&str; 4] = ["|", "/", "-", "\\"];

fn turn_line(app: &App, m: &Match, th: &Theme) -> Line<'static> {
    let lang = app.lang;
    let game = &m.game;
    match game.status() {
        Status::GameOver => Line::from(Span::styled(tr(lang, "turn-game-over"), th.title)),
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
                    Span::styled(format!("{} {spin} ", tr(lang, "turn-weighing")), th.title),
                    Span::raw(seconds(lang, secs.as_secs_f64(), 1)),
                ])
            } else if let Some(job) = &m.ai {
                let (secs, spin) = spinner(job.started);
                let mut spans = vec![
                    Span::styled(
                        format!("{} {spin} ", tr!(lang, "turn-thinking", side = who)),
                        th.title,
                    ),
                    Span::raw(seconds(lang, secs.as_secs_f64(), 1)),
                ];
                if let Some(p) = &job.progress {
                    spans.push(Span::styled(
                        format!(
                            "  d{} {} {}",
                            p.depth,
                            p.best_move,
                            super::words::score(lang, p.score)
                        ),
                        th.dim,
                    ));
                }
                Line::from(spans)
            } else if m.paused && m.player(c).is_ai() {
                Line::from(Span::styled(tr!(lang, "turn-paused", side = who), th.title))
            } else if m.player(c) == Player::Human && m.human_colour().is_some() {
                Line::from(Span::styled(tr!(lang, "turn-yours", side = who), th.title))
            } else {
                Line::from(Span::styled(
                    tr!(lang, "turn-to-move", side = who),
                    th.title,
                ))
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
    let lang = app.lang;
    let Mode::Replay(r) = &m.mode else {
        return;
    };
    lines.push(Line::from(Span::styled(
        fix(app.look, &replay::header(lang, m)),
        th.title,
    )));
    let what = match m.shown_move() {
        None => tr(lang, "replay-start"),
        Some((before, mv)) => {
            let mover = side(before.side_to_move());
            match mv {
                Move::Pass => tr!(lang, "replay-passed", side = mover),
                Move::Place(sq) => tr!(
                    lang,
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
                &format!(
                    " {} ",
                    tr!(lang, "game-over", result = outcome_text(lang, outcome))
                ),
            ),
            th.banner,
        )));
    }
    for v in review::verdict(lang, m) {
        lines.push(Line::from(Span::styled(fix(app.look, &v), th.dim)));
    }
    lines.extend(
        review::panel_lines(lang, m, app.book.as_deref(), th)
            .into_iter()
            .map(|l| {
                Line::from(
                    l.spans
                        .into_iter()
                        .map(|s| Span::styled(fix(app.look, &s.content), s.style))
                        .collect::<Vec<_>>(),
                )
            }),
    );
    if r.autoplay.is_some() {
        lines.push(Line::from(Span::styled(
            tr!(
                lang,
                "autoplay-every",
                time = seconds(lang, replay::step_delay(r.pace).as_secs_f64(), 2)
            ),
            th.dim,
        )));
    }
}

/// The panel's top part: title, players with counts, turn or result, status.
pub(super) fn panel_lines(app: &App, m: &Match, width: u16) -> Vec<Line<'static>> {
    let lang = app.lang;
    let th = theme(app.look);
    let game = &m.game;
    let position = game.position();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let rules = game.rules();
    lines.push(Line::from(vec![
        Span::styled("Reversi", th.title),
        Span::styled(format!("  {}", rules_text(lang, rules)), th.dim),
    ]));
    // The opening's name, under the title, on the row kept blank without one.
    let opening = words::opening(lang, game).unwrap_or_default();
    lines.push(Line::from(Span::styled(
        cut_to(&opening, usize::from(width).saturating_sub(1)),
        th.dim,
    )));
    let to_move = (!position.is_game_over()).then(|| position.side_to_move());
    // The names' column: as wide as the longer name and a space, at least 6.
    let name_width = Color::ALL
        .iter()
        .map(|&c| side_name(lang, c).chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(6);
    for color in Color::ALL {
        let marker = if to_move == Some(color) {
            if app.look.ascii { ">" } else { "▶" }
        } else {
            " "
        };
        let name = player_name(lang, m, color);
        let count = format!("{:>2}", position.count(color));
        let style = if to_move == Some(color) {
            th.title
        } else {
            Style::new()
        };
        let head = format!("{marker} {} ", disc_label(app.look, color));
        let left = format!("{head}{:<name_width$}{name}", side_name(lang, color));
        // A recorded name (free text from a file) too long for the row is
        // cut with "…" where a good part of it still shows; our own labels,
        // and any name on a narrower panel, go on the next row, under the
        // side's name. Either way the count stays where the other side's is.
        let shown = room_beside(count.len(), width).saturating_sub(cols(&left) - cols(&name));
        let cut = m.recorded_name(color).is_some() && shown >= NAME_SHOWN;
        let (left, below) = if cut || fits_beside(&left, count.len(), width) {
            (left, None)
        } else {
            (format!("{head}{}", side_name(lang, color)), Some(name))
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
            let note = match outcome.winner {
                Some(_) if rules.anti => tr(lang, "empties-against-loser-note"),
                Some(_) => tr(lang, "empties-to-winner-note"),
                None => tr(lang, "empties-shared-note"),
            };
            format!(" ({note})")
        } else {
            String::new()
        };
        let text = format!(
            " {}{rule} ",
            tr!(lang, "game-over", result = outcome_text(lang, outcome))
        );
        lines.push(Line::from(Span::styled(fix(app.look, &text), th.banner)));
        let mut keys = vec![
            Span::styled("n", th.key),
            Span::raw(format!(" {}  ", tr(lang, "key-new-game"))),
        ];
        keys.extend([
            Span::styled("v", th.key),
            Span::raw(format!(" {}  ", tr(lang, "key-replay"))),
        ]);
        keys.extend([
            Span::styled("q", th.key),
            Span::raw(format!(" {}", tr(lang, "key-quit"))),
        ]);
        lines.push(Line::from(keys));
    } else {
        lines.push(turn_line(app, m, &th));
        if let Some(c) = m.input.typed() {
            lines.push(Line::from(vec![
                Span::styled(format!("{c}_"), th.key),
                Span::styled(format!(" {}", tr(lang, "typed-row")), th.dim),
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

/// The columns left of a `right_len`-column figure on a `width`-column row,
/// with a space before the figure and the last column kept free, as the
/// rows above do.
fn room_beside(right_len: usize, width: u16) -> usize {
    usize::from(width).saturating_sub(right_len + 2)
}

/// Whether `left` and a `right_len`-column figure fit on a `width`-column
/// row ([`room_beside`]).
fn fits_beside(left: &str, right_len: usize, width: u16) -> bool {
    cols(left) <= room_beside(right_len, width)
}

/// `left` and the spaces that put a `right_len`-column figure against the
/// right edge of a `width`-column row, with at least one space between: a
/// `left` too long for that loses its end to a `…`, so the figure never
/// runs into it or onto another row.
#[must_use]
pub fn beside(left: String, right_len: usize, width: u16) -> (String, usize) {
    let room = room_beside(right_len, width);
    let left = cut_to(&left, room);
    let pad = room + 1 - cols(&left).min(room);
    (left, pad)
}
