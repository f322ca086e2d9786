//! `reversi match` through the real binary: built-in levels for a handful of
//! games with the result lines parsed, the GGF output read back, and external
//! engines that play an illegal move, hang or crash, each reported as a loss
//! without a hang. Also the statistics on known results.

use reversi::arena::{GameResult, summarize};
use reversi::notation::ggf::{MoveNote, parse_ggf};
use reversi::rules::{Color, Game, Move, Rules};
use std::process::Command;
use std::time::Instant;

fn reversi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("run reversi");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn engine(name: &str) -> String {
    format!("sh {}/tests/engines/{name}.sh", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for one test's files (`reversi-NAME-PID` under the
/// system's temporary folder).
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `match` between two depth-1 searches: `games` games and the `extra` flags.
fn depth1_match(games: &str, extra: &[&str]) -> (bool, String, String) {
    let mut args = vec![
        "match", "--a", "depth:1", "--b", "depth:1", "--games", games,
    ];
    args.extend_from_slice(extra);
    reversi(&args)
}

/// (wins, draws, losses) from the `result:` line.
fn wdl(stdout: &str) -> (usize, usize, usize) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("result:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    let nums: Vec<usize> = line
        .split_whitespace()
        .filter_map(|t| t.trim_start_matches(['+', '=', '-']).parse().ok())
        .collect();
    (nums[0], nums[1], nums[2])
}

#[test]
fn built_in_levels_play_a_short_match() {
    let dir = scratch_dir("match");
    let ggf = dir.join("games.ggf");
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        "depth:2",
        "--b",
        "level:1",
        "--games",
        "4",
        "--threads",
        "2",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 4, "{out}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{out}"
    );
    assert!(out.contains("Elo difference A − B:"), "{out}");
    assert!(out.contains("mean disc margin for A:"), "{out}");
    let games = parse_ggf(&std::fs::read_to_string(&ggf).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        let last = g.game.position_at(g.game.len()).unwrap();
        assert!(last.is_game_over());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_illegal_move_loses_the_game() {
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        "depth:1",
        "--b-cmd",
        &engine("illegal"),
        "--games",
        "2",
    ]);
    assert!(ok, "{out}{err}");
    assert_eq!(wdl(&out), (2, 0, 0), "{out}");
    assert_eq!(out.matches("B forfeits: illegal move").count(), 2, "{out}");
}

#[test]
fn a_hanging_engine_loses_on_time_without_hanging_the_match() {
    let t = Instant::now();
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        "depth:1",
        "--b-cmd",
        &engine("hang"),
        "--games",
        "2",
        "--timeout",
        "0.5",
    ]);
    assert!(ok, "{out}{err}");
    assert_eq!(wdl(&out), (2, 0, 0), "{out}");
    assert_eq!(
        out.matches("B forfeits: no answer in time").count(),
        2,
        "{out}"
    );
    assert!(t.elapsed().as_secs() < 60, "the match must not hang");
}

#[test]
fn a_crashing_engine_loses() {
    let (ok, out, err) = reversi(&[
        "match",
        "--a-cmd",
        &engine("crash"),
        "--b",
        "depth:1",
        "--games",
        "2",
    ]);
    assert!(ok, "{out}{err}");
    assert_eq!(wdl(&out), (0, 0, 2), "{out}");
    assert_eq!(
        out.matches("A forfeits: the engine exited").count(),
        2,
        "{out}"
    );
}

/// The game lines of a match's output.
fn game_lines(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("game")).collect()
}

#[test]
fn reference_players_are_seeded_and_reproducible() {
    let run = |seed: &str| {
        let (ok, out, err) = reversi(&[
            "match", "--a", "greedy", "--b", "random", "--games", "10", "--seed", seed,
        ]);
        assert!(ok, "{out}{err}");
        out
    };
    let (first, again, other) = (run("5"), run("5"), run("6"));
    assert!(first.contains("A = greedy, B = random"), "{first}");
    let (w, d, l) = wdl(&first);
    assert_eq!(w + d + l, 10, "{first}");
    assert_eq!(game_lines(&first).len(), 10);
    // Same seed, same games (in game order: sort the lines, which finish in any order).
    let sorted = |s: &str| {
        let mut v = game_lines(s)
            .into_iter()
            .map(|l| l.split_once("opening").map_or(l, |x| x.1).to_string())
            .collect::<Vec<_>>();
        v.sort();
        v
    };
    assert_eq!(sorted(&first), sorted(&again));
    assert_ne!(sorted(&first), sorted(&other));
    assert!(first.contains("time per move for A"), "{first}");
}

