//! `reversi loadtest`: fast bots against a salon server (its own, started as
//! a child process on loopback, when no URL is given), with games/s, move
//! round-trip percentiles, errors and the server's memory.

use super::UserError;
use crate::net::loadtest::{LoadConfig, run_load};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Arguments of `reversi loadtest`.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// A running server (default: start one on 127.0.0.1 with a temporary database).
    pub url: Option<String>,
    /// Games to play in all (at most 100,000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Games at once, two connections each (at most 5,000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=5_000))]
    pub concurrency: u64,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 300)]
    pub time_limit: u64,
    /// Milliseconds each bot waits before each of its moves (0: none, the
    /// server runs flat out).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
}

/// The server started for the test, killed when dropped.
struct OwnServer {
    child: Child,
    dir: std::path::PathBuf,
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn start_own_server(connections: u64) -> Result<(OwnServer, String), UserError> {
    let fail = |e: String| UserError::from(anyhow::anyhow!("cannot start a server: {e}"));
    let exe = std::env::current_exe().map_err(|e| fail(e.to_string()))?;
    let dir = std::env::temp_dir().join(format!("reversi-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail(e.to_string()))?;
    let child = Command::new(exe)
        .args([
            "server",
            "--listen",
            "127.0.0.1:0",
            "--rate",
            "100000",
            "--max-connections",
        ])
        .arg((connections + 16).to_string())
        .arg("--db")
        .arg(dir.join("load.sqlite"))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| fail(e.to_string()))?;
    let mut own = OwnServer { child, dir };
    let stdout = own
        .child
        .stdout
        .take()
        .ok_or_else(|| fail("no stdout".into()))?;
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| fail(e.to_string()))?;
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("ws://"))
        .ok_or_else(|| fail(format!("unexpected first line {line:?}")))?
        .to_string();
    Ok((own, url))
}

/// CPU seconds (user + system) a process has used, from `/proc` (Linux).
fn cpu_of(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    // SAFETY: sysconf only reads a system constant.
    #[cfg(target_os = "linux")]
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    #[cfg(not(target_os = "linux"))]
    let hz = 100.0;
    Some(ticks / hz.max(1.0))
}

/// Resident and peak memory of a process, from `/proc` (Linux).
fn memory_of(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb = |key: &str| {
        status
            .lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Some((kb("VmRSS:")?, kb("VmHWM:")?))
}

/// Runs `reversi loadtest`.
///
/// # Errors
/// When the own server cannot be started, or when the run had errors or
/// finished fewer games than asked (status 1, after the report).
pub fn run(args: &LoadtestArgs) -> Result<(), UserError> {
    super::server::raise_open_files_limit();
    let (own, url) = match &args.url {
        Some(u) => (None, u.clone()),
        None => {
            let (s, u) = start_own_server(args.concurrency * 2)?;
            (Some(s), u)
        }
    };
    let config = LoadConfig {
        url: url.clone(),
        games: usize::try_from(args.games).unwrap_or(usize::MAX),
        concurrency: usize::try_from(args.concurrency).unwrap_or(usize::MAX),
        time_limit: Duration::from_secs(args.time_limit.max(1)),
        think: Duration::from_millis(args.think_ms),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    let report = runtime.block_on(run_load(&config));
    println!(
        "{url}: {} games ({} at once, {} connections, think {} ms) in {:.1} s: {:.1} games/s, {} moves",
        report.games,
        args.concurrency,
        args.concurrency * 2,
        args.think_ms,
        report.elapsed.as_secs_f64(),
        report.games_per_sec(),
        report.moves
    );
    println!(
        "move round trip: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        report.quantile_ms(0.5),
        report.quantile_ms(0.99),
        report.quantile_ms(1.0)
    );
    println!("errors: {}", report.errors);
    for e in &report.error_samples {
        println!("  {e}");
    }
    let pid = own.as_ref().map(|s| s.child.id());
    match pid.and_then(memory_of) {
        Some((rss, peak)) => println!(
            "server memory: {:.1} MiB resident, {:.1} MiB peak",
            rss as f64 / 1024.0,
            peak as f64 / 1024.0
        ),
        None => println!("server memory: unknown (not our process)"),
    }
    if let Some(cpu) = pid.and_then(cpu_of) {
        #[allow(clippy::cast_precision_loss)]
        let per_move = cpu / report.moves.max(1) as f64 * 1e6;
        println!("server cpu: {cpu:.2} s ({per_move:.0} µs a move)");
    }
    drop(own);
    // A run that could not play its games is a failed run, for scripts too.
    if report.errors > 0 || (report.games as u64) < args.games {
        return Err(UserError::from(anyhow::anyhow!(
            "{} of {} games finished, {} errors",
            report.games,
            args.games,
            report.errors
        )));
    }
    Ok(())
}
