//! Replay mode, continuing from a shown move, saving and loading, the autosave.

use super::*;
use crate::i18n::Lang;
use crate::notation::ggf::{Record, parse_ggf, write_ggf};
use crate::ui::layout::{MoveList, moves_area};
use crate::ui::model::{Mode, Pace};
use crate::ui::{record, replay};

fn finished(seed: u64, size: BoardSize) -> Game {
    let rules = Rules::standard(size);
    Game::with_moves(rules, Position::initial(size), &random_game(size, seed)).unwrap()
}

fn replaying(app: &App) -> bool {
    matches!(playing(app).mode, Mode::Replay(_))
}

#[test]
fn replay_shows_the_rules_position_after_every_ply_passes_included() {
    let mut with_pass = 0;
    for seed in 1..40 {
        let size = if seed % 3 == 0 {
            BoardSize::Six
        } else {
            BoardSize::Eight
        };
        let moves = random_game(size, seed);
        with_pass += usize::from(moves.contains(&Move::Pass));
        let mut app = app_with([Player::Human, Player::Human], finished(seed, size), COLOUR);
        press(&mut app, Key::Char('v'));
        assert!(replaying(&app));
        press(&mut app, Key::Home);
        let check = |app: &App, ply: usize| {
            let mut g = Game::new(Rules::standard(size));
            for mv in &moves[..ply] {
                g.play(*mv).unwrap();
            }
            assert_eq!(game(app).ply(), ply);
            assert_eq!(game(app).position(), g.position(), "seed {seed} ply {ply}");
            assert_eq!(
                replay::header(Lang::En, playing(app)),
                format!("Replay — move {ply} of {}", moves.len())
            );
        };
        for ply in 0..=moves.len() {
            check(&app, ply);
            let fx = press(&mut app, Key::Right);
            assert!(fx.is_empty(), "stepping starts no AI and plays no pass");
        }
        check(&app, moves.len());
        for ply in (0..moves.len()).rev() {
            press(&mut app, Key::Left);
            check(&app, ply);
        }
        press(&mut app, Key::PageDown);
        check(&app, replay::PAGE.min(moves.len()));
        press(&mut app, Key::End);
        check(&app, moves.len());
        press(&mut app, Key::PageUp);
        check(&app, moves.len() - replay::PAGE);
        assert_eq!(
            game(&app).len(),
            moves.len(),
            "replay never changes the history"
        );
    }
    assert!(with_pass > 0, "some games have passes");
}

#[test]
fn esc_goes_back_to_where_play_was_and_autoplay_steps_at_its_pace() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::MIN)],
        finished(3, BoardSize::Eight),
        COLOUR,
    );
    let len = game(&app).len();
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    press(&mut app, Key::Char(' '));
    let t0 = app.clock;
    let delay = replay::step_delay(Pace(2));
    update(&mut app, Msg::Tick(t0 + delay / 2));
    assert_eq!(game(&app).ply(), 0, "not before the pace allows");
    update(&mut app, Msg::Tick(t0 + delay));
    assert_eq!(game(&app).ply(), 1);
    press(&mut app, Key::Char('+'));
    press(&mut app, Key::Right);
    let t = app.clock;
    update(&mut app, Msg::Tick(t + Duration::from_secs(60)));
    assert_eq!(game(&app).ply(), 2, "a step by hand stops autoplay");
    let fx = press(&mut app, Key::Esc);
    assert!(!replaying(&app));
    assert_eq!(game(&app).ply(), len);
    assert!(
        fx.iter().all(|e| !matches!(e, Effect::Start(_))),
        "game over: no AI"
    );
}

#[test]
fn continue_asks_then_drops_the_later_moves() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        finished(5, BoardSize::Eight),
        COLOUR,
    );
    let moves = game(&app).moves().to_vec();
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    for _ in 0..7 {
        press(&mut app, Key::Right);
    }
    press(&mut app, Key::Char('c'));
    assert_eq!(app.overlay, Some(Overlay::ConfirmContinue));
    assert!(render(&app, 100, 40).contains("later moves will be dropped"));
    press(&mut app, Key::Char('n'));
    assert_eq!(app.overlay, None);
    assert!(
        replaying(&app) && game(&app).len() == moves.len(),
        "n keeps everything"
    );
    press(&mut app, Key::Char('c'));
    press(&mut app, Key::Char('y'));
    assert!(!replaying(&app));
    assert_eq!(game(&app).moves(), &moves[..7]);
    assert_eq!(game(&app).ply(), 7);
    // Play goes on from there: undo/redo use the same history.
    press(&mut app, Key::Char('u'));
    assert_eq!(game(&app).ply(), 6);
}

