//! Tests of the UI: the update logic as a pure function, a fuzz run of random
//! messages, drawing checks and screen snapshots on ratatui's `TestBackend`
//! (no AI timing in them: AI results are injected as messages). This file
//! holds the shared helpers.

mod drawing;
mod fuzz;
mod replay;
mod snapshots;
mod updates;

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
    let mut app = App::new(Choices::default(), look, 42, Instant::now());
    start(
        &mut app,
        Setup {
            game,
            players,
            note: None,
            replay: false,
        },
    );
    let now = app.clock;
    update(&mut app, Msg::Tick(now));
    app
}

pub(super) fn two_humans() -> App {
    app_with(
        [Player::Human, Player::Human],
        Game::new(Rules::standard(BoardSize::Eight)),
        COLOUR,
    )
}

pub(super) fn press(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

pub(super) fn typed(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars()
        .flat_map(|c| press(app, KeyCode::Char(c)))
        .collect()
}

pub(super) fn playing(app: &App) -> &Match {
    app.current().expect("a game is on screen")
}

pub(super) fn game(app: &App) -> &Game {
    &playing(app).game
}

/// A deterministic random game (placements chosen by a fixed generator).
pub(super) fn random_game(size: BoardSize, mut seed: u64) -> Vec<Move> {
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
pub(super) fn game_before_pass() -> (Vec<Move>, Move) {
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

pub(super) fn searched(app: &mut App, mv: Move) -> Vec<Effect> {
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
