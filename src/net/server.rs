//! The salon server: the tokio shell around the pure [`Lobby`].
//!
//! * [`config`]: how the server runs ([`ServerConfig`]).
//! * [`accept`]: the accept loop.
//! * [`shared`]: what every connection shares: the settings, the hub's
//!   inbox, the count of connections and the count per client address.
//! * [`transport`]: what a connection runs on (TCP, or TLS over TCP), the
//!   HTTP request head read before the WebSocket handshake (a request
//!   without the upgrade is answered `426 Upgrade Required`; a trusted
//!   proxy's `X-Forwarded-For` is read there) and the lingering close that
//!   lets a close frame arrive.
//! * [`connection`]: one connection, a task reading and writing at once:
//!   its frames count against a token-bucket rate (WebSocket pings
//!   included), only protocol messages keep it from the idle timeout, its
//!   writes have a time limit and what waits for it a limit in messages and
//!   in bytes, so a client that stops reading is closed like a dropped one.
//!   A malformed, oversized or non-UTF-8 frame closes it with the RFC 6455
//!   code and a reason; nothing else is affected.
//! * [`hub`]: one task owns the lobby and feeds it events in order, with
//!   the time ([`clock`]: the real one, or one moved by hand in tests);
//!   its inbox from the connections is bounded, and it stops
//!   taking from it while too many batches wait for the disk.
//! * [`commit`]: storage changes go to a thread that commits them in batches
//!   (one transaction, synced) and only then lets the hub send the messages
//!   that acknowledge them, so an acknowledged move is always on disk.
//!   Messages keep their order: while a batch is being committed, later
//!   messages wait behind it.
//! * [`engines`]: engine seats search on a fixed pool of the engine's
//!   worker threads ([`crate::ai::worker`]), off the network threads;
//!   moves come back as events tagged with the move number, stale ones are
//!   ignored.
//! * [`tls`]: the server's own TLS (`wss://`) from PEM files.
//!
//! [`Server::shutdown`] stops accepting, lets the commit thread finish every
//! batch already handed to it (their acknowledgements still go out), then
//! closes every connection with 1001 "going away" after the messages queued
//! for it, so clients reconnect to the next server.
//!
//! WebSocket over tokio-tungstenite: it gives exactly a message stream over a
//! byte stream with frame-size limits and nothing more, and any client (a
//! browser, `websocat`, a few lines of Python) can speak it. Events are
//! logged through `tracing`: connections opened and closed (with the
//! address and the reason), games started and ended, errors; one span per
//! connection.

mod accept;
mod clock;
mod commit;
mod config;
mod connection;
mod engines;
mod hub;
mod shared;
mod tls;
mod transport;

pub use clock::ServerClock;
pub use config::ServerConfig;
pub use tls::{Tls, TlsError};

use super::lobby::Lobby;
use super::store::{Store, StoreError};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{mpsc, watch};
use tracing::Instrument;

/// Events from connections the hub holds at most before connections wait.
const HUB_INBOX: usize = 1024;

/// The kernel's send buffer of each connection, in bytes. Fixed rather than
/// grown by the kernel (up to megabytes): the salon's messages are small,
/// and a client that stops reading then fills it soon, so the server sees
/// its writes stall (and closes it) instead of the kernel holding megabytes
/// for it.
const SEND_BUFFER: u32 = 64 << 10;

/// Batches waiting for the disk beyond which the hub takes no more events
/// from connections (they wait, and so do their clients' sockets).
const MAX_IN_FLIGHT: usize = 4096;

/// Why the server could not start or had to stop.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The store failed; the server stops rather than acknowledge what it
    /// cannot keep.
    #[error("storage: {0}")]
    Store(#[from] StoreError),
    /// The server's own threads could not start or stopped.
    #[error("{0}")]
    Stopped(String),
}

/// A bound listening socket, not yet serving: binding comes before opening
/// the store, so that an address in use leaves no new database behind.
#[derive(Debug)]
pub struct Listener {
    socket: TcpListener,
    addr: SocketAddr,
}

impl Listener {
    /// Binds `addr`.
    ///
    /// # Errors
    /// [`ServerError::Bind`] when the address cannot be bound.
    pub async fn bind(addr: SocketAddr) -> Result<Listener, ServerError> {
        let bind_error = |source| ServerError::Bind { addr, source };
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()
        } else {
            TcpSocket::new_v6()
        }
        .map_err(bind_error)?;
        // A restarted server binds while the last one's connections linger.
        #[cfg(unix)]
        socket.set_reuseaddr(true).map_err(bind_error)?;
        // Accepted connections inherit it.
        socket
            .set_send_buffer_size(SEND_BUFFER)
            .map_err(bind_error)?;
        socket.bind(addr).map_err(bind_error)?;
        let socket = socket.listen(1024).map_err(bind_error)?;
        let addr = socket.local_addr().map_err(bind_error)?;
        Ok(Listener { socket, addr })
    }

    /// The address bound (with the port chosen for port 0).
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    accept: tokio::task::JoinHandle<()>,
    hub: Option<tokio::task::JoinHandle<Result<(), ServerError>>>,
    outcome: Option<Result<(), ServerError>>,
    commit: Option<std::thread::JoinHandle<()>>,
    /// Ends (`None`) once the accept loop and every connection task are gone.
    alive: mpsc::Receiver<()>,
    /// How long the connections may take to close after the hub let them go.
    closing: Duration,
}

