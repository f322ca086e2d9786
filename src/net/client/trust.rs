//! Which servers a client believes over `wss://`: a rustls client
//! configuration trusting Mozilla's root certificates, plus any certificate
//! added from a PEM file (`reversi online --ca FILE`, or `REVERSI_CA`).
//!
//! Mozilla's roots come compiled in (the `webpki-roots` crate) rather than
//! from the system's store (`rustls-native-certs`): the same servers are
//! trusted on every machine, minimal containers without a certificate store
//! included, and nothing depends on how a system keeps its store. A server
//! with a private or self-signed certificate is trusted by adding that
//! certificate (or the authority that signed it) with `--ca`. The
//! cryptography is rustls's default provider, `aws-lc-rs` (with its
//! post-quantum key exchange), named here rather than left to a
//! process-wide default, so the client works whichever other provider the
//! program links.

use rustls::RootCertStore;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a certificate file could not be trusted.
#[derive(Debug, thiserror::Error)]
pub enum TrustError {
    /// The file could not be read.
    #[error("{}: cannot read it: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file holds no certificate, or a PEM section that does not decode.
    #[error("{}: {reason}", .path.display())]
    Pem {
        /// The file.
        path: PathBuf,
        /// Why, for people.
        reason: String,
    },
    /// A certificate of the file is not one rustls can trust.
    #[error("{}: certificate {index} cannot be trusted: {reason}", .path.display())]
    Certificate {
        /// The file.
        path: PathBuf,
        /// Its place in the file, from 1.
        index: usize,
        /// Why.
        reason: String,
    },
}

/// The certificates a client trusts: cheap to clone (one shared rustls
/// configuration).
#[derive(Clone, Debug)]
pub struct Trust {
    config: Arc<rustls::ClientConfig>,
}

impl Default for Trust {
    /// Mozilla's roots only.
    fn default() -> Trust {
        Trust::with_roots(mozilla_roots())
    }
}

impl Trust {
    /// Mozilla's roots and every certificate of the PEM file at `path`.
    ///
    /// # Errors
    /// [`TrustError`] when the file cannot be read, holds no certificate, or
    /// holds one that cannot be a trust anchor.
    pub fn with_pem_file(path: &Path) -> Result<Trust, TrustError> {
        let pem = std::fs::read(path).map_err(|source| TrustError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let pem_error = |reason: String| TrustError::Pem {
            path: path.to_path_buf(),
            reason,
        };
        let certificates = CertificateDer::pem_slice_iter(&pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| pem_error(format!("not a PEM certificate file: {e}")))?;
        if certificates.is_empty() {
            return Err(pem_error(
                "no certificate in it (expected -----BEGIN CERTIFICATE-----)".into(),
            ));
        }
        let mut roots = mozilla_roots();
        for (i, c) in certificates.into_iter().enumerate() {
            roots.add(c).map_err(|e| TrustError::Certificate {
                path: path.to_path_buf(),
                index: i + 1,
                reason: e.to_string(),
            })?;
        }
        Ok(Trust::with_roots(roots))
    }

    fn with_roots(roots: RootCertStore) -> Trust {
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("aws-lc-rs supports the default TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        Trust {
            config: Arc::new(config),
        }
    }

    /// The rustls configuration.
    #[must_use]
    pub fn config(&self) -> Arc<rustls::ClientConfig> {
        Arc::clone(&self.config)
    }
}

fn mozilla_roots() -> RootCertStore {
    RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("reversi-trust-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn a_file_that_is_not_a_certificate_is_refused_with_the_reason() {
        let missing = std::env::temp_dir().join("reversi-trust-no-such-file.pem");
        let empty = file("empty.pem", "just some text\n");
        let broken = file(
            "broken.pem",
            "-----BEGIN CERTIFICATE-----\nnot base64 !!\n-----END CERTIFICATE-----\n",
        );
        let junk = file(
            "junk.pem",
            "-----BEGIN CERTIFICATE-----\nAAECAwQF\n-----END CERTIFICATE-----\n",
        );
        let cases = [
            (&missing, "cannot read it"),
            (&empty, "no certificate"),
            (&broken, "not a PEM certificate file"),
            (&junk, "certificate 1 cannot be trusted"),
        ];
        for (path, expected) in cases {
            let e = Trust::with_pem_file(path).unwrap_err().to_string();
            assert!(e.contains(expected), "{e}");
            assert!(e.starts_with(&path.display().to_string()), "{e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
        for path in [&empty, &broken, &junk] {
            std::fs::remove_file(path).unwrap();
        }
    }
}
