//! `view(&Online)`: draws the online screen from its model — the connect
//! form, the lobby's table list, the create form, and a table with the same
//! board widget as a local game, the names and clocks, the connection line,
//! the move list and the chat. Text from other players arrives cleaned by
//! the update; nothing here prints server text raw.

use super::super::board::{self, BoardView};
use super::super::layout::{ScreenLayout, centred, layout};
use super::super::model::Look;
use super::super::panel::fix;
use super::super::text::{cols, cut_to, shorten_paths, text_rows, wrapped_height};
use super::super::theme::{Theme, boxed, disc_label, draw_window, theme};
use super::super::widgets::{draw_confirm, footer_line, too_small_with};
use super::model::{
    CLOCKS, ConnectForm, CreateForm, Link, Online, Overlay, Screen, Sitter, TableView, chat_rows,
};
use super::update::may_join;
use super::words::{self, KeysOf};
use crate::i18n::Lang;
use crate::net::protocol::{Side, TableInfo};
use crate::rules::Color;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Padding, Paragraph, Wrap};

/// The online model and how the app draws it.
#[derive(Clone, Copy)]
struct Drawing<'a> {
    /// The model.
    app: &'a Online,
    /// Glyphs and colours.
    look: Look,
}

/// Draws the whole online screen with `look`.
pub fn view(app: &Online, look: Look, frame: &mut Frame<'_>) {
    let lang = app.lang;
    let d = Drawing { app, look };
    let area = frame.area();
    let th = theme(d.look);
    let (w, h) = d.app.needed_size();
    if area.width < w || area.height < h {
        too_small_with(
            lang,
            frame,
            d.look,
            area,
            w,
            h,
            &crate::i18n::tr(lang, "too-small-enlarge-online"),
        );
        return;
    }
    if !matches!(d.app.screen, Screen::Connect(_)) {
        let trouble = match &d.app.link {
            Link::Unreachable(reason) => Some((
                words::unreachable(lang, &d.app.server.url, reason),
                words::unreachable_keys(lang),
            )),
            Link::Refused(code) => Some((
                words::refused(lang, &words::refusal(lang, *code)),
                words::unreachable_keys(lang),
            )),
            Link::Taken => Some((
                words::taken(lang, &d.app.server.name),
                words::take_back_keys(lang),
            )),
            Link::Replaced => Some((words::replaced(lang), words::take_back_keys(lang))),
            _ => None,
        };
        if let Some((text, keys)) = trouble {
            draw_trouble(lang, frame, d.look, area, &text, &keys);
            return;
        }
    }
    match &d.app.screen {
        Screen::Connect(form) => draw_connect(frame, d, form, area),
        Screen::Lobby { selected } => draw_lobby(frame, d, *selected, area),
        Screen::Create(form) => draw_create(frame, d, form, area),
        Screen::Table(t) => draw_table(frame, d, t, area),
    }
    if !matches!(d.app.screen, Screen::Table(_))
        && let Some(s) = &d.app.status
    {
        // A long message wraps upwards over the screen's last free rows; a
        // path in it is shortened so that wrapping never splits it.
        let text = fix(d.look, &shorten_paths(s, usize::from(area.width)));
        let line = Line::from(Span::styled(text, th.status));
        let rows = (wrapped_height(std::slice::from_ref(&line), area.width) as u16).clamp(1, 3);
        let rect = Rect::new(
            area.x,
            area.bottom().saturating_sub(1 + rows),
            area.width,
            rows,
        );
        frame.render_widget(Clear, rect);
        frame.render_widget(
            Paragraph::new(line).centered().wrap(Wrap { trim: true }),
            rect,
        );
    }
    match &d.app.overlay {
        Some(Overlay::Help) => draw_help(frame, d, area),
        Some(Overlay::ConfirmResign) => {
            let [title, question] = words::confirm_resign(lang);
            draw_confirm(lang, frame, d.look, area, &title, &[question]);
        }
        Some(Overlay::ConfirmLeave) => {
            let [title, question] = words::confirm_leave(lang);
            draw_confirm(lang, frame, d.look, area, &title, &[question]);
        }
        Some(Overlay::UndoAsked { by, moves }) => {
            let text = words::undo_asked(lang, by, *moves);
            draw_question(frame, d.look, area, &words::undo_title(lang), &[text]);
        }
        Some(Overlay::Claim { name }) => {
            let [title, question, choices] = words::claim(lang, name);
            draw_question(frame, d.look, area, &title, &[question, choices]);
        }
        None => {}
    }
}

