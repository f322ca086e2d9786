//! Numbered jobs run on several threads and handed back in order: the shape
//! of every long, resumable run of this module (self-play games, relabelled
//! games). Job `i` must depend only on `i` (and the worker's state), so a run
//! stopped after job `k` resumes at `k + 1` with the same results.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs jobs `first..count` on `threads` threads, each worker with its own
/// state from `init` (an engine, say), and hands each result to `on_done` in
/// job order. Stops early (after the jobs in progress) when `stop` is set.
/// Returns the number of results handed over.
pub fn run_ordered<S, T: Send>(
    first: usize,
    count: usize,
    threads: usize,
    stop: &AtomicBool,
    init: impl Fn() -> S + Sync,
    job: impl Fn(&mut S, usize) -> T + Sync,
    mut on_done: impl FnMut(usize, T),
) -> usize {
    let next = AtomicUsize::new(first);
    let (tx, rx) = mpsc::channel::<(usize, T)>();
    let mut done = first;
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, init, job) = (&next, &init, &job);
            scope.spawn(move || {
                let mut state = init();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let result = job(&mut state, i);
                    if tx.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Jobs finish out of order; hand them over in order.
        let mut pending = std::collections::BTreeMap::new();
        for (i, r) in rx {
            pending.insert(i, r);
            while let Some(r) = pending.remove(&done) {
                on_done(done, r);
                done += 1;
            }
        }
    });
    done - first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_and_a_stop_ends_the_run_early() {
        let stop = AtomicBool::new(false);
        let mut seen = Vec::new();
        let n = run_ordered(
            3,
            40,
            3,
            &stop,
            || 0u64,
            |calls, i| {
                *calls += 1;
                // Uneven work so jobs finish out of order.
                std::thread::sleep(std::time::Duration::from_micros((i as u64 * 7919) % 500));
                i * i
            },
            |i, r| seen.push((i, r)),
        );
        assert_eq!(n, 37);
        assert_eq!(seen, (3..40).map(|i| (i, i * i)).collect::<Vec<_>>());

        let mut count = 0;
        let n = run_ordered(
            0,
            1000,
            2,
            &stop,
            || (),
            |(), i| {
                // Jobs from 20 on wait for the stop, so the run cannot finish
                // all 1000 before job 9 is handed over, however it is scheduled.
                while i >= 20 && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                i
            },
            |i, _| {
                count += 1;
                if i == 9 {
                    stop.store(true, Ordering::Relaxed);
                }
            },
        );
        assert_eq!(n, count);
        assert!((10..=22).contains(&n), "{n}");
    }
}
