//! Every send- and receive-table transition of thesis Tables 5.1 and 5.2
//! (and the decisions of `transmit.rs` where the thesis is silent), driven
//! through NIUs on a real network with a stand-in for the tiles.
//!
//! Over 600 lines: one test per transition of Tables 5.1 and 5.2, together,
//! so that a reader can hold them next to the thesis.

use std::collections::HashMap;

use isa_spec::msg::{MessageType, ReceiveState, SendState};
use isa_spec::{Inst, Opcode, SendType};

use super::{Niu, NiuEventKind, NiuOutcome, TileEffect, TileView, classes};
use crate::config::{Config, NiuConfig, NiuDesign, WaitMode};
use crate::fault::FaultCause;
use crate::hart::context::SuspendCause;
use crate::network::Network;

const CONTEXTS: usize = 4;
const MEMORY: u64 = 1 << 16;

/// A tile as the NIU sees it: memory and which contexts hold threads.
#[derive(Default)]
struct FakeTile {
    memory: HashMap<u32, u32>,
    busy: [bool; CONTEXTS],
    /// What `swap_candidate` says of each context.
    swappable: [Option<(bool, u64)>; CONTEXTS],
}

impl TileView for FakeTile {
    fn read_word(&mut self, addr: u32) -> Result<u32, FaultCause> {
        Ok(self.memory.get(&addr).copied().unwrap_or(0))
    }
    fn context_free(&self, c: usize) -> bool {
        !self.busy[c]
    }
    fn swap_candidate(&self, c: usize) -> Option<(bool, u64)> {
        self.swappable[c]
    }
}

/// A mesh of NIUs and routers, stepped as the machine steps them: the
/// instructions of cycle `now`, then the routers, then every NIU.
struct Rig {
    net: Network,
    nius: Vec<Niu>,
    tiles: Vec<FakeTile>,
    now: u64,
    /// Wake-ups and faults the NIUs caused, by node.
    woken: Vec<Vec<usize>>,
    /// Contexts the context-exhaustion exception was raised in, by node.
    swapped: Vec<Vec<usize>>,
    faults: Vec<Vec<FaultCause>>,
}

impl Rig {
    fn new(design: NiuDesign, w: u32, h: u32, tweak: impl Fn(&mut NiuConfig)) -> Rig {
        let config = Config::default();
        let mut niu = config.niu.clone();
        niu.design = design;
        tweak(&mut niu);
        let vcs = config.network.num_vcs as usize * classes(design);
        let nodes = (w * h) as usize;
        let mut nius: Vec<Niu> = (0..w * h)
            .map(|n| Niu::new(n, (w, h), CONTEXTS, MEMORY, vcs, &niu))
            .collect();
        for n in &mut nius {
            n.enable_trace();
        }
        Rig {
            net: Network::new(
                w,
                h,
                &config.network,
                classes(design),
                config.sim.network_engine,
            ),
            nius,
            tiles: (0..nodes).map(|_| FakeTile::default()).collect(),
            now: 0,
            woken: vec![Vec::new(); nodes],
            swapped: vec![Vec::new(); nodes],
            faults: vec![Vec::new(); nodes],
        }
    }

    /// Context `c` of `node` issues `op` (send type `ty` for `sendh`) with
    /// `rs1..rs3` holding `regs`.
    fn issue(
        &mut self,
        node: usize,
        c: usize,
        op: Opcode,
        ty: SendType,
        regs: [u32; 3],
    ) -> NiuOutcome {
        let mut x = [0u32; 32];
        x[10..13].copy_from_slice(&regs);
        let inst = Inst {
            op,
            rd: 5,
            rs1: 10,
            rs2: 11,
            rs3: 12,
            aux: ty as u8,
            imm: 0,
        };
        let outcome = self.nius[node].issue(self.now, c, &inst, &x);
        self.apply(node);
        outcome
    }

