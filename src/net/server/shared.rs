//! What every connection task shares: the settings, the hub's inbox, the
//! shutdown signal, the count of connections and the count per client
//! address.

use super::ServerConfig;
use super::hub::ConnEvent;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{Semaphore, mpsc, watch};

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
