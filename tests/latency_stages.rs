//! The latency breakdown of `--stats` (docs/machine.md, "Message latency,
//! stage by stage"): on real runs of both designs, the end-to-end latency
//! (`sendh` to effect) is queueing + network + ejection + notification and
//! head-injected-to-tail-taken is network + ejection, in the JSON and in
//! the text. Message by message the sums are also checked while the runs
//! gather them: `MessageStats::add` asserts that each message's stages add
//! up to its end-to-end latency in every debug build, which this test's
//! `scmp` is.

use std::path::Path;
use std::process::Command;

/// Runs `scmp run ARGS --stats=json --stats-file F` and `--stats` (text);
/// the network object of the JSON and the text.
fn stats(args: &[&str], tag: &str) -> (serde_json::Value, String) {
    let file = std::env::temp_dir().join(format!("scmp-latency-{tag}-{}.json", std::process::id()));
    let o = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .args(args)
        .arg("--stats=json")
        .arg("--stats-file")
        .arg(&file)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let _ = std::fs::remove_file(&file);
    let o = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .args(args)
        .arg("--stats")
        .output()
        .unwrap();
    assert!(o.status.success());
    (
        json["network"].clone(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The numbers of a text line after `prefix`.
fn numbers(text: &str, prefix: &str) -> Vec<f64> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{text}"));
    line[line.find(prefix).unwrap() + prefix.len()..]
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|t| !t.is_empty() && *t != ".")
        .map(|t| t.parse().unwrap())
        .collect()
}

#[test]
fn stages_add_up_to_the_end_to_end_latency() {
    let tc = |design: &str| format!("stressmarks/transitive/tc_{design}.s");
    let runs = [
        (tc("am"), "original", "3x2", "am"),
        (tc("sr"), "modified", "3x2", "sr"),
    ];
    for (src, niu, mesh, tag) in &runs {
        assert!(Path::new(src).exists());
        let args = [
            src.as_str(),
            "--defsym",
            "TC_N=40",
            "--defsym",
            "TC_M=100",
            "--mesh",
            mesh,
            "--boot",
            "all",
            "--niu",
            niu,
        ];
        let (n, text) = stats(&args, tag);
        let f = |k: &str| n[k].as_f64().unwrap_or_else(|| panic!("{k} in {n}"));
        let b = |k: &str| n["breakdown"][k].as_f64().unwrap();
        let messages = f("messages");
        assert!(messages > 100.0, "{tag}: {messages} messages");
        let stages = b("queueing") + b("network") + b("ejection") + b("notification");
        let e2e = f("end_to_end_mean");
        assert!(
            (e2e - stages).abs() < 1e-9 * e2e.max(1.0),
            "{tag}: {e2e} vs {stages}"
        );
        let net = b("network") + b("ejection");
        assert!(
            (f("latency_mean") - net).abs() < 1e-9 * net.max(1.0),
            "{tag}"
        );
        assert!(f("end_to_end_max") >= f("latency_max"));
        assert!(b("queueing") > 0.0 && b("network") > 0.0, "{tag}: {n}");
        if *niu == "original" {
            // getBlock's requests are thread messages: their notification
            // is the thread start.
            assert!(b("notification") > 0.0, "{tag}: {n}");
        }
        assert!(n["breakdown"]["wakeups"].as_u64().is_some());

        // The text says the same, to its two decimals.
        let head = numbers(&text, "message latency (sendh to effect):");
        assert_eq!(head[2], messages, "{text}");
        assert!((head[0] - e2e).abs() < 0.006, "{text}");
        let parts = numbers(&text, "= queueing");
        assert_eq!(parts.len(), 4, "{text}");
        assert!((parts.iter().sum::<f64>() - head[0]).abs() < 0.02, "{text}");
        let inner = numbers(&text, "head injected to tail taken (network + ejection):");
        assert!((inner[0] - (parts[1] + parts[2])).abs() < 0.02, "{text}");
    }
}
