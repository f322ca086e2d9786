//! Tests of the UI: the update logic as a pure function, a fuzz run of random
//! messages, and screen snapshots on ratatui's `TestBackend` (no AI timing in
//! them: AI results are injected as messages).

use super::app::{
    App, Choices, Effect, Hint, JobKind, Look, Match, Msg, Opponent, Overlay, Player, Screen,
};
use super::layout::{ScreenLayout, layout};
use super::update::{Setup, start, update};
use super::view::view;
use crate::ai::{Level, MoveEval, Progress, Score, SearchResult};
use crate::notation::parse_square;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules, Square, Status};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

const COLOUR: Look = Look {
    color: true,
    ascii: false,
};
const NO_COLOUR: Look = Look {
    color: false,
    ascii: false,
};

fn sq(s: &str) -> Square {
    parse_square(s).unwrap()
}

fn app_with(players: [Player; 2], game: Game, look: Look) -> App {
    let mut app = App::new(Choices::default(), look, 42, Instant::now());
    start(
        &mut app,
        Setup {
            game,
            players,
            note: None,
        },
    );
    let now = app.clock;
    update(&mut app, Msg::Tick(now));
    app
}

fn two_humans() -> App {
    app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    )
}

fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| press(app, KeyCode::Char(c)))
        .collect()
}

fn playing(app: &App) -> &Match {
    app.current().expect("a game is on screen")
}

fn game(app: &App) -> &Game {
    &playing(app).game
}

/// A deterministic random game (placements chosen by a fixed generator).
fn random_game(size: BoardSize, mut seed: u64) -> Vec<Move> {
    let rules = Rules::standard(size);
    let mut g = Game::new(rules);
    while g.outcome().is_none() {
        let moves = g.position().moves_list();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = moves[(seed % moves.len() as u64) as usize];
        g.play(mv).unwrap();
    }
    g.moves().to_vec()
}

/// Moves of a game in which a pass happens: the moves up to (not including)
/// the placement after which the opponent must pass, and that placement.
fn game_before_pass() -> (Vec<Move>, Move) {
    for seed in 1.. {
        let moves = random_game(BoardSize::Eight, seed);
        if let Some(i) = moves.iter().position(|m| *m == Move::Pass)
            && i > 0
            && matches!(moves.get(i + 2), Some(Move::Place(_)))
        {
            return (moves[..i - 1].to_vec(), moves[i - 1]);
        }
    }
    unreachable!()
}

fn searched(app: &mut App, mv: Move) -> Vec<Effect> {
    let job = playing(app).ai.clone().expect("the AI is thinking");
    update(
        app,
        Msg::Searched {
            id: job.id,
            position: job.position,
            result: SearchResult {
                best_move: mv,
                score: Score::Estimate(0),
                depth: 1,
                pv: vec![mv],
                nodes: 1,
                elapsed: Duration::ZERO,
            },
        },
    )
}

/// Lets the pace delay pass so a held AI move is played.
fn later(app: &mut App) {
    let t = app.clock + Duration::from_secs(10);
    update(app, Msg::Tick(t));
}

#[test]
fn cursor_moves_with_arrows_and_vim_keys_and_stays_on_the_board() {
    let mut app = two_humans();
    assert_eq!(playing(&app).cursor, sq("d3"));
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Char('j'));
    assert_eq!(playing(&app).cursor, sq("e4"));
    press(&mut app, KeyCode::Char('k'));
    press(&mut app, KeyCode::Char('h'));
    press(&mut app, KeyCode::Left);
    assert_eq!(playing(&app).cursor, sq("c3"));
    for _ in 0..20 {
        press(&mut app, KeyCode::Up);
        press(&mut app, KeyCode::Char('l'));
    }
    assert_eq!(playing(&app).cursor, sq("h1"));
    assert_eq!(game(&app).ply(), 0, "moving plays nothing");
}

