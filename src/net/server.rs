//! The salon server: the tokio shell around the pure [`Lobby`].
//!
//! * Each connection is a task with a bounded outgoing queue (a client too
//!   slow to read is dropped), a size cap on frames, a token-bucket rate
//!   limit, a hello timeout and an idle timeout. A malformed or oversized
//!   frame closes that connection with a reason; nothing else is affected.
//! * One hub task owns the lobby and feeds it events in order, with the time.
//! * Storage changes go to a commit thread that commits them in batches (one
//!   transaction, synced) and only then lets the hub send the messages that
//!   acknowledge them, so an acknowledged move is always on disk. Messages
//!   keep their order: while a batch is being committed, later messages wait
//!   behind it.
//! * Engine seats search on a fixed pool of threads, off the network threads;
//!   results come back as events tagged with the move number, stale ones are
//!   ignored.
//!
//! WebSocket over tokio-tungstenite: it gives exactly a message stream over a
//! TCP socket with frame-size limits and nothing more, and any client (a
//! browser, `websocat`, a few lines of Python) can speak it.

use super::lobby::{AiJob, ConnId, Event, Lobby, LobbyConfig, Output};
use super::protocol::{ClientMsg, DecodeError, MAX_MESSAGE_BYTES, decode_client, encode};
use super::store::{Store, StoreError, StoreOp};
use super::text::truncate_bytes;
use crate::ai::{Engine, Limits};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::protocol::frame::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::{Message, Utf8Bytes};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// Connections at once; more are closed at once with "server full".
    pub max_connections: usize,
    /// Messages per second a connection may send on average.
    pub rate_per_sec: f64,
    /// Messages a connection may send in a burst.
    pub rate_burst: f64,
    /// A connection that sends nothing for this long is closed.
    pub idle_timeout: Duration,
    /// A connection must say hello within this time.
    pub hello_timeout: Duration,
    /// Threads searching for the engine seats.
    pub ai_threads: usize,
    /// Messages queued for one connection before it is dropped as too slow.
    pub out_queue: usize,
    /// The lobby's limits.
    pub lobby: LobbyConfig,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            max_connections: 1024,
            rate_per_sec: 20.0,
            rate_burst: 60.0,
            idle_timeout: Duration::from_secs(300),
            hello_timeout: Duration::from_secs(10),
            ai_threads: 1,
            out_queue: 512,
            lobby: LobbyConfig::default(),
        }
    }
}

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

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    hub: tokio::task::JoinHandle<Result<(), ServerError>>,
    accept: tokio::task::JoinHandle<()>,
}

impl Server {
    /// The address it listens on.
    #[must_use]
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, closes every connection ("server shutting down") and
    /// waits for the hub to finish.
    ///
    /// # Errors
    /// [`ServerError::Store`] if storage had failed.
    pub async fn shutdown(mut self) -> Result<(), ServerError> {
        let _ = self.shutdown.send(true);
        // The listening socket is closed once the accept loop has returned.
        let _ = (&mut self.accept).await;
        self.stopped().await
    }

    /// Waits until the server stops: after [`Server::shutdown`], or by itself
    /// when storage fails.
    ///
    /// # Errors
    /// [`ServerError::Store`] when storage failed.
    pub async fn stopped(&mut self) -> Result<(), ServerError> {
        match (&mut self.hub).await {
            Ok(r) => r,
            Err(e) => Err(ServerError::Stopped(format!("the hub stopped: {e}"))),
        }
    }
}

/// What goes to a connection task.
#[derive(Debug)]
enum Outgoing {
    Text(Utf8Bytes),
    Close(String),
}

enum HubEvent {
    Open(ConnId, mpsc::Sender<Outgoing>),
    Lobby(Event),
    Committed(Deliveries),
    StoreFailed(StoreError),
}

/// Serialised messages and closes, ready to hand to connections.
#[derive(Default)]
struct Deliveries {
    sends: Vec<(Vec<ConnId>, Utf8Bytes)>,
    close: Vec<(ConnId, String)>,
}

struct Batch {
    ops: Vec<StoreOp>,
    deliveries: Deliveries,
}

