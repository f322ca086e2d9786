//! Frame draw time: the board widget alone into a buffer, and the whole screen
//! through a `TestBackend` terminal, at 100×40 (large cells) and 80×24.
//! Prints the median and the 95th percentile of many draws; run with
//! `cargo bench --bench draw`.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use reversi::rules::{BoardSize, Game, Position, Rules};
use reversi::screen::GameScreen;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Twenty plies, each the middle legal move: a busy midgame board, on a
/// `w` × `h` screen.
fn midgame(w: u16, h: u16) -> GameScreen {
    let rules = Rules::standard(BoardSize::Eight);
    let start_pos = Position::initial(rules.size);
    let mut game = Game::from_position(rules, start_pos).unwrap();
    for _ in 0..20 {
        let moves = game.position().moves_list();
        game.play(moves[moves.len() / 2]).unwrap();
    }
    GameScreen::new(game, true, false, w, h)
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
        let mut screen = midgame(w, h);
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        let mut board_times = Vec::with_capacity(N);
        let mut cells = 0;
        for _ in 0..N {
            let t = Instant::now();
            cells = black_box(&screen)
                .draw_board(&mut buf)
                .expect("the board fits");
            board_times.push(t.elapsed());
        }
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut frame_times = Vec::with_capacity(N);
        for i in 0..N {
            // Alternate the cursor so every frame has changes to flush.
            screen.press(if i % 2 == 0 { 'l' } else { 'j' });
            let t = Instant::now();
            terminal.draw(|f| screen.draw(f)).unwrap();
            frame_times.push(t.elapsed());
        }
        let (bm, b95) = stats(board_times);
        let (fm, f95) = stats(frame_times);
        println!(
            "{w}x{h} ({} cells): board widget median {:.1} µs (p95 {:.1} µs); whole frame median {:.1} µs (p95 {:.1} µs)",
            cells,
            bm.as_secs_f64() * 1e6,
            b95.as_secs_f64() * 1e6,
            fm.as_secs_f64() * 1e6,
            f95.as_secs_f64() * 1e6,
        );
    }
}
