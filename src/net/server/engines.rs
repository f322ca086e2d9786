//! The engine's threads: a fixed number, fed through one queue, off the
//! network threads. Each answer goes back (to the hub) as an
//! [`Event::AiMove`] tagged with the table, the move number and the job, so
//! the lobby can drop a stale one.

use crate::ai::book::Book;
use crate::ai::{Engine, Limits};
use crate::net::lobby::{AiJob, Event};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The pool; its threads end when it is dropped (after their search).
pub(super) struct AiPool {
    tx: std::sync::mpsc::Sender<AiJob>,
}

impl AiPool {
    /// Starts `threads` threads (at least one) playing from `book`; each
    /// answer goes to `report`, and a thread ends when `report` returns
    /// `false`.
    pub(super) fn start(
        threads: usize,
        book: Option<Arc<Book>>,
        report: impl Fn(Event) -> bool + Clone + Send + 'static,
    ) -> AiPool {
        let (tx, rx) = std::sync::mpsc::channel::<AiJob>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let report = report.clone();
            let book = book.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("salon-ai-{i}"))
                .spawn(move || {
                    let mut engine = Engine::new(16);
                    engine.set_book(book);
                    loop {
                        let job = match rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        let square = think(&mut engine, &job);
                        let event = Event::AiMove {
                            table: job.table,
                            ply: job.ply,
                            job: job.job,
                            square,
                        };
                        if !report(event) {
                            return;
                        }
                    }
                });
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start an engine thread");
            }
        }
        AiPool { tx }
    }

    pub(super) fn submit(&self, job: AiJob) {
        let _ = self.tx.send(job);
    }
}

/// The engine's move for a job: the level's limits, its time cut to a tenth
/// of the clock left.
fn think(engine: &mut Engine, job: &AiJob) -> String {
    let mut limits: Limits = job.level.limits();
    if let Some(ms) = job.clock_ms {
        let share = Duration::from_millis(ms / 10);
        limits.time = Some(limits.time.map_or(share, |t| t.min(share)));
    }
    let stop = AtomicBool::new(false);
    let r = engine.search(
        &job.position,
        &job.rules,
        &limits,
        &stop,
        job.seed,
        &mut |_| {},
    );
    // `d3` or `pass`, as the protocol writes moves.
    r.best_move.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::book::{Entry, Key, NO_LEAF, propagate};
    use crate::rules::{BoardSize, Position, Rules};

    fn after(moves: &str) -> Position {
        let start = Position::initial(BoardSize::Eight);
        crate::notation::parse_transcript(moves, &start)
            .expect("moves")
            .into_iter()
            .fold(start, |p, m| p.play_unchecked(m))
    }

    /// The engine seats play from the server's book: a book that holds
    /// only the parallel opening, valued +50 for White, makes f4 the reply
    /// to f5 at level 10.
    #[test]
    fn the_engine_seats_play_from_the_book() {
        let entry = |p: &Position, value: i16| Entry {
            key: Key::of(p).0,
            value,
            leaf_value: NO_LEAF,
            leaf_move: None,
            leaf_depth: 0,
            games: 1,
        };
        let mut entries = vec![entry(&after("f5"), 0), entry(&after("f5f4"), -5000)];
        propagate(&mut entries);
        let book = Arc::new(Book::new(entries, 1));
        let job = AiJob {
            table: 1,
            ply: 1,
            job: 1,
            position: after("f5"),
            rules: Rules::standard(BoardSize::Eight),
            level: Level::new(10).expect("a level"),
            clock_ms: None,
            seed: 3,
        };
        let mut engine = Engine::new(1);
        engine.set_book(Some(book));
        assert_eq!(think(&mut engine, &job), "f4");
    }
}
