//! The salon's client side: a [`Connection`] that sends and receives protocol
//! messages over `ws://` or `wss://` (trusting what [`Trust`] says), a
//! [`GameView`] that follows one table's game from `game` and `moved`
//! messages, the [`Backoff`] between connection attempts, and the headless
//! bot ([`run_bot`]) that plays games with the built-in engine, reconnecting
//! when the connection drops (a server restart included). The game screen's
//! session ([`super::session`]) drives the same connection:
//! [`Connection::open_with`] is the one place connections are opened.
//!
//! * [`trust`](Trust) — the certificates believed over `wss://`
//! * [`backoff`](Backoff) — the waits between attempts
//! * [`bot`](run_bot) — the headless bot

mod backoff;
mod bot;
mod trust;

pub use backoff::{Backoff, CAP as BACKOFF_CAP, STEADY};
pub use bot::{BotConfig, BotEvent, BotPlayer, GameSummary, Seating, run_bot};
pub use trust::{Trust, TrustError};

use super::protocol::{
    ClientMsg, ErrorCode, GameResult, GameState, MoveRecord, ServerMsg, Side, TableId, TableStatus,
    decode_server, encode,
};
use crate::rules::{Color, Game};
use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{Connector, MaybeTlsStream, WebSocketStream};

/// What went wrong on the client side.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server could not be reached (refused, no answer, reset, a name
    /// not found): trying again later may work.
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The TLS handshake failed: a certificate not trusted or not for this
    /// host, a server that does not speak TLS. Trying again will not help.
    #[error("cannot connect to {url}: TLS: {reason}")]
    Tls {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The address is not a WebSocket server's (`ws://host:port` or
    /// `wss://host:port`), or the server there answers with an HTTP error.
    #[error("cannot connect to {url}: {reason}")]
    Address {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The connection closed (with the server's reason, if it gave one).
    #[error("connection closed{}", .0.as_ref().map(|r| format!(": {r}")).unwrap_or_default())]
    Closed(Option<String>),
    /// The server closed this connection because another connection took
    /// over its session (another window or program with the same name and
    /// token).
    #[error(
        "this session was opened elsewhere (another connection with the same name and token took it over)"
    )]
    Replaced,
    /// The server sent something that is not a protocol message.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The server refused a request this client cannot do without.
    #[error("refused ({code:?}): {message}")]
    Refused {
        /// The server's code.
        code: ErrorCode,
        /// The server's message.
        message: String,
    },
}

impl ClientError {
    /// Whether trying again cannot mend it: a TLS failure, an address that
    /// is not a salon's, a session taken over elsewhere, a refusal. A
    /// connection refused or dropped is not permanent (the server may be
    /// restarting).
    #[must_use]
    pub fn is_permanent(&self) -> bool {
        matches!(
            self,
            ClientError::Tls { .. }
                | ClientError::Address { .. }
                | ClientError::Replaced
                | ClientError::Refused { .. }
        )
    }
}

/// The start of the reason the server gives when it closes a connection
/// whose session another connection took over.
pub const REPLACED_REASON: &str = "replaced by a new connection";

