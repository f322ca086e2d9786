//! Shared helpers of the salon tests: a temporary database folder, the real
//! server on 127.0.0.1:0 (with a lobby configuration of the test's choice),
//! and a client that says hello, waits for messages and seats two players.
#![allow(dead_code)]

use reversi::net::client::Connection;
use reversi::net::lobby::LobbyConfig;
use reversi::net::protocol::{
    ClientMsg, ColourChoice, ErrorCode, GameState, Opponent, PROTOCOL_VERSION, ServerMsg, TableId,
    TableSpec, TableStatus,
};
use reversi::net::server::{Server, ServerClock, ServerConfig, start};
use reversi::net::store::SqliteStore;
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
    table
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
