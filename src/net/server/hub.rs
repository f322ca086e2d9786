//! The hub: one task that owns the [`Lobby`], feeds it events in order with
//! the time, and carries out what it outputs: messages to connections (after
//! their batch is committed), storage changes to the commit thread, engine
//! searches to the pool, connections to close.
//!
//! Two inboxes: connections' events in a bounded channel (a full one makes
//! connections wait, and so the clients' sockets), and the server's own
//! (commits done, engine moves) in an unbounded one, read first; their
//! number is bounded by the work handed out. While more than
//! `max_in_flight` batches wait for the disk, connections' events wait too.
//!
//! Each connection's queue is bounded in messages and in bytes (beyond one
//! message, so a large one always goes); a connection over either is let go
//! and woken through [`Outbox::evicted`] to close as too slow.
//!
//! The hub logs the games started and ended from the lobby's storage
//! changes; the lobby itself logs only what should never happen (an engine
//! move it had to replace).

use super::ServerError;
use super::clock::Started;
use super::engines::Engines;
use crate::net::lobby::{ConnId, Event, Lobby, Output};
use crate::net::protocol::{ClientMsg, Seat, Side, encode};
use crate::net::store::{StoreError, StoreOp};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use tokio::sync::{Notify, mpsc, watch};
use tokio_tungstenite::tungstenite::Utf8Bytes;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// What goes to a connection task.
#[derive(Debug)]
pub(super) enum Outgoing {
    Text(Utf8Bytes),
    Close(CloseCode, String),
}

/// What a connection's queue holds, shared by the hub and the connection.
#[derive(Debug, Default)]
pub(super) struct Outbox {
    /// Bytes queued and not yet written to the socket.
    queued: AtomicUsize,
    /// Woken when the hub lets the connection go as too slow.
    pub evicted: Notify,
}

impl Outbox {
    /// `bytes` of queued messages were written.
    pub(super) fn sent(&self, bytes: usize) {
        self.queued.fetch_sub(bytes, Ordering::Relaxed);
    }
}

/// The hub's side of a connection.
pub(super) struct Handle {
    pub tx: mpsc::Sender<Outgoing>,
    pub outbox: Arc<Outbox>,
}

/// Events from connections.
pub(super) enum ConnEvent {
    Open(ConnId, Handle),
    Message(ConnId, ClientMsg),
    Closed(ConnId),
}

/// Events from the server's own threads.
pub(super) enum Internal {
    Committed(Deliveries),
    StoreFailed(StoreError),
    /// An engine move ([`Event::AiMove`]).
    Engine(Event),
}

/// Serialised messages and closes, ready to hand to connections.
#[derive(Default)]
pub(super) struct Deliveries {
    sends: Vec<(Vec<ConnId>, Utf8Bytes)>,
    close: Vec<(ConnId, String)>,
}

/// Storage changes and the messages to send once they are committed.
pub(super) struct Batch {
    pub ops: Vec<StoreOp>,
    pub deliveries: Deliveries,
}

/// What the hub is built from.
pub(super) struct HubSetup {
    pub lobby: Lobby,
    pub commit: std::sync::mpsc::Sender<Batch>,
    pub ai: Engines,
    pub clock: Started,
    pub out_queue_bytes: usize,
    pub max_in_flight: usize,
}

pub(super) struct Hub {
    lobby: Lobby,
    conns: HashMap<ConnId, Handle>,
    /// Batches handed to the commit thread and not yet back.
    in_flight: usize,
    max_in_flight: usize,
    commit: std::sync::mpsc::Sender<Batch>,
    ai: Engines,
    clock: Started,
    out_queue_bytes: usize,
}

impl Hub {
    pub(super) fn new(setup: HubSetup) -> Hub {
        Hub {
            lobby: setup.lobby,
            conns: HashMap::new(),
            in_flight: 0,
            max_in_flight: setup.max_in_flight.max(1),
            commit: setup.commit,
            ai: setup.ai,
            clock: setup.clock,
            out_queue_bytes: setup.out_queue_bytes,
        }
    }

    fn now(&self) -> u64 {
        self.clock.now()
    }

