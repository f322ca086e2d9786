//! A WebSocket relay in front of a salon server, for tests: clients connect
//! to it over `ws://`, or over `wss://` with a certificate made here and
//! signed by a test authority ([`Authority`]), and it passes every frame
//! both ways to the server's `ws://` address. It can cut a connection at a
//! chosen request ([`Cut`]), before the server sees it or after the server
//! answered it but before the client hears the answer, as a network that
//! drops at the worst moment would.
//!
//! It uses nothing of the crate, so that the crate's own tests include it
//! too (`#[path]`).
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpListener;
use tokio_rustls::rustls::{self, ServerConfig};
use tokio_tungstenite::tungstenite::Message;

/// A certificate authority made for a test, and a server certificate it
/// signed for `localhost`, `127.0.0.1` and `::1`.
pub struct Authority {
    /// The authority's certificate (what a client adds with `--ca`).
    pub ca_pem: String,
    server: Arc<ServerConfig>,
}

impl Authority {
    /// A new authority and server certificate.
    pub fn new() -> Authority {
        let mut ca = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(rcgen::DnType::CommonName, "reversi test authority");
        let ca =
            rcgen::CertifiedIssuer::self_signed(ca, rcgen::KeyPair::generate().unwrap()).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let names = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
        let leaf = rcgen::CertificateParams::new(names)
            .unwrap()
            .signed_by(&key, &ca)
            .unwrap();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let server = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(
                vec![leaf.der().clone()],
                rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
            )
            .unwrap();
        Authority {
            ca_pem: ca.pem(),
            server: Arc::new(server),
        }
    }

    /// Writes the authority's certificate to `path`.
    pub fn write_ca(&self, path: &Path) {
        std::fs::write(path, &self.ca_pem).unwrap();
    }
}

/// Where a cut falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The request never reaches the server; the connection drops.
    Before,
    /// The server gets the request; its answer (`game` or `error`) never
    /// reaches the client; the connection drops.
    AfterAnswer,
}

/// A relay listening on 127.0.0.1, passing frames to one server.
pub struct Relay {
    addr: SocketAddr,
    tls: bool,
    cuts: Arc<Mutex<Vec<(String, Cut)>>>,
    made: Arc<AtomicUsize>,
    accept: tokio::task::JoinHandle<()>,
}

impl Relay {
    /// A relay to the server at `server_url` (`ws://…`), speaking TLS to its
    /// clients with `tls`'s certificate when given.
    pub async fn start(server_url: &str, tls: Option<&Authority>) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let acceptor = tls.map(|a| tokio_rustls::TlsAcceptor::from(Arc::clone(&a.server)));
        let cuts = Arc::new(Mutex::new(Vec::new()));
        let made = Arc::new(AtomicUsize::new(0));
        let link = Link {
            server_url: server_url.to_string(),
            cuts: Arc::clone(&cuts),
            made: Arc::clone(&made),
        };
        let accept = tokio::spawn(async move {
            while let Ok((tcp, _)) = listener.accept().await {
                let link = link.clone();
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    match acceptor {
                        None => link.serve(tcp).await,
                        Some(a) => {
                            if let Ok(stream) = a.accept(tcp).await {
                                link.serve(stream).await;
                            }
                        }
                    }
                });
            }
        });
        Relay {
            addr,
            tls: tls.is_some(),
            cuts,
            made,
            accept,
        }
    }

    /// The relay's address: `ws://127.0.0.1:PORT`, or `wss://`.
    pub fn url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}", self.addr)
    }

    /// The relay's port.
    pub fn port(&self) -> u16 {
        self.addr.port()
    }

    /// Cuts the next connection that sends a request of this `type`
    /// (`create`, `join`…), once.
    pub fn cut(&self, request: &str, cut: Cut) {
        self.cuts.lock().unwrap().push((request.to_string(), cut));
    }

    /// The cuts made so far.
    pub fn cuts_made(&self) -> usize {
        self.made.load(Ordering::SeqCst)
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// What each relayed connection shares.
#[derive(Clone)]
struct Link {
    server_url: String,
    cuts: Arc<Mutex<Vec<(String, Cut)>>>,
    made: Arc<AtomicUsize>,
}

/// The `type` of a protocol message.
fn kind(text: &str) -> String {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string))
        .unwrap_or_default()
}

impl Link {
    /// The cut asked for a request of `kind`, taken (it happens once).
    fn take_cut(&self, kind: &str) -> Option<Cut> {
        let mut cuts = self.cuts.lock().unwrap();
        let i = cuts.iter().position(|(k, _)| k == kind)?;
        self.made.fetch_add(1, Ordering::SeqCst);
        Some(cuts.remove(i).1)
    }

    /// Passes frames both ways until one side closes or a cut drops both.
    async fn serve<S: AsyncRead + AsyncWrite + Unpin>(self, stream: S) {
        let Ok(mut client) = tokio_tungstenite::accept_async(stream).await else {
            return;
        };
        let Ok((mut server, _)) = tokio_tungstenite::connect_async(&self.server_url).await else {
            return;
        };
        let mut swallow = false;
        loop {
            tokio::select! {
                m = client.next() => {
                    let Some(Ok(m)) = m else {
                        let _ = server.close(None).await;
                        return;
                    };
                    if let Message::Text(t) = &m {
                        match self.take_cut(&kind(t)) {
                            // Both sockets dropped, no close frame: a network cut.
                            Some(Cut::Before) => return,
                            Some(Cut::AfterAnswer) => swallow = true,
                            None => {}
                        }
                    }
                    if server.send(m).await.is_err() {
                        return;
                    }
                }
                m = server.next() => {
                    let Some(Ok(m)) = m else {
                        let _ = client.close(None).await;
                        return;
                    };
                    if swallow
                        && let Message::Text(t) = &m
                        && matches!(kind(t).as_str(), "game" | "error")
                    {
                        return;
                    }
                    if client.send(m).await.is_err() {
                        return;
                    }
                }
            }
        }
    }
}
