//! Levels: the beginner loses most games to the master and varies its play
//! between seeds. Time caps are cut down to keep the test cheap.

use reversi::ai::{Engine, Level, Limits};
use reversi::rules::{BoardSize, Color, Position, Rules};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn play(black: Limits, white: Limits, seed: u64) -> i32 {
    let rules = Rules::standard(BoardSize::Eight);
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let mut p = Position::initial(BoardSize::Eight);
    let mut ply = 0;
    while !p.is_game_over() {
        let limits = if p.side_to_move() == Color::Black {
            &black
        } else {
            &white
        };
        let r = engine.search(&p, &rules, limits, &stop, seed * 1000 + ply, &mut |_| {});
        p = p.play(r.best_move).expect("legal");
        ply += 1;
    }
    rules.score(&p).black_margin()
}

fn capped(level: Level, ms: u64) -> Limits {
    Limits {
        time: Some(Duration::from_millis(ms)),
        exact_empties: level.limits().exact_empties.min(14),
        ..level.limits()
    }
}

#[test]
fn beginner_loses_most_games_to_master() {
    let beginner = Level::MIN.limits();
    let master = capped(Level::MAX, 30);
    let mut master_wins = 0;
    for seed in 0..4 {
        if play(beginner, master, seed) < 0 {
            master_wins += 1;
        }
        if play(master, beginner, seed) > 0 {
            master_wins += 1;
        }
    }
    assert!(master_wins >= 7, "master won {master_wins} of 8");
}

#[test]
fn beginner_varies_between_seeds() {
    let rules = Rules::standard(BoardSize::Eight);
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let p = Position::initial(BoardSize::Eight).play_unchecked(reversi::rules::Move::Place(
        reversi::rules::Square::at(5, 4),
    ));
    let moves: std::collections::HashSet<_> = (0..20)
        .map(|seed| {
            engine
                .search(&p, &rules, &Level::MIN.limits(), &stop, seed, &mut |_| {})
                .best_move
        })
        .collect();
    assert!(moves.len() >= 2, "{moves:?}");
    // The same seed gives the same move.
    let a = engine.search(&p, &rules, &Level::MIN.limits(), &stop, 7, &mut |_| {});
    let b = engine.search(&p, &rules, &Level::MIN.limits(), &stop, 7, &mut |_| {});
    assert_eq!(a.best_move, b.best_move);
}

#[test]
fn levels_are_ordered_and_named() {
    for w in Level::ALL.windows(2) {
        let (a, b) = (w[0].limits(), w[1].limits());
        assert!(a.depth <= b.depth && a.exact_empties <= b.exact_empties && a.noise >= b.noise);
    }
    assert_eq!(Level::DEFAULT.number(), 3);
}
