//! `scmp noc` end to end: the JSON figures scripts read, the latency-load
//! sweep, the trace file and errors in the flags.

use std::process::{Command, Output};

use serde_json::Value;

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .output()
        .expect("scmp runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

const SHORT: [&str; 4] = ["--warmup", "1000", "--cycles", "4000"];

#[test]
fn json_has_the_figures_scripts_read() {
    let mut args = vec!["noc", "--mesh", "4x4", "--rate", "0.2", "--json"];
    args.extend(SHORT);
    let out = scmp(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let num = |k: &str| {
        v[k].as_f64()
            .unwrap_or_else(|| panic!("no number {k} in {v}"))
    };
    assert_eq!(num("packet_latency_avg"), v["packet_latency"]["avg"]);
    assert_eq!(num("network_latency_avg"), v["network_latency"]["avg"]);
    assert!(num("network_latency_avg") <= num("packet_latency_avg"));
    // Below saturation the network accepts what is offered.
    assert!((num("accepted_flit_rate") - 0.2).abs() < 0.02, "{v}");
    assert!(num("cycles") >= 5000.0);
    assert!(num("wall_seconds") >= 0.0);
    assert_eq!(v["saturated"], Value::Bool(false));
}

#[test]
fn sweep_stops_at_saturation() {
    let mut args = vec![
        "noc", "--mesh", "4x4", "--sweep", "--step", "0.15", "--json",
    ];
    args.extend(SHORT);
    args.extend(["--drain", "3000"]);
    let out = scmp(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let points = v.as_array().expect("an array");
    let lat: Vec<f64> = points
        .iter()
        .map(|p| p["packet_latency_avg"].as_f64().unwrap())
        .collect();
    assert!(
        lat.windows(2).all(|w| w[0] <= w[1]),
        "latency falls: {lat:?}"
    );
    // It ends at the first load past saturation as BookSim2 users mean it:
    // latency above the limit, or less accepted than offered, or not drained.
    let past = |p: &Value| {
        p["saturated"] == Value::Bool(true)
            || p["packet_latency_avg"].as_f64().unwrap() > 500.0
            || p["accepted_flit_rate"].as_f64().unwrap()
                < 0.95 * p["offered_flit_rate"].as_f64().unwrap()
    };
    assert!(
        past(points.last().unwrap()),
        "the sweep ends past saturation: {v}"
    );
    assert!(!points[..points.len() - 1].iter().any(past), "{v}");
    // A 4x4 mesh under uniform traffic saturates between 0.4 and 0.9.
    assert!((3..=6).contains(&points.len()), "{} points", points.len());
}

/// The text sweep says why a load is saturated, and `--plot` draws the
/// latency-load curve with the saturation load marked.
#[test]
fn sweep_plot_marks_saturation() {
    let svg = std::env::temp_dir().join(format!("scmp-noc-{}.svg", std::process::id()));
    let mut args = vec!["noc", "--mesh", "4x4", "--sweep", "--step", "0.15"];
    args.extend(SHORT);
    args.extend(["--drain", "3000", "--plot"]);
    let path = svg.display().to_string();
    args.push(&path);
    let out = scmp(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let last = table.lines().last().unwrap();
    assert!(
        last.contains("yes (latency)")
            || last.contains("yes (accepted < offered)")
            || last.contains("yes (did not drain)"),
        "{table}"
    );
    let rate: f64 = last.split_whitespace().next().unwrap().parse().unwrap();
    let drawing = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_file(&svg).unwrap();
    assert!(drawing.starts_with("<svg"), "an SVG");
    assert!(
        drawing.contains(&format!("saturated at {rate:.3}")),
        "{drawing}"
    );
    assert!(drawing.contains("average packet latency"));
    // Points above the y-axis (1.5 times the highest latency below
    // saturation, at least 15) are drawn at its edge and labelled.
    let rows: Vec<(f64, f64)> = table
        .lines()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            Some((w.first()?.parse().ok()?, w.get(1)?.parse().ok()?))
        })
        .collect();
    let top = rows
        .iter()
        .filter(|(r, _)| *r < rate)
        .map(|p| p.1)
        .fold(10.0, f64::max)
        * 1.5;
    let clipped: Vec<f64> = rows.iter().map(|p| p.1).filter(|l| *l > top).collect();
    assert!(
        !clipped.is_empty(),
        "the saturated point is off the scale: {table}"
    );
    for latency in clipped {
        assert!(
            drawing.contains(&format!("{latency:.2} (off scale)")),
            "no label for the clipped {latency}: {drawing}"
        );
    }
    // --plot belongs to --sweep.
    let out = scmp(&["noc", "--plot", &path]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn trace_file_lists_every_flit_move() {
    let path = std::env::temp_dir().join(format!("scmp-noc-{}.trace", std::process::id()));
    let p = path.display().to_string();
    let out = scmp(&[
        "noc", "--mesh", "3x3", "--rate", "0.1", "--warmup", "0", "--cycles", "50", "--trace", &p,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let trace = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let count = |what: &str| trace.lines().filter(|l| l.contains(what)).count();
    assert!(count("inject") > 10);
    assert!(count("eject") <= count("inject"));
    assert!(count("forward") >= count("eject"));
}

#[test]
fn bad_flags_name_the_problem() {
    for (args, expect) in [
        (vec!["--mesh", "4x2", "--traffic", "transpose"], "square"),
        (vec!["--rate", "1.5"], "--rate"),
        (
            vec!["--traffic", "hotspot:99:0.5", "--mesh", "4x4"],
            "hotspot node 99",
        ),
        (vec!["--traffic", "zigzag"], "zigzag"),
        (vec!["--set", "num_vcs=0"], "num_vcs"),
        (vec!["--packet-size", "1"], "packet"),
        (vec!["--mesh", "65x2"], "`65` is not a number in 1..=64"),
    ] {
        let mut all = vec!["noc"];
        all.extend(&args);
        let out = scmp(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains(expect), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// The largest mesh, 64x64: uniform traffic at a low rate is accepted in
/// full, its packets crossing 2 (64^2 - 1) / (3 * 64) + 1 = 43.7 routers on
/// average (BookSim2's hops: links + 1).
#[test]
fn the_largest_mesh_runs() {
    let out = scmp(&[
        "noc", "--mesh", "64x64", "--rate", "0.005", "--warmup", "100", "--cycles", "400", "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let num = |k: &str| {
        v[k].as_f64()
            .unwrap_or_else(|| panic!("no number {k} in {v}"))
    };
    assert!((num("hops") - 43.66).abs() < 1.0, "{v}");
    assert!((num("accepted_flit_rate") - 0.005).abs() < 0.001, "{v}");
    assert_eq!(v["saturated"], Value::Bool(false));
}
