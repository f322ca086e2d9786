//! `view(&App)`: draws a frame from the model and nothing else. The board comes
//! from [`super::board`], its place from [`super::layout`]; this module adds
//! the side panel (players, counts, turn, status, move list), the footer, the
//! game-over banner, the too-small screen and the overlays.

use super::app::{App, Look, Match, Mode, Overlay, Player, Screen};
use super::board::{self, BoardView};
use super::layout::{MoveList, ScreenLayout, centred, layout, moves_area};
use super::newgame;
use super::replay;
use super::theme::{Theme, disc_label, theme};
use super::update::human_colour;
use super::{graph, review};
use crate::rules::{Color, Move, Scoring, Status};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Wrap};

/// Whether a screen of `area` is too small for what `app` shows: "Terminal
/// too small" is drawn instead (and game keys are ignored, since their effect
/// could not be seen).
#[must_use]
pub fn is_too_small(app: &App, area: Rect) -> bool {
    match &app.screen {
        Screen::NewGame(_) => {
            let (w, h) = newgame::FORM_SIZE;
            area.width < w || area.height < h
        }
        Screen::Play(m) => matches!(
            layout(area, m.game.rules().size),
            ScreenLayout::TooSmall { .. }
        ),
    }
}

/// Draws the whole screen for `app`.
pub fn view(app: &App, frame: &mut Frame<'_>) {
    let area = frame.area();
    match &app.screen {
        Screen::NewGame(form) => {
            let (w, h) = newgame::FORM_SIZE;
            if is_too_small(app, area) {
                too_small(frame, app.look, area, w, h);
                return;
            }
            newgame::draw(frame, form, app.look, area, app.suspended.is_some());
            if let Some(s) = &app.status {
                // Below the form: as many rows as the message needs there.
                let text = fix(app.look, &shorten_paths(s, usize::from(area.width)));
                let line = Line::from(Span::styled(text, theme(app.look).status));
                let below = area.height.saturating_sub(h) / 2;
                let need = wrapped_height(std::slice::from_ref(&line), area.width) as u16;
                let rows = need.min(below.max(2)).min(area.height);
                let rect = Rect::new(area.x, area.bottom() - rows, area.width, rows);
                frame.render_widget(
                    Paragraph::new(line).centered().wrap(Wrap { trim: true }),
                    rect,
                );
            }
        }
        Screen::Play(m) => match layout(area, m.game.rules().size) {
            ScreenLayout::TooSmall { width, height } => {
                too_small(frame, app.look, area, width, height);
                return;
            }
            ScreenLayout::Game {
                board: geo,
                panel,
                footer,
            } => {
                let replaying = matches!(m.mode, Mode::Replay(_));
                let view = BoardView {
                    game: m,
                    dots: app.dots && !replaying,
                    cursor: !replaying,
                    look: app.look,
                };
                board::draw(&view, &geo, frame.buffer_mut());
                draw_panel(frame, app, m, panel);
                draw_footer(frame, app, m, footer);
            }
        },
    }
    match &app.overlay {
        Some(Overlay::Help) => draw_help(frame, app.look, area),
        Some(Overlay::ConfirmQuit) => draw_confirm(
            frame,
            app.look,
            area,
            "Quit",
            &[
                "The game is not finished.",
                "k quits and keeps it to resume next time;",
                "n goes back to it.",
                "Quit and discard the game?",
            ],
        ),
        Some(Overlay::ConfirmContinue) => {
            let later = app.current().map_or(0, |m| m.game.len() - m.game.ply());
            let text = format!("The {later} later moves will be dropped.");
            draw_confirm(
                frame,
                app.look,
                area,
                "Continue from here",
                &[&text, "Play on from this move?"],
            );
        }
        Some(Overlay::Resume(setup)) => {
            let text = format!("An unfinished game ({} moves) was saved.", setup.game.len());
            draw_confirm(frame, app.look, area, "Resume", &[&text, "Resume it?"]);
        }
        None => {}
    }
}

fn too_small(frame: &mut Frame<'_>, look: Look, area: Rect, w: u16, h: u16) {
    let th = theme(look);
    let x = if look.ascii { "x" } else { "×" };
    let text = vec![
        Line::from(Span::styled("Terminal too small", th.title)),
        Line::from(format!(
            "need {w}{x}{h}, have {}{x}{}",
            area.width, area.height
        )),
        Line::from("Enlarge the window (q quits)"),
    ];
    let rect = centred(area, area.width, 4);
    frame.render_widget(
        Paragraph::new(text).centered().wrap(Wrap { trim: true }),
        rect,
    );
}

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
    match m.player(color) {
        Player::Human if human_colour(m).is_some() => "You".into(),
        Player::Human => "Human".into(),
        Player::Ai(level) => format!("AI {} {}", level.number(), level.name()),
    }
}

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_ASCII: [&str; 4] = ["|", "/", "-", "\\"];