/// A centred window with `title` and `lines`, each as wide as it needs.
fn draw_question(frame: &mut Frame<'_>, look: Look, area: Rect, title: &str, lines: &[String]) {
    // Each line wrapped to the screen, a column of space inside each border.
    let room = usize::from(area.width.saturating_sub(4));
    let lines: Vec<Line<'static>> = lines
        .iter()
        .flat_map(|l| text_rows(&fix(look, l), room))
        .map(Line::from)
        .collect();
    let widest = lines.iter().map(Line::width).max().unwrap_or(0);
    let width = (u16::try_from(widest).unwrap_or(u16::MAX).saturating_add(4)).min(area.width);
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height);
    draw_window(frame, look, rect, title, lines);
}

/// The connection's one-line state, styled.
fn link_span(d: Drawing<'_>, th: &Theme) -> Span<'static> {
    let lang = d.app.lang;
    let warn = if d.look.color {
        Style::new().fg(Tint::Yellow).add_modifier(Modifier::BOLD)
    } else {
        Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
    };
    let (text, style) = match &d.app.link {
        Link::Off => (words::offline(lang), th.dim),
        Link::Connecting => (words::connecting(lang), warn),
        Link::Connected => (words::connected(lang), th.dim),
        Link::Reconnecting { attempt, next, .. } => {
            let next_in = next.map(|at| at.saturating_duration_since(d.app.now));
            (words::reconnecting(lang, *attempt, next_in), warn)
        }
        Link::Unreachable(_) | Link::Refused(_) | Link::Taken | Link::Replaced => {
            (words::offline(lang), warn)
        }
    };
    Span::styled(fix(d.look, &text), style)
}

/// A window over the screen saying why the connection is over, and the keys.
fn draw_trouble(lang: Lang, frame: &mut Frame<'_>, look: Look, area: Rect, text: &str, keys: &str) {
    let th = theme(look);
    let width = 70.min(area.width);
    // A column of space inside each border.
    let inner = usize::from(width.saturating_sub(4));
    let mut lines: Vec<Line<'static>> = text_rows(&fix(look, text), inner)
        .into_iter()
        .map(Line::from)
        .collect();
    lines.push(Line::from(""));
    for row in text_rows(keys, inner) {
        lines.push(Line::from(Span::styled(row, th.key)));
    }
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height.min(area.height));
    frame.render_widget(
        Paragraph::new(lines)
            .centered()
            .block(boxed(look, &words::connect(lang), &th).padding(Padding::horizontal(1))),
        rect,
    );
}

/// The `?` window: the keys of the screen shown, from its key table.
fn draw_help(frame: &mut Frame<'_>, d: Drawing<'_>, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let table: &[super::keys::Binding] = match d.app.screen {
        Screen::Table(_) => &super::keys::TABLE_KEYS,
        _ => &super::keys::LOBBY_KEYS,
    };
    let rows: Vec<(String, String)> = table.iter().map(|b| words::help_row(lang, b)).collect();
    let column = rows
        .iter()
        .map(|(k, _)| k.chars().count() + 2)
        .max()
        .unwrap_or(0);
    let widest = rows
        .iter()
        .map(|(_, h)| h.chars().count())
        .max()
        .unwrap_or(0);
    let width = u16::try_from(column + widest + 4)
        .unwrap_or(u16::MAX)
        .min(area.width);
    let lines: Vec<Line<'static>> = rows
        .iter()
        .map(|(k, h)| {
            let k = if d.look.ascii {
                let arrows = crate::i18n::tr(lang, "key-arrows");
                k.replace("←↑↓→", &arrows).replace("↑↓", &arrows)
            } else {
                k.clone()
            };
            Line::from(vec![
                Span::styled(format!(" {k:<column$}"), th.key),
                Span::raw(fix(d.look, h)),
            ])
        })
        .collect();
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height);
    let [title, close] = words::help_title(lang);
    let block = boxed(d.look, &title, &th).title_bottom(
        Line::from(Span::styled(format!(" {} ", fix(d.look, &close)), th.dim)).centered(),
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        rect,
    );
}

