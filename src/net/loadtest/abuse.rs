//! Two measurements of clients that misbehave, behind `reversi loadtest
//! --stuck N` and `--ping-flood`: on this machine only (a `ws://` URL on a
//! loopback address), bounded in count and time. They report what happened
//! and how long it took; they assert nothing.
//!
//! * [`run_stuck`]: readers with a 4 KiB receive buffer say hello, sit at a
//!   game against a partner, stop reading, then ask for the table list many
//!   times (within the server's rate). How long until the server closes
//!   each one, as its partner hears it (the `presence` message saying it is
//!   gone, which is also what lets the partner claim the game).
//! * [`run_flood`]: clients measure their `ping` round trip, quietly, then
//!   while one connection sends WebSocket pings as fast as it can; whether
//!   (and when) that connection is closed.

use super::{Pacer, hello};
use crate::net::client::{ClientError, Trust};
use crate::net::protocol::{
    ClientMsg, ColourChoice, Opponent, PROTOCOL_VERSION, ServerMsg, TableSpec, decode_server,
    encode,
};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

/// The receive buffer of a stuck reader's socket.
const STUCK_RECEIVE_BUFFER: u32 = 4096;

/// The most stuck readers (each with a partner) in one run.
pub const MAX_STUCK: usize = 1000;

/// The most measuring clients in a ping flood.
pub const MAX_FLOOD_CLIENTS: usize = 100;

type RawWs = WebSocketStream<TcpStream>;

fn failed(e: impl std::fmt::Display) -> ClientError {
    ClientError::Protocol(e.to_string())
}

/// The loopback address of a `ws://` URL.
///
/// # Errors
/// [`ClientError::Connect`] for another scheme, a name that does not
/// resolve, or an address that is not loopback.
pub async fn loopback_addr(url: &str) -> Result<SocketAddr, ClientError> {
    let refuse = |reason: &str| ClientError::Connect {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let rest = url
        .strip_prefix("ws://")
        .ok_or_else(|| refuse("these measurements need a ws:// URL"))?;
    let host_port = rest.split('/').next().unwrap_or(rest);
    let mut addrs = tokio::net::lookup_host(host_port)
        .await
        .map_err(|e| refuse(&e.to_string()))?;
    addrs.find(|a| a.ip().is_loopback()).ok_or_else(|| {
        refuse("not a loopback address: these measurements run on this machine only")
    })
}

async fn send_raw<S>(ws: &mut WebSocketStream<S>, msg: &ClientMsg) -> Result<(), ClientError>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    ws.send(Message::Text(encode(msg).into()))
        .await
        .map_err(|e| ClientError::Closed(Some(e.to_string())))
}

async fn recv_raw(ws: &mut RawWs) -> Result<ServerMsg, ClientError> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(t))) => return decode_server(&t).map_err(failed),
            Some(Ok(Message::Close(f))) => {
                return Err(ClientError::Closed(f.map(|f| f.reason.to_string())));
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(ClientError::Closed(Some(e.to_string()))),
            None => return Err(ClientError::Closed(None)),
        }
    }
}

/// What to run for [`run_stuck`].
#[derive(Clone, Debug)]
pub struct StuckConfig {
    /// The server, `ws://` on a loopback address.
    pub url: String,
    /// Stuck readers (each with a partner), at most [`MAX_STUCK`].
    pub readers: usize,
    /// `list` requests each sends after it stopped reading.
    pub lists: usize,
    /// How long to wait for each to be closed.
    pub time_limit: Duration,
}

/// What [`run_stuck`] saw.
#[derive(Clone, Debug, Default)]
pub struct StuckReport {
    /// Readers seated at a game with their partner.
    pub seated: usize,
    /// For each reader closed, the time from when it stopped reading until
    /// its partner heard it was gone; sorted.
    pub closed_after: Vec<Duration>,
    /// Readers still connected at the time limit.
    pub not_closed: usize,
    /// Readers that could not be set up.
    pub errors: usize,
    /// The first few errors.
    pub error_samples: Vec<String>,
}

