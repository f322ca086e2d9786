//! The commit thread: storage changes are committed in batches (every batch
//! waiting when one commit ends goes into the next, one transaction,
//! synced) and only then handed back to the hub with the messages that
//! acknowledge them, in order. It ends when the hub drops its sender, after
//! the last batch handed to it, or at the first failure, which it reports.

use super::hub::{Batch, Internal};
use crate::net::store::{Store, StoreOp};
use std::sync::mpsc::Receiver;
use tokio::sync::mpsc::UnboundedSender;

/// Batches merged into one transaction at most.
const MAX_MERGED: usize = 1024;

/// Starts the thread.
pub(super) fn start(
    store: Box<dyn Store>,
    rx: Receiver<Batch>,
    hub: UnboundedSender<Internal>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("salon-commit".into())
        .spawn(move || committer(store, &rx, &hub))
}

fn committer(mut store: Box<dyn Store>, rx: &Receiver<Batch>, hub: &UnboundedSender<Internal>) {
    while let Ok(first) = rx.recv() {
        let mut batches = vec![first];
        while batches.len() < MAX_MERGED
            && let Ok(b) = rx.try_recv()
        {
            batches.push(b);
        }
        let ops: Vec<StoreOp> = batches.iter_mut().flat_map(|b| b.ops.drain(..)).collect();
        if let Err(e) = store.commit(&ops) {
            let _ = hub.send(Internal::StoreFailed(e));
            return;
        }
        for b in batches {
            if hub.send(Internal::Committed(b.deliveries)).is_err() {
                return;
            }
        }
    }
}
