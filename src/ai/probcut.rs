//! ProbCut (M. Buro, "ProbCut: An Effective Selective Extension of the
//! Alpha-Beta Algorithm", ICCA Journal 1995; multi-ProbCut in Logistello): a
//! shallow search predicts the deep one, `v_deep ≈ a·v_shallow + b` with
//! residual standard deviation `σ`; when the prediction clears the window by
//! `t·σ` the node is cut without the deep search.
//!
//! The shallow depth keeps the parity of the deep one (Edax's choice):
//! `2·⌊d/4⌋ + (d mod 2)`. The model depends on the deep depth and on the game
//! phase (three bands of empty squares); deeper than the fitted depths, it is
//! the deepest fitted one with a narrower σ ([`DEEP_SIGMA_SCALE`]).
//!
//! # How the numbers below were fitted
//! `reversi bench --fit-probcut` (see [`fit`] and `src/learn/tuning.rs`) plays
//! games between noisy low levels from fixed seeds, samples positions from
//! them, searches each position without selectivity at the shallow and the
//! deep depth (fresh table, so no bound leaks between the two), and fits `a`,
//! `b` by least squares with `σ` the residuals' standard deviation, per deep
//! depth and phase band. There is one table per evaluation (the learned one
//! is more accurate, so its σ are smaller); each is that tool's output, pasted
//! in (`--eval hand` for the hand-written one).

/// Shallowest deep depth where ProbCut is tried.
pub const MIN_DEPTH: u32 = 3;

/// Deepest depth with a fitted model (deeper searches use the last one,
/// narrowed by [`DEEP_SIGMA_SCALE`]).
pub(crate) const MAX_FIT_DEPTH: u32 = 10;

/// The factor on the deepest fitted model's σ for deep depths beyond
/// [`MAX_FIT_DEPTH`], whose deeper shallow searches predict better
/// (measured in `docs/tuning.md`, "Constants of the search").
pub(crate) const DEEP_SIGMA_SCALE: f64 = 0.85;

/// One fitted linear model `v_deep ≈ a·v_shallow + b ± σ` (hundredths of a disc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// Slope.
    pub a: f64,
    /// Intercept.
    pub b: f64,
    /// Standard deviation of the residuals.
    pub sigma: f64,
}

impl Model {
    /// The shallow value at or above which a deep value of at least `beta`
    /// is likely (hundredths): `(beta + margin - b) / a`.
    #[must_use]
    pub(crate) fn above(&self, beta: i32, margin: f64) -> f64 {
        (f64::from(beta) + margin - self.b) / self.a
    }

    /// The shallow value at or below which a deep value of at most `alpha`
    /// is likely (hundredths): `(alpha - margin - b) / a`.
    #[must_use]
    pub(crate) fn below(&self, alpha: i32, margin: f64) -> f64 {
        (f64::from(alpha) - margin - self.b) / self.a
    }

    /// Which of the two tests (`beta`, `alpha`) are worth a shallow search:
    /// those whose threshold the static value `e0` is within `slack` of.
    #[must_use]
    pub(crate) fn worth_testing(
        &self,
        e0: i32,
        alpha: i32,
        beta: i32,
        margin: f64,
        slack: f64,
    ) -> (bool, bool) {
        let e0 = f64::from(e0);
        (
            e0 >= self.above(beta, margin) - slack,
            e0 <= self.below(alpha, margin) + slack,
        )
    }
}

/// One ProbCut test as the search runs it: the model, the margin its
/// confidence level asks for (`t·σ`), and the depth of the shallow search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Test {
    /// The fitted model predicting the deep value.
    pub model: Model,
    /// How far (hundredths) the prediction must clear a bound.
    pub margin: f64,
    /// Depth of the shallow search.
    pub shallow: u32,
}

/// Phase band of a position by its number of empties: 0 late (< 24), 1
/// middle (24..40), 2 early (≥ 40).
#[must_use]
pub fn band(empties: u32) -> usize {
    match empties {
        0..24 => 0,
        24..40 => 1,
        _ => 2,
    }
}