/// A stuck reader seated at a game against its partner.
struct Seated {
    stuck: RawWs,
    name: String,
    partner: crate::net::client::Connection,
    pacer: Option<Pacer>,
}

/// Runs the stuck readers: seats them all, calls `on_seated`, then lets
/// them go silent together.
///
/// # Errors
/// [`ClientError`] when the URL is not a loopback `ws://` one.
pub async fn run_stuck(
    config: &StuckConfig,
    on_seated: &mut (dyn FnMut() + Send),
) -> Result<StuckReport, ClientError> {
    let addr = loopback_addr(&config.url).await?;
    let tag = std::process::id() % 10_000;
    let mut report = StuckReport::default();
    let seats = (0..config.readers.min(MAX_STUCK)).map(|i| seat(&config.url, addr, tag, i));
    let mut seated = Vec::new();
    for r in futures_util::future::join_all(seats).await {
        match r {
            Ok(s) => seated.push(s),
            Err(e) => note(&mut report.errors, &mut report.error_samples, e),
        }
    }
    report.seated = seated.len();
    on_seated();
    let silent = seated
        .into_iter()
        .map(|s| go_silent(s, config.lists, config.time_limit));
    for r in futures_util::future::join_all(silent).await {
        match r {
            Some(d) => report.closed_after.push(d),
            None => report.not_closed += 1,
        }
    }
    report.closed_after.sort_unstable();
    Ok(report)
}

fn note(errors: &mut usize, samples: &mut Vec<String>, e: impl std::fmt::Display) {
    *errors += 1;
    if samples.len() < 5 {
        samples.push(e.to_string());
    }
}

/// A stuck reader's socket: a small receive buffer, then the WebSocket.
async fn stuck_socket(url: &str, addr: SocketAddr) -> Result<RawWs, ClientError> {
    let connect = |e: std::io::Error| ClientError::Connect {
        url: url.to_string(),
        reason: e.to_string(),
    };
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()
    } else {
        TcpSocket::new_v6()
    }
    .map_err(connect)?;
    socket
        .set_recv_buffer_size(STUCK_RECEIVE_BUFFER)
        .map_err(connect)?;
    let stream = socket.connect(addr).await.map_err(connect)?;
    let (ws, _) = tokio_tungstenite::client_async(url, stream)
        .await
        .map_err(failed)?;
    Ok(ws)
}

/// Reader `i` says hello, creates a table inviting its partner, and the
/// partner sits.
async fn seat(url: &str, addr: SocketAddr, tag: u32, i: usize) -> Result<Seated, ClientError> {
    let (name, partner_name) = (format!("sk{tag}-{i}s"), format!("sk{tag}-{i}p"));
    let (mut partner, _) = hello(url, &Trust::default(), partner_name.clone()).await?;
    let mut stuck = stuck_socket(url, addr).await?;
    send_raw(
        &mut stuck,
        &ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: name.clone(),
            token: None,
            lobby: false,
        },
    )
    .await?;
    let limits = loop {
        match recv_raw(&mut stuck).await? {
            ServerMsg::Welcome { limits, .. } => break limits,
            ServerMsg::Error { message, .. } => return Err(ClientError::Protocol(message)),
            _ => {}
        }
    };
    let mut pacer = limits.as_ref().map(Pacer::within);
    if let Some(p) = &mut pacer {
        p.wait().await;
    }
    let invite = TableSpec {
        colour: ColourChoice::Black,
        opponent: Opponent::Invite { name: partner_name },
        ..TableSpec::default()
    };
    send_raw(&mut stuck, &ClientMsg::Create(invite)).await?;
    let table = loop {
        match recv_raw(&mut stuck).await? {
            ServerMsg::Game(state) => break state.table.id,
            ServerMsg::Error { message, .. } => return Err(ClientError::Protocol(message)),
            _ => {}
        }
    };
    partner.send(&ClientMsg::Join { table }).await?;
    loop {
        match partner.recv().await? {
            ServerMsg::Game(state) if state.table.id == table => break,
            ServerMsg::Error { message, .. } => return Err(ClientError::Protocol(message)),
            _ => {}
        }
    }
    Ok(Seated {
        stuck,
        name,
        partner,
        pacer,
    })
}

