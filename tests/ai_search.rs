//! Midgame search and evaluation invariants: alpha-beta at any window agrees
//! with plain minimax; the evaluation is symmetric and antisymmetric (up to
//! the learned one's side-to-move bias); the
//! search respects the stop flag and always returns a legal move.

mod common_ai;

use common_ai::{Rng, minimax_depth, random_position};
use reversi::ai::{EVAL_LIMIT, Engine, Evaluator, LATE_EMPTIES, Level, Limits, OPENING_EMPTIES};
use reversi::rules::{BoardSize, Move, Position, Rules, Scoring, Symmetry};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[test]
fn alpha_beta_at_any_window_equals_minimax() {
    let mut rng = Rng::new(3);
    // The learned evaluation (8×8 Reversi) and the hand-written one (all).
    for (size, anti, learned) in [
        (BoardSize::Eight, false, true),
        (BoardSize::Eight, false, false),
        (BoardSize::Six, false, false),
        (BoardSize::Eight, true, false),
    ] {
        let mut engine = Engine::new(8);
        if !learned {
            engine.set_weights(None);
        }
        let rules = Rules {
            anti,
            ..Rules::standard(size)
        };
        let eval = engine.evaluator(&rules);
        assert_eq!(eval.is_learned(), learned);
        let mut done = 0;
        while done < 30 {
            let max = size.squares() - 5;
            let empties = 8 + rng.below((max - 8) as usize) as u32;
            let Some(p) = random_position(&mut rng, size, empties) else {
                continue;
            };
            let depth = 1 + rng.below(3) as u32;
            let expected = minimax_depth(&p, &rules, &eval, depth);
            engine.clear();
            assert_eq!(
                engine.alpha_beta(&p, &rules, depth, -30_000, 30_000),
                expected
            );
            for _ in 0..4 {
                let a = expected + rng.below(801) as i32 - 400;
                let b = a + 1 + rng.below(300) as i32;
                let v = engine.alpha_beta(&p, &rules, depth, a, b);
                if v <= a {
                    assert!(expected <= v, "depth {depth} ({a},{b}): {v} vs {expected}");
                } else if v >= b {
                    assert!(expected >= v, "depth {depth} ({a},{b}): {v} vs {expected}");
                } else {
                    assert_eq!(v, expected, "depth {depth} ({a},{b})");
                }
            }
            done += 1;
        }
    }
}