    /// Runs until the server shuts down (then finishes the batches in
    /// flight first) or storage fails.
    pub(super) async fn run(
        mut self,
        mut conns: mpsc::Receiver<ConnEvent>,
        mut internal: mpsc::UnboundedReceiver<Internal>,
        restored: Output,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<(), ServerError> {
        self.dispatch(restored);
        loop {
            let deadline = self.lobby.next_deadline();
            let taking = self.in_flight < self.max_in_flight;
            tokio::select! {
                biased;
                Some(ev) = internal.recv() => {
                    if let ControlFlow::Break(e) = self.internal(ev) {
                        return Err(e);
                    }
                }
                () = super::stop_requested(&mut shutdown) => {
                    return self.finish(conns, internal).await;
                }
                ev = conns.recv(), if taking => match ev {
                    Some(ev) => self.conn_event(ev),
                    None => return Ok(()),
                },
                () = self.clock.until(deadline) => {
                    let out = self.lobby.handle(self.now(), Event::Tick);
                    self.dispatch(out);
                }
            }
        }
    }

    fn conn_event(&mut self, ev: ConnEvent) {
        let ev = match ev {
            ConnEvent::Open(id, handle) => {
                self.conns.insert(id, handle);
                return;
            }
            ConnEvent::Message(id, msg) => Event::Message(id, msg),
            ConnEvent::Closed(id) => {
                self.conns.remove(&id);
                Event::Closed(id)
            }
        };
        let out = self.lobby.handle(self.now(), ev);
        self.dispatch(out);
    }

    fn internal(&mut self, ev: Internal) -> ControlFlow<ServerError> {
        match ev {
            Internal::Committed(d) => {
                self.in_flight -= 1;
                self.deliver(d);
            }
            Internal::StoreFailed(e) => {
                tracing::error!(error = %e, "storage failed: the server stops");
                return ControlFlow::Break(ServerError::Store(e));
            }
            Internal::Engine(ev) => {
                let out = self.lobby.handle(self.now(), ev);
                self.dispatch(out);
            }
        }
        ControlFlow::Continue(())
    }

    /// Shutting down: takes nothing more from connections (what they send
    /// now is not answered), waits for every batch handed to the commit
    /// thread and delivers its messages. Returning drops every connection's
    /// queue, which closes it after what it holds.
    async fn finish(
        mut self,
        mut conns: mpsc::Receiver<ConnEvent>,
        mut internal: mpsc::UnboundedReceiver<Internal>,
    ) -> Result<(), ServerError> {
        tracing::info!(batches = self.in_flight, "shutting down");
        while self.in_flight > 0 {
            tokio::select! {
                biased;
                ev = internal.recv() => match ev {
                    Some(Internal::Committed(d)) => {
                        self.in_flight -= 1;
                        self.deliver(d);
                    }
                    Some(Internal::StoreFailed(e)) => {
                        tracing::error!(error = %e, "storage failed while shutting down");
                        return Err(ServerError::Store(e));
                    }
                    Some(Internal::Engine(_)) => {}
                    // The commit thread only ends early after a failure,
                    // which it reports first.
                    None => break,
                },
                // Dropped unanswered, so that no connection waits on a full inbox.
                Some(_) = conns.recv() => {}
            }
        }
        Ok(())
    }

    fn dispatch(&mut self, out: Output) {
        for op in &out.store {
            log_game(op);
        }
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
                self.send(id, &text);
            }
        }
        for (id, reason) in d.close {
            if let Some(h) = self.conns.remove(&id)
                && h.tx
                    .try_send(Outgoing::Close(CloseCode::Policy, reason))
                    .is_err()
            {
                h.outbox.evicted.notify_one();
            }
        }
    }

    /// Queues `text` for `id`, or lets the connection go when its queue is
    /// over a limit.
    fn send(&mut self, id: ConnId, text: &Utf8Bytes) {
        let Some(h) = self.conns.get(&id) else {
            return;
        };
        let before = h.outbox.queued.fetch_add(text.len(), Ordering::Relaxed);
        let over = before > 0 && before + text.len() > self.out_queue_bytes;
        if over || h.tx.try_send(Outgoing::Text(text.clone())).is_err() {
            h.outbox.evicted.notify_one();
            self.conns.remove(&id);
        }
    }
}

