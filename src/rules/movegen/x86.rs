//! The x86-64 vector kernels: [`moves_avx2`], [`flips_avx2`] and
//! [`flips_avx512`], each compiled for its extensions whatever the build's
//! target. Calling one is `unsafe`: the caller must know the CPU has them
//! (a kernel-set token of [`crate::rules::kernels`], or a build whose
//! target has them).

use super::{INNER_COLUMNS, RAYS};
use std::arch::x86_64::*;

/// The four line directions (1, 8, 9, 7) in the four lanes of one vector.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::rules) fn moves_avx2(p: u64, o: u64) -> u64 {
    let shift = _mm256_set_epi64x(7, 9, 8, 1);
    let shift2 = _mm256_add_epi64(shift, shift);
    let pp = _mm256_set1_epi64x(p as i64);
    let inner = INNER_COLUMNS as i64;
    let mask = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        _mm256_set_epi64x(inner, inner, -1, inner),
    );

    let mut fl = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift));
    let mut fr = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift));
    fl = _mm256_or_si256(fl, _mm256_and_si256(mask, _mm256_sllv_epi64(fl, shift)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mask, _mm256_srlv_epi64(fr, shift)));
    let ml = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
    let mr = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, shift));
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, shift2)));
    fl = _mm256_or_si256(fl, _mm256_and_si256(ml, _mm256_sllv_epi64(fl, shift2)));
    fr = _mm256_or_si256(fr, _mm256_and_si256(mr, _mm256_srlv_epi64(fr, shift2)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(fl, shift), _mm256_srlv_epi64(fr, shift));
    (or_lanes(m)) & !(p | o)
}

/// The OR of the four 64-bit lanes of `v`.
#[target_feature(enable = "avx2")]
#[inline]
fn or_lanes(v: __m256i) -> u64 {
    let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
    _mm_cvtsi128_si64(x) as u64
}

/// What both `flips` kernels start from: the flips along the rays of `sq`
/// towards higher indices ([`flips_up`]), the rays towards lower ones
/// (W, N, NW, NE, one per lane), and `p` and `o` in every lane.
#[target_feature(enable = "avx2")]
#[inline]
fn start(sq: usize, p: u64, o: u64) -> (__m256i, __m256i, __m256i, __m256i) {
    let rays = RAYS[sq & 63].as_ptr();
    // SAFETY: `RAYS[sq]` is 8 contiguous u64, read unaligned: E, S, SE, SW
    // then W, N, NW, NE.
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.cast()),
            _mm256_loadu_si256(rays.add(4).cast()),
        )
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    (flips_up(up, pp, oo), down, pp, oo)
}

/// The flips along the rays towards higher indices: the first non-opponent
/// square of each is its lowest set bit; when it holds a disc of `p`,
/// every ray square below it flips.
#[target_feature(enable = "avx2")]
#[inline]
fn flips_up(up: __m256i, pp: __m256i, oo: __m256i) -> __m256i {
    let zero = _mm256_setzero_si256();
    let candidates = _mm256_andnot_si256(oo, up);
    let lowest = _mm256_and_si256(candidates, _mm256_sub_epi64(zero, candidates));
    let outflank = _mm256_and_si256(lowest, pp);
    // All ones when nothing outflanks, else the outflanking square and
    // every square above it: what must not flip.
    let kept = _mm256_sub_epi64(_mm256_cmpeq_epi64(outflank, zero), outflank);
    _mm256_andnot_si256(kept, up)
}

/// Four rays per vector, AVX2 only: the rays towards higher indices by
/// [`flips_up`]; along those towards lower ones, the non-opponent squares
/// are spread down the ray (three doubling shifts), so the ray squares
/// above the spread are the run of opponent discs next to `sq`, and the
/// highest non-opponent square is the one the spread, shifted one step
/// further, misses: the run flips when that square holds a disc of `p`.
#[target_feature(enable = "avx2")]
#[inline]
pub(in crate::rules) fn flips_avx2(sq: usize, p: u64, o: u64) -> u64 {
    let (f_up, down, pp, oo) = start(sq, p, o);

    // The lanes of `down` step by 1 (W), 8 (N), 9 (NW) and 7 (NE).
    let step = _mm256_set_epi64x(7, 9, 8, 1);
    let candidates = _mm256_andnot_si256(oo, down);
    let mut spread = _mm256_or_si256(candidates, _mm256_srlv_epi64(candidates, step));
    spread = _mm256_or_si256(
        spread,
        _mm256_srlv_epi64(spread, _mm256_add_epi64(step, step)),
    );
    spread = _mm256_or_si256(
        spread,
        _mm256_srlv_epi64(spread, _mm256_slli_epi64(step, 2)),
    );
    let highest = _mm256_andnot_si256(_mm256_srlv_epi64(spread, step), candidates);
    let outflanked = _mm256_cmpeq_epi64(_mm256_and_si256(highest, pp), _mm256_setzero_si256());
    let run = _mm256_andnot_si256(spread, down);
    let f_down = _mm256_andnot_si256(outflanked, run);

    or_lanes(_mm256_or_si256(f_up, f_down))
}

/// Four rays per 256-bit vector: the rays towards higher indices use the
/// lowest-set-bit trick, those towards lower ones a per-lane leading-zero
/// count (AVX-512 CD).
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
pub(in crate::rules) fn flips_avx512(sq: usize, p: u64, o: u64) -> u64 {
    let (f_up, down, pp, oo) = start(sq, p, o);
    let zero = _mm256_setzero_si256();
    let one = _mm256_set1_epi64x(1);

    // Down: highest non-opponent square on each ray (63 - lzcnt).
    let cand = _mm256_or_si256(_mm256_andnot_si256(oo, down), one);
    let lz = _mm256_lzcnt_epi64(cand);
    let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), lz);
    let of = _mm256_and_si256(_mm256_and_si256(top, pp), down);
    let above = _mm256_slli_epi64(_mm256_sub_epi64(zero, of), 1);
    let f_down = _mm256_and_si256(above, down);

    or_lanes(_mm256_or_si256(f_up, f_down))
}