    fn ok(&mut self, node: usize, c: usize, op: Opcode, regs: [u32; 3]) -> Option<u32> {
        match self.issue(node, c, op, SendType::Thread, regs) {
            NiuOutcome::Done(v) => v,
            other => panic!("{op:?} {regs:?} on node {node}: {other:?}"),
        }
    }

    fn sendh(&mut self, node: usize, c: usize, dst: u32, ty: SendType, id: u32) -> NiuOutcome {
        self.issue(node, c, Opcode::SendhT, ty, [dst, id, 0])
    }

    fn apply(&mut self, node: usize) {
        let effects: Vec<_> = self.nius[node].drain_effects().collect();
        for e in effects {
            assert!(e.at > self.now, "an effect must be seen after its cycle");
            match e.what {
                TileEffect::Write { addr, value } => {
                    self.tiles[node].memory.insert(addr, value);
                }
                TileEffect::StartThread { context, .. } => self.tiles[node].busy[context] = true,
                TileEffect::Wake { context } => self.woken[node].push(context),
                TileEffect::SwapOut { context } => self.swapped[node].push(context),
                TileEffect::Fault(f) => self.faults[node].push(f),
            }
        }
    }

    fn step(&mut self) {
        self.net.step(self.now);
        for n in 0..self.nius.len() {
            self.nius[n].cycle(self.now, &mut self.net, &mut self.tiles[n]);
            self.apply(n);
        }
        self.now += 1;
    }

    /// Steps until `done` holds; panics after `limit` cycles.
    fn until(&mut self, limit: u64, mut done: impl FnMut(&Rig) -> bool) {
        let end = self.now + limit;
        while !done(self) {
            assert!(self.now < end, "not reached within {limit} cycles");
            self.step();
        }
    }

    fn idle(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step();
        }
    }

    fn send_state(&self, node: usize, id: u32) -> SendState {
        self.nius[node].send_table().state(id)
    }

    fn recv_state(&self, node: usize, id: u32) -> ReceiveState {
        self.nius[node].receive_table().state(id)
    }

    fn events(&mut self, node: usize) -> Vec<NiuEventKind> {
        self.nius[node]
            .take_trace()
            .into_iter()
            .map(|e| e.kind)
            .collect()
    }
}

fn modified() -> Rig {
    Rig::new(NiuDesign::Modified, 3, 1, |_| {})
}

/// Node 0 sends one word as message `id` to node 2 in mode `ty`.
fn send_word(rig: &mut Rig, ty: SendType, id: u32, word: u32) {
    assert_eq!(rig.sendh(0, 0, 2, ty, id), NiuOutcome::Done(None));
    assert_eq!(rig.send_state(0, id), SendState::InUse);
    rig.ok(0, 0, Opcode::Sende, [word, 0, 0]);
}

