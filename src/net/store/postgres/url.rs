//! Where a PostgreSQL store is: a `postgres://` URL, read with the
//! `postgres` crate's parser, checked for what the store needs, and shown
//! without its password.

use super::chain;
use crate::net::store::StoreError;
use postgres::Config;
use postgres::config::SslMode;
use std::time::Duration;

/// How long a connection may take to open when the URL does not say
/// (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where a PostgreSQL store is: a `postgres://` or `postgresql://` URL with
/// a user, a host and a database (the query may add libpq's settings,
/// `connect_timeout=5`, `options=-csearch_path=salon`, `host=/run/postgresql`).
/// It shows without its password.
#[derive(Clone)]
pub struct PgUrl {
    config: Config,
    shown: String,
}

impl std::fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl std::fmt::Display for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

impl PgUrl {
    /// Whether `text` names a PostgreSQL database rather than a file
    /// (`postgres://…` or `postgresql://…`).
    #[must_use]
    pub fn is_url(text: &str) -> bool {
        let lower = text.get(..13).unwrap_or(text).to_ascii_lowercase();
        lower.starts_with("postgres://") || lower.starts_with("postgresql://")
    }

    /// Reads a URL.
    ///
    /// # Errors
    /// [`StoreError::Url`] when it is not a `postgres://` URL, cannot be
    /// read, names no user, host or database, or asks for TLS
    /// (`sslmode=require`), which this client does not speak.
    pub fn parse(text: &str) -> Result<PgUrl, StoreError> {
        let shown = redact(text);
        let bad = |reason: &str| StoreError::Url {
            url: shown.clone(),
            reason: reason.to_string(),
        };
        if !PgUrl::is_url(text) {
            return Err(bad("not a postgres:// URL"));
        }
        // The crate reads the scheme in lower case only.
        let scheme_end = text.find("://").unwrap_or(0);
        let text = format!(
            "{}{}",
            text[..scheme_end].to_ascii_lowercase(),
            &text[scheme_end..]
        );
        let mut config: Config = text.parse().map_err(|e| bad(&chain(&e)))?;
        if config.get_user().is_none_or(str::is_empty) {
            return Err(bad("no user"));
        }
        if config.get_hosts().is_empty() {
            return Err(bad("no host"));
        }
        if config.get_dbname().is_none_or(str::is_empty) {
            return Err(bad("no database"));
        }
        if config.get_ssl_mode() == SslMode::Require {
            return Err(bad(
                "sslmode=require: the salon connects without TLS (keep the database on this machine or a private network)",
            ));
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("reversi salon");
        }
        Ok(PgUrl { config, shown })
    }

    /// The connection's settings and the URL as shown.
    pub(super) fn into_parts(self) -> (Config, String) {
        (self.config, self.shown)
    }

    /// Uses `password` when the URL gives none (the server reads it from
    /// `PGPASSWORD`, so that it is not on the command line).
    pub fn default_password(&mut self, password: &str) {
        if self.config.get_password().is_none() {
            self.config.password(password);
        }
    }
}

/// `text` with the password of its user part and of a `password=` setting
/// replaced by `***`.
fn redact(text: &str) -> String {
    let Some(i) = text.find("://") else {
        return text.to_string();
    };
    let (scheme, rest) = text.split_at(i + 3);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let authority = match authority.rfind('@') {
        Some(at) if authority[..at].contains(':') => {
            let user = authority[..at].split(':').next().unwrap_or_default();
            format!("{user}:***{}", &authority[at..])
        }
        _ => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => kv.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}{authority}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_show_without_their_passwords() {
        assert_eq!(
            redact("postgres://ann:s3cret@db:5432/salon?password=x&connect_timeout=5"),
            "postgres://ann:***@db:5432/salon?password=***&connect_timeout=5"
        );
        assert_eq!(
            redact("postgresql://ann@[::1]:5432/salon"),
            "postgresql://ann@[::1]:5432/salon"
        );
        let url = PgUrl::parse("POSTGRES://ann:s3cret@localhost:5432/salon").unwrap();
        assert!(!format!("{url} {url:?}").contains("s3cret"));
    }

    #[test]
    fn a_url_names_a_user_a_host_and_a_database() {
        for (text, reason) in [
            ("postgres://localhost:5432/salon", "no user"),
            ("postgres://ann@localhost:5432", "no database"),
            ("postgres://ann@localhost:99999/salon", "invalid"),
            (
                "postgres://ann@localhost/salon?sslmode=require",
                "sslmode=require",
            ),
            ("postgres://ann@localhost/salon?colour=blue", "invalid"),
            ("salon.sqlite", "not a postgres:// URL"),
        ] {
            let e = PgUrl::parse(text).unwrap_err().to_string();
            assert!(e.contains(reason), "{text}: {e}");
        }
        assert!(PgUrl::is_url("postgresql://ann@db/salon"));
        assert!(!PgUrl::is_url("postgres.sqlite"));
        assert!(PgUrl::parse("postgresql://ann@db:5433/salon").is_ok());
    }
}
