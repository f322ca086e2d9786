//! What a connection runs on, and what happens on it before and after the
//! WebSocket:
//!
//! * [`Io`]: TCP, or TLS over TCP.
//! * [`read_head`]: the HTTP request head, read before the WebSocket
//!   handshake so that a request without the upgrade gets an answer
//!   ([`answer`]: `426 Upgrade Required`, or `400 Bad Request`) instead of a
//!   silent close, and so that a trusted proxy's `X-Forwarded-For` is known
//!   before the connection is counted against its address.
//! * [`Transport`]: the stream given to the WebSocket layer, which first
//!   replays the head already read.
//! * [`drain`]: the end of a lingering close: after the last frame, the
//!   write side is shut (a FIN; over TLS a close_notify first) and what the
//!   client still sends is read and dropped until it closes too. Closing a
//!   socket with unread input makes the kernel send a reset, which can
//!   destroy the close frame before the client reads it.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::server::TlsStream;

/// The largest request head read before the handshake.
const MAX_HEAD: usize = 8 << 10;

/// A connection's byte stream.
pub(super) enum Io {
    /// Plain TCP (`ws://`).
    Plain(TcpStream),
    /// TLS over TCP (`wss://`).
    Tls(Box<TlsStream<TcpStream>>),
}

impl Io {
    /// Whether it is TLS.
    pub(super) fn is_tls(&self) -> bool {
        matches!(self, Io::Tls(_))
    }
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_flush(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Io::Plain(s) => Pin::new(s).poll_write_vectored(cx, bufs),
            Io::Tls(s) => Pin::new(s.as_mut()).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        match self {
            Io::Plain(s) => s.is_write_vectored(),
            Io::Tls(s) => s.is_write_vectored(),
        }
    }
}

/// An HTTP request head, read whole.
pub(super) struct Head {
    /// The bytes read (the head, and anything the client sent after it).
    bytes: Vec<u8>,
    /// Whether it asks for the WebSocket upgrade.
    pub upgrade: bool,
    /// The last address of its last `X-Forwarded-For` header, if any.
    pub forwarded_for: Option<IpAddr>,
}

/// Why no request head could be read.
pub(super) enum HeadError {
    /// The client closed, or the socket failed.
    Closed,
    /// Not HTTP, or a head over the size limit.
    Malformed,
}

/// Reads the request head (up to its blank line, at most 8 KiB).
pub(super) async fn read_head(io: &mut Io) -> Result<Head, HeadError> {
    let mut bytes = Vec::with_capacity(1024);
    let mut chunk = [0u8; 1024];
    loop {
        let n = io.read(&mut chunk).await.map_err(|_| HeadError::Closed)?;
        if n == 0 {
            return Err(HeadError::Closed);
        }
        let searched = bytes.len().saturating_sub(3);
        bytes.extend_from_slice(&chunk[..n]);
        // Parsed once the blank line is there: a client sending a byte at
        // a time costs one scan of each byte, not one parse per byte.
        if !bytes[searched..].windows(4).any(|w| w == b"\r\n\r\n") {
            if bytes.len() >= MAX_HEAD {
                return Err(HeadError::Malformed);
            }
            continue;
        }
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&bytes) {
            Ok(httparse::Status::Complete(_)) => {
                let upgrade = header_values(request.headers, "upgrade").any(|v| {
                    v.split(',')
                        .any(|t| t.trim().eq_ignore_ascii_case("websocket"))
                });
                let forwarded_for = header_values(request.headers, "x-forwarded-for")
                    .last()
                    .and_then(|v| v.rsplit(',').next())
                    .and_then(parse_address);
                return Ok(Head {
                    bytes,
                    upgrade,
                    forwarded_for,
                });
            }
            Ok(httparse::Status::Partial) if bytes.len() < MAX_HEAD => {}
            Ok(httparse::Status::Partial) | Err(_) => return Err(HeadError::Malformed),
        }
    }
}

/// The values of the headers called `name` (any case), as text.
fn header_values<'h>(
    headers: &'h [httparse::Header<'_>],
    name: &'h str,
) -> impl Iterator<Item = &'h str> {
    headers
        .iter()
        .filter(move |h| h.name.eq_ignore_ascii_case(name))
        .filter_map(|h| std::str::from_utf8(h.value).ok())
}

/// An address as proxies write it: `203.0.113.7`, `2001:db8::1`, or with a
/// port (`203.0.113.7:4711`, `[2001:db8::1]:4711`).
fn parse_address(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    text.parse::<IpAddr>()
        .or_else(|_| text.parse::<SocketAddr>().map(|a| a.ip()))
        .ok()
        .map(|ip| ip.to_canonical())
}

/// The HTTP answers given instead of a WebSocket.
#[derive(Clone, Copy, Debug)]
pub(super) enum Answer {
    /// A request without the WebSocket upgrade.
    UpgradeRequired,
    /// Not an HTTP request, or a head too large.
    BadRequest,
}

/// Writes `answer` with a short body, then [`drain`]s.
pub(super) async fn answer(io: &mut Io, answer: Answer) {
    let (status, extra, body) = match answer {
        Answer::UpgradeRequired => (
            "426 Upgrade Required",
            "Upgrade: websocket\r\n",
            "This is a reversi salon: a WebSocket server. Connect with `reversi online` \
             (ws:// or wss://); the protocol is in docs/protocol.md.\n",
        ),
        Answer::BadRequest => (
            "400 Bad Request",
            "",
            "Not an HTTP request this server understands.\n",
        ),
    };
    let response = format!(
        "HTTP/1.1 {status}\r\n{extra}Connection: close\r\n\
         Content-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    if io.write_all(response.as_bytes()).await.is_ok() && io.flush().await.is_ok() {
        drain(io).await;
    }
}

/// Shuts the write side, then reads and drops whatever arrives until the
/// client closes or the socket fails. The caller bounds the time.
pub(super) async fn drain(io: &mut (impl AsyncRead + AsyncWrite + Unpin)) {
    let _ = io.shutdown().await;
    let mut sink = [0u8; 4096];
    while matches!(io.read(&mut sink).await, Ok(n) if n > 0) {}
}

/// The stream the WebSocket layer reads: the request head already read,
/// then the connection.
pub(super) struct Transport {
    head: Vec<u8>,
    replayed: usize,
    io: Io,
}

impl Transport {
    /// `io`, with `head` read from it first.
    pub(super) fn new(io: Io, head: Head) -> Transport {
        Transport {
            head: head.bytes,
            replayed: 0,
            io,
        }
    }
}

impl AsyncRead for Transport {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let left = &this.head[this.replayed..];
        if left.is_empty() {
            return Pin::new(&mut this.io).poll_read(cx, buf);
        }
        let n = left.len().min(buf.remaining());
        buf.put_slice(&left[..n]);
        this.replayed += n;
        if this.replayed == this.head.len() {
            this.head = Vec::new();
            this.replayed = 0;
        }
        Poll::Ready(Ok(()))
    }
}

impl AsyncWrite for Transport {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::parse_address;

    #[test]
    fn forwarded_addresses_are_read_with_or_without_a_port() {
        let v4: std::net::IpAddr = "203.0.113.7".parse().unwrap();
        for text in [
            "203.0.113.7",
            " 203.0.113.7",
            "203.0.113.7:4711",
            "::ffff:203.0.113.7",
        ] {
            assert_eq!(parse_address(text), Some(v4), "{text}");
        }
        let v6: std::net::IpAddr = "2001:db8::1".parse().unwrap();
        assert_eq!(parse_address("[2001:db8::1]:4711"), Some(v6));
        assert_eq!(parse_address("unknown"), None);
    }
}
