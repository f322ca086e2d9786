//! Branch-free move generation and flip computation on side-relative `u64` pairs.
//!
//! These are the hot kernels of the whole program (perft, search). They take the
//! side to move's discs `p` and the opponent's discs `o` and know nothing of
//! colours or board sizes: callers mask the result with the board's mask (off-board
//! squares are always empty, so lines never run through them).
//!
//! * [`moves`] uses a Kogge–Stone style fill in the four line directions at once
//!   (each direction both ways), two plain steps then two doubling steps, which covers
//!   the longest possible run of six opponent discs.
//! * [`flips`] looks along the eight rays of the played square: for rays that run
//!   towards higher indices the first non-opponent square is the lowest set bit, for
//!   the others the highest (leading-zero count); if that square holds an own disc,
//!   every square between is flipped. Rays come from a table built at compile time.
//!
//! [`moves_portable`] and [`flips_portable`] are plain 64-bit code; the vector
//! versions for x86-64 (the four directions of [`moves`] in the four lanes of
//! one AVX2 vector; [`flips`] four rays per vector, with AVX2 or with
//! AVX-512's per-lane leading-zero count) live in `x86`. The search and
//! perft choose among them when the program runs, through the kernel sets
//! of [`super::kernels`]; [`moves`] and [`flips`] here use the best the
//! build's compile-time target allows, for the rest of the program. Their
//! timings are in `docs/tuning.md`.
//!
//! A binary compiled for a newer CPU than the one it runs on would die of an
//! illegal instruction; [`missing_cpu_features`] lets the program say so
//! plainly at start instead.

#[cfg(target_arch = "x86_64")]
pub(super) mod x86;

/// All squares except columns a and h: stops horizontal and diagonal runs from
/// wrapping from one row to the next.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

#[inline(always)]
fn direction_moves(p: u64, mask: u64, d: u32) -> u64 {
    let mut fl = mask & (p << d);
    fl |= mask & (fl << d);
    let ml = mask & (mask << d);
    fl |= ml & (fl << (2 * d));
    fl |= ml & (fl << (2 * d));
    let mut fr = mask & (p >> d);
    fr |= mask & (fr >> d);
    let mr = mask & (mask >> d);
    fr |= mr & (fr >> (2 * d));
    fr |= mr & (fr >> (2 * d));
    (fl << d) | (fr >> d)
}

/// The empty squares where the side owning `p` may play against `o`, on the
/// full 8×8 grid (mask with the board size for 6×6).
///
/// ```
/// use reversi::rules::movegen::moves;
/// // Start position from Black's side: d5, e4 black; d4, e5 white.
/// let black = (1 << 35) | (1 << 28);
/// let white = (1 << 27) | (1 << 36);
/// assert_eq!(moves(black, white).count_ones(), 4);
/// ```
#[inline]
#[must_use]
pub fn moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    // SAFETY: the binary is compiled for CPUs with AVX2.
    unsafe {
        x86::moves_avx2(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        moves_portable(p, o)
    }
}

/// The instruction-set extensions this binary was compiled to use that the
/// running CPU lacks (empty when it can run here; always empty off x86-64).
/// A build with `-C target-cpu=native` uses every extension of the machine
/// that built it.
#[must_use]
pub fn missing_cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($feature:tt),*) => {$(
                if cfg!(target_feature = $feature) && !std::arch::is_x86_feature_detected!($feature) {
                    missing.push($feature);
                }
            )*};
        }
        check!(
            "popcnt", "lzcnt", "bmi1", "bmi2", "sse4.1", "sse4.2", "avx", "avx2", "fma", "avx512f",
            "avx512vl", "avx512cd", "avx512bw", "avx512dq"
        );
    }
    missing
}

/// Portable version of [`moves`]; the reference for the vectorised one.
#[inline]
#[must_use]
pub fn moves_portable(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let m = direction_moves(p, inner, 1)
        | direction_moves(p, o, 8)
        | direction_moves(p, inner, 7)
        | direction_moves(p, inner, 9);
    m & !(p | o)
}

