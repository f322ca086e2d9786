//! The main screens in French (insta snapshots), and what a French speaker
//! must never see there: an English word.

use super::*;
use crate::i18n::Lang;

/// English words of the game screen that French never uses.
const ENGLISH: [&str; 16] = [
    "Black", "White", "move", "Move", "moves", "game", "Game", "quit", "help", "Help", "disc",
    "the", "Enter", "Space", "Rules", "to",
];

/// `app` drawn in French, checked for English words.
fn french(app: &App, w: u16, h: u16) -> String {
    let mut app = app.clone();
    app.lang = Lang::Fr;
    let screen = render(&app, w, h);
    for word in screen.split(|c: char| !c.is_alphabetic()) {
        assert!(
            !ENGLISH.contains(&word),
            "{word:?} on the French screen:\n{screen}"
        );
    }
    screen
}

#[test]
fn snapshot_new_game_screen_fr() {
    let app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    insta::assert_snapshot!(french(&app, 80, 24));
}

#[test]
fn snapshot_opening_fr() {
    let (mut app, _, _) = sized(two_humans(), 100, 40);
    app.lang = Lang::Fr;
    typed(&mut app, "f5");
    insta::assert_snapshot!(french(&app, 100, 40));
}

/// A game between two people just after a forced pass, in French.
fn after_a_pass_fr() -> App {
    let (before, mv) = game_before_pass();
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
    let mut app = app_with([Player::Human, Player::Human], g, NO_COLOUR);
    app.lang = Lang::Fr;
    typed(&mut app, &mv.to_string());
    app
}

