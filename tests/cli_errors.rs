//! End to end: the real `reversi` binary on bad input and limits. Every error
//! is one line on stderr naming what is wrong (the file, the value), exit
//! status 2, nothing on stdout.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `reversi args` with `stdin` as standard input.
fn run_with_input(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the reversi binary runs");
    // A command may exit before reading its input: a closed pipe is fine.
    let _ = child.stdin.take().expect("piped").write_all(stdin);
    child.wait_with_output().expect("the reversi binary ends")
}

/// Runs a command that must fail with exit status 2 and print its error on
/// the first line of stderr; returns that line.
fn error_line(args: &[&str]) -> String {
    let out = run_with_input(args, b"");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    stderr.lines().next().unwrap_or_default().to_string()
}

#[test]
fn a_hash_beyond_what_the_machine_holds_is_a_range_error_in_every_command() {
    let max = reversi::ai::max_hash_megabytes();
    let beyond = (max + 1).to_string();
    let huge = beyond.as_str();
    for cmd in [
        &["solve", "--hash", huge][..],
        &["analyze", "--hash", huge],
        &["nboard", "--hash", huge],
        &["bench", "--hash", huge],
        &["match", "--hash", huge],
        &["selfplay", "--hash", huge, "--out", "x"],
        &["play", "--hash", huge],
    ] {
        let line = error_line(cmd);
        assert!(
            line.contains("--hash") && line.contains(&format!("must be from 1 to {max} MiB")),
            "{cmd:?}: {line}"
        );
    }
    for bad in ["0", "-5", "99999999999999999999", "lots"] {
        let line = error_line(&["solve", "--hash", bad]);
        assert!(line.contains("--hash"), "{line}");
    }
    // The limit itself is accepted, and the table is made without delay.
    let out = run_with_input(&["solve", "--hash", &max.to_string()], b"");
    assert!(out.status.code() != Some(134), "no abort");
}

#[test]
fn negative_numbers_are_range_errors_not_unknown_flags() {
    for (cmd, value) in [
        (&["perft", "-1"][..], "'-1'"),
        (&["analyze", "--depth", "-3"], "'-3'"),
        (&["solve", "--threads", "-2"], "'-2'"),
        (&["match", "--games", "-4"], "'-4'"),
        (&["selfplay", "--games", "-1", "--out", "x"], "'-1'"),
        (&["server", "--claim-after", "-5"], "'-5'"),
    ] {
        let line = error_line(cmd);
        assert!(
            line.contains("invalid value") && line.contains(value) && line.contains("not in"),
            "{cmd:?}: {line}"
        );
    }
}

#[test]
fn counts_and_game_numbers_start_at_one_and_say_so() {
    for cmd in [
        &["replay", "games.ggf", "--game", "0"][..],
        &["play", "--load", "games.ggf", "--game", "0"],
        &["server", "--max-connections", "0"],
        &["online", "--bot", "greedy", "--games", "0"],
    ] {
        let line = error_line(cmd);
        assert!(
            line.contains("'0'") && line.contains("counting starts at 1"),
            "{cmd:?}: {line}"
        );
    }
    let line = error_line(&["replay", "games.ggf", "--game", "99999999999"]);
    assert!(line.contains("too large"), "{line}");
    let line = error_line(&["replay", "games.ggf", "--game", "two"]);
    assert!(line.contains("not a whole number"), "{line}");
}

/// A fresh folder for one test's files.
fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("reversi-cli-errors-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn every_file_error_names_the_file_and_exits_2() {
    let dir = temp_dir("files");
    let missing = dir.join("missing.obf");
    let garbage = dir.join("garbage.bin");
    std::fs::write(
        &garbage,
        [0x7f, b'E', b'L', b'F', 0xff, 0xfe, 0, 1, 2, b'\n'],
    )
    .unwrap();
    let games = dir.join("games.txt");
    std::fs::write(&games, "f5d6c3\n").unwrap();
    let no_db = dir.join("typo.sqlite");
    let export = dir.join("export.ggf");
    let folder = dir.to_str().unwrap();
    let (missing, garbage) = (missing.to_str().unwrap(), garbage.to_str().unwrap());
    let (games, no_db, export) = (
        games.to_str().unwrap(),
        no_db.to_str().unwrap(),
        export.to_str().unwrap(),
    );
    for (args, path) in [
        (vec!["solve", missing], missing),
        (vec!["solve", folder], folder),
        (vec!["solve", garbage], garbage),
        (vec!["selfplay", "--games", "1", "--out", folder], folder),
        (vec!["selfplay", "--games", "1", "--out", garbage], garbage),
        (vec!["train", "--out", "w.bin", garbage], garbage),
        (
            vec!["match", "--games", "2", "--openings", garbage],
            garbage,
        ),
        (vec!["replay", garbage], garbage),
        (vec!["convert", games, folder], folder),
        (vec!["server", "--db", no_db, "--export", export], no_db),
    ] {
        let line = error_line(&args);
        assert!(
            line.starts_with(&format!("reversi: {path}")) || line.contains(&format!("{path}:")),
            "{args:?}: {line}"
        );
        assert!(
            !line.contains('\u{7f}'),
            "no raw control characters: {line:?}"
        );
    }
    // The mistyped database was not created by the failed export.
    assert!(!std::path::Path::new(no_db).exists());
}

