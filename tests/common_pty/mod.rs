//! The real `reversi` binary in a pseudo-terminal, driven by keys as a person
//! would, its screen read back through a VT100 parser; and `reversi server`
//! as a child process on a port the system picks.
//!
//! The waits have generous limits only to turn a hang into a failure; nothing
//! here asserts on timing.
#![allow(dead_code)]

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A scratch directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh directory for `tag`.
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("reversi-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The program in a 100×40 pseudo-terminal.
pub struct Session {
    /// The terminal as the program drew it.
    pub parser: vt100::Parser,
    /// Every byte the program wrote, in order.
    pub raw: Vec<u8>,
    /// The program.
    pub child: Box<dyn Child + Send + Sync>,
    output: Receiver<Vec<u8>>,
    writer: Box<dyn Write + Send>,
    _master: Box<dyn MasterPty + Send>,
    /// Its config and data directory.
    dir: PathBuf,
    /// Removed when the session ends, if the session made it.
    _scratch: Option<TempDir>,
}

impl Session {
    /// Starts `reversi ARGS` in English (whatever the caller's locale) with
    /// its config and data directories in `dir`.
    pub fn start(dir: &Path, args: &[&str]) -> Session {
        Session::start_in(dir, args, "C.UTF-8")
    }

    /// Starts `reversi ARGS` in English with a scratch directory of its own
    /// for `name`, removed when the session ends.
    pub fn scratch(name: &str, args: &[&str]) -> Session {
        Session::scratch_in(name, args, "C.UTF-8")
    }

    /// As [`Session::scratch`], with `LANG` set to `lang`.
    pub fn scratch_in(name: &str, args: &[&str], lang: &str) -> Session {
        let dir = TempDir::new(&format!("e2e-{name}"));
        let mut s = Session::start_in(&dir.0, args, lang);
        s._scratch = Some(dir);
        s
    }

    /// Starts `reversi ARGS` with its config and data directories in `dir`
    /// and `LANG` set to `lang` (and no other locale variable).
    pub fn start_in(dir: &Path, args: &[&str], lang: &str) -> Session {
        let (rows, cols) = (40, 100);
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_reversi"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("REVERSI_CONFIG_DIR", dir);
        cmd.env("REVERSI_DATA_DIR", dir);
        cmd.env_remove("NO_COLOR");
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_MESSAGES");
        cmd.env("LANG", lang);
        let child = pair.slave.spawn_command(cmd).expect("spawn reversi");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let (tx, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            parser: vt100::Parser::new(
                std::num::NonZero::new(rows).unwrap(),
                std::num::NonZero::new(cols).unwrap(),
                0,
            ),
            raw: Vec::new(),
            child,
            output,
            writer,
            _master: pair.master,
            dir: dir.to_path_buf(),
            _scratch: None,
        }
    }

    /// The program's config and data directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads what the program wrote, waiting up to `wait` for the first bytes.
    pub fn pump(&mut self, wait: Duration) {
        if let Ok(bytes) = self.output.recv_timeout(wait) {
            self.parser.process(&bytes);
            self.raw.extend_from_slice(&bytes);
            while let Ok(more) = self.output.try_recv() {
                self.parser.process(&more);
                self.raw.extend_from_slice(&more);
            }
        }
    }

    /// The screen's text.
    pub fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    /// Waits until the screen satisfies `ok` (a hang guard of 60 s).
    pub fn wait_until(&mut self, what: &str, ok: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !ok(&self.screen()) {
            assert!(
                Instant::now() < deadline,
                "the screen never showed {what}:\n{}",
                self.screen()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for(&mut self, text: &str) {
        self.wait_until(&format!("{text:?}"), |s| s.contains(text));
    }

    /// Sends one key whose bytes are an escape sequence (an arrow, say).
    pub fn key(&mut self, seq: &str) {
        self.writer.write_all(seq.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        self.pump(Duration::from_millis(30));
    }

    /// Types `bytes` one key at a time.
    pub fn keys(&mut self, bytes: &str) {
        for b in bytes.as_bytes() {
            self.writer.write_all(&[*b]).unwrap();
            self.writer.flush().unwrap();
            // Let the program take each key as a separate press.
            self.pump(Duration::from_millis(30));
        }
    }

    /// Waits for the program to end; returns whether it exited with status 0.
    pub fn finish(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            self.pump(Duration::from_millis(20));
            if let Some(status) = self.child.try_wait().unwrap() {
                // Drain what it wrote last (the terminal restore).
                for _ in 0..5 {
                    self.pump(Duration::from_millis(20));
                }
                return status.success();
            }
            assert!(Instant::now() < deadline, "reversi did not exit");
        }
    }

    /// Checks that the terminal was put back: main screen, cursor shown.
    pub fn assert_terminal_restored(&self) {
        let s = self.parser.screen();
        assert!(!s.alternate_screen(), "left the alternate screen");
        assert!(!s.hide_cursor(), "the cursor is visible again");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// A `reversi server` child process, killed when dropped (also when a test
/// fails half-way).
pub struct ServerProcess(std::process::Child);

impl ServerProcess {
    /// Kills the server at once (SIGKILL) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `reversi server` on `listen` (e.g. `127.0.0.1:0`) with the database `db`;
/// returns it and its URL.
pub fn spawn_server(listen: &str, db: &Path) -> (ServerProcess, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["server", "--listen", listen, "--db"])
        .arg(db)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let server = ServerProcess(child);
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("ws://"))
        .unwrap_or_else(|| panic!("the server's first line names its address: {line:?}"))
        .to_string();
    (server, url)
}