#[test]
fn snapshot_a_pass_fr() {
    let app = after_a_pass_fr();
    let screen = french(&app, 80, 24);
    assert!(screen.contains("passent"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn snapshot_game_over_fr() {
    let moves = fixed_game(BoardSize::Eight, FINISHED_8X8);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let app = app_in(
        Lang::Fr,
        [Player::Human, Player::Ai(Level::DEFAULT)],
        g,
        COLOUR,
    );
    let screen = french(&app, 100, 40);
    assert!(screen.contains("Partie terminée"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn snapshot_help_overlay_fr() {
    let mut app = two_humans();
    app.lang = Lang::Fr;
    press(&mut app, Key::Char('?'));
    insta::assert_snapshot!(french(&app, 100, 40));
}

#[test]
fn snapshot_rules_fr() {
    let mut app = two_humans();
    press(&mut app, Key::Char('R'));
    let screen = french(&app, 100, 40);
    for topic in ["Le plateau", "huit directions", "Passer son tour", "nulle"] {
        assert!(screen.contains(topic), "{topic}:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn snapshot_replay_fr() {
    let moves = fixed_game(BoardSize::Eight, FINISHED_8X8);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let mut app = app_in(Lang::Fr, [Player::Human, Player::Human], g, NO_COLOUR);
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    press(&mut app, Key::Right);
    let screen = french(&app, 100, 40);
    assert!(screen.contains("Relecture"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn snapshot_lesson_fr() {
    let mut app = App::new(Choices::default(), NO_COLOUR, 1, Instant::now());
    app.lang = Lang::Fr;
    press(&mut app, Key::Char('r'));
    typed(&mut app, "c3");
    insta::assert_snapshot!(french(&app, 100, 40));
}

#[test]
fn the_language_field_switches_and_is_remembered() {
    let mut app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    assert_eq!(app.lang, Lang::En);
    for _ in 0..6 {
        press(&mut app, Key::Down);
    }
    press(&mut app, Key::Right);
    assert_eq!(app.lang, Lang::Fr);
    let shown = render(&app, 80, 24);
    assert!(
        shown.contains("Nouvelle partie") && shown.contains("Français"),
        "{shown}"
    );
    let fx = press(&mut app, Key::Enter);
    let saved = fx.iter().find_map(|e| match e {
        Effect::SaveChoices(c) => Some(*c),
        _ => None,
    });
    assert_eq!(saved.and_then(|c| c.language), Some(Lang::Fr));
}

#[test]
fn a_language_flag_holds_for_its_run_and_is_not_remembered() {
    // `--lang fr` sets the language before the screen starts.
    let mut app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    app.lang = Lang::Fr;
    assert_eq!(app.lang, Lang::Fr);
    let fx = press(&mut app, Key::Enter);
    let saved = fx.iter().find_map(|e| match e {
        Effect::SaveChoices(c) => Some(*c),
        _ => None,
    });
    assert_eq!(saved.map(|c| c.language), Some(None), "{fx:?}");
    // One remembered earlier stays remembered.
    let before = Choices {
        language: Some(Lang::En),
        ..Choices::default()
    };
    let mut app = App::new(before, COLOUR, 1, Instant::now());
    app.lang = Lang::Fr;
    let fx = press(&mut app, Key::Enter);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::SaveChoices(c) if c.language == Some(Lang::En))),
        "{fx:?}"
    );
}

#[test]
fn the_panel_counts_wrapped_rows_as_the_paragraph_wraps_them() {
    use ratatui::text::Line;
    use ratatui::widgets::{Paragraph, Wrap};
    let width = 30;
    for text in [
        "  ~+4,1 quand g6 donnait ~+15,2",
        "Analyse lancée\u{a0}: [ ] pour sauter aux erreurs",
        "Les Noirs réfléchissent ⠙ 0,1\u{a0}s",
        "Noirs  -7,1/coup 3?! 5? 5??",
        "a-very-long-word-that-is-longer-than-the-panel and more",
    ] {
        let line = Line::from(text);
        let mut terminal = Terminal::new(TestBackend::new(width, 10)).unwrap();
        terminal
            .draw(|f| {
                f.render_widget(
                    Paragraph::new(line.clone()).wrap(Wrap { trim: false }),
                    f.area(),
                );
            })
            .unwrap();
        let buf = terminal.backend().buffer();
        let drawn = (0..10u16)
            .filter(|&y| (0..width).any(|x| buf[(x, y)].symbol() != " "))
            .count();
        let counted = crate::ui::text::wrapped_height(std::slice::from_ref(&line), width);
        assert_eq!(counted, drawn, "{text:?}");
    }
}

#[test]
fn every_row_of_the_key_map_has_its_french_help() {
    for b in &crate::ui::keys::GAME_KEYS {
        let (label, english) = b.row(Lang::En);
        let (_, french) = b.row(Lang::Fr);
        assert_ne!(french, english, "the row {label:?} is not translated");
    }
}

#[test]
fn a_resumed_game_names_its_players_in_the_screens_language() {
    use crate::notation::ggf::Record;
    use crate::ui::record::setup_of;
    let mut r = Record::new(opening(3, 6));
    r.black = "You".into();
    r.white = "AI level 1 (beginner)".into();
    let note = setup_of(Lang::Fr, &r).note.unwrap();
    assert!(note.starts_with("Vous contre IA 1 "), "{note}");
    assert!(note.ends_with("reprise après 6 coups"), "{note}");
    assert!(!note.contains("You") && !note.contains("level"), "{note}");
    // A name from elsewhere stays as written.
    r.black = "Logistello".into();
    let note = setup_of(Lang::En, &r).note.unwrap();
    assert!(note.starts_with("Logistello vs AI 1 "), "{note}");
}

#[test]
fn a_pass_in_the_move_list_is_written_in_french() {
    let app = after_a_pass_fr();
    let screen = french(&app, 100, 40);
    assert!(screen.contains(". passe"), "{screen}");
    assert!(
        !screen.contains(". pass\n") && !screen.contains(". pass "),
        "{screen}"
    );
}

#[test]
fn a_long_player_name_never_runs_into_its_disc_count() {
    let ai = |n| Player::Ai(Level::new(n).unwrap());
    let moves = fixed_game(BoardSize::Eight, FINISHED_8X8);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let app = app_in(Lang::Fr, [ai(10), ai(6)], g, COLOUR);
    let position = game(&app).position();
    for (w, h) in [(100, 40), (80, 24), (120, 40)] {
        let screen = french(&app, w, h);
        for (side, color) in [("● Noirs ", Color::Black), ("○ Blancs ", Color::White)] {
            // The side's row of the panel, right of the board.
            let row = screen
                .lines()
                .find_map(|l| l.find(side).map(|i| &l[i..]))
                .unwrap_or_else(|| panic!("{w}x{h}:\n{screen}"));
            let count = format!(" {}", position.count(color));
            assert!(
                row.trim_end().ends_with(&count),
                "{w}x{h}: {row:?}\n{screen}"
            );
        }
    }
}

#[test]
fn the_hint_and_the_search_write_numbers_the_french_way() {
    let mut app = app_in(
        Lang::Fr,
        [Player::Human, Player::Ai(crate::ai::Level::MAX)],
        Game::new(Rules::standard(BoardSize::Eight)),
        NO_COLOUR,
    );
    typed(&mut app, "f5");
    progressed(&mut app, "f6", Score::Estimate(-345));
    let thinking = french(&app, 100, 40);
    assert!(thinking.contains("d9 f6 ~-3,45"), "{thinking}");
    searched(&mut app, Move::Place(sq("f6")));
    later(&mut app);
    hinted(&mut app, |i| Score::Estimate(1710 - 1720 * i as i32));
    let hint = french(&app, 100, 40);
    assert!(hint.contains("+17,1") && hint.contains("-0,1"), "{hint}");
    assert!(!hint.contains("17.1"), "{hint}");
    // English keeps its point.
    app.lang = Lang::En;
    assert!(render(&app, 100, 40).contains("+17.1"));
}

#[test]
fn french_wording_reads_as_a_player_says_it() {
    use crate::i18n::tr;
    let fr = Lang::Fr;
    let mut app = app_in(
        fr,
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    assert!(french(&app, 100, 40).contains("Aucun coup joué"));
    typed(&mut app, "d4");
    assert_eq!(app.status.as_deref(), Some("d4 est déjà occupée"));
    typed(&mut app, "a1");
    assert_eq!(
        app.status.as_deref(),
        Some("a1 n'est pas jouable\u{a0}: ce coup n'enferme aucun pion adverse")
    );
    let draw = crate::rules::Outcome {
        winner: None,
        black: 32,
        white: 32,
    };
    assert_eq!(
        crate::tr!(
            fr,
            "game-over",
            result = super::super::words::outcome(fr, draw)
        ),
        "Partie terminée\u{a0}: nulle, 32–32"
    );
    let note = crate::tr!(fr, "note-game-of", n = 5, count = 1127, note = "x");
    assert_eq!(
        note.replace(['\u{a0}', '\u{202f}'], " "),
        "Partie 5 sur 1 127 : x"
    );
    for (id, text) in [
        ("newgame-field-level", "Niveau de l'IA"),
        ("rules-normal", "normale\u{a0}: le plus de pions gagne"),
        ("player-human", "Joueur"),
        ("review-decided-never", "Issue\u{a0}: pas encore certaine"),
        ("rules-pass-title", "Passer son tour"),
    ] {
        assert_eq!(tr(fr, id), text);
    }
    let lesson = tr(fr, "lesson-coordinates") + &tr(fr, "lesson-coordinates-task");
    assert!(lesson.contains("Les Noirs jouent en premier"), "{lesson}");
    assert!(lesson.contains("tapez sa case, par exemple e5"), "{lesson}");
    assert!(tr(fr, "lesson-legal").contains("on doit trouver un ou plusieurs pions blancs"));
    let names = [3, 5].map(|n| crate::tr!(fr, "level-name", n = n));
    assert_eq!(names, ["décontracté", "en progrès"]);
}

#[test]
fn the_fastest_ai_pace_says_there_is_no_wait() {
    let mut app = app_in(
        Lang::Fr,
        [
            Player::Ai(crate::ai::Level::DEFAULT),
            Player::Ai(crate::ai::Level::DEFAULT),
        ],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    for _ in 0..6 {
        press(&mut app, Key::Char('+'));
    }
    let status = app.status.clone().unwrap();
    assert!(
        status.contains("sans attente") && !status.contains("0,00"),
        "{status}"
    );
    press(&mut app, Key::Char('-'));
    assert!(app.status.as_deref().unwrap().contains("au moins 0,25"));
}

#[test]
fn the_quit_question_has_french_keys_and_no_plain_yes() {
    let mut app = app_in(
        Lang::Fr,
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    typed(&mut app, "f5q");
    let screen = french(&app, 80, 24);
    for choice in [
        "g      la garder et quitter",
        "s      la supprimer et quitter",
        "Échap  revenir à la partie",
    ] {
        assert!(screen.contains(choice), "{choice}:\n{screen}");
    }
    // Neither the English keys nor a plain "oui" answer.
    for key in ['o', 'k', 'd', 'y'] {
        press(&mut app, Key::Char(key));
        assert!(!app.quit && app.overlay.is_some(), "{key}");
    }
    let fx = press(&mut app, Key::Char('g'));
    assert!(app.quit);
    assert!(!fx.iter().any(|e| matches!(e, Effect::Autosave(_))), "kept");
    let mut app = app_in(
        Lang::Fr,
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    let fx = typed(&mut app, "f5qs");
    assert!(app.quit);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Autosave(None))),
        "discarded"
    );
}

#[test]
fn a_long_recorded_name_is_cut_beside_its_count() {
    use crate::notation::ggf::Record;
    let mut r = Record::new(opening(4, 20));
    r.black = "Pellizzari Maximili".into();
    r.white = "Tastet Marc".into();
    let mut setup = crate::ui::record::view_of(Lang::Fr, &r);
    setup.game.jump(0);
    let app = app_in(Lang::Fr, setup.players, setup.game.clone(), COLOUR);
    let mut app = app;
    start(&mut app, setup);
    for (w, h) in [(100, 40), (80, 24)] {
        let screen = french(&app, w, h);
        let row = screen
            .lines()
            .find(|l| l.contains("● Noirs"))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(row.trim_end().ends_with(" 2"), "{w}x{h}: {row}");
        assert!(row.contains("Pellizzari Ma"), "{w}x{h}: {row}");
        assert!(!screen.contains("Humain"), "{screen}");
    }
    // The move list counts what is played, and names no move before the first.
    assert!(french(&app, 100, 40).contains("Coups  0 joué"));
}
