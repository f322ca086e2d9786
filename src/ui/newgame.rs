//! The new-game screen: a short form (opponent, colour, level, board, rules,
//! scoring) whose choices are remembered, and the [`Setup`] it produces.

use super::keys::{FORM_KEY_LINES, FORM_KEYS};
use super::layout::{FORM_SIZE, centred};
use super::model::{Choices, ColourChoice, Look, Match, NewGameForm, Opponent, Player, Setup};
use super::theme::{boxed, theme};
use super::words::{level_label, level_suits, side};
use crate::ai::Level;
use crate::i18n::{Lang, tr};
use crate::rules::{BoardSize, Color, Rules, Scoring};
use crate::tr;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// How many fields the form has.
pub const FIELDS: usize = 7;

/// The name of field `i`, top to bottom, in `lang`.
#[must_use]
pub fn field_name(lang: Lang, i: usize) -> String {
    match i {
        0 => tr(lang, "newgame-field-opponent"),
        1 => tr(lang, "newgame-field-colour"),
        2 => tr(lang, "newgame-field-level"),
        3 => tr(lang, "newgame-field-board"),
        4 => tr(lang, "newgame-field-rules"),
        5 => tr(lang, "newgame-field-empties"),
        _ => tr(lang, "newgame-field-language"),
    }
}

/// The index of the language field.
pub const LANGUAGE: usize = 6;

/// Selects the field `delta` rows away (wrapping).
pub fn select(form: &mut NewGameForm, delta: i8) {
    let n = FIELDS as i8;
    form.field = (form.field as i8 + delta).rem_euclid(n) as usize;
}

/// Changes the selected field's value by `delta` steps (wrapping).
pub fn change(form: &mut NewGameForm, delta: i8) {
    let c = &mut form.choices;
    match form.field {
        0 => {
            let all = [
                Opponent::Computer,
                Opponent::Human,
                Opponent::Watch,
                Opponent::Online,
            ];
            c.opponent = step(&all, c.opponent, delta);
        }
        1 => {
            let all = [
                ColourChoice::Random,
                ColourChoice::Fixed(Color::Black),
                ColourChoice::Fixed(Color::White),
            ];
            c.colour = step(&all, c.colour, delta);
        }
        2 => c.level = step(&Level::ALL, c.level, delta),
        3 => {
            c.size = step(&[BoardSize::Eight, BoardSize::Six], c.size, delta);
            c.scoring = Rules::standard(c.size).scoring;
        }
        4 => c.anti = !c.anti,
        5 => {
            let all = [Scoring::EmptiesToNobody, Scoring::EmptiesToWinner];
            c.scoring = step(&all, c.scoring, delta);
        }
        _ => {}
    }
}

/// Changes the language by `delta` steps from `shown`, the one on screen;
/// returns the new one, also remembered in the choices.
pub fn change_language(form: &mut NewGameForm, shown: Lang, delta: i8) -> Lang {
    let lang = step(&Lang::ALL, shown, delta);
    form.choices.language = Some(lang);
    lang
}

fn step<T: Copy + PartialEq>(all: &[T], now: T, delta: i8) -> T {
    let n = all.len() as i32;
    let i = all.iter().position(|x| *x == now).unwrap_or(0) as i32;
    all[(i + i32::from(delta)).rem_euclid(n) as usize]
}

/// The game the choices describe; `random` draws the colour when asked to.
#[must_use]
pub fn setup(lang: Lang, choices: &Choices, random: u64) -> Setup {
    let ai = Player::Ai(choices.level);
    let (players, note) = match choices.opponent {
        Opponent::Human | Opponent::Online => ([Player::Human, Player::Human], None),
        Opponent::Watch => ([ai, ai], Some(tr(lang, "note-watching"))),
        Opponent::Computer => {
            let (colour, drawn) = match choices.colour {
                ColourChoice::Random => (
                    if random & 1 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    },
                    true,
                ),
                ColourChoice::Fixed(c) => (c, false),
            };
            let mut players = [ai, ai];
            players[colour.index()] = Player::Human;
            let note = if drawn {
                tr!(lang, "note-drawn", you = side(colour))
            } else {
                tr!(lang, "note-you-play", you = side(colour))
            };
            (players, Some(note))
        }
    };
    let mut s = Setup::new(choices.rules(), players);
    s.note = note;
    s
}

/// The choices that would set up a game like `m` (to preselect the form).
#[must_use]
pub fn choices_of(m: &Match) -> Choices {
    let rules = m.game.rules();
    let (opponent, colour) = match m.players {
        [Player::Human, Player::Human] => (Opponent::Human, ColourChoice::Random),
        [Player::Ai(_), Player::Ai(_)] => (Opponent::Watch, ColourChoice::Random),
        [Player::Human, _] => (Opponent::Computer, ColourChoice::Fixed(Color::Black)),
        [_, Player::Human] => (Opponent::Computer, ColourChoice::Fixed(Color::White)),
    };
    Choices {
        opponent,
        colour,
        level: m.ai_level(),
        size: rules.size,
        anti: rules.anti,
        scoring: rules.scoring,
        language: None,
    }
}

