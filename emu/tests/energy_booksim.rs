//! The network's power and area against BookSim2's power module: for each
//! configuration in `tests/data/booksim_power/`, BookSim2's printed "OCN
//! Power Summary" and "OCN Area Summary" of several seeds (the file's
//! header has BookSim2's configuration and command; CI cannot build it),
//! and ours from `emu::noc` with the same router, traffic and technology.
//! Every power component must lie within 2% of BookSim2's mean over its
//! seeds, the total power and every area within 1% (the structural terms,
//! leakage, clocks and areas, are exact; the dynamic ones move with the
//! random traffic, by about 1-2% from seed to seed in BookSim2).

use emu::ConfigBuilder;
use emu::config::NetworkEngine;
use emu::energy::{Model, Tech};
use emu::noc::{Pattern, Traffic};

const POWER: [(&str, &str); 14] = [
    ("Channel Wire Power", "channel_wire"),
    ("Channel Clock Power", "channel_clock"),
    ("Channel Retiming Power", "channel_retiming"),
    ("Channel Leakage Power", "channel_leakage"),
    ("Input Read Power", "input_read"),
    ("Input Write Power", "input_write"),
    ("Input Leakage Power", "input_leakage"),
    ("Switch Power", "switch"),
    ("Switch Control Power", "switch_control"),
    ("Switch Leakage Power", "switch_leakage"),
    ("Output DFF Power", "output_dff"),
    ("Output Clk Power", "output_clock"),
    ("Output Control Power", "output_control"),
    ("Total Power", "total"),
];

const AREA: [(&str, &str); 5] = [
    ("Channel Area", "channel"),
    ("Switch  Area", "switch"),
    ("Input  Area", "input"),
    ("Output  Area", "output"),
    ("Total Area", "total"),
];

/// One configuration's file: our parameters (the `# ours:` line) and
/// BookSim2's summaries, one per seed.
struct Case {
    name: String,
    ours: Vec<(String, String)>,
    power: Vec<Vec<f64>>,
    area: Vec<Vec<f64>>,
}

fn value(text: &str, label: &str) -> f64 {
    let key = format!("- {label}:");
    let line = text
        .lines()
        .find(|l| l.starts_with(&key))
        .unwrap_or_else(|| panic!("no `{label}` in a summary"));
    line[key.len()..].trim().parse().expect("a number")
}

fn read_case(name: &str, text: &str) -> Case {
    let ours = text
        .lines()
        .find_map(|l| l.strip_prefix("# ours:"))
        .expect("a `# ours:` line")
        .split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect();
    let mut power = Vec::new();
    let mut area = Vec::new();
    for summary in text.split("- OCN Power Summary").skip(1) {
        power.push(POWER.iter().map(|(l, _)| value(summary, l)).collect());
        area.push(AREA.iter().map(|(l, _)| value(summary, l)).collect());
    }
    assert!(power.len() >= 3, "{name}: at least three BookSim2 seeds");
    Case {
        name: name.to_string(),
        ours,
        power,
        area,
    }
}

fn mean(rows: &[Vec<f64>], i: usize) -> f64 {
    rows.iter().map(|r| r[i]).sum::<f64>() / rows.len() as f64
}

