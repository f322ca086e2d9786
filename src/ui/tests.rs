//! Tests of the UI: the update logic as a pure function, a fuzz run of random
//! messages, drawing checks and screen snapshots on ratatui's `TestBackend`
//! (no AI timing in them: AI results are injected as messages). This file
//! holds the shared helpers.

mod drawing;
mod french;
mod fuzz;
mod replay;
mod review;
mod snapshots;
mod updates;

use super::app::{App, Effect, JobKind, Msg, Overlay, Screen};
use super::keys::{Key, KeyPress};
use super::layout::{ScreenLayout, layout};
use super::model::{Choices, Hint, Look, Match, Opponent, Player, Setup};
use super::update::{start, update};
use super::view::view;
use crate::ai::{Level, MoveEval, Progress, Score, SearchResult};
use crate::notation::parse_square;
use crate::rules::{BoardSize, Color, Game, Move, Position, Rules, Square, Status};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use std::time::{Duration, Instant};

pub(super) const COLOUR: Look = Look {
    color: true,
    ascii: false,
};
pub(super) const NO_COLOUR: Look = Look {
    color: false,
    ascii: false,
};

pub(super) fn sq(s: &str) -> Square {
    parse_square(s).unwrap()
}

pub(super) fn app_with(players: [Player; 2], game: Game, look: Look) -> App {
    app_in(crate::i18n::Lang::En, players, game, look)
}

/// [`app_with`] with the screen in `lang`.
pub(super) fn app_in(lang: crate::i18n::Lang, players: [Player; 2], game: Game, look: Look) -> App {
    let mut app = App::new(Choices::default(), look, 42, Instant::now());
    app.lang = lang;
    start(
        &mut app,
        Setup {
            game,
            players,
            names: [None, None],
            note: None,
            replay: false,
            reviews: Default::default(),
        },
    );
    let now = app.clock;
    update(&mut app, Msg::Tick(now));
    app
}

/// The first `plies` moves of [`random_game`] on 8×8 with `seed`.
pub(super) fn opening(seed: u64, plies: usize) -> Game {
    let rules = Rules::standard(BoardSize::Eight);
    let moves = random_game(BoardSize::Eight, seed);
    Game::with_moves(rules, Position::initial(rules.size), &moves[..plies]).unwrap()
}

pub(super) fn two_humans() -> App {
    app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    )
}

pub(super) fn press(app: &mut App, key: Key) -> Vec<Effect> {
    update(app, Msg::Key(KeyPress::plain(key)))
}

pub(super) fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| press(app, Key::Char(c)))
        .collect()
}

pub(super) fn playing(app: &App) -> &Match {
    app.current().expect("a game is on screen")
}

pub(super) fn game(app: &App) -> &Game {
    &playing(app).game
}

/// A deterministic random game (placements chosen by a fixed generator).
pub(super) fn random_game(size: BoardSize, seed: u64) -> Vec<Move> {
    let mut rng = crate::random::seeded(seed);
    let rules = Rules::standard(size);
    let mut g = Game::new(rules);
    while g.outcome().is_none() {
        let moves = g.position().moves_list();
        let mv = moves[crate::random::below(&mut rng, moves.len())];
        g.play(mv).unwrap();
    }
    g.moves().to_vec()
}

/// A finished 8×8 game of random moves, fixed for the screen snapshots.
pub(super) const FINISHED_8X8: &str = "e6f6g6f4e3f2e2d6c3f7d7d2g4g5g1c7b7d8e7h6c2f8g7c8g3b6b5c1c5a7c4h7h4g2h2d3h8f5c6a4h5f3a8d1g8a6a5h3f1b1b2b3a3e8a1b4a2h1b8e1";

/// A finished 6×6 game of random moves, fixed for the screen snapshots.
pub(super) const FINISHED_6X6: &str =
    "c2d2e5b3a2b1b2d5d1f5e3f4f3a1d6f2e2c5e4c1e6e1c6f6f1b6b5a3a5a6a4b4";

/// An 8×8 game of random moves with a pass followed by a placement.
const WITH_A_PASS: &str = "e6f4g3c6c3d3e3f6d6f3c5b2b7c7g6e2a1h6g2g4g5h5h4d2e1a8e7d1b8b6c2d8f2g1h7g7f5f7b5a5f1c4e8a4a6c8h8g8d7f8a3a7h2b1h3c1h1a2b3b4";

/// The moves of `transcript` from the start of a `size` board, passes made
/// explicit.
pub(super) fn fixed_game(size: BoardSize, transcript: &str) -> Vec<Move> {
    crate::notation::parse_transcript(transcript, &Position::initial(size)).unwrap()
}

/// Moves of a game in which a pass happens: the moves up to (not including)
/// the placement after which the opponent must pass, and that placement.
pub(super) fn game_before_pass() -> (Vec<Move>, Move) {
    let moves = fixed_game(BoardSize::Eight, WITH_A_PASS);
    let i = moves.iter().position(|m| *m == Move::Pass).unwrap();
    assert!(i > 0 && matches!(moves.get(i + 2), Some(Move::Place(_))));
    (moves[..i - 1].to_vec(), moves[i - 1])
}

pub(super) fn searched(app: &mut App, mv: Move) -> Vec<Effect> {
    let job = playing(app).ai.clone().expect("the AI is thinking");
    update(
        app,
        Msg::Searched {
            id: job.id,
            position: job.position,
            result: SearchResult {
                book: false,
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
/// Asks for the hint and answers it: the moves of the shown position in
/// their order, the `i`th scored `score(i)`.
pub(super) fn hinted(app: &mut App, score: impl Fn(usize) -> Score) {
    let fx = press(app, Key::Char('H'));
    let Some(Effect::Start(job)) = fx.first() else {
        panic!("hint job");
    };
    let evals = game(app)
        .position()
        .moves_list()
        .into_iter()
        .enumerate()
        .map(|(i, mv)| MoveEval {
            book: false,
            mv,
            score: score(i),
        })
        .collect();
    update(
        app,
        Msg::Analysed {
            id: job.id,
            position: job.position,
            evals,
        },
    );
}

/// Reports the running AI job's progress: depth 9, best `best`, `score`.
pub(super) fn progressed(app: &mut App, best: &str, score: Score) {
    let job = playing(app).ai.clone().expect("the AI is thinking");
    update(
        app,
        Msg::Progress {
            id: job.id,
            progress: Progress {
                depth: 9,
                best_move: Move::Place(sq(best)),
                score,
                nodes: 12345,
                elapsed: Duration::from_millis(1234),
            },
        },
    );
}

pub(super) fn later(app: &mut App) {
    let t = app.clock + Duration::from_secs(10);
    update(app, Msg::Tick(t));
}

pub(super) fn render(app: &App, width: u16, height: u16) -> String {
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

pub(super) fn sized(mut app: App, w: u16, h: u16) -> (App, u16, u16) {
    update(
        &mut app,
        Msg::Resize {
            width: w,
            height: h,
        },
    );
    (app, w, h)
}
