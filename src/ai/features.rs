//! The learned evaluation's pattern indices kept up to date move by move, so
//! the search does not read every pattern from scratch at every leaf.
//!
//! [`Features`] holds, for each of the 46 pattern instances, its base-3
//! configuration ([`super::pattern`]). The digits are fixed to the two
//! *colours*, not to the side to move: digit 1 is the side that was to move
//! when the features were computed, and `swapped` says whether that side is
//! now the opponent. A move by the side whose digit is `d` changes the
//! instance configurations by `d · 3^j` for the placed disc and by
//! `±3^j` for each flipped disc: one vector add per disc over all instances,
//! with the per-square table of `3^j` built from [`pattern::features`] itself.
//!
//! Reading the configurations from the other side's point of view swaps the
//! digits 1 and 2, which negates the weight exactly (the weight classes are
//! antisymmetric by construction), so the evaluation just changes sign.

use super::pattern::{self, INSTANCE_OFFSETS, INSTANCES};
use std::sync::OnceLock;

/// Lanes of the index vector: the instances, padded for vector adds.
const LANES: usize = 48;

/// Per square, the amount each instance's configuration changes when a disc
/// of the digit-1 colour appears there (`3^j` if the square is the
/// instance's digit `j`, else 0).
type Deltas = [[u16; LANES]; 64];

fn deltas() -> &'static Deltas {
    static DELTAS: OnceLock<Box<Deltas>> = OnceLock::new();
    DELTAS.get_or_init(|| {
        let mut d = Box::new([[0u16; LANES]; 64]);
        for (s, row) in d.iter_mut().enumerate() {
            let f = pattern::features(1 << s, 0);
            for k in 0..INSTANCES {
                row[k] = (f[k] - INSTANCE_OFFSETS[k]) as u16;
            }
        }
        d
    })
}

/// The pattern configurations of one position (8×8 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Features {
    /// Per instance, the base-3 configuration, digit 1 for one colour and 2
    /// for the other.
    idx: [u16; LANES],
    /// Whether digit 1 is the opponent of the side to move.
    swapped: bool,
}

impl Features {
    /// Features that stand for nothing (the hand-written evaluation does not
    /// read them).
    pub const NONE: Features = Features {
        idx: [0; LANES],
        swapped: false,
    };

    /// The configurations of (`p`, `o`), `p` to move, read from scratch.
    #[must_use]
    pub fn new(p: u64, o: u64) -> Features {
        let f = pattern::features(p, o);
        let mut idx = [0u16; LANES];
        for k in 0..INSTANCES {
            idx[k] = (f[k] - INSTANCE_OFFSETS[k]) as u16;
        }
        Features {
            idx,
            swapped: false,
        }
    }

    /// The features after the side to move plays on `x`, flipping `flipped`.
    #[inline(always)]
    #[must_use]
    pub fn play(&self, x: u8, mut flipped: u64) -> Features {
        let d = deltas();
        let mut idx = self.idx;
        let placed = &d[usize::from(x) & 63];
        if self.swapped {
            // The mover is digit 2: the new disc adds 2·3^j, each flipped
            // disc goes from 1 to 2.
            add(&mut idx, placed);
            add(&mut idx, placed);
            while flipped != 0 {
                add(&mut idx, &d[flipped.trailing_zeros() as usize]);
                flipped &= flipped - 1;
            }
        } else {
            // The mover is digit 1: the new disc adds 3^j, each flipped
            // disc goes from 2 to 1.
            add(&mut idx, placed);
            while flipped != 0 {
                sub(&mut idx, &d[flipped.trailing_zeros() as usize]);
                flipped &= flipped - 1;
            }
        }
        Features {
            idx,
            swapped: !self.swapped,
        }
    }

    /// The features after the side to move passes.
    #[inline(always)]
    #[must_use]
    pub fn pass(&self) -> Features {
        Features {
            idx: self.idx,
            swapped: !self.swapped,
        }
    }

    /// Per instance, the configuration with digit 1 for the side to move's
    /// colour if not [`Features::swapped`].
    #[inline(always)]
    pub fn indices(&self) -> &[u16] {
        &self.idx[..INSTANCES]
    }

    /// Whether digit 1 is the opponent of the side to move: the pattern sum
    /// read from the indices must then be negated.
    #[inline(always)]
    pub fn swapped(&self) -> bool {
        self.swapped
    }
}

#[inline(always)]
fn add(a: &mut [u16; LANES], b: &[u16; LANES]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.wrapping_add(*y);
    }
}

#[inline(always)]
fn sub(a: &mut [u16; LANES], b: &[u16; LANES]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.wrapping_sub(*y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movegen::{flips, moves};

    /// From-scratch features in the orientation `f` claims: digit 1 for the
    /// side to move unless swapped.
    fn scratch(p: u64, o: u64, swapped: bool) -> Features {
        let mut f = if swapped {
            Features::new(o, p)
        } else {
            Features::new(p, o)
        };
        f.swapped = swapped;
        f
    }

    /// Plays 300 random games, calling `check(p, o, features)` after every
    /// ply (passes included) with the incrementally updated features.
    fn random_games(mut check: impl FnMut(u64, u64, &Features)) -> usize {
        let mut rng = crate::random::seeded(1);
        let mut rand = move || crate::random::next(&mut rng);
        let mut plies = 0;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            let mut f = Features::new(p, o);
            loop {
                let m = moves(p, o);
                if m == 0 {
                    if moves(o, p) == 0 {
                        break;
                    }
                    f = f.pass();
                    (p, o) = (o, p);
                } else {
                    let pick = (rand() % u64::from(m.count_ones())) as u32;
                    let mut mm = m;
                    for _ in 0..pick {
                        mm &= mm - 1;
                    }
                    let x = mm.trailing_zeros() as u8;
                    let fl = flips(usize::from(x), p, o);
                    f = f.play(x, fl);
                    (p, o) = (o ^ fl, p | fl | 1 << x);
                }
                plies += 1;
                check(p, o, &f);
            }
        }
        plies
    }

    #[test]
    fn incremental_updates_equal_reading_from_scratch() {
        let plies = random_games(|p, o, f| {
            assert_eq!(*f, scratch(p, o, f.swapped()), "{p:#x} {o:#x}");
        });
        assert!(plies > 15_000);
    }

    /// With every kernel set the CPU has.
    #[test]
    fn the_evaluation_from_updated_features_equals_the_one_from_scratch() {
        let weights = crate::ai::PatternWeights::shipped().expect("shipped weights");
        let rules = crate::rules::Rules::standard(crate::rules::BoardSize::Eight);
        let eval = crate::ai::Evaluator::with_weights(&rules, Some(weights));
        assert!(eval.is_learned());
        let mut swapped = 0;
        let sets = crate::rules::KernelSet::available();
        random_games(|p, o, f| {
            for &set in &sets {
                let v = crate::rules::kernels::with_kernels!(set, k => eval.eval_with(k, f, p, o));
                assert_eq!(v, eval.eval(p, o), "{set} {p:#x} {o:#x}");
            }
            swapped += usize::from(f.swapped());
        });
        assert!(swapped > 5_000);
    }
}