/// Models `(a, b, σ)` for the hand-written evaluation,
/// `HAND[band][depth - MIN_DEPTH]`, depths 3..=10.
#[rustfmt::skip]
const HAND: [[(f64, f64, f64); 8]; 3] = [
    // Band 0, late (< 24 empties).
    [
        (1.0521, 105.8, 337.6),
        (1.0544, 37.0, 463.8),
        (1.0691, 20.1, 419.6),
        (1.1288, 68.0, 708.3),
        (1.1525, 97.3, 702.1),
        (1.1582, 82.7, 744.6),
        (1.1577, 86.6, 671.5),
        (1.2265, 98.9, 971.8),
    ],
    // Band 1, middle (24..40).
    [
        (1.1034, 16.1, 314.7),
        (1.1016, 62.3, 299.8),
        (1.1117, 45.2, 199.5),
        (1.2186, 79.0, 455.1),
        (1.2271, 69.9, 307.2),
        (1.2058, 24.7, 289.5),
        (1.2132, 35.1, 320.0),
        (1.3173, 44.3, 422.8),
    ],
    // Band 2, early (>= 40).
    [
        (0.9675, 55.6, 158.6),
        (0.9199, 17.4, 154.4),
        (0.9500, 8.2, 132.6),
        (0.9303, 15.2, 181.2),
        (0.9655, -1.9, 161.0),
        (1.0045, 0.2, 124.8),
        (1.0573, -9.8, 148.2),
        (1.0816, 14.8, 196.7),
    ],
];

/// The shallow depth used to predict a search of `depth`.
#[must_use]
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// Deep depths with a fitted model: [`MIN_DEPTH`]..=[`MAX_FIT_DEPTH`].
pub const FIT_DEPTHS: usize = (MAX_FIT_DEPTH - MIN_DEPTH + 1) as usize;

/// The fitted search models of one learned evaluation: the midgame ProbCut
/// models per phase band ([`band`]) and deep depth ([`MIN_DEPTH`] first),
/// and the endgame ProbCut models per parity of the empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchModels {
    /// `midgame[band][depth - MIN_DEPTH]`.
    pub midgame: [[Model; FIT_DEPTHS]; 3],
    /// `endcut[empties % 2]`, the shallow search [`ENDCUT_DEPTH`] plies deep.
    pub endcut: [Model; 2],
}

impl SearchModels {
    /// The midgame model for a deep search of `depth` with `empties` empty
    /// squares (deeper than [`MAX_FIT_DEPTH`]: the deepest one, narrowed).
    #[must_use]
    pub fn midgame(&self, depth: u32, empties: u32) -> Option<Model> {
        (depth >= MIN_DEPTH).then(|| deepen(self.midgame[band(empties)][fitted(depth)], depth))
    }

    /// The endgame model at `n` empties.
    #[must_use]
    pub fn endcut(&self, n: u32) -> Model {
        self.endcut[(n % 2) as usize]
    }
}

/// The midgame model of the hand-written evaluation for a deep search of
/// `depth` with `empties` empty squares.
pub(crate) fn hand_model(depth: u32, empties: u32) -> Option<Model> {
    if depth < MIN_DEPTH {
        return None;
    }
    let (a, b, sigma) = HAND[band(empties)][fitted(depth)];
    Some(deepen(Model { a, b, sigma }, depth))
}

/// The index, among the fitted depths, of the model a deep search of
/// `depth` (at least [`MIN_DEPTH`]) starts from.
fn fitted(depth: u32) -> usize {
    (depth.min(MAX_FIT_DEPTH) - MIN_DEPTH) as usize
}

/// `model`, fitted at depth [`MAX_FIT_DEPTH`] or less, as the model of a deep
/// search of `depth`: beyond the fitted depths, its σ narrowed by
/// [`DEEP_SIGMA_SCALE`].
fn deepen(model: Model, depth: u32) -> Model {
    if depth > MAX_FIT_DEPTH {
        Model {
            sigma: model.sigma * DEEP_SIGMA_SCALE,
            ..model
        }
    } else {
        model
    }
}

/// Fewest empties where the exact solver tries endgame ProbCut.
pub(crate) const ENDCUT_MIN_EMPTIES: u32 = 10;

