//! Games on disk and the terminal check, end to end: the real binary without a
//! terminal (a clear message, status 2, nothing on stdout), bad game files, and
//! crash safety of atomic saves under SIGKILL.

use reversi::notation::ggf::{Record, parse_ggf, write_ggf};
use reversi::notation::parse_transcript;
use reversi::rules::{BoardSize, Game, Position, Rules};
use reversi::storage::atomic_write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn reversi(args: &[&str], data: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .env("REVERSI_DATA_DIR", data)
        .env("REVERSI_CONFIG_DIR", data)
        .stdin(Stdio::null())
        .output()
        .expect("the reversi binary runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("reversi-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fails_with(args: &[&str], data: &Path, text: &str) {
    let out = reversi(args, data);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert!(stderr.contains(text), "{args:?}: {stderr}");
}

#[test]
fn without_a_terminal_the_ui_commands_say_so_and_write_nothing_to_stdout() {
    let d = temp_dir("notty");
    for args in [
        &[][..],
        &["play"][..],
        &["play", "--black", "human", "--white", "human"][..],
        &["replay", "--moves", "f5d6"][..],
    ] {
        fails_with(args, &d, "the game needs a terminal");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_game_files_are_clear_errors() {
    let d = temp_dir("bad");
    let game = Game::with_moves(
        Rules::standard(BoardSize::Eight),
        Position::initial(BoardSize::Eight),
        &parse_transcript("f5d6c3", &Position::initial(BoardSize::Eight)).unwrap(),
    )
    .unwrap();
    let good = write_ggf(&Record::new(game));
    let two = d.join("two.ggf");
    std::fs::write(&two, format!("{good}\n{good}\n")).unwrap();
    let cut = d.join("cut.ggf");
    std::fs::write(&cut, &good[..good.len() - 9]).unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_string();
    fails_with(&["replay", &path(&cut)], &d, "line 1, column");
    fails_with(
        &["play", "--load", &path(&cut)],
        &d,
        "not a readable game record",
    );
    fails_with(
        &["replay", &path(&d.join("missing.ggf"))],
        &d,
        "cannot read",
    );
    fails_with(&["replay", &path(&two), "--game", "3"], &d, "holds 2 games");
    fails_with(
        &["replay", &path(&two), "--game", "2"],
        &d,
        "needs a terminal",
    );
    fails_with(&["play", "--resume"], &d, "no unfinished game to resume");
    std::fs::write(d.join("autosave.ggf"), "(;GM[Othello]B[z9").unwrap();
    fails_with(&["play", "--resume"], &d, "moved to");
    assert!(
        !d.join("autosave.ggf").exists(),
        "the corrupt autosave is moved aside"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The content of save number `generation`: many games, all marked with it.
fn generation_text(generation: u64) -> String {
    let start = Position::initial(BoardSize::Eight);
    let moves = parse_transcript("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7", &start).unwrap();
    let mut r =
        Record::new(Game::with_moves(Rules::standard(BoardSize::Eight), start, &moves).unwrap());
    r.place = format!("generation {generation}");
    let line = write_ggf(&r);
    let copies = 1500 + (generation % 7) as usize * 100;
    let mut text = String::with_capacity(copies * (line.len() + 1));
    for _ in 0..copies {
        text.push_str(&line);
        text.push('\n');
    }
    text
}

/// Whole and one generation throughout: returns the generation.
fn check_whole(text: &str) -> u64 {
    let records = parse_ggf(text).expect("the saved file parses");
    let place = &records[0].place;
    let generation: u64 = place.strip_prefix("generation ").unwrap().parse().unwrap();
    assert!(
        records.iter().all(|r| &r.place == place),
        "a mix of two saves"
    );
    assert_eq!(
        text,
        generation_text(generation),
        "exactly one save's bytes"
    );
    generation
}

const CHILD: &str = "REVERSI_CRASH_CHILD";

#[test]
fn a_kill_mid_save_leaves_the_old_or_the_new_file_whole() {
    if let Ok(dir) = std::env::var(CHILD) {
        // The child: save new generations as fast as it can until killed.
        let path = Path::new(&dir).join("game.ggf");
        for generation in 1.. {
            atomic_write(&path, generation_text(generation).as_bytes()).unwrap();
        }
        return;
    }
    let d = temp_dir("crash");
    let path = d.join("game.ggf");
    let mut rng = reversi::random::seeded(u64::from(std::process::id()));
    let mut checked = 0;
    for round in 0..8 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_kill_mid_save_leaves_the_old_or_the_new_file_whole",
                "--test-threads=1",
            ])
            .env(CHILD, &d)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(
            30 + reversi::random::below(&mut rng, 150) as u64,
        ));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        if let Ok(text) = std::fs::read_to_string(&path) {
            let generation = check_whole(&text);
            assert!(generation >= 1, "round {round}");
            checked += 1;
        }
    }
    assert!(checked > 0, "some saves completed before a kill");
    let _ = std::fs::remove_dir_all(&d);
}
