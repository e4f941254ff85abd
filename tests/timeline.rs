//! `scmp run --timeline`: the file is checked with tools independent of the
//! writer: a JSON Schema of the Chrome trace event format
//! (`tests/timeline/trace_event_format.schema.json`, validated by the
//! `jsonschema` crate), and a reader here that rebuilds every thread's
//! slices from the events as a trace viewer does and checks them: state
//! slices never overlap, each `sendh` lies in a `running` slice, each
//! flow's start and end fall inside slices of their threads, link counters
//! stay within one flit per cycle, and each context's time by state equals
//! the run's statistics. For `programs/transfers.s` (four messages between
//! two tiles) the slices and arrows are the known ones.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// A slice as a viewer sees it.
#[derive(Clone, Debug)]
struct Slice {
    name: String,
    cat: String,
    ts: f64,
    dur: f64,
}

/// Where a flow event is: (pid, tid, ts).
type FlowPoint = (u64, u64, f64);

/// A timeline read back: names, slices per thread, flows, counters.
#[derive(Default)]
struct Timeline {
    processes: HashMap<u64, String>,
    threads: HashMap<(u64, u64), String>,
    slices: HashMap<(u64, u64), Vec<Slice>>,
    /// id -> (start (pid, tid, ts), end (pid, tid, ts)).
    flows: HashMap<u64, (Option<FlowPoint>, Option<FlowPoint>)>,
    counters: Vec<(u64, String, f64, f64)>,
}

fn num(e: &Value, key: &str) -> f64 {
    e[key].as_f64().unwrap_or_else(|| panic!("{key} of {e}"))
}

fn read(document: &Value) -> Timeline {
    let mut t = Timeline::default();
    for e in document["traceEvents"].as_array().expect("traceEvents") {
        let pid = e["pid"].as_u64().unwrap();
        let tid = e["tid"].as_u64().unwrap();
        let name = e["name"].as_str().unwrap().to_string();
        match e["ph"].as_str().unwrap() {
            "M" if name == "process_name" => {
                t.processes
                    .insert(pid, e["args"]["name"].as_str().unwrap().into());
            }
            "M" if name == "thread_name" => {
                t.threads
                    .insert((pid, tid), e["args"]["name"].as_str().unwrap().into());
            }
            "M" => {}
            "X" => t.slices.entry((pid, tid)).or_default().push(Slice {
                name,
                cat: e["cat"].as_str().unwrap_or("").into(),
                ts: num(e, "ts"),
                dur: num(e, "dur"),
            }),
            "s" => {
                let id = e["id"].as_u64().unwrap();
                let flow = t.flows.entry(id).or_default();
                assert!(flow.0.is_none(), "flow {id} starts twice");
                flow.0 = Some((pid, tid, num(e, "ts")));
            }
            "f" => {
                let id = e["id"].as_u64().unwrap();
                assert_eq!(e["bp"], "e", "flow ends bind to their enclosing slice");
                let flow = t.flows.entry(id).or_default();
                assert!(flow.1.is_none(), "flow {id} ends twice");
                flow.1 = Some((pid, tid, num(e, "ts")));
            }
            "C" => {
                for (_, v) in e["args"].as_object().unwrap() {
                    t.counters
                        .push((pid, name.clone(), num(e, "ts"), v.as_f64().unwrap()));
                }
            }
            ph => panic!("unexpected phase {ph}: {e}"),
        }
    }
    for slices in t.slices.values_mut() {
        slices.sort_by(|a, b| a.ts.total_cmp(&b.ts).then(b.dur.total_cmp(&a.dur)));
    }
    t
}

impl Timeline {
    /// The innermost slice of a thread containing `ts`.
    fn slice_at(&self, pid: u64, tid: u64, ts: f64) -> Option<&Slice> {
        self.slices
            .get(&(pid, tid))?
            .iter()
            .filter(|s| s.ts <= ts && ts < s.ts + s.dur)
            .min_by(|a, b| a.dur.total_cmp(&b.dur))
    }

