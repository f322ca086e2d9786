//! The update function, message by message: cursor, moves, passes, undo and
//! redo against the AI, hints, new game, quitting.

use super::*;
#[test]
fn cursor_moves_with_arrows_and_vim_keys_and_stays_on_the_board() {
    let mut app = two_humans();
    assert_eq!(playing(&app).input.cursor(), sq("d3"));
    press(&mut app, Key::Right);
    press(&mut app, Key::Char('j'));
    assert_eq!(playing(&app).input.cursor(), sq("e4"));
    press(&mut app, Key::Char('k'));
    press(&mut app, Key::Char('h'));
    press(&mut app, Key::Left);
    assert_eq!(playing(&app).input.cursor(), sq("c3"));
    for _ in 0..20 {
        press(&mut app, Key::Up);
        press(&mut app, Key::Char('l'));
    }
    assert_eq!(playing(&app).input.cursor(), sq("h1"));
    assert_eq!(game(&app).ply(), 0, "moving plays nothing");
}

#[test]
fn enter_plays_at_the_cursor_and_typing_a_square_plays_it() {
    let mut app = two_humans();
    press(&mut app, Key::Enter);
    assert_eq!(game(&app).played(), &[Move::Place(sq("d3"))]);
    typed(&mut app, "c5");
    assert_eq!(game(&app).played().len(), 2);
    assert_eq!(playing(&app).input.cursor(), sq("c5"));
    // `h` then a digit plays on column h even though `h` also moves left.
    let mut app = two_humans();
    typed(&mut app, "h1");
    assert!(app.status.as_deref().unwrap().contains("h1 is not legal"));
}

#[test]
fn an_illegal_move_explains_itself_and_changes_nothing() {
    let mut app = two_humans();
    typed(&mut app, "a1");
    assert_eq!(
        app.status.as_deref(),
        Some("a1 is not legal: it encloses no line")
    );
    typed(&mut app, "d4");
    assert_eq!(
        app.status.as_deref(),
        Some("d4 is not legal: the square is occupied")
    );
    assert_eq!(game(&app).ply(), 0);
    typed(&mut app, "d3");
    assert_eq!(app.status, None, "a good move clears the message");
}

#[test]
fn off_board_squares_on_6x6_are_explained() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Six)),
        COLOUR,
    );
    typed(&mut app, "g1");
    assert_eq!(game(&app).ply(), 0);
    typed(&mut app, "a7");
    assert!(app.status.as_deref().unwrap().contains("not on the 6x6"));
}

#[test]
fn keys_that_name_no_square_say_how_to_type_one() {
    let mut app = two_humans();
    typed(&mut app, "z");
    let status = app.status.clone().unwrap_or_default();
    assert!(
        status.contains("z is not a column") && status.contains("a to h"),
        "{status}"
    );
    typed(&mut app, "9");
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("column first"), "{status}");
    for bad in ["c9", "c0"] {
        typed(&mut app, bad);
        let status = app.status.clone().unwrap_or_default();
        assert!(
            status.contains(&format!("{bad} is not on the 8x8 board")),
            "{status}"
        );
    }
    assert_eq!(game(&app).ply(), 0);
    // On 6x6, the columns end at f.
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Six)),
        COLOUR,
    );
    typed(&mut app, "g");
    let status = app.status.clone().unwrap_or_default();
    assert!(status.contains("a to f"), "{status}");
    typed(&mut app, "c2");
    assert_eq!(game(&app).ply(), 1, "{:?}", app.status);
}

#[test]
fn a_forced_pass_is_played_and_explained() {
    let (before, mv) = game_before_pass();
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
    let mover = g.side_to_move();
    let mut app = app_with([Player::Human, Player::Human], g, COLOUR);
    typed(&mut app, &mv.to_string());
    let g = game(&app);
    assert_eq!(g.played().last(), Some(&Move::Pass));
    assert_eq!(g.side_to_move(), mover, "the same side moves again");
    assert_eq!(
        app.status,
        Some(format!("{} has no legal move and passes", mover.opponent()))
    );
}