/// The reader stops reading and asks for `lists` lists; returns how long
/// until its partner heard it was gone (`None`: not within `limit`).
async fn go_silent(s: Seated, lists: usize, limit: Duration) -> Option<Duration> {
    let Seated {
        mut stuck,
        name,
        mut partner,
        mut pacer,
    } = s;
    let silent = Instant::now();
    let asking = async {
        for _ in 0..lists {
            if let Some(p) = &mut pacer {
                p.wait().await;
            }
            // A failed send: the server has closed it already.
            if send_raw(&mut stuck, &ClientMsg::List).await.is_err() {
                break;
            }
        }
        // Holds the socket, unread, until the partner hears.
        std::future::pending::<()>().await;
    };
    let heard = async {
        loop {
            match partner.recv().await {
                Ok(ServerMsg::Presence {
                    name: gone,
                    connected: false,
                    ..
                }) if gone == name => return Some(silent.elapsed()),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
    };
    let closed = tokio::time::timeout(limit, async {
        tokio::select! {
            () = asking => None,
            d = heard => d,
        }
    })
    .await
    .ok()
    .flatten();
    drop(stuck);
    partner.close().await;
    closed
}

/// What to run for [`run_flood`].
#[derive(Clone, Debug)]
pub struct FloodConfig {
    /// The server, `ws://` on a loopback address.
    pub url: String,
    /// Clients measuring their round trip, at most [`MAX_FLOOD_CLIENTS`].
    pub clients: usize,
    /// How long each phase (quiet, then flood) lasts.
    pub phase: Duration,
}

/// What [`run_flood`] saw.
#[derive(Clone, Debug, Default)]
pub struct FloodReport {
    /// Round trips of `ping` while nobody floods; sorted.
    pub quiet: Vec<Duration>,
    /// Round trips from the start of the flood to the end of its phase; sorted.
    pub flood: Vec<Duration>,
    /// WebSocket pings the flooder sent.
    pub pings: u64,
    /// The server's close of the flooder (code and reason), if it closed it.
    pub closed: Option<(u16, String)>,
    /// How long the flooder lasted.
    pub flooded_for: Duration,
    /// Errors of the measuring clients.
    pub errors: usize,
    /// The first few errors.
    pub error_samples: Vec<String>,
}

/// The phases of a flood run.
const QUIET: usize = 0;
const FLOOD: usize = 1;
const DONE: usize = 2;

/// Runs the ping flood.
///
/// # Errors
/// [`ClientError`] when the URL is not a loopback `ws://` one.
pub async fn run_flood(config: &FloodConfig) -> Result<FloodReport, ClientError> {
    loopback_addr(&config.url).await?;
    let phase = Arc::new(AtomicUsize::new(QUIET));
    let tag = std::process::id() % 10_000;
    let clients: Vec<_> = (0..config.clients.clamp(1, MAX_FLOOD_CLIENTS))
        .map(|i| {
            let (url, phase) = (config.url.clone(), Arc::clone(&phase));
            tokio::spawn(async move { measure(&url, format!("pf{tag}-{i}"), &phase).await })
        })
        .collect();
    tokio::time::sleep(config.phase).await;
    phase.store(FLOOD, Ordering::Relaxed);
    let stop = Arc::new(AtomicBool::new(false));
    let flooder = {
        let (url, stop) = (config.url.clone(), Arc::clone(&stop));
        tokio::spawn(async move { flood(&url, &stop).await })
    };
    tokio::time::sleep(config.phase).await;
    phase.store(DONE, Ordering::Relaxed);
    stop.store(true, Ordering::Relaxed);
    let mut report = FloodReport::default();
    match flooder.await {
        Ok(Ok((pings, closed, flooded_for))) => {
            report.pings = pings;
            report.closed = closed;
            report.flooded_for = flooded_for;
        }
        Ok(Err(e)) => note(&mut report.errors, &mut report.error_samples, e),
        Err(e) => note(&mut report.errors, &mut report.error_samples, e),
    }
    for c in clients {
        match c.await {
            Ok(Ok([quiet, flood])) => {
                report.quiet.extend(quiet);
                report.flood.extend(flood);
            }
            Ok(Err(e)) => note(&mut report.errors, &mut report.error_samples, e),
            Err(e) => note(&mut report.errors, &mut report.error_samples, e),
        }
    }
    report.quiet.sort_unstable();
    report.flood.sort_unstable();
    Ok(report)
}

/// One measuring client: a `ping` every 100 ms (or slower, within the
/// server's rate), each round trip filed under the phase it started in.
async fn measure(
    url: &str,
    name: String,
    phase: &AtomicUsize,
) -> Result<[Vec<Duration>; 2], ClientError> {
    let (mut c, limits) = hello(url, &Trust::default(), name).await?;
    let interval = limits.map_or(Duration::from_millis(100), |l| {
        Duration::from_millis(100).max(Duration::from_secs_f64(2.0 / l.messages_per_sec))
    });
    let mut rtts = [Vec::new(), Vec::new()];
    let mut id = 0;
    loop {
        let now = phase.load(Ordering::Relaxed);
        if now >= DONE {
            break;
        }
        let sent = Instant::now();
        c.send(&ClientMsg::Ping { id }).await?;
        loop {
            if let ServerMsg::Pong { id: got } = c.recv().await?
                && got == id
            {
                break;
            }
        }
        rtts[now].push(sent.elapsed());
        id += 1;
        tokio::time::sleep(interval).await;
    }
    c.close().await;
    Ok(rtts)
}

/// The flooder: hello, then WebSocket pings as fast as the socket takes
/// them (reading and dropping the pongs) until the server closes it or
/// `stop`. Returns the pings sent, the server's close and how long it
/// lasted.
async fn flood(
    url: &str,
    stop: &AtomicBool,
) -> Result<(u64, Option<(u16, String)>, Duration), ClientError> {
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .map_err(failed)?;
    let hello = ClientMsg::Hello {
        protocol: PROTOCOL_VERSION,
        name: format!("pf{}-flood", std::process::id() % 10_000),
        token: None,
        lobby: false,
    };
    send_raw(&mut ws, &hello).await?;
    let started = Instant::now();
    let pings = AtomicU64::new(0);
    let (mut sink, mut stream) = ws.split();
    let closed = async {
        while let Some(m) = stream.next().await {
            match m {
                Ok(Message::Close(f)) => {
                    return f.map(|f| (u16::from(f.code), f.reason.to_string()));
                }
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        None
    };
    let sending = async {
        while !stop.load(Ordering::Relaxed) {
            for _ in 0..64 {
                if sink.feed(Message::Ping("flood".into())).await.is_err() {
                    return;
                }
                pings.fetch_add(1, Ordering::Relaxed);
            }
            if sink.flush().await.is_err() {
                return;
            }
            tokio::task::yield_now().await;
        }
    };
    tokio::pin!(closed);
    let outcome = tokio::select! {
        c = &mut closed => c,
        // A write failed (the close may be on its way) or the phase ended.
        () = sending => {
            if stop.load(Ordering::Relaxed) {
                None
            } else {
                tokio::time::timeout(Duration::from_secs(2), closed).await.ok().flatten()
            }
        }
    };
    Ok((pings.load(Ordering::Relaxed), outcome, started.elapsed()))
}
