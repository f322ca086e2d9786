//! The game review against the final result: on random short endgames every
//! value is exact and Black's losses minus White's equal the fall of Black's
//! exact value (so the review never contradicts the result); a game of perfect
//! play reviews with no loss; the cache text round-trips.

mod common;

use common::XorShift;
use reversi::ai::review::{self, Class, PlyReview};
use reversi::ai::{Engine, Limits, Score};
use reversi::rules::{BoardSize, Color, Game, Move, Position, Rules, Scoring};
use std::sync::atomic::AtomicBool;

/// A random position with `empties` empty squares (played at random from the
/// start; `None` if the random game ended before).
fn random_start(rng: &mut XorShift, size: BoardSize, empties: u32) -> Option<Position> {
    let mut p = Position::initial(size);
    while p.empties().count() > empties {
        let list = p.moves_list();
        if list.is_empty() {
            return None;
        }
        p = p.play_unchecked(list[rng.below(list.len())]);
    }
    (!p.is_game_over()).then_some(p)
}

/// A random game from `start` to its end.
fn random_game(rng: &mut XorShift, rules: Rules, start: Position) -> Game {
    let mut game = Game::from_position(rules, start).unwrap();
    loop {
        let list = game.position().moves_list();
        if list.is_empty() {
            return game;
        }
        game.play(list[rng.below(list.len())]).unwrap();
    }
}

fn black(game: &Game, ply: usize) -> f64 {
    if game.position_at(ply).unwrap().side_to_move() == Color::Black {
        1.0
    } else {
        -1.0
    }
}

/// Over the longest run of exact plies at the end of the game: Black's losses
/// minus White's equal Black's exact value at the run's start minus the final
/// result. Returns the length of the run.
fn check_invariant(game: &Game, plies: &[Option<PlyReview>]) -> usize {
    let n = game.len();
    let first = (0..n)
        .rev()
        .take_while(|&i| plies[i].is_some_and(|r| r.is_exact()))
        .last()
        .unwrap_or(n);
    let (mut black_loss, mut white_loss) = (0.0, 0.0);
    for (i, r) in plies.iter().enumerate().skip(first) {
        let r = r.unwrap();
        if black(game, i) > 0.0 {
            black_loss += r.loss();
        } else {
            white_loss += r.loss();
        }
    }
    if first < n {
        let start = black(game, first) * plies[first].unwrap().best_score.discs();
        let last = game.position_at(n).unwrap();
        let result = black(game, n) * f64::from(game.rules().final_margin(&last));
        assert_eq!(
            black_loss - white_loss,
            start - result,
            "{:?} from ply {first}",
            game.moves()
        );
        // The values at the end of the run agree with the result.
        let points = review::black_values(game, plies);
        assert_eq!(points[n].unwrap().black, result);
    }
    n - first
}

#[test]
fn losses_add_up_to_the_change_of_the_exact_value_on_random_endgames() {
    let mut rng = XorShift::new(19);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    let mut lossy = 0;
    for k in 0..24 {
        let size = if k % 3 == 2 {
            BoardSize::Six
        } else {
            BoardSize::Eight
        };
        let rules = Rules {
            size,
            anti: k % 4 == 1,
            scoring: if k % 5 == 3 {
                Scoring::EmptiesToWinner
            } else {
                Scoring::EmptiesToNobody
            },
        };
        let Some(start) = random_start(&mut rng, size, 11) else {
            continue;
        };
        let game = random_game(&mut rng, rules, start);
        let limits = Limits {
            exact_empties: 12,
            ..Limits::depth(2)
        };
        let plies = review::review_game(&mut engine, &game, &limits, &stop, &mut |_, _| {});
        let run = check_invariant(&game, &plies);
        assert_eq!(run, game.len(), "every ply of a short endgame is exact");
        checked += 1;
        lossy += usize::from(plies.iter().flatten().any(|r| r.loss() > 0.0));
        let s = review::summarize(&game, &plies);
        assert_eq!(s.reviewed, game.len());
        assert!(s.decided_at.is_some(), "an exact finished game is decided");
    }
    assert!(checked >= 15, "{checked} games checked");
    assert!(lossy >= 10, "random moves lose discs ({lossy} games)");
}

#[test]
fn the_invariant_holds_over_the_exact_tail_of_a_longer_game() {
    let mut rng = XorShift::new(7);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let mut tails = 0;
    for _ in 0..6 {
        let Some(start) = random_start(&mut rng, BoardSize::Eight, 18) else {
            continue;
        };
        let game = random_game(&mut rng, Rules::standard(BoardSize::Eight), start);
        let limits = Limits {
            exact_empties: 9,
            ..Limits::depth(2)
        };
        let plies = review::review_game(&mut engine, &game, &limits, &stop, &mut |_, _| {});
        let run = check_invariant(&game, &plies);
        assert!(
            run > 0 && run < game.len(),
            "estimates first, exact at the end"
        );
        tails += 1;
        // The estimated plies are reviewed too.
        assert!(plies.iter().all(Option::is_some));
        assert!(plies.iter().flatten().any(|r| !r.is_exact()));
    }
    assert!(tails >= 4);
}

