//! The engine seats' searches: a pool of [`Worker`] threads fed through one
//! queue, off the network threads. Each answer goes back (to the hub) as an
//! [`Event::AiMove`] carrying the move, tagged with the table, the move
//! number and the job, so the lobby can drop a stale one; an engine that
//! failed is reported as such, for the lobby to recover the table.

use crate::ai::book::Book;
use crate::ai::worker::{Answer, Report, Task, Worker};
use crate::ai::{Engine, Limits};
use crate::net::lobby::{AiJob, Event};
use crate::net::protocol::TableId;
use std::sync::Arc;
use std::time::Duration;

/// A job's tag: the table, the move number and the job's number.
type Tag = (TableId, usize, u64);

/// The engine seats' pool.
pub(super) struct Engines {
    worker: Worker<Tag>,
}

impl Engines {
    /// Starts `threads` threads (at least one) playing from `book`; each
    /// answer goes to `report`.
    pub(super) fn start(
        threads: usize,
        book: Option<Arc<Book>>,
        report: impl Fn(Event) + Clone + Send + 'static,
    ) -> Engines {
        let engine = move || {
            let mut engine = Engine::new(16);
            engine.set_book(book.clone());
            engine
        };
        let worker = Worker::pool(threads, engine, move |r| {
            if let Report::Done { tag, answer, .. } = r {
                report(ai_move(tag, answer));
            }
        });
        if worker.threads() < threads.max(1) {
            tracing::error!(
                started = worker.threads(),
                asked = threads.max(1),
                "cannot start every engine thread"
            );
        }
        Engines { worker }
    }

    /// Queues the search for `job`.
    pub(super) fn submit(&self, job: AiJob) {
        let tag = (job.table, job.ply, job.job);
        // Searches run to their limits: nothing stops them.
        let _ = self.worker.start(tag, task(&job));
    }
}

/// The search for a job: the level's limits, its time cut to a tenth of the
/// clock left.
fn task(job: &AiJob) -> Task {
    let mut limits: Limits = job.level.limits();
    if let Some(ms) = job.clock_ms {
        let share = Duration::from_millis(ms / 10);
        limits.time = Some(limits.time.map_or(share, |t| t.min(share)));
    }
    Task::Search {
        position: job.position,
        rules: job.rules,
        limits,
        seed: job.seed,
    }
}

/// The lobby's event for the engine's answer to the job `tag`.
fn ai_move((table, ply, job): Tag, answer: Answer) -> Event {
    let mv = match answer {
        Answer::Searched(r) => Ok(r.best_move),
        Answer::Analysed(..) => Err("the engine analysed instead of searching".to_string()),
        Answer::Failed(why) => Err(why),
    };
    Event::AiMove {
        table,
        ply,
        job,
        mv,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::ai::book::{Entry, Key, NO_LEAF, propagate};
    use crate::rules::{BoardSize, Move, Position, Rules};

    fn after(moves: &str) -> Position {
        let start = Position::initial(BoardSize::Eight);
        crate::notation::parse_transcript(moves, &start)
            .expect("moves")
            .into_iter()
            .fold(start, |p, m| p.play_unchecked(m))
    }

    /// The engine seats play from the server's book: a book that holds
    /// only the parallel opening, valued +50 for White, makes f4 the reply
    /// to f5 at level 10; the answer comes back tagged with its job.
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
            table: 7,
            ply: 1,
            job: 3,
            position: after("f5"),
            rules: Rules::standard(BoardSize::Eight),
            level: Level::new(10).expect("a level"),
            clock_ms: None,
            seed: 3,
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let engines = Engines::start(1, Some(book), move |ev| {
            let _ = tx.send(ev);
        });
        engines.submit(job);
        let f4 = crate::notation::parse_square("f4").expect("a square");
        assert_eq!(
            rx.recv().expect("an answer"),
            Event::AiMove {
                table: 7,
                ply: 1,
                job: 3,
                mv: Ok(Move::Place(f4)),
            }
        );
    }
}
