//! A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary
//! folder, the server on a free loopback port (no Unix socket), stopped
//! and removed when the [`Cluster`] is dropped. The binaries are found in
//! `PATH` or in `/usr/lib/postgresql/*/bin` (Debian's `postgresql`
//! package). `initdb` refuses to run as root, so as root the cluster runs
//! as the `postgres` system user (or `nobody`), its folder given to it.
//!
//! Without the binaries the tests that need a cluster fail, saying how to
//! install them; `REVERSI_TEST_PG=skip` skips them instead.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The cluster's superuser, trusted on loopback.
pub const USER: &str = "reversi";

/// A running cluster.
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    run_as: Option<String>,
    port: u16,
}

/// Whether the PostgreSQL tests are to be skipped (`REVERSI_TEST_PG=skip`).
fn skipped() -> bool {
    std::env::var("REVERSI_TEST_PG").is_ok_and(|v| v == "skip")
}

/// The folder of `initdb` and `pg_ctl`: `PATH` first, then the newest of
/// `/usr/lib/postgresql/*/bin`.
fn bin_dir() -> Option<PathBuf> {
    let has_tools = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    let path = std::env::var_os("PATH").unwrap_or_default();
    if let Some(d) = std::env::split_paths(&path).find(|d| has_tools(d)) {
        return Some(d);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let version = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, d)| has_tools(d))
        .collect();
    versions.sort();
    versions.pop().map(|(_, d)| d)
}

/// As root: the unprivileged user to run the cluster as.
fn unprivileged_user() -> Option<String> {
    // SAFETY: geteuid only reads the process's user id.
    if unsafe { libc::geteuid() } != 0 {
        return None;
    }
    for user in ["postgres", "nobody"] {
        if Command::new("id")
            .arg("-u")
            .arg(user)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
        {
            return Some(user.into());
        }
    }
    panic!("running as root, and neither the user postgres nor nobody exists to run initdb as");
}

/// A port free on 127.0.0.1 when asked.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    /// Starts a cluster for `tag` (`None`: skipped by `REVERSI_TEST_PG=skip`).
    ///
    /// # Panics
    /// When the binaries are missing (saying how to install them) or the
    /// cluster does not start (with its log).
    pub fn start(tag: &str) -> Option<Cluster> {
        if skipped() {
            eprintln!("REVERSI_TEST_PG=skip: the PostgreSQL tests are skipped");
            return None;
        }
        let bin = bin_dir().unwrap_or_else(|| {
            panic!(
                "the PostgreSQL tests need initdb and pg_ctl (in PATH or /usr/lib/postgresql/*/bin): \
                 install them (Debian, Ubuntu: apt-get install postgresql; .ci/run does), \
                 or set REVERSI_TEST_PG=skip to skip these tests"
            )
        });
        let dir = std::env::temp_dir().join(format!("reversi-pg-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let run_as = unprivileged_user();
        if let Some(user) = &run_as {
            let status = Command::new("chown")
                .arg("-R")
                .arg(user)
                .arg(&dir)
                .status()
                .unwrap();
            assert!(status.success(), "chown {user} {}", dir.display());
        }
        let mut cluster = Cluster {
            dir,
            bin,
            run_as,
            port: 0,
        };
        cluster.run(
            "initdb",
            &[
                "-D",
                "data",
                "-U",
                USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-locale",
                "--no-sync",
            ],
        );
        // A port taken between the choice and the start: try another.
        for _ in 0..5 {
            cluster.port = free_port();
            let settings = format!(
                "\nport = {}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = ''\n\
                 fsync = off\nshared_buffers = 16MB\nmax_connections = 40\n",
                cluster.port
            );
            let conf = cluster.dir.join("data/postgresql.conf");
            let mut text = std::fs::read_to_string(&conf).unwrap();
            text.push_str(&settings);
            std::fs::write(&conf, text).unwrap();
            if cluster.try_run(
                "pg_ctl",
                &["-D", "data", "-l", "log", "-w", "-t", "120", "start"],
            ) {
                return Some(cluster);
            }
        }
        let log = std::fs::read_to_string(cluster.dir.join("log")).unwrap_or_default();
        panic!("the PostgreSQL cluster does not start:\n{log}");
    }

    fn command(&self, tool: &str, args: &[&str]) -> Command {
        let program = self.bin.join(tool);
        let mut cmd = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(program);
                c
            }
            None => Command::new(program),
        };
        cmd.args(args)
            .current_dir(&self.dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        cmd
    }

    fn try_run(&self, tool: &str, args: &[&str]) -> bool {
        let out = self.command(tool, args).output().unwrap();
        if !out.status.success() {
            eprintln!("{tool}: {}", String::from_utf8_lossy(&out.stderr));
        }
        out.status.success()
    }

    fn run(&self, tool: &str, args: &[&str]) {
        assert!(self.try_run(tool, args), "{tool} {args:?} failed");
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The URL of database `db`.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{db}", self.port)
    }

    /// Runs `sql` in database `db` on a connection of its own (on a thread
    /// of its own, so that it may be called from a tokio runtime); returns
    /// the first column of the first row, if it is a number.
    pub fn sql(&self, db: &str, sql: &str) -> Option<i64> {
        let url = self.url(db);
        let sql = sql.to_string();
        std::thread::spawn(move || {
            let mut client = postgres::Client::connect(&url, postgres::NoTls)
                .unwrap_or_else(|e| panic!("{url}: {e}"));
            let mut last = None;
            for m in client
                .simple_query(&sql)
                .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
            {
                if let postgres::SimpleQueryMessage::Row(row) = m
                    && last.is_none()
                {
                    last = row.get(0).and_then(|v| v.parse().ok());
                }
            }
            last
        })
        .join()
        .unwrap()
    }

    /// Creates database `db`; returns its URL.
    pub fn create_database(&self, db: &str) -> String {
        self.sql("postgres", &format!("CREATE DATABASE \"{db}\""));
        self.url(db)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.try_run("pg_ctl", &["-D", "data", "-m", "immediate", "-w", "stop"]);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
