//! The salon end to end: the real server on 127.0.0.1:0 with a temporary
//! SQLite database, in-process (and the real binary for the kill -9 test),
//! driven by the real client.

mod common_salon;

use common_salon::{
    TempDir, error, game, hello, killed_mid_game, play, recv, seat_pair, server, until,
};
use reversi::net::client::{
    BotConfig, BotEvent, BotPlayer, Connection, GameSummary, GameView, Seating, run_bot,
};
use reversi::net::protocol::{
    ClientMsg, ColourChoice, ErrorCode, Opponent, PROTOCOL_VERSION, ServerMsg, TableSpec,
    TableStatus,
};
use reversi::net::server::{ServerConfig, start};
use reversi::net::store::{SqliteStore, Store, export_ggf};
use std::time::Duration;

/// A bot's report that keeps its finished games in `lines`.
fn finished_games(lines: &mut Vec<GameSummary>) -> impl FnMut(&BotEvent) + Send + '_ {
    |e| {
        if let BotEvent::Finished(g) = e {
            lines.push(g.clone());
        }
    }
}

fn bot(url: &str, name: &str, seating: Seating) -> BotConfig {
    BotConfig {
        url: url.into(),
        trust: reversi::net::client::Trust::default(),
        token: None,
        name: name.into(),
        player: BotPlayer::Engine(reversi::ai::Limits::depth(1)),
        games: 1,
        seating,
        spec: TableSpec::default(),
        give_up_after: Duration::from_secs(10),
        seed: 7,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_finish_a_game_and_a_spectator_sees_every_move() {
    let dir = TempDir::new("bots");
    let (server, url) = server(&dir).await;
    // The spectator follows the lobby and watches the first table it sees.
    let mut spy = Connection::open(&url).await.unwrap();
    spy.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "spy".into(),
        token: None,
        lobby: true,
    })
    .await
    .unwrap();
    // Subscribed to the lobby before the bots arrive.
    until(&mut spy, |m| {
        matches!(m, ServerMsg::Welcome { .. }).then_some(())
    })
    .await;
    let a = bot(&url, "ann", Seating::Create);
    // Bob plays as `--bot greedy` does: a reference player, no search.
    let b = BotConfig {
        player: BotPlayer::Reference(reversi::ai::Reference::Greedy),
        ..bot(&url, "bob", Seating::Auto)
    };
    let bots = tokio::spawn(async move {
        let mut events = Vec::new();
        let ra = run_bot(&a, &mut |e: &BotEvent| events.push(e.clone()))
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(1)).await;
        // Ann says where she sits and when her game starts, before it ends.
        let started = events
            .iter()
            .position(|e| matches!(e, BotEvent::Seated { waiting: false, .. }));
        let ended = events
            .iter()
            .position(|e| matches!(e, BotEvent::Finished(_)));
        assert!(started.is_some() && started < ended, "{events:?}");
        let lines: Vec<GameSummary> = events
            .into_iter()
            .filter_map(|e| match e {
                BotEvent::Finished(g) => Some(g),
                _ => None,
            })
            .collect();
        (ra, lines)
    });
    let bob = tokio::spawn(async move {
        let mut lines = Vec::new();
        run_bot(&b, &mut finished_games(&mut lines)).await.unwrap();
        lines
    });
    // The table where the game starts (both bots may have created one).
    let table = until(&mut spy, |m| match m {
        ServerMsg::Table { table } if table.status == TableStatus::Playing => Some(table.id),
        _ => None,
    })
    .await;
    spy.send(&ClientMsg::Watch { table }).await.unwrap();
    let mut view = GameView::from_state(&until(&mut spy, game).await).unwrap();
    let result = loop {
        match recv(&mut spy).await {
            ServerMsg::Moved {
                table: t, ply, mv, ..
            } if t == table => view.apply(ply, &mv).unwrap(),
            ServerMsg::Ended { table: t, result } if t == table => break result,
            _ => {}
        }
    };
    let (done, ann) = bots.await.unwrap();
    let bob = bob.await.unwrap();
    assert_eq!(done, 1);
    assert_eq!(ann.len(), 1);
    assert_eq!(bob.len(), 1);
    assert_eq!(ann[0].result, result);
    assert_eq!(bob[0].result, result);
    assert_ne!(ann[0].you, bob[0].you);
    // The spectator saw the whole game, and it is over by the rules.
    assert_eq!(view.moves.len(), ann[0].moves);
    let outcome = view.game.outcome().expect("the game is over");
    assert_eq!((outcome.black, outcome.white), (result.black, result.white));
    server.shutdown().await.unwrap();
    let mut store = SqliteStore::open(&dir.db()).unwrap();
    let (ggf, n) = export_ggf(&mut store).unwrap();
    assert_eq!(n, 1);
    assert!(
        ggf.contains("TY[8]") && ggf.contains("RU[normal empties-to-nobody]"),
        "{ggf}"
    );
}