#[test]
fn bad_player_specifications_are_refused() {
    let (ok, _, err) = reversi(&["match", "--a", "level:13"]);
    assert!(!ok);
    assert!(err.contains("level 13 does not exist"), "{err}");
    for (spec, what) in [
        ("greed", "expected random, greedy"),
        ("depth:2,temp:x", "not a temperature"),
        ("depth:2,eval:corners", "eval:corners"),
        ("depth:2,sel:9", "sel:9"),
    ] {
        let (ok, _, err) = reversi(&["match", "--a", spec]);
        assert!(!ok, "{spec}");
        assert!(err.contains(what), "{spec}: {err}");
    }
    let (ok, _, err) = reversi(&["match", "--a", "depth:2", "--a-cmd", "x"]);
    assert!(!ok);
    assert!(err.contains("cannot be used with"), "{err}");
}

fn result(a_margin: i32) -> GameResult {
    GameResult {
        opening: 0,
        a_is_black: true,
        game: Game::new(Rules::default()),
        a_margin,
        forfeit: None,
        times: Default::default(),
        notes: Vec::new(),
    }
}

#[test]
fn statistics_of_known_results() {
    let even: Vec<GameResult> = [10, -10, 0, 0].into_iter().map(result).collect();
    let s = summarize(&even);
    assert_eq!((s.wins, s.draws, s.losses), (1, 2, 1));
    assert!(s.elo.abs() < 1e-9 && s.mean_margin.abs() < 1e-9);
    // Three wins in four (75%) is +191 Elo.
    let s = summarize(&[2, 4, 6, -2].into_iter().map(result).collect::<Vec<_>>());
    assert!((s.elo - 190.85).abs() < 0.1, "{}", s.elo);
    assert!((s.mean_margin - 2.5).abs() < 1e-9);
    assert!(s.elo_error > 0.0 && s.margin_ci > 0.0);
    assert_eq!(s.elo_text(), "+191 ± 260");
    // A difference that rounds to zero has no minus sign.
    let s = summarize(
        &[1, -1, 0, 0, 0, 0]
            .into_iter()
            .map(result)
            .collect::<Vec<_>>(),
    );
    let near_zero = reversi::arena::Summary { elo: -0.4, ..s };
    assert!(
        near_zero.elo_text().starts_with("+0 ± "),
        "{}",
        near_zero.elo_text()
    );
}

