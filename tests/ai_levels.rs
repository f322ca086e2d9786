//! Levels: the beginner loses most games to the master, varies its play
//! between seeds but never picks a clearly worse move, and does not crush
//! the most-flips player it is calibrated against. Time caps are cut down to
//! keep the test cheap.

use reversi::ai::Reference;
use reversi::ai::{
    Engine, Evaluation, Level, Limits, NOMINAL_CAUTIOUS_SQUARES, NOMINAL_MIDGAME_PLIES,
    NOMINAL_PROBABLE_SELECTIVITY, NOMINAL_PROBABLE_SQUARES,
};
use reversi::arena::{self, MatchConfig, PlayerSpec};
use reversi::rules::{BoardSize, Color, Move, Position, Rules};
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
        assert!(
            a.exact_empties <= b.exact_empties && a.time <= b.time,
            "{}",
            w[1]
        );
        assert_ne!(w[0].name(), w[1].name());
    }
    // The bottom knows nothing of corners; the top is the full engine,
    // deterministic, with the longest search.
    assert_eq!(Level::MIN.limits().evaluation, Evaluation::Discs);
    let top = Level::MAX.limits();
    assert_eq!(
        (top.evaluation, top.temperature, top.noise),
        (Evaluation::Full, 0, 0)
    );
    assert!(Level::ALL.iter().all(|l| l.limits().depth <= top.depth));
    assert_eq!(Level::DEFAULT.name(), "casual");
    for level in Level::ALL {
        let (who, how) = level.suits().split_once(": ").expect("who: how");
        assert!(!who.is_empty() && !how.is_empty(), "{level}");
    }
}

/// Positions from random games where one move flips at least two discs
/// more than any other (so it is more than three discs better after the move).
fn clear_best_moves() -> Vec<(Position, Move)> {
    let mut out = Vec::new();
    let mut rng = reversi::random::seeded(40);
    for _ in 0..40 {
        let mut p = Position::initial(BoardSize::Eight);
        while !p.is_game_over() {
            let moves = p.moves_list();
            let flips = |m: &Move| match m {
                Move::Place(sq) => p.flips(*sq).count(),
                Move::Pass => 0,
            };
            let mut counts: Vec<(u32, Move)> = moves.iter().map(|m| (flips(m), *m)).collect();
            counts.sort_by_key(|c| std::cmp::Reverse(c.0));
            if counts.len() >= 2 && counts[0].0 >= counts[1].0 + 2 {
                out.push((p, counts[0].1));
            }
            p = p.play_unchecked(moves[reversi::random::below(&mut rng, moves.len())]);
        }
    }
    out
}

#[test]
fn beginner_never_misses_a_clearly_bigger_capture() {
    let rules = Rules::standard(BoardSize::Eight);
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let positions = clear_best_moves();
    assert!(positions.len() >= 20, "{}", positions.len());
    for (i, (p, best)) in positions.iter().take(60).enumerate() {
        for seed in 0..5 {
            let r = engine.search(p, &rules, &Level::MIN.limits(), &stop, seed, &mut |_| {});
            assert_eq!(r.best_move, *best, "position {i}, seed {seed}: {p:?}");
        }
    }
}

#[test]
fn beginner_neither_crushes_nor_is_crushed_by_greedy() {
    let config = MatchConfig {
        a: PlayerSpec::Builtin {
            name: "level:1".into(),
            limits: Level::MIN.limits(),
            eval: arena::EvalSpec::Default,
        },
        b: PlayerSpec::Reference(Reference::Greedy),
        rules: Rules::standard(BoardSize::Eight),
        timeout: Duration::from_secs(10),
        hash_mb: 1,
        seed: 1,
    };
    // Level 1 and greedy take microseconds a move: 100 games are cheap.
    let openings = arena::random_openings(BoardSize::Eight, 8, 50, 1);
    let results =
        arena::play_match(&config, &openings, 100, 2, |_| Ok::<(), ()>(())).expect("no error");
    assert_eq!(results.len(), 100);
    // Calibrated at about half over hundreds of games (`reversi bench
    // --ladder`); the ladder's first rung must not be out of reach.
    let s = arena::summarize(&results);
    let points = s.wins as f64 + s.draws as f64 / 2.0;
    assert!(
        (35.0..=65.0).contains(&points),
        "level 1 against greedy: +{} ={} -{}",
        s.wins,
        s.draws,
        s.losses
    );
}

#[test]
fn nominal_depths_solve_earlier_the_deeper_they_go_for_the_result_then_exactly() {
    for d in 1..=60 {
        let l = Limits::nominal(d);
        let deeper = Limits::nominal(d + 1);
        assert_eq!(
            (l.opening_depth, l.time, l.noise, l.temperature),
            (Some(d), None, 0, 0)
        );
        assert_eq!(l.depth, (d + NOMINAL_MIDGAME_PLIES).min(60));
        assert!(l.selectivity > 0 && l.evaluation == Evaluation::Full);
        assert!(l.wld_empties <= deeper.wld_empties && l.wld_empties <= 24);
        assert!(l.exact_empties <= deeper.exact_empties);
        assert_eq!(l.exact_empties + 4, l.wld_empties, "depth {d}");
        assert!(l.wld_empties > d.min(18), "depth {d}");
        assert_eq!(
            (
                l.probable_empties,
                l.probable_selectivity,
                l.cautious_empties
            ),
            (
                l.wld_empties + NOMINAL_PROBABLE_SQUARES,
                NOMINAL_PROBABLE_SELECTIVITY,
                l.wld_empties + NOMINAL_CAUTIOUS_SQUARES
            )
        );
    }
    let solves = |d| {
        (
            Limits::nominal(d).wld_empties,
            Limits::nominal(d).exact_empties,
        )
    };
    assert_eq!(
        (solves(12), solves(16), solves(18)),
        ((21, 17), (23, 19), (24, 20))
    );
}
