//! Random all-to-all messaging programs, in both designs and random router
//! delays: every message arrives exactly once with its payload intact and
//! nothing deadlocks, and the run is the same cycle for cycle however the
//! simulation is sliced (lockstep, long and short epochs, the tiles of
//! every round on several host threads), and on either router core.
//!
//! Each case is a random plan (mesh, who sends how many words to whom),
//! written out as one assembly program whose tables tell each tile what to
//! send and what to expect: the send-and-receive version posts its
//! receives, sends Rendezvous messages and checks what `waitr` delivered;
//! the active-message version sends data messages to the receiver's inbox
//! followed by a thread message that counts them (the flag may overtake
//! the data, thesis 3.4, so the receiver also waits for each word).

mod emu_support;

use std::fmt::Write;

use emu::{ConfigBuilder, Program, RunEnd};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct Msg {
    src: u32,
    dst: u32,
    id: u32,
    len: u32,
}

#[derive(Clone, Debug)]
struct Plan {
    w: u32,
    h: u32,
    msgs: Vec<Msg>,
    /// `network.KEY=VALUE` settings of the router pipeline.
    delays: Vec<String>,
}

/// Router delays around the defaults (the synchronization's lookahead is
/// computed from them): routing, VC and switch allocation and traversal 0
/// or 1, links and credits 1 or 2.
fn delays() -> impl Strategy<Value = Vec<String>> {
    (0u32..=1, 0u32..=1, 0u32..=1, 0u32..=1, 1u32..=2, 1u32..=2).prop_map(
        |(routing, vc, sw, st, link, credit)| {
            [
                ("routing_delay", routing),
                ("vc_alloc_delay", vc),
                ("sw_alloc_delay", sw),
                ("st_final_delay", st),
                ("link_delay", link),
                ("credit_delay", credit),
            ]
            .iter()
            .map(|(k, v)| format!("network.{k}={v}"))
            .collect()
        },
    )
}

fn plan() -> impl Strategy<Value = Plan> {
    (1u32..=4, 1u32..=2)
        .prop_flat_map(|(w, h)| {
            let n = w * h;
            let msg = (0..n, 0..n, 1u32..=6);
            (
                Just((w, h)),
                prop::collection::vec(prop::collection::vec(msg, 0..=4), n as usize),
                delays(),
            )
        })
        .prop_map(|((w, h), per_tile, delays)| {
            let mut msgs = Vec::new();
            for (src, list) in per_tile.into_iter().enumerate() {
                for (k, (_, dst, len)) in list.into_iter().enumerate() {
                    let src = src as u32;
                    msgs.push(Msg {
                        src,
                        dst,
                        id: src * 16 + k as u32,
                        len,
                    });
                }
            }
            Plan { w, h, msgs, delays }
        })
}

/// Word j (from 1) of message `id` is `id * 256 + j` (the programs compute
/// it). The tables: `in_tab[node]` points to a count and (id, len, inbox word
/// offset) triples, `out_tab[node]` to a count and (dst, id, len, offset)
/// quadruples.
fn tables(plan: &Plan) -> String {
    let n = plan.w * plan.h;
    let mut offsets = vec![0u32; plan.msgs.len()];
    let mut next = vec![0u32; n as usize];
    for (i, m) in plan.msgs.iter().enumerate() {
        offsets[i] = next[m.dst as usize];
        next[m.dst as usize] += m.len;
    }
    let mut s = String::from("    .data\n    .align 2\nin_tab:\n");
    for t in 0..n {
        writeln!(s, "    .word in_{t}").unwrap();
    }
    s.push_str("out_tab:\n");
    for t in 0..n {
        writeln!(s, "    .word out_{t}").unwrap();
    }
    for t in 0..n {
        let ins: Vec<usize> = (0..plan.msgs.len())
            .filter(|i| plan.msgs[*i].dst == t)
            .collect();
        write!(s, "in_{t}: .word {}", ins.len()).unwrap();
        for i in ins {
            write!(
                s,
                ", {}, {}, {}",
                plan.msgs[i].id, plan.msgs[i].len, offsets[i]
            )
            .unwrap();
        }
        let outs: Vec<usize> = (0..plan.msgs.len())
            .filter(|i| plan.msgs[*i].src == t)
            .collect();
        write!(s, "\nout_{t}: .word {}", outs.len()).unwrap();
        for i in outs {
            let m = &plan.msgs[i];
            write!(s, ", {}, {}, {}, {}", m.dst, m.id, m.len, offsets[i]).unwrap();
        }
        s.push('\n');
    }
    let words: u32 = plan.msgs.iter().map(|m| m.len).sum::<u32>().max(1);
    writeln!(s, "counter: .word 0\ninbox: .space {}", 4 * words).unwrap();
    s
}