#[test]
fn rendezvous_with_the_receive_posted_late() {
    let mut rig = modified();
    send_word(&mut rig, SendType::Rendezvous, 5, 0xabcd);
    // The head reaches the front of its queue: the RTS goes, In Progress.
    rig.until(5, |r| r.send_state(0, 5) == SendState::InProgress);
    // Empty + RTS -> RTS Received, recording the sender.
    rig.until(50, |r| r.recv_state(2, 5) == ReceiveState::RtsReceived);
    let e = *rig.nius[2].receive_table().get(5).unwrap();
    assert_eq!((e.r_node, e.r_context), (0, 0));
    rig.idle(30);
    assert_eq!(rig.send_state(0, 5), SendState::InProgress, "no CTS yet");
    assert_eq!(rig.tiles[2].memory.get(&0x100), None);
    // RTS Received + str -> In Progress, and the CTS goes.
    rig.ok(2, 1, Opcode::Str, [5, 0x100, 1]);
    assert_eq!(rig.recv_state(2, 5), ReceiveState::InProgress);
    // In Progress + tail stored -> Complete; the sender's tail left -> Complete.
    rig.until(80, |r| r.recv_state(2, 5) == ReceiveState::Complete);
    assert_eq!(rig.tiles[2].memory[&0x100], 0xabcd);
    assert_eq!(rig.send_state(0, 5), SendState::Complete);
    assert_eq!(
        rig.ok(0, 0, Opcode::Ldss, [5, 0, 0]),
        Some(SendState::Complete as u32)
    );
    assert_eq!(
        rig.ok(2, 1, Opcode::Ldsr, [5, 0, 0]),
        Some(ReceiveState::Complete as u32)
    );
    // Complete + rms/rmr -> Empty.
    rig.ok(0, 0, Opcode::Rms, [5, 0, 0]);
    rig.ok(2, 1, Opcode::Rmr, [5, 0, 0]);
    assert_eq!(rig.ok(0, 0, Opcode::Ldss, [5, 0, 0]), Some(0));
    assert_eq!(rig.ok(2, 1, Opcode::Ldsr, [5, 0, 0]), Some(0));
    let kinds = rig.events(2);
    assert!(
        kinds
            .iter()
            .any(|k| matches!(k, NiuEventKind::ReceiveEntry { .. }))
    );
}

#[test]
fn rendezvous_with_the_receive_posted_first() {
    let mut rig = modified();
    // Empty + str -> In Use.
    rig.ok(2, 0, Opcode::Str, [9, 0x200, 2]);
    assert_eq!(rig.recv_state(2, 9), ReceiveState::InUse);
    assert_eq!(
        rig.ok(2, 0, Opcode::Ldsr, [9, 0, 0]),
        Some(ReceiveState::InUse as u32)
    );
    assert_eq!(
        rig.sendh(0, 1, 2, SendType::Rendezvous, 9),
        NiuOutcome::Done(None)
    );
    rig.ok(0, 1, Opcode::Send2e, [11, 22, 0]);
    // In Use + RTS -> In Progress at once (CTS sent).
    rig.until(50, |r| r.recv_state(2, 9) == ReceiveState::InProgress);
    rig.until(50, |r| r.recv_state(2, 9) == ReceiveState::Complete);
    // Stride 2 words.
    assert_eq!(rig.tiles[2].memory[&0x200], 11);
    assert_eq!(rig.tiles[2].memory[&0x208], 22);
    assert_eq!(rig.send_state(0, 9), SendState::Complete);
}

#[test]
fn ready_mode_stores_into_a_posted_receive_and_discards_otherwise() {
    let mut rig = modified();
    rig.ok(2, 0, Opcode::Str, [3, 0x40, 1]);
    send_word(&mut rig, SendType::Ready, 3, 77);
    // In Use + data -> In Progress -> Complete; no RTS or CTS.
    rig.until(50, |r| r.recv_state(2, 3) == ReceiveState::Complete);
    assert_eq!(rig.tiles[2].memory[&0x40], 77);
    rig.until(5, |r| r.send_state(0, 3) == SendState::Complete);
    // Empty + Ready data -> discarded, counted, traced; nothing stored.
    rig.ok(0, 0, Opcode::Rms, [3, 0, 0]);
    rig.events(2);
    send_word(&mut rig, SendType::Ready, 4, 88);
    rig.until(50, |r| r.nius[2].counters.discarded == 1);
    assert_eq!(rig.recv_state(2, 4), ReceiveState::Empty);
    assert!(!rig.tiles[2].memory.values().any(|v| *v == 88));
    assert!(
        rig.events(2)
            .iter()
            .any(|k| matches!(k, NiuEventKind::Discarded { .. }))
    );
    assert!(rig.faults[2].is_empty());
}

#[test]
fn strict_ready_mode_faults_on_a_discard() {
    let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| c.strict = true);
    send_word(&mut rig, SendType::Ready, 4, 88);
    rig.until(50, |r| !r.faults[2].is_empty());
    assert!(
        matches!(rig.faults[2][0], FaultCause::Delivery { .. }),
        "{:?}",
        rig.faults[2]
    );
}

