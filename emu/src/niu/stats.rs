//! Message statistics of an NIU: for every thread or data message it takes
//! in, its end-to-end latency, from its first instruction (`sendh`) to its
//! effect here, split into four stages that add up to it, message by
//! message (docs/machine.md, "Message latency"):
//!
//! - queueing: `sendh` to its head's injection (the transmission queue,
//!   the RTS/CTS handshake, the injection channel);
//! - network: the head's injection to the head being taken here;
//! - ejection: the head being taken to the tail being taken (the body
//!   streaming in, DMA stores);
//! - notification: the tail to the message's effect (a thread ready to run
//!   after `niu.thread_start_cycles`; a receive entry Complete at once).
//!
//! Network + ejection (head injected to tail taken) is also kept with its
//! maximum and a histogram. Not part of the end-to-end latency, each with
//! its own count: injection, the head's injection to the tail's (the
//! message's serialization at its source, which overlaps network and
//! ejection), and wake-up, a Complete receive to the first instruction that
//! sees it (`waitr` woken, or polling `ldsr`/`waitr`: when the program
//! looks, not when the message arrives).

use serde::Serialize;

/// Histogram buckets: `[0, 1)`, `[1, 2)`, `[2, 4)`, ..., `[2^14, inf)`.
pub const HISTOGRAM_BUCKETS: usize = 16;

/// The bucket of a latency.
pub fn bucket(cycles: u64) -> usize {
    if cycles == 0 {
        0
    } else {
        ((64 - cycles.leading_zeros()) as usize).min(HISTOGRAM_BUCKETS - 1)
    }
}

/// The lower bound of bucket `b`.
pub fn bucket_low(b: usize) -> u64 {
    if b == 0 { 0 } else { 1 << (b - 1) }
}

/// Sums over the messages taken in (divide by `count` for means).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MessageStats {
    /// Thread and data messages taken in completely.
    pub count: u64,
    /// Sum of end-to-end latencies (`sendh` to effect): exactly queueing +
    /// network + ejection + notification.
    pub end_to_end: u64,
    /// The longest end-to-end latency.
    pub end_to_end_max: u64,
    /// Sum of latencies in the network (head injected to tail taken =
    /// network + ejection).
    pub latency: u64,
    /// The longest.
    pub latency_max: u64,
    /// Latencies by power-of-two bucket (see [`bucket`]).
    pub histogram: [u64; HISTOGRAM_BUCKETS],
    /// Sum of queueing times.
    pub queueing: u64,
    /// Sum of head flight times.
    pub network: u64,
    /// Sum of head-to-tail times at the destination.
    pub ejection: u64,
    /// Sum of notification times.
    pub notification: u64,
    /// Sum of injection (serialization) times.
    pub injection: u64,
    /// Sum of wake-up times, and how many receives were seen Complete.
    pub wakeup: u64,
    /// Receives whose completion an instruction saw.
    pub wakeups: u64,
}

impl MessageStats {
    /// Adds a message: `created` its first instruction, `head_in` and
    /// `tail_in` its head's and tail's injection, `head_at` and `tail_at`
    /// when they were taken here, `notify` the cycles until its effect.
    /// Returns its stages: [queueing, network, ejection, notification],
    /// which add up to its end-to-end latency.
    pub fn add(
        &mut self,
        created: u64,
        head_in: u64,
        tail_in: u64,
        head_at: u64,
        tail_at: u64,
        notify: u64,
    ) -> [u64; 4] {
        // The events in the order they happen (each at or after the one
        // before), so the stages are their differences and add up.
        let head_in_ = head_in.max(created);
        let head_at_ = head_at.max(head_in_);
        let tail_at_ = tail_at.max(head_at_);
        let stages = [
            head_in_ - created,
            head_at_ - head_in_,
            tail_at_ - head_at_,
            notify,
        ];
        let end_to_end = tail_at_ + notify - created;
        debug_assert_eq!(stages.iter().sum::<u64>(), end_to_end);
        let latency = stages[1] + stages[2];
        self.count += 1;
        self.end_to_end += end_to_end;
        self.end_to_end_max = self.end_to_end_max.max(end_to_end);
        self.latency += latency;
        self.latency_max = self.latency_max.max(latency);
        self.histogram[bucket(latency)] += 1;
        self.queueing += stages[0];
        self.network += stages[1];
        self.ejection += stages[2];
        self.notification += stages[3];
        self.injection += tail_in.saturating_sub(head_in);
        stages
    }

    /// Adds another NIU's sums.
    pub fn merge(&mut self, o: &MessageStats) {
        self.count += o.count;
        self.end_to_end += o.end_to_end;
        self.end_to_end_max = self.end_to_end_max.max(o.end_to_end_max);
        self.latency += o.latency;
        self.latency_max = self.latency_max.max(o.latency_max);
        for (a, b) in self.histogram.iter_mut().zip(&o.histogram) {
            *a += b;
        }
        self.queueing += o.queueing;
        self.network += o.network;
        self.ejection += o.ejection;
        self.notification += o.notification;
        self.injection += o.injection;
        self.wakeup += o.wakeup;
        self.wakeups += o.wakeups;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_powers_of_two() {
        assert_eq!(
            [bucket(0), bucket(1), bucket(2), bucket(3), bucket(4)],
            [0, 1, 2, 2, 3]
        );
        assert_eq!(bucket(1 << 40), HISTOGRAM_BUCKETS - 1);
        for b in 1..HISTOGRAM_BUCKETS {
            assert_eq!(bucket(bucket_low(b)), b);
        }
    }

    #[test]
    fn stages_add_up_to_the_whole_way() {
        let mut s = MessageStats::default();
        // sendh at 10, head in at 12, tail in at 15, head taken 20, tail 24,
        // effect 1 later.
        assert_eq!(s.add(10, 12, 15, 20, 24, 1), [2, 8, 4, 1]);
        assert_eq!((s.count, s.latency, s.latency_max), (1, 12, 12));
        assert_eq!((s.end_to_end, s.end_to_end_max), (25 - 10, 25 - 10));
        assert_eq!(
            s.queueing + s.network + s.ejection + s.notification,
            25 - 10
        );
        assert_eq!((s.injection, s.notification), (3, 1));
        assert_eq!(s.histogram[bucket(12)], 1);
    }

    #[test]
    fn stages_add_up_for_every_message_and_in_the_sums() {
        let mut s = MessageStats::default();
        let mut rng = crate::test_rng::Rng(7);
        for _ in 0..1000 {
            let created = rng.below(100);
            let head_in = created + rng.below(50);
            let tail_in = head_in + rng.below(20);
            let head_at = head_in + rng.below(40);
            let tail_at = head_at.max(tail_in) + rng.below(10);
            let notify = rng.below(3);
            let stages = s.add(created, head_in, tail_in, head_at, tail_at, notify);
            assert_eq!(stages.iter().sum::<u64>(), tail_at + notify - created);
        }
        assert_eq!(
            s.queueing + s.network + s.ejection + s.notification,
            s.end_to_end
        );
        assert_eq!(s.network + s.ejection, s.latency);
    }
}