/// The squares one step (in any of the 8 directions) from a square of `p`,
/// without wrapping across the board's edges. Used for frontier discs and
/// potential mobility.
#[inline]
#[must_use]
pub fn neighbours(p: u64) -> u64 {
    let west_ok = p & 0xfefe_fefe_fefe_fefe; // can step towards column a
    let east_ok = p & 0x7f7f_7f7f_7f7f_7f7f; // can step towards column h
    (p << 8)
        | (p >> 8)
        | (east_ok << 1)
        | (east_ok << 9)
        | (east_ok >> 7)
        | (west_ok >> 1)
        | (west_ok >> 9)
        | (west_ok << 7)
}

/// The squares of `p` and those one step from them: [`neighbours`]`(p) | p`
/// in fewer operations (a step east and west, then one north and south of
/// that), for callers that keep only empty squares (potential mobility).
#[inline]
#[must_use]
pub fn around(p: u64) -> u64 {
    let row = p | ((p & 0x7f7f_7f7f_7f7f_7f7f) << 1) | ((p & 0xfefe_fefe_fefe_fefe) >> 1);
    row | (row << 8) | (row >> 8)
}

/// Ray masks: `RAYS[sq][k]` holds the squares from `sq` (excluded) to the edge in
/// direction `k`. Directions 0..4 go towards higher indices (E, S, SE, SW), 4..8
/// towards lower ones (W, N, NW, NE).
pub(crate) static RAYS: [[u64; 8]; 64] = build_rays();

const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 8 {
            let (dc, dr) = DIRECTIONS[k];
            let mut c = (sq % 8) as i8 + dc;
            let mut r = (sq / 8) as i8 + dr;
            let mut bits = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                bits |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][k] = bits;
            k += 1;
        }
        sq += 1;
    }
    rays
}

#[inline(always)]
fn flip_up(ray: u64, p: u64, o: u64) -> u64 {
    let candidates = ray & !o;
    let outflank = candidates & candidates.wrapping_neg() & p;
    outflank.wrapping_sub((outflank != 0) as u64) & ray
}

#[inline(always)]
fn flip_down(ray: u64, p: u64, o: u64) -> u64 {
    let candidates = (ray & !o) | 1;
    let outflank = (1u64 << (63 - candidates.leading_zeros())) & p & ray;
    outflank.wrapping_neg().wrapping_shl(1) & ray
}

/// The opponent discs that a disc of `p` placed on square `sq` (0..64) would flip;
/// 0 when the move brackets nothing (it is then illegal). `sq` must be empty.
///
/// Portable version; [`flips`] dispatches to the fastest available one.
#[inline]
#[must_use]
pub fn flips_portable(sq: usize, p: u64, o: u64) -> u64 {
    let r = &RAYS[sq & 63];
    flip_up(r[0], p, o)
        | flip_up(r[1], p, o)
        | flip_up(r[2], p, o)
        | flip_up(r[3], p, o)
        | flip_down(r[4], p, o)
        | flip_down(r[5], p, o)
        | flip_down(r[6], p, o)
        | flip_down(r[7], p, o)
}

/// The opponent discs flipped by playing `sq` (0..64) for `p` against `o`;
/// 0 when the move brackets nothing. `sq` must be empty.
///
/// ```
/// use reversi::rules::movegen::flips;
/// let black = (1 << 35) | (1 << 28); // d5, e4
/// let white = (1 << 27) | (1 << 36); // d4, e5
/// assert_eq!(flips(19, black, white), 1 << 27); // d3 flips d4 only
/// ```
#[inline]
#[must_use]
pub fn flips(sq: usize, p: u64, o: u64) -> u64 {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx512vl",
        target_feature = "avx512cd"
    ))]
    // SAFETY: the binary is compiled for CPUs with AVX-512 VL and CD.
    unsafe {
        x86::flips_avx512(sq, p, o)
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "avx2",
        not(all(target_feature = "avx512vl", target_feature = "avx512cd"))
    ))]
    // SAFETY: the binary is compiled for CPUs with AVX2.
    unsafe {
        x86::flips_avx2(sq, p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(sq, p, o)
    }
}