fn value(lang: Lang, choices: &Choices, field: usize) -> String {
    match field {
        0 => match choices.opponent {
            Opponent::Computer => tr(lang, "opponent-computer"),
            Opponent::Human => tr(lang, "opponent-human"),
            Opponent::Watch => tr(lang, "opponent-watch"),
            Opponent::Online => tr(lang, "newgame-online-table"),
        },
        1 => match choices.colour {
            ColourChoice::Random => tr(lang, "colour-random"),
            ColourChoice::Fixed(c) => tr!(lang, "colour-fixed", side = side(c)),
        },
        2 => level_label(lang, choices.level),
        3 => match choices.size {
            BoardSize::Eight => "8×8".into(),
            BoardSize::Six => "6×6".into(),
        },
        4 => {
            if choices.anti {
                tr(lang, "rules-anti")
            } else {
                tr(lang, "rules-normal")
            }
        }
        5 => match choices.scoring {
            Scoring::EmptiesToNobody => tr(lang, "empties-nobody"),
            Scoring::EmptiesToWinner => tr(lang, "empties-winner"),
        },
        _ => tr(lang, "lang-name"),
    }
}

/// Whether a field matters for the current choices.
fn relevant(choices: &Choices, field: usize) -> bool {
    match field {
        1 => choices.opponent == Opponent::Computer,
        2 => !matches!(choices.opponent, Opponent::Human | Opponent::Online),
        _ => choices.opponent != Opponent::Online,
    }
}

/// Two lines on who the chosen level suits and how it plays (blank when no
/// AI plays).
fn level_lines(lang: Lang, choices: &Choices) -> [String; 2] {
    if !relevant(choices, 2) {
        return [String::new(), String::new()];
    }
    let level = choices.level;
    let (who, how) = level_suits(lang, level);
    [
        format!(
            "  {}",
            tr!(lang, "newgame-level-for", n = level.number(), who = who)
        ),
        format!("  {how}"),
    ]
}

/// Draws the form in `area`.
pub fn draw(
    lang: Lang,
    frame: &mut Frame<'_>,
    form: &NewGameForm,
    look: Look,
    area: Rect,
    resumable: bool,
) {
    let th = theme(look);
    let ascii = look.ascii;
    let rect = centred(area, FORM_SIZE.0, FORM_SIZE.1);
    let block = boxed(look, &tr(lang, "newgame-title"), &th);
    let mut lines = vec![];
    for i in 0..FIELDS {
        let name = field_name(lang, i);
        let selected = i == form.field;
        let marker = if selected {
            if ascii { "> " } else { "▸ " }
        } else {
            "  "
        };
        let (l, r) = if selected { ("< ", " >") } else { ("  ", "  ") };
        let v = value(lang, &form.choices, i);
        let mut style = if relevant(&form.choices, i) {
            ratatui::style::Style::new()
        } else {
            th.dim
        };
        if selected {
            style = style.patch(th.selected);
        }
        lines.push(Line::from(vec![
            Span::raw(marker),
            Span::styled(
                format!("{name:<14}"),
                if selected {
                    th.title
                } else if relevant(&form.choices, i) {
                    ratatui::style::Style::new()
                } else {
                    th.dim
                },
            ),
            Span::styled(format!("{l}{v}{r}"), style),
        ]));
    }
    lines.push(Line::from(""));
    for text in level_lines(lang, &form.choices) {
        lines.push(Line::from(Span::styled(text, th.dim)));
    }
    lines.push(Line::from(""));
    let shown = if resumable { 4 } else { 3 };
    for rows in FORM_KEY_LINES.iter().take(shown) {
        let mut spans = Vec::new();
        for (i, (k, what)) in FORM_KEYS[rows.clone()]
            .iter()
            .map(|b| b.row(lang))
            .enumerate()
        {
            let gap = if i + 1 == rows.len() { "" } else { "   " };
            spans.push(Span::styled(
                if i == 0 { format!("  {k}") } else { k },
                th.key,
            ));
            spans.push(Span::raw(format!(" {what}{gap}")));
        }
        lines.push(Line::from(spans));
    }
    if ascii {
        for line in &mut lines {
            for span in &mut line.spans {
                let t = span
                    .content
                    .replace('↑', "^")
                    .replace('↓', "v")
                    .replace('←', "<")
                    .replace('→', ">")
                    .replace('×', "x")
                    .replace('▸', ">");
                span.content = t.into();
            }
        }
    }
    frame.render_widget(Paragraph::new(lines).block(block), rect);
    if rect.y >= area.y + 3 {
        let (black, white) = if ascii { ("X", "O") } else { ("●", "○") };
        let title = Line::from(vec![
            Span::styled(format!("{black} {white}  "), th.dim),
            Span::styled("R E V E R S I", th.title),
            Span::styled(format!("  {white} {black}"), th.dim),
        ]);
        let at = Rect::new(area.x, rect.y - 2, area.width, 1);
        frame.render_widget(Paragraph::new(title).centered(), at);
    }
}
