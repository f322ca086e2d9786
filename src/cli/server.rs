//! `reversi server`: the salon server, and `--export` of its finished games.
//!
//! `--db` names a SQLite file (by default `salon.sqlite` in the data
//! folder: nothing to set up) or a PostgreSQL database
//! (`postgres://USER@HOST:PORT/DATABASE`, its password in the URL or in
//! `PGPASSWORD`); a URL that cannot be used or a database that cannot be
//! reached is one line and status 2. Logs go to stderr through `tracing`
//! (`RUST_LOG` selects what, `info` by default); the line saying where it
//! listens goes to stdout. The address is bound before the database is
//! opened, so an address in use leaves no new database behind. SIGTERM or
//! SIGINT stop it cleanly (status 0).

use super::UserError;
use crate::net::server::{Listener, ServerConfig, Tls, start_on};
use crate::net::store::{PgStore, PgUrl, SqliteStore, Store, StoreError, export_ggf};
use std::io::{IsTerminal, Write};
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `reversi server`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct ServerArgs {
    /// The address to listen on (loopback unless told otherwise; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// The database: a SQLite file (default: salon.sqlite in the data
    /// folder) or postgres://USER@HOST:PORT/DATABASE (the password in the
    /// URL or in PGPASSWORD).
    #[arg(long, value_name = "FILE|URL")]
    pub db: Option<PathBuf>,
    /// Write every finished game of the database as GGF to this file and exit
    /// (the database is only read: a read-only file or folder is fine).
    #[arg(long, value_name = "OUT.ggf")]
    pub export: Option<PathBuf>,
    /// Serve wss:// with this certificate chain (PEM, the server's certificate first).
    #[arg(long, value_name = "FILE", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Connections at once; more are refused with "server full".
    #[arg(long, default_value_t = 1024, value_parser = super::parse_at_least_one)]
    pub max_connections: u32,
    /// Connections at once from one address (loopback addresses are not
    /// counted; behind a proxy, see --trust-proxy).
    #[arg(long, default_value_t = 16, value_parser = super::parse_at_least_one)]
    pub max_per_ip: u32,
    /// A proxy whose X-Forwarded-For header gives the client's address (may be repeated).
    #[arg(long, value_name = "ADDR")]
    pub trust_proxy: Vec<IpAddr>,
    /// Messages per second one connection may send on average, WebSocket
    /// pings included (bursts of three times that).
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// Seconds a connection may stay without sending a message before it is closed.
    #[arg(long, default_value_t = 300)]
    pub idle_timeout: u64,
    /// Seconds a write to a client may take; a client that reads no more is closed after it.
    #[arg(long, value_name = "SECS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub write_timeout: u64,
    /// Threads searching for the engine's seats.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub ai_threads: u32,
    /// The opening book of the engine's seats.
    #[command(flatten)]
    pub book: super::BookFlags,
    /// Unfinished tables against the engine at once; more are refused.
    #[arg(long, default_value_t = 64)]
    pub ai_tables: usize,
    /// Seconds a player of a game without a clock may stay disconnected
    /// before the opponent may claim the game (the win, or a draw).
    #[arg(long, value_name = "SECS", default_value_t = (crate::net::lobby::CLAIM_AFTER_MS / 1000) as u32,
          value_parser = clap::value_parser!(u32).range(0..=86_400))]
    pub claim_after: u32,
    /// Seconds a game without a clock runs on with both players disconnected
    /// before it ends as abandoned (a draw on the board, stored like any
    /// result). A table against the engine ends when its player has been
    /// gone for --claim-after (a win for the engine), freeing the engine.
    #[arg(long, value_name = "SECS", default_value_t = (crate::net::lobby::ABANDON_AFTER_MS / 1000) as u32,
          value_parser = clap::value_parser!(u32).range(1..=30 * 86_400))]
    pub abandon_after: u32,
}

/// Where the salon's data is.
enum Database {
    /// A SQLite file.
    File(PathBuf),
    /// A PostgreSQL database.
    Postgres(Box<PgUrl>),
}

impl std::fmt::Display for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::File(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => write!(f, "{url}"),
        }
    }
}

impl Database {
    /// `--db`, else `salon.sqlite` in the data folder.
    fn from_args(args: &ServerArgs) -> Result<Database, UserError> {
        if let Some(p) = &args.db {
            if let Some(text) = p.to_str().filter(|t| PgUrl::is_url(t)) {
                let mut url = PgUrl::parse(text).map_err(UserError::input)?;
                if let Ok(password) = std::env::var("PGPASSWORD") {
                    url.default_password(&password);
                }
                return Ok(Database::Postgres(Box::new(url)));
            }
            return Ok(Database::File(p.clone()));
        }
        let dir = crate::dirs::data_dir()
            .map_err(|e| UserError::input(format!("{e} (or use --db FILE)")))?;
        std::fs::create_dir_all(&dir)
            .map_err(|e| UserError::input(format!("{}: {e}", dir.display())))?;
        Ok(Database::File(dir.join("salon.sqlite")))
    }

    /// An error of this database as the user reads it: the file's name
    /// first (a PostgreSQL error names its URL where it matters).
    fn error(&self, e: StoreError) -> UserError {
        match self {
            Database::File(path) => UserError::file(path, e),
            Database::Postgres(url) => match e {
                StoreError::Connect { .. } | StoreError::Url { .. } => UserError::input(e),
                e => UserError::input(format!("{url}: {e}")),
            },
        }
    }

