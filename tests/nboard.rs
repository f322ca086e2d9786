//! Drives `reversi nboard` as a child process, as a GUI would: the handshake, a
//! whole game of `go`/`move`, `hint`, `ping`/`pong` ordering during a long search,
//! a forced pass, malformed lines, and `quit`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use reversi::notation::parse_square;
use reversi::rules::{Game, Move, Rules};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::start_with(&[])
    }

    fn start_with(extra: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            // Searches, not book moves: the book is tested in tests/book.rs.
            .args(["nboard", "--hash", "8", "--no-book"])
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start reversi nboard");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a `status` progress line.
    fn reply(&self) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .expect("the engine answered within a minute");
            if !line.starts_with("status") {
                return line;
            }
        }
    }
}

const START: &str =
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";

fn parse_go(line: &str) -> Move {
    let body = line
        .strip_prefix("=== ")
        .unwrap_or_else(|| panic!("not a move reply: {line}"));
    let mv = body.split('/').next().unwrap();
    if mv == "PA" {
        Move::Pass
    } else {
        Move::Place(parse_square(mv).unwrap())
    }
}

#[test]
fn plays_a_whole_game_against_itself() {
    let mut e = Engine::start();
    e.send("nboard 2");
    assert_eq!(e.reply(), "set myname reversi");
    e.send("set depth 2");
    e.send(&format!(
        "set game (;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0]TY[8]{START};)"
    ));
    let mut game = Game::new(Rules::default());
    while !game.position().is_game_over() {
        e.send("go");
        let reply = e.reply();
        let mv = parse_go(&reply);
        assert!(
            game.position().is_legal(mv),
            "{reply} is illegal in {:?}",
            game.position()
        );
        let stats = e.reply();
        assert!(stats.starts_with("nodestats "), "{stats}");
        game.play(mv).unwrap();
        let text = match mv {
            Move::Place(sq) => sq.to_string(),
            Move::Pass => "PA".into(),
        };
        e.send(&format!("move {text}"));
    }
    e.send("ping 7");
    assert_eq!(e.reply(), "pong 7");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn hint_ping_pass_errors_and_quit() {
    let mut e = Engine::start();
    e.send("nboard 1");
    assert_eq!(e.reply(), "set myname reversi");
    e.send("set depth 3");
    e.send(&format!("set game (;GM[Othello]TY[8]{START}B[f5]W[d6];)"));
    e.send("hint 2");
    for _ in 0..2 {
        let line = e.reply();
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts[0], "search", "{line}");
        assert!(parse_square(&parts[1][..2]).is_ok(), "{line}");
        assert!(parts[2].parse::<f64>().is_ok(), "{line}");
    }
    assert!(e.reply().starts_with("nodestats"));

    // Malformed lines: an error status, the position unchanged, no crash.
    e.send("move z9");
    e.send("set game (;GM[Othello]B[a1];)");
    e.send("set depth lots");
    e.send("frobnicate");
    e.send("ping 1");
    assert_eq!(e.reply(), "pong 1");
    e.send("move c3");
    e.send("go");
    let mv = parse_go(&e.reply());
    let game = Game::with_moves(
        Rules::default(),
        reversi::rules::Position::initial(reversi::rules::BoardSize::Eight),
        &reversi::notation::parse_transcript(
            "f5d6c3",
            &reversi::rules::Position::initial(reversi::rules::BoardSize::Eight),
        )
        .unwrap(),
    )
    .unwrap();
    assert!(game.position().is_legal(mv));
    assert!(e.reply().starts_with("nodestats"));

    // A forced pass: White has no move here.
    e.send("set game (;GM[Othello]TY[8]BO[8 OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO *OOOOO-- O];)");
    e.send("go");
    assert_eq!(parse_go(&e.reply()), Move::Pass);
    assert!(e.reply().starts_with("nodestats"));

    // A long search is stopped by ping, and pong comes after its answer.
    e.send("set depth 60");
    e.send(&format!("set game (;GM[Othello]TY[8]{START};)"));
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    e.send("ping 2");
    let answer = e.reply();
    assert!(answer.starts_with("=== "), "{answer}");
    assert!(e.reply().starts_with("nodestats"));
    assert_eq!(e.reply(), "pong 2");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// A `ping` sent at once after `go` (the search may not have started) stops
/// it, and the move still comes before the `pong`; input that ends at once
/// after `go` still gets its move before the engine exits.
#[test]
fn ping_or_the_end_of_input_right_after_go_still_answer() {
    let mut e = Engine::start();
    let all = format!("nboard 2\nset depth 60\nset game (;GM[Othello]TY[8]{START};)\ngo\nping 1\n");
    e.stdin.write_all(all.as_bytes()).unwrap();
    e.stdin.flush().unwrap();
    assert_eq!(e.reply(), "set myname reversi");
    let answer = e.reply();
    assert!(answer.starts_with("=== "), "{answer}");
    assert_ne!(parse_go(&answer), Move::Pass);
    assert!(e.reply().starts_with("nodestats"));
    assert_eq!(e.reply(), "pong 1");
    let all = format!("set game (;GM[Othello]TY[8]{START};)\ngo\n");
    e.stdin.write_all(all.as_bytes()).unwrap();
    drop(e.stdin);
    let next = || {
        e.lines
            .recv_timeout(Duration::from_secs(60))
            .expect("the engine answered within a minute")
    };
    let mut answer = next();
    while answer.starts_with("status") {
        answer = next();
    }
    assert!(answer.starts_with("=== "), "{answer}");
    assert!(next().starts_with("nodestats"));
    assert!(e.child.wait().unwrap().success());
}

/// A line that is not UTF-8 gets an error line, and the engine goes on (a
/// GUI would otherwise see it vanish).
#[test]
fn a_line_that_is_not_text_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.stdin.write_all(b"nboard 2\n\xff\xfe go \xc3\n").unwrap();
    e.send("ping 3");
    assert_eq!(e.reply(), "set myname reversi");
    let error = e.lines.recv_timeout(Duration::from_secs(60)).unwrap();
    assert!(
        error.starts_with("status ERROR: ") && error.contains("UTF-8"),
        "{error}"
    );
    assert_eq!(e.reply(), "pong 3");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut e = Engine::start();
    e.send("nboard 2");
    assert_eq!(e.reply(), "set myname reversi");
    drop(e.stdin);
    assert!(e.child.wait().unwrap().success());
}

