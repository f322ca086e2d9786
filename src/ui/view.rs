//! `view(&App)`: draws a frame from the model and nothing else. The board comes
//! from [`super::board`], its place from [`super::layout`]; this module adds
//! the side panel (players, counts, turn, status, move list), the footer, the
//! game-over banner, the too-small screen and the overlays; the panel's text
//! comes from [`super::panel`].

use super::app::{App, Overlay, Screen};
use super::board::{self, BoardView};
use super::keys::{
    Action, FOOTER_OVER, FOOTER_PLAYING, FOOTER_WATCHING, GAME_KEYS, Key, REPLAY_KEYS, footer,
};
use super::layout::{FORM_SIZE, ScreenLayout, centred, layout, moves_area};
use super::model::{Look, Match, Mode};
use super::newgame;
use super::panel::{fix, panel_heights, panel_lines};
use super::text::{shorten_paths, text_rows};
use super::theme::{boxed, theme};
use super::widgets::{draw_choices, draw_confirm, footer_line, too_small_with};
use super::{graph, review};
use crate::i18n::{Lang, tr};
use crate::tr;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

/// Draws the whole screen for `app`.
pub fn view(app: &App, frame: &mut Frame<'_>) {
    let lang = app.lang;
    let area = frame.area();
    match &app.screen {
        Screen::Online { online, .. } => {
            super::online::view(online, app.look, frame);
            return;
        }
        Screen::NewGame(form) => {
            let (w, h) = FORM_SIZE;
            if app.is_too_small(area) {
                too_small(lang, frame, app.look, area, w, h);
                return;
            }
            newgame::draw(lang, frame, form, app.look, area, app.suspended.is_some());
            if let Some(s) = &app.status {
                // Below the form: as many rows as the message needs there;
                // where they are too few, its paths shortened in the middle,
                // so that their file names still show.
                let style = theme(app.look).status;
                let width = usize::from(area.width);
                let room = usize::from((area.height.saturating_sub(h) / 2).max(2).min(area.height));
                let mut rows = text_rows(&fix(app.look, s), width);
                if rows.len() > room {
                    rows = text_rows(&fix(app.look, &shorten_paths(s, width)), width);
                }
                let lines: Vec<Line<'_>> = rows
                    .into_iter()
                    .map(|row| Line::from(Span::styled(row, style)))
                    .collect();
                let rows = (lines.len().min(room)) as u16;
                let rect = Rect::new(area.x, area.bottom() - rows, area.width, rows);
                frame.render_widget(Paragraph::new(lines).centered(), rect);
            }
        }
        Screen::Lesson(lesson) => match layout(area, crate::rules::BoardSize::Eight) {
            ScreenLayout::TooSmall { width, height } => {
                too_small(lang, frame, app.look, area, width, height);
                return;
            }
            ScreenLayout::Game { .. } => super::lesson::draw(lang, frame, lesson, app.look, area),
        },
        Screen::Play(m) => match layout(area, m.game.rules().size) {
            ScreenLayout::TooSmall { width, height } => {
                too_small(lang, frame, app.look, area, width, height);
                return;
            }
            ScreenLayout::Game {
                board: geo,
                panel,
                footer,
            } => {
                let replaying = matches!(m.mode, Mode::Replay(_));
                let view = BoardView {
                    game: &m.game,
                    cursor: (!replaying).then(|| m.input.cursor()),
                    hint: m.hint_shown(),
                    dots: app.dots && !replaying,
                    look: app.look,
                    lang: app.lang,
                };
                board::draw(&view, &geo, frame.buffer_mut());
                draw_panel(frame, app, m, panel);
                draw_footer(frame, app, m, footer);
            }
        },
    }
    match &app.overlay {
        Some(Overlay::Help) => {
            let keys = match &app.screen {
                // The new-game screen's own keys (Esc only with a game to go back to).
                Screen::NewGame(_) => super::keys::FORM_KEYS
                    .iter()
                    .filter(|b| {
                        app.suspended.is_some() || !b.keys.iter().any(|(k, _)| *k == Key::Esc)
                    })
                    .map(|b| b.row(lang))
                    .collect(),
                Screen::Play(m) if matches!(m.mode, Mode::Replay(_)) => replay_help_keys(lang),
                _ => GAME_KEYS.iter().map(|b| b.row(lang)).collect(),
            };
            draw_help(lang, frame, app.look, area, &keys);
        }
        Some(Overlay::Rules(scroll)) => {
            super::rules_help::draw(lang, frame, app.look, area, *scroll)
        }
        Some(Overlay::ConfirmQuit) => draw_choices(
            frame,
            app.look,
            area,
            &tr(lang, "confirm-quit-title"),
            &tr(lang, "confirm-quit-1"),
            &[
                (
                    tr(lang, "confirm-quit-keep-key"),
                    tr(lang, "confirm-quit-keep"),
                ),
                (
                    tr(lang, "confirm-quit-discard-key"),
                    tr(lang, "confirm-quit-discard"),
                ),
                (tr(lang, "key-esc"), tr(lang, "confirm-quit-back")),
            ],
        ),
        Some(Overlay::ConfirmContinue) => {
            let later = app.current().map_or(0, |m| m.game.len() - m.game.ply());
            draw_confirm(
                lang,
                frame,
                app.look,
                area,
                &tr(lang, "confirm-continue-title"),
                &[
                    tr!(lang, "confirm-continue-dropped", n = later),
                    tr(lang, "confirm-continue-ask"),
                ],
            );
        }
        Some(Overlay::Resume(setup)) => {
            draw_confirm(
                lang,
                frame,
                app.look,
                area,
                &tr(lang, "confirm-resume-title"),
                &[
                    tr!(lang, "confirm-resume-saved", n = setup.game.len()),
                    tr(lang, "confirm-resume-ask"),
                ],
            );
        }
        None => {}
    }
}

