//! Game collections: WTHOR files written from the format's definition are
//! read with their names; `reversi convert` turns collections into one another
//! and back without changing a game; malformed files give one clear error
//! naming the file and the game; no input makes a reader panic.

mod common;
mod common_wthor;

use common::{XorShift, random_game};
use common_wthor::{Game as WGame, names, wtb};
use proptest::prelude::*;
use reversi::notation::collection::{self, Format, final_margin};
use reversi::notation::ggf::{EndedEarly, parse_ggf};
use reversi::notation::{logbook, wthor};
use reversi::rules::{BoardSize, Color, Move, Position};
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-coll-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn reversi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn black_margin(p: &Position) -> i32 {
    p.count(Color::Black) as i32 - p.count(Color::White) as i32
}

/// Three finished random games and one stopped after 20 moves whose recorded
/// score (40 discs) is not its board's.
fn games() -> Vec<Vec<Move>> {
    let mut rng = XorShift::new(15);
    let mut out: Vec<Vec<Move>> = (0..3)
        .map(|_| random_game(&mut rng, BoardSize::Eight).0)
        .collect();
    let mut cut = random_game(&mut rng, BoardSize::Eight).0;
    cut.truncate(20);
    out.push(cut);
    out
}

/// Writes `WTH_2025.wtb` with [`games`] and the name files beside it.
fn write_wthor(dir: &Path) -> PathBuf {
    let games = games();
    let records: Vec<WGame> = games
        .iter()
        .enumerate()
        .map(|(i, moves)| {
            let end = moves
                .iter()
                .fold(Position::initial(BoardSize::Eight), |p, &m| {
                    p.play(m).unwrap()
                });
            let discs = if end.is_game_over() {
                // Empties to the winner, as WTHOR records.
                let m = black_margin(&end);
                let e = end.empties().count() as i32;
                (32 + (m + m.signum() * e) / 2) as u8
            } else {
                40
            };
            WGame {
                tournament: (i % 2) as u16,
                black: i as u16,
                white: 2,
                black_discs: discs,
                moves,
            }
        })
        .collect();
    let path = dir.join("WTH_2025.wtb");
    std::fs::write(&path, wtb(2025, &records)).unwrap();
    std::fs::write(
        dir.join("WTHOR.JOU"),
        names(
            wthor::PLAYER_LEN,
            &[b"Ren\xe9e A", b"Bo B", b"Chlo\xe9 C", b"Dee D"],
        ),
    )
    .unwrap();
    std::fs::write(
        dir.join("WTHOR.TRN"),
        names(wthor::TOURNAMENT_LEN, &[b"Open de Montr\xe9al", b"Cup"]),
    )
    .unwrap();
    path
}

