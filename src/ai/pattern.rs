//! The features of the learned evaluation (8×8 only): board patterns in the
//! Logistello tradition plus two global features.
//!
//! Eleven patterns, 46 instances (M. Buro, "Experiments with Multi-ProbCut and
//! a New High-Quality Evaluation Function for Othello", 1997):
//!
//! | pattern | squares | instances |
//! |---|---|---|
//! | rows 2, 3, 4 (and their columns) | 8 each | 4 each |
//! | diagonals of length 8, 7, 6, 5, 4 | 8 … 4 | 2, 4, 4, 4, 4 |
//! | edge with both X-squares | 10 | 4 |
//! | 3×3 corner block | 9 | 4 |
//! | 2×5 corner block | 10 | 8 |
//!
//! plus the mobility difference and the potential-mobility (frontier)
//! difference, clamped to ±40, as two more tables, and each side's own
//! mobility and potential mobility, clamped to 40, as four more: a table
//! of counts for the side to move and one for the opponent, tied so that
//! the opponent's count `k` weighs minus the side to move's count `k`. The
//! counts say what the differences cannot: three moves against one is not
//! ten against eight.
//!
//! Each pattern is read in one orientation from the board transformed by a
//! symmetry, so all instances of a pattern share one weight table. A
//! configuration is a base-3 number, digit `j` for the pattern's `j`-th square:
//! 0 empty, 1 the side to move, 2 the opponent.
//!
//! Weights are tied in *classes*: configurations that a symmetry of the
//! pattern's own squares maps onto each other share a weight, and swapping the
//! two sides negates it ([`class_map`]). So the evaluation is invariant under
//! the 8 board symmetries and antisymmetric by construction.

use crate::rules::kernels::{Kernels, Portable};
use crate::rules::symmetry::{mirror, transpose};
use crate::rules::{BoardSize, Square, Symmetry};
use std::sync::OnceLock;

/// One pattern: its squares in digit order (canonical orientation), the
/// symmetries (indices into [`Symmetry::ALL`]) whose transformed boards give
/// its distinct instances, and a fast extraction of its bits.
pub struct Pattern {
    /// Short name.
    pub name: &'static str,
    /// Squares in digit order (a1 = 0, row-major).
    pub squares: &'static [u8],
    /// Transformed boards read for the instances.
    pub instances: &'static [usize],
    /// The pattern's squares of a bitboard packed into bits 0.. in digit order.
    pub extract: fn(u64) -> u32,
}

/// The diagonal `col - row = d` (d ≥ 0) packed by column.
#[inline(always)]
fn diagonal(b: u64, d: u32) -> u32 {
    let mask = 0x8040_2010_0804_0201u64 << d & !column_mask_below(d);
    ((b & mask).wrapping_mul(0x0101_0101_0101_0101) >> (56 + d)) as u32
}

/// Columns `0..d` of every row (the squares a shifted diagonal wraps into).
#[inline(always)]
const fn column_mask_below(d: u32) -> u64 {
    let row = (1u64 << d) - 1;
    row * 0x0101_0101_0101_0101
}

fn row2(b: u64) -> u32 {
    (b >> 8) as u32 & 0xff
}
fn row3(b: u64) -> u32 {
    (b >> 16) as u32 & 0xff
}
fn row4(b: u64) -> u32 {
    (b >> 24) as u32 & 0xff
}
fn diag8(b: u64) -> u32 {
    diagonal(b, 0)
}
fn diag7(b: u64) -> u32 {
    diagonal(b, 1)
}
fn diag6(b: u64) -> u32 {
    diagonal(b, 2)
}
fn diag5(b: u64) -> u32 {
    diagonal(b, 3)
}
fn diag4(b: u64) -> u32 {
    diagonal(b, 4)
}
fn edge2x(b: u64) -> u32 {
    (b as u32 & 0xff) | ((b >> 1) as u32 & 0x100) | ((b >> 5) as u32 & 0x200)
}
fn corner3x3(b: u64) -> u32 {
    (b as u32 & 7) | ((b >> 5) as u32 & 0x38) | ((b >> 10) as u32 & 0x1c0)
}
fn corner2x5(b: u64) -> u32 {
    (b as u32 & 0x1f) | ((b >> 3) as u32 & 0x3e0)
}