/// 128 random bits from the thread's CSPRNG (seeded by the OS), as 32 hex digits.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Loads the unfinished games from `store`, binds `config.listen` and starts
/// serving.
///
/// # Errors
/// [`ServerError`] when the store cannot be read or the address bound.
pub async fn start(config: ServerConfig, mut store: Box<dyn Store>) -> Result<Server, ServerError> {
    let snapshot = store.load()?;
    let listener = TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| ServerError::Bind {
        addr: config.listen,
        source,
    })?;
    let epoch = Instant::now();
    let mut lobby = Lobby::new(config.lobby, rand::random(), Box::new(new_token));
    let restored = lobby.restore(snapshot, 0)?;

    let (hub_tx, hub_rx) = mpsc::unbounded_channel();
    let (commit_tx, commit_rx) = std::sync::mpsc::channel::<Batch>();
    {
        let hub_tx = hub_tx.clone();
        std::thread::Builder::new()
            .name("salon-commit".into())
            .spawn(move || committer(store, &commit_rx, &hub_tx))
            .map_err(|e| ServerError::Stopped(format!("cannot start the commit thread: {e}")))?;
    }
    let ai = AiPool::start(config.ai_threads, &hub_tx);
    let (shutdown, shutdown_rx) = watch::channel(false);
    let hub = Hub {
        lobby,
        conns: HashMap::new(),
        in_flight: 0,
        commit: commit_tx,
        ai,
        epoch,
    };
    let hub = tokio::spawn(hub.run(hub_rx, restored, shutdown_rx.clone()));
    let accept = tokio::spawn(accept_loop(listener, config, hub_tx, shutdown_rx));
    Ok(Server {
        addr,
        shutdown,
        hub,
        accept,
    })
}

struct Hub {
    lobby: Lobby,
    conns: HashMap<ConnId, mpsc::Sender<Outgoing>>,
    /// Batches handed to the commit thread and not yet back.
    in_flight: usize,
    commit: std::sync::mpsc::Sender<Batch>,
    ai: AiPool,
    epoch: Instant,
}

impl Hub {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    async fn run(
        mut self,
        mut rx: mpsc::UnboundedReceiver<HubEvent>,
        restored: Output,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<(), ServerError> {
        self.dispatch(restored);
        loop {
            let deadline = self
                .lobby
                .next_deadline()
                .map(|d| tokio::time::Instant::from_std(self.epoch + Duration::from_millis(d)));
            let event = tokio::select! {
                ev = rx.recv() => match ev {
                    Some(ev) => ev,
                    None => return Ok(()),
                },
                () = sleep_until(deadline) => HubEvent::Lobby(Event::Tick),
                _ = shutdown.changed() => return Ok(()),
            };
            match event {
                HubEvent::Open(id, tx) => {
                    self.conns.insert(id, tx);
                }
                HubEvent::Lobby(ev) => {
                    if let Event::Closed(id) = ev {
                        self.conns.remove(&id);
                    }
                    let now = self.now();
                    let out = self.lobby.handle(now, ev);
                    self.dispatch(out);
                }
                HubEvent::Committed(d) => {
                    self.in_flight -= 1;
                    self.deliver(d);
                }
                HubEvent::StoreFailed(e) => return Err(ServerError::Store(e)),
            }
        }
    }

    fn dispatch(&mut self, out: Output) {
        for job in out.ai {
            self.ai.submit(job);
        }
        let deliveries = Deliveries {
            sends: out
                .sends
                .into_iter()
                .map(|d| (d.to, Utf8Bytes::from(encode(&d.msg))))
                .collect(),
            close: out.close,
        };
        if out.store.is_empty() && self.in_flight == 0 {
            self.deliver(deliveries);
        } else {
            self.in_flight += 1;
            // The commit thread only stops after a failure, which the hub
            // hears about as StoreFailed.
            let _ = self.commit.send(Batch {
                ops: out.store,
                deliveries,
            });
        }
    }

    fn deliver(&mut self, d: Deliveries) {
        for (to, text) in d.sends {
            for id in to {
                if let Some(tx) = self.conns.get(&id)
                    && tx.try_send(Outgoing::Text(text.clone())).is_err()
                {
                    // Too slow to read (or gone): dropping the sender ends
                    // its task, which reports the close.
                    self.conns.remove(&id);
                }
            }
        }
        for (id, reason) in d.close {
            if let Some(tx) = self.conns.remove(&id) {
                let _ = tx.try_send(Outgoing::Close(reason));
            }
        }
    }
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn committer(
    mut store: Box<dyn Store>,
    rx: &std::sync::mpsc::Receiver<Batch>,
    hub: &mpsc::UnboundedSender<HubEvent>,
) {
    while let Ok(first) = rx.recv() {
        let mut batches = vec![first];
        while batches.len() < 1024
            && let Ok(b) = rx.try_recv()
        {
            batches.push(b);
        }
        let ops: Vec<StoreOp> = batches.iter_mut().flat_map(|b| b.ops.drain(..)).collect();
        if let Err(e) = store.commit(&ops) {
            let _ = hub.send(HubEvent::StoreFailed(e));
            return;
        }
        for b in batches {
            if hub.send(HubEvent::Committed(b.deliveries)).is_err() {
                return;
            }
        }
    }
}

/// The engine's threads: a fixed number, fed through one queue.
struct AiPool {
    tx: std::sync::mpsc::Sender<AiJob>,
}

impl AiPool {
    fn start(threads: usize, hub: &mpsc::UnboundedSender<HubEvent>) -> AiPool {
        let (tx, rx) = std::sync::mpsc::channel::<AiJob>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let hub = hub.clone();
            let _ = std::thread::Builder::new()
                .name(format!("salon-ai-{i}"))
                .spawn(move || {
                    let mut engine = Engine::new(16);
                    loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        let square = think(&mut engine, &job);
                        let event = Event::AiMove {
                            table: job.table,
                            ply: job.ply,
                            job: job.job,
                            square,
                        };
                        if hub.send(HubEvent::Lobby(event)).is_err() {
                            return;
                        }
                    }
                });
        }
        AiPool { tx }
    }

