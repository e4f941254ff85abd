//! Separable allocators built of round-robin arbiters, BookSim2's
//! `separable_input_first` and `separable_output_first`: the switch
//! allocator (input ports to output ports) and the virtual-channel
//! allocator (input VCs to output VCs).
//!
//! An arbiter grants the request whose key comes first in cyclic order from
//! its pointer, and its pointer moves past the granted key only when the
//! request wins both stages (a request that loses the second stage keeps
//! its priority). Input-first: each input arbiter picks one of its
//! requests, then each output arbiter picks one of the inputs that picked
//! it; output-first the other way round. The switch allocator's input
//! arbiters rank output ports and its output arbiters input ports; the VC
//! allocator's input arbiters (one per input VC) rank output VCs and its
//! output arbiters (one per output VC) rank input VCs. Requests and grants
//! are bitmasks and short lists: a cycle of a router costs a few dozen
//! instructions here.

use super::flit::PORTS;
use crate::config::AllocatorKind;

/// Distance of `key` after `pointer` in a cyclic order of `n` keys.
#[inline]
fn after(key: u16, pointer: u16, n: u16) -> u16 {
    if key >= pointer {
        key - pointer
    } else {
        key + n - pointer
    }
}

/// The key after `key` in a cyclic order of `n` keys.
#[inline]
fn next(key: u16, n: u16) -> u16 {
    if key + 1 == n { 0 } else { key + 1 }
}

/// The first bit of `mask` (of `PORTS` bits) at or after `from`, cyclically.
#[inline]
const fn first_from(mask: u8, from: u8) -> u8 {
    let high = mask & !((1u8 << from) - 1);
    if high != 0 {
        high.trailing_zeros() as u8
    } else {
        mask.trailing_zeros() as u8
    }
}

/// `FIRST[from][mask]`: [`first_from`] for every non-empty set of ports
/// and every pointer (entries 5-7 of a pointer, and mask 0, unused).
const FIRST: [[u8; 32]; 8] = {
    let mut t = [[0u8; 32]; 8];
    let mut from = 0;
    while from < PORTS {
        let mut mask = 1;
        while mask < 32 {
            t[from][mask as usize] = first_from(mask, from as u8);
            mask += 1;
        }
        from += 1;
    }
    t
};

/// The port after each port, cyclically (entries from `PORTS` on unused).
const NEXT_PORT: [u8; 8] = {
    let mut t = [0u8; 8];
    let mut p = 0;
    while p < PORTS {
        t[p] = if p + 1 == PORTS { 0 } else { (p + 1) as u8 };
        p += 1;
    }
    t
};

/// The arbiter's pick from the non-empty set of ports `mask` (below 32)
/// with pointer `from` (below `PORTS`), as an index.
#[inline(always)]
fn pick(mask: u32, from: u8) -> usize {
    FIRST[from as usize & 7][mask as usize & 31] as usize & 7
}

/// The switch allocator of a router: input ports to output ports.
#[derive(Clone, Debug)]
pub struct SwitchAllocator {
    kind: AllocatorKind,
    /// By port (8 entries, so that an index masked to 3 bits needs no
    /// check; the last three are never used).
    input_pointer: [u8; 8],
    output_pointer: [u8; 8],
}

impl SwitchAllocator {
    /// An allocator with every pointer at 0.
    pub fn new(kind: AllocatorKind) -> SwitchAllocator {
        SwitchAllocator {
            kind,
            input_pointer: [0; 8],
            output_pointer: [0; 8],
        }
    }

    /// What [`SwitchAllocator::allocate`] does when `i -> o` is the only
    /// request, in either kind: grants it and moves both pointers past it.
    #[inline]
    pub fn grant_single(&mut self, i: u8, o: u8) {
        let n = PORTS as u8;
        self.input_pointer[i as usize] = if o + 1 == n { 0 } else { o + 1 };
        self.output_pointer[o as usize] = if i + 1 == n { 0 } else { i + 1 };
    }

