//! What the NIU does to a tile (DMA stores, thread starts, wake-ups,
//! faults) and the completion of a parked messaging instruction.

use super::{Halt, Parked, Tile};
use crate::fault::FaultReport;
use crate::hart::context::ContextState;
use crate::hart::effects::Effects;
use crate::niu::message::{MessagePart, message_part};
use crate::niu::{NiuOutcome, TileEffect};
use crate::trace::TraceFilter;

impl Tile {
    /// Applies what the NIU did, seen by instructions from cycle `at`: the
    /// tile has issued nothing at or after `at` (the machine sees to it).
    /// An idle tile's clock moves up to `at`.
    pub fn apply(&mut self, at: u64, effect: TileEffect) {
        self.apply_effect(at, effect);
        self.refresh_state();
    }

    fn apply_effect(&mut self, at: u64, effect: TileEffect) {
        if self.sched.now < at && self.sched.current.is_none() && self.sched.ready == 0 {
            self.charge_idle(at - self.sched.now);
            self.sched.now = at;
        }
        if matches!(
            effect,
            TileEffect::StartThread { .. } | TileEffect::Wake { .. } | TileEffect::SwapOut { .. }
        ) {
            self.sched.idle_reason = None;
        }
        match effect {
            TileEffect::Write { addr, value } => {
                // As a store: it breaks reservations and may rewrite code.
                if self.memory.store_u32(addr, value).is_ok() {
                    self.reservations.on_store(addr);
                    self.redecode_written_code();
                }
            }
            TileEffect::StartThread { context, pc, args } => {
                debug_assert!(!self.contexts[context].is_live(), "the NIU reserved it");
                let sp = self.start_sp(context);
                self.contexts[context].start(pc, sp, &args, at);
                self.contexts[context].handler = true;
                self.sched.ready += 1;
                self.sched.live += 1;
                self.sched.finished_at = None;
            }
            TileEffect::Wake { context } => {
                let ctx = &mut self.contexts[context];
                if matches!(ctx.state, ContextState::Suspended(_)) {
                    ctx.set_state(ContextState::Ready, at);
                    self.sched.ready += 1;
                }
            }
            TileEffect::SwapOut { context } => self.swap_out(at, context),
            TileEffect::Fault(cause) => {
                if self.halt.is_none() {
                    self.halt = Some(Halt::Fault(FaultReport {
                        tile: self.id,
                        context: crate::fault::NIU_CONTEXT,
                        pc: 0,
                        cycle: at,
                        word: None,
                        cause,
                        last_trace: Vec::new(),
                        symbol: None,
                        callers: Vec::new(),
                    }));
                }
            }
        }
    }

    /// Finishes the parked messaging instruction with what the NIU made of
    /// it (at the tile's `now`, the cycle it issued).
    pub fn complete_messaging<const TRACE: bool>(
        &mut self,
        outcome: NiuOutcome,
        filter: &TraceFilter,
    ) {
        self.complete_parked::<TRACE>(outcome, filter);
        self.refresh_state();
    }

    fn complete_parked<const TRACE: bool>(&mut self, outcome: NiuOutcome, filter: &TraceFilter) {
        let Some(Parked {
            context: c,
            decoded,
        }) = self.parked.take()
        else {
            return;
        };
        let inst = decoded.inst.expect("a messaging instruction decoded");
        match outcome {
            NiuOutcome::Fault(cause) => self.fault(c, cause, Some(decoded.word)),
            NiuOutcome::Done(value) => {
                // The message the context builds, as the NIU sees it.
                match message_part(inst.op) {
                    MessagePart::Opens => self.open_message[c] = Some(self.contexts[c].pc),
                    MessagePart::Ends => self.open_message[c] = None,
                    MessagePart::Adds | MessagePart::None => {}
                }
                let mut fx = Effects::default();
                if let Some(v) = value
                    && inst.rd != 0
                {
                    self.contexts[c].x[inst.rd as usize] = v;
                    fx.x = Some((inst.rd, v));
                }
                self.retire::<TRACE>(c, &decoded, fx, filter);
            }
            NiuOutcome::Repeat => {
                let pc = self.contexts[c].pc;
                self.retire::<TRACE>(c, &decoded, Effects::default(), filter);
                self.charge_polling(c, pc, decoded.cost as u64);
                // Polling: the same instruction issues again.
                self.contexts[c].pc = self.contexts[c].pc.wrapping_sub(4);
            }
            NiuOutcome::Suspend(cause) => {
                self.sched.idle_reason = None;
                self.contexts[c].set_state(ContextState::Suspended(cause), self.sched.now);
                self.sched.current = None;
            }
        }
    }

    /// Decodes again the text words that stores wrote (the check inline:
    /// every slice ends with it, and almost none wrote code).
    #[inline(always)]
    pub(super) fn redecode_written_code(&mut self) {
        if self.memory.code_was_written() {
            self.redecode_written_words();
        }
    }

    #[cold]
    #[inline(never)]
    fn redecode_written_words(&mut self) {
        if let Some((lo, hi)) = self.memory.take_code_writes() {
            // The loop's counts are per entry: fold them before it changes.
            if let Some(counts) = &mut self.counts {
                counts.fold(&self.text.fast, &self.text.words);
            }
            let text_end = self.text.base + self.text.len_bytes();
            let mut a = lo.max(self.text.base);
            while a < hi.min(text_end) {
                let word = self.memory.load_u32(a).expect("text lies in memory");
                self.text.redecode(a, word, &self.costs);
                a += 4;
            }
        }
    }
}