#[test]
fn continue_against_the_ai_starts_it_when_it_is_to_move() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::MIN)],
        finished(6, BoardSize::Eight),
        COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    press(&mut app, Key::Right);
    press(&mut app, Key::Char('c'));
    let fx = press(&mut app, Key::Char('y'));
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Start(_))),
        "White (AI) to move"
    );
}

#[test]
fn clicking_a_move_in_the_list_replays_from_it() {
    let (mut app, w, h) = sized(
        app_with(
            [Player::Human, Player::Human],
            finished(8, BoardSize::Eight),
            COLOUR,
        ),
        100,
        40,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    for _ in 0..5 {
        press(&mut app, Key::Right);
    }
    let top = crate::ui::panel::panel_top_rows(&app, playing(&app), (w, h));
    let ScreenLayout::Game { panel, .. } = layout(Rect::new(0, 0, w, h), BoardSize::Eight) else {
        panic!("fits");
    };
    let list = MoveList::new(moves_area(panel, top), game(&app));
    let (y, (_, r)) = list.shown().nth(1).unwrap();
    let target = r[1].unwrap();
    let cell = list.cell(y, 1);
    // The screen shows that move where the list says.
    let screen = render(&app, w, h);
    let row: String = screen
        .lines()
        .nth(usize::from(y))
        .unwrap()
        .chars()
        .skip(usize::from(cell.x))
        .take(2)
        .collect();
    assert_eq!(row, game(&app).moves()[target].to_string());
    update(&mut app, Msg::Click { x: cell.x, y });
    assert_eq!(game(&app).ply(), target + 1);
    assert!(replaying(&app));
    // From play mode too.
    press(&mut app, Key::Esc);
    update(&mut app, Msg::Click { x: cell.x, y });
    assert!(replaying(&app), "a click in the list enters replay");
}

#[test]
fn analysis_runs_in_the_background_and_never_blocks_stepping() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        finished(9, BoardSize::Eight),
        COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    press(&mut app, Key::Right);
    let fx = press(&mut app, Key::Char('a'));
    let Some(Effect::Start(job)) = fx.first().cloned() else {
        panic!("an analysis job: {fx:?}");
    };
    assert_eq!(job.position, game(&app).position_at(0).unwrap());
    assert!(
        crate::ui::review::verdict(Lang::En, playing(&app))
            .concat()
            .contains("thinking")
    );
    // Stepping on while it runs starts nothing else and is not held up.
    assert!(press(&mut app, Key::Right).is_empty());
    assert_eq!(game(&app).ply(), 2);
    press(&mut app, Key::Left);
    let played = game(&app).moves()[0];
    let other = job
        .position
        .moves_list()
        .into_iter()
        .find(|m| *m != played)
        .unwrap();
    let fx = update(
        &mut app,
        Msg::Analysed {
            id: job.id,
            position: job.position,
            evals: vec![
                MoveEval {
                    book: false,
                    mv: other,
                    score: Score::Estimate(300),
                },
                MoveEval {
                    book: false,
                    mv: played,
                    score: Score::Estimate(-100),
                },
            ],
        },
    );
    let v = crate::ui::review::verdict(Lang::En, playing(&app)).concat();
    assert!(
        v.contains(&format!("where {other} gave ~+3.0")) && v.contains("mistake, -4.0"),
        "{v}"
    );
    assert!(render(&app, 100, 40).contains(&format!("where {other} gave")));
    assert!(
        matches!(fx.first(), Some(Effect::Start(_))),
        "ply 1 known; the next ply is analysed"
    );
    assert!(press(&mut app, Key::Right).is_empty(), "one job at a time");
    let fx = press(&mut app, Key::Char('s'));
    assert!(
        matches!(fx.first(), Some(Effect::Save(_))),
        "s saves in replay too"
    );
    assert!(matches!(playing(&app).mode, Mode::Replay(_)));
    let fx = press(&mut app, Key::Esc);
    assert!(
        fx.iter().any(|e| matches!(e, Effect::Stop(_))),
        "leaving stops it"
    );
}

