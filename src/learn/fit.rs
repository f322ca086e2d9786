//! Fitting the pattern weights: least squares with L2 regularisation,
//! minimised by full-batch Adam, each game phase on its own.
//!
//! The loss of a phase is the mean of `(prediction - label)² / 2` over its
//! samples plus `k / (2 N) · Σ w²`: the regularisation acts like `k` extra
//! observations of zero for every weight, so a rarely seen configuration stays
//! near zero and a common one follows the data. A phase also trains on the
//! samples within two plies of its borders, which smooths the step from one
//! phase to the next. With `parity`, each band of the game has one weight
//! set per parity of the empties, and a set's border samples are those of
//! its own parity within four plies. Phases run in parallel; the result
//! depends only on the samples and the settings.
//!
//! Besides the pattern weights, each phase fits the side to move's bias of
//! each number of empties it covers (see [`crate::ai::PatternWeights`]), unless the
//! settings leave it out.

use super::dataset::Sample;
use crate::ai::BIAS_SLOTS;
use crate::ai::PatternWeights;
use crate::ai::pattern::{class_map, weight_set};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Settings of a fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitConfig {
    /// Game phases (bands of the game).
    pub phases: usize,
    /// Whether each band has a weight set per parity of the empties.
    pub parity: bool,
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam step size, in discs.
    pub rate: f32,
    /// Regularisation strength as pseudo-observations per weight.
    pub l2: f32,
    /// Threads (phases are fitted in parallel).
    pub threads: usize,
    /// Whether to fit the side-to-move bias (else it keeps its start).
    pub bias: bool,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            phases: 12,
            parity: false,
            epochs: 300,
            rate: 0.1,
            l2: 4.0,
            threads: 2,
            bias: true,
        }
    }
}

/// The error of one phase after the fit, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseReport {
    /// The phase.
    pub phase: usize,
    /// Empties covered, fewest first.
    pub empties: (u32, u32),
    /// With the phases split by parity, whether this set is the one of odd
    /// numbers of empties.
    pub odd: Option<bool>,
    /// Training samples (with the borders).
    pub train: usize,
    /// Validation samples (of this phase only).
    pub validation: usize,
    /// Mean absolute error on the training samples of this phase.
    pub train_mae: f64,
    /// Mean absolute error on the validation samples.
    pub validation_mae: f64,
    /// Mean absolute error of always predicting 0 on the validation samples.
    pub baseline_mae: f64,
    /// Mean absolute error of the starting weights (the prior, or zero) on
    /// the validation samples.
    pub start_mae: f64,
}

/// Fits weights to `train`, measuring on `validation`; `progress` hears of
/// each finished phase; a phase without samples of its own keeps its
/// starting weights. With a `prior` (of the same layout as `config`) the fit
/// starts from it and the regularisation pulls towards it instead of towards
/// zero: a configuration the new samples rarely show keeps its old weight.
///
/// # Panics
/// If `prior` has another layout than `config`.
#[must_use]
pub fn fit(
    train: &[Sample],
    validation: &[Sample],
    config: &FitConfig,
    prior: Option<&PatternWeights>,
    progress: &(dyn Fn(&PhaseReport) + Sync),
) -> (PatternWeights, Vec<PhaseReport>) {
    let parity = config.parity;
    let phases = config.phases.max(1) * if parity { 2 } else { 1 };
    let classes = class_map().1;
    if let Some(p) = prior {
        assert_eq!(p.phases(), phases, "the prior's phases");
        assert_eq!(p.parity(), parity, "the prior's parity split");
    }
    // Split by parity, a sample lends itself to the sets of its own parity
    // only, within twice the distance.
    let (step, border) = if parity { (2, 4) } else { (1, 2) };
    let next = AtomicUsize::new(0);
    let to_hundredths = |x: f32| (x * 100.0).round().clamp(-32000.0, 32000.0) as i16;
    let mut results: Vec<Option<(Vec<f32>, PhaseReport)>> = vec![None; phases];
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..config.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let ph = next.fetch_add(1, Ordering::Relaxed);
                        if ph >= phases {
                            break;
                        }
                        let in_phase = |s: &&Sample, margin: u32| {
                            (0..=2 * margin).step_by(step).any(|d| {
                                (u32::from(s.empties) + d)
                                    .checked_sub(margin)
                                    .is_some_and(|e| weight_set(e, phases, parity) == ph)
                            })
                        };
                        let tr: Vec<&Sample> =
                            train.iter().filter(|s| in_phase(s, border)).collect();
                        let va: Vec<&Sample> =
                            validation.iter().filter(|s| in_phase(s, 0)).collect();
                        let own: Vec<&Sample> =
                            tr.iter().copied().filter(|s| in_phase(s, 0)).collect();
                        let start: Vec<f32> = match prior {
                            Some(p) => p.classes()[ph]
                                .iter()
                                .chain(p.bias())
                                .map(|&x| f32::from(x) / 100.0)
                                .collect(),
                            None => vec![0.0; classes + BIAS_SLOTS],
                        };
                        let start_mae = mae(&va, &start);
                        // A phase with no samples of its own keeps its start.
                        let w = if own.is_empty() {
                            start
                        } else {
                            fit_phase(&tr, start, config)
                        };
                        let report = PhaseReport {
                            phase: ph,
                            empties: empties_of(ph, phases, parity),
                            odd: parity.then_some(ph % 2 == 1),
                            train: tr.len(),
                            validation: va.len(),
                            train_mae: mae(&own, &w),
                            validation_mae: mae(&va, &w),
                            baseline_mae: mae(&va, &vec![0.0; classes + BIAS_SLOTS]),
                            start_mae,
                        };
                        progress(&report);
                        done.push((ph, w, report));
                    }
                    done
                })
            })
            .collect();
        for h in handles {
            for (ph, w, r) in h.join().expect("a fitting thread panicked") {
                results[ph] = Some((w, r));
            }
        }
    });
    let (fitted, reports): (Vec<_>, Vec<_>) = results
        .into_iter()
        .map(|r| r.expect("every phase was fitted"))
        .unzip();
    // Each number of empties takes its bias from the phase it belongs to.
    let mut bias = [0i16; BIAS_SLOTS];
    for (e, b) in bias.iter_mut().enumerate() {
        *b = to_hundredths(fitted[weight_set(e as u32, phases, parity)][classes + e]);
    }
    let weights = fitted
        .iter()
        .map(|w| w[..classes].iter().map(|&x| to_hundredths(x)).collect())
        .collect();
    (PatternWeights::with_layout(weights, bias, parity), reports)
}

