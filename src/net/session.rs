//! A client session that survives lost connections: [`run_session`] connects,
//! says `hello`, passes every server message on, sends the requests it is
//! given, and after a dropped connection reconnects by itself with the
//! session token (a server restart included), reporting each step as a
//! [`SessionEvent`]. The game screen runs it on a worker thread; it knows
//! nothing of the terminal.

use super::client::{ClientError, Connection};
use super::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedReceiver;

/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Silence after which a `ping` keeps the connection open (the server closes
/// idle connections after minutes).
const KEEPALIVE: Duration = Duration::from_secs(60);
/// The first and the longest wait between reconnection attempts.
const BACKOFF: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(2));

/// What a session reports.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionEvent {
    /// A message from the server (`welcome` first on each connection).
    Message(ServerMsg),
    /// The connection dropped; the session reconnects by itself.
    Lost {
        /// Why, for people.
        reason: String,
    },
    /// A reconnection attempt failed; another follows after `retry_in`.
    Retrying {
        /// Attempts so far since the connection was lost.
        attempt: u32,
        /// The wait before the next one.
        retry_in: Duration,
    },
    /// The server could not be reached at all at the start; the session ends.
    Unreachable {
        /// Why, for people.
        reason: String,
    },
    /// The server refused the `hello` (a bad or taken name, another
    /// protocol version); the session ends.
    Refused {
        /// Why, as a code.
        code: ErrorCode,
        /// The server's sentence.
        message: String,
    },
}

/// The server, the name and the session token to resume with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionConfig {
    /// `ws://host:port`.
    pub url: String,
    /// The player's name.
    pub name: String,
    /// A token from an earlier `welcome`, to resume that session.
    pub token: Option<String>,
}

/// Runs a session until `requests` closes (the caller is done) or it ends
/// (unreachable at the start, refused): connects, says `hello` (with the
/// lobby's live updates), passes every server message to `report`, and sends
/// every request from `requests`. Requests that arrive while the connection
/// is down are dropped: the caller is told of the loss first and should not
/// send any. `report` returning `false` ends the session too.
pub async fn run_session(
    config: SessionConfig,
    mut requests: UnboundedReceiver<ClientMsg>,
    report: &mut (dyn FnMut(SessionEvent) -> bool + Send),
) {
    let mut token = config.token.clone();
    let mut ever_connected = false;
    let mut attempt = 0u32;
    loop {
        let open = tokio::time::timeout(CONNECT_TIMEOUT, Connection::open(&config.url));
        let Some(opened) = while_down(open, &mut requests).await else {
            return;
        };
        let opened = opened.unwrap_or_else(|_| {
            Err(ClientError::Connect {
                url: config.url.clone(),
                reason: "no answer".into(),
            })
        });
        let outcome = match opened {
            Ok(mut conn) => {
                let hello = ClientMsg::Hello {
                    protocol: PROTOCOL_VERSION,
                    name: config.name.clone(),
                    token: token.clone(),
                    lobby: true,
                };
                match conn.send(&hello).await {
                    Ok(()) => connected(&mut conn, &mut token, &mut requests, report).await,
                    Err(e) => Outcome::Lost(e.to_string()),
                }
            }
            Err(e) if !ever_connected => {
                report(SessionEvent::Unreachable {
                    reason: e.to_string(),
                });
                return;
            }
            Err(_) => Outcome::Failed,
        };
        match outcome {
            Outcome::Done => return,
            Outcome::Lost(reason) => {
                ever_connected = true;
                attempt = 0;
                if !report(SessionEvent::Lost { reason }) {
                    return;
                }
            }
            Outcome::Failed => {
                attempt += 1;
                let retry_in = BACKOFF.0.saturating_mul(1 << attempt.min(5)).min(BACKOFF.1);
                if !report(SessionEvent::Retrying { attempt, retry_in }) {
                    return;
                }
                if while_down(tokio::time::sleep(retry_in), &mut requests)
                    .await
                    .is_none()
                {
                    return;
                }
            }
        }
    }
}

/// How one connection ended.
enum Outcome {
    /// The caller is done, or the session was refused.
    Done,
    /// The connection dropped after `welcome`.
    Lost(String),
    /// The connection dropped before `welcome` (a server still starting).
    Failed,
}

/// Waits for `fut`, dropping requests meanwhile (the connection is down);
/// `None` when `requests` closes first.
async fn while_down<T>(
    fut: impl Future<Output = T>,
    requests: &mut UnboundedReceiver<ClientMsg>,
) -> Option<T> {
    let mut fut = std::pin::pin!(fut);
    loop {
        tokio::select! {
            v = &mut fut => return Some(v),
            r = requests.recv() => {
                r?;
            }
        };
    }
}

/// One open connection: until it drops, the caller is done, or `hello` is refused.
async fn connected(
    conn: &mut Connection,
    token: &mut Option<String>,
    requests: &mut UnboundedReceiver<ClientMsg>,
    report: &mut (dyn FnMut(SessionEvent) -> bool + Send),
) -> Outcome {
    let mut welcomed = false;
    loop {
        tokio::select! {
            msg = tokio::time::timeout(KEEPALIVE, conn.recv()) => match msg {
                Err(_) => {
                    if let Err(e) = conn.send(&ClientMsg::Ping { id: 0 }).await {
                        return lost(welcomed, &e);
                    }
                }
                Ok(Err(e)) => return lost(welcomed, &e),
                Ok(Ok(ServerMsg::Error { code, message, .. })) if !welcomed => {
                    report(SessionEvent::Refused { code, message });
                    return Outcome::Done;
                }
                Ok(Ok(msg)) => {
                    if let ServerMsg::Welcome { token: t, .. } = &msg {
                        *token = Some(t.clone());
                        welcomed = true;
                    }
                    if !report(SessionEvent::Message(msg)) {
                        return Outcome::Done;
                    }
                }
            },
            request = requests.recv() => match request {
                None => return Outcome::Done,
                Some(r) => {
                    if let Err(e) = conn.send(&r).await {
                        return lost(welcomed, &e);
                    }
                }
            },
        }
    }
}

fn lost(welcomed: bool, e: &ClientError) -> Outcome {
    if welcomed {
        Outcome::Lost(e.to_string())
    } else {
        Outcome::Failed
    }
}
