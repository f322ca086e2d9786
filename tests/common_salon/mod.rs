//! Shared helpers of the salon tests: a temporary database folder, the real
//! server on 127.0.0.1:0 (with a lobby configuration of the test's choice),
//! and a client that says hello, waits for messages and seats two players.
#![allow(dead_code)]

use reversi::net::client::{Connection, GameView};
use reversi::net::lobby::LobbyConfig;
use reversi::net::protocol::{
    ClientMsg, ColourChoice, ErrorCode, GameState, Opponent, PROTOCOL_VERSION, ServerMsg, TableId,
    TableSpec, TableStatus,
};
use reversi::net::server::{Server, ServerClock, ServerConfig, start};
use reversi::net::store::SqliteStore;
use reversi::rules::Move;
use std::path::PathBuf;
use std::time::Duration;

/// A temporary folder, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh folder for `tag`.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("reversi-salon-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    /// The database in it.
    pub fn db(&self) -> PathBuf {
        self.0.join("salon.sqlite")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The server with its default limits on a free port; returns its URL too.
pub async fn server(dir: &TempDir) -> (Server, String) {
    server_with(dir, LobbyConfig::default()).await
}

/// The server with the lobby's limits `lobby` (a short grace period, say).
pub async fn server_with(dir: &TempDir, lobby: LobbyConfig) -> (Server, String) {
    server_timed(dir, lobby, ServerClock::default()).await
}

/// [`server_with`] whose lobby reads the time from `clock` (one moved by
/// hand, say).
pub async fn server_timed(
    dir: &TempDir,
    lobby: LobbyConfig,
    clock: ServerClock,
) -> (Server, String) {
    let config = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        lobby,
        clock,
        ..ServerConfig::default()
    };
    let store = SqliteStore::open(&dir.db()).unwrap();
    let s = start(config, Box::new(store)).await.unwrap();
    let url = format!("ws://{}", s.addr());
    (s, url)
}

/// The next message, within 10 s.
pub async fn recv(c: &mut Connection) -> ServerMsg {
    tokio::time::timeout(Duration::from_secs(10), c.recv())
        .await
        .expect("a message within 10 s")
        .expect("an open connection")
}

/// Receives until `pick` returns something.
pub async fn until<T>(c: &mut Connection, mut pick: impl FnMut(ServerMsg) -> Option<T>) -> T {
    loop {
        if let Some(t) = pick(recv(c).await) {
            return t;
        }
    }
}

/// A new connection saying hello as `name` (resuming with `token`).
pub async fn hello(url: &str, name: &str, token: Option<String>) -> (Connection, String) {
    let mut c = Connection::open(url).await.unwrap();
    c.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.into(),
        token,
        lobby: false,
    })
    .await
    .unwrap();
    let token = until(&mut c, |m| match m {
        ServerMsg::Welcome { token, .. } => Some(token),
        ServerMsg::Error { message, .. } => panic!("hello refused: {message}"),
        _ => None,
    })
    .await;
    (c, token)
}

/// The `game` message, if it is one.
pub fn game(m: ServerMsg) -> Option<GameState> {
    match m {
        ServerMsg::Game(g) => Some(*g),
        _ => None,
    }
}

/// The error's code and message, if it is one.
pub fn error(m: ServerMsg) -> Option<(ErrorCode, String)> {
    match m {
        ServerMsg::Error { code, message, .. } => Some((code, message)),
        _ => None,
    }
}

/// `a` (Black) and `b` (White) sit at a new table; returns its number.
pub async fn seat_pair(
    a: &mut Connection,
    b: &mut Connection,
    b_name: &str,
    clock: bool,
) -> TableId {
    seat_pair_state(a, b, b_name, clock).await.table.id
}

/// `a` (Black) and `b` (White) sit at a new table; returns the game's
/// state as `b` first sees it.
pub async fn seat_pair_state(
    a: &mut Connection,
    b: &mut Connection,
    b_name: &str,
    clock: bool,
) -> GameState {
    a.send(&ClientMsg::Create(TableSpec {
        colour: ColourChoice::Black,
        opponent: Opponent::Invite {
            name: b_name.into(),
        },
        clock: clock.then_some(reversi::net::protocol::ClockSpec {
            base_ms: 600_000,
            increment_ms: 0,
        }),
        ..TableSpec::default()
    }))
    .await
    .unwrap();
    let table = until(a, game).await.table.id;
    b.send(&ClientMsg::Join { table }).await.unwrap();
    let g = until(b, game).await;
    assert_eq!(g.table.status, TableStatus::Playing);
    assert_eq!(until(a, game).await.table.status, TableStatus::Playing);
    g
}

