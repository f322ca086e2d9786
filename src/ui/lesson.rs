//! The guided first game (`reversi learn`, and `r` on the new-game screen):
//! seven short steps, each with a board, a task, and an answer to the
//! learner's move — a wrong one explained, a right one followed by what it
//! shows. The steps: the coordinates and the four centre discs; Black's four
//! first moves; d3 and the flip of d4; one move that closes three lines; a
//! forced pass; an end with empty squares and the count; empties to the
//! winner. Esc leaves at any time (back to the new-game screen, where the
//! lesson can be taken again).
//!
//! Pure model and drawing like the rest of the UI: [`key`] and [`square`]
//! change a [`Lesson`], [`draw`] shows it. The positions are fixed board
//! strings; the rules module judges every move.

use super::board::{self, BoardView};
use super::board_input::{BoardInput, BoardKey};
use super::keys::{Key, KeyPress};
use super::layout::{ScreenLayout, layout};
use super::model::{Look, NewGameForm};
use super::text::text_rows;
use super::theme::theme;
use crate::i18n::{Lang, tr};
use crate::notation::parse_board;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules, Scoring, Square};
use crate::tr;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// A step of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Columns, rows and the four centre discs: point at a White disc.
    Coordinates,
    /// Black's four legal first moves, marked: choose one.
    LegalMoves,
    /// Play d3 and see d4 flip.
    FirstMove,
    /// One move closes a row, a column and a diagonal.
    ThreeLines,
    /// Black has no move and passes; then plays again.
    Pass,
    /// The last move of a game with empty squares left, and the count.
    End,
    /// The same end when the empty squares go to the winner.
    EmptiesToWinner,
    /// The end of the lesson.
    Finished,
}

impl Step {
    /// The steps in order.
    pub const ALL: [Step; 8] = [
        Step::Coordinates,
        Step::LegalMoves,
        Step::FirstMove,
        Step::ThreeLines,
        Step::Pass,
        Step::End,
        Step::EmptiesToWinner,
        Step::Finished,
    ];

    /// The step after this one, if any.
    #[must_use]
    pub fn next(self) -> Option<Step> {
        let i = Step::ALL.iter().position(|s| *s == self)?;
        Step::ALL.get(i + 1).copied()
    }

    /// The step's number from 1.
    #[must_use]
    pub fn number(self) -> usize {
        Step::ALL.iter().position(|s| *s == self).unwrap_or(0) + 1
    }

    /// The board the step starts from, its rules and the moves already made.
    fn start(self) -> Game {
        let eight = Rules::standard(BoardSize::Eight);
        let mut game = match self {
            Step::Coordinates | Step::LegalMoves | Step::FirstMove | Step::Finished => {
                Game::new(eight)
            }
            Step::ThreeLines => board_game(eight, THREE_LINES),
            Step::Pass => board_game(eight, PASS),
            Step::End => board_game(eight, END),
            Step::EmptiesToWinner => board_game(
                Rules {
                    scoring: Scoring::EmptiesToWinner,
                    ..eight
                },
                END,
            ),
        };
        if self == Step::Pass {
            // Black has no move: the pass is made for the learner, then
            // White plays b4.
            game.pass_if_forced();
            if let Ok(sq) = crate::notation::parse_square("b4") {
                let _ = game.play(Move::Place(sq));
            }
        }
        game
    }

