//! Whole-screen snapshots (insta) on `TestBackend`.

use super::*;
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
    press(&mut app, Key::Up);
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
    let moves = fixed_game(BoardSize::Eight, FINISHED_8X8);
    let rules = Rules::standard(BoardSize::Eight);
    let g = Game::with_moves(rules, Position::initial(rules.size), &moves).unwrap();
    let app = app_with([Player::Human, Player::Ai(Level::DEFAULT)], g, COLOUR);
    insta::assert_snapshot!(render(&app, 80, 24));
}

#[test]
fn snapshot_help_overlay() {
    let mut app = two_humans();
    press(&mut app, Key::Char('?'));
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
    hinted(&mut app, |i| Score::Estimate(150 - 100 * i as i32));
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
    progressed(&mut app, "f6", Score::Estimate(-35));
    insta::assert_snapshot!(render(&app, 80, 24));
}