/// Our power and area for a case: the mean over seeds 1..=3 of runs with
/// `scmp noc`'s default windows (10,000 warm-up, 50,000 measured cycles).
fn ours(case: &Case) -> (Vec<f64>, Vec<f64>) {
    let get = |k: &str| {
        case.ours
            .iter()
            .find(|(key, _)| key == k)
            .unwrap_or_else(|| panic!("{}: no `{k}` in `# ours:`", case.name))
            .1
            .clone()
    };
    let mut builder = ConfigBuilder::new();
    for key in [
        "num_vcs",
        "vc_buf_size",
        "routing_delay",
        "vc_alloc_delay",
        "sw_alloc_delay",
        "channel_width",
    ] {
        builder.set(&format!("network.{key}={}", get(key))).unwrap();
    }
    let config = builder.build().unwrap().network;
    let k: u32 = get("k").parse().unwrap();
    let model = Model::new(&Tech::default());
    let shape = emu::energy::shape(&config, k, k, 1);
    let seeds = 1..=3u64;
    let (mut p, mut a) = (vec![0.0; POWER.len()], vec![0.0; AREA.len()]);
    for seed in seeds.clone() {
        let t = Traffic {
            width: k,
            height: k,
            pattern: Pattern::parse(&get("traffic")).unwrap(),
            rate: get("rate").parse().unwrap(),
            packet_size: get("packet_size").parse().unwrap(),
            warmup: 10_000,
            cycles: 50_000,
            drain: 50_000,
            seed,
        };
        let r = emu::noc::run(&config, NetworkEngine::Fast, &t, None).unwrap();
        assert!(!r.saturated, "{}: saturated", case.name);
        let (power, area) = model.evaluate(&shape, &r.activity).unwrap();
        let pj = serde_json::to_value(power).unwrap();
        let aj = serde_json::to_value(area).unwrap();
        for (i, (_, key)) in POWER.iter().enumerate() {
            p[i] += pj[key].as_f64().unwrap();
        }
        for (i, (_, key)) in AREA.iter().enumerate() {
            a[i] += aj[key].as_f64().unwrap();
        }
    }
    let n = seeds.count() as f64;
    (
        p.into_iter().map(|v| v / n).collect(),
        a.into_iter().map(|v| v / n).collect(),
    )
}

/// Ours against BookSim2's mean for the case in `path`: the deviations
/// over the limits.
fn check_case(path: &std::path::Path) -> Vec<String> {
    let mut failures = Vec::new();
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let case = read_case(&name, &std::fs::read_to_string(path).unwrap());
    let (p, a) = ours(&case);
    for (i, (label, key)) in POWER.iter().enumerate() {
        let theirs = mean(&case.power, i);
        let limit = if *key == "total" { 0.01 } else { 0.02 };
        // Every component of these configurations is positive.
        assert!(theirs > 0.0 && p[i] > 0.0, "{name}: {label}");
        let dev = (p[i] - theirs) / theirs;
        if dev.abs() > limit {
            failures.push(format!(
                "{name}: {label} ours {} BookSim2 {theirs} ({:+.2}%)",
                p[i],
                dev * 100.0
            ));
        }
    }
    for (i, (label, _)) in AREA.iter().enumerate() {
        let theirs = mean(&case.area, i);
        let dev = (a[i] - theirs) / theirs;
        if dev.abs() > 0.01 {
            failures.push(format!(
                "{name}: {label} ours {} BookSim2 {theirs} ({:+.2}%)",
                a[i],
                dev * 100.0
            ));
        }
    }
    failures
}

#[test]
fn power_and_area_match_booksim2() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/booksim_power");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "at least five configurations");
    // The configurations run side by side (each is a few seconds of
    // unoptimized simulation).
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = names
            .iter()
            .map(|path| scope.spawn(move || check_case(path)))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The parts that do not depend on traffic equal BookSim2's to its six
/// printed digits: leakage, clocks and areas are structure and technology.
#[test]
fn structural_terms_are_exact() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/booksim_power/c1_uniform_8x8.txt"),
    )
    .unwrap();
    let case = read_case("c1", &text);
    let mut builder = ConfigBuilder::new();
    builder.set("network.channel_width=128").unwrap();
    builder.set("network.num_vcs=4").unwrap();
    let config = builder.build().unwrap().network;
    let model = Model::new(&Tech::default());
    let shape = emu::energy::shape(&config, 8, 8, 1);
    // No traffic at all: only the structural terms remain.
    let idle = emu::energy::Activity {
        cycles: 1000,
        ..Default::default()
    };
    let (p, a) = model.evaluate(&shape, &idle).unwrap();
    let six = |x: f64| emu::energy::power::format_g(x).parse::<f64>().unwrap();
    let theirs = &case.power[0];
    assert_eq!(six(p.channel_clock), theirs[1]);
    assert_eq!(six(p.channel_leakage), theirs[3]);
    assert_eq!(six(p.input_leakage), theirs[6]);
    assert_eq!(six(p.switch_leakage), theirs[9]);
    assert_eq!(six(p.output_clock), theirs[11]);
    assert_eq!(p.channel_wire, 0.0);
    assert_eq!(p.switch, 0.0);
    let areas = [a.channel, a.switch, a.input, a.output, a.total];
    for (i, v) in areas.iter().enumerate() {
        assert_eq!(six(*v), case.area[0][i], "{}", AREA[i].0);
    }
}
