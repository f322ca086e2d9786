//! One connection, from the accepted socket to its last byte.
//!
//! 1. Opening, within the hello timeout: the TLS handshake (with a
//!    certificate), the HTTP request head (a request without the WebSocket
//!    upgrade is answered 426), the count against the client's address,
//!    the WebSocket handshake. A connection over `max_connections` (1013) or
//!    over its address's share (1008) is closed at once with a reason.
//! 2. Running: a reader and a writer at once, so that a client that stops
//!    reading never stops the connection from hearing it, timing it out or
//!    closing it. The reader counts every frame (WebSocket pings included)
//!    against a token bucket and only protocol messages reset the idle
//!    timer. The writer sends what the hub queued, each batch within the
//!    write timeout; the hub closes a connection whose queue is over its
//!    limits (in messages or bytes) by waking [`Outbox::evicted`].
//! 3. Closing: the hub is told at once (like a dropped connection: the
//!    player's presence changes) and the connection stops counting against
//!    the limits; then the close frame goes out and the client's frames are
//!    read until its answer, for at most [`LINGER`], before the server
//!    closes its side: closing a socket with input unread makes the kernel
//!    send a reset, which can destroy the close frame on its way, and the
//!    client would see 1006 instead of the code and reason.

use super::hub::{ConnEvent, Handle, Outbox, Outgoing};
use super::shared::Shared;
use super::transport::{self, Answer, HeadError, Io, Transport};
use crate::net::lobby::ConnId;
use crate::net::protocol::{ClientMsg, DecodeError, MAX_MESSAGE_BYTES, decode_client};
use crate::net::text::truncate_bytes;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::error::ProtocolError;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

/// The longest a closing connection waits for its close frame to leave and
/// for the client to close its side.
pub(super) const LINGER: Duration = Duration::from_secs(2);

/// Messages the writer sends with one flush.
const BATCH: usize = 64;

type Ws = WebSocketStream<Transport>;

/// Why a connection ends.
#[derive(Debug)]
enum Ending {
    /// The client sent a close frame (answered by the WebSocket layer).
    ClientClosed,
    /// The socket ended or failed without a close frame.
    Lost(String),
    /// The server closes it with this code and reason.
    Close(CloseCode, String),
}

impl Ending {
    fn close(code: CloseCode, reason: impl Into<String>) -> Ending {
        Ending::Close(code, reason.into())
    }

    /// A read error: the RFC 6455 code for what the client did wrong.
    fn of_error(e: WsError) -> Ending {
        match e {
            WsError::Capacity(e) => Ending::close(CloseCode::Size, format!("frame too large: {e}")),
            WsError::Utf8(_) => Ending::close(CloseCode::Invalid, "a text frame is not UTF-8"),
            WsError::Protocol(ProtocolError::ResetWithoutClosingHandshake) => {
                Ending::Lost("closed without a close frame".into())
            }
            WsError::Protocol(e) => Ending::close(CloseCode::Protocol, format!("bad frame: {e}")),
            e => Ending::Lost(e.to_string()),
        }
    }

    fn shutting_down() -> Ending {
        Ending::close(CloseCode::Away, "server shutting down")
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::ClientClosed => f.write_str("closed by the client"),
            Ending::Lost(why) => write!(f, "lost: {why}"),
            Ending::Close(code, reason) => write!(f, "{} {reason}", u16::from(*code)),
        }
    }
}

/// A connection opened up to the WebSocket, not yet admitted.
struct Opened {
    ws: Ws,
    client: IpAddr,
    tls: bool,
}