/// The keys of a footer `width` columns wide, those that fit
/// ([`fit_footer`]).
fn keys_line(look: Look, keys: &[(String, String)], th: &Theme, width: u16) -> Line<'static> {
    let keys = keys
        .iter()
        .map(|(k, what)| (fix(look, k), fix(look, what)))
        .collect();
    footer_line(keys, width, th)
}

fn draw_connect(frame: &mut Frame<'_>, d: Drawing<'_>, form: &ConnectForm, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let rect = centred(area, 60.min(area.width), 9);
    let mut lines = Vec::new();
    for (i, name) in words::connect_fields(lang).iter().enumerate() {
        let value = if i == 0 { &form.url } else { &form.name };
        let selected = i == form.field;
        let marker = if selected { "> " } else { "  " };
        let cursor = if selected { "_" } else { "" };
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(
                format!("{name:<11}"),
                if selected { th.title } else { th.dim },
            ),
            Span::styled(
                format!("{value}{cursor}"),
                if selected { th.selected } else { Style::new() },
            ),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(keys_line(
        d.look,
        &words::keys(lang, KeysOf::Connect),
        &th,
        rect.width.saturating_sub(2),
    ));
    frame.render_widget(
        Paragraph::new(lines).block(boxed(d.look, &words::connect(lang), &th)),
        rect,
    );
}

/// The cells of one lobby row.
fn lobby_row(lang: Lang, t: &TableInfo) -> [String; 7] {
    let players = match (&t.black, &t.white) {
        (Some(b), Some(w)) => format!("{} – {}", words::seat(b), words::seat(w)),
        _ => {
            let mut names: Vec<String> = t.players.iter().map(words::seat).collect();
            if names.len() < 2 {
                names.push(format!("({})", words::opponent(lang, &t.opponent)));
            }
            names.join(" – ")
        }
    };
    [
        t.id.to_string(),
        players,
        words::variant(lang, t.variant),
        words::scoring(lang, t.scoring),
        words::clock(lang, t.clock),
        words::status(lang, t.status),
        t.spectators.to_string(),
    ]
}

/// The lobby's column widths: each as wide as its widest cell plus two spaces,
/// the players' column taking what is left of `width` (at least 12).
fn lobby_widths(rows: &[[String; 7]], width: usize) -> [usize; 7] {
    let mut w = [0usize; 7];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            w[i] = w[i].max(cell.chars().count() + 2);
        }
    }
    let others: usize = w
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 1)
        .map(|(_, x)| x)
        .sum();
    w[1] = w[1].min(width.saturating_sub(others + 1)).max(12);
    w
}

fn draw_lobby(frame: &mut Frame<'_>, d: Drawing<'_>, selected: usize, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let me = d.app.me.as_deref().unwrap_or(&d.app.server.name);
    let header = Line::from(vec![
        Span::styled(format!(" {} ", words::lobby(lang,)), th.title),
        Span::styled(format!(" {}  ", d.app.server.url), th.dim),
        Span::raw(format!("{}   ", words::you_are(lang, me))),
        link_span(d, &th),
    ]);
    let mut lines = vec![header, Line::from("")];
    let mut rows = vec![words::lobby_columns(lang)];
    rows.extend(d.app.tables.iter().map(|t| lobby_row(lang, t)));
    let widths = lobby_widths(&rows, usize::from(area.width));
    // A cell cut to its column ends in a mark, so a long name is not
    // taken for a shorter one.
    let cut = if d.look.ascii { '~' } else { '…' };
    let cells = |cells: &[String; 7]| -> String {
        cells
            .iter()
            .zip(widths)
            .map(|(c, w)| {
                let c: String = if c.chars().count() > w - 1 {
                    c.chars().take(w.saturating_sub(2)).chain([cut]).collect()
                } else {
                    c.clone()
                };
                format!("{c:<w$}")
            })
            .collect::<String>()
    };
    lines.push(Line::from(Span::styled(
        format!(" {}", cells(&rows[0])),
        th.title,
    )));
    if d.app.tables.is_empty() {
        lines.push(Line::from(Span::styled(
            format!(" {}", words::no_tables(lang,)),
            th.dim,
        )));
    }
    let room = usize::from(area.height.saturating_sub(7));
    let first = selected.saturating_sub(room.saturating_sub(1));
    for (i, t) in d.app.tables.iter().enumerate().skip(first).take(room) {
        let text = fix(d.look, &format!(" {}", cells(&rows[i + 1])));
        let mut style = if may_join(t, d.app.me.as_deref()) {
            Style::new()
        } else {
            th.dim
        };
        if i == selected {
            style = th.selected;
        }
        lines.push(Line::from(Span::styled(text, style)));
    }
    frame.render_widget(Paragraph::new(lines), area);
    let footer = Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1);
    let keys = keys_line(d.look, &words::keys(lang, KeysOf::Lobby), &th, footer.width);
    frame.render_widget(Paragraph::new(keys).centered(), footer);
}