    /// The square the step asks for, when only one will do.
    fn target(self) -> Option<&'static str> {
        match self {
            Step::FirstMove => Some("d3"),
            Step::ThreeLines => Some("c3"),
            Step::End | Step::EmptiesToWinner => Some("c2"),
            _ => None,
        }
    }

    /// Whether a right answer is played on the board (the first two steps
    /// only point at a square).
    fn plays(self) -> bool {
        !matches!(self, Step::Coordinates | Step::LegalMoves | Step::Finished)
    }

    /// Whether legal-move dots are shown.
    fn dots(self) -> bool {
        !matches!(self, Step::Coordinates | Step::Finished)
    }

    fn title(self, lang: Lang) -> String {
        match self {
            Step::Coordinates => tr(lang, "lesson-coordinates-title"),
            Step::LegalMoves => tr(lang, "lesson-legal-title"),
            Step::FirstMove => tr(lang, "lesson-first-title"),
            Step::ThreeLines => tr(lang, "lesson-lines-title"),
            Step::Pass => tr(lang, "lesson-pass-title"),
            Step::End => tr(lang, "lesson-end-title"),
            Step::EmptiesToWinner => tr(lang, "lesson-empties-title"),
            Step::Finished => tr(lang, "lesson-finished-title"),
        }
    }

    fn text(self, lang: Lang) -> String {
        match self {
            Step::Coordinates => tr(lang, "lesson-coordinates"),
            Step::LegalMoves => tr(lang, "lesson-legal"),
            Step::FirstMove => tr(lang, "lesson-first"),
            Step::ThreeLines => tr(lang, "lesson-lines"),
            Step::Pass => tr(lang, "lesson-pass"),
            Step::End => tr(lang, "lesson-end"),
            Step::EmptiesToWinner => tr(lang, "lesson-empties"),
            Step::Finished => tr(lang, "lesson-finished"),
        }
    }

    fn task(self, lang: Lang) -> Option<String> {
        Some(match self {
            Step::Coordinates => tr(lang, "lesson-coordinates-task"),
            Step::LegalMoves => tr(lang, "lesson-legal-task"),
            Step::FirstMove => tr(lang, "lesson-first-task"),
            Step::ThreeLines => tr(lang, "lesson-lines-task"),
            Step::Pass => tr(lang, "lesson-pass-task"),
            Step::End => tr(lang, "lesson-end-task"),
            Step::EmptiesToWinner => tr(lang, "lesson-empties-task"),
            Step::Finished => return None,
        })
    }
}

/// Black to move; c3 flips d3 and e3 (row), c4 (column), d4 and e5 (diagonal).
const THREE_LINES: &str = "\
    --------\
    --------\
    ---OOX--\
    --OOX---\
    --XXO---\
    -----X--\
    --------\
    -------- X";

/// Black to move and no legal move; White has b4 (turning c3).
const PASS: &str = "\
    --OOO---\
    ---O----\
    -XXX----\
    ---XX---\
    --XXX---\
    --------\
    --------\
    -------- X";

/// Black to move; c2 is the last move: nobody can move after it, with a1,
/// b1 and b2 empty.
const END: &str = "\
    --OOOOOO\
    X--OOXXX\
    XXOOOOXX\
    XXXXOXOX\
    XXXXXXXX\
    XXXXXXXX\
    XXOOXXXX\
    XXXXXXXX X";

fn board_game(rules: Rules, board: &str) -> Game {
    parse_board(board)
        .ok()
        .and_then(|p| Game::from_position(rules, p).ok())
        .unwrap_or_else(|| Game::new(rules))
}

/// The lesson on screen.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// The step shown.
    pub step: Step,
    /// The board of the step.
    pub game: Game,
    /// The board's cursor and a column letter typed.
    pub input: BoardInput,
    /// The step's task is done: its explanation is shown, Enter goes on.
    pub done: bool,
    /// What the last answer showed: an explanation of a wrong move, or what
    /// the right one did.
    pub answer: Option<String>,
    /// The new-game screen to go back to.
    pub back: NewGameForm,
    /// Rows of the step's explanation scrolled past, when the panel is too
    /// short to show it whole (PgDn and PgUp move it).
    pub scroll: u16,
}

impl Lesson {
    /// The lesson from its first step; Esc goes back to `back`.
    #[must_use]
    pub fn new(back: NewGameForm) -> Lesson {
        let mut lesson = Lesson {
            step: Step::Coordinates,
            game: Step::Coordinates.start(),
            input: BoardInput::at(CURSOR),
            done: false,
            answer: None,
            back,
            scroll: 0,
        };
        lesson.go_to(Step::Coordinates);
        lesson
    }

    /// Shows `step` from its start.
    pub fn go_to(&mut self, step: Step) {
        self.step = step;
        self.game = step.start();
        self.input = BoardInput::at(CURSOR);
        self.done = step == Step::Finished;
        self.answer = None;
        self.scroll = 0;
    }
}

/// Where each step's cursor starts: c4.
const CURSOR: Square = Square::at(2, 3);