#[test]
fn save_and_load_round_trip_through_the_update_functions() {
    let rules = Rules::standard(BoardSize::Eight);
    let (before, mv) = game_before_pass();
    let g = Game::with_moves(rules, Position::initial(rules.size), &before).unwrap();
    let mut app = app_with([Player::Human, Player::Human], g, COLOUR);
    // The placement after which the opponent passes: the pass is recorded.
    typed(&mut app, &mv.to_string());
    let fx = press(&mut app, Key::Char('s'));
    let Some(Effect::Save(r)) = fx.into_iter().find(|e| matches!(e, Effect::Save(_))) else {
        panic!("s saves");
    };
    assert_eq!((r.black.as_str(), r.white.as_str()), ("Black", "White"));
    let vs_ai = app_with(
        [Player::Ai(Level::new(5).unwrap()), Player::Human],
        Game::new(rules),
        COLOUR,
    );
    let named = record::record_of(playing(&vs_ai));
    assert_eq!(
        (named.black.as_str(), named.white.as_str()),
        ("AI level 5 (improver)", "You")
    );
    assert_eq!(
        record::setup_of(Lang::En, &named).players,
        playing(&vs_ai).players
    );
    let text = write_ggf(&r);
    assert!(text.contains("PA"), "{text}");
    let back = parse_ggf(&text).unwrap().remove(0);
    let setup = record::setup_of(Lang::En, &back);
    assert!(!setup.replay, "unfinished: resumed");
    let mut loaded = App::new(Choices::default(), COLOUR, 1, Instant::now());
    start(&mut loaded, setup);
    let now = loaded.clock;
    update(&mut loaded, Msg::Tick(now));
    assert_eq!(game(&loaded).moves(), game(&app).moves());
    assert_eq!(game(&loaded).ply(), game(&app).ply());
    assert_eq!(playing(&loaded).players, playing(&app).players);

    // A finished game opens in replay at its start.
    let done = record::record_of(
        &app_with(
            [Player::Human, Player::Human],
            finished(2, BoardSize::Six),
            COLOUR,
        )
        .current()
        .unwrap()
        .clone(),
    );
    let text = write_ggf(&done);
    let setup = record::setup_of(Lang::En, &parse_ggf(&text).unwrap()[0]);
    assert!(setup.replay);
    let mut loaded = App::new(Choices::default(), COLOUR, 1, Instant::now());
    start(&mut loaded, setup);
    assert!(replaying(&loaded));
    assert_eq!(game(&loaded).ply(), 0);
    assert_eq!(playing(&loaded).players, [Player::Human, Player::Human]);
}

#[test]
fn autosave_follows_every_move_and_is_cleared_when_the_game_ends() {
    let mut app = two_humans();
    let fx = typed(&mut app, "f5");
    let Some(Effect::Autosave(Some(r))) = fx.last().cloned() else {
        panic!("a move autosaves: {fx:?}");
    };
    assert_eq!(r.game.moves().len(), 1);
    assert!(typed(&mut app, "L").is_empty(), "no change, no write");
    let fx = press(&mut app, Key::Char('v'));
    assert!(fx.is_empty(), "replay does not rewrite the autosave");
    press(&mut app, Key::Esc);
    // Finishing the game clears it.
    let moves = random_game(BoardSize::Eight, 4);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(
        rules,
        Position::initial(rules.size),
        &moves[..moves.len() - 1],
    )
    .unwrap();
    let mut app = app_with([Player::Human, Player::Human], g, COLOUR);
    assert!(app.autosaved.is_some());
    let fx = typed(&mut app, &moves[moves.len() - 1].to_string());
    assert!(fx.contains(&Effect::Autosave(None)), "{fx:?}");
    // Quitting an unfinished game on purpose clears it too.
    let mut app = two_humans();
    typed(&mut app, "f5");
    press(&mut app, Key::Char('q'));
    let fx = press(&mut app, Key::Char('d'));
    assert!(fx.contains(&Effect::Autosave(None)));
}

/// The app as `reversi replay FILE` opens an unfinished game file.
fn looking_at(record: &Record) -> App {
    let mut setup = record::setup_of(Lang::En, record);
    setup.game.jump(0);
    setup.replay = true;
    let mut app = App::new(Choices::default(), COLOUR, 42, Instant::now());
    start(&mut app, setup);
    let now = app.clock;
    update(&mut app, Msg::Tick(now));
    app
}

