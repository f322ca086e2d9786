//! The time each player took for its moves, with the number of empty
//! squares at each: the medians, means and phases that `reversi match` and
//! `reversi bench --ladder` report.

use std::time::Duration;

/// The time one player took for its moves in a game (or a match): each move's
/// time with the number of empty squares it was played at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MoveTimes {
    /// (empties before the move, time) for each move timed, passes included.
    times: Vec<(u8, Duration)>,
}

impl MoveTimes {
    /// Adds one move, played with `empties` empty squares, that took `time`.
    pub fn add(&mut self, empties: u32, time: Duration) {
        self.times.push((empties.min(255) as u8, time));
    }

    /// These times and `other` together.
    #[must_use]
    pub fn merge(mut self, other: &MoveTimes) -> MoveTimes {
        self.times.extend_from_slice(&other.times);
        self
    }

    /// The moves timed.
    #[must_use]
    pub fn moves(&self) -> usize {
        self.times.len()
    }

    /// The longest time (zero when no move was timed).
    #[must_use]
    pub fn max(&self) -> Duration {
        self.times.iter().map(|t| t.1).max().unwrap_or_default()
    }

    /// The mean time per move (zero when no move was timed).
    #[must_use]
    pub fn mean(&self) -> Duration {
        mean(self.times.iter().map(|t| t.1))
    }

    /// The median time per move (the mean of the middle two for an even
    /// count; zero when no move was timed).
    #[must_use]
    pub fn median(&self) -> Duration {
        let mut t: Vec<Duration> = self.times.iter().map(|t| t.1).collect();
        t.sort_unstable();
        match t.len() {
            0 => Duration::ZERO,
            n if n % 2 == 1 => t[n / 2],
            n => (t[n / 2 - 1] + t[n / 2]) / 2,
        }
    }

    /// The mean time of the moves played with `empties` in that range of
    /// empty squares, and how many there were.
    #[must_use]
    pub fn mean_in(&self, empties: std::ops::RangeInclusive<u32>) -> (Duration, usize) {
        let inside: Vec<Duration> = self
            .times
            .iter()
            .filter(|t| empties.contains(&u32::from(t.0)))
            .map(|t| t.1)
            .collect();
        (mean(inside.iter().copied()), inside.len())
    }
}

fn mean(times: impl Iterator<Item = Duration>) -> Duration {
    let (n, total) = times.fold((0u32, Duration::ZERO), |(n, s), t| (n + 1, s + t));
    total.checked_div(n.max(1)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_times_medians_means_and_phases() {
        let ms = Duration::from_millis;
        let mut c = MoveTimes::default();
        assert_eq!((c.median(), c.mean(), c.max()), (ms(0), ms(0), ms(0)));
        for (empties, t) in [(50, 1), (30, 2), (10, 9)] {
            c.add(empties, ms(t));
        }
        assert_eq!((c.median(), c.mean(), c.max()), (ms(2), ms(4), ms(9)));
        let mut d = MoveTimes::default();
        d.add(12, ms(5));
        let both = c.merge(&d);
        assert_eq!(
            (both.moves(), both.median()),
            (4, Duration::from_micros(3500))
        );
        assert_eq!(both.mean_in(0..=20), (ms(7), 2));
        assert_eq!(both.mean_in(21..=40), (ms(2), 1));
        assert_eq!(both.mean_in(60..=64), (ms(0), 0));
    }
}
