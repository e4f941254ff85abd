//! `scmp sweep` and `scmp run --json` end to end, with the sweep's test
//! fixture (`stressmarks/fixture/`: a fixed sum split over the tiles,
//! gathered on node 0 with thread messages or with Rendezvous
//! send-and-receive): the in-process sweep's tables and plots, the same
//! tables from a job list run by GNU parallel and `--merge`, and the errors.
//!
//! Over 600 lines: end-to-end tests of one command family sharing one
//! fixture and its helpers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .output()
        .expect("scmp runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// A fresh directory for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scmp-sweep-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("stressmarks/fixture")
        .join(name)
        .display()
        .to_string()
}

/// The fixture's result: Σ 0..30000.
const RESULT: &str = "result 449985000";

/// The CSV's rows as fields, without `wall_seconds` (host time differs
/// from run to run).
fn csv_rows(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("sweep.csv")).expect("sweep.csv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let wall = header
        .iter()
        .position(|h| *h == "wall_seconds")
        .expect("a wall column");
    text.lines()
        .map(|l| {
            let mut fields: Vec<String> = l.split(',').map(String::from).collect();
            fields.remove(wall);
            fields
        })
        .collect()
}

fn column(rows: &[Vec<String>], name: &str) -> Vec<String> {
    let i = rows[0].iter().position(|h| h == name).expect("a column");
    rows[1..].iter().map(|r| r[i].clone()).collect()
}

