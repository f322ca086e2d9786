//! End-to-end: the real `reversi` binary in a pseudo-terminal, driven by keys
//! as a person would, its screen read back through a VT100 parser.
//!
//! The waits have generous limits only to turn a hang into a failure; nothing
//! here asserts on timing.

mod common_pty;
mod common_wthor;

use common_pty::Session;
use std::time::{Duration, Instant};

use reversi::notation::{parse_square, write_board};
use reversi::rules::{BoardSize, Color, Game, Move, Position, Rules, Square};

#[test]
fn two_people_play_undo_and_quit() {
    let mut s = Session::scratch("humans", &["play", "--black", "human", "--white", "human"]);
    s.wait_for("Black to move");
    s.wait_for("No moves played");
    s.keys("f5");
    s.wait_for("White to move");
    s.wait_for("1. f5");
    s.keys("d6");
    s.wait_for("Black to move");
    s.keys("c3");
    s.wait_for("Moves  3 played");
    s.wait_for("3. c3");
    s.keys("u");
    s.wait_for("Moves  2 played");
    s.wait_for("Black to move");
    // Arrows move the cursor, Enter plays: from c3 (typed last) one right is d3.
    s.key("\x1b[C");
    s.keys("\r");
    s.wait_for("d3 is not legal");
    // A left click (SGR mouse report, 1-based) on c4, found where the
    // screen shows it, plays there.
    let (x, y) = square_on_screen(s.parser.screen(), parse_square("c4").unwrap())
        .expect("the board is on screen");
    let (x, y) = (x + 1, y + 1);
    s.key(&format!("\x1b[<0;{x};{y}M"));
    s.key(&format!("\x1b[<0;{x};{y}m"));
    s.wait_for("Moves  3 played");
    s.wait_for("3. c4");
    s.keys("q");
    s.wait_for("discard it and quit");
    s.keys("d");
    assert!(s.finish(), "clean exit status");
    s.assert_terminal_restored();
}

#[test]
fn the_ai_answers_and_ctrl_c_quits_at_once() {
    let mut s = Session::scratch(
        "ai",
        &["play", "--colour", "black", "--level", "1", "--seed", "5"],
    );
    s.wait_for("Your move (Black)");
    s.wait_for("AI 1 beginner");
    s.keys("f5");
    s.wait_for("Moves  2 played");
    s.wait_for("Your move (Black)");
    s.keys("\x03");
    assert!(s.finish(), "clean exit status");
    s.assert_terminal_restored();
}

#[test]
fn the_new_game_screen_starts_a_game_and_a_signal_restores_the_terminal() {
    let mut s = Session::scratch("newgame", &[]);
    s.wait_for("New game");
    // Opponent: a person on the same keyboard; Enter starts.
    s.key("\x1b[C");
    s.wait_for("a person, same keyboard");
    s.keys("\r");
    s.wait_for("Black to move");
    let pid = s.child.process_id().expect("pid");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    assert!(s.finish(), "SIGTERM ends the program cleanly, status 0");
    s.assert_terminal_restored();
    // The choice was remembered.
    let saved = std::fs::read_to_string(s.dir().join("choices.conf")).unwrap();
    assert!(saved.contains("opponent = human"), "{saved}");
}

/// The centre of `square`'s cell on the screen (column, row; 0-based), read
/// from the board's labels as a person reads them: the column letters above
/// the grid (the first row that starts with `a`) and the row numbers at its
/// left.
/// `None` while the board is not (yet) on the screen.
fn square_on_screen(screen: &vt100::Screen, square: Square) -> Option<(u16, u16)> {
    let (rows, cols) = screen.size();
    let (rows, cols) = (u16::from(rows), u16::from(cols));
    let text = |row, col| {
        screen
            .cell(row, col)
            .map(|c| c.contents().to_string())
            .unwrap_or_default()
    };
    let letter = char::from(b'a' + square.column()).to_string();
    let digit = (square.row() + 1).to_string();
    let labels = (0..rows).find(|&row| {
        (0..cols).find_map(|col| Some(text(row, col)).filter(|t| !t.trim().is_empty()))
            == Some("a".into())
    })?;
    let x = (0..cols).find(|&col| text(labels, col) == letter)?;
    let y = (labels + 1..rows).find(|&row| (0..3).any(|col| text(row, col) == digit))?;
    Some((x, y))
}