#[test]
fn enter_plays_at_the_cursor_and_typing_a_square_plays_it() {
    let mut app = two_humans();
    press(&mut app, KeyCode::Enter);
    assert_eq!(game(&app).played(), &[Move::Place(sq("d3"))]);
    typed(&mut app, "c5");
    assert_eq!(game(&app).played().len(), 2);
    assert_eq!(playing(&app).cursor, sq("c5"));
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
    players[super::app::colour_index(human)] = Player::Human;
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
    let fx = press(&mut app, KeyCode::Char('u'));
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
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(game(&app).ply(), start_ply);
    assert_eq!(game(&app).status(), Status::ToMove(human));
    // Redo goes forward to the person's turn after the pass.
    let mut app2 = app.clone();
    while game(&app2).ply() < start_ply {
        press(&mut app2, KeyCode::Char('r'));
    }
    press(&mut app2, KeyCode::Char('r'));
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
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(game(&app).ply(), 1);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(game(&app).ply(), 2);
    assert_eq!(game(&app).len(), 3, "the redo tail is kept");
    typed(&mut app, "c5");
    assert_eq!(game(&app).len(), 3, "a different move drops the tail");
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.status.as_deref(), Some("Nothing to redo"));
    for _ in 0..5 {
        press(&mut app, KeyCode::Char('u'));
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
    press(&mut app, KeyCode::Char('u'));
    assert!(game(&app).outcome().is_none());
    press(&mut app, KeyCode::Char('r'));
    assert!(game(&app).outcome().is_some());
}

#[test]
fn hint_asks_the_worker_and_shows_only_for_its_position() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    let fx = press(&mut app, KeyCode::Char('H'));
    let Some(Effect::Start(job)) = fx.first() else {
        panic!("a hint job: {fx:?}");
    };
    assert!(matches!(job.kind, JobKind::Hint { .. }));
    let evals = vec![
        MoveEval {
            mv: Move::Place(sq("f5")),
            score: Score::Estimate(120),
        },
        MoveEval {
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
    let fx = press(&mut app, KeyCode::Char('H'));
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
    let fx = press(&mut app, KeyCode::Char('n'));
    assert!(fx.contains(&Effect::Stop(job.id)), "new game stops the AI");
    let Screen::NewGame(form) = &app.screen else {
        panic!("the new-game screen");
    };
    assert_eq!(form.choices.size, BoardSize::Six);
    assert_eq!(form.choices.level, Level::MAX);
    assert_eq!(form.choices.opponent, Opponent::Computer);
    // Esc goes back to the game, and the AI thinks again.
    press(&mut app, KeyCode::Esc);
    assert_eq!(game(&app).rules().size, BoardSize::Six);
    assert!(playing(&app).ai.is_some());
    press(&mut app, KeyCode::Char('n'));
    // Opponent: a person; Board: back to 8x8.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Left);
    let fx = press(&mut app, KeyCode::Enter);
    assert!(matches!(fx.first(), Some(Effect::SaveChoices(c)) if c.opponent == Opponent::Human));
    assert_eq!(playing(&app).players, [Player::Human, Player::Human]);
    assert_eq!(game(&app).rules().size, BoardSize::Eight);
    assert_eq!(game(&app).ply(), 0);
}

#[test]
fn a_random_colour_is_announced() {
    let mut app = App::new(Choices::default(), COLOUR, 9, Instant::now());
    press(&mut app, KeyCode::Enter);
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
    press(&mut app, KeyCode::Char('q'));
    assert!(app.quit, "nothing to lose before the first move");
    let mut app = two_humans();
    typed(&mut app, "f5q");
    assert_eq!(app.overlay, Some(Overlay::ConfirmQuit));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.overlay, None);
    assert!(!app.quit);
    typed(&mut app, "qy");
    assert!(app.quit);
    let mut app = two_humans();
    typed(&mut app, "f5");
    update(
        &mut app,
        Msg::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
    );
    assert!(app.quit);
}

#[test]
fn key_releases_are_ignored_and_help_closes_with_esc() {
    let mut app = two_humans();
    let release = KeyEvent {
        code: KeyCode::Enter,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Release,
        state: KeyEventState::NONE,
    };
    update(&mut app, Msg::Key(release));
    assert_eq!(game(&app).ply(), 0);
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(app.overlay, Some(Overlay::Help));
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.overlay, None, "Enter closes help");
    assert_eq!(game(&app).ply(), 0, "and plays nothing");
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, None);
}

