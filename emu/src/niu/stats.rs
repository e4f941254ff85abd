//! Message statistics of an NIU: for every thread or data message it takes
//! in, the latency from its head's injection to its tail being taken, a
//! histogram of it, and where the time went, stage by stage along the
//! message's way:
//!
//! - queueing: its first instruction (`sendh`) to its head's injection
//!   (the transmission queue, the RTS/CTS handshake, the injection channel);
//! - network: the head's injection to the head being taken here;
//! - ejection: the head being taken to the tail being taken (the body
//!   streaming in, DMA stores);
//! - notification: the tail to the message's effect (a thread ready to run
//!   after `niu.thread_start_cycles`; a receive entry Complete at once);
//! - wake-up: a Complete receive to the first instruction that sees it
//!   (`waitr` woken, or polling `ldsr`/`waitr`).
//!
//! Also, separately, injection: the head's injection to the tail's (the
//! message's serialization at its source).

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
    /// Sum of latencies (head injected to tail taken).
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
    pub fn add(
        &mut self,
        created: u64,
        head_in: u64,
        tail_in: u64,
        head_at: u64,
        tail_at: u64,
        notify: u64,
    ) {
        let latency = tail_at.saturating_sub(head_in);
        self.count += 1;
        self.latency += latency;
        self.latency_max = self.latency_max.max(latency);
        self.histogram[bucket(latency)] += 1;
        self.queueing += head_in.saturating_sub(created);
        self.network += head_at.saturating_sub(head_in);
        self.ejection += tail_at.saturating_sub(head_at);
        self.injection += tail_in.saturating_sub(head_in);
        self.notification += notify;
    }

    /// Adds another NIU's sums.
    pub fn merge(&mut self, o: &MessageStats) {
        self.count += o.count;
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
        // sendh at 10, head in at 12, tail in at 15, head taken 20, tail 24.
        s.add(10, 12, 15, 20, 24, 1);
        assert_eq!((s.count, s.latency, s.latency_max), (1, 12, 12));
        assert_eq!(s.queueing + s.network + s.ejection, 24 - 10);
        assert_eq!((s.injection, s.notification), (3, 1));
        assert_eq!(s.histogram[bucket(12)], 1);
    }
}
