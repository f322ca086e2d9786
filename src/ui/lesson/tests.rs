//! The lesson driven to its end, a wrong move at each step, in both
//! languages; its screens drawn in colour, without colour and in ASCII.

use super::*;
use crate::i18n::Lang;
use crate::ui::keys::{Key, KeyPress};
use crate::ui::model::{Choices, NewGameForm};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn sq(s: &str) -> Square {
    crate::notation::parse_square(s).unwrap()
}

fn press(lang: Lang, lesson: &mut Lesson, code: Key) -> Outcome {
    key(lang, lesson, KeyPress::plain(code), (100, 40), COLOUR)
}

const COLOUR: Look = Look {
    color: true,
    ascii: false,
};

/// Types a square's name, as the learner would.
fn type_square(lang: Lang, lesson: &mut Lesson, name: &str) {
    for c in name.chars() {
        press(lang, lesson, Key::Char(c));
    }
}

fn form() -> NewGameForm {
    NewGameForm {
        choices: Choices::default(),
        field: 0,
    }
}

fn screen(lang: Lang, lesson: &Lesson, look: Look, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| draw(lang, f, lesson, look, f.area()))
        .unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..height {
        for x in 0..width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// For each step: a wrong square (with a word its explanation must hold)
/// and the right one.
const ANSWERS: [(&str, &str, &str); 7] = [
    ("e4", "e4", "e5"),
    ("c3", "c3", "f5"),
    ("c4", "d3", "d3"),
    ("b4", "b4", "c3"),
    ("a1", "a1", "b2"),
    ("a1", "a1", "c2"),
    ("b1", "b1", "c2"),
];

fn drive(lang: Lang) {
    let mut lesson = Lesson::new(form());
    for (i, (wrong, mention, right)) in ANSWERS.iter().enumerate() {
        let step = lesson.step;
        assert_eq!(step.number(), i + 1);
        let before = lesson.game.position();
        type_square(lang, &mut lesson, wrong);
        let answer = lesson.answer.clone().expect("a wrong move is explained");
        assert!(!lesson.done, "{step:?}: {wrong} is not accepted");
        assert!(answer.contains(mention), "{step:?}: {answer}");
        assert_eq!(lesson.game.position(), before, "nothing played");
        // Enter does not skip a step that is not done.
        lesson.input.point(sq(wrong));
        press(lang, &mut lesson, Key::Enter);
        assert!(!lesson.done);
        type_square(lang, &mut lesson, right);
        assert!(lesson.done, "{step:?}: {right} is the answer");
        let said = lesson.answer.clone().unwrap();
        assert!(!said.contains('{'), "{said}");
        if step.plays() {
            assert_eq!(lesson.game.last_move(), Some(Move::Place(sq(right))));
        }
        let shown = screen(
            lang,
            &lesson,
            Look {
                color: false,
                ascii: true,
            },
            100,
            40,
        );
        // Letters of the language (é, à…) but no other glyph.
        let plain = shown
            .chars()
            .all(|c| c.is_ascii() || c.is_alphabetic() || c == '\u{a0}');
        assert!(plain, "{step:?} in ASCII:\n{shown}");
        assert_eq!(press(lang, &mut lesson, Key::Enter), Outcome::Stay);
    }
    assert_eq!(lesson.step, Step::Finished);
    assert!(lesson.done);
    assert_eq!(press(lang, &mut lesson, Key::Enter), Outcome::Leave);
}

#[test]
fn the_lesson_is_driven_to_its_end_in_english() {
    drive(Lang::En);
}

#[test]
fn the_lesson_is_driven_to_its_end_in_french() {
    drive(Lang::Fr);
}

#[test]
fn the_positions_teach_what_they_say() {
    // d3 flips d4 only.
    let start = Step::FirstMove.start().position();
    assert_eq!(start.flips(sq("d3")).iter().collect::<Vec<_>>(), [sq("d4")]);
    assert_eq!(start.legal_moves().count(), 4);
    // c3 is the one move closing three lines.
    let p = Step::ThreeLines.start().position();
    let three: Vec<Square> = p
        .legal_moves()
        .iter()
        .filter(|&s| lines_closed(&p, s) >= 3)
        .collect();
    assert_eq!(three, [sq("c3")]);
    // The pass was made for Black, White played b4, Black can move.
    let g = Step::Pass.start();
    assert_eq!(g.moves(), [Move::Pass, Move::Place(sq("b4"))]);
    assert!(g.position().has_legal_move());
    assert_eq!(g.side_to_move(), Color::Black);
    // c2 ends the game with empty squares; empties to the winner add them.
    for (step, scoring) in [
        (Step::End, Scoring::EmptiesToNobody),
        (Step::EmptiesToWinner, Scoring::EmptiesToWinner),
    ] {
        let mut g = step.start();
        assert_eq!(g.rules().scoring, scoring);
        g.play(Move::Place(sq("c2"))).unwrap();
        let o = g.outcome().expect("c2 ends the game");
        let empties = g.position().empties().count();
        assert!(empties >= 2);
        assert_eq!(o.winner, Some(Color::Black));
        let black = g.position().count(Color::Black);
        let want = if scoring == Scoring::EmptiesToWinner {
            black + empties
        } else {
            black
        };
        assert_eq!(o.black, want);
    }
}

#[test]
fn esc_and_q_leave_at_any_step() {
    let lang = Lang::En;
    let mut lesson = Lesson::new(form());
    type_square(lang, &mut lesson, "e5");
    press(lang, &mut lesson, Key::Enter);
    assert_eq!(lesson.step, Step::LegalMoves);
    assert_eq!(press(lang, &mut lesson, Key::Esc), Outcome::Leave);
    assert_eq!(press(lang, &mut lesson, Key::Char('q')), Outcome::Quit);
}

#[test]
fn the_french_lesson_has_no_english_word_and_fits() {
    let lang = Lang::Fr;
    let mut lesson = Lesson::new(form());
    for (_, _, right) in ANSWERS {
        for look in [
            Look {
                color: true,
                ascii: false,
            },
            Look {
                color: false,
                ascii: true,
            },
        ] {
            let shown = screen(lang, &lesson, look, 100, 40);
            for english in [
                " the ", "Step", "Enter", "move", "disc", "White", "Black", "arrows",
            ] {
                assert!(!shown.contains(english), "{english:?} in:\n{shown}");
            }
        }
        type_square(lang, &mut lesson, right);
        press(lang, &mut lesson, Key::Enter);
    }
}

/// On every terminal the lesson accepts, every step shows what to do (or
/// what the answer showed and Enter), and PgDn then PgUp show every row of
/// its explanation, in order, in both languages.
#[test]
fn every_step_fits_small_terminals_and_scrolls_its_explanation() {
    for lang in [Lang::En, Lang::Fr] {
        for (w, h) in [(56, 14), (60, 16), (70, 18), (80, 24), (100, 40)] {
            let ScreenLayout::Game { panel, .. } = layout(Rect::new(0, 0, w, h), BoardSize::Eight)
            else {
                continue;
            };
            let mut lesson = Lesson::new(form());
            for (_, _, right) in ANSWERS {
                for done in [false, true] {
                    if done {
                        type_square(lang, &mut lesson, right);
                    }
                    check_step(lang, &mut lesson, panel, (w, h));
                }
                press(lang, &mut lesson, Key::Enter);
            }
        }
    }
}

fn check_step(lang: Lang, lesson: &mut Lesson, panel: Rect, area: (u16, u16)) {
    let text = |rows: &[Line<'_>]| -> Vec<String> {
        rows.iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    };
    let what = format!("{:?} done {} at {area:?}", lesson.step, lesson.done);
    let explanation = text_rows(&lesson.step.text(lang), usize::from(panel.width));
    let must = if lesson.done {
        tr(lang, "lesson-next")
    } else {
        lesson.step.task(lang).unwrap_or_default()
    };
    let must_rows = text_rows(&must, usize::from(panel.width));
    let mut seen: Vec<String> = Vec::new();
    lesson.scroll = 0;
    for _ in 0..40 {
        let (rows, _, _) = panel_rows(lang, lesson, COLOUR, panel.width, panel.height);
        let rows = text(&rows);
        assert!(rows.len() <= usize::from(panel.height), "{what}: {rows:?}");
        for r in &rows {
            assert!(
                r.chars().count() <= usize::from(panel.width),
                "{what}: {r:?}"
            );
            if explanation.contains(r) && !seen.contains(r) {
                seen.push(r.clone());
            }
        }
        assert!(
            must_rows.iter().all(|m| rows.contains(m)),
            "{what}: {must:?} not in {rows:?}"
        );
        let before = lesson.scroll;
        key(lang, lesson, KeyPress::plain(Key::PageDown), area, COLOUR);
        if lesson.scroll == before {
            break;
        }
    }
    // Once the step is done, the explanation may give way to the answer
    // altogether, never in part.
    let all = explanation
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len();
    assert!(
        seen.len() == all || (lesson.done && seen.is_empty()),
        "{what}: {seen:?}"
    );
    while lesson.scroll > 0 {
        key(lang, lesson, KeyPress::plain(Key::PageUp), area, COLOUR);
    }
}

/// The lesson's board keys are the game's: the cursor stops at the edge
/// (`hjkl` too), and a square typed off the board is explained.
#[test]
fn the_lessons_cursor_stops_at_the_edge_like_the_games() {
    let lang = Lang::En;
    let mut lesson = Lesson::new(form());
    assert_eq!(lesson.input.cursor(), sq("c4"));
    for _ in 0..10 {
        press(lang, &mut lesson, Key::Left);
        press(lang, &mut lesson, Key::Char('k'));
    }
    assert_eq!(lesson.input.cursor(), sq("a1"));
    for _ in 0..10 {
        press(lang, &mut lesson, Key::Char('l'));
        press(lang, &mut lesson, Key::Down);
    }
    assert_eq!(lesson.input.cursor(), sq("h8"));
    type_square(lang, &mut lesson, "a9");
    assert!(!lesson.done);
    let answer = lesson.answer.clone().expect("the square is explained");
    assert!(answer.contains("a9"), "{answer}");
}

#[test]
fn a_wipe_out_is_said_when_it_happens() {
    for (lang, words) in [
        (Lang::En, "White has no disc left"),
        (Lang::Fr, "Il ne reste aucun pion blanc"),
    ] {
        let mut lesson = Lesson::new(form());
        lesson.go_to(Step::ThreeLines);
        type_square(lang, &mut lesson, "c3");
        assert!(lesson.done && lesson.game.position().is_game_over());
        let black = lesson.game.position().count(Color::Black);
        let said = lesson.answer.clone().unwrap();
        assert!(said.contains(words), "{said}");
        assert!(said.contains(&format!("{black}–0")), "{said}");
    }
}
