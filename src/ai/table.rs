//! The transposition table, shared by the search threads without locks.
//!
//! Each entry is two `AtomicU64`: the position's 64-bit hash XOR the data, and
//! the data (the "lockless hashing" trick of Hyatt and Mann: a torn write is
//! detected because the XOR no longer matches). Entries live in buckets of
//! four; a store replaces the entry of the same position, else the entry of
//! the least value, where value is depth plus a bonus for the current search
//! generation (older searches' entries go first). The table is cleared only on
//! request ([`Table::clear`]).
//!
//! Data layout (64 bits): score `i16` | depth `u8` | best move `u8` (64: none)
//! | bound kind 2 bits | selectivity 3 bits | generation 8 bits.

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The value is at most the score (fail-low).
    Upper,
    /// The value is at least the score (fail-high).
    Lower,
    /// The value is the score.
    Exact,
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// The stored score.
    pub score: i32,
    /// Search depth (plies; empties for exact solves).
    pub depth: u8,
    /// Best move square, if any.
    pub best: Option<u8>,
    /// Which side of the value `score` bounds.
    pub bound: Bound,
    /// Selectivity level the score was searched with (0: none).
    pub selectivity: u8,
}

impl Entry {
    /// A window cut: `Some(score)` when this entry settles a search at depth
    /// `depth`, selectivity `sel` and window (`alpha`, `beta`).
    #[inline]
    pub fn cutoff(&self, depth: u8, sel: u8, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth < depth || self.selectivity > sel {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= beta => Some(self.score),
            Bound::Upper if self.score <= alpha => Some(self.score),
            _ => None,
        }
    }
}

const BUCKET: usize = 4;
const NO_MOVE: u64 = 64;

/// A lock-free transposition table of a fixed power-of-two size.
#[derive(Debug)]
pub(crate) struct Table {
    slots: Slots,
    mask: usize,
    generation: u8,
}

impl Table {
    /// A table of at most about `mb` MiB (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let bytes = mb.max(1) << 20;
        let mut entries = 1usize;
        while entries * 2 * 16 <= bytes {
            entries *= 2;
        }
        entries = entries.max(BUCKET);
        let slots = Slots::new(entries);
        Table {
            slots,
            mask: entries - BUCKET,
            generation: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for s in self.slots.iter() {
            s[0].store(0, Ordering::Relaxed);
            s[1].store(0, Ordering::Relaxed);
        }
        self.generation = 0;
    }