#[test]
fn ready_data_for_an_entry_in_progress_waits_in_the_network() {
    let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| c.dma_cycles_per_word = 8);
    rig.ok(2, 0, Opcode::Str, [6, 0x80, 1]);
    // Two Ready messages with one id from two contexts: the second finds
    // the entry In Progress and waits until the first is stored; then it
    // finds the entry Complete and is discarded.
    assert_eq!(
        rig.sendh(1, 0, 2, SendType::Ready, 6),
        NiuOutcome::Done(None)
    );
    rig.ok(1, 0, Opcode::Send2, [1, 2, 0]);
    rig.ok(1, 0, Opcode::Sende, [3, 0, 0]);
    assert_eq!(
        rig.sendh(1, 1, 2, SendType::Ready, 6),
        NiuOutcome::Suspend(SuspendCause::IdInUse),
        "the same id is in the sender's table"
    );
    rig.until(20, |r| r.recv_state(2, 6) == ReceiveState::InProgress);
    assert_eq!(
        rig.sendh(0, 0, 2, SendType::Ready, 6),
        NiuOutcome::Done(None)
    );
    rig.ok(0, 0, Opcode::Sende, [9, 0, 0]);
    rig.until(60, |r| r.recv_state(2, 6) == ReceiveState::Complete);
    assert_eq!(
        [0x80, 0x84, 0x88].map(|a| rig.tiles[2].memory[&a]),
        [1, 2, 3]
    );
    rig.until(60, |r| r.nius[2].counters.discarded == 1);
    assert!(
        rig.nius[2].eject_waiting(rig.now)[1] > 0,
        "it waited for the entry"
    );
}

#[test]
fn a_second_rts_for_a_busy_id_waits_in_the_network() {
    let mut rig = modified();
    // Nodes 0 and 1 both send id 7 to node 2, which has not posted it.
    send_word(&mut rig, SendType::Rendezvous, 7, 100);
    assert_eq!(
        rig.sendh(1, 0, 2, SendType::Rendezvous, 7),
        NiuOutcome::Done(None)
    );
    rig.ok(1, 0, Opcode::Sende, [200, 0, 0]);
    rig.until(50, |r| r.recv_state(2, 7) == ReceiveState::RtsReceived);
    let first = rig.nius[2].receive_table().get(7).unwrap().r_node;
    rig.idle(40);
    // RTS Received + RTS: blocked, the entry keeps the first sender.
    assert_eq!(rig.nius[2].receive_table().get(7).unwrap().r_node, first);
    assert!(rig.nius[2].eject_waiting(rig.now)[1] > 0);
    // Thread messages still get through (their own VC set).
    rig.ok(1, 1, Opcode::SendhT, [2, 0x1000, 0]);
    rig.ok(1, 1, Opcode::Sende, [1, 0, 0]);
    rig.until(50, |r| r.tiles[2].busy.iter().any(|b| *b));
    // The first transfer, then the second.
    rig.ok(2, 0, Opcode::Str, [7, 0x300, 1]);
    rig.until(60, |r| r.recv_state(2, 7) == ReceiveState::Complete);
    let got = rig.tiles[2].memory[&0x300];
    assert_eq!(got, if first == 0 { 100 } else { 200 });
    // Complete + RTS: still blocked until the entry is removed.
    rig.idle(20);
    assert_eq!(rig.recv_state(2, 7), ReceiveState::Complete);
    rig.ok(2, 0, Opcode::Rmr, [7, 0, 0]);
    rig.until(20, |r| r.recv_state(2, 7) == ReceiveState::RtsReceived);
    let second = rig.nius[2].receive_table().get(7).unwrap().r_node;
    assert_eq!(first + second, 1, "both senders, once each");
    rig.ok(2, 0, Opcode::Str, [7, 0x304, 1]);
    rig.until(60, |r| r.recv_state(2, 7) == ReceiveState::Complete);
    assert_eq!(
        rig.tiles[2].memory[&0x304],
        if second == 0 { 100 } else { 200 }
    );
}

