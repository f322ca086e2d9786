//! The learned evaluation's weights: the evaluation itself, the compact weights
//! file and the shipped weights compiled into the binary.
//!
//! ## The weights file (`.rvw`), versions 2 to 4
//!
//! | bytes | content |
//! |---|---|
//! | 4 | magic `RVPW` |
//! | 2 | format version, little-endian (2 to 4; version 1 files are still read) |
//! | 2 | number of phases (weight sets) |
//! | 4 | number of weight classes per phase (must match [`super::pattern::class_map`], or have [`super::pattern::COUNT_CLASSES`] fewer: a file made before the per-side count features, whose weights then read as zero) |
//! | 1 | versions 3 and 4: the layout of the phases, 0 for bands of the game, 1 for bands each split by the parity of the empties ([`super::pattern::weight_set`]) |
//! | … | per phase, per class: the weight in hundredths of a disc as a zigzag LEB128 varint; a zero is followed by a varint count of further zeros |
//! | … | versions 2 to 4: the side-to-move bias of each number of empties 0..=60, hundredths of a disc, 61 zigzag varints |
//! | … | version 4: the search models fitted for these weights ([`SearchModels`]): the midgame ProbCut models, band by band (late first) and deep depth by depth, then the endgame ones for even and odd empties; each `a`, `b`, `σ` as little-endian `f64` |
//! | 8 | FNV-1a 64 checksum of everything before it, little-endian |
//!
//! ## The bias
//! The pattern sum is antisymmetric (swapping the sides negates it), so it
//! cannot say that having the move is worth something. The bias can: a value
//! per number of empties added for the side to move, which carries the tempo
//! and the parity of the region still to be played (who is likely to get the
//! last move). A version 1 file has no bias (all zero).
//!
//! ## The search models
//! ProbCut predicts deep searches from shallow ones with models fitted for
//! one evaluation ([`super::probcut`]); a version 4 file carries them
//! (`reversi bench --fit-probcut --models-out`). Weights without them use the
//! shipped weights' models.
//!
//! The shipped file is `data/pattern.rvw` (made by `reversi train`, its
//! models by `reversi bench --fit-probcut --models-out`). If it
//! fails to load, [`PatternWeights::shipped`] says why and the engine falls
//! back to the hand-written evaluation, which the CLI reports on stderr.

use super::features::Features;
use super::pattern::{
    COUNT_CLASSES, FEATURES, PHASE_SIZE, ROW_LEN, ROW_SLACK, class_map, features, global_features,
    pattern_sum, weight_set,
};
use super::probcut::{FIT_DEPTHS, Model, SearchModels};
use crate::rules::kernels::Kernels;
use std::sync::{Arc, OnceLock};

/// The weights compiled into the binary.
static SHIPPED: &[u8] = include_bytes!("../../data/pattern.rvw");

const MAGIC: &[u8; 4] = b"RVPW";
const VERSION: u16 = 4;

/// Numbers of empties a bias is kept for (0..=60).
pub const BIAS_SLOTS: usize = 61;

/// The bound of every static evaluation, in hundredths of a disc: values are
/// clamped to `±EVAL_LIMIT` (60 discs), inside the ±64 of a final score.
pub const EVAL_LIMIT: i32 = 6000;