    fn submit(&self, job: AiJob) {
        let _ = self.tx.send(job);
    }
}

/// The engine's move for a job: the level's limits, its time cut to a tenth
/// of the clock left.
fn think(engine: &mut Engine, job: &AiJob) -> String {
    let mut limits: Limits = job.level.limits();
    if let Some(ms) = job.clock_ms {
        let share = Duration::from_millis(ms / 10);
        limits.time = Some(limits.time.map_or(share, |t| t.min(share)));
    }
    let stop = AtomicBool::new(false);
    let r = engine.search(
        &job.position,
        &job.rules,
        &limits,
        &stop,
        job.seed,
        &mut |_| {},
    );
    // `d3` or `pass`, as the protocol writes moves.
    r.best_move.to_string()
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

async fn accept_loop(
    listener: TcpListener,
    config: ServerConfig,
    hub: mpsc::UnboundedSender<HubEvent>,
    mut shutdown: watch::Receiver<bool>,
) {
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let config = Arc::new(config);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = shutdown.changed() => return,
        };
        let Ok((stream, _)) = accepted else {
            // Out of descriptors or similar: wait a little rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let _ = stream.set_nodelay(true);
        let permit = Arc::clone(&permits).try_acquire_owned().ok();
        let config = Arc::clone(&config);
        let hub = hub.clone();
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let id = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
            connection(stream, id, permit.is_some(), &config, hub, shutdown).await;
            drop(permit);
        });
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

fn close_frame(code: CloseCode, reason: &str) -> Message {
    let mut reason = reason.to_string();
    // A close reason holds at most 123 bytes.
    truncate_bytes(&mut reason, 123);
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

async fn connection(
    stream: TcpStream,
    id: ConnId,
    admitted: bool,
    config: &ServerConfig,
    hub: mpsc::UnboundedSender<HubEvent>,
    mut shutdown: watch::Receiver<bool>,
) {
    // Frames up to 64 KiB are read and refused with a reason (over
    // MAX_MESSAGE_BYTES); larger ones fail in the WebSocket layer, which
    // drops the connection.
    const { assert!(MAX_MESSAGE_BYTES < 64 << 10) };
    // A small read buffer: the WebSocket layer zeroes it on every read, and
    // messages here are small (with the default 128 KiB, zeroing was a third
    // of the server's time under load).
    let ws_config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .max_message_size(Some(64 << 10))
        .max_frame_size(Some(64 << 10));
    let handshake = tokio_tungstenite::accept_async_with_config(stream, Some(ws_config));
    let Ok(Ok(ws)) = tokio::time::timeout(config.hello_timeout, handshake).await else {
        return;
    };
    let (mut sink, mut frames) = ws.split();
    if !admitted {
        let _ = sink
            .send(close_frame(
                CloseCode::Again,
                "server full: too many connections",
            ))
            .await;
        return;
    }
    let (tx, mut rx) = mpsc::channel(config.out_queue);
    if hub.send(HubEvent::Open(id, tx)).is_err() {
        return;
    }
    let mut bucket = Bucket {
        tokens: config.rate_burst,
        last: Instant::now(),
        rate: config.rate_per_sec,
        burst: config.rate_burst,
    };
    let mut said_hello = false;
    let mut last_heard = Instant::now();
    let close = loop {
        let quiet = if said_hello {
            config.idle_timeout
        } else {
            config.hello_timeout
        };
        tokio::select! {
            frame = frames.next() => {
                last_heard = Instant::now();
                let incoming = Incoming { id, config, hub: &hub };
                if let ControlFlow::Break(close) = incoming.frame(frame, &mut bucket, &mut said_hello) {
                    break close;
                }
            }
            out = rx.recv() => {
                if let ControlFlow::Break(close) = send_out(out, &mut sink, &mut rx).await {
                    break close;
                }
            }
            () = tokio::time::sleep_until((last_heard + quiet).into()) => {
                let why = if said_hello { "idle for too long" } else { "no hello in time" };
                break Some(close_frame(CloseCode::Away, why));
            }
            _ = shutdown.changed() => break Some(close_frame(CloseCode::Away, "server shutting down")),
        }
    };
    if let Some(frame) = close {
        let _ = tokio::time::timeout(Duration::from_secs(1), sink.send(frame)).await;
    }
    let _ = hub.send(HubEvent::Lobby(Event::Closed(id)));
}

/// What a connection passes on to the hub.
struct Incoming<'a> {
    id: ConnId,
    config: &'a ServerConfig,
    hub: &'a mpsc::UnboundedSender<HubEvent>,
}