#[test]
fn a_click_plays_the_square_drawn_under_it() {
    let mut app = two_humans();
    for (w, h) in [(100, 40), (80, 24), (56, 14)] {
        update(
            &mut app,
            Msg::Resize {
                width: w,
                height: h,
            },
        );
        let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, w, h), BoardSize::Eight)
        else {
            panic!("fits");
        };
        let legal = game(&app).position().legal_moves().iter().next().unwrap();
        let cell = board.cell(legal);
        // Check the drawing agrees: the cell shows a legal dot.
        let text = render(&app, w, h);
        let row: String = text
            .lines()
            .nth(usize::from(cell.y + cell.height / 2))
            .unwrap()
            .chars()
            .collect();
        let centre: String = row
            .chars()
            .skip(usize::from(cell.x + cell.width / 2))
            .take(1)
            .collect();
        assert_eq!(centre, "·", "{w}x{h}: {row}");
        let before = game(&app).ply();
        update(
            &mut app,
            Msg::Click {
                x: cell.x + cell.width - 1,
                y: cell.y,
            },
        );
        assert_eq!(game(&app).ply(), before + 1);
        assert_eq!(game(&app).last_move(), Some(Move::Place(legal)));
    }
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
    let fx = press(&mut app, KeyCode::Char(' '));
    assert!(matches!(fx.first(), Some(Effect::Stop(_))));
    assert!(playing(&app).paused && playing(&app).ai.is_none());
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(playing(&app).player(Color::White), Player::Human);
    typed(&mut app, "d6");
    assert_eq!(game(&app).ply(), 2);
    assert!(playing(&app).ai.is_some(), "Black's AI thinks again");
    press(&mut app, KeyCode::Char('-'));
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('+'));
    assert!(app.status.as_deref().unwrap().contains("pace"));
}