#[test]
fn wthor_games_are_read_with_names_passes_and_both_scores() {
    let dir = temp_dir("read");
    let path = write_wthor(&dir);
    let records = collection::read_path(&path, None).unwrap();
    let games = games();
    assert_eq!(records.len(), games.len());
    for (r, moves) in records.iter().zip(&games) {
        assert_eq!(r.game.moves(), moves.as_slice(), "passes re-derived");
        assert_eq!(r.date, "2025");
        assert_eq!(r.white, "Chloé C");
    }
    assert_eq!(records[0].black, "Renée A");
    assert_eq!(records[0].place, "Open de Montréal");
    assert_eq!(records[1].place, "Cup");
    for r in &records[..3] {
        assert_eq!(r.ended_early, None);
        let m = final_margin(r).unwrap();
        let e = r.game.position_at(r.game.len()).unwrap().empties().count() as i32;
        assert_eq!(
            r.result.unwrap().black_margin(),
            m + m.signum() * e,
            "empties to the winner"
        );
        let end = r.game.position_at(r.game.len()).unwrap();
        assert_eq!(final_margin(r), Some(black_margin(&end)));
    }
    // The stopped game keeps its recorded score but has no board margin.
    assert_eq!(records[3].result.map(|o| o.black_margin()), Some(16));
    assert_eq!(records[3].ended_early, Some(EndedEarly::Forfeit));
    assert_eq!(final_margin(&records[3]), None);
    // Without the name files the players are numbers.
    std::fs::remove_file(dir.join("WTHOR.JOU")).unwrap();
    let records = collection::read_path(&path, None).unwrap();
    assert_eq!(
        (records[0].black.as_str(), records[0].white.as_str()),
        ("#0", "#2")
    );
    assert_eq!(records[0].place, "Open de Montréal");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_round_trips_keep_every_game() {
    let dir = temp_dir("convert");
    let wtb_path = write_wthor(&dir);
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (code, out, err) = reversi(&["convert", wtb_path.to_str().unwrap(), &p("a.ggf")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("4 games from"), "{out}");
    assert!(out.contains("1 not over on the board"), "{out}");
    let from_ggf = parse_ggf(&std::fs::read_to_string(p("a.ggf")).unwrap()).unwrap();
    let from_wtb = collection::read_path(&wtb_path, None).unwrap();
    assert_eq!(from_ggf.len(), from_wtb.len());
    for (a, b) in from_ggf.iter().zip(&from_wtb) {
        assert_eq!(a.game.moves(), b.game.moves());
        assert_eq!(
            (&a.black, &a.white, &a.place),
            (&b.black, &b.white, &b.place)
        );
        assert_eq!((&a.date, a.ended_early), (&b.date, b.ended_early));
        let margin = |r: &reversi::notation::ggf::Record| r.result.map(|o| o.black_margin());
        assert_eq!(margin(a), margin(b));
        assert_eq!(a.game.rules(), b.game.rules(), "empties to the winner kept");
    }
    // GGF → Logistello's list → transcripts → GGF: the same moves; the list
    // keeps the results.
    for (from, to) in [("a.ggf", "b.gam"), ("b.gam", "c.txt"), ("c.txt", "d.ggf")] {
        let (code, _, err) = reversi(&["convert", &p(from), &p(to)]);
        assert_eq!(code, Some(0), "{from} -> {to}: {err}");
    }
    let list = logbook::parse_logbook(&std::fs::read_to_string(p("b.gam")).unwrap()).unwrap();
    let back = parse_ggf(&std::fs::read_to_string(p("d.ggf")).unwrap()).unwrap();
    for ((l, b), w) in list.iter().zip(&back).zip(&from_wtb) {
        assert_eq!(l.moves, w.game.moves());
        assert_eq!(b.game.moves(), w.game.moves());
        let expected = final_margin(w).unwrap_or(16);
        assert_eq!(l.margin, expected);
    }
    // The same list again from the list: byte for byte.
    let (code, _, err) = reversi(&["convert", &p("b.gam"), &p("e.txt"), "--to", "logbook"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(p("b.gam")).unwrap(),
        std::fs::read_to_string(p("e.txt")).unwrap()
    );
    // The list names no players, and none are made up when it is read.
    let (code, _, err) = reversi(&["convert", &p("b.gam"), &p("g.ggf")]);
    assert_eq!(code, Some(0), "{err}");
    let ggf = std::fs::read_to_string(p("g.ggf")).unwrap();
    assert!(
        ggf.contains("(;GM[Othello]") && !ggf.contains("Logistello"),
        "{ggf}"
    );
    // The extensions name the formats too.
    let (code, _, err) = reversi(&["convert", &p("b.gam"), &p("f.out"), "--to", "gam"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        std::fs::read_to_string(p("b.gam")).unwrap(),
        std::fs::read_to_string(p("f.out")).unwrap()
    );
    // The contents decide when the extension does not.
    std::fs::copy(p("b.gam"), p("list.dat")).unwrap();
    assert_eq!(
        collection::read_path(&dir.join("list.dat"), None)
            .unwrap()
            .len(),
        4
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_files_name_the_file_the_game_and_the_reason() {
    let dir = temp_dir("bad");
    let wtb_path = write_wthor(&dir);
    let good = std::fs::read(&wtb_path).unwrap();
    let (code, _, err) = reversi(&["replay", wtb_path.to_str().unwrap(), "--game", "9"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("holds 4 games; --game 9"), "{err}");
    let bad = dir.join("bad.wtb");
    let out = dir.join("out.ggf").to_str().unwrap().to_string();
    let run = |bytes: &[u8]| {
        std::fs::write(&bad, bytes).unwrap();
        let (code, _, err) = reversi(&["convert", bad.to_str().unwrap(), &out]);
        assert_eq!(code, Some(2), "{err}");
        assert!(!Path::new(&out).exists(), "nothing written");
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    let err = run(&good[..good.len() - 1]);
    assert!(
        err.contains(
            "bad.wtb: the header announces 4 records of 68 bytes, but 271 bytes follow it"
        ),
        "{err}"
    );
    let mut b = good.clone();
    b[16 + 68 + 8 + 4] = 99; // game 2, move 5
    let err = run(&b);
    assert!(
        err.contains("bad.wtb: game 2, move 5: byte 99 is not a square"),
        "{err}"
    );
    let mut b = good.clone();
    b[16 + 2 * 68 + 8 + 1] = b[16 + 2 * 68 + 8]; // game 3 plays its first square again
    let err = run(&b);
    assert!(err.contains("bad.wtb: game 3, move 2:"), "{err}");
    assert!(err.contains("occupied"), "{err}");
    let err = run(&[1, 2, 3]);
    assert!(err.contains("3 bytes is too short"), "{err}");
    // A bad name file beside the games.
    std::fs::write(dir.join("WTHOR.TRN"), [0u8; 20]).unwrap();
    let (code, _, err) = reversi(&["convert", wtb_path.to_str().unwrap(), &out]);
    assert_eq!(code, Some(2));
    assert!(err.contains("WTHOR.TRN: the header announces"), "{err}");
    // A text list: the line, the column and the game.
    let list = dir.join("bad.gam");
    std::fs::write(&list, "+f5-d6: +00 10\n\n+f5-d6+c3+d3: +00 10\n").unwrap();
    let (code, _, err) = reversi(&["convert", list.to_str().unwrap(), &out]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("bad.gam:3:10: game 2: move 4 is marked as Black's"),
        "{err}"
    );
    let txt = dir.join("bad.txt");
    std::fs::write(&txt, "# games\nf5d6\nf5d6c3zz\n").unwrap();
    let (code, _, err) = reversi(&["convert", txt.to_str().unwrap(), &out]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad.txt:3:7: game 2: move 4"), "{err}");
    // An output format that cannot be, and one that cannot hold the games.
    let (code, _, err) = reversi(&["convert", wtb_path.to_str().unwrap(), "x.wtb"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("x.wtb: WTHOR files are read, not written"),
        "{err}"
    );
    let (code, _, err) = reversi(&["convert", list.to_str().unwrap(), "x.zip"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("x.zip: unknown output format"), "{err}");
    let six = dir.join("six.ggf");
    std::fs::write(
        &six,
        "(;GM[Othello]TY[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *]B[c2];)",
    )
    .unwrap();
    let (code, _, err) = reversi(&[
        "convert",
        six.to_str().unwrap(),
        &out.replace(".ggf", ".txt"),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("game 1: only games of standard Reversi from the 8x8 start"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `reversi train GAMES --out WEIGHTS` for two passes over two phases,
/// nothing held out, one thread, with `extra` arguments.
fn train_quickly(games: &Path, weights: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "train",
        games.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
        "--epochs",
        "2",
        "--phases",
        "2",
        "--validation",
        "0",
        "--threads",
        "1",
    ];
    args.extend(extra);
    reversi(&args)
}

#[test]
fn train_reads_wthor_and_leaves_out_unlabelled_games() {
    let dir = temp_dir("train");
    let wtb_path = write_wthor(&dir);
    let weights = dir.join("w.rvw");
    let (code, _, err) = train_quickly(&wtb_path, &weights, &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("WTH_2025.wtb: 4 games, 1 not over on the board (left out)"),
        "{err}"
    );
    assert!(err.starts_with(&format!("{}", wtb_path.display())), "{err}");
    assert!(err.contains("3 games (0 held out)"), "{err}");
    reversi::ai::PatternWeights::read(&weights).expect("loadable weights");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_takes_one_position_per_wthor_game_with_its_theoretical_score() {
    let dir = temp_dir("theoretical");
    let wtb_path = write_wthor(&dir);
    let wtb = collection::read_wtb(&wtb_path).unwrap();
    assert_eq!(wtb.header.depth, 22);
    // The game stopped after 20 moves never reaches 22 empties.
    let labelled: Vec<_> = wtb
        .games
        .iter()
        .filter_map(|g| g.theoretical_position(22))
        .collect();
    assert!(wtb.games[3].theoretical_position(22).is_none());
    assert!(!labelled.is_empty());
    for (p, margin) in &labelled {
        assert_eq!(p.empties().count(), 22);
        assert!(p.has_legal_move());
        assert_eq!(margin % 2, 0);
    }
    let weights = dir.join("w.rvw");
    let n = labelled.len();
    // Trains with `extra` and reports the n labelled games and `positions`
    // training positions.
    let trains_on = |extra: &[&str], positions: usize| {
        let (code, _, err) = train_quickly(&wtb_path, &weights, extra);
        assert_eq!(code, Some(0), "{err}");
        for said in [
            format!(
                "WTH_2025.wtb: 4 games, {n} labelled by their theoretical score at 22 empties ({positions} positions)"
            ),
            format!("{positions} training and 0 validation positions"),
        ] {
            assert!(err.contains(&said), "{err}");
        }
    };
    trains_on(&["--wthor-theoretical"], n);
    reversi::ai::PatternWeights::read(&weights).expect("loadable weights");
    // From 25 empties: each labelled game's positions from 25 down to 22
    // with a move to play, the same games labelled.
    let line: usize = wtb
        .games
        .iter()
        .map(|g| g.theoretical_line(22, 25).len())
        .sum();
    assert!(line > n, "{line} against {n}");
    trains_on(&["--wthor-theoretical", "--wthor-line-from", "25"], line);
    // The line needs the theoretical scores.
    let (code, _, err) = train_quickly(&wtb_path, &weights, &["--wthor-line-from", "25"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--wthor-theoretical"), "{err}");
    // Without a WTHOR file the option is an error, not silently nothing.
    let ggf = dir.join("g.ggf");
    let (code, _, err) = reversi(&["convert", wtb_path.to_str().unwrap(), ggf.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = reversi(&[
        "train",
        ggf.to_str().unwrap(),
        "--wthor-theoretical",
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("--wthor-theoretical needs at least one WTHOR file"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn formats_come_from_extensions_then_contents() {
    assert_eq!(
        Format::from_path(Path::new("a/WTH_1999.WTB")),
        Some(Format::Wthor)
    );
    assert_eq!(
        Format::from_path(Path::new("logbook.gam")),
        Some(Format::Logbook)
    );
    assert_eq!(Format::from_path(Path::new("x.dat")), None);
    assert_eq!(Format::sniff("\n  (;GM[Othello]"), Format::Ggf);
    assert_eq!(Format::sniff("# c\n+d3-c3: +00 10"), Format::Logbook);
    assert_eq!(Format::sniff("f5d6"), Format::Transcripts);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn no_reader_panics_on_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = wthor::parse_wtb(&bytes);
        let _ = wthor::parse_names(&bytes, wthor::PLAYER_LEN);
        let text = String::from_utf8_lossy(&bytes);
        let _ = logbook::parse_logbook(&text);
        let _ = Format::sniff(&text);
    }

    #[test]
    fn a_wtb_header_with_random_records_never_panics(
        count in 0u32..4,
        body in proptest::collection::vec(prop_oneof![0u8..100, 11u8..89], 0..300),
    ) {
        let mut f = vec![20, 25, 1, 1];
        f.extend(count.to_le_bytes());
        f.extend([0, 0, 0xe9, 0x07, 8, 0, 22, 0]);
        f.extend(&body);
        if let Ok(w) = wthor::parse_wtb(&f) {
            prop_assert_eq!(w.games.len() as u32, count);
            for g in &w.games {
                let _ = (g.board_margin(), g.score_agrees());
            }
        }
    }

    #[test]
    fn logbook_lines_round_trip(seed in any::<u64>(), cut in 0usize..70) {
        let (mut moves, _) = random_game(&mut XorShift::new(seed), BoardSize::Eight);
        moves.truncate(cut);
        while moves.last() == Some(&Move::Pass) {
            moves.pop();
        }
        let line = logbook::write_line(&moves, -4, "10");
        let g = logbook::parse_line(&line).unwrap();
        prop_assert_eq!(g.moves, moves);
        prop_assert_eq!(g.margin, -4);
    }
}