    /// The store, to write.
    fn open(&self) -> Result<Box<dyn Store>, UserError> {
        let store: Box<dyn Store> = match self {
            Database::File(path) => Box::new(SqliteStore::open(path).map_err(|e| self.error(e))?),
            Database::Postgres(url) => Box::new(PgStore::connect(url).map_err(|e| self.error(e))?),
        };
        Ok(store)
    }

    /// The store, to read only. An export reads a database that exists: a
    /// mistyped name is not a new, empty one.
    fn open_read_only(&self) -> Result<Box<dyn Store>, UserError> {
        let store: Box<dyn Store> = match self {
            Database::File(path) => {
                if !path.is_file() {
                    return Err(UserError::input(format!(
                        "{}: no such database to export from",
                        path.display()
                    )));
                }
                Box::new(SqliteStore::open_read_only(path).map_err(|e| self.error(e))?)
            }
            Database::Postgres(url) => {
                Box::new(PgStore::open_read_only(url).map_err(|e| self.error(e))?)
            }
        };
        Ok(store)
    }
}

/// Writes every finished game of `db` as GGF to `out`.
fn export(db: &Database, out: &std::path::Path) -> Result<(), UserError> {
    let mut store = db.open_read_only()?;
    let (text, n) = export_ggf(&mut *store).map_err(|e| db.error(e))?;
    crate::storage::atomic_write(out, text.as_bytes()).map_err(|e| UserError::file(out, e))?;
    println!(
        "{} written to {}",
        super::counted(n, "finished game", "finished games"),
        out.display()
    );
    Ok(())
}

/// The server's settings from the flags.
fn config(args: &ServerArgs) -> Result<ServerConfig, UserError> {
    if args.rate <= 0.0 || !args.rate.is_finite() {
        return Err(UserError::input(format!(
            "--rate {}: expected a positive number",
            args.rate
        )));
    }
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(Tls::from_pem_files(cert, key).map_err(UserError::input)?),
        _ => None,
    };
    Ok(ServerConfig {
        listen: args.listen,
        max_connections: args.max_connections as usize,
        max_per_ip: args.max_per_ip as usize,
        trust_proxy: args
            .trust_proxy
            .iter()
            .map(|ip| ip.to_canonical())
            .collect(),
        rate_per_sec: args.rate,
        rate_burst: (args.rate * 3.0).max(10.0),
        idle_timeout: Duration::from_secs(args.idle_timeout.max(1)),
        write_timeout: Duration::from_secs(args.write_timeout),
        ai_threads: args.ai_threads as usize,
        book: args.book.load()?,
        tls,
        lobby: crate::net::lobby::LobbyConfig {
            max_ai_tables: args.ai_tables,
            claim_after_ms: u64::from(args.claim_after) * 1000,
            abandon_after_ms: u64::from(args.abandon_after) * 1000,
            ..crate::net::lobby::LobbyConfig::default()
        },
        ..ServerConfig::default()
    })
}

/// Logs to stderr, at the level `RUST_LOG` selects (`info` by default).
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}

/// Runs `reversi server`.
///
/// # Errors
/// A database that cannot be opened, an address that cannot be bound or a
/// certificate that cannot be used (status 2), a storage failure while
/// running (status 1).
pub fn run(args: &ServerArgs) -> Result<(), UserError> {
    let db = Database::from_args(args)?;
    if let Some(out) = &args.export {
        return export(&db, out);
    }
    let config = config(args)?;
    init_logging();
    raise_open_files_limit();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let listener = Listener::bind(config.listen)
            .await
            .map_err(UserError::input)?;
        let store = db.open()?;
        let scheme = if config.tls.is_some() { "wss" } else { "ws" };
        let addr = listener.addr();
        let mut signals = StopSignals::listen()?;
        let mut server = start_on(listener, config, store).map_err(UserError::input)?;
        println!("reversi salon listening on {scheme}://{addr} (database {db})");
        let _ = std::io::stdout().flush();
        tracing::info!(%addr, scheme, %db, "listening");
        tokio::select! {
            signal = signals.recv() => tracing::info!(signal, "stopping"),
            () = server.stopped() => {}
        }
        server
            .shutdown()
            .await
            .map_err(|e| UserError::from(anyhow::anyhow!(e)))
    })
}

/// SIGTERM and SIGINT (Ctrl-C), listened for from its creation on, so that
/// a signal sent as soon as the server says where it listens is caught.
struct StopSignals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl StopSignals {
    fn listen() -> Result<StopSignals, UserError> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            let fail = |e| UserError::from(anyhow::anyhow!("cannot listen for signals: {e}"));
            Ok(StopSignals {
                term: signal(SignalKind::terminate()).map_err(fail)?,
                int: signal(SignalKind::interrupt()).map_err(fail)?,
            })
        }
        #[cfg(not(unix))]
        Ok(StopSignals {})
    }

    /// Waits for one of them; names it.
    async fn recv(&mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => "SIGTERM",
                _ = self.int.recv() => "SIGINT",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

/// Raises the soft limit of open files to the hard limit (thousands of
/// connections need thousands of descriptors).
pub(crate) fn raise_open_files_limit() {
    #[cfg(target_os = "linux")]
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &raw mut r) == 0 && r.rlim_cur < r.rlim_max {
            r.rlim_cur = r.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &raw const r);
        }
    }
}