#[test]
fn undo_against_the_ai_goes_back_to_the_persons_turn_through_a_pass() {
    let (before, mv) = game_before_pass();
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
    let human = g.side_to_move();
    let mut players = [Player::Ai(Level::MIN); 2];
    players[human.index()] = Player::Human;
    let mut app = app_with(players, g, COLOUR);
    let start_ply = game(&app).ply();
    // The person moves; the AI must pass; the person moves again.
    typed(&mut app, &mv.to_string());
    assert_eq!(game(&app).side_to_move(), human);
    assert!(playing(&app).ai.is_none(), "no search for a forced pass");
    let after_pass = game(&app).ply();
    let position = game(&app).position();
    let next = position
        .moves_list()
        .into_iter()
        .find(|&mv| position.play(mv).unwrap().status() == Status::ToMove(human.opponent()))
        .expect("a move that leaves the AI to move");
    let fx = typed(&mut app, &next.to_string());
    // The AI is to move now and thinking.
    let job = playing(&app).ai.clone().expect("AI thinking");
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Start(j) if j.id == job.id))
    );
    // Undo stops it and returns to the person's turn after the pass.
    let fx = press(&mut app, Key::Char('u'));
    assert!(fx.contains(&Effect::Stop(job.id)));
    assert!(playing(&app).ai.is_none());
    assert_eq!(game(&app).ply(), after_pass);
    // A late result for the position no longer on the board is dropped.
    update(
        &mut app,
        Msg::Searched {
            id: job.id,
            position: job.position,
            result: SearchResult {
                book: false,
                best_move: job.position.moves_list()[0],
                score: Score::Exact(0),
                depth: 1,
                pv: vec![],
                nodes: 0,
                elapsed: Duration::ZERO,
            },
        },
    );
    later(&mut app);
    assert_eq!(game(&app).ply(), after_pass);
    assert_eq!(game(&app).side_to_move(), human);
    // Once more: through the AI's pass, to before the person's first move.
    press(&mut app, Key::Char('u'));
    assert_eq!(game(&app).ply(), start_ply);
    assert_eq!(game(&app).status(), Status::ToMove(human));
    // Redo goes forward to the person's turn after the pass.
    let mut app2 = app.clone();
    while game(&app2).ply() < start_ply {
        press(&mut app2, Key::Char('r'));
    }
    press(&mut app2, Key::Char('r'));
    assert_eq!(game(&app2).ply(), after_pass);
    assert_eq!(game(&app2).moves()[after_pass - 1], Move::Pass);
}

#[test]
fn the_ai_plays_its_move_and_stale_results_are_dropped() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    let fx = typed(&mut app, "f5");
    let job = playing(&app).ai.clone().unwrap();
    assert!(fx.iter().any(|e| matches!(
        e,
        Effect::Start(j) if j.id == job.id && matches!(j.kind, JobKind::Move { .. })
    )));
    // Keys still work while it thinks; a person cannot move for it.
    typed(&mut app, "d6");
    assert_eq!(game(&app).ply(), 1);
    assert!(app.status.as_deref().unwrap().contains("White (AI)"));
    // A result for another job or position is ignored.
    update(
        &mut app,
        Msg::Searched {
            id: job.id + 99,
            position: job.position,
            result: SearchResult {
                book: false,
                best_move: Move::Place(sq("f6")),
                score: Score::Exact(0),
                depth: 1,
                pv: vec![],
                nodes: 0,
                elapsed: Duration::ZERO,
            },
        },
    );
    assert_eq!(game(&app).ply(), 1);
    // The real one is held for the pace, then played.
    searched(&mut app, Move::Place(sq("f6")));
    assert_eq!(game(&app).ply(), 1, "held until the pace allows");
    later(&mut app);
    assert_eq!(
        game(&app).played(),
        &[Move::Place(sq("f5")), Move::Place(sq("f6"))]
    );
    assert!(playing(&app).ai.is_none());
}

#[test]
fn undo_and_redo_between_two_people_go_one_move_at_a_time() {
    let mut app = two_humans();
    typed(&mut app, "f5d6c3");
    press(&mut app, Key::Char('u'));
    press(&mut app, Key::Char('u'));
    assert_eq!(game(&app).ply(), 1);
    press(&mut app, Key::Char('r'));
    assert_eq!(game(&app).ply(), 2);
    assert_eq!(game(&app).len(), 3, "the redo tail is kept");
    typed(&mut app, "c5");
    assert_eq!(game(&app).len(), 3, "a different move drops the tail");
    press(&mut app, Key::Char('r'));
    assert_eq!(app.status.as_deref(), Some("Nothing to redo"));
    for _ in 0..5 {
        press(&mut app, Key::Char('u'));
    }
    assert_eq!(game(&app).ply(), 0);
    assert_eq!(app.status.as_deref(), Some("Nothing to undo"));
}

