//! The fast loop's memory accesses: a width of access ([`Words`]) on the
//! tile's memory as little-endian words, with no fault (the careful step
//! faults).

/// A width of memory access on the memory as little-endian words (at most
/// 2 GiB). A misaligned address or one outside memory gives `None`/`false`
/// (rotating an address moves its low bits to the top, beyond any index).
pub(super) trait Words: Sized {
    /// Loads the value at `addr`.
    ///
    /// Safety: `mem` points at `len` words.
    unsafe fn load(mem: *const [u8; 4], len: usize, addr: u32) -> Option<Self>;
    /// Stores `v` at `addr`; whether it did.
    ///
    /// Safety: as for `load`.
    unsafe fn store(mem: *mut [u8; 4], len: usize, addr: u32, v: Self) -> bool;
    /// A register value truncated to the width.
    fn of_reg(v: u64) -> Self;
}

impl Words for u8 {
    #[inline(always)]
    unsafe fn load(mem: *const [u8; 4], len: usize, addr: u32) -> Option<u8> {
        let i = (addr >> 2) as usize;
        // SAFETY: `i` is below `len`.
        (i < len).then(|| unsafe { (*mem.add(i))[addr as usize & 3] })
    }
    #[inline(always)]
    unsafe fn store(mem: *mut [u8; 4], len: usize, addr: u32, v: u8) -> bool {
        let i = (addr >> 2) as usize;
        if i >= len {
            return false;
        }
        // SAFETY: `i` is below `len`.
        unsafe { (*mem.add(i))[addr as usize & 3] = v };
        true
    }
    #[inline(always)]
    fn of_reg(v: u64) -> u8 {
        v as u8
    }
}

impl Words for u16 {
    #[inline(always)]
    unsafe fn load(mem: *const [u8; 4], len: usize, addr: u32) -> Option<u16> {
        let i = (addr.rotate_right(1) >> 1) as usize;
        let h = addr as usize & 2;
        // SAFETY: `i` is below `len`.
        (i < len).then(|| unsafe {
            let w = &*mem.add(i);
            u16::from_le_bytes([w[h], w[h + 1]])
        })
    }
    #[inline(always)]
    unsafe fn store(mem: *mut [u8; 4], len: usize, addr: u32, v: u16) -> bool {
        let i = (addr.rotate_right(1) >> 1) as usize;
        if i >= len {
            return false;
        }
        let h = addr as usize & 2;
        let [lo, hi] = v.to_le_bytes();
        // SAFETY: `i` is below `len`.
        unsafe {
            let w = &mut *mem.add(i);
            w[h] = lo;
            w[h + 1] = hi;
        }
        true
    }
    #[inline(always)]
    fn of_reg(v: u64) -> u16 {
        v as u16
    }
}

impl Words for u32 {
    #[inline(always)]
    unsafe fn load(mem: *const [u8; 4], len: usize, addr: u32) -> Option<u32> {
        let i = addr.rotate_right(2) as usize;
        // SAFETY: `i` is below `len`.
        (i < len).then(|| u32::from_le_bytes(unsafe { *mem.add(i) }))
    }
    #[inline(always)]
    unsafe fn store(mem: *mut [u8; 4], len: usize, addr: u32, v: u32) -> bool {
        let i = addr.rotate_right(2) as usize;
        if i >= len {
            return false;
        }
        // SAFETY: `i` is below `len`.
        unsafe { *mem.add(i) = v.to_le_bytes() };
        true
    }
    #[inline(always)]
    fn of_reg(v: u64) -> u32 {
        v as u32
    }
}

impl Words for u64 {
    #[inline(always)]
    unsafe fn load(mem: *const [u8; 4], len: usize, addr: u32) -> Option<u64> {
        let i = addr.rotate_right(3) as usize;
        // SAFETY: words `2i` and `2i + 1` are below `len`.
        (i < len / 2).then(|| unsafe {
            let lo = u32::from_le_bytes(*mem.add(2 * i));
            let hi = u32::from_le_bytes(*mem.add(2 * i + 1));
            lo as u64 | (hi as u64) << 32
        })
    }
    #[inline(always)]
    unsafe fn store(mem: *mut [u8; 4], len: usize, addr: u32, v: u64) -> bool {
        let i = addr.rotate_right(3) as usize;
        if i >= len / 2 {
            return false;
        }
        // SAFETY: words `2i` and `2i + 1` are below `len`.
        unsafe {
            *mem.add(2 * i) = (v as u32).to_le_bytes();
            *mem.add(2 * i + 1) = ((v >> 32) as u32).to_le_bytes();
        }
        true
    }
    #[inline(always)]
    fn of_reg(v: u64) -> u64 {
        v
    }
}