/// Why a weights file cannot be used.
#[derive(Clone, Debug, thiserror::Error)]
pub enum WeightsError {
    /// Not a weights file.
    #[error("not a weights file (bad magic bytes)")]
    BadMagic,
    /// A format version this build does not read.
    #[error(
        "weights format version {0} is not supported (this build reads versions 1 to {VERSION})"
    )]
    Version(u16),
    /// The checksum does not match: the file is damaged.
    #[error("weights file is corrupt (checksum mismatch)")]
    Checksum,
    /// Made for another set of patterns.
    #[error("weights file has {found} classes per phase, this build expects {expected}")]
    Classes {
        /// In the file.
        found: usize,
        /// In this build.
        expected: usize,
    },
    /// Truncated or malformed data.
    #[error("weights file is malformed: {0}")]
    Malformed(&'static str),
    /// The file cannot be read (the I/O error is kept as the source).
    #[error(transparent)]
    Io(#[from] Arc<std::io::Error>),
}

/// Pattern weights for every phase, expanded for fast evaluation.
#[derive(Clone, PartialEq)]
pub struct PatternWeights {
    phases: usize,
    /// Whether each band of the game has a set per parity of the empties.
    parity: bool,
    /// Per phase, one value per class (hundredths of a disc).
    classes: Vec<Vec<i16>>,
    /// `phases × PHASE_SIZE` entries, the value of every feature index,
    /// then [`ROW_SLACK`] zeros (see [`pattern_sum`]).
    table: Vec<i16>,
    /// Per number of empties (0..=64), where its phase starts in `table`.
    rows: [usize; 65],
    /// The side to move's bias per number of empties (hundredths of a disc).
    bias: [i16; BIAS_SLOTS],
    /// The search models fitted for these weights, if any.
    models: Option<SearchModels>,
}

impl PatternWeights {
    /// Weights from per-phase class values (each of length
    /// `class_map().1`); values beyond the i16 range are clamped.
    ///
    /// # Panics
    /// If a phase has the wrong number of values or there is no phase.
    #[must_use]
    pub fn from_classes(classes: Vec<Vec<i16>>) -> PatternWeights {
        PatternWeights::with_bias(classes, [0; BIAS_SLOTS])
    }

    /// [`PatternWeights::from_classes`] with a side-to-move `bias` per
    /// number of empties (see the module docs).
    ///
    /// # Panics
    /// As [`PatternWeights::from_classes`].
    #[must_use]
    pub fn with_bias(classes: Vec<Vec<i16>>, bias: [i16; BIAS_SLOTS]) -> PatternWeights {
        PatternWeights::with_layout(classes, bias, false)
    }

    /// [`PatternWeights::with_bias`], the phases split by parity when
    /// `parity` (see [`weight_set`]).
    ///
    /// # Panics
    /// As [`PatternWeights::from_classes`], and if `parity` with an odd
    /// number of phases.
    #[must_use]
    pub fn with_layout(
        classes: Vec<Vec<i16>>,
        bias: [i16; BIAS_SLOTS],
        parity: bool,
    ) -> PatternWeights {
        let (map, count) = class_map();
        assert!(!classes.is_empty(), "at least one phase");
        assert!(
            !parity || classes.len().is_multiple_of(2),
            "an even number of phases"
        );
        let phases = classes.len();
        let mut table = vec![0i16; phases * PHASE_SIZE + ROW_SLACK];
        for (ph, values) in classes.iter().enumerate() {
            assert_eq!(values.len(), *count, "class count");
            let row = &mut table[ph * PHASE_SIZE..(ph + 1) * PHASE_SIZE];
            for (slot, &c) in row.iter_mut().zip(map.iter()) {
                *slot = match c.signum() {
                    0 => 0,
                    1 => values[(c - 1) as usize],
                    _ => values[(-c - 1) as usize].saturating_neg(),
                };
            }
        }
        let rows =
            std::array::from_fn(|empties| weight_set(empties as u32, phases, parity) * PHASE_SIZE);
        PatternWeights {
            phases,
            parity,
            classes,
            table,
            rows,
            bias,
            models: None,
        }
    }

    /// These weights with `models` as their search models (`None`: none).
    #[must_use]
    pub fn with_models(mut self, models: Option<SearchModels>) -> PatternWeights {
        self.models = models;
        self
    }

    /// The search models fitted for these weights, if the file had them.
    #[must_use]
    pub fn models(&self) -> Option<&SearchModels> {
        self.models.as_ref()
    }

    /// The same evaluation with every phase split by the parity of the
    /// empties (both halves start equal), as a start for a fit that
    /// tells the parities apart. Weights already split are returned as
    /// they are.
    #[must_use]
    pub fn split_by_parity(&self) -> PatternWeights {
        if self.parity {
            return self.clone();
        }
        let classes = self
            .classes
            .iter()
            .flat_map(|c| [c.clone(), c.clone()])
            .collect();
        PatternWeights::with_layout(classes, self.bias, true).with_models(self.models)
    }

    /// The same evaluation over `bands` bands of the game (split by parity
    /// as these are), each set's values interpolated linearly between the
    /// two sets of these weights (of the same parity) whose centres, the
    /// mean number of empties they cover, lie on either side of its own
    /// centre; beyond the first and last centres the nearest set's values.
    /// Finer bands this way take out the steps of a banded evaluation
    /// between one band and the next without a fit. Bias and search models
    /// are kept.
    ///
    /// # Panics
    /// If `bands` is 0 or more than 60 (30 when split by parity).
    #[must_use]
    pub fn spread(&self, bands: usize) -> PatternWeights {
        let sets = if self.parity { 2 * bands } else { bands };
        assert!((1..=60).contains(&sets), "1 to 60 weight sets");
        let ours = set_centres(self.phases, self.parity);
        let theirs = set_centres(sets, self.parity);
        let classes = theirs
            .iter()
            .enumerate()
            .map(|(s, &centre)| {
                // The sets of this one's parity, their centres decreasing.
                let same: Vec<(usize, f64)> = ours
                    .iter()
                    .copied()
                    .enumerate()
                    .filter(|&(k, _)| !self.parity || k % 2 == s % 2)
                    .collect();
                let (first, last) = (same[0], same[same.len() - 1]);
                let (a, b, t) = if centre >= first.1 {
                    (first.0, first.0, 0.0)
                } else if centre <= last.1 {
                    (last.0, last.0, 0.0)
                } else {
                    let w = same
                        .windows(2)
                        .find(|w| centre <= w[0].1 && centre >= w[1].1)
                        .expect("a centre between the first and the last");
                    (w[0].0, w[1].0, (w[0].1 - centre) / (w[0].1 - w[1].1))
                };
                self.classes[a]
                    .iter()
                    .zip(&self.classes[b])
                    .map(|(&x, &y)| ((1.0 - t) * f64::from(x) + t * f64::from(y)).round() as i16)
                    .collect()
            })
            .collect();
        PatternWeights::with_layout(classes, self.bias, self.parity).with_models(self.models)
    }

    /// Whether the phases are split by the parity of the empties.
    #[must_use]
    pub fn parity(&self) -> bool {
        self.parity
    }

    /// Bands of the game: the phases, or half of them when split by parity.
    #[must_use]
    pub fn bands(&self) -> usize {
        if self.parity {
            self.phases / 2
        } else {
            self.phases
        }
    }

    /// The side to move's bias per number of empties (hundredths of a disc).
    #[must_use]
    pub fn bias(&self) -> &[i16; BIAS_SLOTS] {
        &self.bias
    }

    /// Number of game phases.
    #[must_use]
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// Per phase, the value of each class.
    #[must_use]
    pub fn classes(&self) -> &[Vec<i16>] {
        &self.classes
    }

    /// The value of (`p`, `o`) for the side to move `p` on 8×8, in hundredths
    /// of a disc.
    #[inline]
    #[must_use]
    pub fn eval(&self, p: u64, o: u64) -> i32 {
        let row = self.phase_row(p, o);
        let f: [u32; FEATURES] = features(p, o);
        let mut v = self.bias_of(p, o);
        for i in f {
            v += i32::from(row[i as usize]);
        }
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// [`PatternWeights::eval`] with the pattern configurations of (`p`, `o`)
    /// already at hand, kept up to date by the search.
    #[inline(always)]
    #[must_use]
    pub(crate) fn eval_features<K: Kernels>(&self, k: K, f: &Features, p: u64, o: u64) -> i32 {
        let row = self.phase_row(p, o);
        let mut v = pattern_sum(row, f.indices());
        if f.swapped() {
            v = -v;
        }
        v += self.bias_of(p, o);
        for i in global_features(k, p, o) {
            v += i32::from(row[i as usize]);
        }
        v.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The bias of (`p`, `o`)'s number of empties.
    #[inline(always)]
    fn bias_of(&self, p: u64, o: u64) -> i32 {
        let empties = (64 - (p | o).count_ones()) as usize;
        i32::from(self.bias[empties.min(BIAS_SLOTS - 1)])
    }

    /// The flat weight table of the phase of (`p`, `o`), and the
    /// [`ROW_SLACK`] entries after it.
    #[inline(always)]
    fn phase_row(&self, p: u64, o: u64) -> &[i16; ROW_LEN] {
        let empties = (64 - (p | o).count_ones()) as usize;
        self.table[self.rows[empties]..]
            .first_chunk()
            .expect("every phase's row is followed by ROW_SLACK entries")
    }

    /// The weights as a file (see the module docs).
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.bytes_with(class_map().1)
    }

    /// The file of the first `classes` classes of each phase (fewer than all
    /// only to write the files of older pattern sets in tests).
    fn bytes_with(&self, classes: usize) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        // Weights without models stay in the oldest version that holds
        // them (2, or 3 when split by parity), which older builds read.
        let version: u16 = match (&self.models, self.parity) {
            (Some(_), _) => VERSION,
            (None, true) => 3,
            (None, false) => 2,
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.phases as u16).to_le_bytes());
        out.extend_from_slice(&(classes as u32).to_le_bytes());
        if version >= 3 {
            out.push(u8::from(self.parity));
        }
        for values in self.classes.iter().map(|v| &v[..classes]) {
            let mut i = 0;
            while i < values.len() {
                let v = values[i];
                put_varint(&mut out, zigzag(v));
                i += 1;
                if v == 0 {
                    let run = values[i..].iter().take_while(|&&x| x == 0).count();
                    put_varint(&mut out, run as u64);
                    i += run;
                }
            }
        }
        for &b in &self.bias {
            put_varint(&mut out, zigzag(b));
        }
        if let Some(m) = &self.models {
            for model in m.midgame.iter().flatten().chain(&m.endcut) {
                for x in [model.a, model.b, model.sigma] {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// [`WeightsError`] when the bytes are not a whole, undamaged weights file
    /// of this version and pattern set.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < 20 || &bytes[..4] != MAGIC {
            return Err(WeightsError::BadMagic);
        }
        let version = u16::from_le_bytes([bytes[4], bytes[5]]);
        if !(1..=VERSION).contains(&version) {
            return Err(WeightsError::Version(version));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(sum.try_into().expect("eight bytes"));
        if fnv1a(body) != sum {
            return Err(WeightsError::Checksum);
        }
        let phases = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
        let found = u32::from_le_bytes(bytes[8..12].try_into().expect("four bytes")) as usize;
        let expected = class_map().1;
        // Files made before the per-side count features hold their classes
        // less; those weights are zero.
        let older = expected - COUNT_CLASSES;
        if found != expected && found != older {
            return Err(WeightsError::Classes { found, expected });
        }
        if phases == 0 || phases > 60 {
            return Err(WeightsError::Malformed("phase count out of range"));
        }
        let mut r = Reader {
            bytes: &body[12..],
            at: 0,
        };
        let parity = if version >= 3 {
            match r.byte()? {
                0 => false,
                1 if phases.is_multiple_of(2) => true,
                1 => {
                    return Err(WeightsError::Malformed(
                        "parity layout with an odd phase count",
                    ));
                }
                _ => return Err(WeightsError::Malformed("unknown phase layout")),
            }
        } else {
            false
        };
        let mut classes = Vec::with_capacity(phases);
        for _ in 0..phases {
            let mut values = Vec::with_capacity(expected);
            while values.len() < found {
                let v = unzigzag(r.varint()?)?;
                values.push(v);
                if v == 0 {
                    let run = r.varint()? as usize;
                    if values.len() + run > found {
                        return Err(WeightsError::Malformed("zero run past the end of a phase"));
                    }
                    values.resize(values.len() + run, 0);
                }
            }
            values.resize(expected, 0);
            classes.push(values);
        }
        let mut bias = [0i16; BIAS_SLOTS];
        if version >= 2 {
            for b in &mut bias {
                *b = unzigzag(r.varint()?)?;
            }
        }
        let models = if version >= 4 {
            Some(read_models(&mut r)?)
        } else {
            None
        };
        if r.at != r.bytes.len() {
            return Err(WeightsError::Malformed("trailing bytes"));
        }
        Ok(PatternWeights::with_layout(classes, bias, parity).with_models(models))
    }

    /// Reads a weights file from disk.
    ///
    /// # Errors
    /// [`WeightsError::Io`] when the file cannot be read, otherwise as
    /// [`PatternWeights::from_bytes`].
    pub fn read(path: &std::path::Path) -> Result<PatternWeights, WeightsError> {
        let bytes = std::fs::read(path).map_err(Arc::new)?;
        PatternWeights::from_bytes(&bytes)
    }

    /// The weights shipped in the binary, decoded once.
    ///
    /// # Errors
    /// Why the shipped file cannot be used (only if the build embedded a
    /// damaged file).
    pub fn shipped() -> Result<Arc<PatternWeights>, WeightsError> {
        static CELL: OnceLock<Result<Arc<PatternWeights>, WeightsError>> = OnceLock::new();
        CELL.get_or_init(|| PatternWeights::from_bytes(SHIPPED).map(Arc::new))
            .clone()
    }
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights {{ phases: {}, parity: {} }}",
            self.phases, self.parity
        )
    }
}

/// The search models of a version 4 file (see the module docs).
fn read_models(r: &mut Reader) -> Result<SearchModels, WeightsError> {
    let mut model = || -> Result<Model, WeightsError> {
        let mut x = [0f64; 3];
        for v in &mut x {
            let mut bytes = [0u8; 8];
            for b in &mut bytes {
                *b = r.byte()?;
            }
            *v = f64::from_le_bytes(bytes);
        }
        let [a, b, sigma] = x;
        if !(a.is_finite() && a > 0.0 && b.is_finite() && sigma.is_finite() && sigma > 0.0) {
            return Err(WeightsError::Malformed("a search model out of range"));
        }
        Ok(Model { a, b, sigma })
    };
    let mut midgame = [[Model {
        a: 1.0,
        b: 0.0,
        sigma: 1.0,
    }; FIT_DEPTHS]; 3];
    for m in midgame.iter_mut().flatten() {
        *m = model()?;
    }
    Ok(SearchModels {
        midgame,
        endcut: [model()?, model()?],
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, WeightsError> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or(WeightsError::Malformed("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, WeightsError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WeightsError::Malformed("varint too long"))
    }
}

fn zigzag(v: i16) -> u64 {
    let v = i64::from(v);
    ((v << 1) ^ (v >> 63)) as u64
}

fn unzigzag(u: u64) -> Result<i16, WeightsError> {
    let v = ((u >> 1) as i64) ^ -((u & 1) as i64);
    i16::try_from(v).map_err(|_| WeightsError::Malformed("weight out of range"))
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// FNV-1a, 64 bits.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Per weight set of a layout of `sets` sets, the mean number of empties
/// (0 to 60) it covers.
fn set_centres(sets: usize, parity: bool) -> Vec<f64> {
    let mut sum = vec![(0.0, 0.0); sets];
    for e in 0..=60u32 {
        let s = &mut sum[weight_set(e, sets, parity)];
        s.0 += f64::from(e);
        s.1 += 1.0;
    }
    sum.iter().map(|&(e, n)| e / n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(phases: usize, seed: u64) -> PatternWeights {
        let count = class_map().1;
        let mut rng = crate::random::seeded(seed);
        let classes = (0..phases)
            .map(|_| {
                (0..count)
                    .map(|_| {
                        let x = crate::random::next(&mut rng);
                        // Mostly zeros, like rarely seen configurations.
                        if x.is_multiple_of(3) {
                            (x >> 20) as i16
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        PatternWeights::from_classes(classes)
    }

    #[test]
    fn round_trip() {
        let w = sample(3, 7);
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), w);
        let mut bias = [0i16; BIAS_SLOTS];
        for (e, b) in bias.iter_mut().enumerate() {
            *b = (e as i16 - 30) * 7;
        }
        let w = PatternWeights::with_bias(w.classes().to_vec(), bias);
        let back = PatternWeights::from_bytes(&w.to_bytes()).unwrap();
        assert_eq!(back.bias(), &bias);
        assert_eq!(back, w);
    }

    /// A version 1 file (no bias section) still loads, with no bias.
    #[test]
    fn version_one_files_load_without_a_bias() {
        let w = sample(2, 11);
        let v2 = w.to_bytes();
        // Version 1: the same bytes without the 61 one-byte zero biases.
        let mut v1 = v2[..v2.len() - 8 - BIAS_SLOTS].to_vec();
        v1[4] = 1;
        let sum = fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let back = PatternWeights::from_bytes(&v1).expect("a version 1 file loads");
        assert_eq!(back, w);
        assert_eq!(back.bias(), &[0; BIAS_SLOTS]);
    }

    /// The bias is added for the side to move: the two sides' values sum to
    /// twice the bias of the position's number of empties.
    #[test]
    fn the_bias_is_added_for_the_side_to_move() {
        // Small pattern weights, so no sum reaches the clamp.
        let small: Vec<Vec<i16>> = sample(1, 3)
            .classes()
            .iter()
            .map(|v| v.iter().map(|&x| x % 50).collect())
            .collect();
        let (p, o) = (0x0000_0008_1000_0007u64, 0x0000_0010_0800_0000u64);
        let empties = 64 - (p | o).count_ones() as usize;
        let mut bias = [0i16; BIAS_SLOTS];
        bias[empties] = 150;
        let w = PatternWeights::with_bias(small.clone(), bias);
        let free = PatternWeights::from_classes(small);
        assert_eq!(free.eval(p, o) + free.eval(o, p), 0);
        assert_eq!(w.eval(p, o) + w.eval(o, p), 300);
        assert_eq!(w.eval(p, o), free.eval(p, o) + 150);
        let q = p | 1 << 60;
        assert_eq!(w.eval(q, o), free.eval(q, o), "another number of empties");
    }

    #[test]
    fn corruption_is_detected() {
        let bytes = sample(2, 9).to_bytes();
        for at in [0, 5, 13, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(PatternWeights::from_bytes(&bad).is_err(), "flip at {at}");
        }
        for len in [0, 10, bytes.len() - 1] {
            assert!(PatternWeights::from_bytes(&bytes[..len]).is_err());
        }
        let mut v5 = bytes.clone();
        v5[4] = 5;
        assert!(matches!(
            PatternWeights::from_bytes(&v5),
            Err(WeightsError::Version(5))
        ));
        // A parity layout byte other than 0 or 1, checksum made good.
        let split = sample(2, 9).split_by_parity().to_bytes();
        let mut bad = split[..split.len() - 8].to_vec();
        bad[12] = 2;
        let sum = fnv1a(&bad);
        bad.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            PatternWeights::from_bytes(&bad),
            Err(WeightsError::Malformed(_))
        ));
    }

    fn models(x: f64) -> SearchModels {
        let m = |k: f64| Model {
            a: 1.0 + k / 100.0,
            b: k - 3.5,
            sigma: 100.0 + k * x,
        };
        let mut midgame = [[m(0.0); FIT_DEPTHS]; 3];
        for (i, cell) in midgame.iter_mut().flatten().enumerate() {
            *cell = m(i as f64);
        }
        SearchModels {
            midgame,
            endcut: [m(30.0), m(31.0)],
        }
    }

    /// Search models round-trip (as version 4, unsplit or split) and are
    /// checked: a model with a slope or σ that is not positive is refused.
    #[test]
    fn search_models_round_trip_and_are_checked() {
        for w in [sample(2, 5), sample(2, 5).split_by_parity()] {
            let with = w.clone().with_models(Some(models(1.5)));
            let bytes = with.to_bytes();
            assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 4);
            let back = PatternWeights::from_bytes(&bytes).unwrap();
            assert_eq!(back, with);
            assert_eq!(back.models(), Some(&models(1.5)));
            // The same weights without models are the older version.
            assert!(
                PatternWeights::from_bytes(&w.to_bytes())
                    .unwrap()
                    .models()
                    .is_none()
            );
        }
        let mut bad = models(1.5);
        bad.midgame[1][2].sigma = -1.0;
        let bytes = sample(1, 5).with_models(Some(bad)).to_bytes();
        assert!(matches!(
            PatternWeights::from_bytes(&bytes),
            Err(WeightsError::Malformed(_))
        ));
    }

    /// A file made before the per-side count features (their classes left
    /// out) loads, those weights zero.
    #[test]
    fn files_without_the_count_classes_load_with_them_zero() {
        let (_, count) = class_map();
        let older = count - COUNT_CLASSES;
        let classes: Vec<Vec<i16>> = sample(2, 7)
            .classes()
            .iter()
            .map(|c| {
                let mut c = c[..older].to_vec();
                c.resize(*count, 0);
                c
            })
            .collect();
        let w = PatternWeights::from_classes(classes);
        let back = PatternWeights::from_bytes(&w.bytes_with(older)).expect("an older file loads");
        assert_eq!(back, w);
        assert!(PatternWeights::from_bytes(&w.bytes_with(older - 1)).is_err());
    }

    /// Spreading weights over finer bands keeps a set whose centre is one
    /// of the original centres, puts every other value between those of
    /// the two nearest original sets (of the same parity) in the right
    /// proportion, and spreading to the same bands changes nothing.
    #[test]
    fn spread_weights_interpolate_between_the_centres_of_the_bands() {
        for parity in [false, true] {
            let w = if parity {
                sample(3, 5).split_by_parity()
            } else {
                sample(4, 5)
            };
            assert_eq!(w.spread(w.bands()), w);
            let bands = if parity { 30 } else { 60 };
            let fine = w.spread(bands);
            assert_eq!(fine.bands(), bands);
            assert_eq!(fine.parity(), parity);
            let (ours, theirs) = (
                set_centres(w.phases(), parity),
                set_centres(fine.phases(), parity),
            );
            for (s, &c) in theirs.iter().enumerate() {
                let same: Vec<usize> = (0..w.phases())
                    .filter(|k| !parity || k % 2 == s % 2)
                    .collect();
                if let Some(&k) = same.iter().find(|&&k| (ours[k] - c).abs() < 1e-9) {
                    assert_eq!(fine.classes()[s], w.classes()[k], "set {s}");
                    continue;
                }
                let a = same.iter().rev().find(|&&k| ours[k] > c);
                let b = same.iter().find(|&&k| ours[k] < c);
                let (a, b) = match (a, b) {
                    (Some(&a), Some(&b)) => (a, b),
                    (Some(&k), None) | (None, Some(&k)) => (k, k),
                    (None, None) => unreachable!("at least one set"),
                };
                let t = if a == b {
                    0.0
                } else {
                    (ours[a] - c) / (ours[a] - ours[b])
                };
                for ((&v, &x), &y) in fine.classes()[s]
                    .iter()
                    .zip(&w.classes()[a])
                    .zip(&w.classes()[b])
                {
                    let want = (1.0 - t) * f64::from(x) + t * f64::from(y);
                    assert!(
                        (f64::from(v) - want).abs() <= 0.5,
                        "set {s}: {v} for {want}"
                    );
                }
            }
            assert_eq!(fine.bias(), w.bias());
            let back = PatternWeights::from_bytes(&fine.to_bytes()).unwrap();
            assert_eq!(back, fine);
        }
    }

    /// Weights split by parity round-trip (as version 3), evaluate exactly
    /// as the weights they were split from, and then use the set of each
    /// parity: changing one parity's set changes the value of those
    /// positions only.
    #[test]
    fn parity_split_weights_keep_their_values_until_fitted_apart() {
        let w = sample(3, 21);
        let split = w.split_by_parity();
        assert_eq!(split.phases(), 6);
        assert!(split.parity());
        let bytes = split.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 3);
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), split);
        assert_eq!(u16::from_le_bytes([w.to_bytes()[4], w.to_bytes()[5]]), 2);
        let mut rng = crate::random::seeded(4);
        let mut positions = Vec::new();
        let mut p = crate::rules::Position::initial(crate::rules::BoardSize::Eight);
        while !p.is_game_over() {
            positions.push((p.player(), p.opponent()));
            let list = p.moves_list();
            let pick = crate::random::next(&mut rng) as usize % list.len();
            p = p.play_unchecked(list[pick]);
        }
        for &(p, o) in &positions {
            assert_eq!(split.eval(p, o), w.eval(p, o));
        }
        // Zero the odd-parity sets: even positions keep their values.
        let classes: Vec<Vec<i16>> = split
            .classes()
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i % 2 == 1 {
                    vec![0; c.len()]
                } else {
                    c.clone()
                }
            })
            .collect();
        let apart = PatternWeights::with_layout(classes, *split.bias(), true);
        let mut odd_changed = 0;
        for &(p, o) in &positions {
            let empties = 64 - (p | o).count_ones();
            if empties % 2 == 0 {
                assert_eq!(apart.eval(p, o), w.eval(p, o));
            } else {
                assert_eq!(apart.eval(p, o), 0, "odd: only the zero set counts");
                odd_changed += usize::from(w.eval(p, o) != 0);
            }
        }
        assert!(odd_changed > 0);
    }

    #[test]
    fn shipped_weights_load() {
        let w = PatternWeights::shipped().expect("the shipped weights load");
        assert!(w.phases() >= 1);
        assert!(
            w.models().is_some(),
            "the shipped weights carry their search models"
        );
    }
}