#[test]
fn busy_ids_and_full_tables_suspend_until_freed() {
    let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| {
        c.send_table_entries = 1;
        c.receive_table_entries = 1;
    });
    send_word(&mut rig, SendType::Ready, 1, 5);
    // Full send table: another id suspends (TableFull).
    assert_eq!(
        rig.sendh(0, 1, 2, SendType::Ready, 2),
        NiuOutcome::Suspend(SuspendCause::TableFull)
    );
    rig.until(30, |r| r.send_state(0, 1) == SendState::Complete);
    assert!(rig.woken[0].is_empty(), "nothing freed yet");
    // Complete + rms -> Empty wakes the waiting context.
    rig.ok(0, 0, Opcode::Rms, [1, 0, 0]);
    rig.step();
    assert_eq!(rig.woken[0], vec![1]);
    assert_eq!(
        rig.sendh(0, 1, 2, SendType::Ready, 2),
        NiuOutcome::Done(None)
    );
    // Receive side: str on an In Use id suspends (IdInUse); on another id
    // with the table full, TableFull.
    rig.ok(2, 0, Opcode::Str, [8, 0x10, 1]);
    assert_eq!(
        rig.issue(2, 1, Opcode::Str, SendType::Thread, [8, 0x20, 1]),
        NiuOutcome::Suspend(SuspendCause::IdInUse)
    );
    assert_eq!(
        rig.issue(2, 2, Opcode::Str, SendType::Thread, [9, 0x20, 1]),
        NiuOutcome::Suspend(SuspendCause::TableFull)
    );
    // In Use + rmr cancels the receive -> Empty, and both wake.
    rig.ok(2, 0, Opcode::Rmr, [8, 0, 0]);
    rig.step();
    let mut woken = rig.woken[2].clone();
    woken.sort();
    assert_eq!(woken, vec![1, 2]);
}

#[test]
fn removing_an_unfinished_transfer_faults() {
    let mut rig = modified();
    send_word(&mut rig, SendType::Rendezvous, 5, 1);
    let fault = |o: NiuOutcome| matches!(o, NiuOutcome::Fault(FaultCause::Messaging { .. }));
    // In Use / In Progress + rms: a fault (the transfer would be lost).
    assert!(fault(rig.issue(
        0,
        0,
        Opcode::Rms,
        SendType::Thread,
        [5, 0, 0]
    )));
    rig.until(50, |r| r.recv_state(2, 5) == ReceiveState::RtsReceived);
    assert!(fault(rig.issue(
        0,
        0,
        Opcode::Rms,
        SendType::Thread,
        [5, 0, 0]
    )));
    // RTS Received / In Progress + rmr: a fault.
    assert!(fault(rig.issue(
        2,
        0,
        Opcode::Rmr,
        SendType::Thread,
        [5, 0, 0]
    )));
    rig.ok(2, 0, Opcode::Str, [5, 0x10, 1]);
    assert!(fault(rig.issue(
        2,
        0,
        Opcode::Rmr,
        SendType::Thread,
        [5, 0, 0]
    )));
    // Empty + rms/rmr (nothing to remove), waits/waitr: a fault.
    assert!(fault(rig.issue(
        0,
        0,
        Opcode::Rms,
        SendType::Thread,
        [6, 0, 0]
    )));
    assert!(fault(rig.issue(
        2,
        0,
        Opcode::Rmr,
        SendType::Thread,
        [6, 0, 0]
    )));
    assert!(fault(rig.issue(
        0,
        0,
        Opcode::Waits,
        SendType::Thread,
        [6, 0, 0]
    )));
    assert!(fault(rig.issue(
        2,
        0,
        Opcode::Waitr,
        SendType::Thread,
        [6, 0, 0]
    )));
}

