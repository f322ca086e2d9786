//! The salon on the internet, end to end: its own TLS, clients that stop
//! reading or flood, the per-address limit, RFC 6455 close codes, request
//! heads however they are cut (and their size limit), the
//! limits stated in `welcome` and a load test that keeps within them, the
//! commits finished on shutdown, and the real binary's logs, clean stop on
//! SIGTERM and SIGINT and start-up errors. The real server on 127.0.0.1:0
//! (in-process, or the binary), spoken to over real sockets.

mod common_salon;

use common_salon::{TempDir, game, hello, play, seat_pair, until};
use futures_util::{SinkExt, Stream, StreamExt};
use reversi::net::client::Trust;
use reversi::net::loadtest::{LoadConfig, run_load};
use reversi::net::protocol::{
    ClientMsg, ColourChoice, EndReason, Opponent, PROTOCOL_VERSION, ServerMsg, TableSpec,
    decode_server, encode,
};
use reversi::net::server::{Server, ServerConfig, Tls, start};
use reversi::net::store::{SqliteStore, Store, StoreError, StoreOp};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::rustls;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{Connector, WebSocketStream};

/// The server with its defaults changed by `change`, on a free port.
async fn start_with(dir: &TempDir, change: impl FnOnce(&mut ServerConfig)) -> (Server, String) {
    let mut config = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..ServerConfig::default()
    };
    change(&mut config);
    let store = SqliteStore::open(&dir.db()).unwrap();
    let server = start(config, Box::new(store)).await.unwrap();
    let url = format!("ws://{}", server.addr());
    (server, url)
}

/// Sends one protocol message over a raw WebSocket.
async fn send_raw<S>(ws: &mut WebSocketStream<S>, msg: &ClientMsg)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    ws.send(Message::Text(encode(msg).into())).await.unwrap();
}

/// Reads protocol messages until `pick` returns something (within 10 s).
async fn until_raw<S, T>(
    ws: &mut WebSocketStream<S>,
    mut pick: impl FnMut(ServerMsg) -> Option<T>,
) -> T
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(t))) => {
                    if let Some(x) = pick(decode_server(&t).unwrap()) {
                        return x;
                    }
                }
                Some(Ok(_)) => {}
                other => panic!("the connection ended: {other:?}"),
            }
        }
    })
    .await
    .expect("a message within 10 s")
}

/// Says hello as `name` over a raw WebSocket; returns the welcome.
async fn hello_raw<S>(ws: &mut WebSocketStream<S>, name: &str) -> ServerMsg
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: name.into(),
        token: None,
        lobby: false,
    };
    send_raw(ws, &hello).await;
    until_raw(ws, |m| matches!(m, ServerMsg::Welcome { .. }).then_some(m)).await
}

/// The first close frame (code and reason), reading past anything else
/// (within 20 s); the error when the stream fails or ends without one.
async fn close_of(
    stream: &mut (impl Stream<Item = Result<Message, WsError>> + Unpin),
) -> Result<(u16, String), String> {
    tokio::time::timeout(Duration::from_secs(20), async {
        loop {
            match stream.next().await {
                Some(Ok(Message::Close(Some(f)))) => {
                    return Ok((u16::from(f.code), f.reason.to_string()));
                }
                Some(Ok(Message::Close(None))) => return Err("a close frame without a code".into()),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(format!("the stream failed: {e}")),
                None => return Err("the stream ended without a close frame".into()),
            }
        }
    })
    .await
    .unwrap_or_else(|_| Err("no close frame within 20 s".into()))
}

/// Asserts a close with `code` whose reason contains `reason`.
fn assert_close(close: Result<(u16, String), String>, code: u16, reason: &str) {
    let (got, why) = close.unwrap_or_else(|e| panic!("expected a close {code}: {e}"));
    assert_eq!(got, code, "{why}");
    assert!(why.contains(reason), "{why:?} should say {reason:?}");
}

/// A self-signed certificate for 127.0.0.1 and localhost, written as PEM
/// files beside the database; returns their paths and the certificate.
fn certificate(dir: &TempDir) -> (PathBuf, PathBuf, rustls::pki_types::CertificateDer<'static>) {
    let names = vec!["127.0.0.1".to_string(), "localhost".to_string()];
    let rcgen::CertifiedKey { cert, signing_key } =
        rcgen::generate_simple_self_signed(names).unwrap();
    let (cert_file, key_file) = (
        dir.db().with_file_name("cert.pem"),
        dir.db().with_file_name("key.pem"),
    );
    std::fs::write(&cert_file, cert.pem()).unwrap();
    std::fs::write(&key_file, signing_key.serialize_pem()).unwrap();
    (cert_file, key_file, cert.der().clone())
}

