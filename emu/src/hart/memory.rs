//! A tile's local memory: `memory_bytes` bytes at addresses `0..memory_bytes`,
//! little-endian, with alignment and range checks that return faults.
//!
//! Allocation: a zeroed `Vec` (`calloc`) of fresh pages, which the OS maps
//! lazily, so a tile costs resident memory only for the pages its program
//! touches (the loaded image, the stacks and data it writes): 64 tiles of
//! 8 MiB reserve 512 MiB of address space but a small program makes only a
//! few MiB resident. "Fresh" needs care: glibc serves a large `calloc` with
//! its own mapping (zero pages, nothing to clear) only above its mmap
//! threshold, which it raises after a large block is freed (up to 32 MiB):
//! once a process has freed one tile memory (a second run, a test suite, a
//! fault replay, a large buffer of the assembler), the next 8 MiB would come
//! from the heap, where `calloc` clears every byte, which takes time and
//! makes every page resident. So the allocation asks for a capacity beyond
//! that ceiling ([`FRESH_PAGES_BYTES`]) and uses the first `size` bytes:
//! address space only, never touched.

use crate::fault::{Access, FaultCause};

/// log2 of the page size the undo log copies. 512 bytes: with 4 KiB pages,
/// copying pages at the first store after each checkpoint took 10-20% of
/// a 64-tile conjugate-gradient run (few words stored per page between
/// synchronization rounds); 256 bytes was no faster, and the per-page
/// generation table (4 bytes a page) stays 64 KiB for an 8 MiB tile.
pub const PAGE_SHIFT: u32 = 9;
const PAGE: usize = 1 << PAGE_SHIFT;

/// The undo log of an optimistic run: each page's content before its first
/// store since [`Memory::begin_undo`], so that [`Memory::rollback_undo`]
/// can put memory back as it was.
struct Undo {
    /// Whether stores are being logged.
    active: bool,
    /// The current generation; a page whose entry equals it is saved.
    generation: u32,
    /// Per page, the generation in which it was last saved.
    saved_in: Vec<u32>,
    /// Saved pages of this generation.
    saved: Vec<(u32, Box<[u8; PAGE]>)>,
    /// Buffers to reuse.
    // Boxed: the same buffers move between `saved` and here, never copied.
    #[allow(clippy::vec_box)]
    pool: Vec<Box<[u8; PAGE]>>,
}

/// The capacity a memory allocation asks for at least: above glibc's
/// highest dynamic mmap threshold (32 MiB on 64-bit hosts), so that the
/// allocation always gets fresh zero pages (see the module documentation).
pub const FRESH_PAGES_BYTES: usize = (32 << 20) + 4096;

/// One tile's memory.
pub struct Memory {
    /// `size` bytes, of a capacity of at least [`FRESH_PAGES_BYTES`] (never
    /// shrunk: that would copy).
    bytes: Vec<u8>,
    /// The predecoded text range: stores into it are noted so the tile can
    /// decode the written words again.
    code_base: u32,
    code_len: u32,
    /// Word-aligned range of text written since [`Memory::take_code_writes`].
    code_written: Option<(u32, u32)>,
    undo: Undo,
}

macro_rules! access {
    ($load:ident, $store:ident, $ty:ty, $n:literal) => {
        /// Loads a naturally aligned value.
        #[inline(always)]
        pub fn $load(&self, addr: u32) -> Result<$ty, FaultCause> {
            match self.bytes.get(addr as usize..addr as usize + $n) {
                Some(b) if addr.is_multiple_of($n) => Ok(<$ty>::from_le_bytes(
                    b.try_into().expect("the slice has the width"),
                )),
                _ => Err(Self::fault(addr, $n, Access::Load, self.bytes.len())),
            }
        }

        /// Stores a naturally aligned value.
        #[inline(always)]
        pub fn $store(&mut self, addr: u32, value: $ty) -> Result<(), FaultCause> {
            let len = self.bytes.len();
            match self.bytes.get_mut(addr as usize..addr as usize + $n) {
                Some(_) if addr.is_multiple_of($n) => {}
                _ => return Err(Self::fault(addr, $n, Access::Store, len)),
            }
            if self.undo.active {
                self.log_page(addr);
            }
            let a = addr as usize;
            self.bytes[a..a + $n].copy_from_slice(&value.to_le_bytes());
            if addr.wrapping_sub(self.code_base) < self.code_len {
                self.note_code_write(addr, $n);
            }
            Ok(())
        }
    };
}

