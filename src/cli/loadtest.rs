//! `reversi loadtest`: fast bots against a salon server (its own, started as
//! a child process on loopback when no URL is given, serving `wss://` with
//! `--tls-cert` and `--tls-key`), with games/s, move
//! round-trip percentiles, errors and the server's memory; or, with
//! `--stuck N` or `--ping-flood`, a measurement of misbehaving clients
//! against a server with its default limits.

use super::UserError;
use crate::net::client::ClientError;
use crate::net::loadtest::abuse::{FloodConfig, StuckConfig, run_flood, run_stuck};
use crate::net::loadtest::{LoadConfig, quantile_ms, run_load, server_limits};
use crate::net::protocol::Limits;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Arguments of `reversi loadtest`.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// A running server, ws:// or wss:// (default: start one on 127.0.0.1
    /// with a temporary database).
    pub url: Option<String>,
    /// Start the own server with wss:// and this certificate chain (PEM),
    /// which the bots trust.
    #[arg(
        long,
        value_name = "FILE",
        requires = "tls_key",
        conflicts_with = "url"
    )]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, value_name = "FILE", requires = "tls_cert")]
    pub tls_key: Option<std::path::PathBuf>,
    /// Also trust the certificates of this PEM file over wss:// (default:
    /// the file named by REVERSI_CA, if set), as `reversi online --ca`.
    #[arg(long, value_name = "FILE")]
    pub ca: Option<std::path::PathBuf>,
    /// Games to play in all (at most 100,000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Games at once, two connections each (at most 5,000).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=5_000))]
    pub concurrency: u64,
    /// Stop after this many seconds (with --stuck: wait this long for the closes).
    #[arg(long, default_value_t = 300)]
    pub time_limit: u64,
    /// Milliseconds each bot waits before each of its moves (0: none, the
    /// server runs flat out within its limits).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// Instead of games: N clients that stop reading (each seated at a game
    /// against a partner), how long until the server closes each, and the
    /// server's memory (loopback only).
    #[arg(long, value_name = "N", conflicts_with = "ping_flood",
          value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pub stuck: Option<u64>,
    /// `list` requests each stuck reader sends after it stopped reading.
    #[arg(long, default_value_t = 100, requires = "stuck",
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub lists: u64,
    /// Instead of games: one connection sending WebSocket pings as fast as
    /// it can while --clients clients measure their round trip, quiet and
    /// during the flood (loopback only).
    #[arg(long)]
    pub ping_flood: bool,
    /// Clients measuring their round trip during --ping-flood.
    #[arg(long, default_value_t = 10, requires = "ping_flood",
          value_parser = clap::value_parser!(u64).range(1..=100))]
    pub clients: u64,
    /// Seconds of each --ping-flood phase (quiet, then flood).
    #[arg(long, default_value_t = 3, requires = "ping_flood",
          value_parser = clap::value_parser!(u64).range(1..=60))]
    pub phase_secs: u64,
    /// The server's process id, for its memory and CPU when it is not the
    /// loadtest's own.
    #[arg(long, value_name = "PID")]
    pub server_pid: Option<u32>,
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