/// One WebSocket connection to a salon server.
#[derive(Debug)]
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Connection {
    /// Connects to `url` (`ws://host:port`, or `wss://` trusting Mozilla's
    /// roots): [`Connection::open_with`] with [`Trust::default`].
    ///
    /// # Errors
    /// As [`Connection::open_with`].
    pub async fn open(url: &str) -> Result<Connection, ClientError> {
        Connection::open_with(url, &Trust::default()).await
    }

    /// Connects to `url` (`ws://host:port` or `wss://host:port`, or as
    /// [`salon_url`] reads it), believing the certificates `trust` names
    /// over `wss://`.
    ///
    /// # Errors
    /// [`ClientError::Connect`] when the server cannot be reached (may
    /// pass), [`ClientError::Tls`] when the TLS handshake fails,
    /// [`ClientError::Address`] when `url` is not a WebSocket server's.
    pub async fn open_with(url: &str, trust: &Trust) -> Result<Connection, ClientError> {
        let url = &salon_url(url);
        // A small read buffer: it is zeroed on every read (see the server).
        let config = tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4096);
        let connector = Connector::Rustls(trust.config());
        let (ws, _) = tokio_tungstenite::connect_async_tls_with_config(
            url,
            Some(config),
            true,
            Some(connector),
        )
        .await
        .map_err(|e| connect_error(url, e))?;
        Ok(Connection { ws })
    }

    /// Sends one message.
    ///
    /// # Errors
    /// [`ClientError::Closed`] when the connection is gone.
    pub async fn send(&mut self, msg: &ClientMsg) -> Result<(), ClientError> {
        self.send_text(encode(msg)).await
    }

    /// Sends raw text (tests use it for malformed frames).
    ///
    /// # Errors
    /// [`ClientError::Closed`] when the connection is gone.
    pub async fn send_text(&mut self, text: String) -> Result<(), ClientError> {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| ClientError::Closed(Some(e.to_string())))
    }

    /// The next message from the server.
    ///
    /// # Errors
    /// [`ClientError::Replaced`] when another connection took the session
    /// over, [`ClientError::Closed`] with the server's reason when the
    /// connection closes otherwise, [`ClientError::Protocol`] on a frame
    /// that is not a message.
    pub async fn recv(&mut self) -> Result<ServerMsg, ClientError> {
        loop {
            match self.ws.next().await {
                None => return Err(ClientError::Closed(None)),
                Some(Err(e)) => return Err(ClientError::Closed(Some(e.to_string()))),
                Some(Ok(Message::Text(t))) => {
                    return decode_server(&t).map_err(|e| ClientError::Protocol(e.to_string()));
                }
                Some(Ok(Message::Close(frame))) => {
                    let reason = frame.map(|f| f.reason.to_string());
                    return Err(match reason {
                        Some(r) if r.starts_with(REPLACED_REASON) => ClientError::Replaced,
                        r => ClientError::Closed(r),
                    });
                }
                Some(Ok(Message::Binary(_))) => {
                    return Err(ClientError::Protocol("binary frame".into()));
                }
                Some(Ok(_)) => {}
            }
        }
    }

    /// Closes the connection politely.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// The client's error for a failed WebSocket connection: permanent (TLS, a
/// bad address, an HTTP client error) or not.
fn connect_error(url: &str, e: tungstenite::Error) -> ClientError {
    use tungstenite::Error as E;
    let url = url.to_string();
    match e {
        E::Tls(e) => ClientError::Tls {
            url,
            reason: e.to_string(),
        },
        // rustls reports a failed handshake through the stream's I/O error.
        E::Io(e)
            if e.get_ref()
                .is_some_and(|inner| inner.downcast_ref::<rustls::Error>().is_some()) =>
        {
            let reason = e
                .get_ref()
                .map_or_else(|| e.to_string(), ToString::to_string);
            ClientError::Tls { url, reason }
        }
        E::Url(e) => ClientError::Address {
            url,
            reason: e.to_string(),
        },
        E::Http(response) if response.status().is_client_error() => ClientError::Address {
            url,
            reason: format!(
                "the server answered HTTP {} instead of a WebSocket",
                response.status()
            ),
        },
        // A web server that is not a salon answers its own page (a proxy's
        // 5xx, though, may be a salon restarting behind it).
        E::Http(response) if !response.status().is_server_error() => ClientError::Address {
            url,
            reason: format!(
                "not a salon server (it answered HTTP {})",
                response.status()
            ),
        },
        E::Protocol(e) => ClientError::Address {
            url,
            reason: format!("not a salon server ({e})"),
        },
        E::HttpFormat(e) => ClientError::Address {
            url,
            reason: format!("not a salon server ({e})"),
        },
        e => ClientError::Connect {
            url,
            reason: e.to_string(),
        },
    }
}

/// The WebSocket address meant by what a player types: `http://` is read
/// as `ws://`, `https://` as `wss://`, and an address without a scheme
/// (`host:port`) as `ws://`. Anything else is returned trimmed.
///
/// ```
/// use reversi::net::client::salon_url;
/// assert_eq!(salon_url(" example.org:7878 "), "ws://example.org:7878");
/// assert_eq!(salon_url("http://example.org:7878"), "ws://example.org:7878");
/// assert_eq!(salon_url("HTTPS://example.org"), "wss://example.org");
/// assert_eq!(salon_url("wss://example.org"), "wss://example.org");
/// ```
#[must_use]
pub fn salon_url(text: &str) -> String {
    let text = text.trim();
    let Some((scheme, rest)) = text.split_once("://") else {
        return if text.is_empty() {
            String::new()
        } else {
            format!("ws://{text}")
        };
    };
    match scheme.to_ascii_lowercase().as_str() {
        "http" => format!("ws://{rest}"),
        "https" => format!("wss://{rest}"),
        _ => text.to_string(),
    }
}

