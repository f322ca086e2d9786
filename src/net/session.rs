//! A client session that survives lost connections: [`run_session`] connects,
//! says `hello`, passes every server message on, sends the requests it is
//! given, and after a dropped connection reconnects by itself with the
//! session token (a server restart included), waiting between attempts as
//! [`Backoff`] says, reporting each step as a [`SessionEvent`]. It stops
//! for good, and says why, when retrying cannot help: a TLS failure, an
//! address that is not a salon's (a server that does not answer `hello`
//! with a protocol message within [`WELCOME_TIMEOUT`] included), a refused
//! `hello`, or the session taken
//! over by another connection with the same token (another window): two
//! clients of one session then never take it from each other in a loop. The
//! game screen runs it on a worker thread; it knows nothing of the terminal.

use super::client::{Backoff, ClientError, Connection, Trust};
use super::protocol::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedReceiver;

/// How long one connection attempt may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Silence after which a `ping` keeps the connection open (the server closes
/// idle connections after minutes).
const KEEPALIVE: Duration = Duration::from_secs(60);

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
    /// The server could not be reached at the start, or a connection failed
    /// in a way retrying cannot mend (TLS, an address that is not a
    /// salon's); the session ends.
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
    /// Another connection took this session over (the same name and token,
    /// from another window or program); the session ends rather than take
    /// it back, which would start a tug of war.
    Replaced,
}

/// The server, the name and the session token to resume with.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// `ws://host:port` or `wss://host:port`.
    pub url: String,
    /// The player's name.
    pub name: String,
    /// A token from an earlier `welcome`, to resume that session.
    pub token: Option<String>,
    /// The certificates believed over `wss://`.
    pub trust: Trust,
    /// The seed of the jitter between reconnection attempts.
    pub seed: u64,
    /// How long a server may take to answer `hello` before it is taken
    /// for one that is not a salon ([`WELCOME_TIMEOUT`] by default).
    pub welcome_timeout: Duration,
}

/// How long a server may take to answer `hello`: a salon answers at once.
pub const WELCOME_TIMEOUT: Duration = Duration::from_secs(10);

/// The reason given for a server that does not speak the salon's protocol.
pub const NOT_A_SALON: &str = "not a salon server";

/// Runs a session until `requests` closes (the caller is done) or it ends
/// (unreachable at the start, a permanent failure, refused, replaced):
/// connects, says `hello` (with the lobby's live updates), passes every
/// server message to `report`, and sends every request from `requests`.
/// Requests that arrive while the connection is down are dropped: the
/// caller is told of the loss first and should not send any. `report`
/// returning `false` ends the session too.
pub async fn run_session(
    config: SessionConfig,
    mut requests: UnboundedReceiver<ClientMsg>,
    report: &mut (dyn FnMut(SessionEvent) -> bool + Send),
) {
    let mut token = config.token.clone();
    let mut ever_connected = false;
    let mut attempt = 0u32;
    let mut backoff = Backoff::new(config.seed);
    loop {
        let started = Instant::now();
        let open = tokio::time::timeout(
            CONNECT_TIMEOUT,
            Connection::open_with(&config.url, &config.trust),
        );
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
                    Ok(()) => {
                        let first = tokio::time::timeout(config.welcome_timeout, conn.recv());
                        match while_down(first, &mut requests).await {
                            None => return,
                            Some(Ok(Ok(msg))) => {
                                connected(&mut conn, msg, &mut token, &mut requests, report).await
                            }
                            Some(Ok(Err(ClientError::Replaced))) => Outcome::Replaced,
                            // An echo server sends the hello back; a
                            // WebSocket server of something else, its own
                            // messages, or nothing.
                            Some(Ok(Err(e @ ClientError::Protocol(_)))) => {
                                Outcome::NotSalon(e.to_string())
                            }
                            Some(Err(_)) => Outcome::NotSalon(format!(
                                "no answer to hello within {} s",
                                config.welcome_timeout.as_secs_f64()
                            )),
                            Some(Ok(Err(_))) => Outcome::Failed,
                        }
                    }
                    Err(_) => Outcome::Failed,
                }
            }
            Err(e) if e.is_permanent() || !ever_connected => {
                report(SessionEvent::Unreachable {
                    reason: e.to_string(),
                });
                return;
            }
            Err(_) => Outcome::Failed,
        };
        let wait = match outcome {
            Outcome::Done => return,
            Outcome::NotSalon(why) if !ever_connected => {
                report(SessionEvent::Unreachable {
                    reason: format!("{}: {NOT_A_SALON} ({why})", config.url),
                });
                return;
            }
            Outcome::NotSalon(_) => {
                attempt += 1;
                let retry_in = backoff.next_wait();
                if !report(SessionEvent::Retrying { attempt, retry_in }) {
                    return;
                }
                retry_in
            }
            Outcome::Replaced => {
                report(SessionEvent::Replaced);
                return;
            }
            Outcome::Lost(reason) => {
                ever_connected = true;
                attempt = 0;
                if !report(SessionEvent::Lost { reason }) {
                    return;
                }
                // Soon after a steady connection (the first step); after one
                // that ended early the steps go on growing, so that a server
                // closing every connection at once is not hammered.
                backoff.connection_lived(started.elapsed());
                backoff.next_wait()
            }
            Outcome::Failed => {
                attempt += 1;
                let retry_in = backoff.next_wait();
                if !report(SessionEvent::Retrying { attempt, retry_in }) {
                    return;
                }
                retry_in
            }
        };
        if while_down(tokio::time::sleep(wait), &mut requests)
            .await
            .is_none()
        {
            return;
        }
    }
}

/// How one connection ended.
enum Outcome {
    /// The caller is done, or the session was refused.
    Done,
    /// Another connection took the session over.
    Replaced,
    /// The connection dropped after `welcome`.
    Lost(String),
    /// The connection dropped before `welcome` (a server still starting).
    Failed,
    /// The server does not answer `hello` as a salon does (why): the end
    /// at the first connection, else a failed attempt (a server busy
    /// restarting).
    NotSalon(String),
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
    first: ServerMsg,
    token: &mut Option<String>,
    requests: &mut UnboundedReceiver<ClientMsg>,
    report: &mut (dyn FnMut(SessionEvent) -> bool + Send),
) -> Outcome {
    let mut welcomed = false;
    let mut first = Some(first);
    loop {
        let next = async {
            match first.take() {
                Some(msg) => Ok(Ok(msg)),
                None => tokio::time::timeout(KEEPALIVE, conn.recv()).await,
            }
        };
        tokio::select! {
            msg = next => match msg {
                Err(_) => {
                    if let Err(e) = conn.send(&ClientMsg::Ping { id: 0 }).await {
                        return lost(welcomed, &e);
                    }
                }
                Ok(Err(ClientError::Replaced)) => return Outcome::Replaced,
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
