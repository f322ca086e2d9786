//! The AI worker: one thread that owns the [`Engine`] and runs one job at a
//! time, so the UI thread keeps drawing and answering keys while it thinks.
//!
//! Every job carries its own stop flag; [`Worker::stop`] sets it and the engine
//! returns promptly. Results are sent back as [`Msg`]s tagged with the job id
//! and the position searched, so `update` can drop stale ones.

use super::app::{Job, JobKind, Msg};
use super::model::JobId;
use crate::ai::Engine;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The handle the UI thread keeps.
#[derive(Debug)]
pub struct Worker {
    jobs: Option<Sender<(Job, Arc<AtomicBool>)>>,
    stops: HashMap<JobId, Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the worker thread with an engine of `hash_mb` MiB; its messages
    /// go to `out`.
    #[must_use]
    pub fn spawn(hash_mb: usize, out: Sender<Msg>) -> Worker {
        let (tx, rx) = channel();
        let thread = std::thread::Builder::new()
            .name(THREAD_NAME.into())
            .spawn(move || work(hash_mb, &rx, &out))
            .ok();
        Worker {
            jobs: Some(tx),
            stops: HashMap::new(),
            thread,
        }
    }

    /// Queues `job`.
    pub fn start(&mut self, job: Job) {
        let stop = Arc::new(AtomicBool::new(false));
        // The thread holds a job's flag until the job is done: forget the
        // flags of finished and stopped jobs, so the map stays small.
        self.stops
            .retain(|_, s| Arc::strong_count(s) > 1 && !s.load(Ordering::Relaxed));
        self.stops.insert(job.id, Arc::clone(&stop));
        if let Some(tx) = &self.jobs {
            let _ = tx.send((job, stop));
        }
    }

    /// Stops job `id` (queued or running).
    pub fn stop(&mut self, id: JobId) {
        if let Some(s) = self.stops.remove(&id) {
            s.store(true, Ordering::Relaxed);
        }
    }

    /// Stops every job and waits for the thread to end.
    pub fn shut_down(mut self) {
        for s in self.stops.values() {
            s.store(true, Ordering::Relaxed);
        }
        self.jobs = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The name of the worker thread (the panic hook leaves the terminal alone
/// for a panic on it: the worker reports it as a message instead).
pub const THREAD_NAME: &str = "reversi-ai";

fn work(hash_mb: usize, jobs: &Receiver<(Job, Arc<AtomicBool>)>, out: &Sender<Msg>) {
    let mut engine = Engine::new(hash_mb);
    while let Ok((job, stop)) = jobs.recv() {
        if stop.load(Ordering::Relaxed) {
            continue;
        }
        let id = job.id;
        let mut last_report = Instant::now();
        let mut report = |p: &crate::ai::Progress| {
            if last_report.elapsed() >= Duration::from_millis(50) {
                last_report = Instant::now();
                let _ = out.send(Msg::Progress {
                    id,
                    progress: p.clone(),
                });
            }
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match job.kind {
            JobKind::Move { level, seed } => Msg::Searched {
                id,
                position: job.position,
                result: engine.search(
                    &job.position,
                    &job.rules,
                    &level.limits(),
                    &stop,
                    seed,
                    &mut report,
                ),
            },
            JobKind::Hint { level } => Msg::Analysed {
                id,
                position: job.position,
                evals: engine.analyze(
                    &job.position,
                    &job.rules,
                    &level.limits(),
                    &stop,
                    &mut report,
                ),
            },
            JobKind::Review { limits } => Msg::Analysed {
                id,
                position: job.position,
                evals: engine.analyze(&job.position, &job.rules, &limits, &stop, &mut report),
            },
        }));
        let msg = run.unwrap_or_else(|panic| {
            engine = Engine::new(hash_mb);
            let message = panic
                .downcast_ref::<&str>()
                .map(ToString::to_string)
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".into());
            Msg::Failed { id, message }
        });
        if !stop.load(Ordering::Relaxed) && out.send(msg).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Level;
    use crate::rules::{BoardSize, Position, Rules};

    /// Finished jobs do not pile up in the map of stop flags.
    #[test]
    fn the_stop_flags_of_finished_jobs_are_forgotten() {
        let (tx, rx) = channel();
        let mut worker = Worker::spawn(1, tx);
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