#[test]
fn solve_of_a_file_without_positions_says_so() {
    let dir = temp_dir("empty");
    let empty = dir.join("empty.obf");
    std::fs::write(&empty, "% only a comment\n\n").unwrap();
    let line = error_line(&["solve", empty.to_str().unwrap()]);
    assert_eq!(line, format!("reversi: {}: no positions", empty.display()));
    let line = error_line(&["solve"]);
    assert_eq!(line, "reversi: standard input: no positions");
}

#[test]
fn board_strings_starting_with_an_empty_square_are_values_not_flags() {
    let start = "---------------------------OX------XO--------------------------- X";
    for cmd in [
        &["analyze", "--depth", "2", "--position", start][..],
        &["show", "--position", start],
    ] {
        let out = run_with_input(cmd, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{cmd:?}: {stderr}");
        assert!(!out.stdout.is_empty(), "{cmd:?}");
    }
}

/// A load test that cannot reach its server says so before it starts and
/// fails (status 1), so that a script running it sees the failure.
#[test]
fn a_load_test_that_reaches_no_server_fails() {
    // A loopback port nobody listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    let url = format!("ws://127.0.0.1:{port}");
    let out = run_with_input(
        &["loadtest", &url, "--games", "2", "--concurrency", "1"],
        b"",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.is_empty(), "no games reported: {stdout}");
    // One line, naming the URL once.
    let said = stderr.trim_end();
    assert!(
        said.starts_with(&format!("reversi: cannot connect to {url}: ")),
        "{said}"
    );
    assert_eq!(
        (said.lines().count(), said.matches(&url).count()),
        (1, 1),
        "{said}"
    );
}

/// `solve` checks the scores a file lists: all agreeing is success, a score
/// solved differently is reported as WRONG and fails (status 1).
#[test]
fn solve_fails_when_a_listed_score_is_wrong() {
    let ffo1 = include_str!("data/fforum-1-19.obf")
        .lines()
        .find(|l| l.contains("G8:+18"))
        .expect("FFO #1 is in the file");
    let dir = temp_dir("wrong");
    let right = dir.join("right.obf");
    let wrong = dir.join("wrong.obf");
    std::fs::write(&right, format!("{ffo1}\n")).unwrap();
    std::fs::write(&wrong, format!("{}\n", ffo1.replace("G8:+18", "G8:+20"))).unwrap();
    let out = run_with_input(&["solve", right.to_str().unwrap()], b"");
    assert!(out.status.success(), "{out:?}");
    let out = run_with_input(&["solve", wrong.to_str().unwrap()], b"");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("WRONG"), "{stdout}");
    assert!(stderr.contains("1 of 1 scores differ"), "{stderr}");
}

/// Table settings the server would refuse are refused before connecting.
#[test]
fn online_table_settings_are_checked_before_connecting() {
    for (extra, expected) in [
        (&["--clock", "99999+0"][..], "base time must be 1 s to 3 h"),
        (&["--clock", "0+5"], "base time must be 1 s to 3 h"),
        (&["--clock", "300+90"], "increment at most 60 s"),
        (&["--clock", "five"], "expected BASE+INC"),
        (&["--invite", "x y"], "--invite"),
    ] {
        let mut args = vec![
            "online",
            "ws://127.0.0.1:1",
            "--name",
            "ann",
            "--bot",
            "greedy",
            "--create",
        ];
        args.extend_from_slice(extra);
        let line = error_line(&args);
        assert!(line.contains(expected), "{extra:?}: {line}");
    }
}

#[test]
fn argument_errors_are_one_line_with_status_2() {
    for (cmd, says) in [
        (&["play", "--level", "13"][..], "level 13 does not exist"),
        (&["play", "--level", "abc"], "level abc does not exist"),
        (&["play", "--black", "ai:13"], "level 13 does not exist"),
        (
            &["play", "--colour", "blue"],
            "[possible values: black, white, random]",
        ),
        (
            &["replay", "games.ggf", "--game", "0"],
            "counting starts at 1",
        ),
        (&["replay"], "(usage: reversi replay"),
        (
            &["play", "--no-such-flag"],
            "unexpected argument '--no-such-flag'",
        ),
    ] {
        let out = run_with_input(cmd, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{cmd:?}: {stderr}");
        assert!(
            stderr.starts_with("reversi: ") && stderr.contains(says),
            "{cmd:?}: {stderr}"
        );
    }
    // Help still goes to standard output, whole, with status 0.
    let out = run_with_input(&["play", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).lines().count() > 5);
}

#[test]
fn replay_says_what_it_reads_and_hash_is_in_mib_everywhere() {
    let out = run_with_input(&["--help"], b"");
    let help = String::from_utf8_lossy(&out.stdout);
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("replay"))
        .unwrap();
    for format in ["GGF", "WTHOR", ".gam", "transcripts"] {
        assert!(line.contains(format), "{line}");
    }
    for cmd in [
        "play", "review", "analyze", "solve", "match", "nboard", "bench",
    ] {
        let out = run_with_input(&[cmd, "--help"], b"");
        let help = String::from_utf8_lossy(&out.stdout);
        assert!(help.contains("--hash <MB>"), "{cmd}: {help}");
    }
    // One spelling of the rules: --anti and --empties-to-* wherever a game is set up.
    for cmd in [
        "play", "show", "analyze", "match", "replay", "review", "online",
    ] {
        let out = run_with_input(&[cmd, "--help"], b"");
        let help = String::from_utf8_lossy(&out.stdout);
        for flag in ["--anti", "--empties-to-winner", "--empties-to-nobody"] {
            assert!(help.contains(flag), "{cmd} {flag}");
        }
    }
}
