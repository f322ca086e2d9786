//! The opening book end to end: `reversi book build` on a collection made
//! here, checked against slow references (which positions belong, the values
//! by negamax, the leaves), resumed from its work file, extended, shown; and
//! the engine playing from it.

use reversi::ai::book::{Book, EXACT_DEPTH, NO_LEAF, Source};
use reversi::ai::{Engine, Limits};
use reversi::rules::{BoardSize, Move, Position, Rules, Symmetry};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn reversi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("the reversi binary runs")
}

fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-book-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// 300 games as transcripts: the first moves from a few lines (so that
/// positions repeat, in all eight orientations), then random to the end.
fn games() -> Vec<Vec<Move>> {
    let mut rng = reversi::random::seeded(7);
    let mut out = Vec::new();
    for _ in 0..300 {
        let mut p = Position::initial(BoardSize::Eight);
        let mut moves = Vec::new();
        let mut ply = 0;
        while !p.is_game_over() {
            let list = p.moves_list();
            // Narrow choices early: the first legal move most of the time.
            let mv = if ply < 6 && reversi::random::below(&mut rng, 3) > 0 {
                list[0]
            } else {
                *reversi::random::pick(&mut rng, &list).expect("a move")
            };
            moves.push(mv);
            p = p.play_unchecked(mv);
            ply += 1;
        }
        out.push(moves);
    }
    out
}

fn write_games(dir: &Path, games: &[Vec<Move>]) -> PathBuf {
    let path = dir.join("games.txt");
    let text: String = games
        .iter()
        .map(|g| reversi::notation::write_transcript(g) + "\n")
        .collect();
    std::fs::write(&path, text).expect("write the games");
    path
}

/// The side-relative pair of a position's eight images (the slow way to
/// compare positions under the symmetries).
fn images(p: &Position) -> Vec<(u64, u64)> {
    Symmetry::ALL
        .iter()
        .map(|s| {
            (
                s.bits(p.player(), BoardSize::Eight),
                s.bits(p.opponent(), BoardSize::Eight),
            )
        })
        .collect()
}

fn position(player: u64, opponent: u64) -> Position {
    Position::from_side_relative(
        player,
        opponent,
        reversi::rules::Color::Black,
        BoardSize::Eight,
    )
}

/// The book entry equal to `p` under some symmetry, found by a linear scan.
fn slow_entry<'a>(book: &'a Book, p: &Position) -> Option<&'a reversi::ai::book::Entry> {
    let imgs = images(p);
    book.entries()
        .iter()
        .find(|e| imgs.contains(&(e.key.player, e.key.opponent)))
}

fn after_passes(p: Position) -> Position {
    if !p.has_legal_move() && !p.is_game_over() {
        p.play_unchecked(Move::Pass)
    } else {
        p
    }
}

const PLIES: usize = 8;
const MIN_GAMES: u32 = 5;

