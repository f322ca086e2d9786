//! The NBoard engine protocol: lets GUIs such as NBoard use our AI.
//!
//! One command per line on the input, one reply per line on the output, flushed
//! after every line. Commands handled: `nboard N`, `set depth N`, `set game GGF`,
//! `set contempt N`, `move M[/eval[/time]]`, `hint N`, `go`, `ping N`, `learn`,
//! `quit`. Replies: `set myname reversi`, `=== MOVE/EVAL/TIME`, `search PV EVAL 0
//! DEPTH`, `nodestats NODES SECONDS`, `status TEXT`, `pong N`. Unknown commands are
//! reported on the error stream and otherwise ignored; bad games or moves get a
//! `status` line and leave the position as it was.
//!
//! Searches run on the engine's thread ([`crate::ai::worker`]) so that `ping`
//! can stop them: `pong N` is sent only after everything before the ping has
//! been answered.

use crate::ai::worker::{Answer, Report, Stop, Task, Worker};
use crate::ai::{Engine, Limits, SearchResult};
use crate::notation::ggf::parse_ggf;
use crate::notation::{parse_move, write_move};
use crate::rules::{Game, Move, Rules};
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// The search depth until the GUI sends `set depth`.
const DEFAULT_DEPTH: u32 = 4;

/// The search in progress: for `hint N` (`Some(N)`) or `go` (`None`), and
/// its stop flag.
type Job = (Option<usize>, Stop);

/// What the main loop waits for: an input line, a progress line from the worker
/// (printed at once), or the worker being done.
#[derive(Debug)]
pub enum Event {
    /// A line of input from the GUI.
    Input(String),
    /// A line the worker wants printed now (`status …`).
    Say(String),
    /// The worker finished; its result can be collected.
    Done,
    /// The input ended.
    Eof,
}

/// The protocol state: the game, the search settings, the engine's thread
/// and the search it runs, if any.
pub struct Session<W: Write> {
    out: W,
    err: Box<dyn Write + Send>,
    game: Game,
    depth: u32,
    engine: Worker<()>,
    job: Option<Job>,
    /// The answers of the engine's thread, one per job.
    answers: mpsc::Receiver<Answer>,
    seed: u64,
}

impl<W: Write> Session<W> {
    /// A session writing replies to `out` and complaints to `err`, searching with
    /// the engine `engine()` makes (again after a panic of the engine). Its
    /// search progress (`status` lines) and ends go to `events`.
    pub fn new(
        out: W,
        err: Box<dyn Write + Send>,
        engine: impl Fn() -> Engine + Send + 'static,
        events: mpsc::Sender<Event>,
    ) -> Session<W> {
        let (answers, answered) = mpsc::channel();
        let engine = Worker::spawn_with(engine, move |report| match report {
            Report::Progress((), p) => {
                let _ = events.send(Event::Say(format!(
                    "status depth {} {} {}",
                    p.depth,
                    move_text(p.best_move),
                    p.score
                )));
            }
            Report::Done { answer, .. } => {
                let _ = answers.send(answer);
                let _ = events.send(Event::Done);
            }
        });
        Session {
            out,
            err,
            game: Game::new(Rules::default()),
            depth: DEFAULT_DEPTH,
            engine,
            job: None,
            answers: answered,
            seed: 1,
        }
    }

    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn limits(&self) -> Limits {
        // Untimed: the GUI stops a search with `ping`.
        Limits::nominal(self.depth)
    }

    /// Waits for the running search, if any, and prints what it produced.
    fn finish_job(&mut self) -> std::io::Result<()> {
        let Some((hint, _)) = self.job.take() else {
            return Ok(());
        };
        let answer = self
            .answers
            .recv()
            .unwrap_or_else(|_| Answer::Failed("the engine's thread is gone".into()));
        let limits = self.limits();
        for line in answer_lines(hint, answer, &limits) {
            self.say(&line)?;
        }
        Ok(())
    }

    /// Asks a running search to stop.
    pub fn stop(&self) {
        if let Some((_, stop)) = &self.job {
            stop.stop();
        }
    }

