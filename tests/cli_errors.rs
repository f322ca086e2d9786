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
    ] {
        let line = error_line(cmd);
        assert!(
            line.contains("invalid value") && line.contains(value) && line.contains("not in"),
            "{cmd:?}: {line}"
        );
    }
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
    let folder = dir.to_str().unwrap();
    let (missing, garbage) = (missing.to_str().unwrap(), garbage.to_str().unwrap());
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
