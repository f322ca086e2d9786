//! Kernel sets: the move generator, and every hot function built on it,
//! compiled for several instruction-set levels in one binary, with the
//! level chosen when the program runs.
//!
//! A kernel set is a zero-sized token type implementing [`Kernels`]:
//!
//! * [`Portable`]: plain 64-bit code for any CPU (no x86 intrinsics; what
//!   aarch64 and older x86-64 CPUs run);
//! * [`Avx2`] (x86-64 only): the x86-64-v3 level, AVX2 with BMI1/2, LZCNT,
//!   POPCNT and FMA;
//! * [`Avx512`] (x86-64 only): the x86-64-v4 level, AVX2's plus AVX-512 F,
//!   VL, CD, BW and DQ.
//!
//! A token of [`Avx2`] or [`Avx512`] can only be had from [`KernelSet`]
//! once the running CPU has been seen to have the set's extensions, so
//! code holding one may run the set's instructions.
//!
//! The kernels alone are not enough: a build for a newer CPU is faster in
//! every function of the search, because the compiler uses POPCNT, TZCNT,
//! BMI2 and wider vectors throughout. So the recursive functions of perft
//! and of the search are *entries* of each set: trait methods compiled with
//! the set's `#[target_feature]`s, each calling one generic
//! `#[inline(always)]` body with its token, which recurses through the
//! entries again. Everything the body inlines is then compiled for the set.
//! [`kernel_sets!`] names the sets and their extensions once, for every list
//! of entries.
//!
//! Which set runs: [`KernelSet::detected`], the best the CPU has, unless the
//! `REVERSI_KERNELS` variable names another ([`KernelSet::from_env`]).

use super::movegen;
use std::fmt;

/// Calls `$entries!(path, [features…])` once per kernel set: the token type
/// and the `#[target_feature]` names its entries are compiled with (none
/// for the portable set). The sets' one list of extensions: detection
/// ([`KernelSet::detected`]) and every list of entries are made from it.
macro_rules! kernel_sets {
    ($entries:ident) => {
        $entries!($crate::rules::kernels::Portable, []);
        #[cfg(target_arch = "x86_64")]
        $entries!(
            $crate::rules::kernels::Avx2,
            ["popcnt", "lzcnt", "bmi1", "bmi2", "avx2", "fma"]
        );
        #[cfg(target_arch = "x86_64")]
        $entries!(
            $crate::rules::kernels::Avx512,
            [
                "popcnt", "lzcnt", "bmi1", "bmi2", "avx2", "fma", "avx512f", "avx512vl",
                "avx512cd", "avx512bw", "avx512dq"
            ]
        );
    };
}
pub(crate) use kernel_sets;

/// The item that follows the list of `#[target_feature]` names, compiled
/// with them: an entry of a kernel set (`entry! { [features…] unsafe fn … }`).
macro_rules! entry {
    ([$($feature:tt),*] $($item:tt)*) => {
        $(#[target_feature(enable = $feature)])*
        $($item)*
    };
}
pub(crate) use entry;

/// Runs `$body` with `$k` bound to the token of the [`KernelSet`]
/// `$set`: the body is compiled once per set, so generic code called from
/// it is monomorphised for each.
macro_rules! with_kernels {
    ($set:expr, $k:ident => $body:expr) => {
        match $set {
            $crate::rules::KernelSet::Portable($k) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::rules::KernelSet::Avx2($k) => $body,
            #[cfg(target_arch = "x86_64")]
            $crate::rules::KernelSet::Avx512($k) => $body,
        }
    };
}
pub(crate) use with_kernels;

mod sealed {
    /// Only this crate's kernel sets implement [`super::Kernels`].
    pub trait Sealed {}
}

/// One kernel set's move generation: [`movegen::moves`] and
/// [`movegen::flips`] for the set's instructions. Every set returns the
/// same values; only the speed differs.
pub trait Kernels: sealed::Sealed + Copy + Send + Sync + fmt::Debug + 'static {
    /// The empty squares where `p` may play against `o`, on the full 8×8
    /// grid, as [`movegen::moves`].
    fn moves(self, p: u64, o: u64) -> u64;

    /// The discs of `o` flipped when `p` plays on the empty square `sq`
    /// (0..64), as [`movegen::flips`].
    fn flips(self, sq: usize, p: u64, o: u64) -> u64;
}