/// `--weights FILE`: the engine searches with those weights (its evaluations
/// differ from the shipped weights' on the same position, and match a
/// search with them in the library); a missing file is refused at start.
#[test]
fn weights_from_a_file() {
    use reversi::ai::PatternWeights;
    let dir = std::env::temp_dir().join(format!("reversi-nboard-w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = PatternWeights::shipped().unwrap();
    // The shipped weights with every pattern weight halved.
    let halved: Vec<Vec<i16>> = shipped
        .classes()
        .iter()
        .map(|c| c.iter().map(|&w| w / 2).collect())
        .collect();
    let w = PatternWeights::with_bias(halved, *shipped.bias());
    let path = dir.join("half.rvw");
    std::fs::write(&path, w.to_bytes()).unwrap();
    let eval_of = |extra: &[&str]| {
        let mut e = Engine::start_with(extra);
        e.send("nboard 2");
        e.reply();
        e.send("set depth 3");
        e.send(&format!(
            "set game (;GM[Othello]PC[test]PB[a]PW[b]RE[?]TI[0]TY[8]{START}B[f5]W[d6];)"
        ));
        e.send("go");
        let reply = e.reply();
        e.send("quit");
        reply
    };
    let default = eval_of(&[]);
    let half = eval_of(&["--weights", path.to_str().unwrap()]);
    assert_ne!(default, half);
    // The same search in the library.
    let mut game = Game::new(Rules::default());
    for m in ["f5", "d6"] {
        game.play(Move::Place(parse_square(m).unwrap())).unwrap();
    }
    let mut engine = reversi::ai::Engine::new(8);
    engine.set_weights(Some(std::sync::Arc::new(w)));
    let never = std::sync::atomic::AtomicBool::new(false);
    let r = engine.search(
        &game.position(),
        &Rules::default(),
        &reversi::ai::Limits::nominal(3),
        &never,
        1,
        &mut |_| {},
    );
    let expected = format!("{:.2}", r.score.discs());
    assert!(half.contains(&expected), "{half} against {expected}");
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["nboard", "--weights", "/nonexistent.rvw"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("nonexistent.rvw"));
    std::fs::remove_dir_all(&dir).ok();
}
