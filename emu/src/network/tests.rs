//! Router and mesh behaviour in small, exactly known situations.

use isa_spec::msg::{Flit, FlitKind, Head, MessageType};

use super::flit::{NetFlit, Port};
use super::{Network, PacketInfo, StallCause};
use crate::config::{Config, NetworkConfig, NetworkEngine};

/// A packet for [`Driver::offer`]: source, destination, class, flits.
#[derive(Clone, Copy, Debug)]
struct Pkt {
    src: u32,
    dst: u32,
    class: u8,
    len: u16,
}

/// A packet being injected: it, its offer index, packet id, VC, next flit.
type Injecting = (Pkt, usize, u32, u8, u16);

/// Injects whole packets as fast as credits allow and records each flit's
/// ejection cycle; the sink at a node can be switched off (it takes nothing).
struct Driver {
    net: Network,
    now: u64,
    /// Per node: packets waiting, and the one being injected (packet id, vc, next flit).
    queues: Vec<std::collections::VecDeque<(Pkt, usize)>>,
    current: Vec<Option<Injecting>>,
    /// Per offered packet: ejection cycle of each flit.
    arrivals: Vec<Vec<u64>>,
    /// Per offered packet: head injection cycle.
    injected: Vec<Option<u64>>,
    sink_off: Vec<bool>,
}

impl Driver {
    fn new(w: u32, h: u32, config: &NetworkConfig, classes: usize) -> Driver {
        Driver::on(w, h, config, classes, NetworkEngine::Reference)
    }

    fn on(w: u32, h: u32, config: &NetworkConfig, classes: usize, engine: NetworkEngine) -> Driver {
        let n = (w * h) as usize;
        Driver {
            net: Network::new(w, h, config, classes, engine),
            now: 0,
            queues: vec![Default::default(); n],
            current: vec![None; n],
            arrivals: Vec::new(),
            injected: Vec::new(),
            sink_off: vec![false; n],
        }
    }

    fn offer(&mut self, p: Pkt) -> usize {
        let i = self.arrivals.len();
        self.arrivals.push(Vec::new());
        self.injected.push(None);
        self.queues[p.src as usize].push_back((p, i));
        i
    }

    fn flit(&self, p: &Pkt, seq: u16) -> Flit {
        let w = self.net.width();
        if seq == 0 {
            let dx = (p.dst % w) as i32 - (p.src % w) as i32;
            let dy = (p.dst / w) as i32 - (p.src / w) as i32;
            return Flit::new(
                FlitKind::Head,
                Head::new(dx as i8, dy as i8, MessageType::Data).encode(),
            );
        }
        let kind = if seq + 1 == p.len {
            FlitKind::Tail
        } else {
            FlitKind::Body
        };
        Flit::new(kind, seq as u32)
    }

    /// One cycle: the network, then every terminal.
    fn cycle(&mut self) {
        let now = self.now;
        self.net.step(now);
        for node in 0..self.queues.len() as u32 {
            let n = node as usize;
            if !self.sink_off[n] {
                for vc in 0..self.net.vcs() as u8 {
                    while let Some(f) = self.net.peek_ejected(node, vc).copied() {
                        let i = self.net.packet(f.packet).tag as usize;
                        self.arrivals[i].push(now);
                        self.net.take_ejected(node, vc, now);
                    }
                }
            }
            if self.current[n].is_none()
                && let Some(&(p, i)) = self.queues[n].front()
                && let Some(vc) = self.net.free_injection_vc(node, p.class)
            {
                self.queues[n].pop_front();
                let id = self.net.new_packet(PacketInfo {
                    src: p.src,
                    dst: p.dst,
                    class: p.class,
                    len: p.len,
                    injected: now,
                    tail_injected: 0,
                    flow: 0,
                    tag: i as u64,
                });
                self.current[n] = Some((p, i, id, vc, 0));
            }
            if let Some((p, i, id, vc, seq)) = self.current[n]
                && self.net.can_inject(node, vc)
            {
                let flit = self.flit(&p, seq);
                if seq == 0 {
                    self.injected[i] = Some(now);
                }
                self.net.inject(node, vc, NetFlit::new(flit, id, seq), now);
                self.current[n] = (seq + 1 < p.len).then_some((p, i, id, vc, seq + 1));
            }
        }
        self.now += 1;
    }

    fn run(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.cycle();
        }
    }

    /// Cycles from head injection to tail ejection of packet `i`.
    fn latency(&self, i: usize) -> u64 {
        self.arrivals[i].last().expect("arrived") - self.injected[i].expect("injected")
    }
}

fn config(num_vcs: u32, buf: u32) -> NetworkConfig {
    let mut c = Config::default().network;
    c.num_vcs = num_vcs;
    c.vc_buf_size = buf;
    c
}

