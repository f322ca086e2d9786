//! An external engine speaking the NBoard protocol, run as a child process
//! in its own process group: started with a handshake, asked for a move
//! with a deadline, stopped (with everything it started) when dropped.
//! What it answers is only text: the caller checks the move by the rules.

use super::Forfeit;
use crate::notation::ggf::{Record, write_ggf};
use crate::notation::parse_move;
use crate::rules::{Game, Move};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Starts the external engine `command`, checks that it answers the NBoard
/// handshake within `timeout`, and stops it again.
///
/// # Errors
/// Why it failed: it could not be started, exited or did not answer.
pub fn check_engine(command: &str, timeout: Duration) -> Result<(), Forfeit> {
    External::start(command, timeout).map(drop)
}

/// A running external NBoard engine.
pub(super) struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl External {
    pub(super) fn start(command: &str, timeout: Duration) -> Result<External, Forfeit> {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group, so that everything it starts can be stopped with it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| Forfeit::Crashed(format!("cannot start \"{command}\": {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| Forfeit::Crashed("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| Forfeit::Crashed("no stdout".into()))?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            child,
            stdin,
            lines,
        };
        e.send("nboard 2")?;
        e.send("ping 0")?;
        e.wait_for(|l| l.trim() == "pong 0", timeout)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| Forfeit::Crashed(format!("engine input closed: {e}")))
    }

    fn wait_for(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, Forfeit> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if want(&line) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(Forfeit::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Forfeit::Crashed("the engine exited".into()));
                }
            }
        }
    }

    /// The engine's move, with its evaluation in discs when the `===` line
    /// gives one (`=== move/eval/time`).
    pub(super) fn choose(
        &mut self,
        game: &Game,
        timeout: Duration,
    ) -> Result<(Move, Option<f64>), Forfeit> {
        let mut record = Record::new(game.clone());
        record.notes.clear();
        self.send(&format!("set game {}", write_ggf(&record)))?;
        self.send("go")?;
        let line = self.wait_for(|l| l.starts_with("==="), timeout)?;
        let mut fields = line.trim_start_matches("===").trim().split('/');
        let text = fields.next().unwrap_or("").trim().to_string();
        let eval = fields.next().and_then(|e| e.trim().parse::<f64>().ok());
        let mv = parse_move(&text)
            .map_err(|_| Forfeit::Illegal(format!("unreadable move \"{text}\"")))?;
        Ok((mv, eval.filter(|e| e.is_finite())))
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        if let Ok(None) = self.child.try_wait() {
            #[cfg(unix)]
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{}", self.child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
