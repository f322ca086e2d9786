//! How long a client waits before trying to connect again: exponential
//! backoff with jitter, so that the clients of a restarted server do not all
//! come back at the same instant, and a client that keeps failing costs the
//! server little.
//!
//! Each wait is drawn between half and all of the current step ("equal
//! jitter"); the step doubles after each wait, from [`FIRST`] up to [`CAP`],
//! and starts again from [`FIRST`] once a connection has lived [`STEADY`].
//! The draws come from the crate's seeded generator ([`crate::random`]), so
//! a test can replay them.

use crate::random::{self, Rng};
use std::time::Duration;

/// The first step.
pub const FIRST: Duration = Duration::from_millis(250);
/// The longest step: waits stay between half of it and all of it.
pub const CAP: Duration = Duration::from_secs(30);
/// A connection that lived this long starts the steps again from [`FIRST`];
/// one that ended sooner (refused, replaced, closed at once) does not.
pub const STEADY: Duration = Duration::from_secs(20);

/// The waits between connection attempts.
#[derive(Clone, Debug)]
pub struct Backoff {
    first: Duration,
    cap: Duration,
    step: Duration,
    rng: Rng,
}

impl Backoff {
    /// Steps from [`FIRST`] to [`CAP`], jitter drawn from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Backoff {
        Backoff::with_steps(FIRST, CAP, seed)
    }

    /// Steps from `first` doubling up to `cap`, jitter drawn from `seed`.
    #[must_use]
    pub fn with_steps(first: Duration, cap: Duration, seed: u64) -> Backoff {
        Backoff {
            first,
            cap: cap.max(first),
            step: first,
            rng: random::seeded(seed),
        }
    }

    /// The wait before the next attempt; the step then doubles (up to the cap).
    pub fn next_wait(&mut self) -> Duration {
        let half = self.step / 2;
        let wait = half + half.mul_f64(random::unit(&mut self.rng));
        self.step = self.step.saturating_mul(2).min(self.cap);
        wait
    }

    /// A connection ended after living `lived`: a steady one starts the steps
    /// again from the first.
    pub fn connection_lived(&mut self, lived: Duration) {
        if lived >= STEADY {
            self.step = self.first;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_with_jitter_up_to_the_cap_and_replay_from_the_seed() {
        let mut b = Backoff::new(7);
        let waits: Vec<Duration> = (0..12).map(|_| b.next_wait()).collect();
        let mut step = FIRST;
        for w in &waits {
            assert!(
                *w >= step / 2 && *w <= step,
                "{w:?} outside [{:?}, {step:?}]",
                step / 2
            );
            step = (step * 2).min(CAP);
        }
        // Capped near 30 s: the last waits are between 15 and 30 s.
        assert!(
            waits[8..].iter().all(|w| *w >= CAP / 2 && *w <= CAP),
            "{waits:?}"
        );
        // Jittered: not the same fraction of the step every time.
        assert!(waits[8..].windows(2).any(|p| p[0] != p[1]), "{waits:?}");
        // The same seed gives the same waits; another seed others.
        let mut again = Backoff::new(7);
        assert_eq!(
            (0..12).map(|_| again.next_wait()).collect::<Vec<_>>(),
            waits
        );
        let mut other = Backoff::new(8);
        assert_ne!(
            (0..12).map(|_| other.next_wait()).collect::<Vec<_>>(),
            waits
        );
    }

    #[test]
    fn a_steady_connection_starts_the_steps_again_and_a_short_one_does_not() {
        let mut b = Backoff::new(1);
        for _ in 0..10 {
            b.next_wait();
        }
        b.connection_lived(STEADY / 2);
        assert!(
            b.next_wait() >= CAP / 2,
            "a short connection keeps the long waits"
        );
        b.connection_lived(STEADY);
        assert!(b.next_wait() <= FIRST, "a steady one starts again");
    }
}
