//! The accept loop, what every connection task shares, and the count of
//! connections per client address.
//!
//! The loop only accepts: TLS, the request head and the WebSocket
//! handshake run in each connection's own task, under its hello timeout,
//! so a slow or silent client never holds up the others.

use super::ServerConfig;
use super::connection;
use super::hub::ConnEvent;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, mpsc, watch};
use tracing::Instrument;

/// What every connection task shares.
pub(super) struct Shared {
    pub config: ServerConfig,
    /// The hub's inbox.
    pub hub: mpsc::Sender<ConnEvent>,
    /// Connections at once (`max_connections`).
    pub permits: Arc<Semaphore>,
    /// Connections per address.
    pub addresses: Arc<Addresses>,
    /// Turns `true` when the server shuts down.
    pub shutdown: watch::Receiver<bool>,
}

impl Shared {
    pub(super) fn new(
        config: ServerConfig,
        hub: mpsc::Sender<ConnEvent>,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            permits: Arc::new(Semaphore::new(config.max_connections)),
            addresses: Arc::new(Addresses {
                max: config.max_per_ip,
                count_loopback: config.count_loopback,
                counts: Mutex::new(HashMap::new()),
            }),
            config,
            hub,
            shutdown,
        })
    }

    /// The client's address: the one a trusted proxy forwarded, else the
    /// peer's.
    pub(super) fn client_address(&self, peer: IpAddr, forwarded: Option<IpAddr>) -> IpAddr {
        let peer = peer.to_canonical();
        match forwarded {
            Some(client) if self.config.trust_proxy.contains(&peer) => client,
            _ => peer,
        }
    }
}

/// Open connections per client address.
pub(super) struct Addresses {
    max: usize,
    count_loopback: bool,
    counts: Mutex<HashMap<IpAddr, usize>>,
}

impl Addresses {
    /// A place for one more connection from `ip`, or `None` when `ip`
    /// already has the most allowed.
    pub(super) fn admit(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        if ip.is_loopback() && !self.count_loopback {
            return Some(AddressSlot { owner: None });
        }
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        let n = counts.entry(ip).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            owner: Some((Arc::clone(self), ip)),
        })
    }

    /// The most connections one address may have.
    pub(super) fn max(&self) -> usize {
        self.max
    }
}

/// One counted connection; the count goes down when it is dropped.
pub(super) struct AddressSlot {
    owner: Option<(Arc<Addresses>, IpAddr)>,
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        if let Some((addresses, ip)) = self.owner.take() {
            let mut counts = addresses
                .counts
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            if let Some(n) = counts.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&ip);
                }
            }
        }
    }
}

/// Accepts connections until the server shuts down; each runs in its own
/// task (with its own span), holding a clone of `alive` until it ends.
pub(super) async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    alive: mpsc::Sender<()>,
) {
    let mut shutdown = shared.shutdown.clone();
    let mut next_id: u64 = 1;
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = super::stop_requested(&mut shutdown) => return,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors or similar: wait a little rather than spin.
                tracing::warn!(error = %e, "cannot accept a connection");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let id = next_id;
        next_id += 1;
        let span = tracing::info_span!("conn", id, peer = %peer);
        tokio::spawn(
            connection::run(stream, peer, id, Arc::clone(&shared), alive.clone()).instrument(span),
        );
    }
}