/// Prologue: s1 = this tile's in list, s2 = its out list.
const PROLOGUE: &str = "
    .text
    .globl _start
_start:
    csrr s0, nodeid
    slli t0, s0, 2
    la t1, in_tab
    add t1, t1, t0
    lw s1, 0(t1)
    la t1, out_tab
    add t1, t1, t0
    lw s2, 0(t1)
";

/// Sends the out list's messages; `HEADER` is the design's `sendh`.
fn send_loop(header: &str) -> String {
    format!(
        "
    lw s3, 0(s2)
    addi s4, s2, 4
send_next:
    beqz s3, sent
    lw a0, 0(s4)            # dst
    lw a1, 4(s4)            # id
    lw a2, 8(s4)            # len
    lw a4, 12(s4)           # word offset in the receiver's inbox
{header}
    slli t1, a1, 8
    li t2, 1
1:  add t3, t1, t2
    beq t2, a2, 2f
    send t3
    addi t2, t2, 1
    j 1b
2:  sende t3
"
    )
}

/// Checks the in list's words (waiting first with `WAIT`, a0 = id, a2 =
/// len, t4 = address); s5 counts wrong words; prints it and ends.
fn check_loop(wait: &str) -> String {
    format!(
        "
    li s5, 0
    lw s3, 0(s1)
    addi s4, s1, 4
check_next:
    beqz s3, checked
    lw a0, 0(s4)
    lw a2, 4(s4)
    lw t4, 8(s4)
    slli t4, t4, 2
    la t0, inbox
    add t4, t4, t0
    slli t1, a0, 8
    li t2, 1
{wait}
1:  add t3, t1, t2
    lw t5, 0(t4)
    beq t5, t3, 2f
    addi s5, s5, 1
2:  addi t4, t4, 4
    beq t2, a2, 3f
    addi t2, t2, 1
    j 1b
3:  addi s4, s4, 12
    addi s3, s3, -1
    j check_next
checked:
    mv a0, s5
    li a7, 0x5c00
    ecall
    li a0, 10
    li a7, 0x5c02
    ecall
    endt
"
    )
}

fn send_and_receive(plan: &Plan) -> String {
    let mut s = String::from(PROLOGUE);
    // Post every receive first.
    s.push_str(
        "
    lw s3, 0(s1)
    addi s4, s1, 4
1:  beqz s3, 2f
    lw a0, 0(s4)
    lw a2, 8(s4)
    slli a2, a2, 2
    la t0, inbox
    add a2, a2, t0
    li a3, 1
    str a0, a2, a3
    addi s4, s4, 12
    addi s3, s3, -1
    j 1b
2:
",
    );
    s.push_str(&send_loop("    sendh a0, rdv, a1"));
    s.push_str(
        "
    addi s4, s4, 16
    addi s3, s3, -1
    j send_next
sent:
    lw s3, 0(s2)            # every send Complete, then removed
    addi s4, s2, 4
1:  beqz s3, 2f
    lw a1, 4(s4)
    waits a1
    rms a1
    addi s4, s4, 16
    addi s3, s3, -1
    j 1b
2:
",
    );
    s.push_str(&check_loop("    waitr a0\n    rmr a0"));
    s.push_str(&tables(plan));
    s
}

fn active_messages(plan: &Plan) -> String {
    let mut s = String::from(PROLOGUE);
    s.push_str(&send_loop(
        "    slli a4, a4, 2
    la t0, inbox
    add a4, a4, t0
    li a5, 1
    sendh a0, data, a4, a5",
    ));
    s.push_str(
        "
    la t0, arrived          # the flag: a thread that counts the message
    sendh a0, thread, t0
    sende zero
    addi s4, s4, 16
    addi s3, s3, -1
    j send_next
sent:
    lw s3, 0(s1)            # wait for every flag
    la t0, counter
1:  lw t1, 0(t0)
    beq t1, s3, 2f
    yield
    j 1b
2:
",
    );
    // A flag may overtake its data: wait for each word too.
    s.push_str(&check_loop(
        "    mv a3, t4
    mv a5, t2
10: add t3, t1, a5
    lw t5, 0(a3)
    beq t5, t3, 11f
    yield
    j 10b
11: addi a3, a3, 4
    beq a5, a2, 12f
    addi a5, a5, 1
    j 10b
12:",
    ));
    s.push_str(
        "
arrived:
    la t0, counter
    li t1, 1
    amoadd.w zero, t1, (t0)
    endt
",
    );
    s.push_str(&tables(plan));
    s
}