/// A line for a game started or ended.
fn log_game(op: &StoreOp) {
    let seat = Seat::label;
    match op {
        StoreOp::Start {
            table,
            black,
            white,
            ..
        } => tracing::info!(
            table,
            black = %seat(black),
            white = %seat(white),
            "game started"
        ),
        StoreOp::Finish { table, result } => tracing::info!(
            table,
            winner = match result.winner {
                Some(Side::Black) => "black",
                Some(Side::White) => "white",
                None => "none",
            },
            black = result.black,
            white = result.white,
            reason = ?result.reason,
            "game ended"
        ),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::lobby::LobbyConfig;
    use crate::net::protocol::{PROTOCOL_VERSION, ServerMsg, decode_server};
    use crate::net::server::ServerClock;
    use std::time::Instant;
    use tokio::sync::mpsc::error::TrySendError;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn while_the_disk_is_behind_connections_wait_and_nothing_is_lost() {
        let (commit, batches) = std::sync::mpsc::channel();
        let (internal, internal_rx) = mpsc::unbounded_channel();
        let hub = Hub::new(HubSetup {
            lobby: Lobby::new(LobbyConfig::default(), 1, Box::new(|| "00".repeat(16))),
            commit,
            ai: Engines::start(1, None, {
                let internal = internal.clone();
                move |ev| {
                    let _ = internal.send(Internal::Engine(ev));
                }
            }),
            clock: ServerClock::default().start(Instant::now()),
            out_queue_bytes: 1 << 20,
            max_in_flight: 2,
        });
        let (conns, conns_rx) = mpsc::channel(4);
        let (_stop, stop_rx) = watch::channel(false);
        let running = tokio::spawn(hub.run(conns_rx, internal_rx, Output::default(), stop_rx));
        let (tx, mut rx) = mpsc::channel(16);
        let outbox = Arc::new(Outbox::default());
        conns
            .send(ConnEvent::Open(1, Handle { tx, outbox }))
            .await
            .unwrap();
        let hello = ClientMsg::Hello {
            protocol: PROTOCOL_VERSION,
            name: "ann".into(),
            token: None,
            lobby: false,
        };
        conns.send(ConnEvent::Message(1, hello)).await.unwrap();
        let welcome = rx.recv().await;
        assert!(matches!(welcome, Some(Outgoing::Text(_))), "{welcome:?}");
        // A table to store, and a ping behind it: two batches wait for the
        // disk, the most allowed.
        let create = ClientMsg::Create(crate::net::protocol::TableSpec::default());
        for msg in [create, ClientMsg::Ping { id: 1 }] {
            conns.send(ConnEvent::Message(1, msg)).await.unwrap();
        }
        let held: Vec<Batch> =
            tokio::task::block_in_place(|| (0..2).map(|_| batches.recv().unwrap()).collect());
        // The hub takes no more: its inbox fills and senders must wait.
        for id in 2..6 {
            conns
                .try_send(ConnEvent::Message(1, ClientMsg::Ping { id }))
                .unwrap_or_else(|_| panic!("room for ping {id}"));
        }
        let full = conns.try_send(ConnEvent::Message(1, ClientMsg::Ping { id: 6 }));
        assert!(matches!(full, Err(TrySendError::Full(_))));
        // The disk catches up: every answer goes out, in order.
        let disk = std::thread::spawn(move || {
            for b in held.into_iter().chain(batches.iter()) {
                if internal.send(Internal::Committed(b.deliveries)).is_err() {
                    return;
                }
            }
        });
        let mut heard = Vec::new();
        while heard.len() < 6 {
            match rx.recv().await {
                Some(Outgoing::Text(t)) => heard.push(decode_server(&t).unwrap()),
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(heard[0], ServerMsg::Game(_)), "{:?}", heard[0]);
        let pongs: Vec<u64> = heard[1..]
            .iter()
            .map(|m| match m {
                ServerMsg::Pong { id } => *id,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(pongs, [1, 2, 3, 4, 5]);
        running.abort();
        let _ = running.await;
        drop(conns);
        let _ = disk.join();
    }
}
