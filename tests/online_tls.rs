//! The client over `wss://`, end to end: a TLS relay made in the test (a
//! certificate authority and a server certificate from `rcgen`, accepted
//! with tokio-rustls) stands before the real server. With the authority
//! added (`Trust::with_pem_file`, `--ca`, `REVERSI_CA`) the bot and the
//! screen's session play through it; without it, or with `wss://` to a
//! server that answers in plain HTTP, they stop at once with a TLS error
//! instead of retrying; a bad `--ca` file is one line at the start.

mod common_relay;
mod common_salon;

use common_relay::{Authority, Relay};
use common_salon::{TempDir, server};
use reversi::net::client::{
    BotConfig, BotEvent, BotPlayer, ClientError, Connection, Seating, Trust, run_bot,
};
use reversi::net::protocol::{ClientMsg, ServerMsg, TableSpec};
use reversi::net::session::{SessionConfig, SessionEvent, run_session};
use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;
use tokio::sync::mpsc;

fn bot(url: &str, name: &str, seating: Seating, trust: Trust) -> BotConfig {
    BotConfig {
        url: url.into(),
        trust,
        token: None,
        name: name.into(),
        player: BotPlayer::Reference(reversi::ai::Reference::Greedy),
        games: 1,
        seating,
        spec: TableSpec::default(),
        give_up_after: Duration::from_secs(20),
        seed: 3,
    }
}

/// Runs `config` to its end (30 s at most), with every event it reported.
async fn play(config: BotConfig) -> (Result<u32, ClientError>, Vec<BotEvent>) {
    let mut events = Vec::new();
    let r = tokio::time::timeout(
        Duration::from_secs(30),
        run_bot(&config, &mut |e: &BotEvent| events.push(e.clone())),
    )
    .await
    .expect("the bot ends within 30 s");
    (r, events)
}

/// The server behind a TLS relay, the authority's certificate in `dir`.
struct Setup {
    server: reversi::net::server::Server,
    url: String,
    relay: Relay,
    ca: std::path::PathBuf,
}