impl Server {
    /// The address it listens on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, lets the commit thread finish every batch handed to
    /// it (their messages still go out), closes every connection with 1001
    /// "server shutting down" after what was queued for it, waits for the
    /// connections to close (a bounded time) and for the commit thread to
    /// end.
    ///
    /// # Errors
    /// [`ServerError::Store`] if storage had failed.
    pub async fn shutdown(mut self) -> Result<(), ServerError> {
        let _ = self.shutdown.send(true);
        // The listening socket is closed once the accept loop has returned.
        let _ = (&mut self.accept).await;
        self.stopped().await;
        let outcome = self.outcome.take().unwrap_or(Ok(()));
        let _ = tokio::time::timeout(self.closing, self.alive.recv()).await;
        if let Some(commit) = self.commit.take() {
            let _ = tokio::task::spawn_blocking(move || commit.join()).await;
        }
        tracing::info!("stopped");
        outcome
    }

    /// Waits until the hub stops: after [`Server::shutdown`] began, or by
    /// itself when storage fails ([`Server::shutdown`] then returns the
    /// error).
    pub async fn stopped(&mut self) {
        if let Some(hub) = self.hub.take() {
            self.outcome = Some(match hub.await {
                Ok(r) => r,
                Err(e) => Err(ServerError::Stopped(format!("the hub stopped: {e}"))),
            });
        }
    }
}

/// Resolves once the server is asked to shut down (or its [`Server`] is
/// dropped).
async fn stop_requested(shutdown: &mut watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// 128 random bits from the thread's CSPRNG (seeded by the OS), as 32 hex digits.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Binds `config.listen`, loads the unfinished games from `store` and starts
/// serving.
///
/// # Errors
/// [`ServerError`] when the address cannot be bound or the store read.
pub async fn start(config: ServerConfig, store: Box<dyn Store>) -> Result<Server, ServerError> {
    let listener = Listener::bind(config.listen).await?;
    start_on(listener, config, store)
}

/// Loads the unfinished games from `store` and starts serving on
/// `listener` (`config.listen` is not used). Must be called within a tokio
/// runtime.
///
/// # Errors
/// [`ServerError`] when the store cannot be read or a thread started.
pub fn start_on(
    listener: Listener,
    mut config: ServerConfig,
    mut store: Box<dyn Store>,
) -> Result<Server, ServerError> {
    let snapshot = store.load()?;
    config.lobby.limits = Some(config.limits());
    let seed = config.seed.unwrap_or_else(crate::random::fresh_seed);
    let mut lobby = Lobby::new(config.lobby, seed, Box::new(new_token));
    let restored = lobby.restore(snapshot, 0)?;

    let (internal_tx, internal_rx) = mpsc::unbounded_channel();
    let (commit_tx, commit_rx) = std::sync::mpsc::channel();
    let commit = commit::start(store, commit_rx, internal_tx.clone())
        .map_err(|e| ServerError::Stopped(format!("cannot start the commit thread: {e}")))?;
    let ai = engines::Engines::start(config.ai_threads, config.book.clone(), {
        let internal = internal_tx.clone();
        move |ev| {
            // Once the hub is gone, answers have no one to go to.
            let _ = internal.send(hub::Internal::Engine(ev));
        }
    });
    let (conn_tx, conn_rx) = mpsc::channel(HUB_INBOX);
    let (shutdown, shutdown_rx) = watch::channel(false);
    let hub = hub::Hub::new(hub::HubSetup {
        lobby,
        commit: commit_tx,
        ai,
        clock: config.clock.start(Instant::now()),
        out_queue_bytes: config.out_queue_bytes,
        max_in_flight: MAX_IN_FLIGHT,
    });
    let hub = tokio::spawn(
        hub.run(conn_rx, internal_rx, restored, shutdown_rx.clone())
            .instrument(tracing::info_span!("hub")),
    );
    let closing = config.write_timeout + connection::LINGER;
    let (alive_tx, alive) = mpsc::channel(1);
    let shared = shared::Shared::new(config, conn_tx, shutdown_rx);
    let accept = tokio::spawn(accept::accept_loop(listener.socket, shared, alive_tx));
    Ok(Server {
        addr: listener.addr,
        shutdown,
        accept,
        hub: Some(hub),
        outcome: None,
        commit: Some(commit),
        alive,
        closing,
    })
}