// ---- fuzz ----

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_message(rng: &mut Rng, app: &App, jobs: &[(u64, Position, JobKind)]) -> Msg {
    const KEYS: &[KeyCode] = &[
        KeyCode::Up,
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Home,
        KeyCode::Backspace,
        KeyCode::F(1),
    ];
    const CHARS: &str = "abcdefghijklmnopqrstuvwxyz12345678 ?+-=.HLNQ0";
    match rng.below(20) {
        0..=4 => Msg::Key(KeyEvent::new(
            KEYS[rng.below(KEYS.len() as u64) as usize],
            KeyModifiers::NONE,
        )),
        5..=10 => {
            let c = CHARS.as_bytes()[rng.below(CHARS.len() as u64) as usize] as char;
            // Rarely quit, so that games get long.
            let c = if matches!(c, 'q' | 'n') && rng.below(8) != 0 {
                'u'
            } else {
                c
            };
            Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
        }
        11..=12 => Msg::Click {
            x: rng.below(u64::from(app.area.0) + 5) as u16,
            y: rng.below(u64::from(app.area.1) + 5) as u16,
        },
        13 => Msg::Resize {
            width: rng.below(160) as u16,
            height: rng.below(60) as u16,
        },
        14..=15 => Msg::Tick(app.clock + Duration::from_millis(rng.below(3000))),
        _ => {
            // A reply from the "worker": usually for a real job, sometimes stale.
            let Some(&(id, position, kind)) = jobs.get(rng.below(jobs.len() as u64 + 1) as usize)
            else {
                return Msg::Tick(app.clock);
            };
            let legal = position.moves_list();
            let mv = if legal.is_empty() || rng.below(10) == 0 {
                Move::Pass
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            match (kind, rng.below(7)) {
                (_, 6) => Msg::Failed {
                    id,
                    message: "fuzz".into(),
                },
                (_, 0) => Msg::Progress {
                    id,
                    progress: Progress {
                        depth: 3,
                        best_move: mv,
                        score: Score::Estimate(5),
                        nodes: 10,
                        elapsed: Duration::ZERO,
                    },
                },
                (JobKind::Move { .. }, _) => Msg::Searched {
                    id,
                    position,
                    result: SearchResult {
                        best_move: mv,
                        score: Score::Exact(2),
                        depth: 2,
                        pv: vec![mv],
                        nodes: 5,
                        elapsed: Duration::ZERO,
                    },
                },
                (JobKind::Hint { .. }, _) => Msg::Analysed {
                    id,
                    position,
                    evals: legal
                        .iter()
                        .map(|&mv| MoveEval {
                            mv,
                            score: Score::Estimate(rng.below(2000) as i32 - 1000),
                        })
                        .collect(),
                },
            }
        }
    }
}

fn check_invariants(app: &App) {
    let Some(m) = app.current() else {
        return;
    };
    let g = &m.game;
    let size = g.rules().size;
    assert!(size.contains(m.cursor), "cursor {} off the board", m.cursor);
    assert!(g.ply() <= g.len());
    if !app.quit {
        assert!(
            !matches!(g.status(), Status::MustPass(_)),
            "a forced pass is never left pending"
        );
    }
    if let Some(job) = &m.ai {
        assert_eq!(
            job.position,
            g.position(),
            "the AI searches the board shown"
        );
        assert!(m.player(g.side_to_move()).is_ai());
    }
    if let Some(Hint { position, .. }) = &m.hint {
        assert_eq!(*position, g.position(), "a hint is for the board shown");
    }
    // The game on screen is a game the rules accept, move by move.
    let replay = Game::with_moves(g.rules(), g.start(), g.moves()).expect("legal history");
    assert_eq!(replay.moves(), g.moves());
}

#[test]
fn random_message_sequences_never_panic_and_keep_invariants() {
    for seed in 1..=4u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut app = App::new(
            Choices::default(),
            if seed % 2 == 0 { COLOUR } else { NO_COLOUR },
            seed,
            Instant::now(),
        );
        let mut jobs: Vec<(u64, Position, JobKind)> = Vec::new();
        let backend = TestBackend::new(1, 1);
        let mut terminal = Terminal::new(backend).unwrap();
        for step in 0..1500 {
            let msg = random_message(&mut rng, &app, &jobs);
            for fx in update(&mut app, msg) {
                if let Effect::Start(job) = fx {
                    jobs.push((job.id, job.position, job.kind));
                    if jobs.len() > 8 {
                        jobs.remove(0);
                    }
                }
            }
            check_invariants(&app);
            if app.quit {
                app = App::new(Choices::default(), COLOUR, seed + step, app.clock);
                jobs.clear();
            }
            if step % 3 == 0 {
                let (w, h) = app.area;
                terminal.backend_mut().resize(w, h);
                terminal.draw(|f| view(&app, f)).unwrap();
            }
        }
    }
}

// ---- snapshots ----

fn render(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| view(app, f)).unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..height {
        let mut line = String::new();
        for x in 0..width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn sized(mut app: App, w: u16, h: u16) -> (App, u16, u16) {
    update(
        &mut app,
        Msg::Resize {
            width: w,
            height: h,
        },
    );
    (app, w, h)
}

#[test]
fn snapshot_new_game_screen() {
    let app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_opening_with_dots() {
    let (app, w, h) = sized(two_humans(), 80, 24);
    insta::assert_snapshot!(render(&app, w, h));
}

#[test]
fn snapshot_after_a_move_with_flip_markers() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        NO_COLOUR,
    );
    typed(&mut app, "f5d6c3");
    press(&mut app, KeyCode::Up);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_a_pass() {
    let (before, mv) = game_before_pass();
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
    let mut app = app_with([Player::Human, Player::Human], g, NO_COLOUR);
    typed(&mut app, &mv.to_string());
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_game_over() {
    let moves = random_game(BoardSize::Eight, 11);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let app = app_with([Player::Human, Player::Ai(Level::DEFAULT)], g, COLOUR);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_help_overlay() {
    let mut app = two_humans();
    press(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_terminal_too_small() {
    let app = two_humans();
    insta::assert_snapshot!(render(&app, 40, 12));
}

#[test]
fn snapshot_no_color_large_cells_with_hint() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::new(Rules::standard(BoardSize::Eight)),
        NO_COLOUR,
    );
    typed(&mut app, "f5");
    searched(&mut app, Move::Place(sq("f6")));
    later(&mut app);
    let fx = press(&mut app, KeyCode::Char('H'));
    let Some(Effect::Start(job)) = fx.first() else {
        panic!("hint job");
    };
    let evals = game(&app)
        .position()
        .moves_list()
        .into_iter()
        .enumerate()
        .map(|(i, mv)| MoveEval {
            mv,
            score: Score::Estimate(150 - 100 * i as i32),
        })
        .collect();
    update(
        &mut app,
        Msg::Analysed {
            id: job.id,
            position: job.position,
            evals,
        },
    );
    insta::assert_snapshot!(render(&app, 100, 40));
}

#[test]
fn snapshot_6x6_game() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Six)),
        COLOUR,
    );
    typed(&mut app, "c2");
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_ascii_compact() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        Look {
            color: false,
            ascii: true,
        },
    );
    typed(&mut app, "f5d6");
    insta::assert_snapshot!(render(&app, 60, 16));
}

