//! How the server runs: the listening address, the limits on connections
//! and messages, the engine seats' threads and book, TLS, the lobby's
//! limits, seed and clock; and the limits stated to clients in `welcome`.

use super::{ServerClock, Tls};
use crate::ai::book::Book;
use crate::net::lobby::LobbyConfig;
use crate::net::protocol::{Limits, MAX_MESSAGE_BYTES};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// Connections at once; more are closed at once with 1013 "server full".
    pub max_connections: usize,
    /// Connections at once from one address; more are closed at once with
    /// 1008.
    pub max_per_ip: usize,
    /// Whether connections from loopback addresses count against
    /// `max_per_ip`. Off by default: a proxy or a load test on the same
    /// machine is one address for everyone.
    pub count_loopback: bool,
    /// Proxies whose `X-Forwarded-For` names the client's address (its last
    /// entry, the address the proxy saw); from any other address the header
    /// is ignored.
    pub trust_proxy: Vec<IpAddr>,
    /// Messages (WebSocket pings included) per second a connection may send
    /// on average.
    pub rate_per_sec: f64,
    /// Messages a connection may send in a burst.
    pub rate_burst: f64,
    /// A connection that sends no protocol message for this long is closed.
    pub idle_timeout: Duration,
    /// A connection must finish its handshakes and say hello within this
    /// time.
    pub hello_timeout: Duration,
    /// A write to a client that does not finish within this time closes it
    /// as too slow.
    pub write_timeout: Duration,
    /// Threads searching for the engine seats.
    pub ai_threads: usize,
    /// The opening book the engine seats play from (levels 10 to 12).
    pub book: Option<Arc<Book>>,
    /// Messages queued for one connection before it is closed as too slow.
    pub out_queue: usize,
    /// Bytes queued for one connection (beyond one message) before it is
    /// closed as too slow.
    pub out_queue_bytes: usize,
    /// Serve `wss://` with this certificate (plain `ws://` without).
    pub tls: Option<Tls>,
    /// The lobby's limits.
    pub lobby: LobbyConfig,
    /// The seed of the lobby's draws (colours, engine noise); `None`: a
    /// fresh one from the operating system. Session tokens never come from
    /// it.
    pub seed: Option<u64>,
    /// The lobby's clock: the real one, or one a test moves by hand.
    pub clock: ServerClock,
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 7878)),
            max_connections: 1024,
            max_per_ip: 16,
            count_loopback: false,
            trust_proxy: Vec::new(),
            rate_per_sec: 20.0,
            rate_burst: 60.0,
            idle_timeout: Duration::from_secs(300),
            hello_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(5),
            ai_threads: 1,
            book: None,
            out_queue: 512,
            out_queue_bytes: 256 << 10,
            tls: None,
            lobby: LobbyConfig::default(),
            seed: None,
            clock: ServerClock::default(),
        }
    }
}

impl ServerConfig {
    /// The limits stated to clients in `welcome`.
    #[must_use]
    pub fn limits(&self) -> Limits {
        let whole = |x: f64| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = x.clamp(0.0, f64::from(u32::MAX)) as u32;
            n
        };
        Limits {
            messages_per_sec: self.rate_per_sec,
            burst: whole(self.rate_burst),
            max_message_bytes: u32::try_from(MAX_MESSAGE_BYTES).unwrap_or(u32::MAX),
            idle_timeout_ms: u64::try_from(self.idle_timeout.as_millis()).unwrap_or(u64::MAX),
            max_per_ip: u32::try_from(self.max_per_ip).unwrap_or(u32::MAX),
            max_connections: u32::try_from(self.max_connections).unwrap_or(u32::MAX),
        }
    }
}