/// Runs one connection; `alive` is held until it is over.
pub(super) async fn run(
    stream: TcpStream,
    peer: SocketAddr,
    id: ConnId,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
) {
    let _alive = alive;
    let config = &shared.config;
    let mut shutdown = shared.shutdown.clone();
    let opening = tokio::time::timeout(config.hello_timeout, open(stream, peer, &shared));
    let opened = tokio::select! {
        o = opening => o,
        () = super::stop_requested(&mut shutdown) => return,
    };
    let Ok(Some(Opened { ws, client, tls })) = opened else {
        return;
    };
    let Ok(permit) = Arc::clone(&shared.permits).try_acquire_owned() else {
        tracing::info!(client = %client, "refused: server full");
        let full = Ending::close(CloseCode::Again, "server full: too many connections");
        close(ws, &full).await;
        return;
    };
    let Some(slot) = shared.addresses.admit(client) else {
        tracing::info!(client = %client, "refused: too many connections from this address");
        let reason = format!(
            "too many connections from your address (at most {})",
            shared.addresses.max()
        );
        close(ws, &Ending::close(CloseCode::Policy, reason)).await;
        return;
    };
    let (tx, rx) = mpsc::channel(config.out_queue);
    let outbox = Arc::new(Outbox::default());
    let handle = Handle {
        tx,
        outbox: Arc::clone(&outbox),
    };
    if shared.hub.send(ConnEvent::Open(id, handle)).await.is_err() {
        close(ws, &Ending::shutting_down()).await;
        return;
    }
    tracing::info!(client = %client, tls, "connection opened");
    let (mut sink, mut frames) = ws.split();
    let ending = tokio::select! {
        biased;
        () = outbox.evicted.notified() => Ending::close(
            CloseCode::Policy,
            "too slow: more messages waiting than the server keeps",
        ),
        e = write(&mut sink, rx, &outbox, config.write_timeout) => e,
        e = read(&mut frames, id, &shared) => e,
    };
    // Told at once, like a dropped connection, whatever the close takes;
    // and no longer counted.
    let _ = shared.hub.send(ConnEvent::Closed(id)).await;
    drop((permit, slot));
    tracing::info!(reason = %ending, "connection closed");
    if let Ok(ws) = frames.reunite(sink) {
        close(ws, &ending).await;
    }
}

/// TLS, the request head, the WebSocket handshake: `None` when the client
/// went away, failed a handshake or was answered over plain HTTP.
async fn open(stream: TcpStream, peer: SocketAddr, shared: &Shared) -> Option<Opened> {
    let mut io = match &shared.config.tls {
        Some(tls) => match tls.acceptor().accept(stream).await {
            Ok(s) => Io::Tls(Box::new(s)),
            Err(e) => {
                tracing::debug!(error = %e, "TLS handshake failed");
                return None;
            }
        },
        None => Io::Plain(stream),
    };
    let head = match transport::read_head(&mut io).await {
        Ok(head) => head,
        Err(HeadError::Closed) => return None,
        Err(HeadError::Malformed) => {
            tracing::debug!("not an HTTP request: answered 400");
            transport::answer(&mut io, Answer::BadRequest).await;
            return None;
        }
    };
    if !head.upgrade {
        tracing::debug!("an HTTP request without the WebSocket upgrade: answered 426");
        transport::answer(&mut io, Answer::UpgradeRequired).await;
        return None;
    }
    let client = shared.client_address(peer.ip(), head.forwarded_for);
    let tls = io.is_tls();
    // Frames up to 64 KiB are read and refused with a reason (over
    // MAX_MESSAGE_BYTES); larger ones fail in the WebSocket layer, which
    // closes with 1009 too. A small read buffer: the WebSocket layer zeroes
    // it on every read, and messages here are small (with the default
    // 128 KiB, zeroing was a third of the server's time under load).
    const { assert!(MAX_MESSAGE_BYTES < 64 << 10) };
    let ws_config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .max_message_size(Some(64 << 10))
        .max_frame_size(Some(64 << 10));
    match tokio_tungstenite::accept_async_with_config(Transport::new(io, head), Some(ws_config))
        .await
    {
        Ok(ws) => Some(Opened { ws, client, tls }),
        Err(e) => {
            tracing::debug!(error = %e, "WebSocket handshake failed");
            None
        }
    }
}