    /// Handles one input line. Returns `false` after `quit`.
    ///
    /// # Errors
    /// Only when the output cannot be written.
    pub fn handle(&mut self, line: &str) -> std::io::Result<bool> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        if cmd == "quit" {
            self.stop();
            self.finish_job()?;
            return Ok(false);
        }
        // Everything else is answered in order, after the running search.
        self.finish_job()?;
        match cmd {
            "" => {}
            "nboard" => self.say("set myname reversi")?,
            "ping" => self.say(&format!("pong {rest}"))?,
            "set" => self.set(rest)?,
            "move" => self.play(rest)?,
            "go" => self.start(None),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n > 0 => self.start(Some(n)),
                _ => self.say(&format!(
                    "status ERROR: hint needs a number of moves, got \"{rest}\""
                ))?,
            },
            "learn" => self.say("learned")?,
            "analyze" => {}
            _ => {
                let _ = writeln!(self.err, "reversi nboard: unknown command ignored: {line}");
            }
        }
        Ok(true)
    }

    fn set(&mut self, rest: &str) -> std::io::Result<()> {
        let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        match key {
            "depth" => match value.trim().parse::<u32>() {
                Ok(d) if (1..=60).contains(&d) => self.depth = d,
                _ => self.say(&format!(
                    "status ERROR: depth must be 1 to 60, got \"{}\"",
                    value.trim()
                ))?,
            },
            "game" => match parse_ggf(value) {
                Ok(mut records) if !records.is_empty() => {
                    self.game = records.swap_remove(0).game;
                }
                Ok(_) => self.say("status ERROR: set game: no game")?,
                Err(e) => self.say(&format!("status ERROR: set game: {e}"))?,
            },
            "contempt" => {
                if value.trim().parse::<i32>().is_err() {
                    self.say(&format!(
                        "status ERROR: contempt must be a number, got \"{}\"",
                        value.trim()
                    ))?;
                }
            }
            _ => {
                let _ = writeln!(
                    self.err,
                    "reversi nboard: unknown setting ignored: set {rest}"
                );
            }
        }
        Ok(())
    }

    fn play(&mut self, rest: &str) -> std::io::Result<()> {
        let text = rest.split('/').next().unwrap_or("").trim();
        let mv = parse_move(text).map_err(|e| e.to_string());
        let result = mv.and_then(|mv| {
            let mut next = self.game.clone();
            // Tolerate a GUI that does not send forced passes.
            if mv != Move::Pass {
                next.pass_if_forced();
            }
            next.play(mv).map(|()| next).map_err(|e| e.to_string())
        });
        match result {
            Ok(next) => self.game = next,
            Err(e) => self.say(&format!("status ERROR: move {rest}: {e}"))?,
        }
        Ok(())
    }

    /// Starts `go` (`hint == None`) or `hint N` on the engine's thread.
    fn start(&mut self, hint: Option<usize>) {
        let position = self.game.position();
        let rules = self.game.rules();
        let limits = self.limits();
        let task = match hint {
            None => {
                let seed = self.seed;
                self.seed = self.seed.wrapping_add(1);
                Task::Search {
                    position,
                    rules,
                    limits,
                    seed,
                }
            }
            Some(_) => Task::Analyze {
                position,
                rules,
                limits,
                fresh: false,
            },
        };
        self.job = Some((hint, self.engine.start((), task)));
    }
}

/// The reply lines of a finished `go` or `hint N` (`hint == Some(N)`)
/// searched with `limits`.
fn answer_lines(hint: Option<usize>, answer: Answer, limits: &Limits) -> Vec<String> {
    match answer {
        Answer::Failed(_) => vec!["status ERROR: the search failed".to_string()],
        Answer::Searched(r) => vec![
            format!(
                "=== {}/{:.2}/{:.3}",
                move_text(r.best_move),
                r.score.discs(),
                r.elapsed.as_secs_f64()
            ),
            nodestats(&r),
        ],
        Answer::Analysed(evals, r) => {
            let mut lines = Vec::new();
            if evals.is_empty() {
                lines.push("search PA 0.00 0 0".to_string());
            }
            for e in evals.iter().take(hint.unwrap_or(evals.len())) {
                let depth = if e.score.is_exact() {
                    "100%".to_string()
                } else {
                    limits.depth.to_string()
                };
                lines.push(format!(
                    "search {} {:.2} 0 {depth}",
                    move_text(e.mv),
                    e.score.discs()
                ));
            }
            lines.push(format!("nodestats 0 {:.3}", r.elapsed.as_secs_f64()));
            lines.push("status".to_string());
            lines
        }
    }
}

fn move_text(mv: Move) -> String {
    write_move(mv).to_ascii_uppercase()
}

fn nodestats(r: &SearchResult) -> String {
    format!("nodestats {} {:.3}", r.nodes, r.elapsed.as_secs_f64())
}

/// Runs the protocol on `input` until `quit` or the end of the input,
/// searching with the engine `engine()` makes.
///
/// # Errors
/// When the output cannot be written.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    out: W,
    err: Box<dyn Write + Send>,
    engine: impl Fn() -> Engine + Send + 'static,
) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel::<Event>();
    let reader = tx.clone();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if reader.send(Event::Input(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    let mut session = Session::new(out, err, engine, tx);
    while let Ok(event) = rx.recv() {
        match event {
            Event::Input(line) => {
                let first = line.split_whitespace().next().unwrap_or("");
                if matches!(first, "ping" | "quit") {
                    session.stop();
                }
                if !session.handle(&line)? {
                    return Ok(());
                }
            }
            Event::Say(line) => {
                if session.job.is_some() {
                    session.say(&line)?;
                }
            }
            Event::Done => session.finish_job()?,
            Event::Eof => break,
        }
    }
    session.stop();
    session.finish_job()
}