fn turn_line(app: &App, m: &Match, th: &Theme) -> Line<'static> {
    let game = &m.game;
    match game.status() {
        Status::GameOver => Line::from(Span::styled("Game over", th.title)),
        Status::MustPass(c) | Status::ToMove(c) => {
            let who = c.name();
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
                    Span::styled(format!("Weighing every move {spin} "), th.title),
                    Span::raw(format!("{:.1} s", secs.as_secs_f64())),
                ])
            } else if let Some(job) = &m.ai {
                let (secs, spin) = spinner(job.started);
                let mut spans = vec![
                    Span::styled(format!("{who} is thinking {spin} "), th.title),
                    Span::raw(format!("{:.1} s", secs.as_secs_f64())),
                ];
                if let Some(p) = &job.progress {
                    spans.push(Span::styled(
                        format!("  d{} {} {}", p.depth, p.best_move, p.score),
                        th.dim,
                    ));
                }
                Line::from(spans)
            } else if m.paused && m.player(c).is_ai() {
                Line::from(Span::styled(
                    format!("{who} to move (paused: Space resumes)"),
                    th.title,
                ))
            } else if m.player(c) == Player::Human && human_colour(m).is_some() {
                Line::from(Span::styled(format!("Your move ({who})"), th.title))
            } else {
                Line::from(Span::styled(format!("{who} to move"), th.title))
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
fn panel_heights(app: &App, m: &Match, panel: Rect) -> [u16; 2] {
    let lines = panel_lines(app, m, panel.width);
    let text = (wrapped_height(&lines, panel.width) as u16).min(panel.height);
    [text, graph::height(m, panel.height, text)]
}

fn draw_panel(frame: &mut Frame<'_>, app: &App, m: &Match, area: Rect) {
    let th = theme(app.look);
    let lines = panel_lines(app, m, area.width);
    let [text_h, graph_h] = panel_heights(app, m, area);
    let top = Paragraph::new(lines).wrap(Wrap { trim: false });
    frame.render_widget(top, Rect::new(area.x, area.y, area.width, text_h));
    if graph_h > 0 {
        let rect = Rect::new(area.x, area.y + text_h + 1, area.width, graph_h - 1);
        graph::draw(frame, m, app.look, rect);
    }
    draw_moves(frame, app, m, moves_area(area, text_h + graph_h), &th);
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
    let what = match replay::shown_move(m) {
        None => "The start position".to_string(),
        Some((before, mv)) => {
            let mover = before.side_to_move();
            match mv {
                Move::Pass => format!("{mover} passed (no legal move)"),
                Move::Place(sq) => {
                    let n = before.flips(sq).count();
                    format!("{mover} played {sq}: {n} flipped")
                }
            }
        }
    };
    lines.push(Line::from(what));
    if let Some(outcome) = m.game.outcome() {
        lines.push(Line::from(Span::styled(
            fix(app.look, &format!(" Game over: {outcome} ")),
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
            format!(
                "Autoplay: a move every {:.2} s",
                replay::step_delay(r.pace).as_secs_f64()
            ),
            th.dim,
        )));
    }
}

/// The panel's top part: title, players with counts, turn or result, status.
fn panel_lines(app: &App, m: &Match, width: u16) -> Vec<Line<'static>> {
    let th = theme(app.look);
    let game = &m.game;
    let position = game.position();
    let mut lines: Vec<Line<'static>> = Vec::new();
    let rules = game.rules();
    lines.push(Line::from(vec![
        Span::styled("Reversi", th.title),
        Span::styled(format!("  {rules}"), th.dim),
    ]));
    lines.push(Line::from(""));
    let to_move = (!position.is_game_over()).then(|| position.side_to_move());
    for color in Color::ALL {
        let marker = if to_move == Some(color) {
            if app.look.ascii { ">" } else { "▶" }
        } else {
            " "
        };
        let name = player_name(m, color);
        let count = position.count(color);
        let left = format!(
            "{marker} {} {:<6}{name}",
            disc_label(app.look, color),
            color.name()
        );
        let pad = (width as usize).saturating_sub(left.chars().count() + 3);
        lines.push(Line::from(vec![
            Span::styled(
                left,
                if to_move == Some(color) {
                    th.title
                } else {
                    Style::new()
                },
            ),
            Span::raw(" ".repeat(pad)),
            Span::styled(format!("{count:>2}"), th.title),
        ]));
    }
    lines.push(Line::from(""));
    if let Mode::Replay(_) = m.mode {
        replay_lines(app, m, &th, &mut lines);
    } else if let Some(outcome) = game.outcome() {
        let empties = position.empties().count();
        let rule = if rules.scoring == Scoring::EmptiesToWinner && empties > 0 {
            if outcome.winner.is_some() {
                " (empties to the winner)"
            } else {
                " (empties shared)"
            }
        } else {
            ""
        };
        let text = format!(" Game over: {outcome}{rule} ");
        lines.push(Line::from(Span::styled(fix(app.look, &text), th.banner)));
        let mut keys = vec![Span::styled("n", th.key), Span::raw(" new game  ")];
        keys.extend([Span::styled("v", th.key), Span::raw(" replay  ")]);
        keys.extend([Span::styled("q", th.key), Span::raw(" quit")]);
        lines.push(Line::from(keys));
    } else {
        lines.push(turn_line(app, m, &th));
        if let Some(c) = m.typed {
            lines.push(Line::from(vec![
                Span::styled(format!("{c}_"), th.key),
                Span::styled(" typed: now the row, 1 to 8", th.dim),
            ]));
        }
    }
    if let Some(s) = &app.status {
        let text = shorten_paths(s, usize::from(width));
        lines.push(Line::from(Span::styled(fix(app.look, &text), th.status)));
    }
    lines
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
fn wrapped_height(lines: &[Line<'_>], width: u16) -> usize {
    let w = usize::from(width.max(1));
    lines
        .iter()
        .map(|l| {
            let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
            let (mut rows, mut used) = (1, 0);
            for word in text.split(' ') {
                let n = word.chars().count();
                let need = if used == 0 { n } else { used + 1 + n };
                if need <= w {
                    used = need;
                } else {
                    rows += usize::from(used > 0) + n.saturating_sub(1) / w;
                    used = if n == 0 { 0 } else { (n - 1) % w + 1 };
                }
            }
            rows
        })
        .sum::<usize>()
}

/// The numbered move list, Black's move then White's on each row, passes
/// shown; the current move highlighted and the redo tail dimmed.
fn draw_moves(frame: &mut Frame<'_>, app: &App, m: &Match, area: Rect, th: &Theme) {
    if area.height < 2 {
        return;
    }
    let game = &m.game;
    let list = MoveList::new(area, game);
    let title = Line::from(vec![
        Span::styled("Moves", th.title),
        Span::styled(format!("  {} played", game.ply()), th.dim),
    ]);
    frame.render_widget(
        Paragraph::new(title),
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
                Some(i) => game.moves()[*i].to_string(),
                None if r[0].is_none() && app.look.ascii => "..".into(),
                None if r[0].is_none() => "…".into(),
                None => String::new(),
            };
            let style = match idx {
                Some(i) if Some(*i) == current => th.selected,
                Some(i) if *i >= game.ply() => th.dim,
                _ => Style::new(),
            };
            let class = idx.and_then(|i| review::class_of(m, i));
            let mark = class.map_or("", crate::ai::review::Class::mark);
            let cell = list.cell(y, slot);
            let pad = 4usize.saturating_sub(text.chars().count() + mark.chars().count());
            frame.render_widget(
                Paragraph::new(Line::from(vec![
                    Span::styled(text, style),
                    Span::styled(
                        mark.to_string(),
                        class.map_or(style, |c| review::class_style(app.look.color, c)),
                    ),
                    Span::styled(" ".repeat(pad), style),
                ])),
                cell,
            );
        }
    }
}

