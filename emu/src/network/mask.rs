//! Sets of a router's virtual channels as bit masks: VC `vc` of port
//! `port` is bit `port * vcs + vc`, in `W` words. A router of up to 12 VCs
//! a port (every configuration of the defaults and of BookSim2's
//! reference) fits one word, so that a stage finds the VCs it may act on
//! with a few instructions whatever the port; wider routers take two or
//! five words (the same code, compiled for each width).

/// A set of VCs of one router.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct VcSet<const W: usize>(pub [u64; W]);

impl<const W: usize> VcSet<W> {
    /// No VC.
    pub const EMPTY: Self = VcSet([0; W]);

    /// The first `n` VCs.
    pub fn first_n(n: usize) -> Self {
        let mut s = Self::EMPTY;
        for i in 0..n {
            s.insert(i);
        }
        s
    }

    /// Whether it holds no VC.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// Adds VC `i`.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Removes VC `i`.
    #[inline]
    pub fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }

    /// Whether it holds VC `i`.
    #[inline]
    pub fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1 << (i % 64)) != 0
    }

    /// The VCs in both.
    #[inline]
    pub fn and(&self, other: &Self) -> Self {
        let mut s = *self;
        for (a, b) in s.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
        s
    }

    /// Takes out and returns the lowest VC.
    #[inline]
    pub fn pop(&mut self) -> Option<usize> {
        for (k, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let b = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(k * 64 + b);
            }
        }
        None
    }

    /// `len` (at most 64) consecutive VCs from `start`, as the low bits of
    /// a word.
    #[inline]
    pub fn bits(&self, start: usize, len: usize) -> u64 {
        let (k, b) = (start / 64, start % 64);
        let mut v = self.0[k] >> b;
        if b != 0 && k + 1 < W {
            v |= self.0[k + 1] << (64 - b);
        }
        if len == 64 { v } else { v & ((1 << len) - 1) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_of_every_width_agree_with_a_list() {
        fn check<const W: usize>(n: usize) {
            let members: Vec<usize> = (0..n).filter(|i| (i * 7 + 3) % 5 < 2).collect();
            let mut s = VcSet::<W>::EMPTY;
            for &i in &members {
                s.insert(i);
            }
            assert!(members.iter().all(|&i| s.contains(i)));
            for start in 0..n.saturating_sub(16) {
                let expect = (0..16)
                    .filter(|k| members.contains(&(start + k)))
                    .fold(0u64, |m, k| m | 1 << k);
                assert_eq!(s.bits(start, 16), expect, "{start}");
            }
            let mut got = Vec::new();
            let mut t = s;
            while let Some(i) = t.pop() {
                got.push(i);
            }
            assert_eq!(got, members);
            assert!(t.is_empty());
            let all = VcSet::<W>::first_n(n);
            assert_eq!(s.and(&all), s);
            s.remove(members[0]);
            assert!(!s.contains(members[0]));
        }
        check::<1>(60);
        check::<2>(125);
        check::<5>(320);
    }
}
