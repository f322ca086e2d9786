//! Presence at the salon, end to end on the real server (127.0.0.1:0, a
//! temporary SQLite database) with real clients: a player whose connection
//! drops is announced to the opponent and the spectators, a take-back
//! request involving them is cancelled, coming back is announced, the
//! opponent may claim the game after the grace period (the result on disk),
//! the chat comes back with the table, a table number never given is told
//! apart from a closed table, and a version-1 client gets nothing it does
//! not know. Grace periods pass on a server clock moved by hand
//! ([`ServerClock::manual`]), not by waiting.

mod common_salon;

use common_salon::{
    TempDir, error, game, hello, play, recv, seat_pair, server_timed, server_with, until,
};
use reversi::net::client::Connection;
use reversi::net::lobby::LobbyConfig;
use reversi::net::protocol::{
    Absence, ChatEntry, ClientMsg, EndReason, ErrorCode, GameResult, PROTOCOL_VERSION, ServerMsg,
    Side, TableId, TableSpec, UndoEnd,
};
use reversi::net::server::ServerClock;
use reversi::net::store::{SqliteStore, Store, export_ggf};
use std::time::Duration;

/// The grace period (the server's clock is moved past it by hand).
const GRACE_MS: u64 = 400;

/// Past the grace period.
const PAST_GRACE: Duration = Duration::from_millis(GRACE_MS + 100);

fn lobby() -> LobbyConfig {
    LobbyConfig {
        claim_after_ms: GRACE_MS,
        ..LobbyConfig::default()
    }
}

/// A `presence` message: (side, name, connected, claim_in_ms).
fn presence(m: ServerMsg) -> Option<(Side, String, bool, Option<u64>)> {
    match m {
        ServerMsg::Presence {
            side,
            name,
            connected,
            claim_in_ms,
            ..
        } => Some((side, name, connected, claim_in_ms)),
        _ => None,
    }
}

fn ended(m: ServerMsg) -> Option<GameResult> {
    match m {
        ServerMsg::Ended { result, .. } => Some(result),
        _ => None,
    }
}

async fn watcher(url: &str, name: &str, table: TableId) -> Connection {
    let (mut c, _) = hello(url, name, None).await;
    c.send(&ClientMsg::Watch { table }).await.unwrap();
    until(&mut c, game).await;
    c
}

