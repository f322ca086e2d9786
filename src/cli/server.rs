//! `reversi server`: the salon server, and `--export` of its finished games.

use super::UserError;
use crate::net::server::{ServerConfig, start};
use crate::net::store::{SqliteStore, export_ggf};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `reversi server`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct ServerArgs {
    /// The address to listen on (loopback unless told otherwise; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub listen: SocketAddr,
    /// The SQLite database (default: salon.sqlite in the data folder).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Write every finished game of the database as GGF to this file and exit
    /// (the database is only read: a read-only file or folder is fine).
    #[arg(long, value_name = "OUT.ggf")]
    pub export: Option<PathBuf>,
    /// Connections at once; more are refused with "server full".
    #[arg(long, default_value_t = 1024, value_parser = super::parse_at_least_one)]
    pub max_connections: u32,
    /// Messages per second one connection may send on average (bursts of three times that).
    #[arg(long, default_value_t = 20.0)]
    pub rate: f64,
    /// Seconds a connection may stay silent before it is closed.
    #[arg(long, default_value_t = 300)]
    pub idle_timeout: u64,
    /// Threads searching for the engine's seats.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub ai_threads: u32,
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

/// The database path: `--db`, else `salon.sqlite` in the data folder.
fn db_path(args: &ServerArgs) -> Result<PathBuf, UserError> {
    if let Some(p) = &args.db {
        return Ok(p.clone());
    }
    let dir =
        crate::dirs::data_dir().map_err(|e| UserError::input(format!("{e} (or use --db FILE)")))?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| UserError::input(format!("{}: {e}", dir.display())))?;
    Ok(dir.join("salon.sqlite"))
}

/// Runs `reversi server`.
///
/// # Errors
/// A database that cannot be opened or an address that cannot be bound
/// (status 2), a storage failure while running (status 1).
pub fn run(args: &ServerArgs) -> Result<(), UserError> {
    let db = db_path(args)?;
    // An export reads a database that exists: a mistyped name is not a new,
    // empty one.
    if args.export.is_some() && !db.is_file() {
        return Err(UserError::input(format!(
            "{}: no such database to export from",
            db.display()
        )));
    }
    if let Some(out) = &args.export {
        let mut store = SqliteStore::open_read_only(&db)
            .map_err(|e| UserError::input(format!("{}: {e}", db.display())))?;
        let (text, n) = export_ggf(&mut store)
            .map_err(|e| UserError::input(format!("{}: {e}", db.display())))?;
        crate::storage::atomic_write(out, text.as_bytes())
            .map_err(|e| UserError::input(format!("{}: {e}", out.display())))?;
        println!(
            "{} written to {}",
            super::counted(n, "finished game", "finished games"),
            out.display()
        );
        return Ok(());
    }
    let store =
        SqliteStore::open(&db).map_err(|e| UserError::input(format!("{}: {e}", db.display())))?;
    if args.rate <= 0.0 || !args.rate.is_finite() {
        return Err(UserError::input(format!(
            "--rate {}: expected a positive number",
            args.rate
        )));
    }
    raise_open_files_limit();
    let config = ServerConfig {
        listen: args.listen,
        max_connections: args.max_connections as usize,
        rate_per_sec: args.rate,
        rate_burst: (args.rate * 3.0).max(10.0),
        idle_timeout: Duration::from_secs(args.idle_timeout.max(1)),
        ai_threads: args.ai_threads as usize,
        lobby: crate::net::lobby::LobbyConfig {
            max_ai_tables: args.ai_tables,
            claim_after_ms: u64::from(args.claim_after) * 1000,
            abandon_after_ms: u64::from(args.abandon_after) * 1000,
            ..crate::net::lobby::LobbyConfig::default()
        },
        ..ServerConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let mut server = start(config, Box::new(store))
            .await
            .map_err(|e| UserError::input(e.to_string()))?;
        println!(
            "reversi salon listening on ws://{} (database {})",
            server.addr(),
            db.display()
        );
        let _ = std::io::stdout().flush();
        let stopped = tokio::select! {
            r = stop_signal() => { r?; None }
            r = server.stopped() => Some(r),
        };
        let result = match stopped {
            Some(r) => r,
            None => {
                eprintln!("reversi server: stopping");
                server.shutdown().await
            }
        };
        result.map_err(|e| UserError::from(anyhow::anyhow!(e)))
    })
}

/// Waits for Ctrl-C or SIGTERM.
async fn stop_signal() -> Result<(), UserError> {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .map_err(|e| UserError::from(anyhow::anyhow!("signals: {e}")))?;
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
    Ok(())
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