fn autosaves(fx: &[Effect]) -> bool {
    fx.iter().any(|e| matches!(e, Effect::Autosave(_)))
}

#[test]
fn a_game_opened_to_look_through_leaves_the_autosave_alone_until_play_goes_on() {
    let file = Record::new(opening(4, 10));
    assert!(!file.is_finished());
    let mut app = looking_at(&file);
    assert!(replaying(&app));
    for key in [Key::Right, Key::End, Key::Left, Key::Home] {
        assert!(!autosaves(&press(&mut app, key)), "{key:?}");
    }
    assert_eq!(app.autosaved, None);
    // Quitting neither asks to discard a game nor touches the autosave.
    let fx = press(&mut app, Key::Char('q'));
    assert_eq!(app.overlay, None);
    assert!(app.quit && !autosaves(&fx), "{fx:?}");
    // Nor does leaving it for the new-game screen.
    let mut app = looking_at(&file);
    assert!(!autosaves(&press(&mut app, Key::Char('n'))));
    // Playing on from its last move makes it the game the autosave keeps.
    let mut app = looking_at(&file);
    press(&mut app, Key::End);
    let fx = press(&mut app, Key::Char('c'));
    assert!(!replaying(&app));
    let Some(Effect::Autosave(Some(r))) = fx.last().cloned() else {
        panic!("playing on autosaves: {fx:?}");
    };
    assert_eq!(r.game.moves(), file.game.moves());
    press(&mut app, Key::Char('q'));
    assert_eq!(app.overlay, Some(Overlay::ConfirmQuit));
}

#[test]
fn leaving_a_viewed_game_goes_back_where_it_came_from_never_to_play() {
    let file = Record::new(opening(4, 10));
    // From a file: Esc shows the new-game screen, and Esc there comes back.
    let mut app = looking_at(&file);
    press(&mut app, Key::End);
    let fx = press(&mut app, Key::Esc);
    assert!(matches!(app.screen, Screen::NewGame(_)), "{fx:?}");
    assert!(!autosaves(&fx) && !fx.contains(&Effect::OpenOnline { connect: true }));
    press(&mut app, Key::Esc);
    assert!(replaying(&app) && playing(&app).viewing);
    // Opened from the salon: Esc goes back to it, and so does q.
    app.back_online = true;
    let fx = press(&mut app, Key::Esc);
    assert!(fx.contains(&Effect::OpenOnline { connect: true }), "{fx:?}");
    assert!(!app.back_online);
    let mut app = looking_at(&file);
    app.back_online = true;
    let screen = super::render(&app, 100, 40);
    let footer = screen
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    assert!(footer.ends_with("q back to the lobby"), "{footer}");
    let fx = press(&mut app, Key::Char('q'));
    assert!(
        fx.contains(&Effect::OpenOnline { connect: true }) && !app.quit,
        "{fx:?}"
    );
    // Played on from one of its moves, the game still leads back there:
    // after the question about the unfinished game, q goes to the salon.
    let mut app = looking_at(&file);
    app.back_online = true;
    press(&mut app, Key::Home);
    press(&mut app, Key::Right);
    press(&mut app, Key::Char('c'));
    press(&mut app, Key::Char('y'));
    assert!(!replaying(&app));
    press(&mut app, Key::Char('q'));
    assert_eq!(app.overlay, Some(Overlay::ConfirmQuit));
    let fx = press(&mut app, Key::Char('k'));
    assert!(
        fx.contains(&Effect::OpenOnline { connect: true }) && !app.quit,
        "{fx:?}"
    );
    assert!(matches!(app.screen, Screen::NewGame(_)));
}

#[test]
fn a_new_game_replaces_the_autosave_only_from_its_first_move() {
    let mut app = two_humans();
    typed(&mut app, "f5d6");
    assert!(app.autosaved.is_some());
    press(&mut app, Key::Char('n'));
    let fx = press(&mut app, Key::Enter);
    assert_eq!(game(&app).len(), 0);
    assert!(!autosaves(&fx), "the unfinished game stays saved: {fx:?}");
    let fx = typed(&mut app, "f5");
    let Some(Effect::Autosave(Some(r))) = fx.last().cloned() else {
        panic!("the new game's first move replaces it: {fx:?}");
    };
    assert_eq!(r.game.len(), 1);
}