async fn moved(c: &mut Connection, ply: usize) {
    until(c, |m| {
        matches!(m, ServerMsg::Moved { ply: p, .. } if p == ply).then_some(())
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_is_announced_and_a_take_back_asked_of_them_is_cancelled() {
    let dir = TempDir::new("presence");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, bob_token) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    let mut cy = watcher(&url, "cy", table).await;
    play(&mut ann, table, "d3").await;
    moved(&mut bob, 1).await;
    moved(&mut cy, 1).await;
    ann.send(&ClientMsg::Undo { table }).await.unwrap();
    until(&mut bob, |m| {
        matches!(m, ServerMsg::UndoRequested { .. }).then_some(())
    })
    .await;
    // Bob's process dies: the socket closes under the server.
    drop(bob);
    for c in [&mut ann, &mut cy] {
        let (side, name, connected, claim_in) = until(c, presence).await;
        assert_eq!(
            (side, name.as_str(), connected),
            (Side::White, "bob", false)
        );
        assert_eq!(
            claim_in,
            Some(GRACE_MS),
            "no clock: the game may be claimed"
        );
        let reason = until(c, |m| match m {
            ServerMsg::UndoDeclined { reason, .. } => Some(reason),
            _ => None,
        })
        .await;
        assert_eq!(reason, UndoEnd::Disconnected);
    }
    // Nothing was taken back by one side; the game says who is away.
    ann.send(&ClientMsg::Watch { table }).await.unwrap();
    let g = until(&mut ann, game).await;
    assert_eq!(g.moves.len(), 1);
    assert_eq!(g.undo_requested_by, None);
    assert!(
        matches!(
            &g.away[..],
            [Absence {
                side: Side::White,
                ..
            }]
        ),
        "{:?}",
        g.away
    );
    // Bob comes back with his token: the table hears it, he gets the game.
    let (mut bob, _) = hello(&url, "bob", Some(bob_token)).await;
    let g = until(&mut bob, game).await;
    assert_eq!((g.you, g.moves.len()), (Some(Side::White), 1));
    assert!(g.away.is_empty(), "{:?}", g.away);
    for c in [&mut ann, &mut cy] {
        let (side, _, connected, claim_in) = until(c, presence).await;
        assert_eq!((side, connected, claim_in), (Side::White, true, None));
    }
    // Back in the game, no claim.
    ann.send(&ClientMsg::Claim { table, draw: false })
        .await
        .unwrap();
    assert_eq!(until(&mut ann, error).await.0, ErrorCode::Claim);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_game_is_claimed_after_the_grace_period_and_kept_on_disk() {
    let dir = TempDir::new("claim");
    let clock = ServerClock::manual();
    let (server, url) = server_timed(&dir, lobby(), clock.clone()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    play(&mut ann, table, "d3").await;
    moved(&mut bob, 1).await;
    drop(bob);
    until(&mut ann, presence).await;
    // Too early: bob may still come back.
    ann.send(&ClientMsg::Claim { table, draw: false })
        .await
        .unwrap();
    let (code, message) = until(&mut ann, error).await;
    assert_eq!(code, ErrorCode::Claim, "{message}");
    clock.advance(PAST_GRACE);
    ann.send(&ClientMsg::Claim { table, draw: false })
        .await
        .unwrap();
    let result = until(&mut ann, ended).await;
    assert_eq!(
        (result.winner, result.reason, result.black, result.white),
        (Some(Side::Black), EndReason::Abandoned, 4, 1)
    );
    // A table with a clock is left to its clock.
    let (mut cy, _) = hello(&url, "cy", None).await;
    let (mut dee, _) = hello(&url, "dee", None).await;
    let clocked = seat_pair(&mut cy, &mut dee, "dee", true).await;
    drop(dee);
    let (_, _, _, claim_in) = until(&mut cy, presence).await;
    assert_eq!(claim_in, None, "a clocked game is not claimed");
    clock.advance(PAST_GRACE);
    cy.send(&ClientMsg::Claim {
        table: clocked,
        draw: false,
    })
    .await
    .unwrap();
    assert_eq!(until(&mut cy, error).await.0, ErrorCode::Claim);
    server.shutdown().await.unwrap();
    // The result is the store's, as every result is.
    let mut store = SqliteStore::open(&dir.db()).unwrap();
    let finished = store.finished().unwrap();
    assert_eq!(finished.len(), 1);
    assert_eq!(finished[0].id, table);
    assert_eq!(finished[0].result, Some(result));
    let (ggf, _) = export_ggf(&mut store).unwrap();
    assert!(ggf.contains(":f]"), "a forfeit in GGF: {ggf}");
    assert_eq!(
        store.load().unwrap().games.len(),
        1,
        "the clocked game runs on"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claimed_draw_loses_for_nobody() {
    let dir = TempDir::new("claim-draw");
    let clock = ServerClock::manual();
    let (server, url) = server_timed(&dir, lobby(), clock.clone()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    drop(ann);
    until(&mut bob, presence).await;
    clock.advance(PAST_GRACE);
    bob.send(&ClientMsg::Claim { table, draw: true })
        .await
        .unwrap();
    let result = until(&mut bob, ended).await;
    assert_eq!((result.winner, result.reason), (None, EndReason::Abandoned));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_chat_comes_back_with_the_table() {
    let dir = TempDir::new("chat-history");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, bob_token) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    let say = |text: &str| ClientMsg::Chat {
        table,
        text: text.into(),
    };
    bob.send(&say("hi there")).await.unwrap();
    until(&mut ann, |m| {
        matches!(m, ServerMsg::Chat { .. }).then_some(())
    })
    .await;
    drop(bob);
    until(&mut ann, presence).await;
    ann.send(&say("are you there?")).await.unwrap();
    until(&mut ann, |m| {
        matches!(m, ServerMsg::Chat { .. }).then_some(())
    })
    .await;
    let line = |from: &str, text: &str| ChatEntry {
        from: from.into(),
        text: text.into(),
    };
    let history = vec![line("bob", "hi there"), line("ann", "are you there?")];
    let (mut bob, _) = hello(&url, "bob", Some(bob_token)).await;
    let g = until(&mut bob, game).await;
    assert_eq!(g.chat.as_ref(), Some(&history));
    // A spectator arriving later reads it too.
    let (mut cy, _) = hello(&url, "cy", None).await;
    cy.send(&ClientMsg::Watch { table }).await.unwrap();
    assert_eq!(until(&mut cy, game).await.chat, Some(history));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_never_given_is_told_apart_from_a_closed_one() {
    let dir = TempDir::new("no-table");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    let refusal = |m| match m {
        ServerMsg::Error {
            code,
            table,
            closed,
            ..
        } => Some((code, table, closed)),
        _ => None,
    };
    ann.send(&ClientMsg::Join { table: 99 }).await.unwrap();
    assert_eq!(
        until(&mut ann, refusal).await,
        (ErrorCode::NoSuchTable, Some(99), false)
    );
    ann.send(&ClientMsg::Create(TableSpec::default()))
        .await
        .unwrap();
    let table = until(&mut ann, game).await.table.id;
    ann.send(&ClientMsg::Leave { table }).await.unwrap();
    ann.send(&ClientMsg::Join { table }).await.unwrap();
    assert_eq!(
        until(&mut ann, refusal).await,
        (ErrorCode::NoSuchTable, Some(table), true)
    );
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_version_1_client_gets_only_what_version_1_knows() {
    let dir = TempDir::new("version-1");
    let clock = ServerClock::manual();
    let (server, url) = server_timed(&dir, lobby(), clock.clone()).await;
    let mut ann = Connection::open(&url).await.unwrap();
    ann.send(&ClientMsg::Hello {
        protocol: 1,
        name: "ann".into(),
        token: None,
        lobby: false,
    })
    .await
    .unwrap();
    let spoken = until(&mut ann, |m| match m {
        ServerMsg::Welcome { protocol, .. } => Some(protocol),
        _ => None,
    })
    .await;
    assert_eq!(spoken, 1);
    let (mut bob, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    // A version-2 spectator hears bob go: the server has seen it.
    let mut eve = watcher(&url, "eve", table).await;
    drop(bob);
    until(&mut eve, presence).await;
    // No `presence` for ann: the next message is the answer to a ping.
    clock.advance(PAST_GRACE);
    ann.send(&ClientMsg::Ping { id: 3 }).await.unwrap();
    assert!(
        matches!(recv(&mut ann).await, ServerMsg::Pong { id: 3 }),
        "no presence for version 1"
    );
    ann.send(&ClientMsg::Claim { table, draw: false })
        .await
        .unwrap();
    let result = until(&mut ann, ended).await;
    assert_eq!(
        (result.winner, result.reason),
        (Some(Side::Black), EndReason::Resigned),
        "an abandoned game is a resignation to version 1"
    );
    // A version the server does not speak is refused, naming both it speaks.
    let mut old = Connection::open(&url).await.unwrap();
    old.send(&ClientMsg::Hello {
        protocol: PROTOCOL_VERSION + 1,
        name: "zed".into(),
        token: None,
        lobby: false,
    })
    .await
    .unwrap();
    let (code, message) = until(&mut old, error).await;
    assert_eq!(code, ErrorCode::Version);
    assert!(message.contains("1 to 2"), "{message}");
    server.shutdown().await.unwrap();
}

/// A bot whose opponent leaves a game without a clock claims the win once
/// the grace period is over, and counts the game as played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_claims_the_game_its_opponent_left() {
    use reversi::net::client::{BotConfig, BotEvent, BotPlayer, Seating, run_bot};
    use reversi::net::protocol::{ColourChoice, Opponent};
    let dir = TempDir::new("botclaim");
    let (server, url) = server_with(&dir, lobby()).await;
    let (mut ann, _) = hello(&url, "ann", None).await;
    ann.send(&ClientMsg::Create(TableSpec {
        colour: ColourChoice::Black,
        opponent: Opponent::Invite {
            name: "botty".into(),
        },
        ..TableSpec::default()
    }))
    .await
    .unwrap();
    let table = until(&mut ann, game).await.table.id;
    let config = BotConfig {
        url: url.clone(),
        trust: reversi::net::client::Trust::default(),
        token: None,
        name: "botty".into(),
        player: BotPlayer::Engine(reversi::ai::Limits::depth(1)),
        games: 1,
        seating: Seating::Join(table),
        spec: TableSpec::default(),
        give_up_after: Duration::from_secs(10),
        seed: 3,
    };
    let bot = tokio::spawn(async move {
        let mut finished = Vec::new();
        let done = run_bot(&config, &mut |e: &BotEvent| {
            if let BotEvent::Finished(g) = e {
                finished.push(g.clone());
            }
        })
        .await
        .unwrap();
        (done, finished)
    });
    // Ann plays once, sees the bot's answer, and goes.
    until(&mut ann, |m| match m {
        ServerMsg::Game(g) if g.to_move == Some(Side::Black) => Some(()),
        _ => None,
    })
    .await;
    play(&mut ann, table, "d3").await;
    moved(&mut ann, 2).await;
    drop(ann);
    let (done, finished) = tokio::time::timeout(Duration::from_secs(20), bot)
        .await
        .expect("the bot claims within the grace period and a little more")
        .unwrap();
    assert_eq!(done, 1);
    assert_eq!(finished.len(), 1, "{finished:?}");
    let r = finished[0].result;
    assert_eq!(r.reason, EndReason::Abandoned, "{r:?}");
    assert_eq!(r.winner, Some(finished[0].you), "{r:?}");
    server.shutdown().await.unwrap();
}