/// The discs on the screen's board, as `X`, `O` or `-` per square (ASCII look).
fn board_on_screen(s: &Session) -> String {
    let screen = s.parser.screen();
    BoardSize::Eight
        .iter()
        .map(|sq| {
            let glyph = square_on_screen(screen, sq)
                .and_then(|(x, y)| screen.cell(y, x))
                .map(|cell| cell.contents().to_string())
                .unwrap_or_default();
            match glyph.as_str() {
                "X" => 'X',
                "O" => 'O',
                _ => '-',
            }
        })
        .collect()
}

/// Waits until the board on screen shows `expected` (the frame may arrive in
/// pieces); fails with both boards after a hang guard of 20 s.
fn wait_board(s: &mut Session, expected: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while board_on_screen(s) != expected {
        assert!(
            Instant::now() < deadline,
            "the board on screen\n{}\nis not\n{expected}\n{}",
            board_on_screen(s),
            s.screen()
        );
        s.pump(Duration::from_millis(50));
    }
}

fn discs(p: &Position) -> String {
    BoardSize::Eight
        .iter()
        .map(|sq| match p.disc_at(sq) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '-',
        })
        .collect()
}

#[test]
fn finish_a_game_then_replay_it_back_and_forth() {
    // A near-final position: a game of first legal moves, a few plies before its end.
    let rules = Rules::standard(BoardSize::Eight);
    let mut full = Game::new(rules);
    while full.outcome().is_none() {
        let mv = full.position().moves_list()[0];
        full.play(mv).unwrap();
    }
    let start_ply = full.len() - 4;
    let start = full.position_at(start_ply).unwrap();
    let rest: Vec<Move> = full.moves()[start_ply..].to_vec();
    let obf = write_board(&start);
    let mut s = Session::scratch(
        "replay",
        &[
            "play",
            "--black",
            "human",
            "--white",
            "human",
            "--ascii",
            "--position",
            &obf,
        ],
    );
    s.wait_for("to move");
    for mv in &rest {
        if let Move::Place(sq) = mv {
            s.keys(&sq.to_string());
        }
    }
    s.wait_for("Game over");
    let n = rest.len();
    s.keys("v");
    s.wait_for(&format!("Replay - move {n} of {n}"));
    let at = |ply: usize| discs(&full.position_at(start_ply + ply).unwrap());
    wait_board(&mut s, &at(n));
    s.key("\x1b[D");
    s.wait_for(&format!("Replay - move {} of {n}", n - 1));
    wait_board(&mut s, &at(n - 1));
    s.key("\x1b[H");
    s.wait_for(&format!("Replay - move 0 of {n}"));
    wait_board(&mut s, &at(0));
    s.key("\x1b[C");
    s.wait_for(&format!("Replay - move 1 of {n}"));
    wait_board(&mut s, &at(1));
    s.key("\x1b[C");
    s.wait_for(&format!("Replay - move 2 of {n}"));
    wait_board(&mut s, &at(2));
    // Esc leaves replay at the end of the game; q quits a finished game at once.
    s.key("\x1b");
    s.wait_for("Game over");
    s.keys("q");
    assert!(s.finish(), "clean exit status");
    s.assert_terminal_restored();
}

#[test]
fn the_new_game_screen_takes_ascii_and_no_mouse() {
    let mut s = Session::scratch("topflags", &["--ascii", "--no-mouse"]);
    s.wait_for("New game");
    assert_eq!(
        s.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "--no-mouse: the mouse is left to the terminal"
    );
    s.key("\x1b[C");
    s.wait_for("a person, same keyboard");
    s.keys("\r");
    s.wait_for("Black to move");
    // The ASCII look draws the discs as X and O.
    wait_board(&mut s, &discs(&Position::initial(BoardSize::Eight)));
    s.keys("q");
    assert!(s.finish());
    s.assert_terminal_restored();
}

#[test]
fn solve_without_a_file_says_it_reads_standard_input() {
    let mut s = Session::scratch("solvestdin", &["solve"]);
    s.wait_for("reading OBF positions from standard input");
    // Ctrl-D on an empty line ends the input: no positions, exit status 2.
    s.keys("\x04");
    assert!(!s.finish());
    s.wait_for("standard input: no positions");
}

#[test]
fn analyze_reports_each_depth_on_a_terminal() {
    let mut s = Session::scratch(
        "analyzedepth",
        &["analyze", "--moves", "f5d6c3", "--depth", "8"],
    );
    s.wait_for("depth  1  best");
    s.wait_for("depth  8  best");
    s.wait_for("pv d3");
    assert!(s.finish());
}

