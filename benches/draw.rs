//! Frame draw time: the board widget alone into a buffer, and the whole screen
//! through a `TestBackend` terminal, at 100×40 (large cells) and 80×24.
//! Prints the median and the 95th percentile of many draws; run with
//! `cargo bench --bench draw`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use reversi::rules::{BoardSize, Game, Position, Rules};
use reversi::ui::app::{App, Msg};
use reversi::ui::board::{BoardView, draw};
use reversi::ui::keys::{Key, KeyPress};
use reversi::ui::layout::{ScreenLayout, layout};
use reversi::ui::model::Setup;
use reversi::ui::model::{Choices, Look, Player};
use reversi::ui::update::{start, update};
use reversi::ui::view;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn midgame() -> App {
    let rules = Rules::standard(BoardSize::Eight);
    let start_pos = Position::initial(rules.size);
    let mut game = Game::from_position(rules, start_pos).unwrap();
    // Twenty plies, each the middle legal move: a busy midgame board.
    for _ in 0..20 {
        let moves = game.position().moves_list();
        game.play(moves[moves.len() / 2]).unwrap();
    }
    let look = Look {
        color: true,
        ascii: false,
    };
    let mut app = App::new(Choices::default(), look, 1, Instant::now());
    start(
        &mut app,
        Setup {
            game,
            players: [Player::Human, Player::Human],
            note: None,
            replay: false,
            reviews: Default::default(),
        },
    );
    app
}

fn stats(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    (
        samples[samples.len() / 2],
        samples[samples.len() * 95 / 100],
    )
}

fn main() {
    const N: usize = 2000;
    for (w, h) in [(100u16, 40u16), (80, 24)] {
        let mut app = midgame();
        update(
            &mut app,
            Msg::Resize {
                width: w,
                height: h,
            },
        );
        let ScreenLayout::Game { board, .. } = layout(Rect::new(0, 0, w, h), BoardSize::Eight)
        else {
            panic!("{w}x{h} fits");
        };
        let m = app.current().unwrap().clone();
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        let mut board_times = Vec::with_capacity(N);
        for _ in 0..N {
            let t = Instant::now();
            draw(
                &BoardView {
                    game: black_box(&m),
                    dots: true,
                    cursor: true,
                    look: app.look,
                },
                &board,
                &mut buf,
            );
            board_times.push(t.elapsed());
        }
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut frame_times = Vec::with_capacity(N);
        for i in 0..N {
            // Alternate the cursor so every frame has changes to flush.
            let key = if i % 2 == 0 { 'l' } else { 'j' };
            update(&mut app, Msg::Key(KeyPress::plain(Key::Char(key))));
            let t = Instant::now();
            terminal.draw(|f| view(&app, f)).unwrap();
            frame_times.push(t.elapsed());
        }
        let (bm, b95) = stats(board_times);
        let (fm, f95) = stats(frame_times);
        println!(
            "{w}x{h} ({} cells): board widget median {:.1} µs (p95 {:.1} µs); whole frame median {:.1} µs (p95 {:.1} µs)",
            board.style.width,
            bm.as_secs_f64() * 1e6,
            b95.as_secs_f64() * 1e6,
            fm.as_secs_f64() * 1e6,
            f95.as_secs_f64() * 1e6,
        );
    }
}