/// A width of memory access (`u8`, `u16`, `u32`, `u64`): its loads and
/// stores, naturally aligned, and how a register value is truncated to it.
pub trait Width: Copy {
    /// Bytes.
    const BYTES: u8;
    /// Loads a value at `addr`.
    fn load(mem: &Memory, addr: u32) -> Result<Self, FaultCause>;
    /// Stores `value` at `addr`.
    fn store(mem: &mut Memory, addr: u32, value: Self) -> Result<(), FaultCause>;
    /// A register value truncated to the width.
    fn of_reg(v: u64) -> Self;
    /// The value, zero-extended.
    fn to_u64(self) -> u64;
}

macro_rules! width {
    ($ty:ty, $load:ident, $store:ident) => {
        impl Width for $ty {
            const BYTES: u8 = size_of::<$ty>() as u8;
            #[inline(always)]
            fn load(mem: &Memory, addr: u32) -> Result<$ty, FaultCause> {
                mem.$load(addr)
            }
            #[inline(always)]
            fn store(mem: &mut Memory, addr: u32, value: $ty) -> Result<(), FaultCause> {
                mem.$store(addr, value)
            }
            #[inline(always)]
            fn of_reg(v: u64) -> $ty {
                v as $ty
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

width!(u8, load_u8, store_u8);
width!(u16, load_u16, store_u16);
width!(u32, load_u32, store_u32);
width!(u64, load_u64, store_u64);

impl Memory {
    /// `size` zero bytes.
    pub fn new(size: usize) -> Memory {
        let mut bytes = vec![0u8; size.max(FRESH_PAGES_BYTES)];
        bytes.truncate(size);
        let pages = size.div_ceil(PAGE);
        Memory {
            bytes,
            code_base: 0,
            code_len: 0,
            code_written: None,
            undo: Undo {
                active: false,
                generation: 0,
                saved_in: vec![0; pages],
                saved: Vec::new(),
                pool: Vec::new(),
            },
        }
    }

    /// Starts logging: from now on a page's first store saves it.
    pub fn begin_undo(&mut self) {
        self.recycle_saved();
        let u = &mut self.undo;
        u.generation = u.generation.wrapping_add(1);
        if u.generation == 0 {
            // Wrapped: no stale entry may look current.
            u.saved_in.fill(0);
            u.generation = 1;
        }
        u.active = true;
    }

    /// Keeps what was stored since [`Memory::begin_undo`] and stops logging.
    pub fn commit_undo(&mut self) {
        self.recycle_saved();
        self.undo.active = false;
    }

    /// Puts back every page stored since [`Memory::begin_undo`] and stops
    /// logging; notes restored text as written (to decode it again).
    pub fn rollback_undo(&mut self) {
        let saved = std::mem::take(&mut self.undo.saved);
        for (page, data) in saved {
            let a = (page as usize) << PAGE_SHIFT;
            let n = PAGE.min(self.bytes.len() - a);
            self.bytes[a..a + n].copy_from_slice(&data[..n]);
            let (lo, hi) = (a as u32, (a + n) as u32);
            if lo < self.code_base.wrapping_add(self.code_len) && hi > self.code_base {
                let (lo, hi) = (
                    lo.max(self.code_base),
                    hi.min(self.code_base + self.code_len),
                );
                self.note_code_write(lo, hi - lo);
            }
            self.undo.pool.push(data);
        }
        self.undo.active = false;
    }

    /// Whether stores are being logged.
    pub fn undo_active(&self) -> bool {
        self.undo.active
    }

    /// Whether the page of `addr` was stored to since [`Memory::begin_undo`].
    pub fn stored_since_begin(&self, addr: u32) -> bool {
        self.undo.active
            && self.undo.saved_in.get((addr >> PAGE_SHIFT) as usize) == Some(&self.undo.generation)
    }

    /// Pages saved by the undo log.
    pub fn undo_pages(&self) -> usize {
        self.undo.saved.len()
    }

    fn recycle_saved(&mut self) {
        let u = &mut self.undo;
        u.pool.extend(u.saved.drain(..).map(|(_, d)| d));
    }

    /// Saves the page of `addr` if this generation has not yet.
    #[inline]
    fn log_page(&mut self, addr: u32) {
        let page = (addr >> PAGE_SHIFT) as usize;
        if self.undo.saved_in[page] != self.undo.generation {
            self.save_page(page);
        }
    }

    #[cold]
    fn save_page(&mut self, page: usize) {
        let a = page << PAGE_SHIFT;
        let n = PAGE.min(self.bytes.len() - a);
        let mut data = self.undo.pool.pop().unwrap_or_else(|| Box::new([0; PAGE]));
        data[..n].copy_from_slice(&self.bytes[a..a + n]);
        self.undo.saved.push((page as u32, data));
        self.undo.saved_in[page] = self.undo.generation;
    }

    /// Declares the predecoded text range.
    pub fn set_code_range(&mut self, base: u32, len: u32) {
        self.code_base = base;
        self.code_len = len;
    }

    #[cold]
    fn note_code_write(&mut self, addr: u32, width: u32) {
        let lo = addr & !3;
        let hi = (addr + width + 3) & !3;
        self.code_written = Some(match self.code_written {
            Some((l, h)) => (l.min(lo), h.max(hi)),
            None => (lo, hi),
        });
    }

    /// Whether a store wrote into the text since the last take.
    #[inline(always)]
    pub fn code_was_written(&self) -> bool {
        self.code_written.is_some()
    }

    /// The bytes, and the range whose stores are code writes (for the fast
    /// loop, which leaves such stores to the general path).
    #[inline]
    /// And, while stores are logged for undo, the per-page generations
    /// and the current one (see `FastEnv::undo`).
    #[allow(clippy::type_complexity)]
    pub(crate) fn fast_parts(&mut self) -> (&mut [u8], u32, u32, Option<(&[u32], u32)>) {
        let undo = self
            .undo
            .active
            .then_some((&self.undo.saved_in[..], self.undo.generation));
        (&mut self.bytes, self.code_base, self.code_len, undo)
    }

    /// The written text range, clearing it.
    pub fn take_code_writes(&mut self) -> Option<(u32, u32)> {
        self.code_written.take()
    }

    /// Size in bytes.
    #[inline]
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether the memory has no bytes (never, for a configured tile).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    #[cold]
    fn fault(addr: u32, width: u32, access: Access, len: usize) -> FaultCause {
        if addr & (width - 1) != 0 {
            FaultCause::Misaligned {
                access,
                addr,
                width,
            }
        } else {
            debug_assert!(addr as usize + width as usize > len);
            FaultCause::OutOfRange {
                access,
                addr,
                width,
            }
        }
    }

    access!(load_u8, store_u8, u8, 1);
    access!(load_u16, store_u16, u16, 2);
    access!(load_u32, store_u32, u32, 4);
    access!(load_u64, store_u64, u64, 8);

    /// The instruction word at `pc` (an access fault of kind fetch).
    #[inline]
    pub fn fetch(&self, pc: u32) -> Result<u32, FaultCause> {
        self.load_u32(pc).map_err(|c| c.with_access(Access::Fetch))
    }

    /// The bytes `addr..addr + len`, for host services (a load fault otherwise).
    pub fn slice(&self, addr: u32, len: u32) -> Result<&[u8], FaultCause> {
        let end = addr as u64 + len as u64;
        if end > self.bytes.len() as u64 {
            return Err(FaultCause::OutOfRange {
                access: Access::Load,
                addr: (self.bytes.len() as u64).max(addr as u64) as u32,
                width: 1,
            });
        }
        Ok(&self.bytes[addr as usize..end as usize])
    }

    /// The NUL-terminated string at `addr`, without the NUL.
    pub fn c_string(&self, addr: u32) -> Result<&[u8], FaultCause> {
        let start = addr as usize;
        if start >= self.bytes.len() {
            return Err(FaultCause::OutOfRange {
                access: Access::Load,
                addr,
                width: 1,
            });
        }
        match self.bytes[start..].iter().position(|&b| b == 0) {
            Some(n) => Ok(&self.bytes[start..start + n]),
            None => Err(FaultCause::OutOfRange {
                access: Access::Load,
                addr: self.bytes.len() as u32,
                width: 1,
            }),
        }
    }

    /// Copies `data` to `addr` (image loading; the caller checked the range;
    /// not logged for undo).
    pub fn write_bytes(&mut self, addr: u32, data: &[u8]) {
        let a = addr as usize;
        self.bytes[a..a + data.len()].copy_from_slice(data);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_endian_and_checks() {
        let mut m = Memory::new(64);
        m.store_u32(8, 0x1122_3344).unwrap();
        assert_eq!(m.load_u8(8).unwrap(), 0x44);
        assert_eq!(m.load_u16(10).unwrap(), 0x1122);
        assert_eq!(m.load_u64(8).unwrap(), 0x1122_3344);
        assert!(matches!(
            m.load_u32(6),
            Err(FaultCause::Misaligned { width: 4, .. })
        ));
        assert!(matches!(
            m.store_u16(64, 0),
            Err(FaultCause::OutOfRange {
                access: Access::Store,
                ..
            })
        ));
        assert!(matches!(
            m.load_u32(u32::MAX - 3),
            Err(FaultCause::OutOfRange { .. })
        ));
        assert!(matches!(
            m.fetch(62),
            Err(FaultCause::Misaligned {
                access: Access::Fetch,
                ..
            })
        ));
        m.write_bytes(20, b"hi\0");
        assert_eq!(m.c_string(20).unwrap(), b"hi");
        assert!(m.c_string(63).is_ok());
        m.store_u8(63, 1).unwrap();
        assert!(m.c_string(63).is_err());
        assert!(m.slice(60, 5).is_err());
    }

    #[test]
    fn undo_puts_back_what_stores_changed() {
        let mut m = Memory::new(3 * PAGE);
        m.store_u32(0, 1).unwrap();
        m.store_u32(PAGE as u32 + 8, 2).unwrap();
        m.begin_undo();
        assert!(!m.stored_since_begin(0));
        m.store_u32(0, 10).unwrap();
        m.store_u64(PAGE as u32 + 8, 20).unwrap();
        m.store_u8(2 * PAGE as u32 + 5, 30).unwrap();
        m.store_u32(0, 11).unwrap();
        assert_eq!(m.undo_pages(), 3, "each page saved once");
        assert!(m.stored_since_begin(4));
        m.rollback_undo();
        assert!(!m.undo_active());
        assert_eq!(m.load_u32(0).unwrap(), 1);
        assert_eq!(m.load_u64(PAGE as u32 + 8).unwrap(), 2);
        assert_eq!(m.load_u8(2 * PAGE as u32 + 5).unwrap(), 0);
        // Committed stores stay.
        m.begin_undo();
        m.store_u32(0, 5).unwrap();
        m.commit_undo();
        assert_eq!(m.load_u32(0).unwrap(), 5);
        m.begin_undo();
        m.rollback_undo();
        assert_eq!(m.load_u32(0).unwrap(), 5);
    }

    #[test]
    fn undo_of_text_is_noted_as_a_code_write() {
        let mut m = Memory::new(2 * PAGE);
        m.set_code_range(0x100, 0x40);
        m.begin_undo();
        // Outside the text but in its page: the rollback restores the text.
        m.store_u32(0x180, 7).unwrap();
        m.rollback_undo();
        assert_eq!(m.take_code_writes(), Some((0x100, 0x140)));
    }
}