#[test]
fn evaluation_is_antisymmetric_and_symmetric() {
    let mut rng = Rng::new(21);
    for size in [BoardSize::Eight, BoardSize::Six] {
        for anti in [false, true] {
            let rules = Rules {
                anti,
                scoring: Scoring::EmptiesToNobody,
                size,
            };
            // The hand-written and, where it applies (8×8), the learned one.
            let hand = Evaluator::new(&rules);
            let engine = reversi::ai::Engine::new(1);
            let learned = engine.evaluator(&rules);
            // The learned evaluation's side-to-move bias per empties.
            let bias = engine.weights().map(|w| *w.bias());
            assert_eq!(learned.is_learned(), size == BoardSize::Eight && !anti);
            for eval in [hand, learned] {
                for _ in 0..200 {
                    let empties = 1 + rng.below(size.squares() as usize - 5) as u32;
                    let Some(p) = random_position(&mut rng, size, empties) else {
                        continue;
                    };
                    let v = eval.evaluate(&p);
                    let swapped = Position::from_side_relative(
                        p.opponent(),
                        p.player(),
                        p.side_to_move(),
                        size,
                    );
                    // Antisymmetric up to the side to move's bias.
                    let b = match &bias {
                        Some(b) if eval.is_learned() => i32::from(b[p.empties().count() as usize]),
                        _ => 0,
                    };
                    // Values are clamped to ±EVAL_LIMIT: exact where neither
                    // side reaches the bound, the same order of sides where one does.
                    let w = eval.evaluate(&swapped);
                    if v.abs() < EVAL_LIMIT && w.abs() < EVAL_LIMIT {
                        assert_eq!(w - b, -(v - b), "{p:?}");
                    } else {
                        assert!((v - b) * (w - b) <= 0, "{p:?}: {v} and {w}, bias {b}");
                    }
                    for s in Symmetry::ALL {
                        assert_eq!(eval.evaluate(&s.position(&p)), v, "{s:?} {p:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn every_level_returns_legal_moves() {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    for size in [BoardSize::Eight, BoardSize::Six] {
        let rules = Rules::standard(size);
        for level in Level::ALL {
            let limits = Limits {
                time: Some(Duration::from_millis(20)),
                ..level.limits()
            };
            let mut p = Position::initial(size);
            let mut ply = 0u64;
            while !p.is_game_over() {
                let r = engine.search(&p, &rules, &limits, &stop, ply, &mut |_| {});
                assert!(p.is_legal(r.best_move), "{level}: {} in {p:?}", r.best_move);
                assert_eq!(r.pv.first(), Some(&r.best_move));
                p = p.play_unchecked(r.best_move);
                ply += 1;
            }
        }
    }
}

#[test]
fn stop_flag_returns_a_legal_move() {
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let p = Position::initial(BoardSize::Eight);
    let rules = Rules::standard(BoardSize::Eight);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        engine.search(&p, &rules, &Limits::depth(60), &stop, 0, &mut |_| {})
    });
    assert!(p.is_legal(r.best_move));
    // Also a stop set before the search starts.
    let r = engine.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
    assert!(p.is_legal(r.best_move));
}

#[test]
fn pass_and_game_over_are_reported() {
    let mut engine = Engine::new(1);
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    // Black to move with no legal move: a1 black, b1 white, c1 empty... White can play.
    let p = Position::from_side_relative(1, 2, reversi::rules::Color::Black, BoardSize::Eight);
    if !p.has_legal_move() && !p.is_game_over() {
        let r = engine.search(&p, &rules, &Limits::depth(4), &stop, 0, &mut |_| {});
        assert_eq!(r.best_move, Move::Pass);
    }
    let full = Position::from_side_relative(
        u64::MAX >> 1,
        1 << 63,
        reversi::rules::Color::Black,
        BoardSize::Eight,
    );
    let r = engine.search(&full, &rules, &Limits::depth(4), &stop, 0, &mut |_| {});
    assert_eq!(r.best_move, Move::Pass);
    assert_eq!(r.score.discs(), 62.0);
}

#[test]
fn progress_is_reported_and_node_limit_respected() {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let p = Position::initial(BoardSize::Eight);
    let rules = Rules::standard(BoardSize::Eight);
    let mut reports = 0;
    let limits = Limits {
        nodes: Some(200_000),
        ..Limits::depth(60)
    };
    let r = engine.search(&p, &rules, &limits, &stop, 0, &mut |pr| {
        reports += 1;
        assert!(p.is_legal(pr.best_move));
    });
    assert!(reports >= 1);
    assert!(p.is_legal(r.best_move));
    assert!(r.nodes < 2_000_000, "{}", r.nodes);
}

/// `opening_depth` is the depth of a search while more than
/// `OPENING_EMPTIES` squares are empty, `late_depth` from `LATE_EMPTIES`
/// down, `depth` in between.
#[test]
fn the_opening_and_late_depths_hold_in_their_bands_and_the_depth_between() {
    let mut rng = Rng::new(11);
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    let limits = Limits {
        opening_depth: Some(2),
        late_depth: Some(3),
        ..Limits::depth(4)
    };
    let bands = [
        (OPENING_EMPTIES + 1..=55, 2),
        (LATE_EMPTIES + 1..=OPENING_EMPTIES, 4),
        (24..=LATE_EMPTIES, 3),
    ];
    for (band, depth) in bands {
        let mut searched = 0;
        while searched < 4 {
            let span = band.end() - band.start() + 1;
            let empties = band.start() + rng.below(span as usize) as u32;
            let Some(p) = random_position(&mut rng, BoardSize::Eight, empties) else {
                continue;
            };
            if p.moves_list().is_empty() {
                continue;
            }
            let r = engine.search(&p, &rules, &limits, &stop, 0, &mut |_| {});
            assert_eq!(r.depth, depth, "{empties} empties");
            searched += 1;
        }
    }
    // The nominal depths: N above 40 empties, N + 2 down to 35, N + 4 below.
    let n = Limits::nominal(16);
    assert_eq!(
        (
            n.depth_at(44),
            n.depth_at(40),
            n.depth_at(35),
            n.depth_at(34),
            n.depth_at(24)
        ),
        (16, 18, 18, 20, 20)
    );
}

/// ProbCut's models come with the weights: weights without models search
/// exactly as with the shipped weights' models (same move, score and
/// nodes), and other models change the selective search but not a search
/// without selectivity.
#[test]
fn search_models_travel_with_the_weights() {
    use reversi::ai::PatternWeights;
    use std::sync::Arc;
    let shipped = PatternWeights::shipped().unwrap();
    let bare = Arc::new((*shipped).clone().with_models(None));
    let mut wide = *shipped.models().unwrap();
    for m in wide.midgame.iter_mut().flatten() {
        m.sigma *= 3.0;
    }
    let wider = Arc::new((*shipped).clone().with_models(Some(wide)));
    let rules = Rules::standard(BoardSize::Eight);
    let mut rng = Rng::new(11);
    let never = AtomicBool::new(false);
    let mut differ = 0;
    for _ in 0..6 {
        let Some(p) = random_position(&mut rng, BoardSize::Eight, 40) else {
            continue;
        };
        if !p.has_legal_move() {
            continue;
        }
        let run = |w: &Arc<PatternWeights>, limits: &Limits| {
            let mut e = Engine::new(16);
            e.set_weights(Some(w.clone()));
            let r = e.search(&p, &rules, limits, &never, 1, &mut |_| {});
            (r.best_move, r.score, r.nodes)
        };
        let selective = Limits::nominal(9);
        assert_eq!(run(&shipped, &selective), run(&bare, &selective));
        let plain = Limits::depth(5);
        assert_eq!(run(&shipped, &plain), run(&wider, &plain));
        differ += usize::from(run(&shipped, &selective).2 != run(&wider, &selective).2);
    }
    assert!(
        differ > 0,
        "wider models never changed the selective search"
    );
}

/// A made-up position where Black has 35 legal moves, more than any game
/// reaches (33): the search keeps every one of them and agrees with minimax.
#[test]
fn a_position_with_more_than_32_moves_is_searched_in_full() {
    let p = reversi::notation::parse_board(
        "-----XO--OXO-XO--OXXX----XO--O--X---XOO--OXO-XX--OOXXOO--------- X",
    )
    .unwrap();
    assert_eq!(p.legal_moves().count(), 35);
    let rules = Rules::default();
    let mut engine = Engine::new(8);
    let eval = engine.evaluator(&rules);
    for depth in 1..=3 {
        engine.clear();
        assert_eq!(
            engine.alpha_beta(&p, &rules, depth, -30_000, 30_000),
            minimax_depth(&p, &rules, &eval, depth),
            "depth {depth}"
        );
    }
    let stop = AtomicBool::new(false);
    for limits in [Limits::depth(6), Limits::nominal(8), Level::ALL[0].limits()] {
        let r = engine.search(&p, &rules, &limits, &stop, 0, &mut |_| {});
        assert!(p.is_legal(r.best_move), "{limits:?}: {}", r.best_move);
    }
}

/// `settle` stops one ply short of the depth when the iterations before it
/// chose the same move `settle` times in a row; otherwise `doubt` searches
/// that many plies further when the last iteration chose another move than
/// either of the two before it. Each search ends at the depth its own
/// progress reports call for, and plays the last iteration's move.
#[test]
fn settle_and_doubt_end_where_the_iterations_say() {
    let mut rng = Rng::new(21);
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    let depth = 7;
    let limits = Limits {
        settle: 3,
        doubt: 2,
        ..Limits::depth(depth)
    };
    let (mut settled, mut doubted, mut plain) = (0, 0, 0);
    while settled + doubted + plain < 80 {
        let empties = 26 + rng.below(25) as u32;
        let Some(p) = random_position(&mut rng, BoardSize::Eight, empties) else {
            continue;
        };
        if p.moves_list().len() < 2 {
            continue;
        }
        let mut bests = Vec::new();
        let r = engine.search(&p, &rules, &limits, &stop, 0, &mut |pr| {
            bests.push((pr.depth, pr.best_move));
        });
        let depths: Vec<u32> = bests.iter().map(|b| b.0).collect();
        assert_eq!(depths, (1..=r.depth).collect::<Vec<_>>());
        let best = |d: u32| bests[d as usize - 1].1;
        assert_eq!(r.best_move, best(r.depth));
        if (depth - 3..depth).all(|d| best(d) == best(depth - 1)) {
            assert_eq!(r.depth, depth - 1, "{bests:?}");
            settled += 1;
        } else if best(depth) != best(depth - 1) || best(depth) != best(depth - 2) {
            assert_eq!(r.depth, depth + 2, "{bests:?}");
            doubted += 1;
        } else {
            assert_eq!(r.depth, depth, "{bests:?}");
            plain += 1;
        }
    }
    assert!(
        settled > 0 && doubted > 0 && plain > 0,
        "{settled} {doubted} {plain}"
    );
    // An analysis searches every move to the depth, whatever the iterations.
    let p = random_position(&mut rng, BoardSize::Eight, 40).expect("a position");
    let evals = engine.analyze(&p, &rules, &limits, &stop, &mut |_| {});
    assert_eq!(evals.len(), p.moves_list().len());
}
