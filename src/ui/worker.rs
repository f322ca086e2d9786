//! The AI worker of the game screen: the engine's thread
//! ([`crate::ai::worker`]) fed the screen's [`Job`]s, its reports turned into
//! [`Msg`]s for `update`, so the UI thread keeps drawing and answering keys
//! while the engine thinks.
//!
//! Every job carries its own stop flag; [`Worker::stop`] sets it and the engine
//! returns promptly. Results are sent back tagged with the job id and the
//! position searched, so `update` can drop stale ones; a stopped job sends
//! nothing more. Progress goes out at most every 50 ms per job.

use super::app::{Job, JobKind, Msg};
use super::model::JobId;
use crate::ai::worker::{Answer, Report, Stop, Task};
use crate::rules::Position;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

pub use crate::ai::worker::THREAD_NAME;

/// How often a job's progress is sent at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// The handle the UI thread keeps.
#[derive(Debug)]
pub struct Worker {
    engine: crate::ai::worker::Worker<(JobId, Position)>,
    /// The stop flags of the jobs not over yet (queued or running).
    stops: Vec<(JobId, Stop)>,
}

impl Worker {
    /// Starts the worker thread with an engine of `hash_mb` MiB playing
    /// from `book`; its messages go to `out`.
    #[must_use]
    pub fn spawn(
        hash_mb: usize,
        book: Option<std::sync::Arc<crate::ai::book::Book>>,
        out: Sender<Msg>,
    ) -> Worker {
        let mut last: Option<(JobId, Instant)> = None;
        let engine = move || {
            let mut e = crate::ai::Engine::new(hash_mb);
            e.set_book(book.clone());
            e
        };
        let engine = crate::ai::worker::Worker::spawn_with(engine, move |report| {
            let msg = match report {
                Report::Progress((id, _), progress) => {
                    let now = Instant::now();
                    match last {
                        Some((job, at)) if job == id && now - at < PROGRESS_EVERY => return,
                        Some((job, _)) if job == id => {}
                        // A new job: its first report waits for the interval too.
                        _ => {
                            last = Some((id, now));
                            return;
                        }
                    }
                    last = Some((id, now));
                    Msg::Progress { id, progress }
                }
                Report::Done { stopped: true, .. } => return,
                Report::Done {
                    tag: (id, position),
                    answer,
                    stopped: false,
                } => match answer {
                    Answer::Searched(result) => Msg::Searched {
                        id,
                        position,
                        result,
                    },
                    Answer::Analysed(evals, _) => Msg::Analysed {
                        id,
                        position,
                        evals,
                    },
                    Answer::Failed(message) => Msg::Failed { id, message },
                },
            };
            let _ = out.send(msg);
        });
        Worker {
            engine,
            stops: Vec::new(),
        }
    }

    /// Queues `job`.
    pub fn start(&mut self, job: Job) {
        let Job {
            id,
            kind,
            position,
            rules,
        } = job;
        let task = match kind {
            JobKind::Move { level, seed } => Task::Search {
                position,
                rules,
                limits: level.limits(),
                seed,
            },
            JobKind::Hint { level } => Task::Analyze {
                position,
                rules,
                limits: level.limits(),
                fresh: false,
            },
            // A review's figures are the same in whatever order its plies are
            // searched, and the same as `reversi review`'s.
            JobKind::Review { limits } => Task::Analyze {
                position,
                rules,
                limits,
                fresh: true,
            },
        };
        self.stops.retain(|(_, s)| !s.is_over());
        let stop = self.engine.start((id, position), task);
        self.stops.push((id, stop));
    }

    /// Stops job `id` (queued or running).
    pub fn stop(&mut self, id: JobId) {
        self.stops.retain(|(job, s)| {
            if *job == id {
                s.stop();
            }
            *job != id
        });
    }

    /// Stops every job and waits for the thread to end.
    pub fn shut_down(self) {
        for (_, s) in &self.stops {
            s.stop();
        }
        self.engine.shut_down();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::rules::{BoardSize, Rules};
    use std::sync::mpsc::channel;

    /// Finished jobs do not pile up in the list of stop flags.
    #[test]
    fn the_stop_flags_of_finished_jobs_are_forgotten() {
        let (tx, rx) = channel();
        let mut worker = Worker::spawn(1, None, tx);
        for id in 1..=20 {
            worker.start(Job {
                id,
                kind: JobKind::Move {
                    level: Level::MIN,
                    seed: id,
                },
                position: Position::initial(BoardSize::Eight),
                rules: Rules::standard(BoardSize::Eight),
            });
            while !matches!(rx.recv(), Ok(Msg::Searched { .. })) {}
        }
        assert!(worker.stops.len() <= 2, "{} flags kept", worker.stops.len());
        worker.shut_down();
    }
}