#[test]
fn waits_and_waitr_suspend_or_poll_until_complete() {
    for mode in [WaitMode::Wake, WaitMode::Poll] {
        let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| c.wait = mode);
        rig.ok(2, 3, Opcode::Str, [4, 0x10, 1]);
        send_word(&mut rig, SendType::Rendezvous, 4, 1);
        let (s, r) = (
            rig.issue(0, 0, Opcode::Waits, SendType::Thread, [4, 0, 0]),
            rig.issue(2, 3, Opcode::Waitr, SendType::Thread, [4, 0, 0]),
        );
        match mode {
            WaitMode::Wake => {
                assert_eq!(s, NiuOutcome::Suspend(SuspendCause::WaitSend));
                assert_eq!(r, NiuOutcome::Suspend(SuspendCause::WaitReceive));
                rig.until(60, |r| !r.woken[0].is_empty() && !r.woken[2].is_empty());
                assert_eq!(rig.send_state(0, 4), SendState::Complete);
                assert_eq!(rig.recv_state(2, 4), ReceiveState::Complete);
                assert_eq!((rig.woken[0][0], rig.woken[2][0]), (0, 3));
            }
            WaitMode::Poll => {
                assert_eq!((s, r), (NiuOutcome::Repeat, NiuOutcome::Repeat));
                rig.until(60, |r| r.recv_state(2, 4) == ReceiveState::Complete);
                assert!(rig.woken[2].is_empty(), "polling wakes nobody");
            }
        }
        assert_eq!(rig.ok(0, 0, Opcode::Waits, [4, 0, 0]), None);
        assert_eq!(rig.ok(2, 3, Opcode::Waitr, [4, 0, 0]), None);
    }
}

#[test]
fn the_original_niu_has_no_tables() {
    let mut rig = Rig::new(NiuDesign::Original, 3, 1, |_| {});
    for op in [
        Opcode::Ldss,
        Opcode::Ldsr,
        Opcode::Str,
        Opcode::Rms,
        Opcode::Rmr,
        Opcode::Waits,
    ] {
        let o = rig.issue(0, 0, op, SendType::Thread, [1, 0, 0]);
        assert!(
            matches!(o, NiuOutcome::Fault(FaultCause::Messaging { .. })),
            "{op:?}: {o:?}"
        );
    }
    // Its data message carries the address: stored with no notification.
    rig.ok(0, 0, Opcode::SendhD, [2, 0x400, 1]);
    rig.ok(0, 0, Opcode::Send2e, [5, 6, 0]);
    rig.until(50, |r| r.tiles[2].memory.get(&0x404) == Some(&6));
    assert_eq!(rig.tiles[2].memory[&0x400], 5);
    assert!(rig.woken[2].is_empty() && rig.nius[2].receive_table().is_empty());
}

