//! The server's own TLS (`wss://`): a certificate chain and its private key
//! read from PEM files, checked to go together, ready to accept
//! connections.
//!
//! rustls with the aws-lc-rs crypto provider, rustls's own default: it
//! offers the post-quantum hybrid key exchange (X25519MLKEM768) first, and
//! rustls deprecates the *ring* provider for lacking it. It needs only a C
//! compiler to build (CMake is not required on Linux or macOS), at the cost
//! of a longer first build than *ring*. The provider is named here rather
//! than taken from the process default, so a second provider enabled
//! elsewhere in the build cannot make the choice ambiguous.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// Why the certificate or the key cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file cannot be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The certificate file holds no PEM certificate, or a broken one.
    #[error("{}: no PEM certificate in it{}", path.display(), detail(reason))]
    NoCertificate {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said, if anything.
        reason: Option<String>,
    },
    /// The key file holds no PEM private key, or a broken one.
    #[error("{}: no PEM private key in it{}", path.display(), detail(reason))]
    NoKey {
        /// The file.
        path: PathBuf,
        /// What the PEM reader said, if anything.
        reason: Option<String>,
    },
    /// The key does not go with the certificate, or either is unusable.
    #[error("{}, {}: {reason}", cert.display(), key.display())]
    Unusable {
        /// The certificate file.
        cert: PathBuf,
        /// The key file.
        key: PathBuf,
        /// rustls's reason.
        reason: String,
    },
}

fn detail(reason: &Option<String>) -> String {
    reason
        .as_ref()
        .map(|r| format!(" ({r})"))
        .unwrap_or_default()
}

/// A certificate and its key, ready to accept TLS connections.
#[derive(Clone)]
pub struct Tls {
    acceptor: TlsAcceptor,
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Tls { .. }")
    }
}

impl Tls {
    /// Reads the certificate chain (PEM, the server's certificate first)
    /// from `cert` and its private key (PEM: PKCS#8, PKCS#1 or SEC1) from
    /// `key`.
    ///
    /// # Errors
    /// [`TlsError`] naming the file: unreadable, without a certificate or a
    /// key, or a key that does not match the certificate.
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<Tls, TlsError> {
        let read = |path: &Path| {
            std::fs::read(path).map_err(|source| TlsError::Read {
                path: path.to_path_buf(),
                source,
            })
        };
        let (cert_pem, key_pem) = (read(cert)?, read(key)?);
        let chain = CertificateDer::pem_slice_iter(&cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| TlsError::NoCertificate {
                path: cert.to_path_buf(),
                reason: Some(e.to_string()),
            })?;
        if chain.is_empty() {
            return Err(TlsError::NoCertificate {
                path: cert.to_path_buf(),
                reason: None,
            });
        }
        let private = PrivateKeyDer::from_pem_slice(&key_pem).map_err(|e| TlsError::NoKey {
            path: key.to_path_buf(),
            reason: match e {
                rustls::pki_types::pem::Error::NoItemsFound => None,
                e => Some(e.to_string()),
            },
        })?;
        let unusable = |e: rustls::Error| TlsError::Unusable {
            cert: cert.to_path_buf(),
            key: key.to_path_buf(),
            reason: e.to_string(),
        };
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(unusable)?
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .map_err(unusable)?;
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
        })
    }

    /// The acceptor for incoming connections.
    pub(super) fn acceptor(&self) -> &TlsAcceptor {
        &self.acceptor
    }
}
