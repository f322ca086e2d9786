//! The static evaluation: the learned pattern evaluation
//! ([`super::weights::PatternWeights`]) on 8×8 Reversi, the hand-written one
//! below for 6×6 and Anti Reversi (no weights are trained for them) and
//! whenever the engine is told to use it.
//!
//! ## The hand-written evaluation
//!
//! Features, all computed for the side to move minus the opponent, so the
//! evaluation is antisymmetric (swapping the two sides negates it) and
//! invariant under the 8 board symmetries:
//!
//! * mobility (legal moves, corners counting double) and potential mobility
//!   (empty squares next to the other side's discs: the frontier);
//! * corners held, and X / C squares held next to an empty corner;
//! * stable discs (edge-anchored, from [`super::geometry::stable_discs`]);
//! * the disc count, which only matters late.
//!
//! Weights are interpolated between an opening and an endgame set by the number
//! of discs on the board. In Anti Reversi the disc-owning terms (corners,
//! stability, discs) change sign while mobility stays desirable.
//!
//! Parity is deliberately absent from the hand-written evaluation: a
//! side-to-move term would break the antisymmetry; the endgame solver orders
//! moves by parity instead. The learned one adds a fitted side-to-move bias
//! per number of empties to its antisymmetric pattern sum
//! ([`super::PatternWeights`]).
//!
//! The interface is [`Evaluator::evaluate`] on a [`Position`]. Values are in
//! hundredths of a disc.

use super::Evaluation;
use super::features::{Features, Lanes};
use super::geometry::{Geometry, stable_discs};
use super::probcut::{self, Model, SearchModels};
use super::weights::{EVAL_LIMIT, PatternWeights};
use crate::rules::kernels::{Kernels, Portable};
use crate::rules::{BoardSize, Position, Rules, movegen};
use std::sync::Arc;

/// Weights of one game phase, in hundredths of a disc per unit of feature.
#[derive(Clone, Copy, Debug)]
struct Weights {
    mobility: i32,
    potential: i32,
    corner: i32,
    x_square: i32,
    c_square: i32,
    stable: i32,
    disc: i32,
}

const OPENING: Weights = Weights {
    mobility: 90,
    potential: 35,
    corner: 450,
    x_square: -250,
    c_square: -60,
    stable: 90,
    disc: -8,
};

const ENDGAME: Weights = Weights {
    mobility: 60,
    potential: 15,
    corner: 300,
    x_square: -120,
    c_square: -30,
    stable: 120,
    disc: 25,
};

/// A static evaluation for one variant.
#[derive(Clone, Debug)]
pub struct Evaluator {
    geo: Geometry,
    /// The learned weights, when they apply to the variant.
    pattern: Option<Arc<PatternWeights>>,
    /// Which hand-written evaluation applies without learned weights.
    style: Evaluation,
    /// The learned weights' search models (theirs, else the shipped ones').
    models: Option<SearchModels>,
}

impl Evaluator {
    /// The hand-written evaluation for the variant `rules`.
    #[must_use]
    pub fn new(rules: &Rules) -> Evaluator {
        Evaluator {
            geo: Geometry::new(rules),
            pattern: None,
            style: Evaluation::Positional,
            models: None,
        }
    }

    /// A weaker evaluation for the variant `rules`: `Discs` or `Mobility`
    /// count one thing only; `Positional` (and `Full`, which needs the
    /// engine's weights) is the hand-written evaluation.
    #[must_use]
    pub fn weaker(rules: &Rules, style: Evaluation) -> Evaluator {
        Evaluator {
            style,
            ..Evaluator::new(rules)
        }
    }

    /// The learned evaluation with `weights` when `rules` are 8×8 Reversi (any
    /// scoring rule), the hand-written one otherwise or when `weights` is `None`.
    #[must_use]
    pub fn with_weights(rules: &Rules, weights: Option<Arc<PatternWeights>>) -> Evaluator {
        let applies = rules.size == BoardSize::Eight && !rules.anti;
        let pattern = weights.filter(|_| applies);
        let models = pattern.as_ref().and_then(|w| {
            w.models()
                .copied()
                .or_else(|| PatternWeights::shipped().ok()?.models().copied())
        });
        Evaluator {
            geo: Geometry::new(rules),
            pattern,
            style: Evaluation::Positional,
            models,
        }
    }

    /// The midgame ProbCut model for a deep search of `depth` at `empties`
    /// empties: the learned weights' ([`PatternWeights::models`], else the
    /// shipped weights'), or the hand-written evaluation's.
    #[inline]
    pub(crate) fn probcut_model(&self, depth: u32, empties: u32) -> Option<Model> {
        match (&self.pattern, &self.models) {
            (None, _) => probcut::hand_model(depth, empties),
            (Some(_), Some(m)) => m.midgame(depth, empties),
            (Some(_), None) => None,
        }
    }