    /// Checks what holds for any run; returns the state time per
    /// (tile, context, state name).
    fn check(&self) -> HashMap<(u64, u64, String), f64> {
        let mut by_state = HashMap::new();
        for (&(pid, tid), slices) in &self.slices {
            assert!(self.processes.contains_key(&pid), "pid {pid} has no name");
            assert!(
                self.threads.contains_key(&(pid, tid)),
                "thread {pid}/{tid} has no name"
            );
            let states: Vec<&Slice> = slices.iter().filter(|s| s.cat == "state").collect();
            for w in states.windows(2) {
                assert!(
                    w[1].ts >= w[0].ts + w[0].dur,
                    "state slices overlap on {pid}/{tid}: {w:?}"
                );
            }
            for s in &states {
                assert!(s.dur > 0.0);
                *by_state
                    .entry((pid - 1, tid - 1, s.name.clone()))
                    .or_insert(0.0) += s.dur;
            }
            for s in slices.iter().filter(|s| s.name.starts_with("sendh")) {
                assert!(
                    states.iter().any(|r| r.name == "running"
                        && r.ts <= s.ts
                        && s.ts + s.dur <= r.ts + r.dur),
                    "{s:?} outside a running slice on {pid}/{tid}"
                );
            }
        }
        for (id, (start, end)) in &self.flows {
            let (sp, st, sts) = start.unwrap_or_else(|| panic!("flow {id} has no start"));
            let (ep, et, ets) = end.unwrap_or_else(|| panic!("flow {id} has no end"));
            assert!(sts <= ets, "flow {id} goes back in time");
            let from = self
                .slice_at(sp, st, sts)
                .unwrap_or_else(|| panic!("flow {id} starts outside a slice"));
            assert!(
                from.name.starts_with("sendh"),
                "flow {id} starts at {from:?}"
            );
            assert!(
                self.slice_at(ep, et, ets).is_some(),
                "flow {id} ends outside a slice"
            );
        }
        for (pid, name, ts, v) in &self.counters {
            assert!(name.starts_with("link "), "{name}");
            assert!((0.0..=1.0).contains(v), "{pid} {name} at {ts}: {v}");
        }
        by_state
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scmp-timeline-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `program` with a timeline and JSON statistics; checks the file
/// against the schema and the invariants; returns it read back, with the
/// statistics.
fn timeline_of(program: &Path, dir: &Path) -> (Timeline, Value) {
    let json = dir.join("timeline.json");
    let stats = dir.join("stats.json");
    let out = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(program)
        .arg(format!("--timeline={}", json.display()))
        .args(["--timeline-bucket", "50", "--stats=json", "--stats-file"])
        .arg(&stats)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c < 124),
        "{}: {out:?}",
        program.display()
    );
    let document: Value =
        serde_json::from_slice(&std::fs::read(&json).unwrap()).expect("the timeline is JSON");
    let schema: Value =
        serde_json::from_str(include_str!("timeline/trace_event_format.schema.json"))
            .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", program.display());
    let stats: Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    let timeline = read(&document);
    let by_state = timeline.check();
    // Each context's time by state is what the statistics count.
    for tile in stats["tiles"].as_array().unwrap() {
        let t = tile["tile"].as_u64().unwrap();
        for c in tile["contexts"].as_array().unwrap() {
            let ctx = c["context"].as_u64().unwrap();
            let time = |state: &str| {
                by_state
                    .get(&(t, ctx, state.to_string()))
                    .copied()
                    .unwrap_or(0.0) as u64
            };
            let what = format!("{}: tile {t} context {ctx}", program.display());
            assert_eq!(
                time("running"),
                c["running"].as_u64().unwrap(),
                "{what}: running"
            );
            assert_eq!(
                time("ready"),
                c["ready_waiting"].as_u64().unwrap(),
                "{what}: ready"
            );
            for (cause, cycles) in c["suspended"].as_object().unwrap() {
                assert_eq!(
                    time(&format!("suspended: {cause}")),
                    cycles.as_u64().unwrap(),
                    "{what}: suspended {cause}"
                );
            }
        }
    }
    (timeline, stats)
}

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("programs")
        .join(name)
}

