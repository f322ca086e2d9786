//! Independent numbered jobs (the games of a match, of a self-play run) on a
//! few threads: each thread takes the next number from a shared counter, runs
//! the job with its own state (an engine, say) and sends the result back on a
//! channel to the calling thread, which hands results over one at a time.
//!
//! A job's result must depend on its number only, never on the thread that
//! ran it or on the order jobs finish in: then a run replays identically
//! whatever the number of threads. Standard library only.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;

/// Runs `work(state, i)` for every `i` of `jobs` on up to `threads` threads
/// (at least one), each thread with its own `state()`, and hands each result
/// to `done(i, result)` on the calling thread as it finishes (finishing
/// order; see [`run_in_order`] for index order).
///
/// No job starts once `stop` is set or `done` has returned an error; the jobs
/// in progress then finish and their results are dropped.
///
/// # Errors
/// The first error of `done`.
pub fn run<S, T: Send, E>(
    jobs: Range<usize>,
    threads: usize,
    stop: &AtomicBool,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    mut done: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    let end = jobs.end;
    let next = AtomicUsize::new(jobs.start);
    let halt = AtomicBool::new(false);
    let (tx, rx) = channel::<(usize, T)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            let tx = tx.clone();
            let (next, halt, state, work) = (&next, &halt, &state, &work);
            scope.spawn(move || {
                let mut s = state();
                loop {
                    if stop.load(Ordering::Relaxed) || halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= end {
                        break;
                    }
                    if tx.send((i, work(&mut s, i))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, result) in rx {
            if let Err(e) = done(i, result) {
                halt.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })
}

/// [`run`], with the results handed to `done` in index order: a result that
/// finishes early waits for those before it. When the run stops early, only
/// the unbroken prefix of `jobs` is handed over.
///
/// # Errors
/// The first error of `done`.
pub fn run_in_order<S, T: Send, E>(
    jobs: Range<usize>,
    threads: usize,
    stop: &AtomicBool,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize) -> T + Sync,
    mut done: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), E> {
    let mut first = jobs.start;
    let mut pending = BTreeMap::new();
    run(jobs, threads, stop, state, work, |i, result| {
        pending.insert(i, result);
        while let Some(result) = pending.remove(&first) {
            done(first, result)?;
            first += 1;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// A job whose duration varies with its number, so that jobs finish out
    /// of order on several threads.
    fn slow_square(_: &mut (), i: usize) -> usize {
        std::thread::sleep(std::time::Duration::from_millis(((i * 7) % 5) as u64));
        i * i
    }

    #[test]
    fn every_job_runs_once_and_in_order_delivery_is_by_index() {
        let stop = AtomicBool::new(false);
        for threads in [1, 3, 8] {
            let mut seen = Vec::new();
            run(
                3..40,
                threads,
                &stop,
                || (),
                slow_square,
                |i, r| {
                    seen.push((i, r));
                    Ok::<_, Infallible>(())
                },
            )
            .unwrap();
            seen.sort_unstable();
            assert_eq!(seen, (3..40).map(|i| (i, i * i)).collect::<Vec<_>>());

            let mut ordered = Vec::new();
            run_in_order(
                3..40,
                threads,
                &stop,
                || (),
                slow_square,
                |i, r| {
                    ordered.push((i, r));
                    Ok::<_, Infallible>(())
                },
            )
            .unwrap();
            assert_eq!(ordered, (3..40).map(|i| (i, i * i)).collect::<Vec<_>>());
        }
    }

    #[test]
    fn each_thread_keeps_its_own_state() {
        let stop = AtomicBool::new(false);
        let ids = AtomicUsize::new(0);
        let mut runs: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        // A state is (its id, how many jobs it ran): each id's counts must
        // come back as 1, 2, 3… (one state per thread, never shared or made
        // again).
        run(
            0..50,
            4,
            &stop,
            || (ids.fetch_add(1, Ordering::Relaxed), 0),
            |(id, n), _| {
                *n += 1;
                (*id, *n)
            },
            |_, (id, n)| {
                runs.entry(id).or_default().push(n);
                Ok::<_, Infallible>(())
            },
        )
        .unwrap();
        assert!(runs.len() <= 4);
        assert_eq!(runs.values().map(Vec::len).sum::<usize>(), 50);
        for counts in runs.values_mut() {
            counts.sort_unstable();
            assert_eq!(*counts, (1..=counts.len()).collect::<Vec<_>>());
        }
    }

    #[test]
    fn an_error_or_the_stop_flag_ends_the_run_early() {
        let stop = AtomicBool::new(false);
        let mut handed = 0;
        let r = run_in_order(
            0..1000,
            2,
            &stop,
            || (),
            slow_square,
            |i, _| {
                handed += 1;
                if i == 5 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!(r, Err(5));
        assert_eq!(handed, 6);

        stop.store(true, Ordering::Relaxed);
        let mut any = false;
        run(
            0..1000,
            2,
            &stop,
            || (),
            slow_square,
            |_, _| {
                any = true;
                Ok::<_, Infallible>(())
            },
        )
        .unwrap();
        assert!(!any);
    }
}