/// The plain 64-bit kernels: [`movegen::moves_portable`] and
/// [`movegen::flips_portable`]. Runs on any CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Portable;

impl sealed::Sealed for Portable {}

impl Kernels for Portable {
    #[inline(always)]
    fn moves(self, p: u64, o: u64) -> u64 {
        movegen::moves_portable(p, o)
    }

    #[inline(always)]
    fn flips(self, sq: usize, p: u64, o: u64) -> u64 {
        movegen::flips_portable(sq, p, o)
    }
}

/// A kernel set of x86-64 vector kernels: its token type, whose value
/// exists only on a CPU that has the set's extensions
/// ([`KernelSet::detected`]), with its `moves` and `flips` kernels.
macro_rules! vector_set {
    ($(#[$doc:meta])* $set:ident, $moves:ident, $flips:ident) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $set(());

        #[cfg(target_arch = "x86_64")]
        impl sealed::Sealed for $set {}

        #[cfg(target_arch = "x86_64")]
        impl Kernels for $set {
            #[inline(always)]
            fn moves(self, p: u64, o: u64) -> u64 {
                // SAFETY: the token exists only on a CPU with the set's
                // extensions, which include the kernel's.
                unsafe { movegen::x86::$moves(p, o) }
            }

            #[inline(always)]
            fn flips(self, sq: usize, p: u64, o: u64) -> u64 {
                // SAFETY: as for `moves`.
                unsafe { movegen::x86::$flips(sq, p, o) }
            }
        }
    };
}

vector_set!(
    /// The AVX2 kernels (x86-64-v3).
    Avx2,
    moves_avx2,
    flips_avx2
);
vector_set!(
    /// The AVX-512 kernels (x86-64-v4): AVX2's `moves`, and a `flips`
    /// with AVX-512's per-lane leading-zero count.
    Avx512,
    moves_avx2,
    flips_avx512
);

/// Whether the running CPU has every extension a set is compiled with.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
trait Detect {
    fn is_detected() -> bool;
}

macro_rules! detect {
    ($set:path, [$($feature:tt),*]) => {
        impl Detect for $set {
            fn is_detected() -> bool {
                true $(&& std::arch::is_x86_feature_detected!($feature))*
            }
        }
    };
}
kernel_sets!(detect);

/// A kernel set the running CPU has, with its token: a value of this type
/// is the proof that the CPU can run the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KernelSet {
    /// [`Portable`].
    Portable(Portable),
    /// [`Avx2`].
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
    /// [`Avx512`].
    #[cfg(target_arch = "x86_64")]
    Avx512(Avx512),
}

/// The variable that forces a kernel set ([`KernelSet::from_env`]).
pub const KERNELS_VAR: &str = "REVERSI_KERNELS";

/// The names of the kernel sets, slowest first, whatever the target.
pub const KERNEL_SET_NAMES: [&str; 3] = ["portable", "avx2", "avx512"];

/// Why a name does not give a kernel set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelsError {
    /// The name is none of [`KERNEL_SET_NAMES`].
    #[error("unknown kernel set '{0}' (expected portable, avx2 or avx512)")]
    Unknown(String),
    /// The running CPU lacks an extension the set needs.
    #[error("this CPU cannot run the {0} kernel set (it has {1})")]
    Unavailable(&'static str, &'static str),
}

impl KernelSet {
    /// The best set the running CPU has.
    #[must_use]
    pub fn detected() -> KernelSet {
        KernelSet::available()
            .pop()
            .unwrap_or(KernelSet::Portable(Portable))
    }

    /// The sets the running CPU has, slowest first (the portable set always).
    #[must_use]
    pub fn available() -> Vec<KernelSet> {
        #[allow(unused_mut)]
        let mut sets = vec![KernelSet::Portable(Portable)];
        #[cfg(target_arch = "x86_64")]
        {
            if Avx2::is_detected() {
                sets.push(KernelSet::Avx2(Avx2(())));
            }
            if Avx512::is_detected() {
                sets.push(KernelSet::Avx512(Avx512(())));
            }
        }
        sets
    }