    /// The endgame ProbCut model at `n` empties (learned evaluations with
    /// models only).
    #[inline]
    pub(crate) fn endcut_model(&self, n: u32) -> Option<Model> {
        self.pattern.as_ref()?;
        self.models.map(|m| m.endcut(n))
    }

    /// Whether this is the learned evaluation.
    #[must_use]
    pub fn is_learned(&self) -> bool {
        self.pattern.is_some()
    }

    /// The value of `position` for the side to move, in hundredths of a disc.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        self.eval(position.player(), position.opponent())
    }

    /// [`Evaluator::evaluate`] on side-relative bitboards.
    #[inline]
    pub(crate) fn eval(&self, p: u64, o: u64) -> i32 {
        match &self.pattern {
            Some(w) => w.eval(p, o),
            None => self.hand(Portable, p, o),
        }
    }

    /// The pattern configurations the search keeps for (`p`, `o`):
    /// [`Features::NONE`] unless the evaluation is learned.
    #[inline]
    pub(crate) fn features(&self, p: u64, o: u64) -> Features {
        if self.pattern.is_some() {
            Features::new(p, o)
        } else {
            Features::NONE
        }
    }

    /// `f` after the side to move plays on `x` flipping `flipped` (unchanged
    /// unless the evaluation is learned), with the kernels `k`.
    #[inline(always)]
    pub(crate) fn play<K: Lanes>(&self, k: K, f: &Features, x: u8, flipped: u64) -> Features {
        if self.pattern.is_some() {
            f.play(k, x, flipped)
        } else {
            *f
        }
    }

    /// [`Evaluator::eval`] given the features of (`p`, `o`) from
    /// [`Evaluator::features`] and [`Evaluator::play`], with the kernels `k`.
    #[inline(always)]
    pub(crate) fn eval_with<K: Kernels>(&self, k: K, f: &Features, p: u64, o: u64) -> i32 {
        match &self.pattern {
            Some(w) => w.eval_features(k, f, p, o),
            None => self.hand(k, p, o),
        }
    }

    /// The hand-written evaluation (or the one-feature one of a weaker
    /// style), with the kernels `k`.
    fn hand<K: Kernels>(&self, k: K, p: u64, o: u64) -> i32 {
        let g = &self.geo;
        match self.style {
            Evaluation::Discs => {
                let d = p.count_ones() as i32 - o.count_ones() as i32;
                return if g.anti { -100 * d } else { 100 * d };
            }
            Evaluation::Mobility => {
                let m = (k.moves(p, o) & g.mask).count_ones() as i32
                    - (k.moves(o, p) & g.mask).count_ones() as i32;
                return 100 * m;
            }
            Evaluation::Full | Evaluation::Positional => {}
        }
        let empty = !(p | o) & g.mask;
        let filled = (p | o).count_ones() as i32;
        let total = g.squares;
        // Phase from 0 (start) to 64 (full board).
        let phase = ((filled - 4) * 64 / (total - 4)).clamp(0, 64);
        let w = |a: i32, b: i32| (a * (64 - phase) + b * phase) / 64;
        let wt = |f: fn(&Weights) -> i32| w(f(&OPENING), f(&ENDGAME));

        let mp = k.moves(p, o) & g.mask;
        let mo = k.moves(o, p) & g.mask;
        let mobility = (mp.count_ones() + (mp & g.corners).count_ones()) as i32
            - (mo.count_ones() + (mo & g.corners).count_ones()) as i32;
        let potential = (movegen::around(o) & empty).count_ones() as i32
            - (movegen::around(p) & empty).count_ones() as i32;

        let mut corner = 0;
        let mut xsq = 0;
        let mut csq = 0;
        for &(c, x, cs) in &g.corner_groups {
            corner += i32::from(p & c != 0) - i32::from(o & c != 0);
            if empty & c != 0 {
                xsq += i32::from(p & x != 0) - i32::from(o & x != 0);
                csq += (p & cs).count_ones() as i32 - (o & cs).count_ones() as i32;
            }
        }
        let stable = if (p | o) & g.corners != 0 {
            stable_discs(p, o, g.mask).count_ones() as i32
                - stable_discs(o, p, g.mask).count_ones() as i32
        } else {
            0
        };
        let discs = p.count_ones() as i32 - o.count_ones() as i32;

        let owning = corner * wt(|x| x.corner)
            + xsq * wt(|x| x.x_square)
            + csq * wt(|x| x.c_square)
            + stable * wt(|x| x.stable)
            + discs * wt(|x| x.disc);
        let moving = mobility * wt(|x| x.mobility) + potential * wt(|x| x.potential);
        let v = if g.anti {
            moving - owning
        } else {
            moving + owning
        };
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}
