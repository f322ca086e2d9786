//! A client's identity and reconnections, end to end on the real server
//! (127.0.0.1:0, a temporary database) with the library's session and bot:
//!
//! * a session or bot whose session another connection takes over (same
//!   name and token) stops, instead of taking it back in an endless tug of
//!   war, and the new connection keeps it;
//! * reconnections wait as the backoff says (growing, jittered, capped),
//!   for the bot and for the screen's session, and the bot says so on
//!   stderr;
//! * a join or create whose connection dropped before the answer (a relay
//!   cuts it) is asked again after the reconnection, and a table created
//!   before the drop is not created twice.

mod common_relay;
mod common_salon;

use common_relay::{Cut, Relay};
use common_salon::{TempDir, hello, recv, server, until};
use reversi::net::client::{BotConfig, BotEvent, BotPlayer, ClientError, Seating, Trust, run_bot};
use reversi::net::protocol::{ClientMsg, ServerMsg, TableId, TableStatus};
use reversi::net::session::{SessionConfig, SessionEvent, run_session};
use std::time::Duration;
use tokio::sync::mpsc;

/// A bot of `name` at `url` playing one game with the greedy player.
fn bot(url: &str, name: &str, seating: Seating) -> BotConfig {
    BotConfig {
        url: url.into(),
        trust: Trust::default(),
        token: None,
        name: name.into(),
        player: BotPlayer::Reference(reversi::ai::Reference::Greedy),
        games: 1,
        seating,
        spec: Default::default(),
        give_up_after: Duration::from_secs(20),
        seed: 11,
    }
}

/// Runs `config` on its own task; its events come through the receiver.
fn spawn_bot(
    config: BotConfig,
) -> (
    tokio::task::JoinHandle<Result<u32, ClientError>>,
    mpsc::UnboundedReceiver<BotEvent>,
) {
    let (tx, rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        run_bot(&config, &mut |e: &BotEvent| {
            let _ = tx.send(e.clone());
        })
        .await
    });
    (task, rx)
}

/// The next event of a bot, within 30 s.
async fn event(rx: &mut mpsc::UnboundedReceiver<BotEvent>) -> BotEvent {
    tokio::time::timeout(Duration::from_secs(30), rx.recv())
        .await
        .expect("a bot event within 30 s")
        .expect("the bot runs")
}

/// The bot's end, within 30 s.
async fn ended(
    task: tokio::task::JoinHandle<Result<u32, ClientError>>,
) -> Result<u32, ClientError> {
    tokio::time::timeout(Duration::from_secs(30), task)
        .await
        .expect("the bot stops within 30 s")
        .unwrap()
}

/// A screen's session of `ann` at `url` on its own task: its requests'
/// sender, its events, its task.
fn spawn_session(
    url: &str,
) -> (
    mpsc::UnboundedSender<ClientMsg>,
    mpsc::UnboundedReceiver<SessionEvent>,
    tokio::task::JoinHandle<()>,
) {
    let (tx, requests) = mpsc::unbounded_channel();
    let (events_tx, events) = mpsc::unbounded_channel();
    let config = SessionConfig {
        url: url.into(),
        name: "ann".into(),
        token: None,
        trust: Trust::default(),
        seed: 5,
        welcome_timeout: reversi::net::session::WELCOME_TIMEOUT,
    };
    let session = tokio::spawn(async move {
        run_session(config, requests, &mut |e| events_tx.send(e).is_ok()).await;
    });
    (tx, events, session)
}

/// The token of the session's first welcome (10 s at most).
async fn welcome_token(events: &mut mpsc::UnboundedReceiver<SessionEvent>) -> String {
    loop {
        let e = tokio::time::timeout(Duration::from_secs(10), events.recv())
            .await
            .expect("a welcome within 10 s")
            .expect("the session runs");
        if let SessionEvent::Message(ServerMsg::Welcome { token, .. }) = e {
            return token;
        }
    }
}