#[test]
fn a_missing_output_folder_or_engine_is_refused_before_the_match() {
    let dir = std::env::temp_dir().join(format!("reversi-match-missing-{}", std::process::id()));
    let ggf = dir.join("sub").join("x.ggf");
    let (ok, out, err) = reversi(&["match", "--games", "2", "--ggf", ggf.to_str().unwrap()]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.contains("does not exist") && err.contains("x.ggf"),
        "{err}"
    );
    assert!(!dir.exists(), "the folder is not created");
    let (ok, out, err) = reversi(&["match", "--games", "2", "--a-cmd", "/nonexistent/engine"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.starts_with("reversi: --a-cmd: the engine \"/nonexistent/engine\" does not work"),
        "{err}"
    );
}

/// A match file without the times of its moves (`B[d3/1.25/0.01]` becomes
/// `B[d3/1.25]`): the only part of a seeded match that does not replay.
fn without_times(ggf: &str) -> String {
    let mut out = String::new();
    let mut rest = ggf;
    while let Some(open) = rest.find('[') {
        let close = open + rest[open..].find(']').expect("a closed value");
        let value = &rest[open + 1..close];
        out.push_str(&rest[..=open]);
        match value.match_indices('/').nth(1) {
            Some((second, _)) => out.push_str(&value[..second]),
            None => out.push_str(value),
        }
        out.push(']');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

/// A `--seed` match writes the same games whatever the threads, and the
/// same text as the committed file of this seed but for the times:
/// openings, reference players, the level's randomness and its evaluations
/// all replay. Every move after the opening carries its time, and the
/// level's moves their evaluation.
#[test]
fn seeded_matches_replay_move_for_move_on_any_number_of_threads() {
    let dir = scratch_dir("match-replay");
    let expected = include_str!("data/match-seed9.ggf");
    for threads in ["1", "3"] {
        let ggf = dir.join(format!("games-{threads}.ggf"));
        let (ok, out, err) = reversi(&[
            "match",
            "--a",
            "greedy",
            "--b",
            "level:1",
            "--games",
            "6",
            "--seed",
            "9",
            "--threads",
            threads,
            "--ggf",
            ggf.to_str().unwrap(),
        ]);
        assert!(ok, "{out}{err}");
        let text = std::fs::read_to_string(&ggf).unwrap();
        assert_eq!(without_times(&text), expected, "{threads} threads");
        for record in parse_ggf(&text).unwrap() {
            let level_is_black = record.black == "level:1";
            for (i, note) in record.notes.iter().enumerate().skip(8) {
                let mv = record.game.moves()[i];
                let mover_black =
                    record.game.position_at(i).unwrap().side_to_move() == Color::Black;
                assert!(note.time.is_some_and(|t| t >= 0.0), "ply {i}: {note:?}");
                let level_moved = mover_black == level_is_black;
                assert_eq!(
                    note.eval.is_some(),
                    level_moved && mv != Move::Pass,
                    "ply {i}: {note:?}"
                );
            }
            assert!(record.notes[..8].iter().all(|n| *n == MoveNote::default()));
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// An external engine's evaluations (`=== move/eval/time`) reach the saved
/// games, on its own moves only, and every move after the opening has a time.
#[test]
fn external_evaluations_and_times_are_saved_with_the_moves() {
    let dir = scratch_dir("match-notes");
    let ggf = dir.join("games.ggf");
    let cmd = format!(
        "{{ IFS= read -r l; printf '%s\\nset depth 2\\n' \"$l\"; exec cat; }} | '{}' nboard",
        env!("CARGO_BIN_EXE_reversi")
    );
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        "greedy",
        "--b-cmd",
        &cmd,
        "--games",
        "2",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    let games = parse_ggf(&std::fs::read_to_string(&ggf).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for record in &games {
        let engine_is_black = record.black != "greedy";
        let mut evals = 0;
        for (i, note) in record.notes.iter().enumerate().skip(8) {
            let mv = record.game.moves()[i];
            let mover_black = record.game.position_at(i).unwrap().side_to_move() == Color::Black;
            assert!(note.time.is_some(), "ply {i}: {note:?}");
            if mover_black != engine_is_black || mv == Move::Pass {
                assert_eq!(note.eval, None, "ply {i}");
            } else {
                assert!(
                    note.eval.is_some_and(|e| e.abs() <= 64.0),
                    "ply {i}: {note:?}"
                );
                evals += 1;
            }
        }
        assert!(evals > 0, "no evaluation saved");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `reversi openings` writes nearly even openings that `match --openings`
/// plays; each line is a legal transcript of the asked length, and the
/// file is the same on one or two threads. A judge that does not search,
/// and a bound that is not a disc count, are refused.
#[test]
fn balanced_openings_are_written_and_played() {
    let dir = scratch_dir("openings");
    let write = |name: &str, threads: &str| {
        let path = dir.join(name);
        let r = reversi(&[
            "openings",
            "--out",
            path.to_str().unwrap(),
            "--count",
            "4",
            "--plies",
            "6",
            "--within",
            "3",
            "--judge",
            "depth:4",
            "--threads",
            threads,
        ]);
        (r, path)
    };
    let ((ok, out, err), one) = write("one.txt", "1");
    assert!(ok, "{err}");
    assert!(out.contains("4 openings written"), "{out}");
    let ((ok, _, err), two) = write("two.txt", "2");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&one).unwrap();
    assert_eq!(std::fs::read_to_string(&two).unwrap(), text);
    let openings: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(openings.len(), 4);
    for o in &openings {
        let moves = reversi::notation::parse_transcript(
            o,
            &reversi::rules::Position::initial(reversi::rules::BoardSize::Eight),
        )
        .unwrap_or_else(|e| panic!("{o}: {e}"));
        assert_eq!(moves.len(), 6, "{o}");
    }
    let (ok, out, err) = depth1_match("8", &["--openings", one.to_str().unwrap()]);
    assert!(ok, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 8);
    for (args, needle) in [
        (vec!["--judge", "greedy"], "must be a search"),
        (vec!["--judge", "depth:x"], "--judge"),
        (vec!["--within", "-1"], "--within"),
    ] {
        let mut all = vec!["openings", "--out", one.to_str().unwrap()];
        all.extend(args);
        let (ok, _, err) = reversi(&all);
        assert!(!ok && err.contains(needle), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Two runs of `match` against the same opponent over the same openings,
/// compared game by game by `reversi compare`: the difference is the sum of
/// the per-game differences (read back from the GGF files here), a run
/// against itself differs by nothing, and runs of other openings are refused.
#[test]
fn compare_pairs_two_runs_game_by_game() {
    let dir = scratch_dir("compare");
    let run = |a: &str, seed: &str, name: &str| {
        let path = dir.join(name);
        let (ok, out, err) = reversi(&[
            "match",
            "--a",
            a,
            "--b",
            "level:2",
            "--games",
            "8",
            "--seed",
            seed,
            "--ggf",
            path.to_str().unwrap(),
        ]);
        assert!(ok, "{out}{err}");
        path
    };
    let one = run("depth:1", "4", "one.ggf");
    let two = run("depth:3", "4", "two.ggf");
    let other = run("depth:3", "5", "other.ggf");
    let (ok, out, err) = reversi(&["compare", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("8 games against level:2"), "{out}");
    let points = |path: &std::path::Path, tested: &str| -> Vec<f64> {
        parse_ggf(&std::fs::read_to_string(path).unwrap())
            .unwrap()
            .iter()
            .map(|r| {
                let m = r.result.unwrap().black_margin();
                let m = if r.black == tested { m } else { -m };
                f64::from(m.signum() + 1) / 2.0
            })
            .collect()
    };
    let (p1, p2) = (points(&one, "depth:1"), points(&two, "depth:3"));
    let total: f64 = p1.iter().zip(&p2).map(|(a, b)| a - b).sum();
    let differ = p1.iter().zip(&p2).filter(|(a, b)| a != b).count();
    assert!(
        out.contains(&format!("game by game: {total:+.1} ±")),
        "{out}"
    );
    assert!(out.contains(&format!(", {differ} result")), "{out}");
    let (ok, out, err) = reversi(&[
        "compare",
        two.to_str().unwrap(),
        two.to_str().unwrap(),
        "--opponent",
        "level:2",
    ]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("game by game: +0.0 ± 0.0 points (95 %), 0 results differ"),
        "{out}"
    );
    let (ok, _, err) = reversi(&["compare", two.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(
        !ok && err.contains("name the opponent (--opponent)"),
        "{err}"
    );
    let (ok, _, err) = reversi(&["compare", one.to_str().unwrap(), other.to_str().unwrap()]);
    assert!(
        !ok && err.contains("starts from different openings"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// `match --openings` with several files plays them as one list in the
/// order given: each opening of the first file, then each of the second,
/// every one with both colours; a missing file among them is refused.
#[test]
fn several_openings_files_are_played_in_order() {
    let dir = scratch_dir("openings-list");
    let first = dir.join("first.txt");
    let second = dir.join("second.txt");
    std::fs::write(&first, "# two openings\nf5d6c3\nf5f6e6\n").unwrap();
    std::fs::write(&second, "d3c3c4\n").unwrap();
    let ggf = dir.join("games.ggf");
    let (ok, out, err) = depth1_match(
        "6",
        &[
            "--openings",
            first.to_str().unwrap(),
            second.to_str().unwrap(),
            "--ggf",
            ggf.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    let (w, d, l) = wdl(&out);
    assert_eq!(w + d + l, 6);
    let games = std::fs::read_to_string(&ggf).unwrap();
    // The first three moves of each saved game, in the order played.
    let starts: Vec<String> = reversi::notation::ggf::parse_ggf(&games)
        .unwrap_or_else(|e| panic!("{e}: {games}"))
        .iter()
        .map(|r| {
            r.game
                .moves()
                .iter()
                .take(3)
                .map(ToString::to_string)
                .collect()
        })
        .collect();
    let expected = ["f5d6c3", "f5d6c3", "f5f6e6", "f5f6e6", "d3c3c4", "d3c3c4"];
    let got: Vec<&str> = starts.iter().map(String::as_str).collect();
    assert_eq!(got, expected, "{games}");
    let missing = dir.join("missing.txt");
    let (ok, _, err) = depth1_match(
        "2",
        &[
            "--openings",
            first.to_str().unwrap(),
            missing.to_str().unwrap(),
        ],
    );
    assert!(!ok && err.contains("missing.txt"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The openings files of docs/engine.md's figures (`data/openings/`): each
/// parses with the reader `match --openings` uses, holds as many distinct
/// 8-ply openings as its header says were kept, and none of them ends the
/// game. The held-out sets (`bal16e.txt` to `bal16l.txt`) are among them.
#[test]
fn the_committed_openings_files_are_whole() {
    use reversi::notation::parse_transcript_lines;
    use reversi::rules::{BoardSize, Position};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("data/openings")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    names.sort();
    for held_out in [
        "bal16e", "bal16f", "bal16g", "bal16h", "bal16i", "bal16j", "bal16k", "bal16l",
    ] {
        let path = dir.join(format!("{held_out}.txt"));
        assert!(names.contains(&path), "{held_out} missing");
    }
    for path in &names {
        let text = std::fs::read_to_string(path).expect("read");
        let header = text.lines().next().expect("a header line");
        let kept: usize = header
            .split("; ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}: no count in {header:?}", path.display()));
        let games = parse_transcript_lines(&text, BoardSize::Eight)
            .unwrap_or_else(|e| panic!("{}:{}: {}", path.display(), e.line, e.error));
        assert_eq!(games.len(), kept, "{}", path.display());
        let mut seen = std::collections::HashSet::new();
        for (line, moves) in &games {
            assert_eq!(moves.len(), 8, "{}:{line}", path.display());
            assert!(
                seen.insert(moves.clone()),
                "{}:{line}: twice",
                path.display()
            );
            let mut p = Position::initial(BoardSize::Eight);
            for &m in moves {
                p = p.play(m).expect("parsed moves are legal");
            }
            assert!(
                !p.is_game_over(),
                "{}:{line}: the game is over",
                path.display()
            );
        }
    }
}

/// Games of one opening differ where the players have a choice: from the
/// standard start (`--plies 0`), each game has its own draws.
#[test]
fn games_from_one_opening_draw_their_own_moves() {
    let dir = scratch_dir("match-one-opening");
    let ggf = dir.join("games.ggf");
    let (ok, out, err) = reversi(&[
        "match",
        "--a",
        "random",
        "--b",
        "random",
        "--plies",
        "0",
        "--games",
        "6",
        "--ggf",
        ggf.to_str().unwrap(),
    ]);
    assert!(ok, "{out}{err}");
    let records = parse_ggf(&std::fs::read_to_string(&ggf).unwrap()).unwrap();
    let lines: std::collections::HashSet<String> = records
        .iter()
        .map(|r| reversi::notation::write_transcript(r.game.moves()))
        .collect();
    assert_eq!(records.len(), 6);
    assert_eq!(lines.len(), 6, "every game its own: {lines:?}");
    let _ = std::fs::remove_dir_all(dir);
}