async fn setup(dir: &TempDir) -> Setup {
    let (server, url) = server(dir).await;
    let authority = Authority::new();
    let relay = Relay::start(&url, Some(&authority)).await;
    let ca = dir.db().with_file_name("ca.pem");
    authority.write_ca(&ca);
    Setup {
        server,
        url,
        relay,
        ca,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_over_wss_plays_a_game_with_the_authority_added() {
    let dir = TempDir::new("tls-bot");
    let s = setup(&dir).await;
    let trust = Trust::with_pem_file(&s.ca).unwrap();
    let ann = tokio::spawn(play(bot(&s.relay.url(), "ann", Seating::Create, trust)));
    let bob = tokio::spawn(play(bot(&s.url, "bob", Seating::Auto, Trust::default())));
    let (ann, ann_events) = ann.await.unwrap();
    let (bob, _) = bob.await.unwrap();
    assert_eq!((ann.unwrap(), bob.unwrap()), (1, 1));
    assert!(
        ann_events
            .iter()
            .any(|e| matches!(e, BotEvent::Finished(_))),
        "{ann_events:?}"
    );
    s.server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_authority_the_bot_stops_at_once_with_a_tls_error() {
    let dir = TempDir::new("tls-untrusted");
    let s = setup(&dir).await;
    let (r, events) = play(bot(
        &s.relay.url(),
        "ann",
        Seating::Create,
        Trust::default(),
    ))
    .await;
    let e = r.unwrap_err();
    assert!(matches!(e, ClientError::Tls { .. }), "{e:?}");
    assert!(e.is_permanent());
    assert!(e.to_string().contains("UnknownIssuer"), "{e}");
    assert!(events.is_empty(), "no retrying: {events:?}");
    // Nor does `wss://` to a server that answers in plain HTTP retry.
    let plain = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let plain_url = format!("wss://{}", plain.local_addr().unwrap());
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        while let Ok((mut tcp, _)) = plain.accept().await {
            let mut hello = [0u8; 512];
            let _ = tcp.read(&mut hello).await;
            let _ = tcp
                .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
                .await;
        }
    });
    let (r, events) = play(bot(&plain_url, "ann", Seating::Create, Trust::default())).await;
    assert!(matches!(r, Err(ClientError::Tls { .. })), "{r:?}");
    assert!(events.is_empty(), "{events:?}");
    s.server.shutdown().await.unwrap();
}

/// Runs a screen session to `relay` with `trust`: its first events, until
/// a welcome and the answer to a `create`, or its end.
async fn session_events(url: &str, trust: Trust) -> Vec<SessionEvent> {
    let (tx, requests) = mpsc::unbounded_channel();
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let config = SessionConfig {
        url: url.into(),
        name: "cy".into(),
        token: None,
        trust,
        seed: 1,
        welcome_timeout: reversi::net::session::WELCOME_TIMEOUT,
    };
    let session = tokio::spawn(async move {
        run_session(config, requests, &mut |e| events_tx.send(e).is_ok()).await;
    });
    let mut seen = Vec::new();
    while let Some(e) = tokio::time::timeout(Duration::from_secs(10), events.recv())
        .await
        .expect("an event within 10 s")
    {
        if matches!(e, SessionEvent::Message(ServerMsg::Welcome { .. })) {
            tx.send(ClientMsg::Create(TableSpec::default())).unwrap();
        }
        let done = matches!(e, SessionEvent::Message(ServerMsg::Game(_)));
        seen.push(e);
        if done {
            break;
        }
    }
    drop(tx);
    session.await.unwrap();
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_screen_session_speaks_wss_with_the_authority_and_stops_without() {
    let dir = TempDir::new("tls-session");
    let s = setup(&dir).await;
    let trusted = session_events(&s.relay.url(), Trust::with_pem_file(&s.ca).unwrap()).await;
    assert!(
        matches!(trusted.last(), Some(SessionEvent::Message(ServerMsg::Game(g)))
            if g.table.players.iter().any(|p| p.label() == "cy")),
        "{trusted:?}"
    );
    let untrusted = session_events(&s.relay.url(), Trust::default()).await;
    match &untrusted[..] {
        [SessionEvent::Unreachable { reason }] => {
            assert!(
                reason.contains("TLS") && reason.contains("UnknownIssuer"),
                "{reason}"
            );
        }
        other => panic!("{other:?}"),
    }
    // The plain server is still reached over ws:// through the same code.
    let mut c = Connection::open(&s.url).await.unwrap();
    c.send(&ClientMsg::Ping { id: 1 }).await.unwrap();
    c.close().await;
    s.server.shutdown().await.unwrap();
}

fn reversi(args: &[&str], env: Option<(&str, &Path)>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_reversi"));
    c.args(args).env_remove("REVERSI_CA");
    if let Some((k, v)) = env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// The command line's bot over `wss://`: with `--ca` or `REVERSI_CA` it
/// plays; without, it stops at once with one line; a bad `--ca` file is
/// refused before anything is tried.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_bot_reaches_wss_with_ca_and_says_why_not_without() {
    let dir = TempDir::new("tls-cli");
    let s = setup(&dir).await;
    let wss = s.relay.url();
    let ca = s.ca.clone();
    let cli = |extra: Vec<String>, env: Option<(&'static str, std::path::PathBuf)>| {
        let wss = wss.clone();
        tokio::task::spawn_blocking(move || {
            let mut args = vec!["online".to_string(), wss, "--bot".into(), "random".into()];
            args.extend(extra);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            reversi(&args, env.as_ref().map(|(k, v)| (*k, v.as_path())))
        })
    };
    let name = |n: &str| vec!["--name".to_string(), n.to_string()];
    // Without the authority: a TLS error at once, one line, status 1.
    let out = cli(name("zed"), None).await.unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("TLS") && err.contains("UnknownIssuer"),
        "{err}"
    );
    // A --ca file that is not there: refused before any connection.
    let missing = dir.db().with_file_name("missing.pem");
    let mut args = name("zed");
    args.extend(["--ca".to_string(), missing.display().to_string()]);
    let out = cli(args, None).await.unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--ca") && err.contains("cannot read it"),
        "{err}"
    );
    // With --ca, then with REVERSI_CA: a game each against a bot over ws://.
    for (who, with_flag) in [("zed", true), ("zoe", false)] {
        let opponent = tokio::spawn(play(bot(&s.url, "bob", Seating::Auto, Trust::default())));
        let mut args = name(who);
        args.push("--create".into());
        let env = if with_flag {
            args.extend(["--ca".to_string(), ca.display().to_string()]);
            None
        } else {
            Some(("REVERSI_CA", ca.clone()))
        };
        let out = cli(args, env).await.unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{err}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        assert!(stdout.contains(who), "{stdout}");
        assert_eq!(opponent.await.unwrap().0.unwrap(), 1);
    }
    s.server.shutdown().await.unwrap();
}