#[test]
fn a_resigned_game_opens_in_replay_with_its_result() {
    let mut r = Record::new(opening(4, 10));
    r.result = Some(crate::notation::ggf::forfeit_outcome(
        r.game.rules(),
        Color::White,
    ));
    r.ended_early = Some(crate::notation::ggf::EndedEarly::Resigned);
    let back = &parse_ggf(&write_ggf(&r)).unwrap()[0];
    let setup = record::setup_of(Lang::En, back);
    assert!(setup.replay);
    assert_eq!(setup.game.ply(), 0);
    assert_eq!(setup.game.len(), 10);
    let mut app = App::new(Choices::default(), COLOUR, 42, Instant::now());
    start(&mut app, setup);
    assert!(
        app.status
            .as_deref()
            .unwrap_or("")
            .contains("Black resigned"),
        "{:?}",
        app.status
    );
    assert!(!autosaves(&press(&mut app, Key::End)));
}

#[test]
fn an_autosave_after_undo_resumes_at_the_undone_move_with_its_redo_tail() {
    let mut app = two_humans();
    typed(&mut app, "f5");
    typed(&mut app, "d6");
    typed(&mut app, "c3");
    let fx = press(&mut app, Key::Char('u'));
    let Some(Effect::Autosave(Some(r))) = fx.last().cloned() else {
        panic!("an undo autosaves: {fx:?}");
    };
    assert_eq!((r.game.ply(), r.game.len()), (2, 3));
    let back = parse_ggf(&write_ggf(&r)).unwrap().remove(0);
    let setup = record::setup_of(Lang::En, &back);
    assert!(!setup.replay);
    assert_eq!(
        setup.note.as_deref(),
        Some("Black vs White: resumed after 2 moves")
    );
    let mut loaded = App::new(Choices::default(), COLOUR, 1, Instant::now());
    start(&mut loaded, setup);
    assert_eq!(game(&loaded).ply(), 2);
    assert_eq!(game(&loaded).moves(), game(&app).moves());
    // The redo tail is still there.
    press(&mut loaded, Key::Char('r'));
    assert_eq!(game(&loaded).ply(), 3);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("reversi-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_corrupt_autosave_is_moved_aside_with_a_message() {
    let d = temp_dir("corrupt");
    let now = std::time::SystemTime::now();
    assert!(matches!(
        record::read_autosave(Lang::En, &d, now),
        record::Autosaved::Nothing
    ));
    let mut app = two_humans();
    typed(&mut app, "f5d6");
    let r = record::autosave_text(playing(&app)).unwrap();
    record::write_autosave(&d, Some(&r), now).unwrap();
    let record::Autosaved::Unfinished(back) = record::read_autosave(Lang::En, &d, now) else {
        panic!("the autosave reads back");
    };
    assert_eq!(back.game.moves(), game(&app).moves());
    // Truncated mid-write by something else: moved aside, not overwritten.
    let text = std::fs::read_to_string(d.join(record::AUTOSAVE)).unwrap();
    std::fs::write(d.join(record::AUTOSAVE), &text[..text.len() / 2]).unwrap();
    let record::Autosaved::Corrupt { message } = record::read_autosave(Lang::En, &d, now) else {
        panic!("a truncated autosave is corrupt");
    };
    assert!(
        message.contains("could not be read") && message.contains("moved to"),
        "{message}"
    );
    assert!(!d.join(record::AUTOSAVE).exists());
    let aside: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("autosave.ggf.corrupt-"))
        .collect();
    assert_eq!(aside.len(), 1, "kept for the user");
    assert_eq!(
        std::fs::read_to_string(d.join(&aside[0])).unwrap(),
        &text[..text.len() / 2]
    );
    // Garbage bytes too.
    std::fs::write(d.join(record::AUTOSAVE), b"\xff\x00(;GM[").unwrap();
    assert!(matches!(
        record::read_autosave(Lang::En, &d, now),
        record::Autosaved::Corrupt { .. }
    ));
    record::write_autosave(&d, None, now).unwrap();
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_resume_prompt_resumes_or_keeps_the_new_game_screen() {
    let mut app = two_humans();
    typed(&mut app, "f5d6c3");
    let setup = record::setup_of(Lang::En, &record::record_of(playing(&app)));
    let mut fresh = App::new(Choices::default(), COLOUR, 1, Instant::now());
    fresh.overlay = Some(Overlay::Resume(Box::new(setup.clone())));
    assert!(render(&fresh, 80, 24).contains("Resume it?"));
    press(&mut fresh, Key::Char('y'));
    assert_eq!(game(&fresh).ply(), 3);
    let mut fresh = App::new(Choices::default(), COLOUR, 1, Instant::now());
    fresh.overlay = Some(Overlay::Resume(Box::new(setup)));
    let fx = press(&mut fresh, Key::Char('n'));
    assert!(fx.is_empty(), "declining does not delete the autosave");
    assert!(fresh.current().is_none());
}

#[test]
fn names_map_to_players_and_back() {
    for name in ["AI level 1 (beginner)", "AI level 6 (master)", "AI level 4"] {
        assert!(record::player_of(name).is_ai(), "{name}");
    }
    for name in ["You", "Black", "White", "Edax", "AI level 13", ""] {
        assert_eq!(record::player_of(name), Player::Human, "{name}");
    }
    assert_eq!(record::stamp(std::time::UNIX_EPOCH), "1970-01-01T00-00-00");
}

#[test]
fn y_copies_the_transcript_and_shows_it() {
    let mut app = two_humans();
    typed(&mut app, "f5d6");
    let fx = press(&mut app, Key::Char('y'));
    assert!(fx.contains(&Effect::Copy("f5d6".into())));
    assert_eq!(app.status.as_deref(), Some("Copied: f5d6"));
    assert_eq!(crate::ui::osc52("f5d6"), "\x1b]52;c;ZjVkNg==\x07");
}

#[test]
fn snapshot_replay_screen() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::DEFAULT)],
        Game::with_moves(
            Rules::standard(BoardSize::Eight),
            Position::initial(BoardSize::Eight),
            &fixed_game(BoardSize::Eight, FINISHED_8X8),
        )
        .unwrap(),
        COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    for _ in 0..23 {
        press(&mut app, Key::Right);
    }
    insta::assert_snapshot!(render(&app, 100, 40));
}