fn create_value(lang: Lang, form: &CreateForm, field: usize) -> String {
    match field {
        0 => words::variant(lang, form.variant),
        1 => words::scoring(lang, form.scoring),
        2 => words::colour(lang, form.colour),
        3 => words::clock(
            lang,
            CLOCKS[form.clock.min(CLOCKS.len() - 1)].map(|(b, i)| {
                crate::net::protocol::ClockSpec {
                    base_ms: b * 1000,
                    increment_ms: i * 1000,
                }
            }),
        ),
        _ => match form.sitter {
            Sitter::Person => words::any_person(lang),
            Sitter::Invited if form.typing_name() => {
                format!("{}_", words::invitee(lang, &form.invitee))
            }
            Sitter::Invited => words::invitee(lang, &form.invitee),
            Sitter::Ai(level) => words::server_ai(lang, level),
        },
    }
}

fn draw_create(frame: &mut Frame<'_>, d: Drawing<'_>, form: &CreateForm, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let rect = centred(area, 54.min(area.width), 11);
    let mut lines = Vec::new();
    for (i, name) in words::create_fields(lang).iter().enumerate() {
        let selected = i == form.field;
        let (l, r) = if selected { ("< ", " >") } else { ("  ", "  ") };
        lines.push(Line::from(vec![
            Span::raw(match (selected, d.look.ascii) {
                (false, _) => "  ",
                (true, false) => "▸ ",
                (true, true) => "> ",
            }),
            Span::styled(
                format!("{name:<15}"),
                if selected { th.title } else { Style::new() },
            ),
            Span::styled(
                fix(d.look, &format!("{l}{}{r}", create_value(lang, form, i))),
                if selected { th.selected } else { Style::new() },
            ),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(keys_line(
        d.look,
        &words::keys(lang, KeysOf::Create),
        &th,
        rect.width.saturating_sub(2),
    ));
    frame.render_widget(
        Paragraph::new(lines).block(boxed(d.look, &words::create(lang), &th)),
        rect,
    );
}

fn draw_table(frame: &mut Frame<'_>, d: Drawing<'_>, t: &TableView, area: Rect) {
    let lang = d.app.lang;
    let size = t.view.game.rules().size;
    let ScreenLayout::Game {
        board: geo,
        panel,
        footer,
    } = layout(area, size)
    else {
        let (w, h) = d.app.needed_size();
        too_small_with(
            lang,
            frame,
            d.look,
            area,
            w,
            h,
            &crate::i18n::tr(lang, "too-small-enlarge-online"),
        );
        return;
    };
    let view = BoardView {
        game: &t.view.game,
        cursor: (t.you().is_some() && t.is_playing()).then(|| t.input.cursor()),
        hint: &[],
        dots: d.app.dots && t.is_our_turn(),
        look: d.look,
        lang,
    };
    board::draw(&view, &geo, frame.buffer_mut());
    draw_panel(frame, d, t, panel);
    draw_footer(frame, d, t, footer);
}

fn clock_span(d: Drawing<'_>, t: &TableView, side: Side, th: &Theme) -> Span<'static> {
    let Some(c) = &t.clocks else {
        return Span::raw("");
    };
    let left = c.remaining(side, t.to_move, d.app.now);
    let mut style = if t.to_move == Some(side) {
        Style::new().add_modifier(Modifier::BOLD)
    } else {
        th.dim
    };
    if c.is_low(left) {
        style = if d.look.color {
            style.fg(Tint::Red).add_modifier(Modifier::BOLD)
        } else {
            style.add_modifier(Modifier::REVERSED)
        };
    }
    Span::styled(words::time_left(left), style)
}

fn panel_lines(d: Drawing<'_>, t: &TableView, width: u16) -> Vec<Line<'static>> {
    let lang = d.app.lang;
    let th = theme(d.look);
    let mut lines = vec![Line::from(vec![
        Span::styled(words::table_title(lang, t.info.id), th.title),
        Span::styled(
            fix(
                d.look,
                &format!(
                    " · {} · {}",
                    words::variant(lang, t.info.variant),
                    words::clock(lang, t.info.clock)
                ),
            ),
            th.dim,
        ),
    ])];
    if let Some(name) = super::super::words::opening(lang, &t.view.game) {
        lines.push(Line::from(Span::styled(
            cut_to(&name, usize::from(width).saturating_sub(1)),
            th.dim,
        )));
    }
    let position = t.view.game.position();
    for side in [Side::Black, Side::White] {
        let color = Color::from(side);
        let mut name = t.name(side);
        if t.you() == Some(side) {
            name = format!("{name} ({})", words::you(lang,));
        }
        // Before the draw, the seats are only the order the players sat in:
        // no disc, no count.
        let (disc, count) = if t.colours_drawn() {
            (
                disc_label(d.look, color),
                format!("{:>2}", position.count(color)),
            )
        } else {
            ("?", "  ".to_string())
        };
        let clock = clock_span(d, t, side, &th);
        let clock_len = cols(&clock.content);
        // A name too long for the row loses its end, so that the count and
        // the clock stay on it (the turn line and the result name it whole).
        let left = cut_to(
            &format!("{disc} {name}"),
            usize::from(width).saturating_sub(5 + clock_len),
        );
        let pad = usize::from(width).saturating_sub(cols(&left) + 4 + clock_len);
        let style = if t.to_move == Some(side) {
            th.title
        } else {
            Style::new()
        };
        lines.push(Line::from(vec![
            Span::styled(left, style),
            Span::raw(format!(" {count}{}", " ".repeat(pad.max(1)))),
            clock,
        ]));
    }
    let turn = match (&t.view.result, t.to_move) {
        (Some(r), _) => {
            let names = [t.name(Side::Black), t.name(Side::White)];
            Span::styled(
                fix(d.look, &words::result(lang, r, [&names[0], &names[1]])),
                th.banner,
            )
        }
        (None, Some(side)) => {
            let ours = t.you() == Some(side);
            Span::styled(
                fix(
                    d.look,
                    &words::to_move(lang, &words::side(lang, side), &t.name(side), ours),
                ),
                th.title,
            )
        }
        (None, None) if t.colours_drawn() => Span::styled(words::waiting(lang), th.dim),
        (None, None) => Span::styled(words::waiting_for_draw(lang), th.dim),
    };
    lines.push(Line::from(turn));
    if let Some(invitation) = d.app.invitation() {
        lines.push(Line::from(Span::styled(words::invite(lang), th.dim)));
        lines.push(Line::from(Span::styled(invitation, th.key)));
    }
    lines.extend(away_lines(d, t, &th));
    let mut link = vec![link_span(d, &th)];
    let watching = words::watching(lang, t.info.spectators);
    if !watching.is_empty() {
        link.push(Span::styled(fix(d.look, &format!(" · {watching}")), th.dim));
    }
    lines.push(Line::from(link));
    if let Some(s) = &d.app.status {
        // Whole, paths included (a saved game's path is where the player
        // learns where the file is).
        for row in text_rows(&fix(d.look, s), usize::from(width)) {
            lines.push(Line::from(Span::styled(row, th.status)));
        }
    }
    lines
}

/// A line for each player whose connection is gone while the game runs:
/// to their opponent with when the game may be claimed (when it may).
fn away_lines(d: Drawing<'_>, t: &TableView, th: &Theme) -> Vec<Line<'static>> {
    let lang = d.app.lang;
    if !t.is_playing() {
        return Vec::new();
    }
    let warn = if d.look.color {
        Style::new().fg(Tint::Yellow).add_modifier(Modifier::BOLD)
    } else {
        th.title
    };
    [Side::Black, Side::White]
        .into_iter()
        .filter_map(|side| {
            let away = t.away[side.index()]?;
            let ours = t.opponent_away().is_some_and(|(s, _)| s == side);
            let claim_in = away
                .claim_at
                .filter(|_| ours)
                .map(|at| at.saturating_duration_since(d.app.now));
            let text = words::away(lang, &t.name(side), claim_in);
            Some(Line::from(Span::styled(fix(d.look, &text), warn)))
        })
        .collect()
}

fn draw_panel(frame: &mut Frame<'_>, d: Drawing<'_>, t: &TableView, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let lines = panel_lines(d, t, area.width);
    // Rows as wrapped, so that a long status line is not cut.
    let top = (wrapped_height(&lines, area.width) as u16 + 1).min(area.height);
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: false }),
        Rect::new(area.x, area.y, area.width, top),
    );
    let rest = area.height.saturating_sub(top + 1);
    let chat_h = (rest / 2).clamp(0, 8);
    let moves = Rect::new(area.x, area.y + top + 1, area.width, rest - chat_h);
    super::super::moves::draw(lang, frame, &t.view.game, &|_| None, d.look, moves, &th);
    let chat = Rect::new(area.x, moves.bottom(), area.width, chat_h);
    draw_chat(d, frame, t, chat, &th);
}

fn draw_chat(d: Drawing<'_>, frame: &mut Frame<'_>, t: &TableView, area: Rect, th: &Theme) {
    if area.height < 2 {
        return;
    }
    let lang = d.app.lang;
    let width = usize::from(area.width);
    // The line being typed shows its end (with the cursor) when it is
    // longer than the panel.
    let typing = t.typing.as_ref().map(|s| {
        let n = s.chars().count();
        let fits = width.saturating_sub(3);
        let shown = if n > fits {
            let tail: String = s.chars().skip(n + 1 - fits.max(1)).collect();
            format!("…{tail}")
        } else {
            s.clone()
        };
        Line::from(vec![
            Span::styled("> ", th.key),
            Span::raw(format!("{shown}_")),
        ])
    });
    // The rows that fit, the newest at the bottom unless scrolled back (and
    // a whole chat's worth even when scrolled back past the oldest).
    let room = usize::from(area.height) - 1 - usize::from(typing.is_some());
    let rows = chat_rows(&t.chat, width);
    let end = rows
        .len()
        .saturating_sub(t.chat_back)
        .max(room.min(rows.len()));
    let start = end.saturating_sub(room);
    let title = if end < rows.len() {
        words::chat_older(lang)
    } else {
        words::chat(lang)
    };
    let mut lines = vec![Line::from(Span::styled(
        cut_to(&fix(d.look, &title), width),
        th.title,
    ))];
    lines.extend(rows[start..end].iter().map(|(row, name)| {
        let split = row.char_indices().nth(*name).map_or(row.len(), |(i, _)| i);
        let (name, text) = row.split_at(split);
        Line::from(vec![
            Span::styled(name.to_string(), th.dim),
            Span::raw(text.to_string()),
        ])
    }));
    lines.extend(typing);
    frame.render_widget(Paragraph::new(lines), area);
}

fn draw_footer(frame: &mut Frame<'_>, d: Drawing<'_>, t: &TableView, area: Rect) {
    let lang = d.app.lang;
    let th = theme(d.look);
    let keys = words::keys(
        lang,
        if t.typing.is_some() {
            KeysOf::Typing
        } else if t.view.result.is_some() {
            KeysOf::Over
        } else if t.may_claim(d.app.now) {
            KeysOf::Claimable
        } else if d.app.invitation().is_some() {
            KeysOf::Waiting
        } else if t.you().is_some() {
            KeysOf::Playing
        } else {
            KeysOf::Watching
        },
    );
    frame.render_widget(
        Paragraph::new(keys_line(d.look, &keys, &th, area.width)).centered(),
        area,
    );
}
