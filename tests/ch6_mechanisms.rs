//! The mechanisms of issue 28 (docs/chapter6.md, "Mechanisms from the
//! text"), at test size:
//!
//! - completion by polling (`SCMP_WAIT_POLL=1`, stressmarks/lib/sr.s): the
//!   send-and-receive library and programs find completion with `ldss` /
//!   `ldsr` loops that yield, never with `waits` / `waitr`; every
//!   send-and-receive stressmark prints the same results as with the waking
//!   wait, and `--profile thesis` applies it;
//! - Neighborhood's two histogram sections as one message of two `sendm`
//!   parts (`SCMP_SECTIONS_IN_ONE_MESSAGE=1`, nb_sr.s, and in both
//!   active-messages programs nb_am_sections.s): the results of the
//!   reference model, one data message per node pair and class fewer;
//! - Neighborhood's histograms combined in one distribution phase
//!   (`NB_ONE_PHASE=1`, nb_common.s, nb_sr.s, nb_am_lit.s): the results of
//!   the reference model, one histogram message per node pair, and a
//!   message of 16 `sendm` parts going through a queue smaller than it;
//! - the transmission-queue rules of thesis 5.5 and 5.6.2, in the small
//!   programs `programs/sendm_parts.s`, `sendm_copy.s` (both designs),
//!   `rts_front.s`, `rts_front_peek.s` and `channel_hold.s` (both designs),
//!   whose snapshots `scmp test` checks; here the figures that show each
//!   rule, under settings that would break it;
//! - context exhaustion's `swap` (thesis 3.4, stressmarks/lib/swap.s):
//!   with few contexts, threads swapped out and back leave every result
//!   the model's.

mod emu_support;
mod stressmark_support;

use std::process::{Command, Output};

use emu::RunEnd;
use stressmark_support::{root, run_source};
use stressmarks::Model;

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("scmp runs")
}