/// The largest useful scroll of the explanation on a terminal of `area`,
/// and the rows PgDn and PgUp move it by (a page of what is shown).
fn scroll_room(lang: Lang, lesson: &Lesson, area: (u16, u16), look: Look) -> (u16, u16) {
    match layout(Rect::new(0, 0, area.0, area.1), BoardSize::Eight) {
        ScreenLayout::Game { panel, .. } => {
            let (_, most, page) = panel_rows(lang, lesson, look, panel.width, panel.height);
            (most, page)
        }
        ScreenLayout::TooSmall { .. } => (0, 0),
    }
}

/// What a key does in the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stay in the lesson.
    Stay,
    /// Leave for the new-game screen.
    Leave,
    /// Quit the program.
    Quit,
}

/// Applies a key press to the lesson, shown on a terminal of `area`
/// (columns, rows) with `look`.
pub fn key(
    lang: Lang,
    lesson: &mut Lesson,
    key: KeyPress,
    area: (u16, u16),
    look: Look,
) -> Outcome {
    match lesson.input.key(key.key, BoardSize::Eight) {
        BoardKey::Square(sq) => square(lang, lesson, sq),
        BoardKey::OffBoard(name) if !lesson.done => {
            lesson.answer = Some(super::words::off_board(lang, &name, BoardSize::Eight));
            lesson.scroll = u16::MAX;
        }
        BoardKey::Other => match key.key {
            Key::Esc => return Outcome::Leave,
            Key::Char('q') => return Outcome::Quit,
            Key::Enter | Key::Char(' ') if lesson.done => match lesson.step.next() {
                Some(next) => lesson.go_to(next),
                None => return Outcome::Leave,
            },
            Key::Enter | Key::Char(' ') => square(lang, lesson, lesson.input.cursor()),
            Key::PageDown => {
                let (most, page) = scroll_room(lang, lesson, area, look);
                lesson.scroll = lesson.scroll.min(most).saturating_add(page).min(most);
            }
            Key::PageUp => {
                let (most, page) = scroll_room(lang, lesson, area, look);
                lesson.scroll = lesson.scroll.min(most).saturating_sub(page.max(1));
            }
            _ => {}
        },
        BoardKey::OffBoard(_) | BoardKey::Moved | BoardKey::Column => {}
    }
    Outcome::Stay
}

/// The learner chose `sq` (Enter on it, typed, or clicked): the step is done,
/// or the answer says why not.
pub fn square(lang: Lang, lesson: &mut Lesson, sq: Square) {
    if lesson.done {
        return;
    }
    lesson.input.point(sq);
    let position = lesson.game.position();
    match judge(lang, lesson.step, &position, sq) {
        Err(why) => {
            lesson.answer = Some(why);
            lesson.scroll = u16::MAX;
        }
        Ok(()) => {
            if lesson.step.plays() {
                let _ = lesson.game.play(Move::Place(sq));
            }
            lesson.answer = Some(done_text(lang, lesson.step, &lesson.game, sq));
            lesson.scroll = u16::MAX;
            lesson.done = true;
        }
    }
}

/// Whether `sq` answers the step's task in `position`, or why not.
fn judge(lang: Lang, step: Step, position: &Position, sq: Square) -> Result<(), String> {
    let name = sq.to_string();
    if step == Step::Coordinates {
        return match position.disc_at(sq) {
            Some(Color::White) => Ok(()),
            Some(Color::Black) => Err(tr!(lang, "lesson-wrong-black-disc", square = name)),
            None => Err(tr!(
                lang,
                "lesson-wrong-empty",
                square = name.as_str(),
                column = name[..1].to_string(),
                row = u32::from(sq.row()) + 1
            )),
        };
    }
    if !position.is_legal(Move::Place(sq)) {
        return Err(why_illegal(lang, position, sq));
    }
    match step.target() {
        Some(target) if target != name => {
            if step == Step::ThreeLines {
                Err(tr!(
                    lang,
                    "lesson-wrong-fewer-lines",
                    square = name,
                    lines = lines_closed(position, sq)
                ))
            } else {
                Err(tr!(
                    lang,
                    "lesson-wrong-other-legal",
                    square = name,
                    target = target
                ))
            }
        }
        _ => Ok(()),
    }
}

