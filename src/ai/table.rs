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

use super::step::Window;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

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
    /// `depth`, selectivity `sel` and window `w`.
    #[inline]
    pub fn cutoff(&self, depth: u8, sel: u8, w: Window) -> Option<i32> {
        if self.depth < depth || self.selectivity > sel {
            return None;
        }
        match self.bound {
            Bound::Exact => Some(self.score),
            Bound::Lower if self.score >= w.beta => Some(self.score),
            Bound::Upper if self.score <= w.alpha => Some(self.score),
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
    /// Whether anything was stored since the table was made or cleared.
    used: AtomicBool,
}

impl Table {
    /// A table of at most about `mb` MiB (at least one bucket). When the
    /// system cannot provide that much, the largest smaller power of two it
    /// can ([`Table::megabytes`] tells the size).
    ///
    /// # Panics
    /// When not even a 1 MiB table can be allocated.
    pub fn new(mb: usize) -> Table {
        let bytes = mb.clamp(1, usize::MAX >> 21) << 20;
        let mut entries = BUCKET;
        while entries * 2 * 16 <= bytes {
            entries *= 2;
        }
        loop {
            if let Some(slots) = Slots::new(entries) {
                return Table {
                    slots,
                    mask: entries - BUCKET,
                    generation: 0,
                    used: AtomicBool::new(false),
                };
            }
            assert!(
                entries * 16 > 1 << 20,
                "cannot allocate a 1 MiB transposition table"
            );
            entries /= 2;
        }
    }

    /// Forgets everything. A table nothing was stored in since it was made
    /// or cleared is left alone, so that clearing a new table touches none of
    /// its pages.
    pub fn clear(&mut self) {
        if self.used.swap(false, Ordering::Relaxed) {
            for s in self.slots.iter() {
                s[0].store(0, Ordering::Relaxed);
                s[1].store(0, Ordering::Relaxed);
            }
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

    /// Asks the processor to bring `key`'s bucket into its cache ahead of a
    /// [`Table::probe`]: the search calls it for each child while ordering
    /// the moves, so the child's probe does not wait on memory. A hint only.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket = self.slots.as_ptr().wrapping_add(self.bucket(key));
            // SAFETY: a prefetch never faults and changes no memory, whatever
            // the address; this one is a bucket of the slots anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores for `key` the `score` a search at depth `depth` and
    /// selectivity `sel` returned within the window `w`, and its best move.
    #[inline]
    pub fn store(&self, key: u64, depth: u8, sel: u8, w: Window, score: i32, best: Option<u8>) {
        let bound = if score <= w.alpha {
            Bound::Upper
        } else if score >= w.beta {
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
                // A deeper exact result of the same position is worth more
                // than this one, whatever its bound or best move: keep it.
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
        if !self.used.load(Ordering::Relaxed) {
            self.used.store(true, Ordering::Relaxed);
        }
        let data = encode(score, depth, best, bound, sel, self.generation);
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

/// The table's memory: zeroed slots aligned on a cache line, so that a bucket
/// (64 bytes) never straddles two, and on Linux backed by huge pages where the
/// kernel allows it (random probes of a table otherwise miss the TLB on almost
/// every access).
///
/// The memory comes from `alloc_zeroed` with the allocator's basic alignment,
/// which the system allocator serves by `calloc`: a large table is fresh
/// zeroed pages that the kernel maps on first touch, so creating a table of
/// gigabytes takes no time and memory is committed only as it is used. Tables
/// up to [`EAGER_BYTES`] get huge pages and are touched at once, in order.
struct Slots {
    /// The allocation as returned by the allocator.
    raw: std::ptr::NonNull<u8>,
    /// The first slot: `raw` rounded up to a cache line.
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

/// Tables up to this size are backed by huge pages and touched when made (a
/// fraction of a second). Larger ones are left in small pages that are faulted
/// in as the search uses them, so that even a table of gigabytes is ready at
/// once (a huge page faulted in at random costs the zeroing of 2 MiB, which
/// makes the first searches of a lazily filled table crawl).
const EAGER_BYTES: usize = 256 << 20;

/// A cache line: the slots start on one.
const LINE: usize = 64;

/// A huge page: the span given the huge-page advice.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

impl Slots {
    /// The allocation for `len` slots: one cache line more than they need, at
    /// the alignment `calloc` guarantees.
    fn layout(len: usize) -> Option<std::alloc::Layout> {
        let bytes = len
            .checked_mul(std::mem::size_of::<[AtomicU64; 2]>())?
            .checked_add(LINE)?;
        std::alloc::Layout::from_size_align(bytes, 16).ok()
    }

    /// `len` zeroed slots, or `None` when the system cannot provide them.
    fn new(len: usize) -> Option<Slots> {
        let layout = Slots::layout(len)?;
        // SAFETY: the layout has a non-zero size.
        let raw = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = raw.as_ptr().align_offset(LINE);
        // SAFETY: `offset < LINE`, and the allocation has `LINE` spare bytes.
        let first = unsafe { raw.as_ptr().add(offset) };
        let ptr = std::ptr::NonNull::new(first.cast::<[AtomicU64; 2]>())?;
        let bytes = len * std::mem::size_of::<[AtomicU64; 2]>();
        if bytes <= EAGER_BYTES {
            #[cfg(target_os = "linux")]
            {
                // Advise huge pages on the whole huge pages inside the slots.
                let start = first.align_offset(HUGE_PAGE);
                if start < bytes {
                    let span = (bytes - start) / HUGE_PAGE * HUGE_PAGE;
                    if span > 0 {
                        // SAFETY: the range lies inside the allocation just
                        // made; the advice only changes how the kernel backs
                        // it. Failure is harmless.
                        unsafe {
                            libc::madvise(first.add(start).cast(), span, libc::MADV_HUGEPAGE);
                        }
                    }
                }
            }
            // SAFETY: the slots are `bytes` writable bytes of the allocation.
            // Touching them in order after the advice faults in huge pages.
            unsafe { std::ptr::write_bytes(first, 0, bytes) };
        }
        Some(Slots { raw, ptr, len })
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
        if let Some(layout) = Slots::layout(self.len) {
            // SAFETY: allocated in `new` with this very layout.
            unsafe { std::alloc::dealloc(self.raw.as_ptr(), layout) };
        }
    }
}

/// The largest table, in MiB, that any command accepts: half the machine's
/// physical memory (the rest is left to the system and other programs), or
/// 4096 where the memory size is unknown.
#[must_use]
pub fn max_hash_megabytes() -> usize {
    physical_memory()
        .map_or(4096, |bytes| (bytes / 2) >> 20)
        .max(1)
}

/// The machine's physical memory in bytes, where the system says.
fn physical_memory() -> Option<usize> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` only reads system configuration values.
        let (pages, page) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let (pages, page) = (usize::try_from(pages).ok()?, usize::try_from(page).ok()?);
        pages.checked_mul(page)
    }
    #[cfg(not(unix))]
    {
        None
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

    /// Resident memory of this process in bytes (Linux).
    #[cfg(target_os = "linux")]
    fn resident() -> usize {
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
        let pages: usize = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
        pages * 4096
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_large_table_takes_memory_only_as_it_is_used() {
        let before = resident();
        let mut t = Table::new(1024);
        assert_eq!(t.megabytes(), 1024);
        // A new game clears the table: nothing to clear yet.
        t.clear();
        let grown = resident().saturating_sub(before);
        assert!(
            grown < 256 << 20,
            "creating a 1 GiB table made {} MiB resident",
            grown >> 20
        );
        // Zeroed all the same: nothing found anywhere.
        for key in [0u64, 1, 0x9e37_79b9_7f4a_7c15, u64::MAX] {
            assert!(t.probe(key).is_none());
        }
        let k = hash(3, 4, 0);
        t.store(k, 9, 0, Window::new(-10, 10), 5, Some(3));
        assert_eq!(t.probe(k).unwrap().score, 5);
        t.clear();
        assert!(t.probe(k).is_none(), "clearing forgets");
    }

    #[test]
    fn the_hash_limit_is_at_least_one_megabyte() {
        assert!(max_hash_megabytes() >= 1);
    }

    #[test]
    fn store_and_probe() {
        let t = Table::new(1);
        let k = hash(1, 2, 0);
        t.store(k, 5, 0, Window::new(-10, 10), -300, Some(19));
        let e = t.probe(k).unwrap();
        assert_eq!(
            (e.score, e.depth, e.best, e.bound),
            (-300, 5, Some(19), Bound::Upper)
        );
        assert!(t.probe(hash(2, 1, 0)).is_none());
    }
}