    /// [`SwitchAllocator::allocate`] with the requests as one matrix (the
    /// fast core's form): bit `i * PORTS + o` of `wanted` is set when input
    /// port `i` asks for output port `o`. The same grants in the same
    /// order, the same pointers after (`tests::matrix_form_is_allocate`
    /// compares the two). Input first, each arbiter's choice is one
    /// look-up in [`FIRST`] and only the outputs picked are visited.
    #[inline]
    pub fn allocate_matrix(&mut self, wanted: u32, grants: &mut [(u8, u8); PORTS]) -> usize {
        const ROW: u32 = (1 << PORTS) - 1;
        let mut count = 0;
        match self.kind {
            AllocatorKind::SeparableInputFirst => {
                // Per output, the inputs whose arbiter picked it; `outs`
                // says which entries were written.
                let mut picked_by = [0u8; 8];
                let mut outs = 0u8;
                for i in 0..PORTS {
                    let row = (wanted >> (i * PORTS)) & ROW;
                    if row != 0 {
                        let o = pick(row, self.input_pointer[i]);
                        let bit = 1u8 << o;
                        if outs & bit == 0 {
                            picked_by[o] = 0;
                        }
                        outs |= bit;
                        picked_by[o] |= 1 << i;
                    }
                }
                while outs != 0 {
                    let o = outs.trailing_zeros() as usize & 7;
                    outs &= outs - 1;
                    let i = pick(picked_by[o] as u32, self.output_pointer[o]);
                    self.input_pointer[i] = NEXT_PORT[o];
                    self.output_pointer[o] = NEXT_PORT[i];
                    grants[count] = (i as u8, o as u8);
                    count += 1;
                }
            }
            AllocatorKind::SeparableOutputFirst => {
                // Not the default: the matrix as rows, to `allocate`.
                let mut requests = [0u8; PORTS];
                for (i, r) in requests.iter_mut().enumerate() {
                    *r = ((wanted >> (i * PORTS)) & ROW) as u8;
                }
                count = self.allocate(&requests, grants);
            }
        }
        count
    }

    /// `requests[i]` has bit `o` set when input port `i` asks for output
    /// port `o`. Appends the grants `(input, output)` to `grants`, by
    /// output (input-first) or by input (output-first); returns how many.
    pub fn allocate(&mut self, requests: &[u8; PORTS], grants: &mut [(u8, u8); PORTS]) -> usize {
        let n = PORTS as u8;
        let wrap = |k: u8| if k + 1 == n { 0 } else { k + 1 };
        let mut count = 0;
        match self.kind {
            AllocatorKind::SeparableInputFirst => {
                // Per output, the inputs whose arbiter picked it.
                let mut picked_by = [0u8; PORTS];
                for (i, &req) in requests.iter().enumerate() {
                    if req != 0 {
                        let o = first_from(req, self.input_pointer[i]);
                        picked_by[o as usize] |= 1 << i;
                    }
                }
                for (o, &inputs) in picked_by.iter().enumerate() {
                    if inputs != 0 {
                        let i = first_from(inputs, self.output_pointer[o]);
                        self.input_pointer[i as usize] = wrap(o as u8);
                        self.output_pointer[o] = wrap(i);
                        grants[count] = (i, o as u8);
                        count += 1;
                    }
                }
            }
            AllocatorKind::SeparableOutputFirst => {
                let mut wanted_by = [0u8; PORTS];
                for (i, &req) in requests.iter().enumerate() {
                    for (o, w) in wanted_by.iter_mut().enumerate() {
                        if req & (1 << o) != 0 {
                            *w |= 1 << i;
                        }
                    }
                }
                // Per input, the outputs whose arbiter offered it.
                let mut offered = [0u8; PORTS];
                for (o, &inputs) in wanted_by.iter().enumerate() {
                    if inputs != 0 {
                        let i = first_from(inputs, self.output_pointer[o]);
                        offered[i as usize] |= 1 << o;
                    }
                }
                for (i, &outputs) in offered.iter().enumerate() {
                    if outputs != 0 {
                        let o = first_from(outputs, self.input_pointer[i]);
                        self.input_pointer[i] = wrap(o);
                        self.output_pointer[o as usize] = wrap(i as u8);
                        grants[count] = (i as u8, o);
                        count += 1;
                    }
                }
            }
        }
        count
    }
}

/// A request for an output VC: the input VC and its candidates, the free
/// output VCs `first + b` for each bit `b` of `mask`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VcRequest {
    /// Input VC (`port * vcs + vc`).
    pub input: u16,
    /// First output VC of the candidates' range.
    pub first: u16,
    /// Candidates.
    pub mask: u64,
}

/// The VC allocator of a router: input VCs to output VCs (`n` of each).
#[derive(Clone, Debug)]
pub struct VcAllocator {
    kind: AllocatorKind,
    n: u16,
    input_pointer: Vec<u16>,
    output_pointer: Vec<u16>,
    /// Scratch: (output, input) pairs of the first stage.
    picks: Vec<(u16, u16)>,
}