/// The server an address names, spelled one way: the scheme and host in
/// lower case, the default port written out (80 for `ws`, 443 for `wss`),
/// no trailing slash, and `localhost`, `127.0.0.1` and `::1` as the one
/// loopback host `localhost`. Two addresses of the same server give the same
/// key, so that what a client keeps per server (its session tokens) follows
/// whichever spelling is typed. Text that is not an address is returned
/// trimmed.
///
/// ```
/// use reversi::net::client::server_key;
/// assert_eq!(server_key("ws://127.0.0.1:7878/"), server_key("WS://LocalHost:7878"));
/// assert_eq!(server_key("wss://Example.org"), "wss://example.org:443");
/// assert_eq!(server_key("http://localhost:7878"), server_key("127.0.0.1:7878"));
/// ```
#[must_use]
pub fn server_key(url: &str) -> String {
    let typed = url.trim();
    let Ok(uri) = salon_url(typed).parse::<tungstenite::http::Uri>() else {
        return typed.to_string();
    };
    let (Some(scheme), Some(host)) = (uri.scheme_str(), uri.host()) else {
        return typed.to_string();
    };
    let scheme = scheme.to_ascii_lowercase();
    let port = uri.port_u16().or(match scheme.as_str() {
        "ws" | "http" => Some(80),
        "wss" | "https" => Some(443),
        _ => None,
    });
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    let host = match host.as_str() {
        "localhost" | "127.0.0.1" | "[::1]" | "::1" => "localhost",
        h => h,
    };
    let path = uri
        .path_and_query()
        .map_or("", |p| p.as_str())
        .trim_end_matches('/');
    match port {
        Some(port) => format!("{scheme}://{host}:{port}{path}"),
        None => format!("{scheme}://{host}{path}"),
    }
}

/// One table's game as a client follows it.
#[derive(Clone, Debug)]
pub struct GameView {
    /// The table.
    pub table: TableId,
    /// The game so far (checked with the rules on this side too).
    pub game: Game,
    /// Every move's record.
    pub moves: Vec<MoveRecord>,
    /// This client's colour, if seated.
    pub you: Option<Side>,
    /// Waiting, playing or finished.
    pub status: TableStatus,
    /// Black's and White's seat labels, once known.
    pub names: [String; 2],
    /// The result, once over.
    pub result: Option<GameResult>,
}

impl GameView {
    /// The view of a `game` message.
    ///
    /// # Errors
    /// [`ClientError::Protocol`] when the moves are not legal.
    pub fn from_state(state: &GameState) -> Result<GameView, ClientError> {
        let rules = state.table.spec_rules();
        let mut game = Game::new(rules);
        for (i, r) in state.moves.iter().enumerate() {
            let mv = r
                .mv(rules.size)
                .map_err(|e| ClientError::Protocol(format!("move {}: {e}", i + 1)))?;
            game.play(mv)
                .map_err(|e| ClientError::Protocol(format!("move {}: {e}", i + 1)))?;
        }
        let label = |s: &Option<super::protocol::Seat>| {
            s.as_ref()
                .map(super::protocol::Seat::label)
                .unwrap_or_default()
        };
        Ok(GameView {
            table: state.table.id,
            game,
            moves: state.moves.clone(),
            you: state.you,
            status: state.table.status,
            names: [label(&state.table.black), label(&state.table.white)],
            result: state.result,
        })
    }

    /// Applies a `moved` message; a move already known is ignored.
    ///
    /// # Errors
    /// [`ClientError::Protocol`] when the move does not follow or is illegal.
    pub fn apply(&mut self, ply: usize, record: &MoveRecord) -> Result<(), ClientError> {
        if ply <= self.moves.len() {
            return Ok(());
        }
        if ply != self.moves.len() + 1 {
            return Err(ClientError::Protocol(format!(
                "move {ply} arrived after move {}",
                self.moves.len()
            )));
        }
        let mv = record
            .mv(self.game.rules().size)
            .map_err(|e| ClientError::Protocol(format!("move {ply}: {e}")))?;
        self.game
            .play(mv)
            .map_err(|e| ClientError::Protocol(format!("move {ply}: {e}")))?;
        self.moves.push(record.clone());
        Ok(())
    }

    /// Takes back to `ply` moves (after an accepted `undo`).
    pub fn undo_to(&mut self, ply: usize) {
        self.game.jump(ply);
        self.game.truncate();
        self.moves.truncate(ply);
    }

    /// Whether this client is to move.
    #[must_use]
    pub fn is_our_turn(&self) -> bool {
        // A side that must pass is passed for by the server.
        self.status == TableStatus::Playing
            && self.you.map(Color::from) == Some(self.game.side_to_move())
            && self.game.position().has_legal_move()
    }
}