fn stdout_of(args: &[&str]) -> String {
    let out = scmp(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "scmp {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The numbers a program printed on tile `tile`'s line(s), in order.
fn numbers_of(stdout: &str, tile: u32) -> Vec<u64> {
    let prefix = format!("[t{tile} ");
    stdout
        .lines()
        .filter(|l| l.starts_with(&prefix))
        .flat_map(|l| {
            l.split_once(']')
                .unwrap()
                .1
                .split_whitespace()
                .map(|w| w.parse::<u64>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `--stats json` of a run, parsed.
fn stats_of(args: &[&str]) -> serde_json::Value {
    let path = std::env::temp_dir().join(format!(
        "scmp-ch6-{}-{}.json",
        std::process::id(),
        args.join("_").replace(['/', '.', '='], "-")
    ));
    let mut all: Vec<&str> = args.to_vec();
    let p = path.to_str().unwrap().to_string();
    all.extend(["--stats=json", "--stats-file", &p]);
    stdout_of(&all);
    let json = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let _ = std::fs::remove_file(&path);
    json
}

/// Idle cycles of every tile by cause, summed.
fn idle_by(stats: &serde_json::Value, cause: &str) -> u64 {
    stats["tiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["idle_by"][cause].as_u64().unwrap())
        .sum()
}

/// Every printed line but those holding cycle counts (timing differs).
fn results_without_cycles(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| !l.contains("cycles"))
        .map(str::to_string)
        .collect()
}

const SR_PROGRAMS: [&str; 8] = [
    "stressmarks/neighborhood/tests/nb_sr_2x2.s",
    "stressmarks/neighborhood/tests/nb_sr_lit_2x2.s",
    "stressmarks/matrix/tests/cg_sr_2x2.s",
    "stressmarks/transitive/tests/tc_sr_2x2.s",
    "stressmarks/lu/tests/lu_sr_ready_2x2.s",
    "stressmarks/lu/tests/lu_sr_ready_lit_2x2.s",
    "stressmarks/lu/tests/lu_sr_rdv_2x2.s",
    "stressmarks/lu/tests/lu_sr_rdv_lit_2x2.s",
];

#[test]
fn completion_by_polling_gives_the_same_results_and_never_suspends_on_an_entry() {
    for program in SR_PROGRAMS {
        let wake = stats_of(&["run", program]);
        let poll = stats_of(&["run", program, "--defsym", "SCMP_WAIT_POLL=1"]);
        assert!(
            idle_by(&wake, "wait_send") + idle_by(&wake, "wait_receive") > 0,
            "{program}: the waking wait suspends"
        );
        assert_eq!(
            idle_by(&poll, "wait_send") + idle_by(&poll, "wait_receive"),
            0,
            "{program}: no context ever suspends in waits/waitr when polling"
        );
        let polling: u64 = poll["wait_sites"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| {
                let f = s["function"].as_str().unwrap_or("");
                f.starts_with("SCMPWait") || f.starts_with("scmp_coll") || f == "SCMPSend"
            })
            .map(|s| s["polling"].as_u64().unwrap())
            .sum();
        assert!(polling > 0, "{program}: the library's loops poll");
        let a = results_without_cycles(&stdout_of(&["run", program]));
        let b = results_without_cycles(&stdout_of(&[
            "run",
            program,
            "--defsym",
            "SCMP_WAIT_POLL=1",
        ]));
        assert_eq!(a, b, "{program}: the same results");
    }
}

#[test]
fn the_thesis_profile_polls_and_sends_sections_as_parts() {
    let program = "stressmarks/neighborhood/tests/nb_sr_lit_2x2.s";
    let by_profile = stats_of(&["run", program, "--profile", "thesis"]);
    let by_symbols = stats_of(&[
        "run",
        program,
        "--profile",
        "thesis-fitted",
        "--set",
        "niu.dma_cycles_per_word=1",
        "--defsym",
        "SCMP_WAIT_POLL=1",
        "--defsym",
        "SCMP_SECTIONS_IN_ONE_MESSAGE=1",
    ]);
    assert_eq!(idle_by(&by_profile, "wait_receive"), 0);
    // The same program and NIU; only the instruction timing differs.
    assert_eq!(
        by_profile["network"]["messages"], by_symbols["network"]["messages"],
        "the profile's [profile.programs] are the symbols"
    );
    // A command-line definition wins over the profile's.
    let woken = stats_of(&[
        "run",
        program,
        "--profile",
        "thesis",
        "--defsym",
        "SCMP_WAIT_POLL=0",
    ]);
    assert!(idle_by(&woken, "wait_receive") > 0);
}

/// Messages of `kind` (`thread`, `data`, ...) a run sent, from `--stats json`.
fn messages_of(stats: &serde_json::Value, kind: &str) -> u64 {
    let types = stats["network"]["types"].as_array().unwrap();
    types
        .iter()
        .find(|t| t["type"] == kind)
        .map(|t| t["messages_sent"].as_u64().unwrap())
        .unwrap()
}

/// Data messages a run sent, from `--stats json` (type `data` in the
/// modified NIU, `data-orig` in the original).
fn data_messages(stats: &serde_json::Value) -> u64 {
    let types = stats["network"]["types"].as_array().unwrap();
    types
        .iter()
        .find(|t| t["type"] == "data" || t["type"] == "data-orig")
        .map(|t| t["messages_sent"].as_u64().unwrap())
        .unwrap()
}

#[test]
fn histogram_sections_as_sendm_parts_of_one_message_match_the_model() {
    for mesh in ["2x2", "4x4"] {
        for program in ["nb_sr", "nb_sr_lit", "nb_am", "nb_am_lit"] {
            let name = format!("stressmarks/neighborhood/tests/{program}_{mesh}.s");
            let path = root().join(&name);
            let text = std::fs::read_to_string(&path).unwrap();
            let full = path.display().to_string();
            for extra in [
                vec![("SCMP_SECTIONS_IN_ONE_MESSAGE".to_string(), 1)],
                vec![
                    ("SCMP_SECTIONS_IN_ONE_MESSAGE".to_string(), 1),
                    ("SCMP_WAIT_POLL".to_string(), 1),
                ],
            ] {
                let (defsyms, end, stdout) = run_source(&full, &text, &extra);
                assert!(matches!(end, RunEnd::AllThreadsEnded), "{name}: {end:?}");
                let parameters: Vec<(String, i64)> = defsyms
                    .iter()
                    .filter_map(|(n, v)| {
                        n.strip_prefix("NB_").map(|p| (p.to_ascii_lowercase(), *v))
                    })
                    .collect();
                let reference = Model::Neighborhood.reference(&parameters).unwrap();
                if let Err(e) = reference.check_output(&stdout) {
                    panic!("{name} {extra:?}: {e}\n{stdout}");
                }
            }
        }
    }
    // 4x4: each node sends each other node one message per class instead
    // of two (8 classes, 16 x 15 pairs): 1,920 data messages fewer.
    let program = "stressmarks/neighborhood/tests/nb_sr_lit_4x4.s";
    let two = data_messages(&stats_of(&["run", program]));
    let one = data_messages(&stats_of(&[
        "run",
        program,
        "--defsym",
        "SCMP_SECTIONS_IN_ONE_MESSAGE=1",
    ]));
    assert_eq!(two - one, 8 * 16 * 15, "{two} -> {one}");
    // The same in the active-messages programs: a request's answer is one
    // data message (sum, marker, difference, marker) instead of two.
    for program in [
        "stressmarks/neighborhood/tests/nb_am_4x4.s",
        "stressmarks/neighborhood/tests/nb_am_lit_4x4.s",
    ] {
        let two = data_messages(&stats_of(&["run", program]));
        let one = data_messages(&stats_of(&[
            "run",
            program,
            "--defsym",
            "SCMP_SECTIONS_IN_ONE_MESSAGE=1",
        ]));
        assert_eq!(two - one, 8 * 16 * 15, "{program}: {two} -> {one}");
    }
}

/// Runs a Neighborhood test program with `extra` symbols and checks its
/// printed results against the reference model (the model's parameters
/// are the program's `NB_` symbols but `NB_ONE_PHASE`, which only chooses
/// how the program combines its histograms).
fn check_neighborhood(name: &str, extra: &[(&str, i64)]) {
    let path = root().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let extra: Vec<(String, i64)> = extra.iter().map(|(n, v)| (n.to_string(), *v)).collect();
    let (defsyms, end, stdout) = run_source(&path.display().to_string(), &text, &extra);
    assert!(matches!(end, RunEnd::AllThreadsEnded), "{name}: {end:?}");
    let parameters: Vec<(String, i64)> = defsyms
        .iter()
        .filter(|(n, _)| n != "NB_ONE_PHASE")
        .filter_map(|(n, v)| n.strip_prefix("NB_").map(|p| (p.to_ascii_lowercase(), *v)))
        .collect();
    let reference = Model::Neighborhood.reference(&parameters).unwrap();
    if let Err(e) = reference.check_output(&stdout) {
        panic!("{name} {extra:?}: {e}\n{stdout}");
    }
}

/// One distribution phase (6.2.1: "once all of the nodes complete the
/// calculations for their rows, the histograms on each node must be
/// combined"): every class counted first, then one message per node pair
/// with its sections of all 16 histograms, in both designs' programs that
/// have it; the reference model's results on every test mesh.
#[test]
fn one_distribution_phase_matches_the_model_in_both_designs() {
    for mesh in ["1x1", "2x2", "3x2", "4x4"] {
        for program in ["nb_sr", "nb_sr_lit", "nb_am_lit"] {
            let name = format!("stressmarks/neighborhood/tests/{program}_{mesh}.s");
            check_neighborhood(&name, &[("NB_ONE_PHASE", 1)]);
            check_neighborhood(&name, &[("NB_ONE_PHASE", 1), ("SCMP_WAIT_POLL", 1)]);
        }
    }
    // 4x4: one histogram message per node pair instead of one per class
    // (8 classes, 16 x 15 pairs), and one sender thread per node instead
    // of one per class.
    let program = "stressmarks/neighborhood/tests/nb_sr_lit_4x4.s";
    let by_class = stats_of(&["run", program, "--defsym", "SCMP_SECTIONS_IN_ONE_MESSAGE=1"]);
    let phase = stats_of(&["run", program, "--defsym", "NB_ONE_PHASE=1"]);
    assert_eq!(
        data_messages(&by_class) - data_messages(&phase),
        7 * 16 * 15
    );
    assert_eq!(
        messages_of(&by_class, "thread") - messages_of(&phase, "thread"),
        7 * 16
    );
    // Active messages: one request (a thread message) per node pair
    // instead of one per class.
    let program = "stressmarks/neighborhood/tests/nb_am_lit_4x4.s";
    let by_class = stats_of(&["run", program, "--defsym", "SCMP_SECTIONS_IN_ONE_MESSAGE=1"]);
    let phase = stats_of(&["run", program, "--defsym", "NB_ONE_PHASE=1"]);
    assert_eq!(
        messages_of(&by_class, "thread") - messages_of(&phase, "thread"),
        7 * 16 * 15
    );
}

/// `nb_am.s`, which has no one-phase exchange, says so when assembled with
/// the symbol, instead of running something else.
#[test]
fn the_lean_active_messages_program_refuses_one_phase() {
    let out = scmp(&[
        "run",
        "stressmarks/neighborhood/tests/nb_am_2x2.s",
        "--defsym",
        "NB_ONE_PHASE=1",
    ]);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nb_am.s has no one-phase exchange"), "{err}");
}

/// 5.5 with one distribution phase: on 4x4 at test size a node's message
/// is 34 queue flits (head, tag, two pseudo-flits for each of 16 `sendm`
/// parts), more than a queue of 2 or 16 flits holds; it still goes, since
/// a part's pseudo-flits leave the queue when its transfer ends, and the
/// results stay the model's. At 2 flits the sender waits on its full
/// queue; from 8 flits on, at this size (parts of 15-16 words), it never
/// does.
#[test]
fn a_one_phase_message_longer_than_its_queue_goes_part_by_part() {
    fn args(queue: &str) -> [&str; 8] {
        let name = "stressmarks/neighborhood/tests/nb_sr_lit_4x4.s";
        let one_phase = "NB_ONE_PHASE=1";
        [
            "run",
            name,
            "--profile",
            "thesis",
            "--defsym",
            one_phase,
            "--set",
            queue,
        ]
    }
    let queue = |depth: u32| format!("niu.queue_flits={depth}");
    let full = |depth: u32| idle_by(&stats_of(&args(&queue(depth))), "queue_full");
    let at2 = full(2);
    assert!(at2 > 10_000, "{at2}");
    assert_eq!(full(8), 0);
    assert_eq!(full(16), 0);
    for depth in [2, 16] {
        let queue = queue(depth);
        let out = stdout_of(&args(&queue));
        let reference = Model::Neighborhood
            .reference(&[
                ("bits".into(), 7),
                ("dim".into(), 64),
                ("lines".into(), 8),
                ("tmin".into(), 2),
                ("tmax".into(), 8),
                ("ds".into(), 2),
                ("dl".into(), 8),
            ])
            .unwrap();
        if let Err(e) = reference.check_output(&out) {
            panic!("{queue}: {e}\n{out}");
        }
    }
}

/// 5.5: a `sendm`'s pseudo-flits stay in the queue until its memory
/// transfer ends. programs/sendm_parts.s prints how long its second `sendm`
/// and its `sendme` took.
#[test]
fn a_sendm_part_holds_its_queue_room_until_its_transfer_ends() {
    let p = "programs/sendm_parts.s";
    let waits = |extra: &[&str]| {
        let mut args = vec!["run", p];
        args.extend(extra);
        let out = stdout_of(&args);
        assert_eq!(numbers_of(&out, 1), [18528], "{out}");
        numbers_of(&out, 0)
    };
    // 4 flits (the program's): the sendme waits for the first part's 64
    // words to leave, one DMA period each.
    let four = waits(&[]);
    assert!(four[1] >= 64, "{four:?}");
    let slow = waits(&["--set", "niu.dma_cycles_per_word=2"]);
    assert!(slow[1] >= 120 && slow[1] > four[1] + 40, "{slow:?}");
    // 2 flits: already the first sendm waits for the head and tag, then
    // the second for the first part's words.
    let two = waits(&["--set", "niu.queue_flits=2"]);
    assert!(two[0] >= 64, "{two:?}");
    // 16 flits: the whole message fits; nothing waits.
    let sixteen = waits(&["--set", "niu.queue_flits=16"]);
    assert!(sixteen.iter().all(|&c| c < 10), "{sixteen:?}");
}

/// 5.6.2: only the message at the front of a context's queue sends its
/// RTS; another context's queue is not held up.
#[test]
fn only_the_front_message_of_a_context_queue_sends_its_rts() {
    for depth in ["16", "128"] {
        let out = stdout_of(&[
            "run",
            "programs/rts_front.s",
            "--set",
            &format!("niu.queue_flits={depth}"),
        ]);
        let posted = numbers_of(&out, 1)[1];
        let behind = numbers_of(&out, 2)[1];
        let other_context = numbers_of(&out, 3)[1];
        assert!(
            other_context < posted && posted < behind,
            "depth {depth}: {other_context} < {posted} < {behind}\n{out}"
        );
    }
}

/// 5.5, both designs: in the original NIU a `sendm` copies its words into
/// the queue before the NIU takes another messaging instruction, so the
/// `sendme` after a 64-word `sendm` waits 64 copy periods at any queue
/// depth; in the modified NIU it enqueues two pseudo-flits and the thread
/// goes on (programs/sendm_copy.s prints the cycles of the `sendm` and of
/// the `sendme` after it). The two designs' figures bound each other: an
/// original NIU that enqueued pseudo-flits would fail the first assertion,
/// a modified one that copied would fail the second.
#[test]
fn a_sendm_in_the_original_niu_blocks_further_sends_until_copied() {
    for depth in ["4", "16", "128"] {
        for dma in [1u64, 2] {
            let run = |p: &str| {
                let out = stdout_of(&[
                    "run",
                    p,
                    "--set",
                    &format!("niu.queue_flits={depth}"),
                    "--set",
                    &format!("niu.dma_cycles_per_word={dma}"),
                ]);
                assert_eq!(numbers_of(&out, 1), [8256], "{p}: {out}");
                numbers_of(&out, 0)
            };
            let original = run("programs/sendm_copy_original.s");
            let modified = run("programs/sendm_copy.s");
            let what = format!("depth {depth}, dma {dma}: {original:?} {modified:?}");
            // The thread goes on computing after the sendm in both.
            assert!(original[0] < 8 && modified[0] < 8, "{what}");
            // The original's next send waits for the 64 words' copy.
            assert!(original[1] >= 64 * dma - 1, "{what}");
            // The modified NIU's does not (the queue has room for two
            // pseudo-flits at every depth here: Ready mode, no handshake).
            assert!(modified[1] < 8, "{what}");
        }
    }
}

/// 5.6.2, seen from the receiver: while A, at the front of tile 0's queue,
/// waits for tile 1, no RTS for B (queued behind A) has reached tile 2.
/// programs/rts_front_peek.s has tile 2 load its entry for B with `ldsr`
/// well after an RTS sent at once would have arrived: 0 (Empty). The same
/// look with tile 1 posting at once (A done early) sees 3 (RTS Received),
/// so the look can tell the two apart.
#[test]
fn no_rts_goes_for_a_message_behind_the_front_of_its_queue() {
    for depth in ["16", "128"] {
        let set = format!("niu.queue_flits={depth}");
        let out = stdout_of(&["run", "programs/rts_front_peek.s", "--set", &set]);
        let tile2 = numbers_of(&out, 2);
        let posted = numbers_of(&out, 1)[1];
        assert_eq!(tile2[2], 0, "depth {depth}: B's entry at tile 2\n{out}");
        assert!(tile2[1] > posted, "depth {depth}\n{out}");
        let early = stdout_of(&[
            "run",
            "programs/rts_front_peek.s",
            "--set",
            &set,
            "--defsym",
            "DELAY=1",
        ]);
        assert_eq!(
            numbers_of(&early, 2)[2],
            3,
            "depth {depth}, A done early: B's RTS is in\n{early}"
        );
    }
}

/// 5.6.2 and 3.2: a queue keeps the injection channel until it has sent a
/// whole message, in both designs: the one-word message of tile 0's second
/// context arrives after the 128-word message that started before it.
#[test]
fn a_queue_keeps_the_injection_channel_for_a_whole_message() {
    for p in [
        "programs/channel_hold.s",
        "programs/channel_hold_original.s",
    ] {
        let out = stdout_of(&["run", p]);
        let long = numbers_of(&out, 1)[1];
        let short = numbers_of(&out, 2)[1];
        assert!(short >= long, "{p}: {short} >= {long}\n{out}");
        // And the short one was issued well before the long one ended.
        assert!(long > 128, "{p}: {long}");
    }
}

/// Thread messages a run sent, from `--stats json`.
fn thread_messages(stats: &serde_json::Value) -> u64 {
    let types = stats["network"]["types"].as_array().unwrap();
    types
        .iter()
        .find(|t| t["type"] == "thread")
        .map(|t| t["messages_sent"].as_u64().unwrap())
        .unwrap()
}

/// The timed region's cycles node 0 printed.
fn timed_cycles(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find(|l| l.contains("timed_cycles"))
        .expect("timed_cycles printed");
    line.split_whitespace().last().unwrap().parse().unwrap()
}

/// LU's AM requests as 6.3.1 describes them (`LU_AM_AS_NEEDED=1`,
/// stressmarks/lu/lu_am.s): each L and U block is requested when the
/// interior update first needs it, one request at a time, instead of all
/// of an iteration's before the update. The same blocks are requested (as
/// many thread messages) and the factorization is the same; the time
/// differs; the text profile sets it and a --defsym still wins.
#[test]
fn lu_requests_each_block_when_first_needed() {
    for mesh in ["2x2", "3x2"] {
        let program = format!("stressmarks/lu/tests/lu_am_lit_{mesh}.s");
        let at_once = stats_of(&["run", &program]);
        let needed = stats_of(&["run", &program, "--defsym", "LU_AM_AS_NEEDED=1"]);
        assert_eq!(
            thread_messages(&at_once),
            thread_messages(&needed),
            "{mesh}"
        );
        let a = stdout_of(&["run", &program]);
        let b = stdout_of(&["run", &program, "--defsym", "LU_AM_AS_NEEDED=1"]);
        assert_eq!(
            results_without_cycles(&a),
            results_without_cycles(&b),
            "{mesh}"
        );
        assert_ne!(
            timed_cycles(&a),
            timed_cycles(&b),
            "{mesh}: the requests wait between updates"
        );
        let profile = stdout_of(&["run", &program, "--profile", "thesis"]);
        let profile_off = stdout_of(&[
            "run",
            &program,
            "--profile",
            "thesis",
            "--defsym",
            "LU_AM_AS_NEEDED=0",
        ]);
        assert_ne!(timed_cycles(&profile), timed_cycles(&profile_off), "{mesh}");
        assert_eq!(results_without_cycles(&profile), results_without_cycles(&a));
    }
}

/// Context exhaustion's `swap` (thesis 3.4) with 4 contexts a tile, so
/// that the owners of LU's blocks swap threads out (the main thread among
/// them) for the requests that flood them: every printed result is the
/// model's, and threads were swapped. The runtime's list of saved frames
/// (`scmp_swap_top`, stressmarks/lib/swap.s) once sat in `.bss`, linked
/// after LU's heap label `lu_matrix`, so the handler wrote frame addresses
/// into the first blocks of the heap: a wrong checksum, found at 64 tiles
/// with every block requested at once.
#[test]
fn swapping_threads_out_keeps_every_result() {
    let mut args = vec![
        "run",
        "stressmarks/lu/lu_am.s",
        "--mesh",
        "3x3",
        "--boot",
        "all",
        "--niu",
        "original",
        "--defsym",
        "LU_N=64",
        "--defsym",
        "LU_B=8",
        "--set",
        "tile.contexts=4",
    ];
    let reference = Model::Lu
        .reference(&[("n".to_string(), 64), ("B".to_string(), 8)])
        .unwrap();
    let blocking = stdout_of(&args);
    reference.check_output(&blocking).unwrap();
    args.extend(["--set", "niu.context_exhausted=swap"]);
    let swapping = stdout_of(&args);
    if let Err(e) = reference.check_output(&swapping) {
        panic!("with swap: {e}\n{swapping}");
    }
    let swapped = stats_of(&args)["network"]["swapped_out"].as_u64().unwrap();
    assert!(swapped >= 4, "threads were swapped out: {swapped}");
}