/// The empties a phase covers.
fn empties_of(ph: usize, phases: usize, parity: bool) -> (u32, u32) {
    let e: Vec<u32> = (0..=60)
        .filter(|&e| weight_set(e, phases, parity) == ph)
        .collect();
    (
        e.first().copied().unwrap_or(0),
        e.last().copied().unwrap_or(0),
    )
}

/// The prediction of a sample in discs: the pattern classes of `w`, then
/// the bias of each number of empties.
#[inline]
fn predict(s: &Sample, w: &[f32]) -> f32 {
    let mut v = w[w.len() - BIAS_SLOTS + usize::from(s.empties).min(BIAS_SLOTS - 1)];
    for &c in &s.classes {
        if c > 0 {
            v += w[(c - 1) as usize];
        } else if c < 0 {
            v -= w[(-c - 1) as usize];
        }
    }
    v
}

/// Mean absolute error of `w` on `samples` (0 when there are none).
#[must_use]
fn mae(samples: &[&Sample], w: &[f32]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| f64::from((predict(s, w).clamp(-64.0, 64.0) - f32::from(s.target)).abs()))
        .sum();
    total / samples.len() as f64
}

/// Full-batch Adam on one phase's samples, from `prior` and regularised
/// towards it.
fn fit_phase(samples: &[&Sample], prior: Vec<f32>, config: &FitConfig) -> Vec<f32> {
    let classes = prior.len();
    let bias_at = classes - BIAS_SLOTS;
    let mut w = prior.clone();
    if samples.is_empty() {
        return w;
    }
    let n = samples.len() as f32;
    let lambda = config.l2 / n;
    let mut m = vec![0f32; classes];
    let mut v = vec![0f32; classes];
    let mut g = vec![0f32; classes];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    for epoch in 0..config.epochs {
        g.iter_mut().for_each(|x| *x = 0.0);
        for s in samples {
            let r = (predict(s, &w) - f32::from(s.target)) / n;
            if config.bias {
                g[bias_at + usize::from(s.empties).min(BIAS_SLOTS - 1)] += r;
            }
            for &c in &s.classes {
                if c > 0 {
                    g[(c - 1) as usize] += r;
                } else if c < 0 {
                    g[(-c - 1) as usize] -= r;
                }
            }
        }
        let t = (epoch + 1) as i32;
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        // A gentle decay of the step in the last third.
        let frac = epoch as f32 / config.epochs as f32;
        let rate = if frac < 0.66 {
            config.rate
        } else {
            config.rate * (1.0 - frac) / 0.34 + config.rate * 0.05
        };
        for i in 0..classes {
            let gi = g[i] + lambda * (w[i] - prior[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * gi;
            v[i] = b2 * v[i] + (1.0 - b2) * gi * gi;
            w[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::pattern::features;

    /// Positions of 300 random games down to 40 empties, labelled by a
    /// hidden linear rule of the pattern form: `truth` for even empties,
    /// and for odd ones `truth` times `odd_sign`; split 4:1 into training
    /// and validation samples, with the validation positions.
    #[allow(clippy::type_complexity)]
    fn hidden_rule_samples(odd_sign: f32) -> (Vec<Sample>, Vec<Sample>, Vec<(u64, u64)>) {
        let (map, classes) = class_map();
        let mut rng = crate::random::seeded(5);
        let mut rnd = move || crate::random::next(&mut rng);
        let truth: Vec<f32> = (0..*classes)
            .map(|_| ((rnd() % 2001) as f32 - 1000.0) / 1000.0)
            .collect();
        let mut all = Vec::new();
        for _ in 0..300 {
            let mut p = crate::rules::Position::initial(crate::rules::BoardSize::Eight);
            while !p.is_game_over() && p.empties().count() > 40 {
                let list = p.moves_list();
                p = p.play_unchecked(list[(rnd() % list.len() as u64) as usize]);
                let f = features(p.player(), p.opponent());
                let y: f32 = f
                    .iter()
                    .map(|&i| {
                        let c = map[i as usize];
                        match c.signum() {
                            1 => truth[(c - 1) as usize],
                            -1 => -truth[(-c - 1) as usize],
                            _ => 0.0,
                        }
                    })
                    .sum();
                let y = if !p.empties().count().is_multiple_of(2) {
                    y * odd_sign
                } else {
                    y
                };
                let y = y.round().clamp(-64.0, 64.0) as i8;
                all.push((
                    Sample::new(p.player(), p.opponent(), y),
                    p.player(),
                    p.opponent(),
                ));
            }
        }
        let va_positions = all.iter().step_by(5).map(|&(_, p, o)| (p, o)).collect();
        let all: Vec<Sample> = all.into_iter().map(|(s, _, _)| s).collect();
        let va: Vec<Sample> = all.iter().step_by(5).copied().collect();
        let tr: Vec<Sample> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 5 != 0)
            .map(|(_, s)| *s)
            .collect();
        (tr, va, va_positions)
    }

    fn tiny_config(parity: bool) -> FitConfig {
        FitConfig {
            phases: 1,
            parity,
            epochs: 200,
            rate: 0.05,
            l2: 0.1,
            threads: 1,
            bias: true,
        }
    }

    /// The fit must bring the validation error of a rule it can express
    /// well below the error of predicting zero.
    #[test]
    fn a_tiny_fit_lowers_its_validation_error() {
        let (tr, va, _) = hidden_rule_samples(1.0);
        let (_, reports) = fit(&tr, &va, &tiny_config(false), None, &|_| {});
        let r = reports[0];
        assert!(r.train_mae < 0.5 * r.baseline_mae, "{r:?}");
        assert!(r.validation_mae < 0.8 * r.baseline_mae, "{r:?}");
    }

    /// A rule that flips sign with the parity of the empties: one set for
    /// both parities cannot follow it, one per parity can, and the weights
    /// of the split fit give each position its own parity's value.
    #[test]
    fn a_parity_split_fit_follows_a_rule_that_depends_on_parity() {
        let (tr, va, positions) = hidden_rule_samples(-1.0);
        let (_, joint) = fit(&tr, &va, &tiny_config(false), None, &|_| {});
        let (w, split) = fit(&tr, &va, &tiny_config(true), None, &|_| {});
        assert_eq!(split.len(), 2);
        assert!(w.parity() && w.phases() == 2);
        let joint_mae = joint[0].validation_mae;
        for r in &split {
            assert!(r.validation_mae < 0.8 * r.baseline_mae, "{r:?}");
            assert!(
                r.validation_mae < 0.8 * joint_mae,
                "{r:?} against {joint_mae}"
            );
        }
        // The fitted weights evaluate each sample with its own set.
        let err: f64 = va
            .iter()
            .zip(&positions)
            .map(|(s, &(p, o))| {
                let v = f64::from(w.eval(p, o)) / 100.0;
                (v.clamp(-64.0, 64.0) - f64::from(s.target)).abs()
            })
            .sum::<f64>()
            / va.len() as f64;
        let reported = (split[0].validation_mae * split[0].validation as f64
            + split[1].validation_mae * split[1].validation as f64)
            / va.len() as f64;
        assert!((err - reported).abs() < 0.05, "{err} against {reported}");
    }
}