#[test]
fn run_json_records_the_run_and_its_printed_results() {
    let dir = temp("json");
    let json = dir.join("run.json");
    let stats = dir.join("stats.json");
    let out = scmp(&[
        "run",
        &fixture("fixture.s"),
        &fixture("fixture_modified.s"),
        "--mesh",
        "4x2",
        "--boot",
        "all",
        "--niu",
        "modified",
        "--defsym",
        "WORK=800",
        "--stats=json",
        "--stats-file",
        stats.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("JSON");
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).expect("JSON");
    assert_eq!(r["end"], "exit");
    assert_eq!(r["exit_status"], 0);
    assert_eq!(
        (r["mesh_width"].as_u64(), r["mesh_height"].as_u64()),
        (Some(4), Some(2))
    );
    assert_eq!(r["niu"], "modified");
    assert_eq!(r["defsyms"][0], "WORK=800");
    assert_eq!(r["total_cycles"], s["total_cycles"]);
    assert_eq!(r["instructions"], s["instructions"]);
    assert_eq!(r["stats"], s);
    // The output as printed, and its `timed_cycles` taken up.
    assert_eq!(r["output"].as_str(), Some(text(&out.stdout).as_str()));
    assert!(
        text(&out.stdout).contains("result 319600\n"),
        "{}",
        text(&out.stdout)
    );
    let timed = r["timed_cycles"].as_u64().expect("timed cycles");
    assert!(timed > 0 && timed < r["total_cycles"].as_u64().unwrap());
    // Seven partial sums, each a Rendezvous: RTS, CTS, data.
    assert_eq!(r["messages"], 21);
    assert!(r["flits"].as_u64().unwrap() > 21);
}

#[test]
fn run_json_to_a_bad_path_fails_before_the_run() {
    let out = scmp(&[
        "run",
        &fixture("fixture.s"),
        &fixture("fixture_original.s"),
        "--json",
        "/nonexistent/dir/run.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot create the JSON file /nonexistent/dir/run.json"));
    assert!(text(&out.stdout).is_empty(), "the program did not run");
}

#[test]
fn a_sweep_writes_tables_and_plots_whose_cycles_fall_with_the_tiles() {
    let dir = temp("inprocess");
    let out = scmp(&[
        "sweep",
        "fixture",
        "--tiles",
        "1,2,4,8,16",
        "--queue-depths",
        "2,16",
        "--threads",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("fixture: cycles (speedup)"), "{stdout}");
    assert!(stdout.contains("| fixture |"), "{stdout}");
    assert!(stdout.contains("20 runs on 2 threads"), "{stdout}");
    let rows = csv_rows(&dir);
    // Both designs on 5 tile counts, and the modified one at 2 depths.
    assert_eq!(rows.len(), 1 + 10 + 10);
    assert!(column(&rows, "results").iter().all(|r| r.contains(RESULT)));
    assert!(column(&rows, "end").iter().all(|e| e == "exit"));
    let meshes = column(&rows, "mesh");
    assert_eq!(meshes[..5], ["1x1", "2x1", "2x2", "4x2", "4x4"]);
    let cycles: Vec<u64> = column(&rows, "cycles")
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    let timed = column(&rows, "timed_cycles");
    assert_eq!(
        cycles[0].to_string(),
        timed[0],
        "the printed timed region counts"
    );
    for curve in cycles.chunks(5) {
        assert!(curve.windows(2).all(|w| w[1] < w[0]), "{curve:?}");
    }
    let speedups = column(&rows, "speedup");
    assert_eq!(speedups[0], "1.0000");
    let s16: f64 = speedups[4].parse().unwrap();
    assert!(s16 > 8.0 && s16 < 16.0, "{s16}");
    // The original design passes no message on one tile, 15 on 16 tiles.
    let messages = column(&rows, "messages");
    assert_eq!((messages[0].as_str(), messages[4].as_str()), ("0", "15"));
    let improvement = column(&rows, "improvement_percent");
    assert!(
        improvement[..5].iter().all(String::is_empty),
        "none for original"
    );
    assert!(improvement[5..10].iter().all(|p| p.parse::<f64>().is_ok()));
    assert!(
        improvement[10..].iter().all(String::is_empty),
        "none for queue runs"
    );
    assert_eq!(column(&rows, "queue_flits")[10], "2");
    check_json_and_plots(&dir);
    check_breakdown(&dir, &rows);
}

/// The sweep's JSON, records and plots (of the fixture sweep above).
fn check_json_and_plots(dir: &Path) {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sweep.json")).unwrap()).unwrap();
    assert_eq!(json["runs"].as_array().unwrap().len(), 20);
    assert_eq!(json["runs"][3]["results"]["result"][0], "449985000");
    assert_eq!(json["peaks"][0]["stressmark"], "fixture");
    assert!(json["peaks"][0]["at_tiles"].as_u64().unwrap() > 1);
    let runs = std::fs::read_dir(dir.join("runs")).unwrap().count();
    assert_eq!(runs, 20, "a record per run");
    for (plot, labels) in [
        (
            "fixture-speedup.svg",
            &[
                "ideal",
                "original (active messages)",
                "modified (send-and-receive)",
            ][..],
        ),
        (
            "fixture-queue-depth.svg",
            &["ideal", "2 flits", "16 flits"][..],
        ),
        (
            "fixture-energy.svg",
            &[
                "energy of the run (mJ)",
                "original (active messages)",
                "modified (send-and-receive)",
                "improvement of modified over original",
            ][..],
        ),
    ] {
        let svg = std::fs::read_to_string(dir.join(plot)).expect(plot);
        assert!(svg.starts_with("<svg"), "{plot}");
        for label in labels {
            assert!(svg.contains(label), "{plot} has no `{label}`");
        }
        // The curves' points: a marker per run (circles, triangles).
        let markers = svg.matches("<circle").count() + svg.matches("<polygon").count();
        assert!(markers >= 10, "{plot}");
    }
    let md = std::fs::read_to_string(dir.join("improvements.md")).unwrap();
    assert!(
        md.starts_with("| stressmark | input | peak improvement |"),
        "{md}"
    );
}

/// Where the cycles go: the parts of a tile's cycles add up to the run's
/// cycles (every tile's statistics end with the run), as means per tile
/// rounded to a cycle each.
fn check_breakdown(dir: &Path, rows: &[Vec<String>]) {
    let total = column(rows, "total_cycles");
    let parts = [
        "work",
        "handlers",
        "polling",
        "collectives",
        "switching",
        "waiting",
        "queue",
        "tables",
        "no_thread",
    ];
    for (i, total) in total.iter().enumerate() {
        let sum: f64 = parts
            .iter()
            .map(|p| column(rows, p)[i].parse::<f64>().unwrap())
            .sum();
        let total: f64 = total.parse().unwrap();
        assert!(
            (sum - total).abs() <= parts.len() as f64,
            "row {i}: {sum} vs {total}"
        );
    }
    // The original design's gather is thread messages: handlers work there.
    let handlers: Vec<f64> = column(rows, "handlers")
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(handlers[4] > 0.0 && handlers[9] == 0.0, "{handlers:?}");
    let svg = std::fs::read_to_string(dir.join("fixture-breakdown.svg")).unwrap();
    assert!(
        svg.contains("where the cycles go on 16 tiles") && svg.contains("no_thread: "),
        "breakdown plot"
    );
}

/// `--profile`: the machine of every run (in the job list too), its
/// description in `--list`; an unknown profile is an error naming the
/// shipped ones.
#[test]
fn a_profile_sets_every_runs_machine() {
    let out = scmp(&["config", "--profile", "functional"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let config = text(&out.stdout);
    assert!(
        config.contains("\nload = 0\n") && config.contains("\ndiv = 0\n"),
        "{config}"
    );
    let out = scmp(&["config", "--profile", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the profiles: functional"),
        "{}",
        text(&out.stderr)
    );
    let dir = temp("profile");
    let jobs = dir.join("jobs.txt");
    let out = scmp(&[
        "sweep",
        "fixture",
        "--tiles",
        "1,2",
        "--profile",
        "functional",
        "--out",
        dir.to_str().unwrap(),
        "--jobs",
        jobs.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let list = std::fs::read_to_string(&jobs).unwrap();
    assert_eq!(list.matches("--profile functional").count(), 4, "{list}");
    // One cycle per instruction: fewer cycles than the default timing.
    let run = |profile: &[&str]| -> u64 {
        let json = dir.join("run.json");
        let out = scmp(
            &[
                &[
                    "run",
                    &fixture("fixture.s"),
                    &fixture("fixture_modified.s"),
                    "--mesh",
                    "2x1",
                    "--boot",
                    "all",
                    "--json",
                    json.to_str().unwrap(),
                ][..],
                profile,
            ]
            .concat(),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let r: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        r["total_cycles"].as_u64().unwrap()
    };
    assert!(run(&["--profile", "functional"]) < run(&[]));
    let out = scmp(&["sweep", "--list"]);
    assert!(
        text(&out.stdout).contains("functional "),
        "{}",
        text(&out.stdout)
    );
}

/// The job list runs unchanged under GNU parallel, and `--merge` builds the
/// same tables as the sweep run in this process.
#[test]
fn a_job_list_run_by_gnu_parallel_merges_into_the_same_tables() {
    let here = temp("here");
    let there = temp("there");
    let common = [
        "sweep",
        "fixture",
        "--tiles",
        "1,4,16",
        "--queue-depths",
        "4",
    ];
    let out = scmp(&[&common[..], &["--out", here.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let jobs = there.join("jobs.txt");
    let out = scmp(
        &[
            &common[..],
            &[
                "--out",
                there.to_str().unwrap(),
                "--jobs",
                jobs.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let list = std::fs::read_to_string(&jobs).unwrap();
    assert_eq!(list.lines().count(), 9);
    assert!(
        list.lines()
            .all(|l| l.contains(" run ") && l.contains("--json")),
        "{list}"
    );
    // Merging before the runs names what is missing.
    let early = scmp(&["sweep", "--merge", there.to_str().unwrap()]);
    assert_eq!(early.status.code(), Some(2));
    assert!(
        text(&early.stderr).contains("9 of 9 runs have no record yet"),
        "{}",
        text(&early.stderr)
    );
    // From another directory, as a cluster node would.
    let parallel = Command::new("parallel")
        .args(["--jobs", "2", "--halt", "now,fail=1"])
        .stdin(std::fs::File::open(&jobs).unwrap())
        .current_dir(std::env::temp_dir())
        .output()
        .expect("GNU parallel is installed (`cargo xtask test` installs it)");
    assert!(parallel.status.success(), "{}", text(&parallel.stderr));
    let out = scmp(&["sweep", "--merge", there.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(csv_rows(&here), csv_rows(&there));
    for file in [
        "improvements.md",
        "fixture-speedup.svg",
        "fixture-queue-depth.svg",
    ] {
        assert_eq!(
            std::fs::read(here.join(file)).unwrap(),
            std::fs::read(there.join(file)).unwrap(),
            "{file}"
        );
    }
}

#[test]
fn a_stressmark_whose_program_is_missing_or_unknown_is_an_error() {
    let empty = temp("empty");
    let out = scmp(&["sweep", "transitive", "--root", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("stressmark `transitive` cannot run yet"),
        "{err}"
    );
    assert!(
        err.contains("stressmarks/transitive/tc_am.s does not exist"),
        "{err}"
    );
    let out = scmp(&["sweep", "nosuch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no stressmark `nosuch` (known: all, neighborhood-7"));
    let out = scmp(&["sweep", "transitive", "--defsym", "n=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("transitive: n = 3 is outside 8..=16384"));
    let out = scmp(&["sweep"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("name a stressmark"));
    let out = scmp(&["sweep", "--list"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        text(&out.stdout).contains("thesis: 51.02% at 16 nodes"),
        "{}",
        text(&out.stdout)
    );
}

/// Runs that fail (here: the cycle limit cuts the one-tile runs) are
/// listed and fail the sweep (status 1); the tables keep the others, the
/// speedups counted from the fewest tiles that ran.
#[test]
fn failed_runs_are_listed_and_fail_the_sweep() {
    let dir = temp("failing");
    let out = scmp(&[
        "sweep",
        "--name",
        "own",
        "--original",
        &format!("{},{}", fixture("fixture.s"), fixture("fixture_original.s")),
        "--modified",
        &format!("{},{}", fixture("fixture.s"), fixture("fixture_modified.s")),
        "--max-cycles",
        "100000",
        "--tiles",
        "1,2,4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "error: own original 1 tiles: the run ended with `cycle_limit` (exit status 124)"
        ),
        "{err}"
    );
    assert_eq!(err.matches("error:").count(), 2, "{err}");
    let rows = csv_rows(&dir);
    assert_eq!(
        column(&rows, "end"),
        ["cycle_limit", "exit", "exit", "cycle_limit", "exit", "exit"]
    );
    let speedups = column(&rows, "speedup");
    assert_eq!((speedups[0].as_str(), speedups[1].as_str()), ("", "2.0000"));
    assert!(column(&rows, "results")[1].contains(RESULT));
}

#[test]
fn stressmark_runs_both_designs_and_checks_them() {
    let out = scmp(&["stressmark", "transitive", "--test-size", "--tiles", "4"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("on the 2x2 mesh (4 tiles)"), "{stdout}");
    // The input as run, not the thesis's (issue 20.4).
    assert!(
        stdout
            .lines()
            .next()
            .is_some_and(|l| l.contains("40 vertices (the spec's test size)") && !l.contains("500")),
        "{stdout}"
    );
    let matched = stdout
        .lines()
        .filter(|l| l.contains("cycles") && l.ends_with("results match the reference model"))
        .count();
    assert_eq!(matched, 2, "{stdout}");
    assert!(stdout.contains("row_sums: "), "{stdout}");
    assert!(
        stdout.contains(" cycles (the thesis, at its own input of 500 vertices: 0.9% at 64 nodes"),
        "{stdout}"
    );
    // A wrong parameter is an error naming it, before anything runs.
    let bad = scmp(&["stressmark", "transitive", "--defsym", "n=0"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("transitive"),
        "{}",
        text(&bad.stderr)
    );
    let unknown = scmp(&["stressmark", "nosuch"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).contains("no stressmark `nosuch`"));
}

/// `scmp calibrate`: a grid of 2 values x 2 variants at the test size,
/// every run checked; the ranking, the CSV and the plots; the same tables
/// from its job list and `--merge`.
#[test]
fn calibrate_ranks_a_grid_against_the_thesis() {
    let dir = temp("calibrate");
    let common = [
        "calibrate",
        "transitive",
        "--test-size",
        "--tiles",
        "4",
        "--vary",
        "niu.dma_cycles_per_word=1,4",
        "--variant",
        "lean,literal",
        "--check",
    ];
    let out = scmp(&[&common[..], &["--out", dir.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("4 points x 1 stressmarks x 1 tile counts x 2 designs: 8 runs"),
        "{stdout}"
    );
    // --check ends with its summary.
    assert!(
        stdout.contains(
            "check: 8 of 8 runs match their models, 0 differ, 0 not checked (failed, or no model): all match"
        ),
        "{stdout}"
    );
    let ranking = std::fs::read_to_string(dir.join("ranking.md")).unwrap();
    let ranks: Vec<&str> = ranking
        .lines()
        .filter(|l| l.starts_with("| 1 ") || l.starts_with("| 4 "))
        .collect();
    assert_eq!(ranks.len(), 2, "{ranking}");
    assert!(
        ranking.contains("| | thesis | 0 | 1/1 | holds | 0.90 |"),
        "{ranking}"
    );
    for id in ["p00", "p01", "p02", "p03"] {
        assert!(
            ranking.contains(&format!("{id} `niu.dma_cycles_per_word=")),
            "{id}: {ranking}"
        );
    }
    // The fit is the first point's |ln(ours / 0.9)|, ours from the CSV.
    let cal = std::fs::read_to_string(dir.join("calibrate.csv")).unwrap();
    let mut lines = cal.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4);
    for r in &rows {
        let ours: f64 = r[at("peak_percent")].parse().unwrap();
        let fit: f64 = r[at("fit")].parse().unwrap();
        assert!(
            (fit - (ours.max(0.1) / 0.9).ln().abs()).abs() < 1e-3,
            "{r:?}"
        );
    }
    let fits: Vec<f64> = rows.iter().map(|r| r[at("fit")].parse().unwrap()).collect();
    assert!(fits.windows(2).all(|w| w[0] <= w[1]), "ranked: {fits:?}");
    for svg in [
        "calibrate-niu-dma_cycles_per_word.svg",
        "calibrate-variant.svg",
    ] {
        let text = std::fs::read_to_string(dir.join(svg)).expect(svg);
        assert!(text.contains("transitive (thesis 0.9%)"), "{svg}");
    }
    // A job list and --merge give the same ranking.
    let there = temp("calibrate-jobs");
    let jobs = there.join("jobs.txt");
    let out = scmp(
        &[
            &common[..],
            &[
                "--out",
                there.to_str().unwrap(),
                "--jobs",
                jobs.to_str().unwrap(),
            ],
        ]
        .concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for line in std::fs::read_to_string(&jobs).unwrap().lines() {
        let status = Command::new("sh").args(["-c", line]).status().unwrap();
        assert!(status.success(), "{line}");
    }
    let out = scmp(&["calibrate", "--merge", there.to_str().unwrap(), "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let merged = std::fs::read_to_string(there.join("ranking.md")).unwrap();
    assert_eq!(merged, ranking);
    // A key no run could take is an error before anything runs.
    let bad = scmp(&["calibrate", "--vary", "niu.nosuch=1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("niu.nosuch"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn a_stressmark_named_under_a_profile_of_other_programs_says_which_it_runs() {
    // The thesis profile's programs are the literal ones; a lean name runs
    // the lean programs, and says where the profile's are.
    let out = scmp(&[
        "stressmark",
        "transitive",
        "--tiles",
        "1",
        "--profile",
        "thesis",
        "--test-size",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(
            "note: `transitive` runs its lean programs as named; the profile's are the literal ones: `transitive-literal`"
        ),
        "{}",
        text(&out.stderr)
    );
    let literal = scmp(&[
        "stressmark",
        "transitive-literal",
        "--tiles",
        "1",
        "--profile",
        "thesis",
        "--test-size",
    ]);
    assert!(literal.status.success(), "{}", text(&literal.stderr));
    assert!(
        !text(&literal.stderr).contains("note:"),
        "{}",
        text(&literal.stderr)
    );
}

/// A mechanism switch as a calibration axis (`--vary symbol.NAME=...`) and
/// as a sweep's `--symbol`: every program of a point is assembled with the
/// symbol (after the profile's own, so that it wins), and the two points
/// are two machines: completion by polling moves the send-and-receive
/// run's cycles, so the improvements differ.
#[test]
fn a_symbol_axis_switches_a_mechanism_in_every_program() {
    let dir = temp("calibrate-symbol");
    let jobs = dir.join("jobs.txt");
    let common = [
        "calibrate",
        "transitive",
        "--variant",
        "literal",
        "--profile",
        "thesis",
        "--test-size",
        "--tiles",
        "4",
        "--vary",
        "symbol.SCMP_WAIT_POLL=0,1",
        "--out",
        dir.to_str().unwrap(),
    ];
    let out = scmp(&[&common[..], &["--jobs", jobs.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let list = std::fs::read_to_string(&jobs).unwrap();
    assert_eq!(list.lines().count(), 4, "{list}");
    for value in ["0", "1"] {
        assert_eq!(
            list.matches(&format!("--defsym SCMP_WAIT_POLL={value} "))
                .count(),
            2,
            "{list}"
        );
    }
    let out = scmp(&[&common[..], &["--check"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("check: 4 of 4 runs match their models"),
        "{}",
        text(&out.stdout)
    );
    let cal = std::fs::read_to_string(dir.join("calibrate.csv")).unwrap();
    let rows = csv_rows_of(&cal);
    let (values, peaks) = (
        column(&rows, "symbol.SCMP_WAIT_POLL"),
        column(&rows, "peak_percent"),
    );
    let peak = |value: &str| &peaks[values.iter().position(|v| v == value).unwrap()];
    assert_ne!(peak("0"), peak("1"), "{cal}");
    // The same switch on a sweep's command line, and bad values.
    let sweep_jobs = dir.join("sweep-jobs.txt");
    let out = scmp(&[
        "sweep",
        "neighborhood-11-literal",
        "--test-size",
        "--tiles",
        "1,4",
        "--profile",
        "thesis",
        "--symbol",
        "NB_ONE_PHASE=1",
        "--out",
        dir.join("sweep").to_str().unwrap(),
        "--jobs",
        sweep_jobs.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let list = std::fs::read_to_string(&sweep_jobs).unwrap();
    assert_eq!(
        list.matches("--defsym NB_ONE_PHASE=1 ").count(),
        4,
        "{list}"
    );
    let bad = scmp(&["sweep", "transitive", "--symbol", "X=abc"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("--symbol X=abc"),
        "{}",
        text(&bad.stderr)
    );
    let bad = scmp(&["calibrate", "transitive", "--vary", "symbol.X=a"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("symbol.X"),
        "{}",
        text(&bad.stderr)
    );
}

fn csv_rows_of(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// `--merge` builds the tables from a directory: every option that says
/// what to run or how to run it is an error with it (the command's own
/// options and `RunOptions` as groups, `--threads` and `--jobs` by
/// themselves), and `--check` goes with it.
#[test]
fn merge_takes_no_option_that_says_what_to_run() {
    let cases: [(&str, &[&str]); 8] = [
        ("sweep", &["--name", "mine"]),
        ("sweep", &["--tiles", "4"]),
        ("sweep", &["--list"]),
        ("sweep", &["--root", "elsewhere"]),
        ("sweep", &["--threads", "2"]),
        ("calibrate", &["--vary", "niu.queue_flits=4,8"]),
        ("calibrate", &["--test-size"]),
        ("calibrate", &["--jobs", "jobs.txt"]),
    ];
    for (command, other) in cases {
        let mut args = vec![command, "--merge", "nowhere"];
        args.extend(other);
        let out = scmp(&args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?} ran");
        assert!(
            err.contains("the argument '--merge <DIR>' cannot be used with"),
            "{args:?}: {err}"
        );
    }
    for command in ["sweep", "calibrate"] {
        let out = scmp(&[command, "--merge", "nowhere", "--check"]);
        let err = text(&out.stderr);
        assert!(err.contains("nowhere/"), "{command} --merge --check: {err}");
    }
}