/// Token bucket: `rate` per second, up to `burst`.
struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn full(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            last: Instant::now(),
            rate,
            burst,
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(self.burst);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Reads the client's frames and passes its messages to the hub until the
/// connection must end.
async fn read(frames: &mut SplitStream<Ws>, id: ConnId, shared: &Shared) -> Ending {
    let config = &shared.config;
    let mut bucket = Bucket::full(config.rate_per_sec, config.rate_burst);
    let over_rate = || {
        Ending::close(
            CloseCode::Policy,
            format!(
                "too many messages: more than {} a second",
                config.rate_per_sec
            ),
        )
    };
    let mut said_hello = false;
    let mut last_heard = Instant::now();
    loop {
        let quiet = if said_hello {
            config.idle_timeout
        } else {
            config.hello_timeout
        };
        let frame = tokio::select! {
            f = frames.next() => f,
            () = tokio::time::sleep_until(last_heard + quiet) => {
                let why = if said_hello { "idle for too long" } else { "no hello in time" };
                return Ending::close(CloseCode::Away, why);
            }
        };
        let text = match frame {
            None => return Ending::Lost("closed without a close frame".into()),
            Some(Err(e)) => return Ending::of_error(e),
            Some(Ok(Message::Close(_))) => return Ending::ClientClosed,
            Some(Ok(Message::Binary(_))) => {
                return Ending::close(
                    CloseCode::Unsupported,
                    "binary frames are not part of the protocol",
                );
            }
            // Answered by the WebSocket layer; they count, but keep nothing alive.
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => {
                if !bucket.take() {
                    return over_rate();
                }
                continue;
            }
            Some(Ok(Message::Text(text))) => text,
        };
        if !bucket.take() {
            return over_rate();
        }
        match decode_client(&text) {
            Ok(msg) => {
                said_hello |= matches!(msg, ClientMsg::Hello { .. });
                last_heard = Instant::now();
                if shared.hub.send(ConnEvent::Message(id, msg)).await.is_err() {
                    return Ending::shutting_down();
                }
            }
            Err(e @ DecodeError::TooLarge(_)) => {
                return Ending::close(CloseCode::Size, e.to_string());
            }
            Err(e) => return Ending::close(CloseCode::Invalid, e.to_string()),
        }
    }
}

/// Sends what the hub queues, a batch per flush, each within
/// `write_timeout`, until the hub closes the connection or lets it go
/// (when the server shuts down), or a write fails or times out.
async fn write(
    sink: &mut SplitSink<Ws, Message>,
    mut rx: mpsc::Receiver<Outgoing>,
    outbox: &Outbox,
    write_timeout: Duration,
) -> Ending {
    let mut batch = Vec::with_capacity(BATCH);
    loop {
        let Some(first) = rx.recv().await else {
            return Ending::shutting_down();
        };
        let mut closing = None;
        let mut bytes = 0;
        let mut next = Some(first);
        while let Some(out) = next {
            match out {
                Outgoing::Text(text) => {
                    bytes += text.len();
                    batch.push(Message::Text(text));
                }
                Outgoing::Close(code, reason) => {
                    closing = Some(Ending::Close(code, reason));
                    break;
                }
            }
            next = if batch.len() < BATCH {
                rx.try_recv().ok()
            } else {
                None
            };
        }
        let written = tokio::time::timeout(write_timeout, async {
            for message in batch.drain(..) {
                sink.feed(message).await?;
            }
            sink.flush().await
        })
        .await;
        match written {
            Err(_) => {
                return Ending::close(
                    CloseCode::Policy,
                    format!(
                        "too slow: messages not read within {} s",
                        write_timeout.as_secs_f64()
                    ),
                );
            }
            Ok(Err(e)) => return Ending::Lost(e.to_string()),
            Ok(Ok(())) => outbox.sent(bytes),
        }
        if let Some(ending) = closing {
            return ending;
        }
    }
}

/// The close frame of `ending`, if the server sends one.
fn close_frame(ending: &Ending) -> Option<CloseFrame> {
    let Ending::Close(code, reason) = ending else {
        return None;
    };
    let mut reason = reason.clone();
    // A close reason holds at most 123 bytes.
    truncate_bytes(&mut reason, 123);
    Some(CloseFrame {
        code: *code,
        reason: reason.into(),
    })
}

/// Ends the WebSocket, all within [`LINGER`]: sends the close frame and
/// reads until the client's answer (dropping what comes before it), or
/// sends the answer to the client's close frame, which the WebSocket layer
/// queued; then closes the write side (over TLS with a close_notify). When
/// the client's frames cannot be read any more (after a frame over the
/// size limit), its bytes are drained instead.
async fn close(mut ws: Ws, ending: &Ending) {
    let _ = tokio::time::timeout(LINGER, async {
        match close_frame(ending) {
            Some(frame) => {
                if ws.close(Some(frame)).await.is_err() {
                    return;
                }
                loop {
                    match ws.next().await {
                        Some(Ok(Message::Close(_))) | None => break,
                        Some(Ok(_)) => {}
                        Some(Err(_)) => {
                            transport::drain(ws.get_mut()).await;
                            return;
                        }
                    }
                }
            }
            None if matches!(ending, Ending::ClientClosed) => {
                let _ = ws.flush().await;
            }
            None => return,
        }
        let _ = ws.get_mut().shutdown().await;
    })
    .await;
}
