//! A client pointed at a server that is not a salon stops with "not a salon
//! server" instead of waiting on "connecting…": a WebSocket echo server, a
//! WebSocket server that says nothing, a plain HTTP server. And the
//! obvious spellings of a salon's address (`http://host:port`, bare
//! `host:port`) reach it. Real sockets on 127.0.0.1.

mod common_salon;

use common_salon::{TempDir, server};
use futures_util::{SinkExt, StreamExt};
use reversi::net::client::Trust;
use reversi::net::protocol::ServerMsg;
use reversi::net::session::{NOT_A_SALON, SessionConfig, SessionEvent, run_session};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// What a session of `name` at `url` reports first that ends it or
/// welcomes it.
async fn first_outcome(url: &str, name: &str, welcome_timeout: Duration) -> SessionEvent {
    let (_requests_tx, requests) = mpsc::unbounded_channel();
    let (events_tx, mut events) = mpsc::unbounded_channel();
    let config = SessionConfig {
        url: url.into(),
        name: name.into(),
        token: None,
        trust: Trust::default(),
        seed: 5,
        welcome_timeout,
    };
    let session = tokio::spawn(async move {
        run_session(config, requests, &mut |e| events_tx.send(e).is_ok()).await;
    });
    let outcome = loop {
        let e = tokio::time::timeout(Duration::from_secs(30), events.recv())
            .await
            .expect("an outcome within 30 s")
            .expect("the session reports before it ends");
        match e {
            SessionEvent::Unreachable { .. } | SessionEvent::Message(ServerMsg::Welcome { .. }) => {
                break e;
            }
            SessionEvent::Retrying { .. } => panic!("{url}: retrying instead of stopping"),
            _ => {}
        }
    };
    session.abort();
    outcome
}

fn assert_not_salon(e: &SessionEvent) {
    match e {
        SessionEvent::Unreachable { reason } => {
            assert!(reason.contains(NOT_A_SALON), "{reason}");
        }
        other => panic!("{other:?}"),
    }
}

/// A WebSocket server that answers every connection with `serve`.
async fn websocket_server<F, Fut>(serve: F) -> String
where
    F: Fn(tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            if let Ok(ws) = tokio_tungstenite::accept_async(tcp).await {
                tokio::spawn(serve(ws));
            }
        }
    });
    format!("ws://{addr}")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_echo_server_is_not_a_salon() {
    let url = websocket_server(|mut ws| async move {
        while let Some(Ok(m)) = ws.next().await {
            if m.is_text() && ws.send(m).await.is_err() {
                return;
            }
        }
    })
    .await;
    // The generous welcome time is not what ends it: the echo does.
    assert_not_salon(&first_outcome(&url, "ann", Duration::from_secs(60)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_websocket_server_is_not_a_salon() {
    let url = websocket_server(|mut ws| async move { while ws.next().await.is_some() {} }).await;
    assert_not_salon(&first_outcome(&url, "ann", Duration::from_millis(300)).await);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_http_server_is_not_a_salon() {
    for answer in [
        "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>hello</p>",
        "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ] {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut tcp, _)) = listener.accept().await {
                let mut buf = [0u8; 4096];
                let _ = tcp.read(&mut buf).await;
                let _ = tcp.write_all(answer.as_bytes()).await;
                let _ = tcp.shutdown().await;
            }
        });
        let e = first_outcome(&format!("http://{addr}"), "ann", Duration::from_secs(60)).await;
        assert_not_salon(&e);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_salon_is_reached_by_its_http_or_bare_address() {
    let dir = TempDir::new("spellings");
    let (server, url) = server(&dir).await;
    let addr = url.trim_start_matches("ws://").to_string();
    for (i, typed) in [
        format!("http://{addr}"),
        addr.clone(),
        format!(" HTTP://{addr}/ "),
    ]
    .into_iter()
    .enumerate()
    {
        // Each spelling as a new player (one session per name).
        let e = first_outcome(&typed, &format!("ann{i}"), Duration::from_secs(60)).await;
        assert!(
            matches!(e, SessionEvent::Message(ServerMsg::Welcome { .. })),
            "{i}: {typed:?}: {e:?}"
        );
    }
    server.shutdown().await.unwrap();
}