fn colour_key(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Why a move on `sq` is not legal in `position`.
#[must_use]
pub fn why_illegal(lang: Lang, position: &Position, sq: Square) -> String {
    let name = sq.to_string();
    let us = position.side_to_move();
    if let Some(c) = position.disc_at(sq) {
        return tr!(
            lang,
            "lesson-why-taken",
            square = name,
            colour = colour_key(c)
        );
    }
    let them = us.opponent();
    let touches = neighbours(sq).any(|n| position.disc_at(n) == Some(them));
    if touches {
        tr!(
            lang,
            "lesson-why-open",
            square = name,
            them = colour_key(them),
            us = colour_key(us)
        )
    } else {
        tr!(
            lang,
            "lesson-why-alone",
            square = name,
            them = colour_key(them)
        )
    }
}

/// The squares around `sq` on the 8×8 board.
fn neighbours(sq: Square) -> impl Iterator<Item = Square> {
    let (c, r) = (i16::from(sq.column()), i16::from(sq.row()));
    (-1..=1i16)
        .flat_map(move |dy| (-1..=1i16).map(move |dx| (c + dx, r + dy)))
        .filter(move |&(x, y)| (x, y) != (c, r) && (0..8).contains(&x) && (0..8).contains(&y))
        .map(|(x, y)| Square::at(x as u8, y as u8))
}

/// How many lines (directions) a legal move on `sq` closes: the lines whose
/// first square turns over.
#[must_use]
pub fn lines_closed(position: &Position, sq: Square) -> usize {
    let flips = position.flips(sq);
    neighbours(sq).filter(|n| flips.contains(*n)).count()
}

/// What the right answer showed.
fn done_text(lang: Lang, step: Step, game: &Game, sq: Square) -> String {
    let name = sq.to_string();
    match step {
        Step::Coordinates => tr!(lang, "lesson-coordinates-done", square = name),
        Step::LegalMoves => tr!(lang, "lesson-legal-done", square = name),
        Step::FirstMove => tr(lang, "lesson-first-done"),
        Step::ThreeLines => {
            let mut text = tr!(lang, "lesson-lines-done", n = game.last_flips().count());
            // A colour gone from the board ends the game: said, not left to see.
            let position = game.position();
            if position.count(Color::White) == 0 {
                text.push(' ');
                text += &tr!(
                    lang,
                    "lesson-lines-wiped-out",
                    black = position.count(Color::Black)
                );
            }
            text
        }
        Step::Pass => tr(lang, "lesson-pass-done"),
        Step::End | Step::EmptiesToWinner => {
            let position = game.position();
            let empty = position.empties().count();
            let (black, white) = match game.outcome() {
                Some(o) => (o.black, o.white),
                None => (position.count(Color::Black), position.count(Color::White)),
            };
            if step == Step::End {
                tr!(
                    lang,
                    "lesson-end-done",
                    empty = empty,
                    black = black,
                    white = white
                )
            } else {
                tr!(
                    lang,
                    "lesson-empties-done",
                    empty = empty,
                    black = black,
                    white = white
                )
            }
        }
        Step::Finished => String::new(),
    }
}

/// The lesson's text beside the board, in rows of at most `width`
/// characters and at most `height` rows: the title, the step, its
/// explanation, then what to do and what the last answer showed. When that
/// is too tall, the blank rows and the title go, what to do next (the task,
/// or Enter once the step is done) stays at the bottom, and the rest shows
/// the rows that fit from `lesson.scroll` on (the end, where the answer is,
/// when the scroll is past it), marked `▲` and `▼` where it goes on.
/// Returns the rows, the largest useful scroll and the rows shown at once.
pub fn panel_rows(
    lang: Lang,
    lesson: &Lesson,
    look: Look,
    width: u16,
    height: u16,
) -> (Vec<Line<'static>>, u16, u16) {
    let th = theme(look);
    let step = lesson.step;
    let fix = |s: String| super::rules_help::fix(look, s);
    let w = usize::from(width.max(1));
    let rows = |text: String, style: Style| -> Vec<Line<'static>> {
        text_rows(&fix(text), w)
            .into_iter()
            .map(|r| Line::from(Span::styled(r, style)))
            .collect()
    };
    let title = rows(tr(lang, "lesson-title"), th.title);
    let header = rows(
        tr!(
            lang,
            "lesson-step",
            n = step.number(),
            total = Step::ALL.len(),
            title = step.title(lang)
        ),
        th.dim,
    );
    let text = rows(step.text(lang), Style::new());
    let task = step
        .task(lang)
        .filter(|_| !lesson.done)
        .map(|t| rows(t, th.title));
    let answer = lesson.answer.as_ref().map(|a| {
        let style = if lesson.done { th.title } else { th.status };
        rows(a.clone(), style)
    });
    let next = lesson.done.then(|| {
        let next = if step.next().is_some() {
            tr(lang, "lesson-next")
        } else {
            tr(lang, "lesson-leave")
        };
        rows(next, th.key)
    });
    let h = usize::from(height);
    // Everything, with its blank rows.
    let mut full = title;
    full.extend(header.iter().cloned());
    full.push(Line::from(""));
    full.extend(text.iter().cloned());
    for block in [&task, &answer, &next].into_iter().flatten() {
        full.push(Line::from(""));
        full.extend(block.iter().cloned());
    }
    if full.len() <= h {
        return (full, 0, 0);
    }
    // What to do next at the bottom, the rest above it in a window.
    let pinned: Vec<Line<'static>> = task.or(next).unwrap_or_default();
    let mut body = header;
    body.extend(text);
    body.extend(answer.unwrap_or_default());
    let room = h.saturating_sub(pinned.len());
    if body.len() <= room {
        body.extend(pinned);
        return (body, 0, 0);
    }
    let (up, down) = if look.ascii {
        ("^", "v")
    } else {
        ("▲", "▼")
    };
    // The body's rows shown between the markers: one row goes to them.
    let shown = room.saturating_sub(1).max(1).min(h);
    let most = body.len().saturating_sub(shown);
    let from = usize::from(lesson.scroll).min(most);
    let end = (from + shown).min(body.len());
    let mut out: Vec<Line<'static>> = body[from..end].to_vec();
    if room > 1 {
        let up = format!("{up} {}", tr(lang, "lesson-page-up"));
        let down = format!("{down} {}", tr(lang, "lesson-page-down"));
        let marker = match (from > 0, end < body.len()) {
            (true, true) => format!("{up}  {down}"),
            (true, false) => up,
            _ => down,
        };
        out.push(Line::from(Span::styled(marker, th.key)));
    }
    let keep = h.saturating_sub(out.len());
    let skip = pinned.len().saturating_sub(keep);
    out.extend(pinned.into_iter().skip(skip));
    (out, most as u16, shown as u16)
}