/// The figures of a ply depend on its position alone: reviewing the plies
/// nearest-first from the middle (as the game screen does) or backwards
/// gives what the whole-game review from the start gives.
#[test]
fn a_review_does_not_depend_on_the_order_of_its_plies() {
    let mut rng = XorShift::new(11);
    let rules = Rules::standard(BoardSize::Eight);
    let game = random_game(&mut rng, rules, Position::initial(BoardSize::Eight));
    let limits = review::limits(4);
    let stop = AtomicBool::new(false);
    let mut engine = Engine::new(8);
    let forward = review::review_game(&mut engine, &game, &limits, &stop, &mut |_, _| {});
    let mut order: Vec<usize> = (0..game.len()).rev().collect();
    order.rotate_left(game.len() / 2);
    let mut other = Engine::new(8);
    for i in order {
        let p = game.position_at(i).unwrap();
        let r = review::review_ply(&mut other, &p, &rules, game.moves()[i], &limits, &stop);
        assert_eq!(r, forward[i], "ply {i}");
    }
}

#[test]
fn a_game_of_perfect_play_reviews_with_no_loss() {
    let mut rng = XorShift::new(3);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let mut games = 0;
    while games < 6 {
        let size = if games % 2 == 0 {
            BoardSize::Eight
        } else {
            BoardSize::Six
        };
        let Some(start) = random_start(&mut rng, size, 10) else {
            continue;
        };
        let rules = Rules::standard(size);
        let mut game = Game::from_position(rules, start).unwrap();
        while !game.position().is_game_over() {
            let r = engine.search(
                &game.position(),
                &rules,
                &Limits::exact(),
                &stop,
                0,
                &mut |_| {},
            );
            assert!(r.score.is_exact());
            game.play(r.best_move).unwrap();
        }
        let limits = Limits {
            exact_empties: 12,
            ..Limits::depth(2)
        };
        let plies = review::review_game(&mut engine, &game, &limits, &stop, &mut |_, _| {});
        for (i, r) in plies.iter().enumerate() {
            let r = r.unwrap();
            assert!(r.is_exact());
            assert_eq!(r.loss(), 0.0, "ply {i} of {:?}", game.moves());
            assert_eq!(r.class(), Class::Best);
        }
        let s = review::summarize(&game, &plies);
        assert_eq!(
            s.decided_at,
            Some(0),
            "perfect play: decided from the start"
        );
        assert!(
            s.players
                .iter()
                .all(|p| p.total_loss == 0.0 && p.worst.is_none())
        );
        games += 1;
    }
}

#[test]
fn passes_are_reviewed_as_forced_and_not_counted() {
    // Random endgames until one with a pass.
    let mut rng = XorShift::new(11);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    for _ in 0..200 {
        let Some(start) = random_start(&mut rng, BoardSize::Six, 8) else {
            continue;
        };
        let game = random_game(&mut rng, Rules::standard(BoardSize::Six), start);
        if !game.moves().contains(&Move::Pass) {
            continue;
        }
        let plies = review::review_game(
            &mut engine,
            &game,
            &review::limits(2),
            &stop,
            &mut |_, _| {},
        );
        let mut passes = 0;
        for (i, mv) in game.moves().iter().enumerate() {
            if *mv == Move::Pass {
                let r = plies[i].unwrap();
                assert!(r.is_pass() && r.loss() == 0.0);
                passes += 1;
            }
        }
        let s = review::summarize(&game, &plies);
        assert_eq!(s.players[0].moves + s.players[1].moves + passes, game.len());
        let points = review::black_values(&game, &plies);
        assert!(points.iter().flatten().any(|p| p.pass));
        check_invariant(&game, &plies);
        return;
    }
    panic!("no game with a pass found");
}

#[test]
fn classes_follow_the_documented_thresholds() {
    let at = |loss: f64| Class::of(loss);
    assert_eq!(at(0.0), Class::Best);
    assert_eq!(at(0.99), Class::Best);
    assert_eq!(at(1.0), Class::Inaccuracy);
    assert_eq!(at(3.99), Class::Inaccuracy);
    assert_eq!(at(4.0), Class::Mistake);
    assert_eq!(at(9.99), Class::Mistake);
    assert_eq!(at(10.0), Class::Blunder);
    assert_eq!(Class::Blunder.mark(), "??");
}

#[test]
fn the_cache_text_round_trips_and_bad_entries_are_named() {
    let mut rng = XorShift::new(5);
    let mut engine = Engine::new(4);
    let stop = AtomicBool::new(false);
    let start = random_start(&mut rng, BoardSize::Eight, 14).unwrap();
    let game = random_game(&mut rng, Rules::standard(BoardSize::Eight), start);
    let mut plies = review::review_game(
        &mut engine,
        &game,
        &review::limits(2),
        &stop,
        &mut |_, _| {},
    );
    plies[1] = None;
    assert!(
        plies.iter().flatten().any(|r| !r.is_exact()),
        "estimates too"
    );
    let text = review::write_cache(2, &plies);
    let (depth, back) = review::read_cache(&text, &game).unwrap();
    assert_eq!(depth, 2);
    // Estimates are kept to the hundredth of a disc, as the engine gives them.
    assert_eq!(back, plies);
    assert_eq!(review::write_cache(2, &[None, None]), "");
    for (bad, entry) in [
        ("x8", 0),
        ("d2 zz/+2/+2", 1),
        ("d2 - d4/+2/+2", 2), // d4 is never empty
        ("d2 -/+2", 1),
        ("d2 pa/+2/+x", 1),
    ] {
        let e = review::read_cache(bad, &game).unwrap_err();
        assert_eq!(e.entry, entry, "{bad}: {e}");
    }
    let too_many = format!("{text} -");
    assert!(review::read_cache(&too_many, &game).is_err());
    let _ = Score::Exact(0);
}
