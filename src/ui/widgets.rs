//! Drawing pieces the screens share: the "terminal too small" notice, the
//! footer line of keys and the window that asks a yes-or-no question.

use super::keys::fit_footer;
use super::layout::centred;
use super::model::Look;
use super::panel::fix;
use super::theme::{Theme, draw_window, theme};
use crate::i18n::{Lang, tr};
use crate::tr;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// "Terminal too small": the size needed (`w`×`h`), the size there is,
/// and what to do (`enlarge`) said in the screen's own way.
pub(super) fn too_small_with(
    lang: Lang,
    frame: &mut Frame<'_>,
    look: Look,
    area: Rect,
    w: u16,
    h: u16,
    enlarge: &str,
) {
    let th = theme(look);
    let x = if look.ascii { "x" } else { "×" };
    let text = vec![
        Line::from(Span::styled(tr(lang, "too-small-title"), th.title)),
        Line::from(tr!(
            lang,
            "too-small-need",
            need = format!("{w}{x}{h}"),
            have = format!("{}{x}{}", area.width, area.height)
        )),
        Line::from(enlarge.to_string()),
    ];
    let rect = centred(area, area.width, 4);
    frame.render_widget(
        Paragraph::new(text).centered().wrap(Wrap { trim: true }),
        rect,
    );
}

/// A footer line of `(key, what it does)` entries, those that fit in
/// `width` columns ([`fit_footer`]), two spaces apart.
pub(super) fn footer_line(keys: Vec<(String, String)>, width: u16, th: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    for (k, what) in fit_footer(keys, usize::from(width)) {
        if !spans.is_empty() {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(k, th.key));
        spans.push(Span::styled(format!(" {what}"), th.dim));
    }
    Line::from(spans)
}

/// A window asking `title`: `intro`, then one line per choice, its key
/// first ("k  keep it and quit").
pub(super) fn draw_choices(
    frame: &mut Frame<'_>,
    look: Look,
    area: Rect,
    title: &str,
    intro: &str,
    choices: &[(String, String)],
) {
    let th = theme(look);
    let key_w = choices
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(0);
    let text_w = choices
        .iter()
        .map(|(_, t)| fix(look, t).chars().count())
        .max()
        .unwrap_or(0);
    let width = (key_w + 2 + text_w).max(intro.chars().count()) as u16 + 4;
    let rect = centred(area, width.max(40), choices.len() as u16 + 4);
    let mut lines = vec![Line::from(fix(look, intro)), Line::from("")];
    // Every choice as wide as the widest, so that the centred rows align.
    for (key, text) in choices {
        let pad = " ".repeat(key_w + 2 - key.chars().count());
        lines.push(Line::from(vec![
            Span::styled(key.clone(), th.key),
            Span::raw(format!("{pad}{:<text_w$}", fix(look, text))),
        ]));
    }
    draw_window(frame, look, rect, title, lines);
}

/// A window asking `title`: the lines of `text`, the last one followed by
/// "y / n".
pub(super) fn draw_confirm(
    lang: Lang,
    frame: &mut Frame<'_>,
    look: Look,
    area: Rect,
    title: &str,
    text: &[String],
) {
    let text: Vec<String> = text.iter().map(|t| fix(look, t)).collect();
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
        Span::styled(tr(lang, "key-yes"), th.key),
        Span::raw(" / "),
        Span::styled("n", th.key),
    ]));
    draw_window(frame, look, rect, title, lines);
}