/// The ejection machine's drop: an original data message whose words run
/// past the end of memory stores those that fit, faults once at the first
/// that does not, drops the rest up to its tail, and leaves its VC ready
/// for the next message.
#[test]
fn data_past_the_end_of_memory_faults_once_and_drops_the_rest() {
    let mut rig = Rig::new(NiuDesign::Original, 3, 1, |_| {});
    let near_end = MEMORY as u32 - 8;
    rig.ok(0, 0, Opcode::SendhD, [2, near_end, 1]);
    rig.ok(0, 0, Opcode::Send2, [1, 2, 0]);
    rig.ok(0, 0, Opcode::Send2e, [3, 4, 0]);
    rig.until(60, |r| !r.faults[2].is_empty());
    rig.idle(20);
    assert_eq!(rig.tiles[2].memory[&near_end], 1);
    assert_eq!(rig.tiles[2].memory[&(near_end + 4)], 2);
    assert_eq!(rig.tiles[2].memory.len(), 2, "nothing stored past the end");
    assert_eq!(rig.faults[2].len(), 1, "one fault: {:?}", rig.faults[2]);
    assert!(
        matches!(&rig.faults[2][0], FaultCause::Delivery { from: 0, reason } if reason.contains("outside")),
        "{:?}",
        rig.faults[2]
    );
    assert_eq!(
        rig.nius[2].counters.messages_received[MessageType::DataOrig as usize],
        0
    );
    assert!(!rig.nius[2].is_busy(), "the VC is idle again");
    // The next message on the same VC is taken in whole.
    rig.ok(0, 0, Opcode::SendhD, [2, 0x400, 2]);
    rig.ok(0, 0, Opcode::Send2e, [5, 6, 0]);
    rig.until(60, |r| r.tiles[2].memory.get(&0x408) == Some(&6));
    assert_eq!(rig.tiles[2].memory[&0x400], 5);
    assert_eq!(
        rig.nius[2].counters.messages_received[MessageType::DataOrig as usize],
        1
    );
    assert_eq!(rig.faults[2].len(), 1);
}

#[test]
fn an_rts_waits_for_room_in_a_full_receive_table() {
    let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| c.receive_table_entries = 1);
    rig.ok(2, 0, Opcode::Str, [1, 0x10, 1]);
    send_word(&mut rig, SendType::Rendezvous, 2, 42);
    rig.idle(40);
    assert_eq!(rig.recv_state(2, 2), ReceiveState::Empty);
    assert!(
        rig.nius[2].eject_waiting(rig.now)[2] > 0,
        "blocked on the full table"
    );
    rig.ok(2, 0, Opcode::Rmr, [1, 0, 0]);
    rig.until(10, |r| r.recv_state(2, 2) == ReceiveState::RtsReceived);
}

#[test]
fn a_thread_message_waits_for_a_free_context() {
    for design in [NiuDesign::Original, NiuDesign::Modified] {
        let mut rig = Rig::new(design, 3, 1, |_| {});
        rig.tiles[2].busy = [true; CONTEXTS];
        rig.ok(0, 0, Opcode::SendhT, [2, 0x800, 0]);
        rig.ok(0, 0, Opcode::Send2e, [7, 8, 0]);
        rig.idle(40);
        assert!(rig.nius[2].eject_waiting(rig.now)[0] > 0, "{design:?}");
        rig.tiles[2].busy[2] = false;
        rig.until(10, |r| r.tiles[2].busy[2]);
        // Taken: the wait is finished and counted, from the cycle the
        // head was first found blocked to the cycle it was taken.
        let waited = rig.nius[2].counters.eject_blocked[0];
        assert!(waited > 0, "{design:?}: {waited}");
        assert_eq!(rig.nius[2].eject_waiting(rig.now + 100)[0], waited);
        let created = rig.events(2).into_iter().any(|k| {
            matches!(
                k,
                NiuEventKind::ThreadCreated {
                    context: 2,
                    pc: 0x800,
                    ..
                }
            )
        });
        assert!(created, "{design:?}");
    }
}

