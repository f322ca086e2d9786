//! FFO endgame positions with known exact scores: the whole #1–#19 set and
//! the faster positions of #20–#39 and #40–#59 (the rest run in `reversi bench` and
//! `reversi solve`).

use reversi::ai::{Engine, Limits, Score};
use reversi::notation::parse_obf;
use reversi::rules::{Rules, Scoring};
use std::sync::atomic::AtomicBool;

fn check(file: &str, numbers: &[usize], first: usize) {
    let text = std::fs::read_to_string(format!("{}/tests/data/{file}", env!("CARGO_MANIFEST_DIR")))
        .expect("test data");
    let mut engine = Engine::new(64);
    let stop = AtomicBool::new(false);
    for (i, line) in text.lines().enumerate() {
        if !numbers.contains(&(first + i)) {
            continue;
        }
        let obf = parse_obf(line).expect("valid OBF");
        let rules = Rules {
            scoring: Scoring::EmptiesToWinner,
            ..Rules::standard(obf.position.size())
        };
        let best = obf.scores.iter().map(|s| s.1).max().expect("annotated");
        engine.clear();
        let r = engine.search(
            &obf.position,
            &rules,
            &Limits::exact(),
            &stop,
            0,
            &mut |_| {},
        );
        assert_eq!(r.score, Score::Exact(best), "FFO #{}", first + i);
        assert!(
            obf.scores
                .iter()
                .any(|&(m, s)| m == r.best_move && s == best),
            "FFO #{}: {} is not a best move",
            first + i,
            r.best_move
        );
    }
}

#[test]
fn ffo_1_to_19() {
    check("fforum-1-19.obf", &(1..=19).collect::<Vec<_>>(), 1);
}

#[test]
fn ffo_fast_of_40_to_59() {
    check("fforum-40-59.obf", &[40, 41], 40);
}

#[test]
fn ffo_fast_of_20_to_39() {
    check("fforum-20-39.obf", &[20, 21, 22, 26, 28], 20);
}