    /// The set named `name` (one of [`KERNEL_SET_NAMES`], any case).
    ///
    /// # Errors
    /// [`KernelsError::Unknown`] for another name,
    /// [`KernelsError::Unavailable`] when the running CPU lacks the set.
    pub fn named(name: &str) -> Result<KernelSet, KernelsError> {
        let name = name.trim().to_ascii_lowercase();
        let Some(&known) = KERNEL_SET_NAMES.iter().find(|&&n| n == name) else {
            return Err(KernelsError::Unknown(name));
        };
        KernelSet::available()
            .into_iter()
            .find(|s| s.name() == known)
            .ok_or_else(|| KernelsError::Unavailable(known, KernelSet::detected().name()))
    }

    /// The set `REVERSI_KERNELS` names, else (unset or empty) the best the
    /// CPU has.
    ///
    /// # Errors
    /// As [`KernelSet::named`] when the variable names no set this CPU has.
    pub fn from_env() -> Result<KernelSet, KernelsError> {
        KernelSet::from_var(std::env::var(KERNELS_VAR).ok().as_deref())
    }

    /// [`KernelSet::from_env`] given the variable's value.
    ///
    /// # Errors
    /// As [`KernelSet::named`].
    pub fn from_var(value: Option<&str>) -> Result<KernelSet, KernelsError> {
        match value.map(str::trim) {
            None | Some("") => Ok(KernelSet::detected()),
            Some(name) => KernelSet::named(name),
        }
    }

    /// [`KernelSet::from_env`], or the best set the CPU has when the
    /// variable names none it has (the command line refuses such a value
    /// at start, naming it).
    #[must_use]
    pub fn selected() -> KernelSet {
        KernelSet::from_env().unwrap_or_else(|_| KernelSet::detected())
    }

    /// The set's name, as [`KERNEL_SET_NAMES`].
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            KernelSet::Portable(_) => KERNEL_SET_NAMES[0],
            #[cfg(target_arch = "x86_64")]
            KernelSet::Avx2(_) => KERNEL_SET_NAMES[1],
            #[cfg(target_arch = "x86_64")]
            KernelSet::Avx512(_) => KERNEL_SET_NAMES[2],
        }
    }

    /// [`Kernels::moves`] of this set.
    #[must_use]
    pub fn moves(self, p: u64, o: u64) -> u64 {
        with_kernels!(self, k => k.moves(p, o))
    }

    /// [`Kernels::flips`] of this set.
    #[must_use]
    pub fn flips(self, sq: usize, p: u64, o: u64) -> u64 {
        with_kernels!(self, k => k.flips(sq, p, o))
    }
}

impl fmt::Display for KernelSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_portable_set_is_always_available_and_first() {
        let sets = KernelSet::available();
        assert_eq!(sets[0], KernelSet::Portable(Portable));
        assert_eq!(KernelSet::detected(), *sets.last().unwrap());
        for (set, name) in sets.iter().zip(KERNEL_SET_NAMES) {
            assert_eq!(set.name(), name);
        }
    }

    #[test]
    fn names_parse_and_unknown_or_missing_sets_are_refused() {
        assert_eq!(
            KernelSet::named(" Portable "),
            Ok(KernelSet::Portable(Portable))
        );
        assert_eq!(KernelSet::from_var(None), Ok(KernelSet::detected()));
        assert_eq!(KernelSet::from_var(Some("")), Ok(KernelSet::detected()));
        assert_eq!(
            KernelSet::from_var(Some("sse9")),
            Err(KernelsError::Unknown("sse9".into()))
        );
        let available = KernelSet::available();
        for name in KERNEL_SET_NAMES {
            match KernelSet::named(name) {
                Ok(set) => assert!(available.contains(&set) && set.name() == name),
                Err(e) => {
                    assert!(available.iter().all(|s| s.name() != name));
                    assert_eq!(
                        e,
                        KernelsError::Unavailable(name, KernelSet::detected().name())
                    );
                    assert!(e.to_string().contains(name), "{e}");
                }
            }
        }
    }
}