#[test]
fn snapshot_replay_screen_small_no_colour() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        Game::with_moves(
            Rules::standard(BoardSize::Six),
            Position::initial(BoardSize::Six),
            &fixed_game(BoardSize::Six, FINISHED_6X6),
        )
        .unwrap(),
        NO_COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::PageUp);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn q_quits_from_replay_and_asks_first_while_the_game_is_unfinished() {
    // A finished game in replay: q quits at once, from any ply.
    let mut app = app_with(
        [Player::Human, Player::Human],
        finished(7, BoardSize::Eight),
        COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    press(&mut app, Key::Char('q'));
    assert!(app.quit, "q quits a replay of a finished game");
    // An unfinished game viewed in replay: q asks, as in play.
    let moves = random_game(BoardSize::Eight, 7);
    let rules = Rules::standard(BoardSize::Eight);
    let unfinished =
        Game::with_moves(rules, Position::initial(BoardSize::Eight), &moves[..10]).unwrap();
    let mut app = app_with([Player::Human, Player::Human], unfinished, COLOUR);
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Char('q'));
    assert!(!app.quit);
    assert!(matches!(app.overlay, Some(Overlay::ConfirmQuit)));
    press(&mut app, Key::Char('d'));
    assert!(app.quit);
}

#[test]
fn the_autoplay_pace_shows_once() {
    let mut app = app_with(
        [Player::Human, Player::Human],
        finished(3, BoardSize::Eight),
        COLOUR,
    );
    press(&mut app, Key::Char('v'));
    press(&mut app, Key::Home);
    for key in [' ', '+', '-'] {
        press(&mut app, Key::Char(key));
        let screen = render(&app, 100, 40);
        assert_eq!(
            screen.matches("a move every").count(),
            1,
            "after {key:?}:\n{screen}"
        );
    }
    // Stopped, a pace change says what autoplay will take.
    press(&mut app, Key::Char(' '));
    press(&mut app, Key::Char('+'));
    let screen = render(&app, 100, 40);
    assert_eq!(screen.matches("a move every").count(), 1, "{screen}");
}