/// Fewest empties where the root solves selectively before solving exactly
/// (measured in `docs/tuning.md`, "Constants of the search").
pub(crate) const SELECTIVE_SOLVE_EMPTIES: u32 = 21;

/// Depth of the shallow midgame search that predicts the exact score.
pub(crate) const ENDCUT_DEPTH: u32 = 4;

/// The selectivity levels of the root's solve iterations at `n` empties, the
/// last one exact (0). Selective iterations need the endgame model, fitted
/// for learned evaluations only (`endcut`: whether there is one).
pub(crate) fn solve_schedule(n: u32, endcut: bool) -> &'static [u8] {
    if endcut && n >= SELECTIVE_SOLVE_EMPTIES {
        &[3, 0]
    } else {
        &[0]
    }
}

/// The confidence multiplier `t` of a selectivity level (1: cautious … 4:
/// aggressive). Level 0 never prunes.
pub(crate) fn confidence(selectivity: u8) -> f64 {
    match selectivity {
        0 => f64::INFINITY,
        1 => 2.6,
        2 => 2.0,
        3 => 1.5,
        _ => 1.1,
    }
}

/// Least-squares fit of `deep ≈ a·shallow + b` over pairs
/// `(shallow, deep)`, with the residuals' standard deviation.
///
/// Returns `None` with fewer than three pairs or no spread in `shallow`.
#[must_use]
pub fn fit(pairs: &[(i32, i32)]) -> Option<Model> {
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return None;
    }
    let mx = pairs.iter().map(|p| f64::from(p.0)).sum::<f64>() / n;
    let my = pairs.iter().map(|p| f64::from(p.1)).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (f64::from(p.0) - mx).powi(2)).sum();
    let sxy: f64 = pairs
        .iter()
        .map(|p| (f64::from(p.0) - mx) * (f64::from(p.1) - my))
        .sum();
    if sxx == 0.0 {
        return None;
    }
    let a = sxy / sxx;
    let b = my - a * mx;
    let ss: f64 = pairs
        .iter()
        .map(|p| (f64::from(p.1) - a * f64::from(p.0) - b).powi(2))
        .sum();
    Some(Model {
        a,
        b,
        sigma: (ss / (n - 2.0)).sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_line() {
        let pairs: Vec<(i32, i32)> = (0..50).map(|x| (x, 2 * x + 3 + (x % 2) * 2 - 1)).collect();
        let m = fit(&pairs).unwrap();
        assert!((m.a - 2.0).abs() < 0.01 && (m.b - 3.0).abs() < 0.1 && m.sigma < 1.1);
    }

    #[test]
    fn deep_models_are_the_deepest_fitted_one_narrowed() {
        for empties in [20, 30, 50] {
            let fitted = hand_model(MAX_FIT_DEPTH, empties).unwrap();
            let (a, b, sigma) = HAND[band(empties)][(MAX_FIT_DEPTH - MIN_DEPTH) as usize];
            assert_eq!(fitted, Model { a, b, sigma });
            for depth in MAX_FIT_DEPTH + 1..=24 {
                let deep = hand_model(depth, empties).unwrap();
                assert_eq!((deep.a, deep.b), (fitted.a, fitted.b));
                assert!(deep.sigma < fitted.sigma);
                assert!((deep.sigma - fitted.sigma * DEEP_SIGMA_SCALE).abs() < 1e-9);
            }
        }
        let unit = Model {
            a: 1.0,
            b: 0.0,
            sigma: 100.0,
        };
        let models = SearchModels {
            midgame: [[unit; FIT_DEPTHS]; 3],
            endcut: [unit; 2],
        };
        assert_eq!(models.midgame(MAX_FIT_DEPTH, 30).unwrap().sigma, 100.0);
        assert!((models.midgame(18, 30).unwrap().sigma - 100.0 * DEEP_SIGMA_SCALE).abs() < 1e-9);
        assert_eq!(models.midgame(MIN_DEPTH - 1, 30), None);
    }

    #[test]
    fn shallow_depth_keeps_parity() {
        for d in MIN_DEPTH..20 {
            assert_eq!(shallow_depth(d) % 2, d % 2);
            assert!(shallow_depth(d) < d);
        }
    }
}
