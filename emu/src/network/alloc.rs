//! Separable allocators built of round-robin arbiters, BookSim2's
//! `separable_input_first` and `separable_output_first`.
//!
//! A request names an input and an output arbiter and, for each, the key by
//! which that arbiter ranks it: an arbiter grants the request whose key
//! comes first in cyclic order from its pointer, and its pointer moves past
//! the granted key only when the request wins both stages (so a request that
//! loses the second stage keeps its priority). The switch allocator's input
//! arbiters rank virtual channels and its output arbiters rank input ports;
//! the VC allocator's input arbiters (one per input VC) rank output VCs and
//! its output arbiters (one per output VC) rank input VCs.

use crate::config::AllocatorKind;

/// A request to an allocator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Input arbiter.
    pub input: u16,
    /// Key of the request at its input arbiter.
    pub input_key: u16,
    /// Output arbiter.
    pub output: u16,
    /// Key of the request at its output arbiter.
    pub output_key: u16,
}

/// A separable allocator: its arbiters' round-robin pointers and scratch.
#[derive(Clone, Debug)]
pub struct Allocator {
    kind: AllocatorKind,
    input_pointer: Vec<u16>,
    input_keys: u16,
    output_pointer: Vec<u16>,
    output_keys: u16,
    /// Per arbiter of the first stage: the best request so far (+1; 0 none).
    first: Vec<u32>,
    /// Per arbiter of the second stage: the best request so far (+1; 0 none).
    second: Vec<u32>,
    touched_first: Vec<u16>,
    touched_second: Vec<u16>,
}

/// The key after `key` in a cyclic order of `n` keys.
#[inline]
fn next(key: u16, n: u16) -> u16 {
    if key + 1 == n { 0 } else { key + 1 }
}

/// Distance of `key` after `pointer` in a cyclic order of `n` keys.
#[inline]
fn after(key: u16, pointer: u16, n: u16) -> u16 {
    if key >= pointer {
        key - pointer
    } else {
        key + n - pointer
    }
}

impl Allocator {
    /// An allocator with `inputs` input arbiters ranking `input_keys` keys
    /// and `outputs` output arbiters ranking `output_keys` keys.
    pub fn new(
        kind: AllocatorKind,
        inputs: usize,
        input_keys: usize,
        outputs: usize,
        output_keys: usize,
    ) -> Allocator {
        let first_len = match kind {
            AllocatorKind::SeparableInputFirst => inputs,
            AllocatorKind::SeparableOutputFirst => outputs,
        };
        let second_len = inputs + outputs - first_len;
        Allocator {
            kind,
            input_pointer: vec![0; inputs],
            input_keys: input_keys as u16,
            output_pointer: vec![0; outputs],
            output_keys: output_keys as u16,
            first: vec![0; first_len],
            second: vec![0; second_len],
            touched_first: Vec::new(),
            touched_second: Vec::new(),
        }
    }