fn draw_footer(frame: &mut Frame<'_>, app: &App, m: &Match, area: Rect) {
    let th = theme(app.look);
    let ascii = app.look.ascii;
    let keys: Vec<(&str, &str)> = if let Mode::Replay(_) = m.mode {
        vec![
            (if ascii { "<-/->" } else { "←/→" }, "step"),
            ("Space", "autoplay"),
            ("c", "continue here"),
            ("a", "review"),
            ("[ ]", "mistakes"),
            ("+/-", "pace"),
            ("Home/End PgUp/PgDn", "jump"),
            ("Esc", "leave"),
            ("q", "quit"),
        ]
    } else if m.game.outcome().is_some() {
        vec![
            ("v", "replay"),
            ("n", "new game"),
            ("s", "save"),
            ("u", "step back"),
            ("?", "help"),
            ("q", "quit"),
        ]
    } else if m.has_human() {
        vec![
            (if ascii { "arrows" } else { "←↑↓→" }, "move"),
            ("Enter", "play"),
            ("u", "undo"),
            ("r", "redo"),
            ("H", "hint"),
            ("n", "new"),
            ("?", "help"),
            ("q", "quit"),
        ]
    } else {
        vec![
            ("Space", "pause"),
            ("+/-", "pace"),
            ("t", "take over"),
            ("u", "back"),
            ("n", "new"),
            ("?", "help"),
            ("q", "quit"),
        ]
    };
    // Drop entries before the last two (help, quit) until the line fits.
    let width = |keys: &[(&str, &str)]| -> usize {
        keys.iter()
            .map(|(k, w)| k.chars().count() + w.chars().count() + 3)
            .sum()
    };
    let mut keys = keys;
    while width(&keys) > usize::from(area.width) && keys.len() > 2 {
        keys.remove(keys.len() - 3);
    }
    let mut spans = Vec::new();
    for (k, what) in keys {
        spans.push(Span::styled(k.to_string(), th.key));
        spans.push(Span::styled(format!(" {what}  "), th.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).centered(), area);
}

/// A bordered box with a centred title: rounded corners, or plain ASCII with `--ascii`.
pub(super) fn boxed(look: Look, title: &str, th: &Theme) -> Block<'static> {
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

/// Every key of the game screen, with what it does.
pub const KEYS: [(&str, &str); 17] = [
    ("←↑↓→ hjkl", "move the cursor"),
    ("Enter Space", "play at the cursor"),
    ("f5 …", "type a square to play it"),
    ("click", "play the clicked square"),
    ("u / r", "undo / redo (back to your previous turn)"),
    ("H", "hint: every move's score, best highlighted"),
    ("L or .", "legal-move dots on/off"),
    ("t", "hand the side to move to the AI, or take it"),
    ("Space + -", "pause AI vs AI; AI pace faster / slower"),
    (
        "v or click",
        "replay move by move (click a move in the list)",
    ),
    ("a  [ ]", "review moves, jump: ?!/?/?? lost 1+/4+/10+ discs"),
    ("s / y", "save the game (GGF) / copy the moves"),
    ("n", "new game"),
    ("? / Esc", "this help / close a window, hide the hint"),
    (
        "q / Ctrl-C",
        "quit (asks while a game is unfinished) / at once",
    ),
    ("", ""),
    ("Rules", ""),
];

const RULES: [&str; 4] = [
    "Place a disc so that it encloses a straight line of the",
    "opponent's discs; they all turn. No legal move: you pass.",
    "When neither side can move the game ends and the most",
    "discs win (fewest in Anti Reversi).",
];

/// `text` in lines of at most `width` characters, broken between words (a
/// word longer than `width` gets a line of its own).
fn wrap_words(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

fn draw_help(frame: &mut Frame<'_>, look: Look, area: Rect) {
    let th = theme(look);
    let width = 64.min(area.width);
    // Each key's text wrapped at words under its own column when the box is narrow.
    let room = usize::from(width.saturating_sub(2 + 13)).max(8);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (k, what) in KEYS.iter().filter(|(k, _)| !k.is_empty() && *k != "Rules") {
        let k = if look.ascii {
            k.replace("←↑↓→", "arrows").replace('…', "...")
        } else {
            (*k).to_string()
        };
        for (i, part) in wrap_words(what, room).into_iter().enumerate() {
            let key = if i == 0 { k.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!(" {key:<12}"), th.key),
                Span::raw(part),
            ]));
        }
    }
    // On a short terminal the keys come first; the rules only when they fit.
    if area.height as usize >= lines.len() + RULES.len() + 4 {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(" Rules", th.title)));
        for r in RULES {
            lines.push(Line::from(format!(" {r}")));
        }
    }
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height);
    // In the border, so that it shows however little room there is.
    let block = boxed(look, "Help", &th)
        .title_bottom(Line::from(Span::styled(" Esc closes ", th.dim)).centered());
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}

pub(super) fn draw_confirm(
    frame: &mut Frame<'_>,
    look: Look,
    area: Rect,
    title: &str,
    text: &[&str],
) {
    let th = theme(look);
    let width = text
        .iter()
        .map(|t| t.chars().count() as u16 + 4)
        .max()
        .unwrap_or(0)
        .max(40);
    let rect = centred(area, width, text.len() as u16 + 3);
    let mut lines: Vec<Line<'_>> = text[..text.len() - 1]
        .iter()
        .map(|t| Line::from(t.to_string()))
        .collect();
    lines.push(Line::from(vec![
        Span::raw(format!("{} ", text[text.len() - 1])),
        Span::styled("y", th.key),
        Span::raw(" / "),
        Span::styled("n", th.key),
    ]));
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .centered()
            .block(boxed(look, title, &th)),
        rect,
    );
}