/// A `wss://` connection trusting `cert` only.
async fn wss(
    url: &str,
    cert: &rustls::pki_types::CertificateDer<'static>,
) -> Result<WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>, WsError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(cert.clone()).unwrap();
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = Connector::Rustls(Arc::new(config));
    let (ws, _) =
        tokio_tungstenite::connect_async_tls_with_config(url, None, true, Some(connector)).await?;
    Ok(ws)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_speaks_wss_with_its_own_certificate() {
    let dir = TempDir::new("abuse-tls");
    let (cert, key, der) = certificate(&dir);
    let tls = Tls::from_pem_files(&cert, &key).unwrap();
    let (server, _) = start_with(&dir, |c| c.tls = Some(tls)).await;
    let port = server.addr().port();
    let mut ws = wss(&format!("wss://127.0.0.1:{port}"), &der).await.unwrap();
    assert!(matches!(
        hello_raw(&mut ws, "ann").await,
        ServerMsg::Welcome { .. }
    ));
    send_raw(&mut ws, &ClientMsg::Ping { id: 4 }).await;
    let id = until_raw(&mut ws, |m| match m {
        ServerMsg::Pong { id } => Some(id),
        _ => None,
    })
    .await;
    assert_eq!(id, 4);
    // Plain WebSocket on the TLS port gets no further than the handshake.
    assert!(
        tokio_tungstenite::connect_async(format!("ws://127.0.0.1:{port}"))
            .await
            .is_err()
    );
    ws.close(None).await.unwrap();
    // The load test runs over wss:// too, trusting the certificate.
    let report = run_load(&LoadConfig {
        url: format!("wss://127.0.0.1:{port}"),
        games: 1,
        concurrency: 1,
        time_limit: Duration::from_secs(60),
        think: Duration::ZERO,
        trust: Trust::with_pem_file(&cert).unwrap(),
    })
    .await;
    assert_eq!(
        (report.games, report.errors),
        (1, 0),
        "{:?}",
        report.error_samples
    );
    server.shutdown().await.unwrap();
}

/// A stuck reader's socket: a receive buffer of 4 KiB, then the WebSocket.
async fn small_buffer_ws(server: &Server, url: &str) -> WebSocketStream<TcpStream> {
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr()).await.unwrap();
    tokio_tungstenite::client_async(url, stream)
        .await
        .unwrap()
        .0
}

