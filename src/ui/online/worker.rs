//! The network worker: a thread owning a small tokio runtime and the
//! session ([`crate::net::session::run_session`]). Requests go in through an
//! unbounded channel (never blocks the caller); every report comes back to
//! the update loop as a [`Msg::Net`] in the app's message. No frame ever waits on the network.

use super::super::app::Msg as AppMsg;
use super::model::{Msg, Server};
use crate::net::client::Trust;
use crate::net::protocol::ClientMsg;
use crate::net::session::{SessionConfig, run_session};
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

/// The name of the network thread.
pub const THREAD_NAME: &str = "reversi-net";

/// A running network worker.
#[derive(Debug)]
pub struct NetWorker {
    requests: Option<UnboundedSender<ClientMsg>>,
    thread: Option<JoinHandle<()>>,
}

impl NetWorker {
    /// Starts a session with `server` on a thread of its own, believing
    /// `trust` over `wss://`; its reports go to `tx`.
    ///
    /// # Errors
    /// The thread or its runtime could not be started.
    pub fn spawn(server: &Server, trust: &Trust, tx: Sender<AppMsg>) -> std::io::Result<NetWorker> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (requests, rx) = unbounded_channel();
        let config = SessionConfig {
            url: server.url.clone(),
            name: server.name.clone(),
            token: server.token.clone(),
            trust: trust.clone(),
            seed: crate::random::fresh_seed(),
            welcome_timeout: crate::net::session::WELCOME_TIMEOUT,
        };
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || {
                let mut report = |event| tx.send(AppMsg::Online(Msg::Net(event))).is_ok();
                runtime.block_on(run_session(config, rx, &mut report));
            })?;
        Ok(NetWorker {
            requests: Some(requests),
            thread: Some(thread),
        })
    }

    /// Sends a request (dropped if the session has ended).
    pub fn send(&self, msg: ClientMsg) {
        if let Some(r) = &self.requests {
            let _ = r.send(msg);
        }
    }

    /// Whether the session has ended by itself (refused, unreachable, taken
    /// over elsewhere): its thread is done.
    #[cfg(test)]
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Ends the session and waits for the thread (the session notices
    /// within one select; a connection attempt is cut short).
    pub fn shut_down(mut self) {
        self.requests = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