    /// Starts a new search generation (older entries are replaced first).
    pub fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Size in MiB (rounded down).
    pub fn megabytes(&self) -> usize {
        (self.slots.len() * 16) >> 20
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        for s in &self.slots[b..b + BUCKET] {
            let data = s[1].load(Ordering::Relaxed);
            if s[0].load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores a search result for `key`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        depth: u8,
        sel: u8,
        alpha: i32,
        beta: i32,
        score: i32,
        best: Option<u8>,
    ) {
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let b = self.bucket(key);
        let bucket = &self.slots[b..b + BUCKET];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s[1].load(Ordering::Relaxed);
            if s[0].load(Ordering::Relaxed) ^ data == key {
                let old = decode(data);
                // Keep a deeper result's best move when this one has none.
                if old.depth > depth && old.bound == Bound::Exact {
                    return;
                }
                victim = i;
                break;
            }
            let value = if data == 0 {
                i32::MIN
            } else {
                let g = ((data >> 56) & 0xff) as u8;
                let d = i32::from(((data >> 16) & 0xff) as u8);
                d + if g == self.generation { 256 } else { 0 }
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let data = encode(score, depth, best, bound, sel, self.generation);
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

/// The table's memory: zeroed slots aligned on 2 MiB, so that a bucket (64
/// bytes) never straddles two cache lines, and on Linux backed by huge pages
/// where the kernel allows it (random probes of a large table otherwise miss
/// the TLB on almost every access).
struct Slots {
    ptr: std::ptr::NonNull<[AtomicU64; 2]>,
    len: usize,
}

// SAFETY: the slots are atomics, shared exactly like a `Vec<[AtomicU64; 2]>`.
unsafe impl Send for Slots {}
// SAFETY: as above; every access goes through the atomics.
unsafe impl Sync for Slots {}

impl std::fmt::Debug for Slots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Slots({})", self.len)
    }
}

/// Alignment of the table's memory (one huge page).
const SLOTS_ALIGN: usize = 2 << 20;

impl Slots {
    fn layout(len: usize) -> std::alloc::Layout {
        let bytes = len * std::mem::size_of::<[AtomicU64; 2]>();
        std::alloc::Layout::from_size_align(bytes, SLOTS_ALIGN.min(bytes.next_power_of_two()))
            .expect("table size fits the address space")
    }

    fn new(len: usize) -> Slots {
        let layout = Slots::layout(len);
        // SAFETY: the layout has a non-zero size (at least one bucket).
        let raw = unsafe { std::alloc::alloc(layout) };
        let Some(ptr) = std::ptr::NonNull::new(raw.cast::<[AtomicU64; 2]>()) else {
            std::alloc::handle_alloc_error(layout)
        };
        #[cfg(target_os = "linux")]
        if layout.size() >= SLOTS_ALIGN {
            // SAFETY: the range is the allocation just made; the advice only
            // changes how the kernel backs it. Failure is harmless.
            unsafe {
                libc::madvise(raw.cast(), layout.size(), libc::MADV_HUGEPAGE);
            }
        }
        // SAFETY: `raw` holds `layout.size()` writable bytes; all zero bits is
        // a valid `AtomicU64`. Zeroing after the advice lets the first touch
        // fault in huge pages.
        unsafe { std::ptr::write_bytes(raw, 0, layout.size()) };
        Slots { ptr, len }
    }
}

impl std::ops::Deref for Slots {
    type Target = [[AtomicU64; 2]];
    fn deref(&self) -> &Self::Target {
        // SAFETY: `ptr` points to `len` initialised slots that live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr().cast(), Slots::layout(self.len)) };
    }
}

fn encode(score: i32, depth: u8, best: Option<u8>, bound: Bound, sel: u8, generation: u8) -> u64 {
    let kind = match bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    u64::from(score as i16 as u16)
        | u64::from(depth) << 16
        | best.map_or(NO_MOVE, u64::from) << 24
        | kind << 32
        | u64::from(sel & 7) << 34
        | u64::from(generation) << 56
}

fn decode(data: u64) -> Entry {
    let best = ((data >> 24) & 0xff) as u8;
    Entry {
        score: i32::from(data as u16 as i16),
        depth: ((data >> 16) & 0xff) as u8,
        best: (best < 64).then_some(best),
        bound: match (data >> 32) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
        selectivity: ((data >> 34) & 7) as u8,
    }
}

/// The hash of a side-relative position, salted (variant, exact or estimated
/// scores) so that different kinds of results never mix.
#[inline(always)]
pub(crate) fn hash(p: u64, o: u64, salt: u64) -> u64 {
    #[inline(always)]
    fn mix(mut x: u64) -> u64 {
        x ^= x >> 32;
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
        x ^= x >> 32;
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
        x ^ (x >> 32)
    }
    mix(p ^ salt) ^ mix(o.rotate_left(17) ^ 0x9e37_79b9_7f4a_7c15).rotate_left(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let k = hash(1, 2, 0);
        t.store(k, 5, 0, -10, 10, -300, Some(19));
        let e = t.probe(k).unwrap();
        assert_eq!(
            (e.score, e.depth, e.best, e.bound),
            (-300, 5, Some(19), Bound::Upper)
        );
        assert!(t.probe(hash(2, 1, 0)).is_none());
    }
}
