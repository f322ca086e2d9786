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
use crate::rules::kernels::{Kernels, Portable};
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

    /// The features after the side to move plays on `x`, flipping
    /// `flipped`, with the kernels `k`.
    #[inline(always)]
    #[must_use]
    pub fn play<K: Lanes>(&self, k: K, x: u8, mut flipped: u64) -> Features {
        let d = deltas();
        let mut idx = self.idx;
        let placed = &d[usize::from(x) & 63];
        if self.swapped {
            // The mover is digit 2: the new disc adds 2·3^j, each flipped
            // disc goes from 1 to 2.
            k.add(&mut idx, placed);
            k.add(&mut idx, placed);
            while flipped != 0 {
                k.add(&mut idx, &d[flipped.trailing_zeros() as usize]);
                flipped &= flipped - 1;
            }
        } else {
            // The mover is digit 1: the new disc adds 3^j, each flipped
            // disc goes from 2 to 1.
            k.add(&mut idx, placed);
            while flipped != 0 {
                k.sub(&mut idx, &d[flipped.trailing_zeros() as usize]);
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
    pub fn indices(&self) -> &[u16; INSTANCES] {
        const { assert!(INSTANCES <= LANES) };
        self.idx
            .first_chunk()
            .expect("the lanes hold every instance")
    }

    /// Whether digit 1 is the opponent of the side to move: the pattern sum
    /// read from the indices must then be negated.
    #[inline(always)]
    pub fn swapped(&self) -> bool {
        self.swapped
    }
}

/// The configurations' lane arithmetic of a kernel set: `a ± b` over the
/// [`LANES`] lanes (no lane ever wraps: every intermediate configuration is
/// a valid one).
pub(crate) trait Lanes: Kernels {
    /// `a += b`, lane by lane.
    fn add(self, a: &mut [u16; LANES], b: &[u16; LANES]);
    /// `a -= b`, lane by lane.
    fn sub(self, a: &mut [u16; LANES], b: &[u16; LANES]);
}

impl Lanes for Portable {
    #[inline(always)]
    fn add(self, a: &mut [u16; LANES], b: &[u16; LANES]) {
        for (x, y) in a.iter_mut().zip(b) {
            *x = x.wrapping_add(*y);
        }
    }

    #[inline(always)]
    fn sub(self, a: &mut [u16; LANES], b: &[u16; LANES]) {
        for (x, y) in a.iter_mut().zip(b) {
            *x = x.wrapping_sub(*y);
        }
    }
}

/// [`Lanes`] of a vector kernel set: three AVX2 vectors of 16 lanes.
macro_rules! vector_lanes {
    ($set:ident) => {
        #[cfg(target_arch = "x86_64")]
        impl Lanes for crate::rules::kernels::$set {
            #[inline(always)]
            fn add(self, a: &mut [u16; LANES], b: &[u16; LANES]) {
                // SAFETY: the token exists only on a CPU with AVX2.
                unsafe { x86::add(a, b) }
            }

            #[inline(always)]
            fn sub(self, a: &mut [u16; LANES], b: &[u16; LANES]) {
                // SAFETY: as for `add`.
                unsafe { x86::sub(a, b) }
            }
        }
    };
}
vector_lanes!(Avx2);
vector_lanes!(Avx512);

/// The AVX2 lane arithmetic: the lanes in three 256-bit vectors, which
/// keeps a node's configurations in three registers.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::LANES;
    use std::arch::x86_64::*;

    const _: () = assert!(LANES == 3 * 16);

    /// `a - b` if `SUB`, else `a + b`, 16 lanes at a time.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn apply<const SUB: bool>(a: &mut [u16; LANES], b: &[u16; LANES]) {
        for (x, y) in a
            .as_chunks_mut::<16>()
            .0
            .iter_mut()
            .zip(b.as_chunks::<16>().0)
        {
            // SAFETY: `x` and `y` are 16 u16 each (32 bytes), read and
            // written unaligned.
            unsafe {
                let (vx, vy) = (
                    _mm256_loadu_si256(x.as_ptr().cast()),
                    _mm256_loadu_si256(y.as_ptr().cast()),
                );
                let v = if SUB {
                    _mm256_sub_epi16(vx, vy)
                } else {
                    _mm256_add_epi16(vx, vy)
                };
                _mm256_storeu_si256(x.as_mut_ptr().cast(), v);
            }
        }
    }

    /// `a += b`, lane by lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn add(a: &mut [u16; LANES], b: &[u16; LANES]) {
        apply::<false>(a, b);
    }

    /// `a -= b`, lane by lane.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn sub(a: &mut [u16; LANES], b: &[u16; LANES]) {
        apply::<true>(a, b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::KernelSet;
    use crate::rules::kernels::with_kernels;
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
    /// ply (passes included) with the features updated by the kernels of
    /// `set`.
    fn random_games(set: KernelSet, mut check: impl FnMut(u64, u64, &Features)) -> usize {
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
                    f = with_kernels!(set, k => f.play(k, x, fl));
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
        for set in KernelSet::available() {
            let plies = random_games(set, |p, o, f| {
                assert_eq!(*f, scratch(p, o, f.swapped()), "{set} {p:#x} {o:#x}");
            });
            assert!(plies > 15_000);
        }
    }

    /// Features updated and read with every kernel set the CPU has.
    #[test]
    fn the_evaluation_from_updated_features_equals_the_one_from_scratch() {
        let weights = crate::ai::PatternWeights::shipped().expect("shipped weights");
        let rules = crate::rules::Rules::standard(crate::rules::BoardSize::Eight);
        let eval = crate::ai::Evaluator::with_weights(&rules, Some(weights));
        assert!(eval.is_learned());
        for set in KernelSet::available() {
            let mut swapped = 0;
            random_games(set, |p, o, f| {
                let v = with_kernels!(set, k => eval.eval_with(k, f, p, o));
                assert_eq!(v, eval.eval(p, o), "{set} {p:#x} {o:#x}");
                swapped += usize::from(f.swapped());
            });
            assert!(swapped > 5_000);
        }
    }
}