/// Declares [`PATTERNS`] and the unrolled [`pattern_indices`] from one list,
/// so the two cannot disagree.
macro_rules! patterns {
    ($(($name:literal, $f:ident, [$($sq:literal),*], [$($inst:literal),*])),* $(,)?) => {
        /// The patterns.
        pub static PATTERNS: [Pattern; 11] = [
            $(Pattern {
                name: $name,
                squares: &[$($sq),*],
                instances: &[$($inst),*],
                extract: $f,
            }),*
        ];

        /// Per pattern instance (in [`features`] order), where its
        /// pattern's table starts in the flat per-phase table.
        pub const INSTANCE_OFFSETS: [u32; INSTANCES] = {
            let mut out = [0u32; INSTANCES];
            let mut k = 0;
            let mut t = 0;
            $(
                let mut i = 0;
                while i < [$($inst),*].len() {
                    out[k] = TABLE_OFFSETS[t] as u32;
                    k += 1;
                    i += 1;
                }
                t += 1;
            )*
            assert!(k == INSTANCES && t == PATTERNS.len());
            out
        };

        /// The pattern part of [`features`], unrolled (direct calls inline).
        #[inline(always)]
        fn pattern_indices(tp: &[u64; 8], to: &[u64; 8], out: &mut [u32; FEATURES]) {
            let mut k = 0;
            let mut t = 0;
            $(
                let base = TABLE_OFFSETS[t] as u32;
                $(
                    out[k] = base
                        + u32::from(TERNARY[$f(tp[$inst]) as usize])
                        + 2 * u32::from(TERNARY[$f(to[$inst]) as usize]);
                    k += 1;
                )*
                t += 1;
            )*
            debug_assert_eq!((k, t), (INSTANCES, PATTERNS.len()));
        }

        /// The sum of the weights in `row` of the pattern configurations
        /// `idx` (instance `k` at `row[INSTANCE_OFFSETS[k] + idx[k]]`),
        /// unrolled: every offset is a constant and, `row` reaching
        /// [`ROW_SLACK`] entries past the phase's table, no index needs a
        /// bounds check.
        #[inline(always)]
        pub(crate) fn pattern_sum(row: &[i16; ROW_LEN], idx: &[u16; INSTANCES]) -> i32 {
            let mut v = 0i32;
            let mut k = 0;
            $($(
                let _ = $inst;
                v += i32::from(row[INSTANCE_OFFSETS[k] as usize + usize::from(idx[k])]);
                k += 1;
            )*)*
            debug_assert_eq!(k, INSTANCES);
            v
        }
    };
}