impl VcAllocator {
    /// An allocator of `n` input and `n` output VCs, every pointer at 0.
    pub fn new(kind: AllocatorKind, n: usize) -> VcAllocator {
        VcAllocator {
            kind,
            n: n as u16,
            input_pointer: vec![0; n],
            output_pointer: vec![0; n],
            picks: Vec::new(),
        }
    }

    /// Grants output VCs to requests (at most one per input, one per
    /// output); appends `(input, output)` to `grants`, by output
    /// (input-first) or by input (output-first). Each input appears in at
    /// most one request.
    pub fn allocate(&mut self, requests: &[VcRequest], grants: &mut Vec<(u16, u16)>) {
        if let [r] = requests {
            if let Some(o) = self.grant_single(r) {
                grants.push((r.input, o));
            }
            return;
        }
        self.allocate_by_arbiters(requests, grants);
    }

    /// What [`VcAllocator::allocate`] does when `r` is the only request, in
    /// either kind: its input takes the free output VC first from its
    /// pointer, unopposed, and both pointers move past the grant. Returns
    /// the output VC (None: `r` has no candidate).
    #[inline]
    pub fn grant_single(&mut self, r: &VcRequest) -> Option<u16> {
        // The candidates are `first + k`, in order from the pointer: those
        // at or after it, then from `first` (a pointer outside the
        // candidates' range puts them all in ascending order).
        if r.mask == 0 {
            return None;
        }
        let p = self.input_pointer[r.input as usize];
        let from = p.wrapping_sub(r.first);
        let later = if from < 64 {
            r.mask & !((1u64 << from) - 1)
        } else {
            0
        };
        let k = if later != 0 { later } else { r.mask }.trailing_zeros() as u16;
        let o = r.first + k;
        self.input_pointer[r.input as usize] = next(o, self.n);
        self.output_pointer[o as usize] = next(r.input, self.n);
        Some(o)
    }