#[test]
fn undo_works_at_game_over() {
    let moves = random_game(BoardSize::Six, 7);
    let rules = Rules::standard(BoardSize::Six);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let mut app = app_with([Player::Human, Player::Human], g, COLOUR);
    assert!(game(&app).outcome().is_some());
    press(&mut app, Key::Char('u'));
    assert!(game(&app).outcome().is_none());
    press(&mut app, Key::Char('r'));
    assert!(game(&app).outcome().is_some());
}

#[test]
fn hint_asks_the_worker_and_shows_only_for_its_position() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    let fx = press(&mut app, Key::Char('H'));
    let Some(Effect::Start(job)) = fx.first() else {
        panic!("a hint job: {fx:?}");
    };
    assert!(matches!(job.kind, JobKind::Hint { .. }));
    let evals = vec![
        MoveEval {
            book: false,
            mv: Move::Place(sq("f5")),
            score: Score::Estimate(120),
        },
        MoveEval {
            book: false,
            mv: Move::Place(sq("d3")),
            score: Score::Estimate(-40),
        },
    ];
    update(
        &mut app,
        Msg::Analysed {
            id: job.id + 1,
            position: job.position,
            evals: evals.clone(),
        },
    );
    assert!(
        playing(&app).hint.as_ref().unwrap().evals.is_empty(),
        "stale"
    );
    update(
        &mut app,
        Msg::Analysed {
            id: job.id,
            position: job.position,
            evals,
        },
    );
    assert_eq!(playing(&app).hint.as_ref().unwrap().evals.len(), 2);
    // Playing a move drops the hint and stops nothing else.
    let fx = typed(&mut app, "f5");
    assert!(fx.contains(&Effect::Stop(job.id)));
    assert!(playing(&app).hint.is_none());
    // No hint while the AI is to move.
    let fx = press(&mut app, Key::Char('H'));
    assert!(fx.is_empty());
}

#[test]
fn new_game_goes_to_the_form_and_starts_from_it() {
    let mut app = app_with(
        [Player::Ai(Level::MAX), Player::Human],
        Game::new(Rules::standard(BoardSize::Six)),
        COLOUR,
    );
    let job = playing(&app).ai.clone().unwrap();
    let fx = press(&mut app, Key::Char('n'));
    assert!(fx.contains(&Effect::Stop(job.id)), "new game stops the AI");
    let Screen::NewGame(form) = &app.screen else {
        panic!("the new-game screen");
    };
    assert_eq!(form.choices.size, BoardSize::Six);
    assert_eq!(form.choices.level, Level::MAX);
    assert_eq!(form.choices.opponent, Opponent::Computer);
    // Esc goes back to the game, and the AI thinks again.
    press(&mut app, Key::Esc);
    assert_eq!(game(&app).rules().size, BoardSize::Six);
    assert!(playing(&app).ai.is_some());
    press(&mut app, Key::Char('n'));
    // Opponent: a person; Board: back to 8x8.
    press(&mut app, Key::Right);
    press(&mut app, Key::Down);
    press(&mut app, Key::Down);
    press(&mut app, Key::Down);
    press(&mut app, Key::Left);
    let fx = press(&mut app, Key::Enter);
    assert!(matches!(fx.first(), Some(Effect::SaveChoices(c)) if c.opponent == Opponent::Human));
    assert_eq!(playing(&app).players, [Player::Human, Player::Human]);
    assert_eq!(game(&app).rules().size, BoardSize::Eight);
    assert_eq!(game(&app).ply(), 0);
}

#[test]
fn a_random_colour_is_announced() {
    let mut app = App::new(Choices::default(), COLOUR, 9, Instant::now());
    press(&mut app, Key::Enter);
    let note = app.status.clone().unwrap();
    assert!(note.starts_with("Drawn at random: you play"), "{note}");
    let m = playing(&app);
    let you = if note.contains("you play Black") {
        Color::Black
    } else {
        Color::White
    };
    assert_eq!(m.player(you), Player::Human);
    assert!(m.player(you.opponent()).is_ai());
}