#[test]
fn routing_from_every_position_reaches_every_node() {
    // A packet from every node to every node of a 4x3 mesh, one at a time:
    // all arrive, at the right node (the sink checks), and the zero-load
    // latency grows by the same amount with every hop.
    let c = config(1, 4);
    let (w, h) = (4u32, 3u32);
    let mut per_hop = None;
    let mut base = None;
    for src in 0..w * h {
        for dst in 0..w * h {
            let mut d = Driver::new(w, h, &c, 1);
            let i = d.offer(Pkt {
                src,
                dst,
                class: 0,
                len: 3,
            });
            d.run(60);
            assert_eq!(d.arrivals[i].len(), 3, "{src}->{dst}");
            let hops = ((src % w) as i64 - (dst % w) as i64).abs()
                + ((src / w) as i64 - (dst / w) as i64).abs();
            let lat = d.latency(i) as i64;
            match (base, per_hop) {
                (None, _) if hops == 0 => base = Some(lat),
                (Some(b), None) if hops == 1 => per_hop = Some(lat - b),
                (Some(b), Some(p)) => assert_eq!(lat, b + hops * p, "{src}->{dst}"),
                _ => {}
            }
            d.net
                .check_at_rest()
                .unwrap_or_else(|e| panic!("{src}->{dst}: {e}"));
        }
    }
    let per_hop = per_hop.unwrap();
    let c = Config::default().network;
    // A hop is the router pipeline plus the link.
    assert_eq!(
        per_hop,
        (c.routing_delay + c.vc_alloc_delay + c.sw_alloc_delay + c.st_final_delay + c.link_delay)
            as i64
    );
}

#[test]
fn flits_follow_the_head_one_per_cycle() {
    // Buffers deeper than the credit round trip (ejection included).
    let c = config(1, 8);
    let mut d = Driver::new(4, 1, &c, 1);
    let i = d.offer(Pkt {
        src: 0,
        dst: 3,
        class: 0,
        len: 6,
    });
    d.run(60);
    let a = &d.arrivals[i];
    assert_eq!(a.len(), 6);
    for k in 1..6 {
        assert_eq!(
            a[k],
            a[0] + k as u64,
            "wormhole: one flit per cycle behind the head"
        );
    }
}

#[test]
fn a_packet_blocks_behind_another_on_its_only_vc() {
    // One VC: packet B (1 -> 3) needs the link 1 -> 2 that packet A (0 -> 3)
    // holds; B's head waits for A's tail, then follows.
    let c = config(1, 2);
    let mut d = Driver::new(4, 1, &c, 1);
    let a = d.offer(Pkt {
        src: 0,
        dst: 3,
        class: 0,
        len: 8,
    });
    d.run(3);
    let b = d.offer(Pkt {
        src: 1,
        dst: 3,
        class: 0,
        len: 2,
    });
    d.run(80);
    assert_eq!(d.arrivals[a].len(), 8);
    assert_eq!(d.arrivals[b].len(), 2);
    assert!(
        d.arrivals[b][0] > *d.arrivals[a].last().unwrap(),
        "B's head arrived before A's tail: {:?} {:?}",
        d.arrivals[a],
        d.arrivals[b]
    );
    assert!(d.net.counters().stalls[StallCause::VcBusy as usize] > 0);
    // With two VCs, B takes the other one and is not held up by A's length.
    let c2 = config(2, 2);
    let mut d = Driver::new(4, 1, &c2, 1);
    let a = d.offer(Pkt {
        src: 0,
        dst: 3,
        class: 0,
        len: 8,
    });
    d.run(3);
    let b = d.offer(Pkt {
        src: 1,
        dst: 3,
        class: 0,
        len: 2,
    });
    d.run(80);
    assert!(d.arrivals[b][0] < *d.arrivals[a].last().unwrap());
}

#[test]
fn classes_never_share_a_vc_so_a_blocked_class_does_not_block_another() {
    // Node 3's sink takes nothing: class-0 packets fill the path's class-0
    // buffers. A class-1 packet over the same links still arrives.
    let c = config(1, 2);
    let mut d = Driver::new(4, 1, &c, 2);
    d.sink_off[3] = true;
    for _ in 0..4 {
        d.offer(Pkt {
            src: 0,
            dst: 3,
            class: 0,
            len: 4,
        });
    }
    d.run(40);
    let stalled_before = d.net.in_flight();
    assert!(stalled_before >= 4, "class 0 is backed up");
    let late = d.offer(Pkt {
        src: 1,
        dst: 3,
        class: 1,
        len: 3,
    });
    // Node 3 takes class-1 flits only (VC 1 of its local port).
    let mut got = Vec::new();
    for _ in 0..40 {
        d.cycle();
        while let Some(f) = d.net.peek_ejected(3, 1).copied() {
            assert_eq!(d.net.packet(f.packet).class, 1);
            got.push(f);
            d.net.take_ejected(3, 1, d.now - 1);
        }
    }
    assert_eq!(got.len(), 3, "the class-1 packet got through");
    assert_eq!(d.net.packet(got[0].packet).tag, late as u64);
    // Class 0 is still backed up, and is reported as waiting for node 3's NIU.
    let report = d.net.stall_report();
    assert!(
        report.held.iter().any(|h| h.waits_for.contains("ejection")),
        "{report}"
    );
}

