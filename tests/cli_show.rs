//! End to end: runs the real `reversi` binary for `show` (text and JSON, both
//! sizes, `--position`, a forced pass, a finished game), `perft 5`, and bad
//! input (exit status 2, a clear message on stderr, nothing on stdout), also
//! in `bench --midgame`.

use reversi::notation::{parse_transcript, write_transcript};
use reversi::rules::{BoardSize, Color, Move, Position};
use std::process::{Command, Output};

const START: &str = "---------------------------OX------XO--------------------------- X";
const WIPE_OUT: &str = "d3c3b3d2e1d6d7e3f4";
const SHORT_GAME: &str = "f5d6c5b6c4g5a7d3f4e3f2b4c3d2g1";

fn reversi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("the reversi binary runs")
}

/// Runs a command that must succeed; returns its stdout.
fn ok(args: &[&str]) -> String {
    let out = reversi(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    assert!(stderr.is_empty(), "{args:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail with exit status 2; returns its stderr.
fn bad(args: &[&str]) -> String {
    let out = reversi(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn show_prints_the_start_position_with_coordinates_and_legal_moves() {
    let text = ok(&["show"]);
    let expected = "  a b c d e f g h
1 . . . . . . . .
2 . . . . . . . .
3 . . . * . . . .
4 . . * O X . . .
5 . . . X O * . .
6 . . . . * . . .
7 . . . . . . . .
8 . . . . . . . .
Black (X) 2  White (O) 2
Legal moves (*): d3 c4 f5 e6
Black to move
";
    assert_eq!(text, expected);
}

#[test]
fn show_plays_the_moves_given() {
    let text = ok(&["show", "F5", "d6,", "c3"]);
    assert!(text.contains("3 . . X * . * . .\n"), "{text}");
    assert!(text.contains("Black (X) 5  White (O) 2\n"), "{text}");
    assert!(text.contains("Moves: f5d6c3\n"), "{text}");
    assert!(text.contains("Legal moves (*): d3 f3 f4 g5\n"), "{text}");
    assert!(text.ends_with("White to move\n"), "{text}");

    let six = ok(&["show", "--variant", "6x6", "c2"]);
    assert!(six.starts_with("  a b c d e f\n1 . . . . . .\n"), "{six}");
    assert!(six.contains("Black (X) 4  White (O) 1\n"), "{six}");
}

#[test]
fn show_reports_a_forced_pass_and_the_result() {
    let moves = parse_transcript(SHORT_GAME, &Position::initial(BoardSize::Eight)).unwrap();
    let at = moves.iter().position(|m| *m == Move::Pass).unwrap();
    let before = write_transcript(&moves[..at]);
    let text = ok(&["show", &before]);
    assert!(text.contains("has no legal move and must pass\n"), "{text}");
    assert!(!text.contains('*'), "{text}");
    let json = ok(&["show", "--json", &before]);
    assert!(json.contains(r#""status":"must_pass""#), "{json}");
    assert!(json.contains(r#""legal_moves":[]"#), "{json}");

    let text = ok(&["show", SHORT_GAME]);
    assert!(text.contains("Black (X) 2  White (O) 17\n"), "{text}");
    assert!(text.ends_with("Game over: White wins 17–2\n"), "{text}");
}

#[test]
fn show_json_prints_one_object_with_the_facts() {
    let json = ok(&["show", "--json"]);
    assert_eq!(
        json,
        format!(
            "{{\"variant\":\"8x8\",\"board\":\"{START}\",\"moves\":\"\",\"side_to_move\":\"black\",\
             \"black\":2,\"white\":2,\"legal_moves\":[\"d3\",\"c4\",\"f5\",\"e6\"],\
             \"status\":\"to_move\",\"winner\":null,\"result\":null,\"score\":null,\"opening\":null}}\n"
        )
    );
    let json = ok(&["show", "--json", WIPE_OUT]);
    assert_eq!(json.lines().count(), 1);
    for part in [
        r#""status":"game_over""#,
        r#""winner":"black""#,
        r#""black":13,"white":0"#,
        r#""result":"Black wins 13–0""#,
        r#""score":{"black":13,"white":0}"#,
        r#""legal_moves":[]"#,
        r#""moves":"d3c3b3d2e1d6d7e3f4""#,
    ] {
        assert!(json.contains(part), "{part} in {json}");
    }
    let six = ok(&["show", "--json", "--variant", "6x6"]);
    assert!(
        six.contains(r#""variant":"6x6","board":"--------------OX----XO-------------- X""#),
        "{six}"
    );
}

#[test]
fn show_starts_from_a_board_string() {
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let json = ok(&["show", "--json", "--position", ffo1, "g8"]);
    assert!(json.contains(r#""moves":"g8""#), "{json}");
    assert!(json.contains(r#""side_to_move":"white""#), "{json}");
    let six = "--------------OX----XO-------------- X";
    let text = ok(&["show", "--position", six, "--variant", "6x6"]);
    assert!(text.starts_with("  a b c d e f\n"), "{text}");
    assert_eq!(ok(&["show", "--position", START]), ok(&["show"]));
}

#[test]
fn bad_input_exits_with_status_2_and_says_why() {
    let e = bad(&["show", "f5", "h9"]);
    assert_eq!(e, "reversi: move 2: \"h9\" is not a square\n");
    let e = bad(&["show", "f5f5"]);
    assert_eq!(
        e,
        "reversi: move 2: f5 is not legal for White (the square is occupied)\n"
    );
    let e = bad(&["show", "--variant", "6x6", "g1"]);
    assert_eq!(
        e,
        "reversi: move 1: g1 is not legal for Black (not on the 6x6 board)\n"
    );
    let e = bad(&["show", "--position", "----XO----"]);
    assert!(
        e.starts_with("reversi: --position: a board needs 64 squares"),
        "{e}"
    );
    let e = bad(&["show", "--position", &START.replace(" X", " Q")]);
    assert!(e.contains("side to move must be X or O"), "{e}");
    assert!(e.contains("column 66"), "{e}");
    let e = bad(&["show", "--position", START, "--variant", "6x6"]);
    assert_eq!(e, "reversi: --position is for 8x8, but --variant is 6x6\n");
}

#[test]
fn unknown_flags_and_values_are_clap_errors() {
    let e = bad(&["show", "--bogus"]);
    assert!(e.contains("unexpected argument '--bogus'"), "{e}");
    let e = bad(&["show", "--variant", "7x7"]);
    assert!(e.contains("invalid value '7x7'"), "{e}");
    let e = bad(&["perft", "0"]);
    assert!(e.contains("invalid value '0'"), "{e}");
    let e = bad(&["frobnicate"]);
    assert!(e.contains("unrecognized subcommand"), "{e}");
}

#[test]
fn perft_prints_one_line_per_depth() {
    let text = ok(&["perft", "5"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    for (line, (depth, leaves)) in lines
        .iter()
        .zip([(1, 4), (2, 12), (3, 56), (4, 244), (5, 1396)])
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(
            &words[..4],
            &["depth", &depth.to_string(), "leaves", &leaves.to_string()]
        );
        assert!(line.contains("leaves/s"), "{line}");
    }
    assert!(lines[5].starts_with("total"), "{text}");
    assert!(lines[5].split_whitespace().any(|w| w == "1712"), "{text}");

    let six = ok(&["perft", "5", "--variant", "6x6", "--only"]);
    assert_eq!(six.lines().count(), 2, "{six}");
    let words: Vec<&str> = six.split_whitespace().take(4).collect();
    assert_eq!(words, ["depth", "5", "leaves", "1364"], "{six}");
}

#[test]
fn bench_rejects_a_bad_midgame_file_before_running_anything() {
    let dir = std::env::temp_dir().join(format!("reversi-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mid.txt");
    std::fs::write(&file, "# openings\nf5d6\n\nf5d6z9\n").unwrap();
    let err = bad(&["bench", "--midgame", file.to_str().unwrap()]);
    assert!(err.contains("mid.txt:4:"), "{err}");
    std::fs::write(&file, "# nothing\n").unwrap();
    let err = bad(&["bench", "--midgame", file.to_str().unwrap()]);
    assert!(err.contains("no midgame positions"), "{err}");
    let err = bad(&["bench", "--midgame", dir.join("missing").to_str().unwrap()]);
    assert!(err.contains("missing"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every `--json` output is one line of valid JSON with the documented keys
/// (docs/json.md), parsed back with serde_json.
#[test]
fn json_outputs_parse_with_the_documented_keys() {
    let keys = |text: &str| -> Vec<String> {
        assert_eq!(text.lines().count(), 1, "{text}");
        let value: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
        value.as_object().unwrap().keys().cloned().collect()
    };
    let show = ok(&["show", "--json", SHORT_GAME]);
    let mut expected = vec![
        "variant",
        "board",
        "moves",
        "side_to_move",
        "black",
        "white",
        "legal_moves",
        "status",
        "winner",
        "result",
        "score",
        "opening",
    ];
    expected.sort_unstable();
    assert_eq!(keys(&show), expected);
    let analyze = ok(&["analyze", "--json", "--depth", "3", "--moves", "f5d6"]);
    let mut expected = vec![
        "board", "status", "result", "moves", "best", "score", "pv", "depth", "nodes", "time",
    ];
    expected.sort_unstable();
    assert_eq!(keys(&analyze), expected);
}

/// A 6×6 game that ends with empty squares left and a winner, from a fixed
/// series of random playouts.
fn short_six_by_six_game() -> Vec<Move> {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    loop {
        let mut p = Position::initial(BoardSize::Six);
        let mut moves = Vec::new();
        while !p.is_game_over() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let list = p.moves_list();
            let mv = list[(x % list.len() as u64) as usize];
            moves.push(mv);
            p = p.play_unchecked(mv);
        }
        let (b, w) = (p.count(Color::Black), p.count(Color::White));
        if p.empties().count() > 0 && b != w {
            return moves;
        }
    }
}

#[test]
fn show_takes_the_rule_flags_and_the_result_follows_them() {
    // 8×8: White 17, Black 2, 45 empty squares.
    let result = |extra: &[&str]| {
        let mut args = vec!["show", SHORT_GAME];
        args.extend_from_slice(extra);
        let text = ok(&args);
        text.lines().last().unwrap().to_string()
    };
    assert_eq!(result(&[]), "Game over: White wins 17–2");
    assert_eq!(
        result(&["--empties-to-winner"]),
        "Game over: White wins 62–2"
    );
    assert_eq!(result(&["--anti"]), "Game over: Black wins 2–17");
    assert_eq!(
        result(&["--anti", "--empties-to-winner"]),
        "Game over: Black wins 2–62"
    );
    // 6×6: the empties go to the winner unless told otherwise.
    let moves = short_six_by_six_game();
    let transcript = write_transcript(&moves);
    let text = ok(&["show", "--variant", "6x6", &transcript]);
    let nobody = ok(&[
        "show",
        "--variant",
        "6x6",
        &transcript,
        "--empties-to-nobody",
    ]);
    let last = |t: &str| t.lines().last().unwrap().to_string();
    let counts: Vec<u32> = last(&nobody)
        .rsplit(' ')
        .next()
        .unwrap()
        .split('–')
        .map(|n| n.parse().unwrap())
        .collect();
    let total: u32 = last(&text)
        .rsplit(' ')
        .next()
        .unwrap()
        .split('–')
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(total, 36, "{text}");
    assert!(counts.iter().sum::<u32>() < 36, "{nobody}");
    let bad = bad(&["show", "--empties-to-winner", "--empties-to-nobody"]);
    assert_eq!(bad.lines().count(), 1, "{bad}");
}