#[test]
fn snapshot_ai_thinking() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::MAX)],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    );
    typed(&mut app, "f5");
    let job = playing(&app).ai.clone().unwrap();
    let t = job.started + Duration::from_millis(1234);
    update(&mut app, Msg::Tick(t));
    update(
        &mut app,
        Msg::Progress {
            id: job.id,
            progress: Progress {
                depth: 9,
                best_move: Move::Place(sq("f6")),
                score: Score::Estimate(-35),
                nodes: 12345,
                elapsed: Duration::from_millis(1234),
            },
        },
    );
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn colour_discs_read_on_a_board_of_their_own() {
    use ratatui::style::Color as Tint;
    let app = two_humans();
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| view(&app, f)).unwrap();
    let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight) else {
        panic!("fits");
    };
    let buf = terminal.backend().buffer();
    let at = |s: &str| {
        let c = board.cell(sq(s));
        buf[(c.x + c.width / 2, c.y + c.height / 2)].clone()
    };
    let (black, white) = (at("e4"), at("d4"));
    assert_eq!(black.fg, Tint::Rgb(0, 0, 0));
    assert_eq!(white.fg, Tint::Rgb(255, 255, 255));
    assert_eq!(black.bg, white.bg, "both on the board's own green");
    assert_ne!(black.bg, Tint::Reset);
}

#[test]
fn without_colour_the_flip_preview_and_last_move_have_glyphs() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        NO_COLOUR,
    );
    let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, 80, 24), BoardSize::Eight) else {
        panic!("fits");
    };
    let cell_text = |app: &App, s: &str| -> String {
        let text = render(app, 80, 24);
        let c = board.cell(sq(s));
        let row = text.lines().nth(usize::from(c.y + c.height / 2)).unwrap();
        row.chars()
            .skip(usize::from(c.x))
            .take(usize::from(c.width))
            .collect()
    };
    // The cursor on d3 (legal for Black) previews the flip of d4.
    assert_eq!(cell_text(&app, "d3"), "[·]");
    assert_eq!(cell_text(&app, "d4"), " ○~");
    typed(&mut app, "d3");
    assert_eq!(cell_text(&app, "d3"), "[●]", "cursor over the last move");
    press(&mut app, KeyCode::Right);
    assert_eq!(cell_text(&app, "d3"), "(●)");
    assert_eq!(cell_text(&app, "d4"), " ●*");
    // Dots off.
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(cell_text(&app, "c3"), "   ");
    press(&mut app, KeyCode::Char('L'));
    assert_eq!(cell_text(&app, "c3"), " · ");
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
    let fx = press(&mut app, KeyCode::Char(' '));
    assert!(matches!(fx.first(), Some(Effect::Start(_))));
    assert!(playing(&app).ai.is_some());
}

#[test]
fn the_banner_names_the_scoring_rule_when_it_counts() {
    // 6x6, Black to move: a1 Black, b1 White; Black takes b1 and White is gone.
    let start = crate::notation::parse_board(&format!("XO{} X", "-".repeat(34))).unwrap();
    let rules = Rules::standard(BoardSize::Six);
    let g = Game::with_moves(rules, start, &[Move::Place(sq("c1"))]).unwrap();
    let app = app_with([Player::Human, Player::Human], g, COLOUR);
    let text = render(&app, 80, 24);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("Game over: Black wins 36–0 (empties") && flat.contains("to the winner)"),
        "{text}"
    );
}
