//! Output in cycle order: program output, trace records and network/NIU
//! events written as their cycles become certain.

use super::{Machine, TraceSink};
use std::io::Write;

use crate::hart::host::Console;
use crate::hart::service::OutputEvent;
use crate::trace::TraceRecord;

/// A network or NIU trace line, ordered with instruction records by cycle
/// and node.
pub(super) struct EventLine {
    pub(super) cycle: u64,
    pub(super) node: u32,
    pub(super) line: String,
}

impl Machine {
    pub(super) fn collect_events(&mut self) {
        let Some(opts) = &self.trace else {
            return;
        };
        let filter = &opts.filter;
        for e in self.net.take_trace() {
            if filter.wants_event(e.node, e.cycle) {
                self.events.push(EventLine {
                    cycle: e.cycle,
                    node: e.node,
                    line: e.line(),
                });
            }
        }
        for n in &mut self.nius {
            for e in n.take_trace() {
                if filter.wants_event(e.node, e.cycle) {
                    self.events.push(EventLine {
                        cycle: e.cycle,
                        node: e.node,
                        line: e.line(),
                    });
                }
            }
        }
    }

    /// Writes the output, trace records and events stamped at or before
    /// `cut`, in (cycle, tile) order; later ones wait for the next flush.
    /// The last flush: the run is over, so no optimistic run can go back.
    pub(super) fn final_flush(&mut self, console: &mut dyn Console, cut: u64) {
        for t in &mut self.tiles {
            t.commit();
        }
        self.flush(console, cut);
    }

    pub(super) fn flush(&mut self, console: &mut dyn Console, cut: u64) {
        if let Some(tl) = &mut self.timeline {
            tl.collect(&mut self.tiles, cut);
        }
        let mut events: Vec<OutputEvent> = Vec::new();
        for tile in &mut self.tiles {
            events.extend(tile.take_output(cut));
        }
        if !events.is_empty() {
            // Stable: one tile's events keep their order within a cycle.
            events.sort_by_key(|e| (e.cycle, e.tile));
            for e in &events {
                if e.cycle >= self.prefix_from {
                    self.prefixer.enable();
                }
                self.prefixer.write(console, e);
            }
        }
        let Some(trace) = self.trace.as_mut() else {
            return;
        };
        let mut records: Vec<(u64, u32, u8, String)> = Vec::new();
        let mut kept: Vec<TraceRecord> = Vec::new();
        for tile in &mut self.tiles {
            for r in tile.take_trace(cut) {
                match trace.sink {
                    TraceSink::Writer(_) => {
                        records.push((r.cycle, r.tile, 0, r.line(&self.labels)))
                    }
                    TraceSink::Last(..) => kept.push(r),
                }
            }
        }
        let keep = self.events.iter().position(|e| e.cycle > cut);
        let lines: Vec<EventLine> = match keep {
            Some(k) => {
                // Events are collected in cycle order.
                let rest = self.events.split_off(k);
                std::mem::replace(&mut self.events, rest)
            }
            None => std::mem::take(&mut self.events),
        };
        match &mut trace.sink {
            TraceSink::Writer(w) => {
                for e in lines {
                    records.push((e.cycle, e.node, 1, e.line));
                }
                records.sort_by_key(|a| (a.0, a.1, a.2));
                let mut text = String::new();
                for (_, _, _, line) in records {
                    text.push_str(&line);
                    text.push('\n');
                }
                // A trace file that cannot be written must not change the run.
                let _ = w.write_all(text.as_bytes());
                let _ = w.flush();
            }
            TraceSink::Last(n, ring) => {
                kept.sort_by_key(|r| (r.cycle, r.tile));
                for r in kept {
                    if ring.len() == *n {
                        ring.pop_front();
                    }
                    ring.push_back(r);
                }
            }
        }
    }

    /// The records a [`TraceSink::Last`] kept.
    pub fn last_trace(&self) -> Vec<TraceRecord> {
        match self.trace.as_ref().map(|t| &t.sink) {
            Some(TraceSink::Last(_, ring)) => ring.iter().copied().collect(),
            _ => Vec::new(),
        }
    }
}
