//! The summary of a match from player A's point of view: wins, draws and
//! losses, the mean disc margin with its 95% interval, and the Elo
//! difference with its error bar.

use super::{GameResult, MoveTimes};

/// The summary of a match from A's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games won by A.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost by A.
    pub losses: usize,
    /// Mean disc margin for A.
    pub mean_margin: f64,
    /// Half-width of the 95% confidence interval of the mean margin.
    pub margin_ci: f64,
    /// Elo difference A − B from the score (a bound when A won or lost every game).
    pub elo: f64,
    /// Half-width of the 95% interval of the Elo difference.
    pub elo_error: f64,
    /// The time A and B took, over all games.
    pub times: [MoveTimes; 2],
}

impl Summary {
    /// The Elo difference and its 95% half-width in whole points:
    /// "+12 ± 191"; a difference that rounds to zero reads "+0".
    #[must_use]
    pub fn elo_text(&self) -> String {
        format!(
            "{:+} ± {}",
            self.elo.round() as i64,
            self.elo_error.round() as i64
        )
    }
}

fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean and sample standard deviation (0 for fewer than two values; the
/// mean of none is 0).
pub(super) fn mean_and_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n.max(1.0);
    if xs.len() < 2 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, var.sqrt())
}

/// Sums up results from A's point of view.
#[must_use]
pub fn summarize(results: &[GameResult]) -> Summary {
    let n = results.len().max(1) as f64;
    let wins = results.iter().filter(|r| r.a_margin > 0).count();
    let draws = results.iter().filter(|r| r.a_margin == 0).count();
    let losses = results.len() - wins - draws;
    let margins: Vec<f64> = results.iter().map(|r| f64::from(r.a_margin)).collect();
    let (mean_margin, margin_sd) = mean_and_sd(&margins);
    let margin_ci = 1.96 * margin_sd / n.sqrt();
    let points: Vec<f64> = results.iter().map(GameResult::a_points).collect();
    let (score, points_sd) = mean_and_sd(&points);
    let se = points_sd / n.sqrt();
    // A perfect (or nil) score has no finite Elo estimate: it is kept half a game
    // away from 100% (0%), which gives a lower (upper) bound.
    let elo = elo_of(score.clamp(0.5 / n, 1.0 - 0.5 / n));
    // The interval is taken on the score, kept inside (0, 1) by half a game.
    let lo = (score - 1.96 * se).max(0.5 / n);
    let hi = (score + 1.96 * se).min(1.0 - 0.5 / n);
    let elo_error = (elo_of(hi) - elo_of(lo)).abs() / 2.0;
    Summary {
        wins,
        draws,
        losses,
        mean_margin,
        margin_ci,
        elo,
        elo_error,
        times: results
            .iter()
            .fold(<[MoveTimes; 2]>::default(), |[a, b], r| {
                [a.merge(&r.times[0]), b.merge(&r.times[1])]
            }),
    }
}