/// The waits reported, each checked against the backoff's schedule: the
/// `i`-th between half and all of `first` × 2^i, capped at 30 s.
fn check_schedule(waits: &[Duration], first: Duration) {
    let mut step = first;
    for w in waits {
        assert!(
            *w >= step / 2 && *w <= step,
            "{w:?} outside [{:?}, {step:?}]: {waits:?}",
            step / 2
        );
        step = (step * 2).min(reversi::net::client::BACKOFF_CAP);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_whose_session_is_opened_elsewhere_stops_and_leaves_it() {
    let dir = TempDir::new("replaced-bot");
    let (server, url) = server(&dir).await;
    // The session exists (this connection) when the bot resumes it.
    let (mut first, token) = hello(&url, "ann", None).await;
    let (task, mut events) = spawn_bot(BotConfig {
        token: Some(token.clone()),
        ..bot(&url, "ann", Seating::Create)
    });
    assert!(matches!(
        event(&mut events).await,
        BotEvent::Seated { waiting: true, .. }
    ));
    // The bot's hello took the session over from the first connection.
    let closed = tokio::time::timeout(Duration::from_secs(10), first.recv())
        .await
        .unwrap();
    assert!(matches!(closed, Err(ClientError::Replaced)), "{closed:?}");
    // Another connection with the token takes it from the bot: the bot stops.
    let (mut taker, _) = hello(&url, "ann", Some(token)).await;
    let stopped = ended(task).await;
    assert!(matches!(stopped, Err(ClientError::Replaced)), "{stopped:?}");
    assert!(
        ClientError::Replaced
            .to_string()
            .contains("opened elsewhere")
    );
    // The taker keeps the session: the bot did not come back for it.
    taker.send(&ClientMsg::Ping { id: 9 }).await.unwrap();
    loop {
        match recv(&mut taker).await {
            ServerMsg::Pong { id } => {
                assert_eq!(id, 9);
                break;
            }
            _ => continue,
        }
    }
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_opened_elsewhere_ends_and_the_new_connection_keeps_it() {
    let dir = TempDir::new("replaced-session");
    let (server, url) = server(&dir).await;
    let (tx, mut events, session) = spawn_session(&url);
    let token = welcome_token(&mut events).await;
    let (mut taker, _) = hello(&url, "ann", Some(token)).await;
    // The session says so and ends by itself, its requests still open.
    let mut last = None;
    while let Some(e) = tokio::time::timeout(Duration::from_secs(10), events.recv())
        .await
        .expect("the session ends within 10 s")
    {
        last = Some(e);
    }
    assert_eq!(last, Some(SessionEvent::Replaced));
    session.await.unwrap();
    drop(tx);
    taker.send(&ClientMsg::Ping { id: 1 }).await.unwrap();
    until(&mut taker, |m| {
        matches!(m, ServerMsg::Pong { .. }).then_some(())
    })
    .await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_session_backs_off_while_the_server_is_gone() {
    let dir = TempDir::new("backoff-session");
    let (server, url) = server(&dir).await;
    let (tx, mut events, _) = spawn_session(&url);
    welcome_token(&mut events).await;
    server.shutdown().await.unwrap();
    let mut waits = Vec::new();
    while waits.len() < 4 {
        match tokio::time::timeout(Duration::from_secs(10), events.recv())
            .await
            .unwrap()
            .unwrap()
        {
            SessionEvent::Retrying { attempt, retry_in } => {
                assert_eq!(attempt as usize, waits.len() + 1);
                waits.push(retry_in);
            }
            SessionEvent::Lost { .. } | SessionEvent::Message(_) => {}
            other => panic!("{other:?}"),
        }
    }
    // The wait before the first attempt took the backoff's first step
    // (250 ms); the failed attempts follow its schedule from there.
    check_schedule(&waits, Duration::from_millis(500));
    drop(tx);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_backs_off_with_jitter_while_nobody_answers_and_gives_up() {
    // A port where nobody listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("ws://127.0.0.1:{port}");
    let (task, mut rx) = spawn_bot(BotConfig {
        give_up_after: Duration::from_millis(1500),
        ..bot(&url, "ann", Seating::Create)
    });
    let err = ended(task).await.unwrap_err();
    assert!(matches!(err, ClientError::Connect { .. }), "{err:?}");
    let mut waits = Vec::new();
    while let Ok(e) = rx.try_recv() {
        match e {
            BotEvent::Retrying { retry_in, reason } => {
                assert!(reason.contains("cannot connect"), "{reason}");
                waits.push(retry_in);
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(waits.len() >= 3, "{waits:?}");
    check_schedule(&waits, Duration::from_millis(250));
}

/// The command line's bot says on stderr that it tries again, then gives up.
#[test]
fn the_command_line_bot_says_it_tries_again_and_gives_up() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "online",
            &format!("ws://127.0.0.1:{port}"),
            "--bot",
            "random",
        ])
        .args(["--name", "zed", "--give-up", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("; trying again in "), "{err}");
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("cannot connect to ws://127.0.0.1"), "{err}");
}

/// Two bots meet at `table`: the creator's events say where it sits.
async fn created_table(rx: &mut mpsc::UnboundedReceiver<BotEvent>) -> TableId {
    loop {
        if let BotEvent::Seated {
            table,
            waiting: true,
        } = event(rx).await
        {
            return table;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_lost_with_its_connection_is_asked_again_and_the_game_played() {
    let dir = TempDir::new("join-again");
    let (server, url) = server(&dir).await;
    let relay = Relay::start(&url, None).await;
    let (ann, mut ann_events) = spawn_bot(bot(&url, "ann", Seating::Create));
    let table = created_table(&mut ann_events).await;
    // Bob's join never reaches the server; the connection drops.
    relay.cut("join", Cut::Before);
    let (bob, _) = spawn_bot(bot(&relay.url(), "bob", Seating::Join(table)));
    assert_eq!(ended(bob).await.unwrap(), 1);
    assert_eq!(ended(ann).await.unwrap(), 1);
    assert_eq!(relay.cuts_made(), 1);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_created_before_the_drop_is_not_created_twice() {
    let dir = TempDir::new("create-once");
    let (server, url) = server(&dir).await;
    let relay = Relay::start(&url, None).await;
    // The server creates Ann's table; its answer is lost with the connection.
    relay.cut("create", Cut::AfterAnswer);
    let (ann, mut ann_events) = spawn_bot(bot(&relay.url(), "ann", Seating::Create));
    let table = created_table(&mut ann_events).await;
    assert_eq!(relay.cuts_made(), 1);
    // The lobby holds that one table of Ann's, waiting.
    let (mut spy, _) = hello(&url, "spy", None).await;
    spy.send(&ClientMsg::List).await.unwrap();
    let tables = until(&mut spy, |m| match m {
        ServerMsg::Tables { tables } => Some(tables),
        _ => None,
    })
    .await;
    let anns: Vec<_> = tables
        .iter()
        .filter(|t| t.players.iter().any(|p| p.label() == "ann"))
        .collect();
    assert_eq!(anns.len(), 1, "{tables:?}");
    assert_eq!((anns[0].id, anns[0].status), (table, TableStatus::Waiting));
    // And the game there is played to its end.
    let (bob, _) = spawn_bot(bot(&url, "bob", Seating::Join(table)));
    assert_eq!(ended(bob).await.unwrap(), 1);
    assert_eq!(ended(ann).await.unwrap(), 1);
    server.shutdown().await.unwrap();
}
