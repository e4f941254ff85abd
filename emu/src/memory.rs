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
                Some(b) if addr.is_multiple_of($n) => b.copy_from_slice(&value.to_le_bytes()),
                _ => return Err(Self::fault(addr, $n, Access::Store, len)),
            }
            if addr.wrapping_sub(self.code_base) < self.code_len {
                self.note_code_write(addr, $n);
            }
            Ok(())
        }
    };
}

impl Memory {
    /// `size` zero bytes.
    pub fn new(size: usize) -> Memory {
        let mut bytes = vec![0u8; size.max(FRESH_PAGES_BYTES)];
        bytes.truncate(size);
        Memory {
            bytes,
            code_base: 0,
            code_len: 0,
            code_written: None,
        }
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
    pub(crate) fn fast_parts(&mut self) -> (&mut [u8], u32, u32) {
        (&mut self.bytes, self.code_base, self.code_len)
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

    /// Copies `data` to `addr` (image loading; the caller checked the range).
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
}