/// A client stops reading and asks for a long list again and again; the
/// server, with its limits changed by `change`, must close it like a
/// dropped connection: its opponent hears it is gone and may claim.
async fn a_stuck_reader_is_closed(name: &str, change: impl FnOnce(&mut ServerConfig)) {
    let dir = TempDir::new(name);
    let (server, url) = start_with(&dir, |c| {
        c.rate_per_sec = 10_000.0;
        c.rate_burst = 10_000.0;
        c.lobby.claim_after_ms = 0;
        change(c);
    })
    .await;
    // Forty-eight waiting tables make a long list.
    let mut hosts = Vec::new();
    for h in 0..6 {
        let (mut c, _) = hello(&url, &format!("host{h}"), None).await;
        for _ in 0..8 {
            c.send(&ClientMsg::Create(TableSpec::default()))
                .await
                .unwrap();
            until(&mut c, game).await;
        }
        hosts.push(c);
    }
    let mut ann = small_buffer_ws(&server, &url).await;
    hello_raw(&mut ann, "ann").await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let invite = TableSpec {
        colour: ColourChoice::Black,
        opponent: Opponent::Invite { name: "bob".into() },
        ..TableSpec::default()
    };
    send_raw(&mut ann, &ClientMsg::Create(invite)).await;
    let table = until_raw(&mut ann, |m| game(m).map(|g| g.table.id)).await;
    bob.send(&ClientMsg::Join { table }).await.unwrap();
    until(&mut bob, game).await;
    // Ann stops reading and asks for the list again and again.
    for _ in 0..500 {
        if ann
            .send(Message::Text(encode(&ClientMsg::List).into()))
            .await
            .is_err()
        {
            break;
        }
    }
    // Bob hears that she is gone, as for a dropped connection, and may
    // claim the game.
    until(&mut bob, |m| match m {
        ServerMsg::Presence {
            name,
            connected: false,
            ..
        } if name == "ann" => Some(()),
        _ => None,
    })
    .await;
    bob.send(&ClientMsg::Claim { table, draw: false })
        .await
        .unwrap();
    let result = until(&mut bob, |m| match m {
        ServerMsg::Ended { result, .. } => Some(result),
        _ => None,
    })
    .await;
    assert_eq!(result.reason, EndReason::Abandoned);
    drop(ann);
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_closed_when_its_queue_is_full() {
    // Writes may wait ten minutes: only the queue's limit in bytes (some
    // 3 MB of lists are asked for, 256 KiB are kept) closes it.
    a_stuck_reader_is_closed("abuse-stuck-queue", |c| {
        c.write_timeout = Duration::from_secs(600);
        c.out_queue = 1 << 20;
        c.out_queue_bytes = 256 << 10;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_closed_when_a_write_times_out() {
    // The queue may hold everything: only the write timeout closes it.
    a_stuck_reader_is_closed("abuse-stuck-write", |c| {
        c.write_timeout = Duration::from_secs(1);
        c.out_queue = 1 << 20;
        c.out_queue_bytes = 1 << 30;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websocket_pings_count_against_the_rate_and_keep_nothing_alive() {
    let dir = TempDir::new("abuse-pings");
    let (server, url) = start_with(&dir, |c| c.idle_timeout = Duration::from_secs(1)).await;
    // A flood of pings is closed like a flood of messages.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    hello_raw(&mut ws, "flood").await;
    let (mut sink, mut stream) = ws.split();
    let flooding = async {
        for _ in 0..5_000 {
            if sink.send(Message::Ping("p".into())).await.is_err() {
                break;
            }
        }
    };
    let (_, close) = tokio::join!(flooding, close_of(&mut stream));
    assert_close(close, 1008, "too many messages");
    // Pings alone, ten a second (within the rate), do not keep a
    // connection from its idle timeout.
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    hello_raw(&mut ws, "quiet").await;
    let (mut sink, mut stream) = ws.split();
    let pinging = async {
        while sink.send(Message::Ping("p".into())).await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        std::future::pending::<()>().await;
    };
    let close = tokio::select! {
        c = close_of(&mut stream) => c,
        () = pinging => unreachable!(),
    };
    assert_close(close, 1001, "idle");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_close_arrives_and_the_connection_ends_without_a_reset() {
    let dir = TempDir::new("abuse-rate");
    let (server, url) = start_with(&dir, |_| {}).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    hello_raw(&mut ws, "eager").await;
    // Far over the burst, without reading: the server closes with input
    // still unread.
    for id in 0..1_000 {
        let ping = encode(&ClientMsg::Ping { id });
        if ws.feed(Message::Text(ping.into())).await.is_err() {
            break;
        }
    }
    let _ = ws.flush().await;
    assert_close(close_of(&mut ws).await, 1008, "too many messages");
    // The server read on to this side's answer to the close, then closed
    // its side: a reset (closing with input unread) could have destroyed
    // the close frame on its way.
    let end = tokio::time::timeout(Duration::from_secs(10), ws.next()).await;
    assert!(matches!(end, Ok(None)), "{end:?}");
    server.shutdown().await.unwrap();
}

/// A connection as if through a proxy that adds `X-Forwarded-For: …, client`.
async fn via_proxy(
    url: &str,
    client: &str,
) -> WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>> {
    let mut request = url.into_client_request().unwrap();
    let forwarded = format!("198.51.100.99, {client}").parse().unwrap();
    request.headers_mut().insert("x-forwarded-for", forwarded);
    tokio_tungstenite::connect_async(request).await.unwrap().0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_per_address_limit_are_refused_with_a_reason() {
    let dir = TempDir::new("abuse-per-ip");
    let (server, url) = start_with(&dir, |c| {
        c.max_per_ip = 2;
        c.count_loopback = true;
    })
    .await;
    let (mut first, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    hello_raw(&mut first, "a1").await;
    let (mut second, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    hello_raw(&mut second, "a2").await;
    let (mut third, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    assert_close(
        close_of(&mut third).await,
        1008,
        "too many connections from your address",
    );
    // Once one has closed (the server answered and closed its side), its
    // place is free.
    first.close(None).await.unwrap();
    while first.next().await.is_some() {}
    let (mut fourth, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    assert!(matches!(
        hello_raw(&mut fourth, "a3").await,
        ServerMsg::Welcome { .. }
    ));
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_names_the_address_that_is_counted() {
    let dir = TempDir::new("abuse-proxy");
    let (server, url) = start_with(&dir, |c| {
        c.max_per_ip = 1;
        c.trust_proxy = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let mut a = via_proxy(&url, "203.0.113.7").await;
    hello_raw(&mut a, "a").await;
    let mut again = via_proxy(&url, "203.0.113.7").await;
    assert_close(close_of(&mut again).await, 1008, "from your address");
    let mut b = via_proxy(&url, "203.0.113.8:4711").await;
    hello_raw(&mut b, "b").await;
    // The proxy's own address (loopback) is not counted.
    for name in ["l1", "l2"] {
        let (mut direct, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        hello_raw(&mut direct, name).await;
    }
    server.shutdown().await.unwrap();
    // From an address not trusted, the header is ignored: both are the
    // (uncounted) loopback.
    let (server, url) = start_with(&dir, |c| c.max_per_ip = 1).await;
    let mut a = via_proxy(&url, "203.0.113.7").await;
    hello_raw(&mut a, "a").await;
    let mut again = via_proxy(&url, "203.0.113.7").await;
    hello_raw(&mut again, "a-again").await;
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn frames_get_their_rfc_6455_close_codes_and_plain_http_gets_426() {
    let dir = TempDir::new("abuse-codes");
    let (server, url) = start_with(&dir, |_| {}).await;
    // A frame over 64 KiB: 1009 (message too big).
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let _ = ws.send(Message::Text("y".repeat(1 << 20).into())).await;
    assert_close(close_of(&mut ws).await, 1009, "too large");
    // A text frame that is not UTF-8: 1007 (invalid payload).
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let frame = Frame::message(vec![b'"', 0xff, 0xfe, b'"'], OpCode::Data(Data::Text), true);
    ws.send(Message::Frame(frame)).await.unwrap();
    assert_close(close_of(&mut ws).await, 1007, "UTF-8");
    // Plain HTTP: 426 with a short body, then the server closes.
    let mut tcp = TcpStream::connect(server.addr()).await.unwrap();
    tcp.write_all(b"GET / HTTP/1.1\r\nHost: salon\r\n\r\n")
        .await
        .unwrap();
    let mut response = String::new();
    tokio::time::timeout(Duration::from_secs(10), tcp.read_to_string(&mut response))
        .await
        .expect("the server closes after its answer")
        .unwrap();
    assert!(
        response.starts_with("HTTP/1.1 426 Upgrade Required\r\n"),
        "{response}"
    );
    assert!(response.contains("Upgrade: websocket\r\n"), "{response}");
    assert!(response.ends_with("docs/protocol.md.\n"), "{response}");
    server.shutdown().await.unwrap();
}

/// Writes `bytes` one at a time, each its own TCP segment.
async fn trickle(tcp: &mut TcpStream, bytes: &[u8]) {
    tcp.set_nodelay(true).unwrap();
    for b in bytes {
        tcp.write_all(std::slice::from_ref(b)).await.unwrap();
    }
}

/// Reads an HTTP response head (up to its blank line).
async fn response_head(tcp: &mut TcpStream) -> String {
    let mut head = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while !head.ends_with(b"\r\n\r\n") {
            head.push(tcp.read_u8().await.unwrap());
        }
    })
    .await
    .expect("a response head within 10 s");
    String::from_utf8(head).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_heads_are_read_however_they_are_cut_and_bounded() {
    let dir = TempDir::new("abuse-heads");
    let (server, _) = start_with(&dir, |_| {}).await;
    let addr = server.addr();
    // The WebSocket upgrade a byte at a time, then the salon as usual.
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let upgrade = format!(
        "GET / HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    trickle(&mut tcp, upgrade.as_bytes()).await;
    let head = response_head(&mut tcp).await;
    assert!(head.starts_with("HTTP/1.1 101 "), "{head}");
    // RFC 6455's example key and its answer.
    assert!(
        head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="),
        "the accept key: {head}"
    );
    let mut ws = WebSocketStream::from_raw_socket(
        tcp,
        tokio_tungstenite::tungstenite::protocol::Role::Client,
        None,
    )
    .await;
    assert!(matches!(
        hello_raw(&mut ws, "ann").await,
        ServerMsg::Welcome { .. }
    ));
    // Plain HTTP a byte at a time: the 426 answer.
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    trickle(&mut tcp, b"GET / HTTP/1.1\r\nHost: salon\r\n\r\n").await;
    let head = response_head(&mut tcp).await;
    assert!(
        head.starts_with("HTTP/1.1 426 Upgrade Required\r\n"),
        "{head}"
    );
    // A head that never ends: 400 once it passes 8 KiB.
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    let mut endless = b"GET / HTTP/1.1\r\n".to_vec();
    while endless.len() < 9 << 10 {
        endless.extend_from_slice(b"X-Filler: 0123456789abcdef\r\n");
    }
    tcp.write_all(&endless).await.unwrap();
    let head = response_head(&mut tcp).await;
    assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
    server.shutdown().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn welcome_states_the_limits_and_the_load_test_keeps_within_them() {
    let dir = TempDir::new("abuse-limits");
    let (server, url) = start_with(&dir, |c| {
        c.rate_per_sec = 12.0;
        c.rate_burst = 12.0;
        c.idle_timeout = Duration::from_secs(90);
        c.max_per_ip = 7;
        c.max_connections = 99;
    })
    .await;
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let ServerMsg::Welcome { limits, .. } = hello_raw(&mut ws, "ann").await else {
        unreachable!()
    };
    let limits = limits.expect("the limits in welcome");
    assert_eq!(limits.messages_per_sec, 12.0);
    assert_eq!(limits.burst, 12);
    assert_eq!(limits.max_message_bytes, 4096);
    assert_eq!(limits.idle_timeout_ms, 90_000);
    assert_eq!(limits.max_per_ip, 7);
    assert_eq!(limits.max_connections, 99);
    // Bots that think 0 ms would send some 30 moves at once; paced, they
    // stay within 12 a second and every game finishes.
    let report = run_load(&LoadConfig {
        url: url.clone(),
        games: 2,
        concurrency: 2,
        time_limit: Duration::from_secs(120),
        think: Duration::ZERO,
        trust: Trust::default(),
    })
    .await;
    assert_eq!(report.errors, 0, "{:?}", report.error_samples);
    assert_eq!(report.games, 2);
    server.shutdown().await.unwrap();
}

/// A store whose commits of moves wait until the test lets them go.
struct Gated {
    inner: SqliteStore,
    entered: tokio::sync::mpsc::UnboundedSender<()>,
    release: std::sync::mpsc::Receiver<()>,
    moves: Arc<std::sync::atomic::AtomicUsize>,
}

impl Store for Gated {
    fn commit(&mut self, ops: &[StoreOp]) -> Result<(), StoreError> {
        let moves = ops
            .iter()
            .filter(|op| matches!(op, StoreOp::Move { .. }))
            .count();
        if moves > 0 {
            let _ = self.entered.send(());
            let _ = self.release.recv();
        }
        self.inner.commit(ops)?;
        self.moves
            .fetch_add(moves, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }

    fn load(&mut self) -> Result<reversi::net::store::Snapshot, StoreError> {
        self.inner.load()
    }

    fn finished(&mut self) -> Result<Vec<reversi::net::store::StoredGame>, StoreError> {
        self.inner.finished()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_finishes_the_commits_in_flight_and_delivers_them() {
    let dir = TempDir::new("abuse-drain");
    let (entered_tx, mut entered) = tokio::sync::mpsc::unbounded_channel();
    let (release, release_rx) = std::sync::mpsc::channel();
    let moves = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let store = Gated {
        inner: SqliteStore::open(&dir.db()).unwrap(),
        entered: entered_tx,
        release: release_rx,
        moves: Arc::clone(&moves),
    };
    let config = ServerConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        ..ServerConfig::default()
    };
    let server = start(config, Box::new(store)).await.unwrap();
    let (addr, url) = (server.addr(), format!("ws://{}", server.addr()));
    let (mut ann, _) = hello(&url, "ann", None).await;
    let (mut bob, _) = hello(&url, "bob", None).await;
    let table = seat_pair(&mut ann, &mut bob, "bob", false).await;
    play(&mut ann, table, "f5").await;
    // The move is with the commit thread, held there.
    entered.recv().await.unwrap();
    let shutdown = tokio::spawn(server.shutdown());
    // Once the server accepts no more, the commit goes on.
    while TcpStream::connect(addr).await.is_ok() {
        tokio::task::yield_now().await;
    }
    release.send(()).unwrap();
    // Ann hears her move acknowledged, then the server going away.
    let ply = until(&mut ann, |m| match m {
        ServerMsg::Moved { ply, .. } => Some(ply),
        _ => None,
    })
    .await;
    assert_eq!(ply, 1);
    shutdown.await.unwrap().unwrap();
    assert_eq!(moves.load(std::sync::atomic::Ordering::SeqCst), 1);
    let snapshot = SqliteStore::open(&dir.db()).unwrap().load().unwrap();
    assert_eq!(snapshot.games[0].moves.len(), 1);
}

/// The real binary, `reversi server` on port 0 with `RUST_LOG=info`.
struct Binary {
    child: Child,
    url: String,
    stderr: std::thread::JoinHandle<String>,
}

impl Binary {
    fn start(db: &Path, extra: &[&std::ffi::OsStr]) -> Binary {
        use std::io::{BufRead, Read};
        let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["server", "--listen", "127.0.0.1:0", "--db"])
            .arg(db)
            .args(extra)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stderr.read_to_string(&mut text);
            text
        });
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.contains("://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Binary { child, url, stderr }
    }

    /// Sends `signal`, then waits for the exit (within 30 s): its status
    /// and what it wrote on stderr.
    #[cfg(target_os = "linux")]
    async fn stop(mut self, signal: i32) -> (std::process::ExitStatus, String) {
        // SAFETY: kill only sends a signal to the child's process id.
        let pid = i32::try_from(self.child.id()).unwrap();
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let status = tokio::time::timeout(
            Duration::from_secs(30),
            tokio::task::spawn_blocking(move || self.child.wait()),
        )
        .await
        .expect("the server exits within 30 s")
        .unwrap()
        .unwrap();
        (status, self.stderr.join().unwrap())
    }
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_binary_cleanly_and_its_log_tells_what_happened() {
    let dir = TempDir::new("abuse-sigterm");
    let server = Binary::start(&dir.db(), &[]);
    let (mut ann, _) = hello(&server.url, "ann", None).await;
    let (mut bob, _) = hello(&server.url, "bob", None).await;
    // A game that ends, and one with a move acknowledged.
    let first = seat_pair(&mut ann, &mut bob, "bob", false).await;
    ann.send(&ClientMsg::Resign { table: first }).await.unwrap();
    until(&mut bob, |m| {
        matches!(m, ServerMsg::Ended { .. }).then_some(())
    })
    .await;
    let second = seat_pair(&mut ann, &mut bob, "bob", false).await;
    play(&mut ann, second, "f5").await;
    until(&mut ann, |m| {
        matches!(m, ServerMsg::Moved { .. }).then_some(())
    })
    .await;
    let (mut spy, _) = tokio_tungstenite::connect_async(&server.url).await.unwrap();
    hello_raw(&mut spy, "spy").await;
    let (status, log) = server.stop(libc::SIGTERM).await;
    // Told to go away (and so to reconnect to the next server).
    assert_close(close_of(&mut spy).await, 1001, "shutting down");
    assert!(status.success(), "{status}: {log}");
    let snapshot = SqliteStore::open(&dir.db()).unwrap().load().unwrap();
    let game = snapshot.games.iter().find(|g| g.id == second).unwrap();
    assert_eq!(game.moves.len(), 1);
    for line in [
        "connection opened",
        "client=127.0.0.1",
        "game started",
        "game ended",
        "reason=Resigned",
        "connection closed",
        "reason=1001 server shutting down",
        "signal=\"SIGTERM\"",
        "stopped",
    ] {
        assert!(log.contains(line), "no {line:?} in the log:\n{log}");
    }
    assert!(
        log.lines()
            .filter(|l| l.contains("connection opened"))
            .all(|l| l.contains("conn{id=") && l.contains("peer=127.0.0.1:")),
        "a span per connection with its address:\n{log}"
    );
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigint_stops_the_binary_cleanly_too() {
    let dir = TempDir::new("abuse-sigint");
    let server = Binary::start(&dir.db(), &[]);
    let (mut spy, _) = tokio_tungstenite::connect_async(&server.url).await.unwrap();
    hello_raw(&mut spy, "spy").await;
    let (status, log) = server.stop(libc::SIGINT).await;
    assert_close(close_of(&mut spy).await, 1001, "shutting down");
    assert!(status.success(), "{status}: {log}");
}

/// Runs `reversi server` to its end with `args`: status and stderr.
fn server_fails(db: &Path, args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["server", "--db"])
        .arg(db)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--tls-cert CERT --tls-key KEY`.
fn tls_args(cert: &Path, key: &Path) -> Vec<std::ffi::OsString> {
    vec![
        "--tls-cert".into(),
        cert.into(),
        "--tls-key".into(),
        key.into(),
    ]
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_serves_wss_and_refuses_what_it_cannot_use_in_one_line() {
    let dir = TempDir::new("abuse-binary");
    let (cert, key, der) = certificate(&dir);
    let garbage = dir.db().with_file_name("garbage.pem");
    std::fs::write(&garbage, "not a certificate\n").unwrap();
    // A certificate of another key.
    let other = dir.db().with_file_name("other.pem");
    let another = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
    std::fs::write(&other, another.cert.pem()).unwrap();
    let missing = dir.db().with_file_name("missing.pem");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken = taken.local_addr().unwrap().to_string();
    let fresh = dir.db().with_file_name("fresh.sqlite");
    let on_any_port = |mut args: Vec<std::ffi::OsString>| {
        args.extend(["--listen".into(), "127.0.0.1:0".into()]);
        args
    };
    let cases = [
        (
            on_any_port(tls_args(&missing, &key)),
            "missing.pem: cannot read",
        ),
        (
            on_any_port(tls_args(&garbage, &key)),
            "garbage.pem: no PEM certificate",
        ),
        (on_any_port(tls_args(&other, &key)), "other.pem"),
        (vec!["--listen".into(), taken.into()], "cannot listen on"),
    ];
    for (args, says) in cases {
        let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsString::as_os_str).collect();
        let (code, stderr) = server_fails(&fresh, &args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(stderr.contains(says), "{stderr:?} should say {says:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr:?}");
        assert!(!fresh.exists(), "no database left behind by {args:?}");
    }
    // With a usable certificate it says wss:// and speaks it.
    let args = tls_args(&cert, &key);
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsString::as_os_str).collect();
    let server = Binary::start(&dir.db(), &args);
    assert!(server.url.starts_with("wss://127.0.0.1:"), "{}", server.url);
    let mut ws = wss(&server.url, &der).await.unwrap();
    assert!(matches!(
        hello_raw(&mut ws, "ann").await,
        ServerMsg::Welcome { .. }
    ));
    let (status, log) = server.stop(libc::SIGTERM).await;
    assert!(status.success(), "{status}: {log}");
    assert!(log.contains("tls=true"), "{log}");
}

#[test]
fn the_load_test_runs_its_own_server_over_wss() {
    let dir = TempDir::new("abuse-loadtest-wss");
    let (cert, key, _) = certificate(&dir);
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["loadtest", "--games", "2", "--concurrency", "1"])
        .args(tls_args(&cert, &key))
        .args(["--time-limit", "120"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("wss://127.0.0.1:"), "{stdout}");
    assert!(stdout.contains(": 2 games"), "{stdout}");
    assert!(stdout.contains("errors: 0"), "{stdout}");
}

#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_load_test_says_when_the_server_cannot_take_its_connections() {
    let dir = TempDir::new("abuse-loadtest-full");
    let server = Binary::start(&dir.db(), &["--max-connections".as_ref(), "3".as_ref()]);
    // Two games at once: four connections, one more than the server takes.
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "loadtest",
            &server.url,
            "--games",
            "2",
            "--concurrency",
            "2",
        ])
        .args(["--time-limit", "60"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let first: Vec<&str> = stdout.lines().take(2).collect();
    assert!(first[0].contains("3 in all"), "{stdout}");
    assert!(
        first[1].starts_with("note: this run opens 4 connections, more than the server's 3"),
        "{stdout}"
    );
    assert!(first[1].contains("--max-connections"), "{stdout}");
    // And so it was: a connection was refused, and the run failed.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("server full"), "{stdout}");
    let (status, log) = server.stop(libc::SIGTERM).await;
    assert!(status.success(), "{status}: {log}");
}