impl Incoming<'_> {
    /// One frame from the client: a message goes to the hub; the end of the
    /// stream, a bad or binary frame, a message over the rate or one that
    /// does not decode ends the connection (with the close frame to send,
    /// if any).
    fn frame(
        &self,
        frame: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
        bucket: &mut Bucket,
        said_hello: &mut bool,
    ) -> ControlFlow<Option<Message>> {
        let text = match frame {
            None | Some(Ok(Message::Close(_))) => return ControlFlow::Break(None),
            Some(Err(e)) => {
                return ControlFlow::Break(Some(close_frame(
                    CloseCode::Protocol,
                    &format!("bad frame: {e}"),
                )));
            }
            Some(Ok(Message::Binary(_))) => {
                return ControlFlow::Break(Some(close_frame(
                    CloseCode::Unsupported,
                    "binary frames are not part of the protocol",
                )));
            }
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => return ControlFlow::Continue(()),
        };
        if !bucket.take() {
            return ControlFlow::Break(Some(close_frame(
                CloseCode::Policy,
                &format!(
                    "too many messages: more than {} a second",
                    self.config.rate_per_sec
                ),
            )));
        }
        match decode_client(&text) {
            Ok(msg) => {
                *said_hello |= matches!(msg, ClientMsg::Hello { .. });
                if self
                    .hub
                    .send(HubEvent::Lobby(Event::Message(self.id, msg)))
                    .is_err()
                {
                    return ControlFlow::Break(Some(close_frame(
                        CloseCode::Away,
                        "server shutting down",
                    )));
                }
                ControlFlow::Continue(())
            }
            Err(e @ DecodeError::TooLarge(_)) => {
                ControlFlow::Break(Some(close_frame(CloseCode::Size, &e.to_string())))
            }
            Err(e) => ControlFlow::Break(Some(close_frame(CloseCode::Invalid, &e.to_string()))),
        }
    }
}

/// Sends what the hub queued for the client: this message and everything
/// already behind it, with one flush. Ends the connection when the hub
/// closes it, when the queue overflowed (the client did not read), or when
/// the socket fails.
async fn send_out(
    out: Option<Outgoing>,
    sink: &mut SplitSink<WebSocketStream<TcpStream>, Message>,
    rx: &mut mpsc::Receiver<Outgoing>,
) -> ControlFlow<Option<Message>> {
    let text = match out {
        Some(Outgoing::Text(t)) => t,
        Some(Outgoing::Close(reason)) => {
            return ControlFlow::Break(Some(close_frame(CloseCode::Policy, &reason)));
        }
        None => {
            return ControlFlow::Break(Some(close_frame(
                CloseCode::Policy,
                "too slow: messages were not read",
            )));
        }
    };
    if sink.feed(Message::Text(text)).await.is_err() {
        return ControlFlow::Break(None);
    }
    let mut closing = None;
    for _ in 0..64 {
        match rx.try_recv() {
            Ok(Outgoing::Text(t)) => {
                if sink.feed(Message::Text(t)).await.is_err() {
                    break;
                }
            }
            Ok(Outgoing::Close(reason)) => {
                closing = Some(reason);
                break;
            }
            Err(_) => break,
        }
    }
    if sink.flush().await.is_err() {
        return ControlFlow::Break(None);
    }
    match closing {
        Some(reason) => ControlFlow::Break(Some(close_frame(CloseCode::Policy, &reason))),
        None => ControlFlow::Continue(()),
    }
}