#[test]
fn quitting_asks_during_a_game_and_ctrl_c_does_not() {
    let mut app = two_humans();
    press(&mut app, Key::Char('q'));
    assert!(app.quit, "nothing to lose before the first move");
    let mut app = two_humans();
    typed(&mut app, "f5q");
    assert_eq!(app.overlay, Some(Overlay::ConfirmQuit));
    press(&mut app, Key::Char('n'));
    assert_eq!(app.overlay, None);
    assert!(!app.quit);
    // A plain yes answers nothing: the destructive choice has its own key.
    typed(&mut app, "qy");
    assert!(!app.quit && app.overlay == Some(Overlay::ConfirmQuit));
    let fx = press(&mut app, Key::Char('d'));
    assert!(app.quit);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Autosave(None))),
        "d discards the unfinished game"
    );
    // k quits and keeps the autosave for the next start.
    let mut app = two_humans();
    typed(&mut app, "f5q");
    let screen = render(&app, 80, 24);
    for choice in [
        "k    keep it and quit",
        "d    discard it and quit",
        "Esc  back to the game",
    ] {
        assert!(screen.contains(choice), "{choice}: {screen}");
    }
    let fx = press(&mut app, Key::Char('k'));
    assert!(app.quit);
    assert!(
        !fx.iter().any(|e| matches!(e, Effect::Autosave(_))),
        "k keeps the autosave: {fx:?}"
    );
    let mut app = two_humans();
    typed(&mut app, "f5");
    update(&mut app, Msg::Key(KeyPress::ctrl(Key::Char('c'))));
    assert!(app.quit);
}

#[test]
fn key_releases_are_ignored_and_help_closes_with_esc() {
    use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
    let mut app = two_humans();
    let release = KeyEvent {
        code: KeyCode::Enter,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    };
    // Releases are dropped where terminal events become messages.
    if let Some(msg) = crate::ui::message_of(Event::Key(release)) {
        update(&mut app, msg);
    }
    assert_eq!(game(&app).ply(), 0);
    press(&mut app, Key::Char('?'));
    assert_eq!(app.overlay, Some(Overlay::Help));
    press(&mut app, Key::Enter);
    assert_eq!(app.overlay, None, "Enter closes help");
    assert_eq!(game(&app).ply(), 0, "and plays nothing");
    press(&mut app, Key::Char('?'));
    press(&mut app, Key::Esc);
    assert_eq!(app.overlay, None);
}

#[test]
fn watching_ai_versus_ai_pauses_and_a_person_can_take_over() {
    let mut app = app_with(
        [Player::Ai(Level::MIN), Player::Ai(Level::MIN)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    searched(&mut app, Move::Place(sq("f5")));
    later(&mut app);
    assert_eq!(game(&app).ply(), 1);
    let fx = press(&mut app, Key::Char(' '));
    assert!(matches!(fx.first(), Some(Effect::Stop(_))));
    assert!(playing(&app).paused && playing(&app).ai.is_none());
    press(&mut app, Key::Char('t'));
    assert_eq!(playing(&app).player(Color::White), Player::Human);
    typed(&mut app, "d6");
    assert_eq!(game(&app).ply(), 2);
    assert!(playing(&app).ai.is_some(), "Black's AI thinks again");
    press(&mut app, Key::Char('-'));
    press(&mut app, Key::Char('+'));
    press(&mut app, Key::Char('+'));
    assert!(app.status.as_deref().unwrap().contains("pace"));
}

#[test]
fn a_failing_ai_is_reported_and_paused_not_fatal() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    typed(&mut app, "f5");
    let job = playing(&app).ai.clone().unwrap();
    update(
        &mut app,
        Msg::Failed {
            id: job.id,
            message: "boom".into(),
        },
    );
    assert!(playing(&app).ai.is_none() && playing(&app).paused);
    assert!(app.status.as_deref().unwrap().contains("boom"));
    // Space retries.
    let fx = press(&mut app, Key::Char(' '));
    assert!(matches!(fx.first(), Some(Effect::Start(_))));
    assert!(playing(&app).ai.is_some());
}

#[test]
fn chords_are_not_plain_keys_and_a_typed_column_is_shown() {
    let mut app = two_humans();
    typed(&mut app, "f5");
    update(&mut app, Msg::Key(KeyPress::ctrl(Key::Char('u'))));
    update(&mut app, Msg::Key(KeyPress::alt(Key::Char('u'))));
    assert_eq!(game(&app).ply(), 1, "Ctrl-U and Alt-U do not undo");
    typed(&mut app, "f");
    assert_eq!(playing(&app).input.typed(), Some('f'));
    assert!(render(&app, 80, 24).contains("f_ typed"));
    press(&mut app, Key::Esc);
    assert_eq!(playing(&app).input.typed(), None);
}

#[test]
fn taking_over_names_the_level_once() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::new(3).unwrap())],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    press(&mut app, Key::Char('t'));
    let status = app.status.clone().unwrap();
    assert!(
        status.starts_with("The AI (level 3, casual) now plays"),
        "{status}"
    );
}