    /// Grants a set of requests in which no input and no output is granted
    /// twice; appends the indices of the granted requests to `grants` in
    /// increasing order of output arbiter (input-first) or input arbiter
    /// (output-first).
    pub fn allocate(&mut self, requests: &[Request], grants: &mut Vec<usize>) {
        match requests {
            [] => return,
            [r] => {
                // One request wins both stages.
                self.input_pointer[r.input as usize] = next(r.input_key, self.input_keys);
                self.output_pointer[r.output as usize] = next(r.output_key, self.output_keys);
                grants.push(0);
                return;
            }
            _ => {}
        }
        // Input first, no two requests for one output: every input's
        // first-stage choice wins its output unopposed.
        if self.kind == AllocatorKind::SeparableInputFirst && self.output_pointer.len() <= 128 {
            let mut outs = 0u128;
            let mut clash = false;
            for r in requests {
                let b = 1u128 << r.output;
                clash |= outs & b != 0;
                outs |= b;
            }
            if !clash {
                let first = grants.len();
                for (i, r) in requests.iter().enumerate() {
                    let slot = &mut self.first[r.input as usize];
                    if *slot == 0 {
                        self.touched_first.push(r.input);
                        *slot = i as u32 + 1;
                    } else {
                        let p = self.input_pointer[r.input as usize];
                        let best = requests[*slot as usize - 1].input_key;
                        if after(r.input_key, p, self.input_keys) < after(best, p, self.input_keys)
                        {
                            *slot = i as u32 + 1;
                        }
                    }
                }
                for &arb in &self.touched_first {
                    let i = self.first[arb as usize] as usize - 1;
                    self.first[arb as usize] = 0;
                    grants.push(i);
                }
                self.touched_first.clear();
                for &i in &grants[first..] {
                    let r = &requests[i];
                    self.input_pointer[r.input as usize] = next(r.input_key, self.input_keys);
                    self.output_pointer[r.output as usize] = next(r.output_key, self.output_keys);
                }
                grants[first..].sort_unstable_by_key(|&i| requests[i].output);
                return;
            }
        }
        let input_first = self.kind == AllocatorKind::SeparableInputFirst;
        // Stage one: every first-stage arbiter picks among its requests.
        for (i, r) in requests.iter().enumerate() {
            let (arb, key, pointer, n) = if input_first {
                let p = self.input_pointer[r.input as usize];
                (r.input, r.input_key, p, self.input_keys)
            } else {
                let p = self.output_pointer[r.output as usize];
                (r.output, r.output_key, p, self.output_keys)
            };
            let slot = &mut self.first[arb as usize];
            if *slot == 0 {
                self.touched_first.push(arb);
                *slot = i as u32 + 1;
            } else {
                let best = &requests[*slot as usize - 1];
                let best_key = if input_first {
                    best.input_key
                } else {
                    best.output_key
                };
                if after(key, pointer, n) < after(best_key, pointer, n) {
                    *slot = i as u32 + 1;
                }
            }
        }
        // Stage two: every second-stage arbiter picks among the winners.
        for &arb in &self.touched_first {
            let i = self.first[arb as usize] as usize - 1;
            self.first[arb as usize] = 0;
            let r = &requests[i];
            let (arb2, key, pointer, n) = if input_first {
                let p = self.output_pointer[r.output as usize];
                (r.output, r.output_key, p, self.output_keys)
            } else {
                let p = self.input_pointer[r.input as usize];
                (r.input, r.input_key, p, self.input_keys)
            };
            let slot = &mut self.second[arb2 as usize];
            if *slot == 0 {
                self.touched_second.push(arb2);
                *slot = i as u32 + 1;
            } else {
                let best = &requests[*slot as usize - 1];
                let best_key = if input_first {
                    best.output_key
                } else {
                    best.input_key
                };
                if after(key, pointer, n) < after(best_key, pointer, n) {
                    *slot = i as u32 + 1;
                }
            }
        }
        self.touched_first.clear();
        self.touched_second.sort_unstable();
        for &arb2 in &self.touched_second {
            let i = self.second[arb2 as usize] as usize - 1;
            self.second[arb2 as usize] = 0;
            let r = &requests[i];
            self.input_pointer[r.input as usize] = next(r.input_key, self.input_keys);
            self.output_pointer[r.output as usize] = next(r.output_key, self.output_keys);
            grants.push(i);
        }
        self.touched_second.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(input: u16, output: u16) -> Request {
        Request {
            input,
            input_key: output,
            output,
            output_key: input,
        }
    }

    fn run(a: &mut Allocator, requests: &[Request]) -> Vec<(u16, u16)> {
        let mut grants = Vec::new();
        a.allocate(requests, &mut grants);
        grants
            .iter()
            .map(|&i| (requests[i].input, requests[i].output))
            .collect()
    }

    #[test]
    fn a_grant_is_a_matching() {
        for kind in [
            AllocatorKind::SeparableInputFirst,
            AllocatorKind::SeparableOutputFirst,
        ] {
            let mut a = Allocator::new(kind, 4, 4, 4, 4);
            let all: Vec<Request> = (0..4)
                .flat_map(|i| (0..4).map(move |o| req(i, o)))
                .collect();
            for _ in 0..10 {
                let g = run(&mut a, &all);
                let mut ins: Vec<u16> = g.iter().map(|x| x.0).collect();
                let mut outs: Vec<u16> = g.iter().map(|x| x.1).collect();
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
        let mut a = Allocator::new(AllocatorKind::SeparableInputFirst, 3, 2, 2, 3);
        let r = [req(0, 0), req(1, 0), req(2, 0)];
        let order: Vec<u16> = (0..6).map(|_| run(&mut a, &r)[0].0).collect();
        assert_eq!(order, [0, 1, 2, 0, 1, 2]);
    }

    #[test]
    fn a_loser_keeps_its_priority() {
        // Input 0 wants outputs 0 and 1; input 1 wants output 0 only. Input
        // first: input 0 picks output 0 (its pointer), input 1 picks 0;
        // output 0 grants input 0. Next time input 0's pointer is past 0, so
        // it picks output 1, and input 1 gets output 0.
        let mut a = Allocator::new(AllocatorKind::SeparableInputFirst, 2, 2, 2, 2);
        let r = [req(0, 0), req(0, 1), req(1, 0)];
        assert_eq!(run(&mut a, &r), [(0, 0)]);
        assert_eq!(run(&mut a, &r), [(1, 0), (0, 1)]);
    }

    #[test]
    fn output_first_lets_outputs_choose() {
        let mut a = Allocator::new(AllocatorKind::SeparableOutputFirst, 2, 2, 2, 2);
        // Both outputs pick input 0 first (pointers at 0); input 0 takes
        // output 0; output 1 got nothing else. Input 1 is left out.
        let r = [req(0, 0), req(0, 1), req(1, 0), req(1, 1)];
        assert_eq!(run(&mut a, &r), [(0, 0)]);
        // Output 0 now prefers input 1; output 1 still prefers input 0.
        assert_eq!(run(&mut a, &r), [(0, 1), (1, 0)]);
    }

    #[test]
    fn nothing_requested_nothing_granted() {
        let mut a = Allocator::new(AllocatorKind::SeparableInputFirst, 2, 2, 2, 2);
        assert!(run(&mut a, &[]).is_empty());
    }
}
