//! ProbCut (M. Buro, "ProbCut: An Effective Selective Extension of the
//! Alpha-Beta Algorithm", ICCA Journal 1995; multi-ProbCut in Logistello): a
//! shallow search predicts the deep one, `v_deep ≈ a·v_shallow + b` with
//! residual standard deviation `σ`; when the prediction clears the window by
//! `t·σ` the node is cut without the deep search.
//!
//! The shallow depth keeps the parity of the deep one (Edax's choice):
//! `2·⌊d/4⌋ + (d mod 2)`. The model depends on the deep depth and on the game
//! phase (three bands of empty squares).
//!
//! # How the numbers below were fitted
//! `reversi bench --fit-probcut` (see [`fit`] and `src/cli/bench.rs`) plays
//! games between noisy low levels from fixed seeds, samples positions from
//! them, searches each position without selectivity at the shallow and the
//! deep depth (fresh table, so no bound leaks between the two), and fits `a`,
//! `b` by least squares with `σ` the residuals' standard deviation, per deep
//! depth and phase band. The table [`MODELS`] is that tool's output, pasted in.

/// Shallowest deep depth where ProbCut is tried.
pub(crate) const MIN_DEPTH: u32 = 3;

/// Deepest depth with a fitted model (deeper searches use the last one).
pub(crate) const MAX_FIT_DEPTH: u32 = 10;

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

/// Fitted models, `MODELS[band][depth - MIN_DEPTH]`.
const MODELS: [[Model; (MAX_FIT_DEPTH - MIN_DEPTH + 1) as usize]; 3] = [
    // Band 0, late (< 24 empties): depths 3..=10.
    [
        Model {
            a: 1.0521,
            b: 105.8,
            sigma: 337.6,
        },
        Model {
            a: 1.0544,
            b: 37.0,
            sigma: 463.8,
        },
        Model {
            a: 1.0691,
            b: 20.1,
            sigma: 419.6,
        },
        Model {
            a: 1.1288,
            b: 68.0,
            sigma: 708.3,
        },
        Model {
            a: 1.1525,
            b: 97.3,
            sigma: 702.1,
        },
        Model {
            a: 1.1582,
            b: 82.7,
            sigma: 744.6,
        },
        Model {
            a: 1.1577,
            b: 86.6,
            sigma: 671.5,
        },
        Model {
            a: 1.2265,
            b: 98.9,
            sigma: 971.8,
        },
    ],
    // Band 1, middle (24..40): depths 3..=10.
    [
        Model {
            a: 1.1034,
            b: 16.1,
            sigma: 314.7,
        },
        Model {
            a: 1.1016,
            b: 62.3,
            sigma: 299.8,
        },
        Model {
            a: 1.1117,
            b: 45.2,
            sigma: 199.5,
        },
        Model {
            a: 1.2186,
            b: 79.0,
            sigma: 455.1,
        },
        Model {
            a: 1.2271,
            b: 69.9,
            sigma: 307.2,
        },
        Model {
            a: 1.2058,
            b: 24.7,
            sigma: 289.5,
        },
        Model {
            a: 1.2132,
            b: 35.1,
            sigma: 320.0,
        },
        Model {
            a: 1.3173,
            b: 44.3,
            sigma: 422.8,
        },
    ],
    // Band 2, early (>= 40): depths 3..=10.
    [
        Model {
            a: 0.9675,
            b: 55.6,
            sigma: 158.6,
        },
        Model {
            a: 0.9199,
            b: 17.4,
            sigma: 154.4,
        },
        Model {
            a: 0.9500,
            b: 8.2,
            sigma: 132.6,
        },
        Model {
            a: 0.9303,
            b: 15.2,
            sigma: 181.2,
        },
        Model {
            a: 0.9655,
            b: -1.9,
            sigma: 161.0,
        },
        Model {
            a: 1.0045,
            b: 0.2,
            sigma: 124.8,
        },
        Model {
            a: 1.0573,
            b: -9.8,
            sigma: 148.2,
        },
        Model {
            a: 1.0816,
            b: 14.8,
            sigma: 196.7,
        },
    ],
];

/// The shallow depth used to predict a search of `depth`.
#[must_use]
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// The model for a deep search of `depth` with `empties` empty squares.
pub(crate) fn model(depth: u32, empties: u32) -> Option<Model> {
    if depth < MIN_DEPTH {
        return None;
    }
    let d = depth.min(MAX_FIT_DEPTH) - MIN_DEPTH;
    Some(MODELS[band(empties)][d as usize])
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
    fn shallow_depth_keeps_parity() {
        for d in MIN_DEPTH..20 {
            assert_eq!(shallow_depth(d) % 2, d % 2);
            assert!(shallow_depth(d) < d);
        }
    }
}