#[test]
fn the_new_game_screen_dims_the_ai_level_against_a_person() {
    use super::super::model::{ColourChoice, Opponent};
    let choices = Choices {
        opponent: Opponent::Human,
        ..Choices::default()
    };
    let app = App::new(choices, COLOUR, 1, Instant::now());
    let mut terminal = Terminal::new(TestBackend::new(100, 40)).unwrap();
    terminal.draw(|f| view(&app, f)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let dim = crate::ui::theme::theme(COLOUR).dim;
    let label_style = |label: &str| {
        (0..40u16)
            .find_map(|y| {
                let row: String = (0..100u16)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect();
                row.find(label).map(|col| {
                    let x = row[..col].chars().count() as u16;
                    buf[(x, y)].style()
                })
            })
            .unwrap_or_else(|| panic!("{label} on screen"))
    };
    assert_eq!(label_style("AI level").fg, dim.fg, "not relevant: dimmed");
    assert_ne!(label_style("Board").fg, dim.fg, "relevant: not dimmed");
    // And `n` after a game with the colour drawn at random preselects that again.
    let mut app = App::new(
        Choices {
            opponent: Opponent::Computer,
            colour: ColourChoice::Random,
            ..Choices::default()
        },
        COLOUR,
        1,
        Instant::now(),
    );
    press(&mut app, Key::Enter);
    assert!(app.current().is_some());
    press(&mut app, Key::Char('n'));
    let Screen::NewGame(form) = &app.screen else {
        panic!("the new-game screen")
    };
    assert_eq!(form.choices.colour, ColourChoice::Random);
}

#[test]
fn terminal_keys_become_the_models_keys_with_their_modifiers() {
    use crate::ui::terminal::key_press;
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let ev = |code, modifiers| key_press(KeyEvent::new(code, modifiers));
    assert_eq!(
        ev(KeyCode::Char('c'), KeyModifiers::CONTROL),
        KeyPress::ctrl(Key::Char('c'))
    );
    assert_eq!(
        ev(KeyCode::Char('u'), KeyModifiers::ALT),
        KeyPress::alt(Key::Char('u'))
    );
    let shifted = ev(KeyCode::Char('H'), KeyModifiers::SHIFT);
    assert_eq!(shifted.key, Key::Char('H'));
    assert!(shifted.shift && !shifted.is_plain() && !shifted.is_chord());
    assert_eq!(
        ev(KeyCode::PageDown, KeyModifiers::NONE),
        KeyPress::plain(Key::PageDown)
    );
    assert_eq!(
        ev(KeyCode::Backspace, KeyModifiers::NONE),
        KeyPress::plain(Key::Backspace)
    );
    for other in [KeyCode::F(5), KeyCode::Insert] {
        assert_eq!(ev(other, KeyModifiers::NONE), KeyPress::plain(Key::Other));
    }
}

#[test]
fn a_hint_from_the_opening_book_says_so() {
    let mut app = two_humans();
    for book in [false, true] {
        let fx = press(&mut app, Key::Char('H'));
        let Some(Effect::Start(job)) = fx.first() else {
            panic!("a hint job: {fx:?}");
        };
        let evals = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|s| MoveEval {
                book,
                mv: Move::Place(sq(s)),
                score: Score::Estimate(0),
            })
            .collect();
        let (id, position) = (job.id, job.position);
        update(
            &mut app,
            Msg::Analysed {
                id,
                position,
                evals,
            },
        );
        let said = app.status.clone().unwrap_or_default();
        assert_eq!(said.contains("opening book"), book, "{said}");
        press(&mut app, Key::Char('H'));
    }
}