/// Plays `square` at `table`.
pub async fn play(c: &mut Connection, table: TableId, square: &str) {
    c.send(&ClientMsg::Move {
        table,
        square: square.into(),
    })
    .await
    .unwrap();
}

/// Plays the first legal move for whoever is to move until the game ends;
/// returns the squares of every move of the game.
pub async fn finish(
    a: &mut Connection,
    b: &mut Connection,
    table: TableId,
    state: &GameState,
) -> Vec<String> {
    let mut view = GameView::from_state(state).unwrap();
    loop {
        if view.game.outcome().is_some() {
            return view.moves.into_iter().map(|m| m.square).collect();
        }
        let mover = if view.game.side_to_move() == reversi::rules::Color::Black {
            &mut *a
        } else {
            &mut *b
        };
        let mv = view.game.position().moves_list()[0];
        let Move::Place(sq) = mv else {
            unreachable!("passes are automatic")
        };
        play(mover, table, &sq.to_string()).await;
        let before = view.moves.len();
        loop {
            match recv(a).await {
                ServerMsg::Moved { ply, mv, .. } => view.apply(ply, &mv).unwrap(),
                ServerMsg::Error { message, .. } => panic!("{message}"),
                _ => {}
            }
            if view.moves.len() > before
                && (view.game.outcome().is_some() || view.game.position().has_legal_move())
            {
                break;
            }
        }
    }
}

/// The real binary: `reversi server --db DB` on port 0; returns it and its URL.
pub fn spawn_server(db: &std::ffi::OsStr) -> (std::process::Child, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["server", "--listen", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("ws://"))
        .unwrap()
        .to_string();
    (child, url)
}

/// The real binary on `db`: ann and bob finish a game, then play six
/// moves of a second game with clocks, each acknowledged; the server is
/// killed (SIGKILL) and started again on the same database; both players
/// resume with their tokens and find every move and the clocks where they
/// were; they finish the game and the server is killed again. Returns the
/// squares of both games, in the order of their tables.
pub async fn killed_mid_game(db: &std::ffi::OsStr) -> Vec<Vec<String>> {
    let (mut child, url) = spawn_server(db);
    let (mut a, token_a) = hello(&url, "ann", None).await;
    let (mut b, token_b) = hello(&url, "bob", None).await;
    let first = seat_pair_state(&mut a, &mut b, "bob", false).await;
    let first = finish(&mut a, &mut b, first.table.id, &first).await;
    let table = seat_pair(&mut a, &mut b, "bob", true).await;
    let opening = ["f5", "d6", "c3", "d3", "c4", "f4"];
    let mut last = None;
    for (i, sq) in opening.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut a } else { &mut b };
        play(mover, table, sq).await;
        last = Some(
            until(&mut a, |m| match m {
                ServerMsg::Moved { ply, mv, .. } if ply == i + 1 => Some(mv),
                _ => None,
            })
            .await,
        );
    }
    // Every move above was acknowledged; now SIGKILL.
    child.kill().unwrap();
    child.wait().unwrap();
    drop((a, b));
    let (mut child, url) = spawn_server(db);
    let (mut a, _) = hello(&url, "ann", Some(token_a)).await;
    let state = until(&mut a, game).await;
    let (mut b, _) = hello(&url, "bob", Some(token_b)).await;
    assert_eq!(state.table.id, table);
    let squares: Vec<_> = state.moves.iter().map(|m| m.square.as_str()).collect();
    assert_eq!(squares, opening);
    let last = last.unwrap();
    // The clocks resume from the last move's times (Black's running again).
    assert_eq!(state.white_ms, last.white_ms);
    let (now, then) = (state.black_ms.unwrap(), last.black_ms.unwrap());
    assert!(now <= then && now + 5000 >= then, "{now} {then}");
    let second = finish(&mut a, &mut b, table, &state).await;
    assert!(second.len() > opening.len());
    assert_eq!(second[..opening.len()], opening);
    child.kill().unwrap();
    child.wait().unwrap();
    vec![first, second]
}
