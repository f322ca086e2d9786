//! `reversi review` end to end: bad files and transcripts are one-line errors
//! with status 2; `--json` gives one object per move with the documented keys
//! and a summary, and its losses add up to the result on an exact endgame.

mod common;

use common::XorShift;
use reversi::notation::ggf::{Record, write_ggf};
use reversi::rules::{BoardSize, Color, Game, Position, Rules};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn reversi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the reversi binary runs")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("reversi-review-{name}-{}.ggf", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

/// A random game from a random position with 8 empties to the end.
fn endgame(seed: u64) -> Game {
    let mut rng = XorShift::new(seed);
    loop {
        let mut p = Position::initial(BoardSize::Eight);
        while p.empties().count() > 8 && !p.is_game_over() {
            let list = p.moves_list();
            p = p.play_unchecked(list[rng.below(list.len())]);
        }
        if p.is_game_over() {
            continue;
        }
        let mut g = Game::from_position(Rules::standard(BoardSize::Eight), p).unwrap();
        loop {
            let list = g.position().moves_list();
            if list.is_empty() {
                break;
            }
            g.play(list[rng.below(list.len())]).unwrap();
        }
        return g;
    }
}

#[test]
fn bad_files_and_transcripts_are_clear_errors() {
    let missing = std::env::temp_dir().join("reversi-review-no-such-file.ggf");
    let truncated = temp_file("truncated", "(;GM[Othello]PB[a]B[f5]W[d6");
    let empty = temp_file("empty", "(;GM[Othello]PB[a]PW[b];)");
    for (args, text) in [
        (
            vec![missing.to_str().unwrap()],
            "reversi-review-no-such-file.ggf",
        ),
        (vec![truncated.to_str().unwrap()], "line 1"),
        (vec![empty.to_str().unwrap()], "no moves"),
        (vec![empty.to_str().unwrap(), "--game", "2"], "--game 2"),
        (vec!["--moves", "f5f5"], "--moves"),
        (vec!["--moves", "f5", "--depth", "0"], "--depth"),
    ] {
        let mut all = vec!["review"];
        all.extend(args.iter().copied());
        let out = reversi(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{all:?} wrote to stdout");
        assert!(stderr.contains(text), "{all:?}: {stderr}");
    }
    for file in [&truncated, &empty] {
        let err = String::from_utf8_lossy(&reversi(&["review", file.to_str().unwrap()]).stderr)
            .to_string();
        assert!(
            err.contains(file.to_str().unwrap()),
            "names the file: {err}"
        );
    }
    let _ = std::fs::remove_file(truncated);
    let _ = std::fs::remove_file(empty);
}

#[test]
fn json_lines_carry_the_keys_and_add_up_to_the_result() {
    for seed in [1, 2, 3] {
        let game = endgame(seed);
        let path = temp_file(
            &format!("json{seed}"),
            &write_ggf(&Record::new(game.clone())),
        );
        let out = reversi(&["review", path.to_str().unwrap(), "--depth", "2", "--json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), game.len() + 1, "{text}");
        let (mut black, mut white) = (0.0, 0.0);
        for (i, l) in lines[..game.len()].iter().enumerate() {
            for key in [
                "ply",
                "colour",
                "move",
                "best",
                "best_score",
                "played_score",
                "loss",
                "exact",
            ] {
                assert!(l.get(key).is_some(), "{key} in {l}");
            }
            assert_eq!(l["ply"], i + 1);
            assert_eq!(l["exact"], true, "8 empties are within the exact reach");
            let loss = l["loss"].as_f64().unwrap();
            let mover = game.position_at(i).unwrap().side_to_move();
            assert_eq!(
                l["colour"],
                if mover == Color::Black {
                    "black"
                } else {
                    "white"
                }
            );
            if mover == Color::Black {
                black += loss;
            } else {
                white += loss;
            }
        }
        let first = &lines[0];
        let sign = if game.position_at(0).unwrap().side_to_move() == Color::Black {
            1.0
        } else {
            -1.0
        };
        let start = sign * first["best_score"].as_f64().unwrap();
        let summary = &lines[game.len()];
        assert_eq!(summary["summary"], true);
        let result = summary["result"].as_f64().unwrap();
        assert_eq!(black - white, start - result, "{text}");
        assert!(summary["decided_at"].as_u64().is_some());
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn the_table_names_the_classes_and_the_decision() {
    let out = reversi(&["review", "--moves", "f5d6c3d3c4f4", "--depth", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("blunder ?? (>= 10)"), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.trim_start().starts_with(char::is_numeric))
            .count(),
        6
    );
    assert!(text.contains("decided: not known"), "{text}");
}

/// A file of transcripts is read as `convert` reads it; with several games
/// the one reviewed is named, and `--game` picks another.
#[test]
fn a_transcript_file_is_reviewed_and_the_game_of_several_is_named() {
    let p = std::env::temp_dir().join(format!("reversi-review-t-{}.txt", std::process::id()));
    std::fs::write(&p, "f5d6c3d3c4\nf5f6e6f4\n").unwrap();
    let path = p.to_str().unwrap();
    let out = reversi(&["review", path, "--depth", "2"]);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("game 1 of the 2"), "{stderr}");
    assert!(stdout.contains("Black: 3 moves"), "{stdout}");
    let out = reversi(&["review", path, "--depth", "2", "--game", "2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("Black: 2 moves"), "{stdout}");
    let _ = std::fs::remove_file(&p);
}

/// The review names the opening, in the table and in the JSON summary.
#[test]
fn the_review_names_the_opening() {
    let table = reversi(&["review", "--moves", "f5d6c3d3c4", "--depth", "1"]);
    assert!(table.status.success());
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("Opening: Tiger"), "{text}");
    let json = reversi(&["review", "--moves", "f5d6c3d3c4", "--depth", "1", "--json"]);
    let last = String::from_utf8_lossy(&json.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.contains(r#""opening":{"en":"Tiger","fr":"Tigre""#),
        "{last}"
    );
}

#[test]
fn review_takes_level_names_and_says_the_depth_range_plainly() {
    let out = reversi(&["review", "--moves", "f5d6c3d3c4f4", "--level", "casual"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = reversi(&["review", "--moves", "f5d6c3", "--depth", "99"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("the depth must be from 1 to 30, not 99"),
        "{stderr}"
    );
    let out = reversi(&["review", "--moves", "f5d6c3", "--level", "13"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("level 13 does not exist"));
    // --hash is in MiB, checked as in every command.
    let out = reversi(&["review", "--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--hash <MB>"));
}

#[test]
fn review_and_replay_take_the_rules_of_moves_but_not_for_a_file() {
    // 6×6 with the empties counting for nobody, and Anti Reversi: accepted.
    for extra in [
        &["--empties-to-nobody"][..],
        &["--anti", "--empties-to-winner"],
    ] {
        let mut args = vec![
            "review",
            "--moves",
            "c2",
            "--variant",
            "6x6",
            "--depth",
            "1",
            "--json",
        ];
        args.extend_from_slice(extra);
        let out = reversi(&args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let file = temp_file(
        "rules",
        "(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5];)",
    );
    for cmd in ["review", "replay"] {
        let out = reversi(&[cmd, file.to_str().unwrap(), "--anti"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {stderr}");
        assert!(
            stderr.contains("a game file carries its own"),
            "{cmd}: {stderr}"
        );
    }
    let _ = std::fs::remove_file(file);
}
