//! The engine on a thread of its own: callers queue jobs (search a position
//! for its move, or score every move) and get progress and answers back
//! through a callback they give when the thread starts, typically a channel
//! send. The caller's thread never waits on the engine, which keeps its
//! transposition table from one job to the next.
//!
//! Each job has its own stop flag, handed back as a [`Stop`] when the job is
//! queued and held by the thread only until the job is done. Every job is
//! answered exactly once, in order: a stopped one returns promptly with what
//! it has (a job stopped while still queued starts with its flag set, so it
//! stops at its first check, with a legal move), marked as stopped.
//! A panic in the engine answers the job with [`Answer::Failed`] and the
//! thread goes on with a new engine of the same table size.
//!
//! A pool ([`Worker::pool`]) runs several such threads on one queue, each
//! with its own engine: every job is still answered exactly once, though
//! not in the order queued.
//!
//! Used by the game screen (a job queue), the NBoard protocol (one search
//! at a time, stopped by `ping`), the salon server's engine seats (a pool)
//! and the salon bot (one search at a time). Knows nothing of any of them.

use super::{Engine, Limits, MoveEval, Progress, SearchResult};
use crate::rules::{Position, Rules};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The name of the engine's threads (a panic hook can tell a panic there,
/// which is answered as [`Answer::Failed`], from one elsewhere).
pub const THREAD_NAME: &str = "reversi-ai";

/// What a job asks of the engine.
#[derive(Clone, Debug)]
pub enum Task {
    /// [`Engine::search`]: the move to play.
    Search {
        /// The position.
        position: Position,
        /// The rules.
        rules: Rules,
        /// The limits.
        limits: Limits,
        /// The seed of the search's randomness.
        seed: u64,
    },
    /// [`Engine::analysis`]: a score for every legal move.
    Analyze {
        /// The position.
        position: Position,
        /// The rules.
        rules: Rules,
        /// The limits.
        limits: Limits,
        /// Start from an empty table, so that the figures depend on the
        /// position alone, not on what was searched before (a review's).
        fresh: bool,
    },
}

/// The answer to a job.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The answer to [`Task::Search`].
    Searched(SearchResult),
    /// The answer to [`Task::Analyze`]: every legal move scored, best first,
    /// and the result of the run (nodes, time, principal variation).
    Analysed(Vec<MoveEval>, SearchResult),
    /// The engine panicked with this message.
    Failed(String),
}

/// What the thread reports about a job, with the caller's tag for the job.
#[derive(Clone, Debug)]
pub enum Report<T> {
    /// The search went one step further.
    Progress(T, Progress),
    /// The job is done. `stopped`: its stop flag was set by then, so the
    /// answer may be cut short.
    Done {
        /// The job's tag.
        tag: T,
        /// The answer.
        answer: Answer,
        /// Whether the job was stopped.
        stopped: bool,
    },
}

/// The stop flag of one queued job.
#[derive(Clone, Debug)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// Asks the job to stop: cut short if running, at once if still queued.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the job is over for good: stopped, or done (the thread no
    /// longer holds its flag).
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.0.load(Ordering::Relaxed) || Arc::strong_count(&self.0) == 1
    }
}

type Queued<T> = (T, Task, Arc<AtomicBool>);

/// The handle to the engine's threads (one, or a pool).
#[derive(Debug)]
pub struct Worker<T> {
    jobs: Option<Sender<Queued<T>>>,
    threads: Vec<JoinHandle<()>>,
}

