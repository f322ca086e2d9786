//! The salon's tables and storage end to end, on the real server
//! (127.0.0.1:0, a temporary SQLite database) with real clients: names that
//! look like a name in use are refused, games whose players are gone end as
//! abandoned (stored and exported like any result), an engine left alone
//! frees its seat, the live list and `welcome` stay small after many games,
//! chat lines that clean to nothing are refused, a database of the first
//! layout is upgraded and its sessions resume, and `--export` reads a
//! database it may not write.

mod common_salon;

use common_salon::{TempDir, error, game, hello, seat_pair, server_with, until};
use reversi::ai::Level;
use reversi::net::client::Connection;
use reversi::net::lobby::LobbyConfig;
use reversi::net::protocol::{
    ClientMsg, ColourChoice, EndReason, ErrorCode, GameResult, MoveRecord, Opponent,
    PROTOCOL_VERSION, Seat, ServerMsg, Side, TableId, TableSpec, encode,
};
use reversi::net::server::Server;
use reversi::net::store::{SqliteStore, Store, StoreOp, export_ggf};
use reversi::notation::ggf::{EndedEarly, parse_ggf};

/// Waits short enough for a test.
fn lobby() -> LobbyConfig {
    LobbyConfig {
        claim_after_ms: 300,
        abandon_after_ms: 300,
        finished_listed_ms: 200,
        max_ai_tables: 1,
        ..LobbyConfig::default()
    }
}

fn ended(m: ServerMsg) -> Option<(TableId, GameResult)> {
    match m {
        ServerMsg::Ended { table, result } => Some((table, result)),
        _ => None,
    }
}

/// A connection that said hello as `name`, and the server's first answer.
async fn try_hello(
    url: &str,
    name: &str,
    token: Option<String>,
    lobby: bool,
) -> (Connection, ServerMsg) {
    let mut c = Connection::open(url).await.unwrap();
    c.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.into(),
        token,
        lobby,
    })
    .await
    .unwrap();
    let first = common_salon::recv(&mut c).await;
    (c, first)
}

