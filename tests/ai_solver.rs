//! The exact endgame solver against plain minimax, on random positions of
//! both board sizes, normal and Anti Reversi, both scoring rules; the 8
//! symmetries give the same exact score.

mod common_ai;

use common_ai::{Rng, minimax_exact, random_position};
use reversi::ai::{Engine, Limits, Score};
use reversi::rules::{BoardSize, Move, Rules, Scoring, Symmetry};
use std::sync::atomic::AtomicBool;

fn variants() -> Vec<Rules> {
    let mut out = Vec::new();
    for size in [BoardSize::Eight, BoardSize::Six] {
        for anti in [false, true] {
            for scoring in [Scoring::EmptiesToNobody, Scoring::EmptiesToWinner] {
                out.push(Rules {
                    size,
                    anti,
                    scoring,
                });
            }
        }
    }
    out
}

/// `count` positions per variant with 1..=max_empties empties.
fn check_solver(seed: u64, count: usize, max_empties: u32) -> usize {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for rules in variants() {
        let mut done = 0;
        while done < count {
            let empties = 1 + rng.below(max_empties as usize) as u32;
            let Some(p) = random_position(&mut rng, rules.size, empties) else {
                continue;
            };
            let expected = minimax_exact(&p, &rules);
            // Full search through the public API.
            let r = engine.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
            assert_eq!(r.score, Score::Exact(expected), "{rules} {p:?}");
            if p.is_game_over() {
                assert_eq!(r.best_move, Move::Pass);
            } else {
                let after = p.play(r.best_move).expect("legal best move");
                assert_eq!(-minimax_exact(&after, &rules), expected, "best move {p:?}");
            }
            // Windows: fail-soft bounds must be consistent with the true value.
            let a = rng.below(21) as i32 - 10;
            let b = a + 1 + rng.below(6) as i32;
            let v = engine.solve_window(&p, &rules, a, b);
            if v <= a {
                assert!(expected <= v, "upper bound {v} < {expected}");
            } else if v >= b {
                assert!(expected >= v, "lower bound {v} > {expected}");
            } else {
                assert_eq!(v, expected);
            }
            done += 1;
            checked += 1;
        }
    }
    checked
}

#[test]
fn solver_equals_minimax_small_endgames() {
    assert_eq!(check_solver(1, 300, 8), 2400);
}

#[test]
fn solver_equals_minimax_ten_empties() {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(99);
    for rules in variants() {
        let mut done = 0;
        while done < 12 {
            let empties = 9 + rng.below(2) as u32;
            let Some(p) = random_position(&mut rng, rules.size, empties) else {
                continue;
            };
            let expected = minimax_exact(&p, &rules);
            let r = engine.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
            assert_eq!(r.score, Score::Exact(expected), "{rules} {p:?}");
            done += 1;
        }
    }
}

#[test]
fn analyze_gives_every_move_its_exact_score() {
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(5);
    let rules = Rules::standard(BoardSize::Eight);
    for _ in 0..40 {
        let Some(p) = random_position(&mut rng, rules.size, 7) else {
            continue;
        };
        let evals = engine.analyze(&p, &rules, &Limits::exact(), &stop, &mut |_| {});
        assert_eq!(evals.len(), p.moves_list().len());
        for w in evals.windows(2) {
            assert!(w[0].score.discs() >= w[1].score.discs());
        }
        for e in evals {
            let v = -minimax_exact(&p.play_unchecked(e.mv), &rules);
            assert_eq!(e.score, Score::Exact(v), "{} in {p:?}", e.mv);
        }
    }
}