/// Starts `reversi server` on a free loopback port: with `fast`, with a rate
/// limit that never bites; otherwise with its default limits; with the
/// certificate and key of `args`, over `wss://`.
fn start_own_server(
    connections: u64,
    fast: bool,
    args: &LoadtestArgs,
) -> Result<(OwnServer, String), UserError> {
    let fail = |e: String| UserError::from(anyhow::anyhow!("cannot start a server: {e}"));
    let exe = std::env::current_exe().map_err(|e| fail(e.to_string()))?;
    let dir = std::env::temp_dir().join(format!("reversi-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| fail(e.to_string()))?;
    let child = Command::new(exe)
        .args(["server", "--listen", "127.0.0.1:0", "--max-connections"])
        .arg((connections + 16).to_string())
        .args(if fast { &["--rate", "100000"][..] } else { &[] })
        .args(tls_args(args))
        .arg("--db")
        .arg(dir.join("load.sqlite"))
        .stdout(Stdio::piped())
        .env("RUST_LOG", "warn")
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
        .find(|w| w.starts_with("ws://") || w.starts_with("wss://"))
        .ok_or_else(|| fail(format!("unexpected first line {line:?}")))?
        .to_string();
    Ok((own, url))
}

/// `--tls-cert FILE --tls-key FILE` for the own server, when asked.
fn tls_args(args: &LoadtestArgs) -> Vec<std::ffi::OsString> {
    match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => vec![
            "--tls-cert".into(),
            cert.into(),
            "--tls-key".into(),
            key.into(),
        ],
        _ => Vec::new(),
    }
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
/// When the own server cannot be started or the server cannot be reached,
/// or when the run had errors or did not finish (status 1, after the
/// report).
pub fn run(args: &LoadtestArgs) -> Result<(), UserError> {
    super::server::raise_open_files_limit();
    let connections = match (args.stuck, args.ping_flood) {
        (Some(n), _) => n * 2,
        (None, true) => args.clients + 1,
        (None, false) => args.concurrency * 2,
    };
    let abuse = args.stuck.is_some() || args.ping_flood;
    let (own, url) = match &args.url {
        Some(u) => (None, u.clone()),
        None => {
            let (s, u) = start_own_server(connections, !abuse, args)?;
            (Some(s), u)
        }
    };
    let pid = own.as_ref().map(|s| s.child.id()).or(args.server_pid);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| UserError::from(anyhow::anyhow!("cannot start the runtime: {e}")))?;
    // The own server's certificate is trusted as --ca's would be.
    let trust = super::online::trust_with(args.ca.as_ref().or(args.tls_cert.as_ref()))?;
    let limits = runtime
        .block_on(server_limits(&url, &trust))
        .map_err(|e| match e {
            // These name the URL already.
            ClientError::Connect { .. } | ClientError::Tls { .. } | ClientError::Address { .. } => {
                UserError::from(anyhow::anyhow!(e))
            }
            e => UserError::from(anyhow::anyhow!("{url}: {e}")),
        })?;
    print_limits(limits.as_ref(), args, connections);
    let result = if let Some(n) = args.stuck {
        stuck(&runtime, &url, n, args, pid)
    } else if args.ping_flood {
        ping_flood(&runtime, &url, args, pid)
    } else {
        games(&runtime, &url, trust, args, pid)
    };
    drop(own);
    result
}

/// The server's limits, and what they mean for this run.
fn print_limits(limits: Option<&Limits>, args: &LoadtestArgs, connections: u64) {
    let Some(l) = limits else {
        println!("server limits: not stated (bots are not paced)");
        return;
    };
    let games = !args.ping_flood && args.stuck.is_none();
    println!(
        "server limits: {} messages/s per connection (bursts of {}), {} connections per address, \
         {} in all, idle timeout {} s{}",
        l.messages_per_sec,
        l.burst,
        l.max_per_ip,
        l.max_connections,
        l.idle_timeout_ms / 1000,
        if games {
            "; each bot keeps within them"
        } else {
            ""
        }
    );
    if args.think_ms > 0 && games {
        #[allow(clippy::cast_precision_loss)]
        let asked = 1000.0 / args.think_ms as f64;
        if asked > l.messages_per_sec {
            println!(
                "note: --think-ms {} asks up to {asked:.0} moves/s per bot, more than the server's \
                 {} messages/s: bots wait for the limit instead",
                args.think_ms, l.messages_per_sec
            );
        }
    }
    if connections > u64::from(l.max_connections) {
        println!(
            "note: this run opens {connections} connections, more than the server's {} at once: \
             the load asked cannot be reached unless the server is started with a higher \
             --max-connections",
            l.max_connections
        );
    }
    if connections > u64::from(l.max_per_ip) && !is_loopback(&args.url) {
        println!(
            "note: this run opens {connections} connections from one address, more than the \
             server's {} per address: the load asked cannot be reached unless the server is \
             started with a higher --max-per-ip",
            l.max_per_ip
        );
    }
}

/// Whether the server is this machine's own (no URL: the loadtest's own
/// server), which a server does not count against its per-address limit
/// by default.
fn is_loopback(url: &Option<String>) -> bool {
    let Some(url) = url else {
        return true;
    };
    let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The games benchmark.
fn games(
    runtime: &tokio::runtime::Runtime,
    url: &str,
    trust: crate::net::client::Trust,
    args: &LoadtestArgs,
    pid: Option<u32>,
) -> Result<(), UserError> {
    let config = LoadConfig {
        url: url.to_string(),
        games: usize::try_from(args.games).unwrap_or(usize::MAX),
        concurrency: usize::try_from(args.concurrency).unwrap_or(usize::MAX),
        time_limit: Duration::from_secs(args.time_limit.max(1)),
        think: Duration::from_millis(args.think_ms),
        trust,
    };
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
    println!("move round trip: {}", percentiles(&report.round_trips));
    println!("errors: {}", report.errors);
    for e in &report.error_samples {
        println!("  {e}");
    }
    print_server_use(pid, report.moves, "move");
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

/// p50, p99 and max of sorted durations.
fn percentiles(sorted: &[Duration]) -> String {
    format!(
        "p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile_ms(sorted, 0.5),
        quantile_ms(sorted, 0.99),
        quantile_ms(sorted, 1.0)
    )
}

/// The server's memory and CPU, when its process is known.
fn print_server_use(pid: Option<u32>, units: usize, unit: &str) {
    match pid.and_then(memory_of) {
        Some((rss, peak)) => println!("server memory: {} resident, {} peak", mib(rss), mib(peak)),
        None => println!("server memory: unknown (not our process; see --server-pid)"),
    }
    if let Some(cpu) = pid.and_then(cpu_of) {
        #[allow(clippy::cast_precision_loss)]
        let per = cpu / units.max(1) as f64 * 1e6;
        println!("server cpu: {cpu:.2} s ({per:.0} µs a {unit})");
    }
}

fn mib(kib: u64) -> String {
    #[allow(clippy::cast_precision_loss)]
    let m = kib as f64 / 1024.0;
    format!("{m:.1} MiB")
}

/// The server's resident memory, sampled every 20 ms on a thread until
/// dropped; keeps the highest.
struct MemoryWatch {
    peak: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl MemoryWatch {
    fn start(pid: u32) -> MemoryWatch {
        let (peak, stop) = (
            Arc::new(AtomicU64::new(0)),
            Arc::new(AtomicBool::new(false)),
        );
        let thread = {
            let (peak, stop) = (Arc::clone(&peak), Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    if let Some((rss, _)) = memory_of(pid) {
                        peak.fetch_max(rss, Ordering::Relaxed);
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        MemoryWatch {
            peak,
            stop,
            thread: Some(thread),
        }
    }

    /// The highest resident memory seen so far, in KiB.
    fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }
}

impl Drop for MemoryWatch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// `--stuck N`.
fn stuck(
    runtime: &tokio::runtime::Runtime,
    url: &str,
    n: u64,
    args: &LoadtestArgs,
    pid: Option<u32>,
) -> Result<(), UserError> {
    let config = StuckConfig {
        url: url.to_string(),
        readers: usize::try_from(n).unwrap_or(usize::MAX),
        lists: usize::try_from(args.lists).unwrap_or(usize::MAX),
        time_limit: Duration::from_secs(args.time_limit.max(1)),
    };
    let watch = pid.map(MemoryWatch::start);
    let mut before = None;
    let mut on_seated = || before = pid.and_then(memory_of).map(|(rss, _)| rss);
    let report = runtime
        .block_on(run_stuck(&config, &mut on_seated))
        .map_err(|e| UserError::input(e.to_string()))?;
    let after = pid.and_then(memory_of).map(|(rss, _)| rss);
    println!(
        "{url}: {} stuck readers seated, each then silent with {} list requests",
        report.seated, args.lists
    );
    let closed = &report.closed_after;
    let secs = |q| quantile_ms(closed, q) / 1000.0;
    println!(
        "closed: {} of {} (their partners told): after p50 {:.2} s, max {:.2} s; not closed within {} s: {}",
        closed.len(),
        report.seated,
        secs(0.5),
        secs(1.0),
        args.time_limit,
        report.not_closed
    );
    match (before, watch.as_ref().map(MemoryWatch::peak), after) {
        (Some(before), Some(peak), Some(after)) => println!(
            "server memory: {} when they stopped reading, {} peak (+{}), {} after",
            mib(before),
            mib(peak),
            mib(peak.saturating_sub(before)),
            mib(after)
        ),
        _ => println!("server memory: unknown (not our process; see --server-pid)"),
    }
    println!("errors: {}", report.errors);
    for e in &report.error_samples {
        println!("  {e}");
    }
    if report.errors > 0 || report.not_closed > 0 {
        return Err(UserError::from(anyhow::anyhow!(
            "{} stuck readers not closed, {} errors",
            report.not_closed,
            report.errors
        )));
    }
    Ok(())
}

/// `--ping-flood`.
fn ping_flood(
    runtime: &tokio::runtime::Runtime,
    url: &str,
    args: &LoadtestArgs,
    pid: Option<u32>,
) -> Result<(), UserError> {
    let config = FloodConfig {
        url: url.to_string(),
        clients: usize::try_from(args.clients).unwrap_or(usize::MAX),
        phase: Duration::from_secs(args.phase_secs),
    };
    let cpu_before = pid.and_then(cpu_of);
    let report = runtime
        .block_on(run_flood(&config))
        .map_err(|e| UserError::input(e.to_string()))?;
    println!(
        "{url}: {} clients pinging, {} s quiet then {} s with one connection flooding WebSocket pings",
        args.clients, args.phase_secs, args.phase_secs
    );
    match &report.closed {
        Some((code, reason)) => println!(
            "flooder: closed by the server after {} pings in {:.3} s: {code} {reason}",
            report.pings,
            report.flooded_for.as_secs_f64()
        ),
        None => println!(
            "flooder: NOT closed: {} pings in {:.1} s",
            report.pings,
            report.flooded_for.as_secs_f64()
        ),
    }
    println!(
        "round trip quiet: {} ({} pings)",
        percentiles(&report.quiet),
        report.quiet.len()
    );
    println!(
        "round trip during the flood: {} ({} pings); p99 {:.2}x quiet",
        percentiles(&report.flood),
        report.flood.len(),
        quantile_ms(&report.flood, 0.99) / quantile_ms(&report.quiet, 0.99).max(1e-9)
    );
    if let (Some(a), Some(b)) = (cpu_before, pid.and_then(cpu_of)) {
        println!("server cpu: {:.2} s during the run", b - a);
    }
    println!("errors: {}", report.errors);
    for e in &report.error_samples {
        println!("  {e}");
    }
    if report.errors > 0 {
        return Err(UserError::from(anyhow::anyhow!("{} errors", report.errors)));
    }
    Ok(())
}