/// Draws the lesson: the board where the game screen has it, the text in
/// the panel, the keys in the footer.
pub fn draw(lang: Lang, frame: &mut Frame<'_>, lesson: &Lesson, look: Look, area: Rect) {
    let ScreenLayout::Game {
        board: geo,
        panel,
        footer,
    } = layout(area, BoardSize::Eight)
    else {
        return;
    };
    let view = BoardView {
        game: &lesson.game,
        cursor: (!lesson.done).then(|| lesson.input.cursor()),
        hint: &[],
        dots: lesson.step.dots(),
        look,
        lang,
    };
    board::draw(&view, &geo, frame.buffer_mut());
    let (rows, _, _) = panel_rows(lang, lesson, look, panel.width, panel.height);
    frame.render_widget(Paragraph::new(rows), panel);
    let th = theme(look);
    let arrows = if look.ascii {
        tr(lang, "key-arrows")
    } else {
        "←↑↓→".to_string()
    };
    let keys = [
        (arrows, tr(lang, "lesson-key-move")),
        (tr(lang, "key-enter"), tr(lang, "lesson-key-play")),
        (tr(lang, "key-esc"), tr(lang, "lesson-key-leave")),
        ("q".to_string(), tr(lang, "lesson-key-quit")),
    ];
    let mut spans = Vec::new();
    for (k, what) in keys {
        spans.push(Span::styled(k, th.key));
        spans.push(Span::styled(format!(" {what}  "), th.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).centered(), footer);
}

#[cfg(test)]
mod tests;