#[test]
fn credits_bound_what_a_link_carries_and_all_come_back() {
    // A one-flit buffer with a credit loop of several cycles: a long packet
    // streams at one flit per credit round trip, and everything comes back.
    let mut c = config(1, 1);
    c.credit_delay = 3;
    let mut d = Driver::new(2, 1, &c, 1);
    let i = d.offer(Pkt {
        src: 0,
        dst: 1,
        class: 0,
        len: 10,
    });
    d.run(200);
    let a = &d.arrivals[i];
    assert_eq!(a.len(), 10);
    let gaps: Vec<u64> = a.windows(2).map(|p| p[1] - p[0]).collect();
    assert!(gaps.iter().all(|&g| g == gaps[0] && g > 1), "{gaps:?}");
    // Deeper buffers hide the round trip.
    let mut c4 = c.clone();
    c4.vc_buf_size = 8;
    let mut d4 = Driver::new(2, 1, &c4, 1);
    let j = d4.offer(Pkt {
        src: 0,
        dst: 1,
        class: 0,
        len: 10,
    });
    d4.run(200);
    assert!(d4.arrivals[j].windows(2).all(|p| p[1] - p[0] == 1));
    for net in [&d.net, &d4.net] {
        net.check_at_rest().unwrap();
    }
}

#[test]
fn two_inputs_share_an_output_fairly() {
    // Nodes 0 and 2 of a 3x1 mesh stream into node 1: its ejection link
    // alternates between them, so both get half.
    let c = config(1, 4);
    let mut d = Driver::new(3, 1, &c, 1);
    let mut from0 = Vec::new();
    let mut from2 = Vec::new();
    for _ in 0..20 {
        from0.push(d.offer(Pkt {
            src: 0,
            dst: 1,
            class: 0,
            len: 2,
        }));
        from2.push(d.offer(Pkt {
            src: 2,
            dst: 1,
            class: 0,
            len: 2,
        }));
    }
    d.run(60);
    let done = |v: &Vec<usize>| v.iter().filter(|&&i| d.arrivals[i].len() == 2).count();
    let (a, b) = (done(&from0), done(&from2));
    assert!(a >= 10 && b >= 10 && a.abs_diff(b) <= 1, "{a} vs {b}");
    // Once all have arrived, node 1's ejection link carried each flit once.
    d.run(100);
    assert!(d.arrivals.iter().all(|a| a.len() == 2));
    let ejection = d.net.counters().link_flits[super::flit::PORTS + Port::Local as usize];
    assert_eq!(ejection, 80);
}

#[test]
fn a_stalled_network_is_reported_with_every_held_flit() {
    let reference = stalled_report(NetworkEngine::Reference);
    assert_eq!(stalled_report(NetworkEngine::Fast), reference);
    // Both cores' reports, with two classes.
    let report = |engine| {
        let mut d = Driver::on(4, 1, &config(1, 2), 2, engine);
        d.sink_off[3] = true;
        for class in [0, 1, 0, 1] {
            d.offer(Pkt {
                src: 0,
                dst: 3,
                class,
                len: 3,
            });
        }
        d.run(60);
        d.net.stall_report().to_string()
    };
    assert_eq!(
        report(NetworkEngine::Fast),
        report(NetworkEngine::Reference)
    );
}

fn stalled_report(engine: NetworkEngine) -> String {
    let mut c = config(1, 2);
    c.stall_cycles = 50;
    let mut d = Driver::on(3, 1, &c, 1, engine);
    d.sink_off[2] = true;
    for _ in 0..3 {
        d.offer(Pkt {
            src: 0,
            dst: 2,
            class: 0,
            len: 4,
        });
    }
    let mut stalled_at = None;
    for _ in 0..200 {
        d.cycle();
        if d.net.is_stalled(d.now - 1) {
            stalled_at = Some(d.now - 1);
            break;
        }
    }
    let at = stalled_at.expect("the stall is detected");
    let r = d.net.stall_report();
    assert!(at - r.last_move >= 50);
    assert_eq!(r.held.len() as u64 + r.on_links as u64, d.net.in_flight());
    let text = r.to_string();
    assert!(text.contains("network stalled"), "{text}");
    assert!(text.contains("router 1 in W vc0"), "{text}");
    assert!(text.contains("a credit"), "{text}");
    text
}