/// "Terminal too small": the size needed (`w`×`h`) and the size there is.
fn too_small(lang: Lang, frame: &mut Frame<'_>, look: Look, area: Rect, w: u16, h: u16) {
    too_small_with(
        lang,
        frame,
        look,
        area,
        w,
        h,
        &tr(lang, "too-small-enlarge"),
    );
}

fn draw_panel(frame: &mut Frame<'_>, app: &App, m: &Match, area: Rect) {
    let lang = app.lang;
    let th = theme(app.look);
    let lines = panel_lines(app, m, area.width);
    let [text_h, graph_h] = panel_heights(app, m, area);
    let top = Paragraph::new(lines).wrap(Wrap { trim: false });
    frame.render_widget(top, Rect::new(area.x, area.y, area.width, text_h));
    if graph_h > 0 {
        let rect = Rect::new(area.x, area.y + text_h + 1, area.width, graph_h - 1);
        graph::draw(lang, frame, m, app.look, rect);
    }
    super::moves::draw(
        lang,
        frame,
        &m.game,
        &|i| review::class_of(m, i),
        app.look,
        moves_area(area, text_h + graph_h),
        &th,
    );
}

fn draw_footer(frame: &mut Frame<'_>, app: &App, m: &Match, area: Rect) {
    let lang = app.lang;
    let th = theme(app.look);
    let ascii = app.look.ascii;
    let mut keys: Vec<(String, String)> = if let Mode::Replay(_) = m.mode {
        REPLAY_KEYS
            .iter()
            .map(|b| b.row(lang))
            .filter(|(k, _)| !k.is_empty())
            .map(|(k, what)| {
                let k = if ascii {
                    k.replace('←', "<-").replace('→', "->")
                } else {
                    k
                };
                (k, what)
            })
            .collect()
    } else if m.game.outcome().is_some() {
        footer(lang, &FOOTER_OVER, ascii)
    } else if m.has_human() {
        footer(lang, &FOOTER_PLAYING, ascii)
    } else {
        footer(lang, &FOOTER_WATCHING, ascii)
    };
    // A game that came from the salon: q leads back there.
    if app.back_online
        && let Some(last) = keys.last_mut()
        && last.0 == "q"
    {
        last.1 = tr(lang, "online-key-lobby");
    }
    frame.render_widget(
        Paragraph::new(footer_line(keys, area.width, &th)).centered(),
        area,
    );
}

/// The short rules under the keys, as lines.
fn help_rules(lang: Lang) -> [String; 4] {
    [
        tr(lang, "help-rules-1"),
        tr(lang, "help-rules-2"),
        tr(lang, "help-rules-3"),
        tr(lang, "help-rules-4"),
    ]
}

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

/// The keys and the rules over the screen: the keys of replay while
/// `replaying` (with saving and copying, bound there as while playing), else
/// those of the game.
/// The rows of the help in replay: replay's keys, and saving.
fn replay_help_keys(lang: Lang) -> Vec<(String, String)> {
    let saving = GAME_KEYS
        .iter()
        .filter(|b| b.keys.iter().any(|(_, a)| matches!(a, Action::Save)))
        .map(|b| b.row(lang));
    REPLAY_KEYS
        .iter()
        .map(|b| b.row(lang))
        .filter(|(label, _)| !label.is_empty())
        .chain(saving)
        .collect()
}

/// The help window: the rows of `keys`, then the rules in short.
fn draw_help(lang: Lang, frame: &mut Frame<'_>, look: Look, area: Rect, keys: &[(String, String)]) {
    let th = theme(look);
    let rules = help_rules(lang);
    // The keys' column: 12 wide, or wider for a longer key name.
    let column = keys
        .iter()
        .map(|(k, _)| k.chars().count() + 2)
        .max()
        .unwrap_or(0)
        .max(12);
    let width = u16::try_from(column + 52)
        .unwrap_or(u16::MAX)
        .min(area.width);
    // Each key's text wrapped at words under its own column when the box is narrow.
    let room = usize::from(width.saturating_sub(4))
        .saturating_sub(column)
        .max(8);
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (k, what) in keys {
        let k = if look.ascii {
            k.replace("←↑↓→", &tr(lang, "key-arrows"))
                .replace('…', "...")
        } else {
            k.clone()
        };
        for (i, part) in wrap_words(&fix(look, what), room).into_iter().enumerate() {
            let key = if i == 0 { k.as_str() } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!(" {key:<column$}"), th.key),
                Span::raw(part),
            ]));
        }
    }
    // On a short terminal the keys come first; the rules only when they fit.
    if area.height as usize >= lines.len() + rules.len() + 4 {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            format!(" {}", tr(lang, "help-rules-title")),
            th.title,
        )));
        for r in rules {
            lines.push(Line::from(format!(" {}", fix(look, &r))));
        }
    }
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let rect = centred(area, width, height);
    // In the border, so that it shows however little room there is.
    let block = boxed(look, &tr(lang, "help-title"), &th).title_bottom(
        Line::from(Span::styled(
            format!(" {} ", fix(look, &tr(lang, "rules-close"))),
            th.dim,
        ))
        .centered(),
    );
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block), rect);
}