#[test]
fn the_screen_is_cleared_at_start_after_a_crash_left_it_in_use() {
    // After a kill -9 the terminal is still on the alternate screen with the
    // shell's text on it, and entering it again does not clear it: the
    // program must erase it itself before drawing.
    let mut s = Session::scratch(
        "leftover",
        &["play", "--black", "human", "--white", "human"],
    );
    s.wait_for("Black to move");
    let text = String::from_utf8_lossy(&s.raw).into_owned();
    let enter = text
        .find("\x1b[?1049h")
        .expect("enters the alternate screen");
    let erase = text[enter..].find("\x1b[2J").map(|i| i + enter);
    let first_draw = text.find("Black to move").unwrap();
    assert!(
        erase.is_some_and(|e| e < first_draw),
        "no erase of the whole screen before the first frame"
    );
    s.keys("q");
    assert!(s.finish());
}

#[test]
fn a_wthor_game_opens_in_replay_with_its_players_and_tournament() {
    let dir = std::env::temp_dir().join(format!("reversi-wthor-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let start = Position::initial(BoardSize::Eight);
    let first = reversi::notation::parse_transcript("f5d6c3d3c4", &start).unwrap();
    let second = reversi::notation::parse_transcript("f5f6e6f4e3c5c4", &start).unwrap();
    let games = [(0, &first), (1, &second)].map(|(t, moves)| common_wthor::Game {
        tournament: t,
        black: 1,
        white: 0,
        black_discs: 40,
        moves,
    });
    let wtb = dir.join("WTH_2025.wtb");
    std::fs::write(&wtb, common_wthor::wtb(2025, &games)).unwrap();
    let jou = common_wthor::names(
        reversi::notation::wthor::PLAYER_LEN,
        &[b"Bo B", b"Ren\xe9e A"],
    );
    std::fs::write(dir.join("WTHOR.JOU"), jou).unwrap();
    let trn = common_wthor::names(reversi::notation::wthor::TOURNAMENT_LEN, &[b"Cup", b"Open"]);
    std::fs::write(dir.join("WTHOR.TRN"), trn).unwrap();
    let mut s = Session::scratch("wtb", &["replay", wtb.to_str().unwrap(), "--game", "2"]);
    // The second game of two, with its players, tournament and result.
    s.wait_for("Game 2/2: Renée A vs Bo B");
    s.wait_for("(Open, 2025), Black wins");
    s.wait_for("Replay — move 0 of 7");
    s.key("\x1b[C");
    s.wait_for("Replay — move 1 of 7");
    s.keys("\x03");
    assert!(s.finish(), "clean exit status");
    s.assert_terminal_restored();
    let _ = std::fs::remove_dir_all(&dir);
}

/// French from `LANG=fr_FR.UTF-8`: the lesson with a wrong move, left for
/// the new-game screen, a game for two people, the quit question answered
/// with `o`; the language follows the locale and is not written down as a
/// choice of the new-game screen.
#[test]
fn in_french_from_lang_the_lesson_then_a_game() {
    let mut s = Session::scratch_in("french", &["learn"], "fr_FR.UTF-8");
    s.wait_for("Apprendre les règles");
    s.wait_for("Étape 1 sur 8");
    s.keys("e4");
    s.wait_for("porte un pion noir");
    s.keys("e5");
    s.wait_for("porte un pion blanc");
    s.keys("\r");
    s.wait_for("Étape 2 sur 8");
    s.key("\x1b");
    s.wait_for("Nouvelle partie");
    // Opponent: a person on the same keyboard; Enter starts.
    s.key("\x1b[C");
    s.wait_for("une personne, même clavier");
    s.keys("\r");
    s.wait_for("Trait aux Noirs");
    s.keys("f5");
    s.wait_for("Trait aux Blancs");
    let screen = s.screen();
    for word in screen.split(|c: char| !c.is_alphabetic()) {
        let english = ["Black", "White", "move", "quit", "help", "Enter", "game"];
        assert!(!english.contains(&word), "{word:?} in:\n{screen}");
    }
    s.keys("q");
    s.wait_for("la supprimer et quitter");
    s.keys("s");
    assert!(s.finish(), "s discards the game and quits, status 0");
    s.assert_terminal_restored();
    let saved = std::fs::read_to_string(s.dir().join("choices.conf")).unwrap();
    assert!(!saved.contains("language"), "{saved}");
}

/// `--lang en` wins over a French locale.
#[test]
fn the_lang_flag_wins_over_the_locale() {
    let mut s = Session::scratch_in("langflag", &["--lang", "en"], "fr_FR.UTF-8");
    s.wait_for("New game");
    s.keys("q");
    assert!(s.finish());
}