fn build(dir: &Path, games: &Path) -> (Book, String) {
    let out = dir.join("book.rvb");
    let run = reversi(&[
        "book",
        "build",
        games.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
        "--min-games",
        &MIN_GAMES.to_string(),
        "--plies",
        &PLIES.to_string(),
        "--depth",
        "3",
        "--threads",
        "2",
        "--hash",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{stderr}");
    assert!(!dir.join("book.rvb.part").exists(), "the work file is gone");
    let bytes = std::fs::read(&out).expect("the book");
    (Book::from_bytes(&bytes).expect("a valid book"), stderr)
}

#[test]
fn a_built_book_holds_the_positions_the_games_reach_with_negamax_values() {
    let dir = folder("build");
    let games = games();
    let path = write_games(&dir, &games);
    let (book, stderr) = build(&dir, &path);
    assert!(
        stderr.contains("positions reached by at least 5 games"),
        "{stderr}"
    );

    // Which positions: those at least MIN_GAMES games reach within PLIES
    // moves, counted the slow way (a representative image per class).
    let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
    for g in &games {
        let mut p = Position::initial(BoardSize::Eight);
        for &m in g.iter().take(PLIES) {
            let rep = *images(&p).iter().min().expect("eight images");
            *counts.entry(rep).or_insert(0) += 1;
            p = p.play_unchecked(m);
        }
    }
    let expected: Vec<(u64, u64)> = {
        let mut v: Vec<(u64, u64)> = counts
            .iter()
            .filter(|&(_, &n)| n >= MIN_GAMES)
            .map(|(&k, _)| k)
            .collect();
        v.sort();
        v
    };
    let mut have: Vec<(u64, u64)> = book
        .entries()
        .iter()
        .map(|e| {
            *images(&position(e.key.player, e.key.opponent))
                .iter()
                .min()
                .expect("images")
        })
        .collect();
    have.sort();
    assert_eq!(have, expected);
    assert!(book.len() > 10, "{} positions", book.len());

    for e in book.entries() {
        let p = position(e.key.player, e.key.opponent);
        let rep = *images(&p).iter().min().expect("images");
        assert_eq!(e.games, counts[&rep], "game counts");
        // The leaf: a legal move that does not lead into the book.
        let mut best: Option<i32> = None;
        if let Some(sq) = e.leaf_move {
            let sq = reversi::rules::Square::new(sq).expect("a square");
            assert!(p.is_legal(Move::Place(sq)), "the leaf is legal");
            let child = after_passes(p.play_unchecked(Move::Place(sq)));
            assert!(
                slow_entry(&book, &child).is_none(),
                "the leaf leaves the book"
            );
            assert_ne!(e.leaf_value, NO_LEAF);
            assert!(e.leaf_depth == 3 || e.leaf_depth == EXACT_DEPTH);
            best = Some(i32::from(e.leaf_value));
        }
        // Negamax: the best of the leaf and of every move into the book.
        for sq in p.legal_moves().iter() {
            let child = p.play_unchecked(Move::Place(sq));
            if let Some(c) = slow_entry(&book, &after_passes(child)) {
                let v = if child.has_legal_move() {
                    -i32::from(c.value)
                } else {
                    i32::from(c.value)
                };
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        assert_eq!(Some(i32::from(e.value)), best, "negamax at {:?}", e.key);
        // Every image of the position finds the entry.
        for s in Symmetry::ALL {
            assert_eq!(book.entry(&s.position(&p)).map(|x| x.key), Some(e.key));
        }
    }

    // `book show` and `book stats` read it.
    let out = dir.join("book.rvb");
    let first = reversi::notation::write_transcript(&games[0][..2]);
    let shown = reversi(&[
        "book",
        "show",
        &first,
        "--book",
        out.to_str().expect("path"),
    ]);
    let text = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.status.success() && text.contains("in the book: value"),
        "{text}"
    );
    let stats = reversi(&["book", "stats", "--book", out.to_str().expect("path")]);
    let text = String::from_utf8_lossy(&stats.stdout);
    assert!(
        text.starts_with(&format!("{} positions", book.len())),
        "{text}"
    );

    // Extend: up to 3 positions more, the same invariant of membership for
    // the old ones, values still by negamax (checked through `moves`).
    let extended = dir.join("wider.rvb");
    let run = reversi(&[
        "book",
        "extend",
        out.to_str().expect("path"),
        "--out",
        extended.to_str().expect("path"),
        "--widen",
        "3",
        "--margin",
        "64",
        "--depth",
        "3",
        "--hash",
        "1",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let wider = Book::from_bytes(&std::fs::read(&extended).expect("book")).expect("valid");
    assert_eq!(wider.len(), book.len() + 3);
    for e in book.entries() {
        assert!(wider.get(e.key).is_some());
    }
    for e in wider.entries() {
        let p = position(e.key.player, e.key.opponent);
        let moves = wider.moves(&p);
        let best = moves.first().map(|m| m.value);
        assert_eq!(best, Some(i32::from(e.value)), "negamax after extend");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A stopped build resumes from its work file: what the file says of a
/// position is taken as done (here a made-up "no leaf" for the start, which
/// a search would never give), and a damaged file is refused.
#[test]
fn a_build_resumes_from_its_work_file() {
    let dir = folder("resume");
    let path = write_games(&dir, &games());
    let (book, stderr) = build(&dir, &path);
    let n: usize = stderr
        .split(" positions reached")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|s| s.parse().ok())
        .expect("the count of positions");
    assert_eq!(n, book.len());
    let start = Position::initial(BoardSize::Eight);
    let root = book.entry(&start).expect("the start is in the book").key;
    let header =
        format!("reversi book build v1 depth 3 min-games {MIN_GAMES} plies {PLIES} positions {n}");
    let part = dir.join("book.rvb.part");
    std::fs::write(
        &part,
        format!("{header}\n{:016x} {:016x} -\n", root.player, root.opponent),
    )
    .expect("the work file");
    let (resumed, stderr) = build(&dir, &path);
    assert!(
        stderr.contains(&format!("1 of {n} searches already done")),
        "{stderr}"
    );
    let e = resumed.get(root).expect("the start");
    assert_eq!((e.leaf_move, e.leaf_value), (None, NO_LEAF));
    // Everything else as built from scratch.
    for (a, b) in book.entries().iter().zip(resumed.entries()) {
        if a.key != root {
            assert_eq!((a.leaf_move, a.leaf_value), (b.leaf_move, b.leaf_value));
        }
    }
    // A line that is not a leaf.
    std::fs::write(&part, format!("{header}\nnonsense\n")).expect("the work file");
    let run = reversi(&[
        "book",
        "build",
        path.to_str().expect("path"),
        "--out",
        dir.join("book.rvb").to_str().expect("path"),
        "--min-games",
        "5",
        "--plies",
        "8",
        "--depth",
        "3",
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert!(err.contains("book.rvb.part:2: not a valid line"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The engine plays from the book: with no margin its best move, with a
/// margin a move drawn among those within it (all of them over enough
/// seeds), never a worse one; the same seed, the same move.
#[test]
fn the_engine_plays_book_moves_within_the_margin() {
    let dir = folder("play");
    let path = write_games(&dir, &games());
    let (book, _) = build(&dir, &path);
    let book = Arc::new(book);
    let start = Position::initial(BoardSize::Eight);
    let rules = Rules::standard(BoardSize::Eight);
    let mut engine = Engine::new(1);
    engine.set_book(Some(Arc::clone(&book)));
    let stop = AtomicBool::new(false);
    // A position with several book moves.
    let mut p = start;
    let mut known = book.moves(&p);
    for _ in 0..6 {
        if known.len() >= 2 {
            break;
        }
        p = after_passes(p.play_unchecked(known[0].mv));
        known = book.moves(&p);
    }
    assert!(known.len() >= 2, "a position with two book moves");
    let best = known[0];
    let exact = Limits {
        book: Some(0),
        ..Limits::depth(2)
    };
    let r = engine.search(&p, &rules, &exact, &stop, 1, &mut |_| {});
    assert!(r.book && r.nodes == 0);
    assert!(
        known
            .iter()
            .any(|k| k.mv == r.best_move && k.value == best.value)
    );
    let margin = (best.value - known[1].value).unsigned_abs() as u16;
    let loose = Limits {
        book: Some(margin),
        ..Limits::depth(2)
    };
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40 {
        let r = engine.search(&p, &rules, &loose, &stop, seed, &mut |_| {});
        let k = known
            .iter()
            .find(|k| k.mv == r.best_move)
            .expect("a book move");
        assert!(k.value >= best.value - i32::from(margin));
        seen.insert(r.best_move);
        let again = engine.search(&p, &rules, &loose, &stop, seed, &mut |_| {});
        assert_eq!(again.best_move, r.best_move, "the seed repeats the choice");
    }
    let within = known
        .iter()
        .filter(|k| k.value >= best.value - i32::from(margin))
        .count();
    assert_eq!(seen.len(), within);
    // Without the book in the limits, a search.
    let r = engine.search(&p, &rules, &Limits::depth(2), &stop, 1, &mut |_| {});
    assert!(!r.book && r.nodes > 0);
    // The analysis marks the book's moves and gives their values.
    let evals = engine.analyze(&p, &rules, &exact, &stop, &mut |_| {});
    for k in &known {
        let e = evals
            .iter()
            .find(|e| e.mv == k.mv)
            .expect("every move scored");
        assert!(e.book);
        assert_eq!(e.score, reversi::ai::Score::Estimate(k.value));
        assert!(k.source == Source::Book || k.source == Source::Leaf);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_or_damaged_book_is_a_one_line_error() {
    let dir = folder("bad");
    let junk = dir.join("junk.rvb");
    std::fs::write(&junk, b"RVBOOK\x01\x00\x05\x00\x00\x00\x00\x00\x00\x00").expect("write");
    for (args, what) in [
        (
            vec!["analyze", "--book", "/nonexistent/book.rvb"],
            "/nonexistent/book.rvb",
        ),
        (
            vec!["book", "stats", "--book", junk.to_str().expect("path")],
            "cut short",
        ),
        (
            vec!["nboard", "--book", junk.to_str().expect("path")],
            "junk.rvb",
        ),
    ] {
        let out = reversi(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(what), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// NBoard plays from the book by default (`hint` marks its moves with the
/// depth `book`), and `set book off` searches instead; a bad value is an
/// error status.
#[test]
fn nboard_hints_from_the_book_until_it_is_set_off() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    use std::sync::mpsc::channel;
    use std::time::Duration;

    let dir = folder("nboard");
    let path = write_games(&dir, &games());
    let (book, _) = build(&dir, &path);
    let start = Position::initial(BoardSize::Eight);
    assert!(!book.moves(&start).is_empty(), "the start is in the book");
    let out = dir.join("book.rvb");
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "nboard",
            "--hash",
            "1",
            "--book",
            out.to_str().expect("path"),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("reversi nboard starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |line: &str| {
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .expect("write");
    };
    // The search lines of a hint, up to its closing status line.
    let hint_depths = |send: &mut dyn FnMut(&str)| {
        send("hint 4");
        let mut depths = Vec::new();
        let mut errors = Vec::new();
        loop {
            let line = lines
                .recv_timeout(Duration::from_secs(60))
                .expect("an answer within a minute");
            if line == "status" {
                return (depths, errors);
            }
            if line.starts_with("status ERROR") {
                errors.push(line.clone());
            }
            if let Some(rest) = line.strip_prefix("search ") {
                depths.push(rest.rsplit(' ').next().unwrap_or("").to_string());
            }
        }
    };
    send("nboard 2");
    send("set depth 3");
    send(
        "set game (;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)",
    );
    let (on, errors) = hint_depths(&mut send);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(on.len(), 4, "{on:?}");
    assert!(on.iter().all(|d| d == "book"), "{on:?}");
    send("set book maybe");
    send("set book off");
    let (off, errors) = hint_depths(&mut send);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("on or off"), "{errors:?}");
    assert_eq!(off.len(), 4, "{off:?}");
    assert!(off.iter().all(|d| d != "book"), "{off:?}");
    send("quit");
    assert!(child.wait().expect("exit").success());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `book lines` plays the first moves of self-play games: from the book
/// while it knows the position, repeatably from its seed, and with no book
/// move under `--no-book`.
#[test]
fn book_lines_counts_the_lines_and_the_book_moves() {
    let dir = folder("lines");
    let path = write_games(&dir, &games());
    let _ = build(&dir, &path);
    let out = dir.join("book.rvb");
    let run = |extra: &[&str]| {
        let mut args = vec![
            "book", "lines", "--level", "10", "--games", "6", "--moves", "3",
        ];
        args.extend_from_slice(extra);
        let o = reversi(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let with = run(&["--book", out.to_str().expect("path"), "--seed", "7"]);
    let first = with.lines().next().unwrap_or_default().to_string();
    assert!(
        first.starts_with("6 games of level 10, 3 moves each: "),
        "{with}"
    );
    let from_book: usize = first
        .split("; ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a count of book moves");
    assert!(from_book >= 6, "the start is in the book: {with}");
    assert!(
        with.contains("book value given up by a side's own book moves in a game: median "),
        "{with}"
    );
    let again = run(&["--book", out.to_str().expect("path"), "--seed", "7"]);
    let lines_of = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with("  "))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        lines_of(&with),
        lines_of(&again),
        "the seed repeats the games"
    );
    let without = run(&["--no-book"]);
    assert!(
        without.contains("; 0 of 18 moves from the book (book off)"),
        "{without}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
