//! The accept loop.
//!
//! The loop only accepts: TLS, the request head and the WebSocket
//! handshake run in each connection's own task, under its hello timeout,
//! so a slow or silent client never holds up the others.

use super::connection;
use super::shared::Shared;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tracing::Instrument;

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
