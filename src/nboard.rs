//! The NBoard engine protocol: lets GUIs such as NBoard use our AI.
//!
//! One command per line on the input, one reply per line on the output, flushed
//! after every line. Commands handled: `nboard N`, `set depth N`, `set game GGF`,
//! `set contempt N`, `set book on|off` (the opening book, on by default: `go`
//! plays its best move where it knows the position, and `hint` gives its
//! values with the depth `book`), `move M[/eval[/time]]`, `hint N`, `go`,
//! `ping N`, `learn`, `quit`. Replies: `set myname reversi`, `=== MOVE/EVAL/TIME`, `search PV EVAL 0
//! DEPTH`, `nodestats NODES SECONDS`, `status TEXT`, `pong N`. Unknown commands are
//! reported on the error stream and otherwise ignored; bad games or moves get a
//! `status` line and leave the position as it was.
//!
//! Searches run on the engine's thread ([`crate::ai::worker`]) so that `ping`
//! can stop them: `pong N` is sent only after everything before the ping has
//! been answered.
//!
//! Every search is a numbered job, and what the engine's thread reports
//! (progress, the end of a job) carries that number. A report that arrives
//! after its job was already answered (a `ping` or a new command collects the
//! answer at once, while the thread's "done" may still be on its way) is
//! recognised as stale and dropped, so it can never be taken for the end of
//! the job that runs now. A stop belongs to its job: it is set on that job's
//! own flag, which the search never clears, whether or not the search has
//! started yet.

use crate::ai::worker::{Answer, Report, Stop, Task, Worker};
use crate::ai::{Engine, Limits, SearchResult};
use crate::notation::ggf::parse_ggf;
use crate::notation::{parse_move, write_move};
use crate::rules::{Game, Move, Rules};
use std::io::{BufRead, Write};
use std::sync::mpsc;

/// The search depth until the GUI sends `set depth`.
const DEFAULT_DEPTH: u32 = 4;

/// The search in progress: its number, what it answers (`hint N` as
/// `Some(N)`, `go` as `None`) and its stop flag.
struct Job {
    id: u64,
    hint: Option<usize>,
    stop: Stop,
}