impl<T: Clone + Send + 'static> Worker<T> {
    /// Starts the thread with a new engine of `hash_mb` MiB; everything it
    /// reports goes to `report`, on the thread, in order. When the thread
    /// cannot be started, jobs are not answered ([`Worker::threads`] is 0).
    #[must_use]
    pub fn spawn(hash_mb: usize, report: impl FnMut(Report<T>) + Send + 'static) -> Worker<T> {
        Worker::spawn_with(move || Engine::new(hash_mb), report)
    }

    /// [`Worker::spawn`] with the engine `engine()` makes (called again
    /// after a panic of the engine): other weights, say.
    pub fn spawn_with(
        engine: impl Fn() -> Engine + Send + 'static,
        report: impl FnMut(Report<T>) + Send + 'static,
    ) -> Worker<T> {
        let (tx, rx) = channel::<Queued<T>>();
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || work(engine, || rx.recv().ok(), report))
            .ok();
        Worker::started(tx, thread.into_iter().collect())
    }

    /// `threads` threads (at least one) taking jobs from one queue, each
    /// with the engine `engine()` makes and reporting to its own copy of
    /// `report`. Jobs are answered exactly once each, in the order they
    /// finish. A thread that cannot be started is left out
    /// ([`Worker::threads`] says how many run); with none, jobs are not
    /// answered.
    pub fn pool(
        threads: usize,
        engine: impl Fn() -> Engine + Send + Sync + 'static,
        report: impl FnMut(Report<T>) + Clone + Send + 'static,
    ) -> Worker<T> {
        let (tx, rx) = channel::<Queued<T>>();
        let rx = Arc::new(Mutex::new(rx));
        let engine = Arc::new(engine);
        let handles = (0..threads.max(1))
            .filter_map(|_| {
                let rx = Arc::clone(&rx);
                let engine = Arc::clone(&engine);
                let report = report.clone();
                std::thread::Builder::new()
                    .name(THREAD_NAME.into())
                    .spawn(move || work(|| engine(), || next_shared(&rx), report))
                    .ok()
            })
            .collect();
        Worker::started(tx, handles)
    }

    /// The number of threads running.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    fn started(tx: Sender<Queued<T>>, threads: Vec<JoinHandle<()>>) -> Worker<T> {
        Worker {
            jobs: (!threads.is_empty()).then_some(tx),
            threads,
        }
    }

    /// Queues `task` under `tag`; the flag to stop it.
    pub fn start(&self, tag: T, task: Task) -> Stop {
        let flag = Arc::new(AtomicBool::new(false));
        if let Some(tx) = &self.jobs {
            let _ = tx.send((tag, task, Arc::clone(&flag)));
        }
        Stop(flag)
    }

    /// Lets the threads finish the jobs queued (stop them first to make it
    /// quick) and waits for them to end.
    pub fn shut_down(mut self) {
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// The next job of a pool's shared queue (`None` once the queue is closed).
fn next_shared<T>(jobs: &Mutex<Receiver<Queued<T>>>) -> Option<Queued<T>> {
    jobs.lock().ok()?.recv().ok()
}

fn work<T: Clone>(
    make: impl Fn() -> Engine,
    mut next: impl FnMut() -> Option<Queued<T>>,
    mut report: impl FnMut(Report<T>),
) {
    let mut engine = make();
    while let Some((tag, task, stop)) = next() {
        let mut progress = |p: &Progress| report(Report::Progress(tag.clone(), p.clone()));
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &task {
            Task::Search {
                position,
                rules,
                limits,
                seed,
            } => Answer::Searched(engine.search(
                position,
                rules,
                limits,
                &stop,
                *seed,
                &mut progress,
            )),
            Task::Analyze {
                position,
                rules,
                limits,
                fresh,
            } => {
                if *fresh {
                    engine.clear();
                }
                let (evals, result) =
                    engine.analysis(position, rules, limits, &stop, &mut progress);
                Answer::Analysed(evals, result)
            }
        }));
        let answer = run.unwrap_or_else(|panic| {
            engine = make();
            Answer::Failed(
                panic
                    .downcast_ref::<&str>()
                    .map(ToString::to_string)
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into()),
            )
        });
        let stopped = stop.load(Ordering::Relaxed);
        // The flag is released before the answer goes out, so that a caller
        // holding only the answer sees the job as over.
        drop(stop);
        report(Report::Done {
            tag,
            answer,
            stopped,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::rules::{BoardSize, Move};
    use std::sync::mpsc::Receiver;

    fn search(seed: u64) -> Task {
        Task::Search {
            position: Position::initial(BoardSize::Eight),
            rules: Rules::standard(BoardSize::Eight),
            limits: Level::MIN.limits(),
            seed,
        }
    }

    fn done(rx: &Receiver<Report<u64>>) -> (u64, Answer, bool) {
        loop {
            if let Report::Done {
                tag,
                answer,
                stopped,
            } = rx.recv().expect("the worker answers")
            {
                return (tag, answer, stopped);
            }
        }
    }

    #[test]
    fn jobs_are_answered_in_order_with_their_tags_and_then_over() {
        let (tx, rx) = channel();
        let worker = Worker::spawn(1, move |r| {
            let _ = tx.send(r);
        });
        let stops: Vec<Stop> = (1..=5).map(|i| worker.start(i, search(i))).collect();
        for i in 1..=5 {
            let (tag, answer, stopped) = done(&rx);
            assert_eq!((tag, stopped), (i, false));
            assert!(matches!(answer, Answer::Searched(r) if r.best_move != Move::Pass));
            assert!(stops[i as usize - 1].is_over());
        }
        worker.shut_down();
    }

    #[test]
    fn a_stopped_running_job_returns_promptly_and_a_stopped_queued_one_answers_at_once() {
        let (tx, rx) = channel();
        let worker = Worker::spawn(1, move |r| {
            let _ = tx.send(r);
        });
        let endless = Task::Analyze {
            position: Position::initial(BoardSize::Eight),
            rules: Rules::standard(BoardSize::Eight),
            limits: Limits::depth(60),
            fresh: false,
        };
        let long = worker.start(1, endless);
        let queued = worker.start(2, search(2));
        let last = worker.start(3, search(3));
        assert!(!long.is_over() && !queued.is_over());
        queued.stop();
        // Job 1 is running once it reports progress.
        assert!(matches!(rx.recv(), Ok(Report::Progress(1, _))));
        long.stop();
        let (tag, answer, stopped) = done(&rx);
        assert_eq!((tag, stopped), (1, true));
        assert!(matches!(answer, Answer::Analysed(..)));
        // The job stopped before it started still answers, with a legal move.
        let (tag, answer, stopped) = done(&rx);
        assert_eq!((tag, stopped), (2, true));
        assert!(matches!(answer, Answer::Searched(r) if r.best_move != Move::Pass));
        let (tag, _, stopped) = done(&rx);
        assert_eq!((tag, stopped), (3, false));
        assert!(last.is_over());
        worker.shut_down();
    }

    #[test]
    fn a_pool_answers_every_job_exactly_once_each_with_its_tag() {
        let (tx, rx) = channel();
        let worker = Worker::pool(
            2,
            || Engine::new(1),
            move |r| {
                let _ = tx.send(r);
            },
        );
        assert_eq!(worker.threads(), 2);
        let stops: Vec<Stop> = (1..=6).map(|i| worker.start(i, search(i))).collect();
        let mut tags: Vec<u64> = (1..=6)
            .map(|_| {
                let (tag, answer, stopped) = done(&rx);
                assert!(!stopped);
                assert!(matches!(answer, Answer::Searched(r) if r.best_move != Move::Pass));
                tag
            })
            .collect();
        tags.sort_unstable();
        assert_eq!(tags, [1, 2, 3, 4, 5, 6]);
        assert!(stops.iter().all(Stop::is_over));
        worker.shut_down();
        // Every thread has ended and dropped its copy of the report.
        assert!(rx.recv().is_err());
    }
}