#[test]
fn transfers_slices_and_arrows() {
    let dir = scratch("transfers");
    let (t, _) = timeline_of(&program("transfers.s"), &dir);
    assert_eq!(t.processes[&1], "tile 0 (0,0)");
    assert_eq!(t.processes[&2], "tile 1 (1,0)");
    assert_eq!(t.threads[&(1, 1)], "context 0");
    assert_eq!(t.threads[&(2, 1000)], "NIU");
    let names = |pid, tid| -> Vec<String> {
        t.slices[&(pid, tid)]
            .iter()
            .map(|s| s.name.clone())
            .collect()
    };
    // The sender waits for its sends, the receiver for its receive.
    assert!(names(1, 1).contains(&"suspended: wait_send".to_string()));
    assert!(names(2, 1).contains(&"suspended: wait_receive".to_string()));
    assert_eq!(
        names(1, 1)
            .iter()
            .filter(|n| n.starts_with("sendh"))
            .count(),
        3
    );
    // Four messages: three data messages to tile 1 (Rendezvous, Ready,
    // discarded Ready) and the thread message that says "go" to tile 0.
    let mut ends: Vec<String> = t
        .flows
        .values()
        .map(|(_, end)| {
            let (pid, tid, ts) = end.unwrap();
            format!("{pid}/{tid} {}", t.slice_at(pid, tid, ts).unwrap().name)
        })
        .collect();
    ends.sort();
    assert_eq!(
        ends,
        [
            "1/2 ready",
            "2/1000 message discarded",
            "2/1000 receive id 1 complete",
            "2/1000 receive id 2 complete",
        ],
        "{ends:?}"
    );
    // The thread message's arrow ends where its thread starts.
    let (_, end) = t.flows.values().find(|(_, e)| e.unwrap().0 == 1).unwrap();
    let (_, _, ts) = end.unwrap();
    let first = &t.slices[&(1, 2)][0];
    assert_eq!(first.ts, ts.floor(), "the new thread's first slice");
    // Tile 0's east link and tile 1's ejection link carried the data.
    for (pid, link) in [(1, "link E"), (2, "link L")] {
        assert!(
            t.counters
                .iter()
                .any(|(p, n, _, v)| *p == pid && n == link && *v > 0.0),
            "{pid} {link}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn messaging_programs_agree_with_their_statistics() {
    let dir = scratch("programs");
    for name in [
        "pingpong.s",
        "stream.s",
        "flag_race.s",
        "rts_busy.s",
        "queue_full.s",
        "scheduling.s",
        "exit_early.s",
    ] {
        let (t, stats) = timeline_of(&program(name), &dir);
        let messages = t.flows.len();
        let received: u64 = t
            .slices
            .iter()
            .filter(|((_, tid), _)| *tid == 1000)
            .map(|(_, s)| s.len() as u64)
            .sum();
        assert!(messages as u64 <= received, "{name}");
        // One arrow per thread or data message the statistics count as sent
        // (RTS and CTS are the protocol's, not the program's messages).
        let sent: u64 = stats["network"]["types"]
            .as_array()
            .map(|types| {
                types
                    .iter()
                    .filter(|t| !matches!(t["type"].as_str(), Some("rts" | "cts")))
                    .map(|t| t["messages_sent"].as_u64().unwrap())
                    .sum()
            })
            .unwrap_or(0);
        assert_eq!(messages as u64, sent, "{name}: arrows vs messages sent");
        assert!(stats["total_cycles"].as_u64().unwrap() > 0, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