patterns![
    ("row2", row2, [8, 9, 10, 11, 12, 13, 14, 15], [0, 1, 4, 5]),
    ("row3", row3, [16, 17, 18, 19, 20, 21, 22, 23], [0, 1, 4, 5]),
    ("row4", row4, [24, 25, 26, 27, 28, 29, 30, 31], [0, 1, 4, 5]),
    ("diag8", diag8, [0, 9, 18, 27, 36, 45, 54, 63], [0, 1]),
    ("diag7", diag7, [1, 10, 19, 28, 37, 46, 55], [0, 1, 2, 3]),
    ("diag6", diag6, [2, 11, 20, 29, 38, 47], [0, 1, 2, 3]),
    ("diag5", diag5, [3, 12, 21, 30, 39], [0, 1, 2, 3]),
    ("diag4", diag4, [4, 13, 22, 31], [0, 1, 2, 3]),
    (
        "edge+2x",
        edge2x,
        [0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
        [0, 1, 4, 5]
    ),
    (
        "corner3x3",
        corner3x3,
        [0, 1, 2, 8, 9, 10, 16, 17, 18],
        [0, 1, 2, 3]
    ),
    (
        "corner2x5",
        corner2x5,
        [0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
        [0, 1, 2, 3, 4, 5, 6, 7]
    ),
];

/// Pattern instances in all.
pub const INSTANCES: usize = 46;

/// Half-width of the two global feature tables (differences clamped to ±40).
pub const GLOBAL_RANGE: i32 = 40;

/// Global features: the mobility and potential-mobility differences, then
/// the side to move's and the opponent's mobility, then their potential
/// mobility.
pub const GLOBALS: usize = 6;

/// Feature tables: the patterns, then the [`GLOBALS`].
pub const TABLES: usize = PATTERNS.len() + GLOBALS;

/// Features of one position: [`INSTANCES`] pattern indices and the
/// [`GLOBALS`] indices, each already offset into the flat per-phase table.
pub const FEATURES: usize = INSTANCES + GLOBALS;

/// Weight classes of the per-side count tables (a count 0..=40 each, for
/// mobility and for potential mobility), the last classes of a phase:
/// weights files made before them hold that many classes fewer, read as
/// zero.
pub const COUNT_CLASSES: usize = 2 * (GLOBAL_RANGE as usize + 1);

const fn pow3(n: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < n {
        r *= 3;
        i += 1;
    }
    r
}

/// Size of each table.
pub const TABLE_SIZES: [usize; TABLES] = {
    let mut s = [0; TABLES];
    let mut i = 0;
    while i < PATTERNS.len() {
        s[i] = pow3(PATTERNS[i].squares.len());
        i += 1;
    }
    s[PATTERNS.len()] = 2 * GLOBAL_RANGE as usize + 1;
    s[PATTERNS.len() + 1] = 2 * GLOBAL_RANGE as usize + 1;
    let mut g = 2;
    while g < GLOBALS {
        s[PATTERNS.len() + g] = GLOBAL_RANGE as usize + 1;
        g += 1;
    }
    s
};

/// Where each table starts in the flat per-phase table.
pub const TABLE_OFFSETS: [usize; TABLES] = {
    let mut o = [0; TABLES];
    let mut i = 1;
    while i < TABLES {
        o[i] = o[i - 1] + TABLE_SIZES[i - 1];
        i += 1;
    }
    o
};

/// Entries of the flat table of one phase.
pub const PHASE_SIZE: usize = TABLE_OFFSETS[TABLES - 1] + TABLE_SIZES[TABLES - 1];

/// Entries a phase's weights are read through beyond its [`PHASE_SIZE`]: a
/// configuration index is a `u16`, so with this slack after the last phase
/// every index the evaluation can form is inside the table it reads
/// ([`pattern_sum`]).
pub const ROW_SLACK: usize = 1 << 16;

/// The length of the weight row the evaluation reads: [`PHASE_SIZE`] and
/// [`ROW_SLACK`].
pub const ROW_LEN: usize = PHASE_SIZE + ROW_SLACK;

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
static TERNARY: [u16; 1024] = {
    let mut t = [0u16; 1024];
    let mut b = 0;
    while b < 1024 {
        let mut v = 0u32;
        let mut bit = 9i32;
        while bit >= 0 {
            v = v * 3 + ((b >> bit) & 1) as u32;
            bit -= 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

/// The eight transformed boards, in the order of [`Symmetry::ALL`].
#[inline(always)]
fn transforms(b: u64) -> [u64; 8] {
    let t = transpose(b);
    let m = mirror(b);
    let tm = mirror(t);
    [
        b,
        b.swap_bytes(),
        m,
        m.swap_bytes(),
        t,
        t.swap_bytes(),
        tm,
        tm.swap_bytes(),
    ]
}

/// The phase of a position with `empties` empty squares, out of `phases`.
#[inline]
#[must_use]
pub fn phase(empties: u32, phases: usize) -> usize {
    let played = 60usize.saturating_sub(empties as usize);
    (played * phases / 61).min(phases - 1)
}

/// The weight set of a position with `empties` empty squares among `sets`:
/// its band of the game as [`phase`] (of `sets` bands), or, with `parity`,
/// of `sets / 2` bands each split in two by the parity of the empties (set
/// `2·band + empties mod 2`; `sets` is then even).
#[inline]
#[must_use]
pub fn weight_set(empties: u32, sets: usize, parity: bool) -> usize {
    if parity {
        2 * phase(empties, (sets / 2).max(1)) + (empties & 1) as usize
    } else {
        phase(empties, sets)
    }
}

/// The flat feature indices of (`p`, `o`), side to move `p`, on 8×8.
#[inline]
#[must_use]
pub fn features(p: u64, o: u64) -> [u32; FEATURES] {
    let tp = transforms(p);
    let to = transforms(o);
    let mut out = [0u32; FEATURES];
    pattern_indices(&tp, &to, &mut out);
    out[INSTANCES..].copy_from_slice(&global_features(Portable, p, o));
    out
}

/// The global features of [`features`] (see [`GLOBALS`]), as flat indices,
/// with the kernels `k`.
#[inline(always)]
#[must_use]
pub fn global_features<K: Kernels>(k: K, p: u64, o: u64) -> [u32; GLOBALS] {
    use crate::rules::movegen::around;
    let empty = !(p | o);
    let (mp, mo) = (k.moves(p, o).count_ones(), k.moves(o, p).count_ones());
    // Potential mobility: the empty squares next to the other side's discs.
    let (pp, po) = (
        (around(o) & empty).count_ones(),
        (around(p) & empty).count_ones(),
    );
    let diff = |t: usize, a: u32, b: u32| {
        let d = (a as i32 - b as i32).clamp(-GLOBAL_RANGE, GLOBAL_RANGE);
        (TABLE_OFFSETS[PATTERNS.len() + t] as i32 + GLOBAL_RANGE + d) as u32
    };
    let count =
        |t: usize, a: u32| TABLE_OFFSETS[PATTERNS.len() + t] as u32 + a.min(GLOBAL_RANGE as u32);
    [
        diff(0, mp, mo),
        diff(1, pp, po),
        count(2, mp),
        count(3, mo),
        count(4, pp),
        count(5, po),
    ]
}

/// Weight classes of the flat per-phase table: entry `i` is `0` when the
/// weight is forced to zero, else `±(class + 1)`, the sign saying whether the
/// entry carries the class weight or its negation. Classes are numbered from
/// 0 in order of first appearance.
#[must_use]
pub fn class_map() -> &'static (Vec<i32>, usize) {
    static MAP: OnceLock<(Vec<i32>, usize)> = OnceLock::new();
    MAP.get_or_init(build_class_map)
}

/// Digit permutations of each pattern under the symmetries that map its
/// square set onto itself (identity included).
fn stabilizer(pat: &Pattern) -> Vec<Vec<usize>> {
    let sq = |x: u8| Square::new(x).expect("pattern squares are on the board");
    let mut perms = Vec::new();
    for s in Symmetry::ALL {
        let image: Vec<u8> = pat
            .squares
            .iter()
            .map(|&x| s.square(sq(x), BoardSize::Eight).index() as u8)
            .collect();
        let perm: Option<Vec<usize>> = image
            .iter()
            .map(|y| pat.squares.iter().position(|x| x == y))
            .collect();
        if let Some(perm) = perm {
            perms.push(perm);
        }
    }
    perms
}

fn build_class_map() -> (Vec<i32>, usize) {
    let mut map = vec![0i32; PHASE_SIZE];
    let mut classes = 0usize;
    for (t, pat) in PATTERNS.iter().enumerate() {
        let n = pat.squares.len();
        let perms = stabilizer(pat);
        let size = TABLE_SIZES[t];
        let mut seen = vec![false; size];
        for start in 0..size {
            if seen[start] {
                continue;
            }
            // Orbit of `start` under the stabilizer and the side swap.
            let digits = |mut v: usize| {
                let mut d = vec![0u8; n];
                for x in d.iter_mut() {
                    *x = (v % 3) as u8;
                    v /= 3;
                }
                d
            };
            let number = |d: &[u8]| d.iter().rev().fold(0usize, |a, &x| a * 3 + x as usize);
            let base = digits(start);
            let swapped: Vec<u8> = base.iter().map(|&x| [0, 2, 1][x as usize]).collect();
            let mut members = Vec::new();
            for (colour_sign, cfg) in [(1, &base), (-1, &swapped)] {
                for perm in &perms {
                    let mut d = vec![0u8; n];
                    for j in 0..n {
                        d[perm[j]] = cfg[j];
                    }
                    members.push((number(&d), colour_sign));
                }
            }
            let zero = members
                .iter()
                .any(|&(v, s)| s == -1 && members.iter().any(|&(w, r)| w == v && r == 1));
            let id = classes as i32 + 1;
            for &(v, s) in &members {
                seen[v] = true;
                map[TABLE_OFFSETS[t] + v] = if zero { 0 } else { s * id };
            }
            if !zero {
                classes += 1;
            }
        }
    }
    // The differences: antisymmetric in the difference itself.
    for offset in &TABLE_OFFSETS[PATTERNS.len()..PATTERNS.len() + 2] {
        for d in -GLOBAL_RANGE..=GLOBAL_RANGE {
            let i = offset + (d + GLOBAL_RANGE) as usize;
            map[i] = if d == 0 {
                0
            } else {
                d.signum() * (classes as i32 + d.unsigned_abs() as i32)
            };
        }
        classes += GLOBAL_RANGE as usize;
    }
    // The counts: the opponent's table is the side to move's, negated.
    for pair in [2, 4] {
        let (mine, theirs) = (
            TABLE_OFFSETS[PATTERNS.len() + pair],
            TABLE_OFFSETS[PATTERNS.len() + pair + 1],
        );
        for k in 0..=GLOBAL_RANGE as usize {
            let id = (classes + k + 1) as i32;
            map[mine + k] = id;
            map[theirs + k] = -id;
        }
        classes += GLOBAL_RANGE as usize + 1;
    }
    (map, classes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extraction_reads_the_listed_squares_in_order() {
        let mut rng = crate::random::seeded(2);
        for _ in 0..2000 {
            let x = crate::random::next(&mut rng);
            for pat in &PATTERNS {
                let slow = pat
                    .squares
                    .iter()
                    .enumerate()
                    .fold(0u32, |a, (j, &s)| a | (((x >> s) & 1) as u32) << j);
                assert_eq!((pat.extract)(x), slow, "{}", pat.name);
            }
        }
    }

    #[test]
    fn instances_are_distinct_and_complete() {
        let mut total = 0;
        for pat in &PATTERNS {
            let mask: u64 = pat.squares.iter().map(|&s| 1u64 << s).sum();
            // The squares each transformed board's pattern reads, in the
            // original board: the inverse image of the mask.
            let read = |s: usize| {
                (0..64)
                    .filter(|&i| Symmetry::ALL[s].bits(1 << i, BoardSize::Eight) & mask != 0)
                    .fold(0u64, |a, i| a | 1 << i)
            };
            let all: std::collections::BTreeSet<u64> = (0..8).map(read).collect();
            let used: std::collections::BTreeSet<u64> =
                pat.instances.iter().map(|&s| read(s)).collect();
            assert_eq!(used.len(), pat.instances.len(), "{}", pat.name);
            assert_eq!(used, all, "{}", pat.name);
            total += pat.instances.len();
        }
        assert_eq!(total, INSTANCES);
    }

    #[test]
    fn class_map_ties_swapped_configurations_with_opposite_signs() {
        let (map, classes) = class_map();
        assert!(*classes > 0);
        // The all-empty configuration of every pattern has no weight.
        for t in 0..PATTERNS.len() {
            assert_eq!(map[TABLE_OFFSETS[t]], 0);
        }
        // Row 2 with only a2 mine vs only a2 theirs.
        assert_eq!(map[1], -map[2]);
        assert_ne!(map[1], 0);
        // a2 mine equals h2 mine (the mirror fixes the row).
        assert_eq!(map[1], map[3usize.pow(7)]);
    }
}