    /// [`VcAllocator::allocate`] by its two stages of arbiters (what a
    /// single request's shortcut must equal).
    fn allocate_by_arbiters(&mut self, requests: &[VcRequest], grants: &mut Vec<(u16, u16)>) {
        let n = self.n;
        self.picks.clear();
        match self.kind {
            AllocatorKind::SeparableInputFirst => {
                for r in requests {
                    let p = self.input_pointer[r.input as usize];
                    let mut m = r.mask;
                    let mut best = (u16::MAX, 0);
                    while m != 0 {
                        let o = r.first + m.trailing_zeros() as u16;
                        m &= m - 1;
                        let d = after(o, p, n);
                        if d < best.0 {
                            best = (d, o);
                        }
                    }
                    if best.0 != u16::MAX {
                        self.picks.push((best.1, r.input));
                    }
                }
                self.picks.sort_unstable();
                let mut k = 0;
                while k < self.picks.len() {
                    let o = self.picks[k].0;
                    let p = self.output_pointer[o as usize];
                    let mut winner = self.picks[k].1;
                    k += 1;
                    while k < self.picks.len() && self.picks[k].0 == o {
                        let i = self.picks[k].1;
                        if after(i, p, n) < after(winner, p, n) {
                            winner = i;
                        }
                        k += 1;
                    }
                    self.input_pointer[winner as usize] = next(o, n);
                    self.output_pointer[o as usize] = next(winner, n);
                    grants.push((winner, o));
                }
            }
            AllocatorKind::SeparableOutputFirst => {
                // Every (output, input) wish, grouped by output.
                for r in requests {
                    let mut m = r.mask;
                    while m != 0 {
                        self.picks
                            .push((r.first + m.trailing_zeros() as u16, r.input));
                        m &= m - 1;
                    }
                }
                self.picks.sort_unstable();
                // Each output offers itself to one input: (input, output).
                let mut offers: Vec<(u16, u16)> = Vec::new();
                let mut k = 0;
                while k < self.picks.len() {
                    let o = self.picks[k].0;
                    let p = self.output_pointer[o as usize];
                    let mut chosen = self.picks[k].1;
                    k += 1;
                    while k < self.picks.len() && self.picks[k].0 == o {
                        let i = self.picks[k].1;
                        if after(i, p, n) < after(chosen, p, n) {
                            chosen = i;
                        }
                        k += 1;
                    }
                    offers.push((chosen, o));
                }
                offers.sort_unstable();
                let mut k = 0;
                while k < offers.len() {
                    let i = offers[k].0;
                    let p = self.input_pointer[i as usize];
                    let mut out = offers[k].1;
                    k += 1;
                    while k < offers.len() && offers[k].0 == i {
                        let o = offers[k].1;
                        if after(o, p, n) < after(out, p, n) {
                            out = o;
                        }
                        k += 1;
                    }
                    self.input_pointer[i as usize] = next(out, n);
                    self.output_pointer[out as usize] = next(i, n);
                    grants.push((i, out));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn switch(a: &mut SwitchAllocator, requests: [u8; PORTS]) -> Vec<(u8, u8)> {
        let mut g = [(0, 0); PORTS];
        let n = a.allocate(&requests, &mut g);
        g[..n].to_vec()
    }

    #[test]
    fn a_grant_is_a_matching() {
        for kind in [
            AllocatorKind::SeparableInputFirst,
            AllocatorKind::SeparableOutputFirst,
        ] {
            let mut a = SwitchAllocator::new(kind);
            for _ in 0..10 {
                let g = switch(&mut a, [0x1f; PORTS]);
                let mut ins: Vec<u8> = g.iter().map(|x| x.0).collect();
                let mut outs: Vec<u8> = g.iter().map(|x| x.1).collect();
                ins.sort();
                ins.dedup();
                outs.sort();
                outs.dedup();
                assert_eq!(ins.len(), g.len());
                assert_eq!(outs.len(), g.len());
                assert!(!g.is_empty());
            }
        }
    }

    #[test]
    fn contenders_for_one_output_take_turns() {
        // Three inputs always want output 0: round robin grants 0, 1, 2, 0, ...
        let mut a = SwitchAllocator::new(AllocatorKind::SeparableInputFirst);
        let order: Vec<u8> = (0..6)
            .map(|_| switch(&mut a, [1, 1, 1, 0, 0])[0].0)
            .collect();
        assert_eq!(order, [0, 1, 2, 0, 1, 2]);
    }

    #[test]
    fn a_loser_keeps_its_priority() {
        // Input 0 wants outputs 0 and 1; input 1 wants output 0 only. Input
        // first: input 0 picks output 0 (its pointer), input 1 picks 0;
        // output 0 grants input 0. Next time input 0's pointer is past 0, so
        // it picks output 1, and input 1 gets output 0.
        let mut a = SwitchAllocator::new(AllocatorKind::SeparableInputFirst);
        assert_eq!(switch(&mut a, [0b11, 0b01, 0, 0, 0]), [(0, 0)]);
        assert_eq!(switch(&mut a, [0b11, 0b01, 0, 0, 0]), [(1, 0), (0, 1)]);
    }

    #[test]
    fn output_first_lets_outputs_choose() {
        let mut a = SwitchAllocator::new(AllocatorKind::SeparableOutputFirst);
        // Both outputs pick input 0 first (pointers at 0); input 0 takes
        // output 0; output 1 got nothing else. Input 1 is left out.
        assert_eq!(switch(&mut a, [0b11, 0b11, 0, 0, 0]), [(0, 0)]);
        // Output 0 now prefers input 1; output 1 still prefers input 0.
        assert_eq!(switch(&mut a, [0b11, 0b11, 0, 0, 0]), [(0, 1), (1, 0)]);
    }

    /// The matrix form grants what `allocate` grants, in the same order,
    /// and leaves the same pointers: every request set of up to three
    /// inputs' rows (and a sample of denser ones), from pointer states
    /// that the runs themselves reach, in both kinds.
    #[test]
    fn matrix_form_is_allocate() {
        for kind in [
            AllocatorKind::SeparableInputFirst,
            AllocatorKind::SeparableOutputFirst,
        ] {
            let mut slow = SwitchAllocator::new(kind);
            let mut fast = SwitchAllocator::new(kind);
            let mut x = 0x2545_f491_4f6c_dd1du64;
            for step in 0..200_000u32 {
                let wanted = if step < 1 << 15 {
                    // Rows 0-2 exhaustively, rows 3-4 from the step's count.
                    (step & 0x7fff) | ((step.wrapping_mul(2_654_435_761) >> 7) & 0x3ff) << 15
                } else {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x as u32) & ((1 << 25) - 1) & (x >> 32) as u32
                };
                let mut requests = [0u8; PORTS];
                for (i, r) in requests.iter_mut().enumerate() {
                    *r = ((wanted >> (i * PORTS)) & 31) as u8;
                }
                let mut g = [(0, 0); PORTS];
                let n = fast.allocate_matrix(wanted, &mut g);
                assert_eq!(
                    g[..n],
                    switch(&mut slow, requests)[..],
                    "{kind:?} {wanted:#x}"
                );
                assert_eq!(fast.input_pointer, slow.input_pointer);
                assert_eq!(fast.output_pointer, slow.output_pointer);
            }
        }
    }

    #[test]
    fn nothing_requested_nothing_granted() {
        let mut a = SwitchAllocator::new(AllocatorKind::SeparableInputFirst);
        assert!(switch(&mut a, [0; PORTS]).is_empty());
        let mut v = VcAllocator::new(AllocatorKind::SeparableInputFirst, 10);
        let mut g = Vec::new();
        v.allocate(&[], &mut g);
        assert!(g.is_empty());
    }

    /// The shortcuts for a single request give what the arbiters give, and
    /// leave the same pointers, from every pointer state, in both kinds.
    #[test]
    fn single_requests_take_the_arbiters_outcome() {
        for kind in [
            AllocatorKind::SeparableInputFirst,
            AllocatorKind::SeparableOutputFirst,
        ] {
            for i in 0..PORTS as u8 {
                for o in 0..PORTS as u8 {
                    for p in 0..(PORTS * PORTS) as u8 {
                        let mut fast = SwitchAllocator::new(kind);
                        fast.input_pointer[i as usize] = p % PORTS as u8;
                        fast.output_pointer[o as usize] = p / PORTS as u8;
                        let mut slow = fast.clone();
                        fast.grant_single(i, o);
                        let mut requests = [0u8; PORTS];
                        requests[i as usize] = 1 << o;
                        assert_eq!(switch(&mut slow, requests), vec![(i, o)]);
                        assert_eq!(fast.input_pointer, slow.input_pointer);
                        assert_eq!(fast.output_pointer, slow.output_pointer);
                    }
                }
            }
            // 12 VCs, candidates in sets of 4 (first 0, 4 or 8), every mask
            // and pointer.
            for first in [0u16, 4, 8] {
                for mask in 0..16u64 {
                    for p in 0..12u16 {
                        let mut fast = VcAllocator::new(kind, 12);
                        fast.input_pointer[5] = p;
                        fast.output_pointer
                            .iter_mut()
                            .for_each(|q| *q = (p * 7) % 12);
                        let mut slow = fast.clone();
                        let r = [VcRequest {
                            input: 5,
                            first,
                            mask,
                        }];
                        let mut slow_grants = Vec::new();
                        slow.allocate_by_arbiters(&r, &mut slow_grants);
                        assert_eq!(
                            vc(&mut fast, &r),
                            slow_grants,
                            "{kind:?} {first} {mask:b} {p}"
                        );
                        assert_eq!(fast.input_pointer, slow.input_pointer);
                        assert_eq!(fast.output_pointer, slow.output_pointer);
                    }
                }
            }
        }
    }

    fn vc(a: &mut VcAllocator, requests: &[VcRequest]) -> Vec<(u16, u16)> {
        let mut g = Vec::new();
        a.allocate(requests, &mut g);
        g
    }

    #[test]
    fn vc_allocation_takes_turns_and_spreads() {
        // Two heads (inputs 0 and 5) want one of output VCs 2..=3: input
        // first, both pick 2 (pointers at 0); input 0 wins. Next time both
        // pointers moved: input 0 prefers 3, input 5 still 2: both win.
        let mut a = VcAllocator::new(AllocatorKind::SeparableInputFirst, 10);
        let r = [
            VcRequest {
                input: 0,
                first: 2,
                mask: 0b11,
            },
            VcRequest {
                input: 5,
                first: 2,
                mask: 0b11,
            },
        ];
        assert_eq!(vc(&mut a, &r), [(0, 2)]);
        assert_eq!(vc(&mut a, &r), [(5, 2), (0, 3)]);
        // Output first: output 2 and 3 each offer themselves to the input
        // after their pointer.
        let mut b = VcAllocator::new(AllocatorKind::SeparableOutputFirst, 10);
        let g = vc(&mut b, &r);
        assert_eq!(g, [(0, 2)], "both outputs offer to input 0, which takes 2");
        let g = vc(&mut b, &r);
        assert_eq!(g, [(0, 3), (5, 2)]);
    }
}