/// A server on `dir` with ann (Black) and bob (White) at a table without a
/// clock: the server, ann, bob and the table.
async fn a_game(dir: &TempDir) -> (Server, String, Connection, Connection, TableId) {
    let (server, url) = server_with(dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    (server, url, ann, bob, table)
}

async fn watcher(url: &str, name: &str, table: TableId) -> Connection {
    let (mut c, _) = hello(url, name, None).await;
    c.send(&ClientMsg::Watch { table }).await.unwrap();
    until(&mut c, game).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_look_like_one_in_use_are_refused() {
    let dir = TempDir::new("lookalike");
    let (server, url) = server_with(&dir, lobby()).await;
    let (_ann, token) = hello(&url, "ann", None).await;
    for name in ["\u{430}nn", "ａnn", "𝐚𝐧𝐧", "ANN"] {
        let (_c, first) = try_hello(&url, name, None, false).await;
        let (code, message) = error(first).expect(name);
        assert!(
            matches!(code, ErrorCode::NameTaken | ErrorCode::BadName),
            "{name}: {code:?}"
        );
        assert!(
            message.contains("ann") || message.contains("one script"),
            "{name}: {message}"
        );
    }
    // Ann herself, under another spelling, with her token.
    let (_c, first) = try_hello(&url, "ＡＮＮ", Some(token), false).await;
    assert!(
        matches!(&first, ServerMsg::Welcome { name, resumed: true, .. } if name == "ann"),
        "{first:?}"
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_both_players_left_ends_stored_and_exported_as_abandoned() {
    let dir = TempDir::new("abandoned");
    let (server, url, mut ann, bob, table) = a_game(&dir).await;
    common_salon::play(&mut ann, table, "d3").await;
    let mut cy = watcher(&url, "cy", table).await;
    drop(ann);
    drop(bob);
    let (t, result) = until(&mut cy, ended).await;
    assert_eq!(t, table);
    assert_eq!(
        (result.winner, result.reason, result.black, result.white),
        (None, EndReason::Abandoned, 4, 1)
    );
    server.shutdown().await.unwrap();
    let mut store = SqliteStore::open_read_only(&dir.db()).unwrap();
    let finished = store.finished().unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].result, Some(result));
    let (text, n) = export_ggf(&mut store).unwrap();
    assert_eq!(n, 1);
    assert!(text.contains("RE[+0:s]"), "{text}");
    let back = parse_ggf(&text).unwrap();
    assert_eq!(back[0].ended_early, Some(EndedEarly::Agreed));
    assert_eq!(back[0].game.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_table_left_by_its_player_ends_and_frees_the_engine() {
    let dir = TempDir::new("engine-left");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let spec = TableSpec {
        colour: ColourChoice::Black,
        opponent: Opponent::Ai { level: Level::MIN },
        ..TableSpec::default()
    };
    ann.send(&ClientMsg::Create(spec.clone())).await.unwrap();
    let table = until(&mut ann, game).await.table.id;
    let mut bob = watcher(&url, "bob", table).await;
    drop(ann);
    let (t, result) = until(&mut bob, ended).await;
    assert_eq!(t, table);
    assert_eq!(result.reason, EndReason::Abandoned);
    assert_eq!(result.winner, Some(Side::White));
    bob.send(&ClientMsg::Create(spec)).await.unwrap();
    let g = until(&mut bob, |m| match m {
        ServerMsg::Game(g) if g.table.id != table => Some(Ok(g)),
        ServerMsg::Error { code, .. } => Some(Err(code)),
        _ => None,
    })
    .await;
    assert!(g.is_ok(), "the engine is free again: {g:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_welcome_stays_small_after_many_games() {
    let dir = TempDir::new("small-welcome");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut spy, first) = try_hello(&url, "spy", None, true).await;
    assert!(matches!(first, ServerMsg::Welcome { .. }));
    let empty = encode(&first).len();
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let games = 20;
    for _ in 0..games {
        let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
        ann.send(&ClientMsg::Resign { table }).await.unwrap();
        until(&mut ann, ended).await;
        // Both stay connected, seated at their finished table until it
        // leaves the list.
        until(&mut spy, |m| {
            matches!(m, ServerMsg::TableClosed { table: t } if t == table).then_some(())
        })
        .await;
        ann.send(&ClientMsg::Leave { table }).await.unwrap();
        bob.send(&ClientMsg::Leave { table }).await.unwrap();
    }
    let (_late, first) = try_hello(&url, "late", None, true).await;
    let ServerMsg::Welcome { tables, .. } = &first else {
        panic!("{first:?}")
    };
    assert!(tables.is_empty(), "{tables:?}");
    // As large as the welcome of the empty salon ("late" is one letter
    // longer than "spy").
    let bytes = encode(&first).len();
    assert!(
        bytes <= empty + 1,
        "welcome of {bytes} bytes after {games} games, {empty} before"
    );
    server.shutdown().await.unwrap();
    let mut store = SqliteStore::open(&dir.db()).unwrap();
    assert_eq!(store.finished().unwrap().len(), games);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_line_that_cleans_to_nothing_is_refused() {
    let dir = TempDir::new("chat-empty");
    let (server, _url, mut ann, mut bob, table) = a_game(&dir).await;
    let chat = |text: &str| ClientMsg::Chat {
        table,
        text: text.into(),
    };
    ann.send(&chat("\u{200b}\u{2060}\u{feff}")).await.unwrap();
    let (code, _) = until(&mut ann, error).await;
    assert_eq!(code, ErrorCode::BadRequest);
    ann.send(&chat("gg\u{2028}wp\u{200d}")).await.unwrap();
    let said = until(&mut bob, |m| match m {
        ServerMsg::Chat { text, .. } => Some(text),
        _ => None,
    })
    .await;
    assert_eq!(said, "gg wp");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_the_first_layout_resumes_its_sessions() {
    let dir = TempDir::new("layout-0");
    {
        let conn = rusqlite::Connection::open(dir.db()).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode=WAL;
             CREATE TABLE sessions (name TEXT PRIMARY KEY, token TEXT NOT NULL);
             CREATE TABLE games (id INTEGER PRIMARY KEY, spec TEXT NOT NULL, black TEXT NOT NULL,
                 white TEXT NOT NULL, started INTEGER NOT NULL, result TEXT);
             CREATE TABLE waiting (id INTEGER PRIMARY KEY, spec TEXT NOT NULL, creator TEXT NOT NULL);
             CREATE TABLE moves (game INTEGER NOT NULL, ply INTEGER NOT NULL, side TEXT NOT NULL,
                 square TEXT NOT NULL, black_ms INTEGER, white_ms INTEGER,
                 PRIMARY KEY (game, ply)) WITHOUT ROWID;
             INSERT INTO sessions VALUES ('Ann', '0123456789abcdef0123456789abcdef');
             INSERT INTO waiting VALUES (7, '{\"colour\":\"white\"}', '{\"kind\":\"player\",\"name\":\"Ann\"}');",
        )
        .unwrap();
    }
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, first) = try_hello(
        &url,
        "ａｎｎ",
        Some("0123456789abcdef0123456789abcdef".into()),
        false,
    )
    .await;
    assert!(
        matches!(&first, ServerMsg::Welcome { name, resumed: true, .. } if name == "Ann"),
        "{first:?}"
    );
    let g = until(&mut ann, game).await;
    assert_eq!(g.table.id, 7);
    assert_eq!(g.you, Some(Side::White));
    server.shutdown().await.unwrap();
    let conn = rusqlite::Connection::open(dir.db()).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, reversi::net::store::SCHEMA_VERSION);
}

/// `reversi server --export` from a database file that is read-only in a
/// folder that is read-only. Run as root, the export runs as `nobody`, for
/// whom the permissions hold.
#[test]
fn the_export_reads_a_database_it_cannot_write() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    let dir = TempDir::new("export-ro");
    let folder = dir.db().parent().unwrap().join("ro");
    std::fs::create_dir_all(&folder).unwrap();
    let db = folder.join("salon.sqlite");
    {
        // A finished game, written as the server writes it; the store is
        // closed (its write-ahead log folded in) before the test goes on.
        let mut store = SqliteStore::open(&db).unwrap();
        let seat = |n: &str| Seat::Player { name: n.into() };
        store
            .commit(&[
                StoreOp::Start {
                    table: 1,
                    spec: TableSpec::default(),
                    black: seat("ann"),
                    white: seat("bob"),
                },
                StoreOp::Move {
                    table: 1,
                    ply: 1,
                    record: MoveRecord {
                        side: Side::Black,
                        square: "d3".into(),
                        black_ms: None,
                        white_ms: None,
                    },
                },
                StoreOp::Finish {
                    table: 1,
                    result: GameResult {
                        winner: Some(Side::White),
                        black: 4,
                        white: 1,
                        reason: EndReason::Resigned,
                    },
                },
            ])
            .unwrap();
    }
    let out_dir = dir.db().parent().unwrap().join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    std::fs::set_permissions(&out_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let before: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    let content = std::fs::read(&db).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = out_dir.join("games.ggf");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"));
    cmd.arg("server")
        .arg("--db")
        .arg(&db)
        .arg("--export")
        .arg(&out);
    // SAFETY: geteuid only reads the process's user id.
    if unsafe { libc::geteuid() } == 0 {
        cmd.uid(65534).gid(65534);
    }
    let done = cmd.output().unwrap();
    std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("RE[-64:r]"), "{text}");
    let after: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(before, after, "nothing new in the database's folder");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        content,
        "the database unchanged"
    );
}