#[test]
fn a_loaded_game_shows_and_keeps_its_players_names_cleaned() {
    let size = BoardSize::Eight;
    let moves = fixed_game(size, "f5d6c3d3c4");
    let mut r = Record::new(
        Game::with_moves(Rules::standard(size), Position::initial(size), &moves).unwrap(),
    );
    r.black = "Tamenori Hideshi".into();
    r.white = "Murakami\u{1b}[2J Takeshi".into();
    let setup = record::setup_of(Lang::En, &r);
    assert_eq!(
        setup.names,
        [
            Some("Tamenori Hideshi".to_string()),
            Some("Murakami Takeshi".to_string())
        ]
    );
    assert_eq!(setup.players, [Player::Human, Player::Human]);
    let mut app = App::new(Choices::default(), COLOUR, 1, Instant::now());
    start(&mut app, setup);
    let screen = render(&app, 100, 40);
    assert!(screen.contains("Tamenori Hideshi"), "{screen}");
    // The panel cuts a long name beside its count.
    assert!(screen.contains("Murakami Takes…"), "{screen}");
    assert!(
        !screen.contains("Human") && !screen.contains('\u{1b}'),
        "{screen}"
    );
    let saved = record::record_of(playing(&app));
    assert_eq!(saved.black, "Tamenori Hideshi");
    assert_eq!(saved.white, "Murakami Takeshi");

    // White (to move) handed to the AI is no longer the recorded player.
    press(&mut app, Key::Char('t'));
    assert_eq!(
        playing(&app).names,
        [Some("Tamenori Hideshi".to_string()), None]
    );
    assert!(
        record::record_of(playing(&app))
            .white
            .starts_with("AI level")
    );

    // Our own names stay ours: nothing recorded.
    for ours in ["You", "Black", "White", "", " ? "] {
        r.black = ours.into();
        assert_eq!(record::setup_of(Lang::En, &r).names[0], None, "{ours:?}");
    }
}

#[test]
fn two_saves_in_the_same_second_get_two_files() {
    let d = std::env::temp_dir().join(format!("reversi-savepath-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let now = std::time::UNIX_EPOCH;
    let first = record::save_path(&d, now);
    assert!(
        first.ends_with("games/1970-01-01T00-00-00.ggf"),
        "{first:?}"
    );
    let r = record::record_of(playing(&two_humans()));
    record::save(&first, &r, now).unwrap();
    let second = record::save_path(&d, now);
    assert!(
        second.ends_with("games/1970-01-01T00-00-00-2.ggf"),
        "{second:?}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn help_in_replay_shows_the_keys_of_replay() {
    let mut app = app_with(
        [Player::Human, Player::Ai(Level::MIN)],
        finished(3, BoardSize::Eight),
        COLOUR,
    );
    press(&mut app, Key::Char('?'));
    let playing = render(&app, 100, 40);
    press(&mut app, Key::Esc);
    press(&mut app, Key::Char('v'));
    assert!(replaying(&app));
    press(&mut app, Key::Char('?'));
    let replay = render(&app, 100, 40);
    // The game's help names its move keys; replay's names its own.
    assert!(
        playing.contains("hjkl") && !playing.contains("continue here"),
        "{playing}"
    );
    assert!(
        replay.contains("continue here") && replay.contains("autoplay") && !replay.contains("hjkl"),
        "{replay}"
    );
    assert!(
        replay.contains("s / y"),
        "saving is bound in replay too:\n{replay}"
    );
}

#[test]
fn leaving_a_replayed_transcript_keeps_the_forms_setup_and_its_help() {
    let saved = Choices {
        opponent: crate::ui::model::Opponent::Computer,
        colour: crate::ui::model::ColourChoice::Fixed(Color::White),
        level: Level::new(7).unwrap(),
        ..Choices::default()
    };
    let mut app = App::new(saved, COLOUR, 42, Instant::now());
    // `reversi replay --moves …`: two people's game, only looked at.
    start(
        &mut app,
        Setup {
            game: opening(4, 10),
            players: [Player::Human, Player::Human],
            names: [None, None],
            note: None,
            replay: true,
            reviews: Default::default(),
        },
    );
    press(&mut app, Key::Esc);
    let Screen::NewGame(form) = &app.screen else {
        panic!("Esc leaves a viewed game for the new-game screen");
    };
    assert_eq!(form.choices, saved);
    // Its help lists its own keys, not the game's.
    press(&mut app, Key::Char('?'));
    let help = render(&app, 100, 40);
    assert!(
        help.contains("start") && help.contains("learn the rules"),
        "{help}"
    );
    assert!(!help.contains("undo") && !help.contains("hint"), "{help}");
}