/// What the main loop waits for: an input line, a progress line from the worker
/// (printed at once), or the worker being done.
#[derive(Debug)]
pub enum Event {
    /// A line of input from the GUI.
    Input(String),
    /// A line of input that is not UTF-8.
    NotText,
    /// A line the worker wants printed now (`status …`) for the job with
    /// this number.
    Say(u64, String),
    /// The worker finished the job with this number; its result can be
    /// collected.
    Done(u64),
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
    engine: Worker<u64>,
    /// Whether searches play from the opening book.
    book: bool,
    job: Option<Job>,
    /// The number of the last job started.
    jobs: u64,
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
            Report::Progress(id, p) => {
                let _ = events.send(Event::Say(
                    id,
                    format!(
                        "status depth {} {} {}",
                        p.depth,
                        move_text(p.best_move),
                        p.score
                    ),
                ));
            }
            Report::Done { tag, answer, .. } => {
                let _ = answers.send(answer);
                let _ = events.send(Event::Done(tag));
            }
        });
        Session {
            out,
            err,
            game: Game::new(Rules::default()),
            depth: DEFAULT_DEPTH,
            engine,
            book: true,
            job: None,
            jobs: 0,
            answers: answered,
            seed: 1,
        }
    }

    fn say(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn limits(&self) -> Limits {
        // Untimed: the GUI stops a search with `ping`. From the book: its
        // best move.
        Limits {
            book: self.book.then_some(0),
            ..Limits::nominal(self.depth)
        }
    }

    /// Whether `id` is the job still waiting to be answered.
    fn is_running(&self, id: u64) -> bool {
        self.job.as_ref().is_some_and(|j| j.id == id)
    }

    /// Waits for the running search, if any, and prints what it produced.
    fn finish_job(&mut self) -> std::io::Result<()> {
        let Some(Job { hint, .. }) = self.job.take() else {
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
        if let Some(job) = &self.job {
            job.stop.stop();
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
            "book" => match value.trim() {
                "on" | "1" | "true" => self.book = true,
                "off" | "0" | "false" => self.book = false,
                other => self.say(&format!(
                    "status ERROR: book must be on or off, got \"{other}\""
                ))?,
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
        self.jobs += 1;
        let id = self.jobs;
        let stop = self.engine.start(id, task);
        self.job = Some(Job { id, hint, stop });
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
                let depth = if e.book {
                    "book".to_string()
                } else if e.score.is_exact() {
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
    mut input: R,
    out: W,
    err: Box<dyn Write + Send>,
    engine: impl Fn() -> Engine + Send + 'static,
) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel::<Event>();
    let reader = tx.clone();
    std::thread::spawn(move || {
        let mut line = Vec::new();
        loop {
            line.clear();
            match input.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let event = match std::str::from_utf8(&line) {
                Ok(text) => Event::Input(text.trim_end_matches(['\n', '\r']).to_string()),
                Err(_) => Event::NotText,
            };
            if reader.send(event).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::Eof);
    });
    serve(Session::new(out, err, engine, tx), &rx)
}

/// The protocol's main loop: handles `events` in order until `quit` or the
/// end of the input, then stops the search still running and prints its
/// answer.
///
/// # Errors
/// When the output cannot be written.
pub fn serve<W: Write>(
    mut session: Session<W>,
    events: &mpsc::Receiver<Event>,
) -> std::io::Result<()> {
    while let Ok(event) = events.recv() {
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
            Event::NotText => {
                session.finish_job()?;
                session.say("status ERROR: a line that is not UTF-8 text was ignored")?;
            }
            Event::Say(id, line) => {
                if session.is_running(id) {
                    session.say(&line)?;
                }
            }
            // A job already answered (collected by a later command) is
            // not the one running now.
            Event::Done(id) => {
                if session.is_running(id) {
                    session.finish_job()?;
                }
            }
            Event::Eof => break,
        }
    }
    session.stop();
    session.finish_job()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    /// An output the test can read while the session writes to it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("not poisoned").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8_lossy(&self.0.lock().expect("not poisoned")).into_owned()
        }
    }

    /// A session on its own thread whose engine reports go to the test
    /// (which passes them on in the order it chooses) instead of the loop.
    struct Harness {
        input: mpsc::Sender<Event>,
        reports: mpsc::Receiver<Event>,
        ended: mpsc::Receiver<std::io::Result<()>>,
        out: Shared,
    }

    impl Harness {
        fn start() -> Harness {
            let (input, events) = mpsc::channel();
            let (report, reports) = mpsc::channel();
            let out = Shared::default();
            let session = Session::new(
                out.clone(),
                Box::new(std::io::sink()),
                || Engine::new(1),
                report,
            );
            let (end, ended) = mpsc::channel();
            std::thread::spawn(move || {
                let _ = end.send(serve(session, &events));
            });
            Harness {
                input,
                reports,
                ended,
                out,
            }
        }

        fn send(&self, line: &str) {
            self.input
                .send(Event::Input(line.into()))
                .expect("the loop runs");
        }

        /// The engine's next report that a job is done, held back from the
        /// loop.
        fn next_done(&self) -> Event {
            loop {
                let report = self.reports.recv().expect("the engine reports");
                if matches!(report, Event::Done(_)) {
                    return report;
                }
            }
        }
    }

    /// The order that once left a depth-60 search running after the end
    /// of the input: a `ping` collects a finished job's answer before the
    /// engine's "done" for it reaches the loop, a new long search starts,
    /// and only then does that late "done" arrive, followed by the end of
    /// the input. The late report must not be taken for the end of the
    /// new search (waiting for it would never see the end of the input).
    #[test]
    fn a_late_done_of_an_answered_job_is_not_taken_for_the_running_one() {
        let h = Harness::start();
        h.send("set depth 1");
        h.send("go");
        let late = h.next_done();
        h.send("ping 1");
        h.send("set depth 60");
        h.send("go");
        h.input.send(late).expect("the loop runs");
        h.input.send(Event::Eof).expect("the loop runs");
        let ended = h.ended.recv_timeout(Duration::from_secs(60));
        assert!(
            matches!(ended, Ok(Ok(()))),
            "the long search was stopped by the end of the input: {ended:?}"
        );
        let text = h.out.text();
        let answers: Vec<&str> = text.lines().filter(|l| l.starts_with("=== ")).collect();
        assert_eq!(answers.len(), 2, "{text}");
        let pong = text.find("pong 1").expect("pong");
        assert!(
            text.find(answers[1]).expect("second answer") > pong,
            "{text}"
        );
    }

    /// A `ping` right after `go` stops the search whether or not the
    /// engine's thread has taken the job yet (the stop is the job's own
    /// flag, never cleared by the search; a job stopped while still queued
    /// is covered by `ai::worker`'s tests), and the move comes before the
    /// `pong`.
    #[test]
    fn a_ping_right_after_go_stops_the_search() {
        let h = Harness::start();
        h.send("set depth 60");
        h.send("go");
        h.send("ping 7");
        h.send("quit");
        assert!(matches!(
            h.ended.recv_timeout(Duration::from_secs(60)),
            Ok(Ok(()))
        ));
        let text = h.out.text();
        let answer = text.find("=== ").expect("an answer");
        assert!(text.find("pong 7").expect("pong") > answer, "{text}");
    }
}
