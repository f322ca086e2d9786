//! `reversi analyze` through the real binary: one analysis behind every figure
//! (the best move and its score are the first of the move list; nodes count
//! the whole analysis), a finished game said to be over in JSON as in text,
//! and no progress lines when stderr is not a terminal.

use reversi::ai::{Engine, Limits};
use reversi::notation::parse_transcript;
use reversi::rules::{BoardSize, Position, Rules};
use serde_json::Value;
use std::process::Command;
use std::sync::atomic::AtomicBool;

/// Runs `reversi analyze ARGS --json`; returns the object and stderr.
fn analyze_json(args: &[&str]) -> (Value, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("analyze")
        .args(args)
        .arg("--json")
        .output()
        .expect("the reversi binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    let text = String::from_utf8(out.stdout).unwrap();
    (serde_json::from_str(&text).unwrap(), stderr)
}

#[test]
fn the_best_move_and_its_score_are_the_first_of_the_list() {
    for args in [
        &["--moves", "f5d6c3", "--level", "5"][..],
        &["--moves", "f5d6c3d3c4", "--depth", "7"],
        &["--moves", "f5f6e6f4e3", "--level", "3"],
    ] {
        let (v, stderr) = analyze_json(args);
        assert!(stderr.is_empty(), "no progress into a pipe: {stderr}");
        let first = &v["moves"][0];
        assert_eq!(v["best"], first["move"], "{args:?}: {v}");
        assert_eq!(v["score"], first["score"], "{args:?}: {v}");
        assert_eq!(v["pv"][0], first["move"], "{args:?}: {v}");
        assert_eq!(v["status"], "to_move");
    }
}

#[test]
fn nodes_count_the_whole_analysis() {
    let depth = 7;
    let start = Position::initial(BoardSize::Eight);
    let moves = parse_transcript("f5d6c3d3c4", &start).unwrap();
    let pos = moves.iter().fold(start, |p, m| p.play(*m).unwrap());
    let limits = Limits {
        exact_empties: depth + 4,
        ..Limits::depth(depth)
    };
    // A plain search of the best move alone, with a fresh table: the whole
    // analysis (every move to the same depth) cannot take fewer nodes.
    let single = Engine::new(64)
        .search(
            &pos,
            &Rules::default(),
            &limits,
            &AtomicBool::new(false),
            0,
            &mut |_| {},
        )
        .nodes;
    let (v, _) = analyze_json(&["--moves", "f5d6c3d3c4", "--depth", &depth.to_string()]);
    let nodes = v["nodes"].as_u64().unwrap();
    assert!(
        nodes >= single,
        "analysis {nodes} nodes, one search {single}"
    );
    assert_eq!(v["depth"], depth);
}

#[test]
fn a_finished_game_is_over_in_json_too() {
    // Black wipes White out in 9 moves.
    let (v, _) = analyze_json(&["--moves", "d3c3b3d2e1d6d7e3f4"]);
    assert_eq!(v["status"], "game_over", "{v}");
    assert_eq!(v["result"], "Black wins 13–0", "{v}");
    assert_eq!(v["best"], Value::Null, "{v}");
    assert_eq!(v["score"], Value::Null, "{v}");
    assert_eq!(v["pv"], serde_json::json!([]), "{v}");
    assert_eq!(v["moves"], serde_json::json!([]), "{v}");
}