/// How a run is sliced: lockstep, or the epoch and the host threads (with
/// every round spread over them).
#[derive(Clone, Copy, Debug)]
enum Slicing {
    Lockstep,
    Epoch(u32, u32),
    /// The ordinary slicing on the reference router core (the ordinary
    /// run is on the default, the fast one).
    ReferenceNetwork,
}

fn run(plan: &Plan, design: &str, text: &str, slicing: Slicing) -> (String, u64, emu::Stats) {
    let elf = emu_support::assemble("all_to_all.s", text).expect("assembles");
    let program = Program::from_elf(&elf).expect("loads");
    let mut b = ConfigBuilder::new();
    b.set(&format!("mesh.width={}", plan.w)).unwrap();
    b.set(&format!("mesh.height={}", plan.h)).unwrap();
    b.set("boot.tiles=all").unwrap();
    b.set("tile.contexts=4").unwrap();
    b.set(&format!("niu.design=\"{design}\"")).unwrap();
    b.set("sim.max_cycles=2000000").unwrap();
    for d in &plan.delays {
        b.set(d).unwrap();
    }
    if let Slicing::Epoch(epoch, threads) = slicing {
        b.set(&format!("sim.epoch_cycles={epoch}")).unwrap();
        b.set(&format!("sim.host_threads={threads}")).unwrap();
        b.set("sim.host_parallel_cycles=0").unwrap();
    }
    if let Slicing::ReferenceNetwork = slicing {
        b.set("sim.network_engine=\"reference\"").unwrap();
    }
    let config = b.build().unwrap();
    let lockstep = matches!(slicing, Slicing::Lockstep);
    let (result, console) = emu_support::run_untraced_with(&config, &program, lockstep);
    let out = String::from_utf8_lossy(&console.stdout).to_string();
    assert!(
        matches!(result.end, RunEnd::AllThreadsEnded),
        "{design} {slicing:?}: {:?}\n{out}\n{text}",
        result.end
    );
    (out, result.stats.total_cycles, result.stats)
}

fn check(plan: &Plan, design: &str, text: &str) -> Result<(), TestCaseError> {
    // A plan without messages would check nothing below.
    prop_assume!(!plan.msgs.is_empty());
    let (out, cycles, stats) = run(plan, design, text, Slicing::Epoch(4096, 1));
    // One line per tile: no wrong word.
    let n = (plan.w * plan.h) as usize;
    let zeros = out
        .lines()
        .filter(|l| l.ends_with(" 0") || *l == "0")
        .count();
    prop_assert_eq!(zeros, n, "{}", out);
    // Exactly once: every message sent and received once, no more.
    let by_type = |ty: &str| {
        let t = stats.network.types.iter().find(|t| t.ty == ty);
        t.map_or((0, 0), |t| (t.messages_sent, t.messages_received))
    };
    let m = plan.msgs.len() as u64;
    if design == "modified" {
        prop_assert_eq!(by_type("data"), (m, m));
        prop_assert_eq!(by_type("rts"), (m, m));
        prop_assert_eq!(by_type("cts"), (m, m));
    } else {
        prop_assert_eq!(by_type("data-orig"), (m, m));
        prop_assert_eq!(by_type("thread"), (m, m));
    }
    prop_assert_eq!(stats.network.discarded, 0);
    // Sliced differently in time, the run is the same as in lockstep;
    // on the other router core, the same to the last statistic.
    for slicing in [
        Slicing::Lockstep,
        Slicing::Epoch(7, 3),
        Slicing::ReferenceNetwork,
    ] {
        let (out2, cycles2, stats2) = run(plan, design, text, slicing);
        prop_assert_eq!(&out2, &out, "{:?}", slicing);
        prop_assert_eq!(cycles2, cycles, "{:?}", slicing);
        if let Slicing::ReferenceNetwork = slicing {
            prop_assert_eq!(stats2.to_text(), stats.to_text());
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn all_to_all_send_and_receive(plan in plan()) {
        check(&plan, "modified", &send_and_receive(&plan))?;
    }

    #[test]
    fn all_to_all_active_messages(plan in plan()) {
        check(&plan, "original", &active_messages(&plan))?;
    }
}