#[test]
fn symmetries_give_the_same_exact_score() {
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(11);
    for size in [BoardSize::Eight, BoardSize::Six] {
        let rules = Rules::standard(size);
        let mut done = 0;
        while done < 6 {
            let Some(p) = random_position(&mut rng, size, 14) else {
                continue;
            };
            let base = engine.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
            for s in Symmetry::ALL {
                engine.clear();
                let q = s.position(&p);
                let r = engine.search(&q, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
                assert_eq!(r.score, base.score, "{s:?} of {p:?}");
            }
            done += 1;
        }
    }
}

/// Before an exact solve from 21 empties the learned engine runs a selective
/// iteration (endgame ProbCut) whose bounds stay in the table. They must never
/// leak into exact scores: an engine that keeps its table from position to
/// position agrees with a plain exact solve (no root iterations) on a fresh
/// table, and so does a two-thread search. (Per-move scores at this size take minutes: `analyze` is checked
/// on smaller endgames above.)
#[test]
fn selective_iterations_do_not_change_exact_scores() {
    let mut shared = Engine::new(16);
    let mut plain = Engine::new(16);
    // Two threads: the helper skips the selective iteration and solves
    // exactly at once, on another root move.
    let mut two = Engine::new(16);
    two.set_threads(2);
    let stop = AtomicBool::new(false);
    let rules = Rules::standard(BoardSize::Eight);
    let mut rng = Rng::new(2027);
    let mut done = 0;
    while done < 4 {
        let empties = 21 + rng.below(2) as u32;
        let Some(p) = random_position(&mut rng, BoardSize::Eight, empties) else {
            continue;
        };
        if !p.has_legal_move() {
            continue;
        }
        let a = shared.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
        plain.clear();
        let b = plain.solve_window(&p, &rules, -64, 64);
        assert_eq!(a.score, Score::Exact(b), "{p:?}");
        let c = two.search(&p, &rules, &Limits::exact(), &stop, 0, &mut |_| {});
        assert_eq!(c.score, a.score, "two threads, {p:?}");
        let after = p.play(c.best_move).expect("legal best move");
        assert_eq!(-plain.solve_window(&after, &rules, -64, 64), b, "{p:?}");
        done += 1;
    }
}

/// A result-only solve (`wld_empties`) chooses a move with the best result
/// (win, draw or loss) that minimax gives, on every variant; the score it
/// reports is on the proven side of zero; one and two threads agree on the
/// result. Above `wld_empties` the search is a midgame one, below
/// `exact_empties` exact.
#[test]
fn result_only_solves_choose_a_move_with_the_best_result() {
    let mut one = Engine::new(8);
    let mut two = Engine::new(8);
    two.set_threads(2);
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(41);
    let limits = Limits {
        exact_empties: 4,
        wld_empties: 14,
        ..Limits::depth(60)
    };
    for rules in variants() {
        let mut done = 0;
        while done < 12 {
            let empties = 5 + rng.below(7) as u32;
            let Some(p) = random_position(&mut rng, rules.size, empties) else {
                continue;
            };
            if !p.has_legal_move() {
                continue;
            }
            let best = minimax_exact(&p, &rules).signum();
            for engine in [&mut one, &mut two] {
                let r = engine.search(&p, &rules, &limits, &stop, 0, &mut |_| {});
                let Score::Estimate(v) = r.score else {
                    panic!("a result-only solve reports an estimate: {:?}", r.score);
                };
                assert_eq!(v.signum(), best, "{rules} {p:?}");
                let after = p.play(r.best_move).expect("legal best move");
                assert_eq!(
                    -minimax_exact(&after, &rules).signum(),
                    best,
                    "{rules} {p:?}"
                );
            }
            done += 1;
        }
    }
    // Exact below `exact_empties`, whatever `wld_empties` says.
    let p = loop {
        if let Some(p) = random_position(&mut rng, BoardSize::Eight, 4)
            && p.has_legal_move()
        {
            break p;
        }
    };
    let r = one.search(
        &p,
        &Rules::standard(BoardSize::Eight),
        &limits,
        &stop,
        0,
        &mut |_| {},
    );
    assert_eq!(
        r.score,
        Score::Exact(minimax_exact(&p, &Rules::standard(BoardSize::Eight)))
    );
}

/// A probable solve (`probable_empties`): with the learned evaluation, a
/// result-only solve with endgame ProbCut that is never proven. On positions
/// whose exact margin is clear (10 discs or more) it reports the right side
/// of zero and chooses a move that keeps that result, in fewer nodes than the
/// proven result-only solve of the same positions, and at a cautious
/// selectivity of its own (`probable_selectivity`) in more nodes than at the
/// midgame's aggressive one, still fewer than the proof; from
/// `cautious_empties` down it is that cautious solve whatever its own
/// selectivity. Without an endgame ProbCut model (6×6 uses the hand-written
/// evaluation) it changes nothing.
#[test]
fn probable_solves_find_clear_results_in_fewer_nodes_than_proofs() {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(43);
    let rules = Rules::standard(BoardSize::Eight);
    let probable = Limits {
        exact_empties: 4,
        wld_empties: 8,
        probable_empties: 20,
        selectivity: 4,
        ..Limits::depth(60)
    };
    // At most `wld_empties` empties the solve is a proof, whatever
    // `probable_empties` says.
    let proven = Limits {
        wld_empties: 20,
        ..probable
    };
    // The probable solve's own selectivity: cautious (2.6 σ) where the
    // midgame search is aggressive.
    let cautious = Limits {
        probable_selectivity: 1,
        ..probable
    };
    let (mut probable_nodes, mut cautious_nodes, mut proven_nodes, mut done) = (0, 0, 0, 0);
    while done < 10 {
        let Some(p) = random_position(&mut rng, BoardSize::Eight, 18) else {
            continue;
        };
        if !p.has_legal_move() {
            continue;
        }
        let exact = Engine::new(8).solve_window(&p, &rules, -64, 64);
        if exact.abs() < 10 {
            continue;
        }
        let a = Engine::new(8).search(&p, &rules, &probable, &stop, 0, &mut |_| {});
        let b = Engine::new(8).search(&p, &rules, &proven, &stop, 0, &mut |_| {});
        let c = Engine::new(8).search(&p, &rules, &cautious, &stop, 0, &mut |_| {});
        for (r, what) in [(&a, "probable"), (&b, "proven"), (&c, "cautious")] {
            let Score::Estimate(v) = r.score else {
                panic!("a {what} solve reports an estimate: {:?}", r.score);
            };
            assert_eq!(v.signum(), exact.signum(), "{what} {p:?}");
            let after = p.play(r.best_move).expect("legal best move");
            let keeps = -Engine::new(8).solve_window(&after, &rules, -64, 64);
            assert_eq!(keeps.signum(), exact.signum(), "{what} {p:?}");
        }
        // From `cautious_empties` down the probable solve is the cautious
        // one, whatever its own selectivity; above, that selectivity holds.
        let near = Limits {
            cautious_empties: 18,
            probable_selectivity: 3,
            ..probable
        };
        let far = Limits {
            cautious_empties: 17,
            ..probable
        };
        let d = Engine::new(8).search(&p, &rules, &near, &stop, 0, &mut |_| {});
        let e = Engine::new(8).search(&p, &rules, &far, &stop, 0, &mut |_| {});
        assert_eq!((d.best_move, d.nodes), (c.best_move, c.nodes), "{p:?}");
        assert_eq!((e.best_move, e.nodes), (a.best_move, a.nodes), "{p:?}");
        probable_nodes += a.nodes;
        proven_nodes += b.nodes;
        cautious_nodes += c.nodes;
        done += 1;
    }
    assert!(
        probable_nodes < cautious_nodes && cautious_nodes < proven_nodes,
        "probable {probable_nodes} nodes, cautious {cautious_nodes}, proven {proven_nodes}"
    );
    let six = Rules::standard(BoardSize::Six);
    let mut done = 0;
    while done < 4 {
        let Some(p) = random_position(&mut rng, BoardSize::Six, 14) else {
            continue;
        };
        let plain = Limits::depth(4);
        let with = Limits {
            probable_empties: 20,
            ..plain
        };
        let a = Engine::new(8).search(&p, &six, &plain, &stop, 0, &mut |_| {});
        let b = Engine::new(8).search(&p, &six, &with, &stop, 0, &mut |_| {});
        assert_eq!(
            (a.best_move, a.score, a.nodes),
            (b.best_move, b.score, b.nodes),
            "{p:?}"
        );
        done += 1;
    }
}
