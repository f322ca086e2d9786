//! End-to-end: `reversi online` in a pseudo-terminal against a real
//! `reversi server` on a port the system picks. The person creates a table as
//! Black, a headless bot (`reversi online --bot`) joins, moves appear on both
//! sides, the server is killed with SIGKILL and restarted on the same port
//! and database, and the screen reconnects by itself; then the client is
//! killed and started again, takes its seat back with the remembered session
//! token, and the game is played to its end. A spectator connection in the
//! test follows the game to know which moves are legal.

mod common_pty;

use common_pty::{Session, TempDir, spawn_server};
use reversi::net::client::{Connection, GameView};
use reversi::net::protocol::{ClientMsg, PROTOCOL_VERSION, ServerMsg, TableStatus};
use reversi::rules::{Color, Move};
use std::time::Duration;

/// A spectator at table 1, in the test.
struct Spy {
    rt: tokio::runtime::Runtime,
    conn: Connection,
    view: Option<GameView>,
    over: bool,
    /// The ply of the last move handed out (not handed out twice).
    asked: Option<usize>,
}

impl Spy {
    fn watch(url: &str) -> Spy {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let conn = rt.block_on(async {
            let mut c = Connection::open(url).await.unwrap();
            c.send(&ClientMsg::Hello {
                protocol: PROTOCOL_VERSION,
                name: "spy".into(),
                token: None,
                lobby: false,
            })
            .await
            .unwrap();
            c.send(&ClientMsg::Watch { table: 1 }).await.unwrap();
            c
        });
        Spy {
            rt,
            conn,
            view: None,
            over: false,
            asked: None,
        }
    }

    /// Reads messages until Black (the person) is to move with a legal move,
    /// or the game is over; returns that move's square.
    fn blacks_turn(&mut self) -> Option<String> {
        loop {
            if self.over {
                return None;
            }
            if let Some(v) = &self.view
                && v.status == TableStatus::Playing
                && v.game.side_to_move() == Color::Black
                && v.game.position().has_legal_move()
                && self.asked != Some(v.moves.len())
            {
                self.asked = Some(v.moves.len());
                let mv = v.game.position().moves_list()[0];
                return Some(match mv {
                    Move::Place(sq) => sq.to_string(),
                    Move::Pass => unreachable!("a placement"),
                });
            }
            let conn = &mut self.conn;
            let msg = self
                .rt
                .block_on(async {
                    tokio::time::timeout(Duration::from_secs(60), conn.recv()).await
                })
                .expect("the spectator hears from the server")
                .expect("the spectator's connection stays open");
            match msg {
                ServerMsg::Game(state) => self.view = Some(GameView::from_state(&state).unwrap()),
                ServerMsg::Moved { ply, mv, .. } => {
                    if let Some(v) = &mut self.view {
                        v.apply(ply, &mv).unwrap();
                        v.status = TableStatus::Playing;
                    }
                }
                ServerMsg::Ended { .. } => self.over = true,
                _ => {}
            }
        }
    }

    fn plies(&self) -> usize {
        self.view.as_ref().map_or(0, |v| v.moves.len())
    }
}

/// A child process killed when dropped.
struct KillOnDrop(Option<std::process::Child>);

impl KillOnDrop {
    fn take(mut self) -> std::process::Child {
        self.0.take().expect("taken once")
    }
}

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(c) = &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The number in "Moves  N played" on the screen ("No moves played": 0).
fn plies_shown(screen: &str) -> Option<usize> {
    if screen.contains("No moves played") {
        return Some(0);
    }
    let at = screen.find("Moves  ")? + "Moves  ".len();
    screen[at..].split_whitespace().next()?.parse().ok()
}

#[test]
fn a_game_at_a_real_server_survives_its_restart() {
    let dir = TempDir::new("online-pty");
    let db = dir.0.join("salon.sqlite");
    let (mut server, url) = spawn_server("127.0.0.1:0", &db);
    let listen = url.trim_start_matches("ws://").to_string();
    let mut s = Session::start(
        &dir.0,
        &[
            "online", &url, "--name", "ann", "--create", "--colour", "black", "--clock", "600+5",
        ],
    );
    s.wait_for("Table 1");
    s.wait_for("Waiting for an opponent");
    s.wait_for("connected");
    let bot = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "online", &url, "--name", "bob", "--bot", "level:1", "--join", "1",
        ])
        .env("REVERSI_CONFIG_DIR", &dir.0)
        .env("REVERSI_DATA_DIR", &dir.0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Killed if the test fails before it ends by itself.
    let bot = KillOnDrop(Some(bot));
    s.wait_for("Black to move — your turn");
    s.wait_for("○ bob");
    s.wait_for("10:00");
    let mut spy = Spy::watch(&url);
    let mut restarted = false;
    let mut client_restarted = false;
    while let Some(square) = spy.blacks_turn() {
        let ply = spy.plies();
        if ply >= 10 && !restarted {
            restarted = true;
            server.kill();
            s.wait_for("reconnecting");
            let (again, url2) = spawn_server(&listen, &db);
            assert_eq!(url2, url, "the same port again");
            server = again;
            s.wait_until("connected again", |sc| {
                sc.contains("connected") && !sc.contains("reconnecting")
            });
            spy = Spy::watch(&url);
            continue;
        }
        if ply >= 16 && !client_restarted {
            // The client itself dies mid-game and is started again without
            // --create or --join: the remembered session token takes it back
            // to its seat.
            client_restarted = true;
            drop(s);
            s = Session::start(&dir.0, &["online", &url, "--name", "ann"]);
            s.wait_for("Table 1");
        }
        s.wait_until(&format!("{ply} moves, Black to move"), |sc| {
            plies_shown(sc) == Some(ply) && sc.contains("your turn")
        });
        s.keys(&square);
        // The move appears on the screen (the bot's answer may follow at once).
        s.wait_until(&format!("move {} in the list", ply + 1), |sc| {
            plies_shown(sc).is_some_and(|n| n > ply)
        });
    }
    assert!(restarted, "the game lasted past the restart");
    assert!(
        client_restarted,
        "the game lasted past the client's restart"
    );
    s.wait_until("the result", |sc| {
        sc.contains("wins") || sc.contains("Draw")
    });
    let total = spy.plies();
    s.wait_until(&format!("{total} moves"), |sc| {
        plies_shown(sc) == Some(total)
    });
    s.wait_for("Game kept in");
    // The bot saw the same game: one line at its end.
    let out = bot.take().wait_with_output().unwrap();
    let line = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "the bot ended well: {line}");
    assert!(
        line.contains("table 1: ann (black) - bob (white)")
            && line.contains(&format!(", {total} moves, you white")),
        "{line}"
    );
    // Back to the lobby, then quit.
    s.keys("q");
    s.wait_for("Salon");
    s.keys("q");
    assert!(s.finish(), "clean exit status");
    s.assert_terminal_restored();
    let kept = std::fs::read_dir(dir.0.join("games")).unwrap().count();
    assert_eq!(kept, 1, "the finished game was kept");
    server.kill();
}