/// A bot told to join a table that does not exist stops with the server's
/// refusal; it does not create a table of its own instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_joining_a_missing_table_is_refused_and_creates_none() {
    let dir = TempDir::new("nojoin");
    let (server, url) = server(&dir).await;
    let (mut spy, _) = hello(&url, "spy", None).await;
    let b = bot(&url, "bob", Seating::Join(999));
    let err = tokio::time::timeout(Duration::from_secs(10), run_bot(&b, &mut |_| {}))
        .await
        .expect("the bot stops at once")
        .expect_err("the join is refused");
    assert!(
        matches!(
            err,
            reversi::net::client::ClientError::Refused {
                code: reversi::net::protocol::ErrorCode::NoSuchTable,
                ..
            }
        ),
        "{err:?}"
    );
    spy.send(&ClientMsg::List).await.unwrap();
    let tables = until(&mut spy, |m| match m {
        ServerMsg::Tables { tables } => Some(tables),
        _ => None,
    })
    .await;
    assert!(tables.is_empty(), "{tables:?}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_are_checked_for_seat_turn_and_rules() {
    let dir = TempDir::new("checks");
    let (server, url) = server(&dir).await;
    let (mut a, _) = hello(&url, "ann", None).await;
    let (mut b, _) = hello(&url, "bob", None).await;
    let (mut c, _) = hello(&url, "cy", None).await;
    let table = seat_pair(&mut a, &mut b, "bob", false).await;
    // Out of turn: White moves first.
    play(&mut b, table, "c4").await;
    let (code, message) = until(&mut b, error).await;
    assert_eq!(code, ErrorCode::NotYourTurn);
    assert!(message.contains("Black's turn"), "{message}");
    // Not seated.
    play(&mut c, table, "d3").await;
    assert_eq!(until(&mut c, error).await.0, ErrorCode::NotSeated);
    // Against the rules.
    play(&mut a, table, "a1").await;
    let (code, message) = until(&mut a, error).await;
    assert_eq!(code, ErrorCode::IllegalMove);
    assert!(message.contains("a1"), "{message}");
    play(&mut a, table, "z9").await;
    assert_eq!(until(&mut a, error).await.0, ErrorCode::IllegalMove);
    // A legal move is acknowledged to both.
    play(&mut a, table, "d3").await;
    for conn in [&mut a, &mut b] {
        let ply = until(conn, |m| match m {
            ServerMsg::Moved { ply, mv, .. } => Some((ply, mv.square)),
            _ => None,
        })
        .await;
        assert_eq!(ply, (1, "d3".to_string()));
    }
    // A seat at an invited table is not for others.
    c.send(&ClientMsg::Create(TableSpec {
        opponent: Opponent::Invite { name: "dee".into() },
        ..TableSpec::default()
    }))
    .await
    .unwrap();
    let other = until(&mut c, game).await.table.id;
    a.send(&ClientMsg::Join { table: other }).await.unwrap();
    assert_eq!(until(&mut a, error).await.0, ErrorCode::NotInvited);
    // Nor can a table be only for its own creator, in any letter case.
    a.send(&ClientMsg::Create(TableSpec {
        opponent: Opponent::Invite { name: "ANN".into() },
        ..TableSpec::default()
    }))
    .await
    .unwrap();
    let (code, message) = until(&mut a, error).await;
    assert_eq!(code, ErrorCode::BadTable, "{message}");
    // Names differing only in case are one name: "Ann" is ann's, and the
    // invitation for "dee" seats "Dee".
    let mut imposter = Connection::open(&url).await.unwrap();
    imposter
        .send(&ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "Ann".into(),
            token: None,
            lobby: false,
        })
        .await
        .unwrap();
    assert_eq!(until(&mut imposter, error).await.0, ErrorCode::NameTaken);
    let (mut d, _) = hello(&url, "Dee", None).await;
    d.send(&ClientMsg::Join { table: other }).await.unwrap();
    let seated = until(&mut d, game).await;
    assert_eq!(seated.table.id, other);
    assert!(seated.you.is_some(), "Dee sits at the table for dee");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_needs_the_opponents_consent() {
    let dir = TempDir::new("undo");
    let (server, url) = server(&dir).await;
    let (mut a, _) = hello(&url, "ann", None).await;
    let (mut b, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut a, &mut b, "bob", true).await;
    play(&mut a, table, "d3").await;
    until(&mut b, |m| {
        matches!(m, ServerMsg::Moved { .. }).then_some(())
    })
    .await;
    a.send(&ClientMsg::Undo { table }).await.unwrap();
    let by = until(&mut b, |m| match m {
        ServerMsg::UndoRequested { by, .. } => Some(by),
        _ => None,
    })
    .await;
    assert_eq!(by, reversi::net::protocol::Side::Black);
    // The requester cannot accept its own request.
    a.send(&ClientMsg::UndoReply {
        table,
        accept: true,
    })
    .await
    .unwrap();
    assert_eq!(until(&mut a, error).await.0, ErrorCode::Undo);
    b.send(&ClientMsg::UndoReply {
        table,
        accept: false,
    })
    .await
    .unwrap();
    until(&mut a, |m| {
        matches!(m, ServerMsg::UndoDeclined { .. }).then_some(())
    })
    .await;
    a.send(&ClientMsg::Watch { table }).await.unwrap();
    assert_eq!(
        until(&mut a, game).await.moves.len(),
        1,
        "a declined take-back changes nothing"
    );
    a.send(&ClientMsg::Undo { table }).await.unwrap();
    until(&mut b, |m| {
        matches!(m, ServerMsg::UndoRequested { .. }).then_some(())
    })
    .await;
    b.send(&ClientMsg::UndoReply {
        table,
        accept: true,
    })
    .await
    .unwrap();
    let (ply, to_move, black_ms) = until(&mut a, |m| match m {
        ServerMsg::Undone {
            ply,
            to_move,
            black_ms,
            ..
        } => Some((ply, to_move, black_ms)),
        _ => None,
    })
    .await;
    assert_eq!((ply, to_move), (0, reversi::net::protocol::Side::Black));
    assert_eq!(
        black_ms,
        Some(600_000),
        "the clock is as it was before the move"
    );
    // White has nothing to take back.
    b.send(&ClientMsg::Undo { table }).await.unwrap();
    assert_eq!(until(&mut b, error).await.0, ErrorCode::Undo);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_client_resumes_its_seat_with_the_token() {
    let dir = TempDir::new("resume");
    let (server, url) = server(&dir).await;
    let (mut a, token) = hello(&url, "ann", None).await;
    let (mut b, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut a, &mut b, "bob", true).await;
    play(&mut a, table, "d3").await;
    until(&mut a, |m| {
        matches!(m, ServerMsg::Moved { .. }).then_some(())
    })
    .await;
    drop(a);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // The name stays taken, and a wrong token is refused.
    let mut x = Connection::open(&url).await.unwrap();
    x.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "ann".into(),
        token: Some("0".repeat(32)),
        lobby: false,
    })
    .await
    .unwrap();
    assert_eq!(until(&mut x, error).await.0, ErrorCode::BadToken);
    // The real token resumes the seat with the game and the clocks.
    let mut a = Connection::open(&url).await.unwrap();
    a.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "ann".into(),
        token: Some(token),
        lobby: false,
    })
    .await
    .unwrap();
    let resumed = until(&mut a, |m| match m {
        ServerMsg::Welcome { resumed, .. } => Some(resumed),
        _ => None,
    })
    .await;
    assert!(resumed);
    let g = until(&mut a, game).await;
    assert_eq!(g.you, Some(reversi::net::protocol::Side::Black));
    assert_eq!(g.moves.len(), 1);
    assert!(g.black_ms.unwrap() <= 600_000 && g.white_ms.unwrap() <= 600_000);
    play(&mut b, table, "c3").await;
    let ply = until(&mut a, |m| match m {
        ServerMsg::Moved { ply, .. } => Some(ply),
        _ => None,
    })
    .await;
    assert_eq!(ply, 2, "the resumed player hears the opponent's move");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_oversized_frames_close_that_connection_with_a_reason() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let dir = TempDir::new("frames");
    let (server, url) = server(&dir).await;
    let (mut good, _) = hello(&url, "good", None).await;
    let cases: [(Message, u16, &str); 4] = [
        (Message::Text("{not json".into()), 1007, "malformed"),
        (
            Message::Text(r#"{"type":"move","table":"x"}"#.into()),
            1007,
            "malformed",
        ),
        (
            Message::Text(
                format!(
                    r#"{{"type":"chat","table":1,"text":"{}"}}"#,
                    "x".repeat(5000)
                )
                .into(),
            ),
            1009,
            "limit",
        ),
        (Message::Binary(vec![1, 2, 3].into()), 1003, "binary"),
    ];
    for (frame, code, reason) in cases {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        ws.send(frame).await.unwrap();
        let close = tokio::time::timeout(Duration::from_secs(5), async {
            while let Some(m) = ws.next().await {
                if let Ok(Message::Close(c)) = m {
                    return c;
                }
            }
            None
        })
        .await
        .unwrap()
        .expect("a close frame");
        assert_eq!(u16::from(close.code), code, "{}", close.reason);
        assert!(close.reason.contains(reason), "{}", close.reason);
    }
    // A frame far over the cap only drops its own connection.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let _ = ws.send(Message::Text("y".repeat(1 << 20).into())).await;
    good.send(&ClientMsg::Ping { id: 9 }).await.unwrap();
    assert_eq!(
        until(&mut good, |m| match m {
            ServerMsg::Pong { id } => Some(id),
            _ => None,
        })
        .await,
        9
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_and_chat_lines_arrive_cleaned() {
    let dir = TempDir::new("clean");
    let (server, url) = server(&dir).await;
    let mut a = Connection::open(&url).await.unwrap();
    a.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "ev\u{1b}[31mil\u{7}".into(),
        token: None,
        lobby: false,
    })
    .await
    .unwrap();
    let name = until(&mut a, |m| match m {
        ServerMsg::Welcome { name, .. } => Some(name),
        _ => None,
    })
    .await;
    assert_eq!(name, "evil");
    let (mut b, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut a, &mut b, "bob", false).await;
    a.send(&ClientMsg::Chat {
        table,
        text: "\u{1b}]0;owned\u{7}hello\u{1b}[2J \u{9b}1mthere\r\n".into(),
    })
    .await
    .unwrap();
    let (from, text) = until(&mut b, |m| match m {
        ServerMsg::Chat { from, text, .. } => Some((from, text)),
        _ => None,
    })
    .await;
    assert_eq!((from.as_str(), text.as_str()), ("evil", "hello there"));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_game_comes_back_with_every_acknowledged_move() {
    let dir = TempDir::new("kill");
    let played = killed_mid_game(dir.db().as_os_str()).await;
    let mut store = SqliteStore::open(&dir.db()).unwrap();
    let stored: Vec<Vec<String>> = store
        .finished()
        .unwrap()
        .iter()
        .map(|g| g.moves.iter().map(|m| m.square.clone()).collect())
        .collect();
    assert_eq!(stored, played);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_reconnect_by_themselves_after_a_server_restart() {
    let dir = TempDir::new("restart");
    let (server, url) = server(&dir).await;
    let addr = server.addr();
    let mut spy = Connection::open(&url).await.unwrap();
    spy.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "spy".into(),
        token: None,
        lobby: true,
    })
    .await
    .unwrap();
    until(&mut spy, |m| {
        matches!(m, ServerMsg::Welcome { .. }).then_some(())
    })
    .await;
    let mut a = bot(&url, "ann", Seating::Create);
    // Slow enough to be stopped mid-game.
    a.player = BotPlayer::Engine(reversi::ai::Limits {
        time: Some(Duration::from_millis(20)),
        ..reversi::ai::Limits::depth(60)
    });
    let b = BotConfig {
        player: a.player,
        ..bot(&url, "bob", Seating::Auto)
    };
    let run = |config: BotConfig| {
        tokio::spawn(async move {
            let mut lines = Vec::new();
            let played = run_bot(&config, &mut finished_games(&mut lines)).await;
            played.map(|_| lines)
        })
    };
    let (ta, tb) = (run(a), run(b));
    // The table where the game starts (both bots may have created one).
    let table = until(&mut spy, |m| match m {
        ServerMsg::Table { table } if table.status == TableStatus::Playing => Some(table.id),
        _ => None,
    })
    .await;
    spy.send(&ClientMsg::Watch { table }).await.unwrap();
    until(&mut spy, |m| {
        matches!(m, ServerMsg::Moved { ply: 6, .. }).then_some(())
    })
    .await;
    server.shutdown().await.unwrap();
    // The same address, the same database.
    let config = ServerConfig {
        listen: addr,
        ..ServerConfig::default()
    };
    let store = SqliteStore::open(&dir.db()).unwrap();
    let server = start(config, Box::new(store)).await.unwrap();
    let ann = tokio::time::timeout(Duration::from_secs(30), ta)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let bob = tokio::time::timeout(Duration::from_secs(30), tb)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(ann.len(), 1);
    assert_eq!(bob.len(), 1);
    assert_eq!(ann[0].table, table, "the game went on at the same table");
    assert_eq!(ann[0].result, bob[0].result);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_table_survives_a_server_restart() {
    let dir = TempDir::new("waiting");
    let (server1, url) = server(&dir).await;
    let (mut a, token) = hello(&url, "ann", None).await;
    a.send(&ClientMsg::Create(TableSpec {
        colour: ColourChoice::White,
        ..TableSpec::default()
    }))
    .await
    .unwrap();
    let table = until(&mut a, game).await.table.id;
    server1.shutdown().await.unwrap();
    drop(a);
    let (server2, url) = server(&dir).await;
    let mut a = Connection::open(&url).await.unwrap();
    a.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: "ann".into(),
        token: Some(token),
        lobby: false,
    })
    .await
    .unwrap();
    let g = until(&mut a, game).await;
    assert_eq!((g.table.id, g.table.status), (table, TableStatus::Waiting));
    assert_eq!(g.you, Some(reversi::net::protocol::Side::White));
    let (mut b, _) = hello(&url, "bob", None).await;
    b.send(&ClientMsg::Join { table }).await.unwrap();
    let g = until(&mut b, game).await;
    assert_eq!(g.table.status, TableStatus::Playing);
    assert_eq!(g.you, Some(reversi::net::protocol::Side::Black));
    assert_eq!(until(&mut a, game).await.table.status, TableStatus::Playing);
    server2.shutdown().await.unwrap();
}