/// `niu.context_exhausted`: with "swap", a thread message that finds
/// every context busy raises the exception once, in the thread chosen
/// (suspended before ready, the longest in its state first; never one
/// holding the pipeline or with a message open), and waits for that
/// context even when another frees first; with "block" it takes the first
/// context that frees and raises nothing.
#[test]
fn a_thread_message_swaps_a_waiting_thread_out() {
    use crate::config::ContextExhausted;
    for design in [NiuDesign::Original, NiuDesign::Modified] {
        for mode in [ContextExhausted::Block, ContextExhausted::Swap] {
            let mut rig = Rig::new(design, 3, 1, |n| n.context_exhausted = mode);
            rig.tiles[2].busy = [true; CONTEXTS];
            // 0 holds the pipeline; 1 ready since 5; 2 suspended since 9;
            // 3 suspended since 7, but with a thread message open.
            rig.tiles[2].swappable = [None, Some((false, 5)), Some((true, 9)), Some((true, 7))];
            rig.ok(2, 3, Opcode::SendhT, [0, 0x900, 0]);
            rig.ok(0, 0, Opcode::SendhT, [2, 0x800, 0]);
            rig.ok(0, 0, Opcode::Send2e, [7, 8, 0]);
            rig.idle(40);
            assert!(rig.nius[2].eject_waiting(rig.now)[0] > 0);
            let expected: Vec<usize> = match mode {
                ContextExhausted::Block => vec![],
                ContextExhausted::Swap => vec![2],
            };
            assert_eq!(rig.swapped[2], expected, "{design:?} {mode:?}");
            assert_eq!(rig.nius[2].counters.swaps, expected.len() as u64);
            // Context 1 frees first.
            rig.tiles[2].busy[1] = false;
            rig.idle(10);
            match mode {
                ContextExhausted::Block => assert!(rig.tiles[2].busy[1], "{design:?}"),
                ContextExhausted::Swap => {
                    assert!(!rig.tiles[2].busy[1], "{design:?}: waits for context 2");
                    rig.tiles[2].busy[2] = false;
                    rig.until(10, |r| r.tiles[2].busy[2]);
                    assert!(!rig.tiles[2].busy[1]);
                }
            }
            assert_eq!(
                rig.swapped[2], expected,
                "one exception, {design:?} {mode:?}"
            );
        }
    }
}

/// `niu.full_queue`: a Rendezvous send that fills its context's queue
/// while the CTS is outstanding suspends that context; with "context" the
/// other contexts' messaging instructions go on, with "port" they wait
/// until it can go on (and wake with it).
#[test]
fn a_full_queue_stalls_its_context_or_the_port() {
    use crate::config::FullQueue;
    for mode in [FullQueue::Context, FullQueue::Port] {
        let mut rig = Rig::new(NiuDesign::Modified, 3, 1, |c| {
            c.queue_flits = 2;
            c.full_queue = mode;
        });
        // Context 0: head and tag fill its 2-flit queue; the RTS goes and
        // the queue waits for the CTS, so the body finds no room.
        assert_eq!(
            rig.sendh(0, 0, 2, SendType::Rendezvous, 7),
            NiuOutcome::Done(None)
        );
        rig.until(10, |r| r.send_state(0, 7) == SendState::InProgress);
        assert_eq!(
            rig.issue(0, 0, Opcode::Sende, SendType::Thread, [1, 0, 0]),
            NiuOutcome::Suspend(SuspendCause::QueueFull)
        );
        // Context 1 posts a receive.
        let other = rig.issue(0, 1, Opcode::Str, SendType::Thread, [3, 0x40, 1]);
        match mode {
            FullQueue::Context => assert_eq!(other, NiuOutcome::Done(None)),
            FullQueue::Port => {
                assert_eq!(other, NiuOutcome::Suspend(SuspendCause::QueueFull));
                let why = rig.nius[0].describe_wait(1).unwrap();
                assert!(why.contains("messaging port"), "{why}");
            }
        }
        // The receiver posts: CTS, the head leaves, context 0 (and, with
        // the port, context 1) wake.
        rig.ok(2, 0, Opcode::Str, [7, 0x80, 1]);
        rig.until(60, |r| r.woken[0].contains(&0));
        let mut woken = rig.woken[0].clone();
        woken.sort();
        match mode {
            FullQueue::Context => assert_eq!(woken, vec![0]),
            FullQueue::Port => assert_eq!(woken, vec![0, 1]),
        }
        assert_eq!(
            rig.issue(0, 0, Opcode::Sende, SendType::Thread, [1, 0, 0]),
            NiuOutcome::Done(None)
        );
        rig.until(60, |r| r.recv_state(2, 7) == ReceiveState::Complete);
    }
}
