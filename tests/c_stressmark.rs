//! The stressmarks in C (the sweep's `NAME-c` rows: stressmarks/*/*.c,
//! built with `scmp cc -O2` in both designs) against the stressmarks' Rust
//! reference models at the test size on several meshes; Transitive
//! Closure also against the assembly version's printed results; and a
//! sweep of a C row, which compiles it (with a profile's library
//! symbols). Fails (does not skip) without the GNU tools and picolibc.

mod support;

use stressmarks::Printed;
use stressmarks::catalog::{self, Variant};
use stressmarks::transitive::{TransitiveOutputs, TransitiveParams, reference};
use support::*;

/// `scmp run ARGS`: standard output, after a successful run.
fn run(args: &[&str]) -> String {
    let o = scmp().arg("run").args(args).output().unwrap();
    assert!(
        o.status.success(),
        "scmp run {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn transitive_closure_in_c_matches_the_model_in_both_designs() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let p = TransitiveParams::test();
    let want = reference(&p);
    let dir = Scratch::new("c-stressmark");
    let (n, m) = (format!("-DTC_N={}", p.n), format!("-DTC_M={}", p.m));
    for (model, niu) in [("am", "original"), ("sr", "modified")] {
        let elf = dir.path(&format!("tc_{model}.elf"));
        let o = scmp()
            .args(["cc", "--model", model, "-O2", "stressmarks/transitive/tc.c"])
            .args(["stressmarks/lib/dis_rng.s", &n, &m, "-o"])
            .arg(&elf)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let elf = elf.to_str().unwrap();
        for mesh in ["1x1", "2x2", "3x2", "4x4"] {
            let out = run(&[elf, "--mesh", mesh, "--boot", "all", "--niu", niu]);
            let printed = Printed::parse(&out);
            let got = TransitiveOutputs::from_printed(&printed).unwrap();
            let report = got.check(&want);
            assert!(report.is_ok(), "{model} on {mesh}: {report}");
            assert!(printed.int("timed_cycles").unwrap() > 0, "{out}");
            assert!(
                out.contains(&format!(
                    "transitive closure ({}",
                    if model == "am" {
                        "active messages, C"
                    } else {
                        "send-and-receive, C"
                    }
                )),
                "{out}"
            );
            // The assembly version prints the same sums.
            let asm = run(&[
                &format!("stressmarks/transitive/tc_{model}.s"),
                "--defsym",
                &format!("TC_N={}", p.n),
                "--defsym",
                &format!("TC_M={}", p.m),
                "--mesh",
                mesh,
                "--boot",
                "all",
                "--niu",
                niu,
            ]);
            let theirs = TransitiveOutputs::from_printed(&Printed::parse(&asm)).unwrap();
            assert_eq!(got, theirs, "{model} on {mesh}");
        }
    }
}

/// Every C row but Transitive Closure's (above) and the wider-pixel
/// Neighborhood rows (the same program): both designs' programs, compiled
/// as the sweep compiles them (the row's parameters over the test size as
/// `-D`s), on 1x1, 3x2 (uneven) and 4x4, checked against the model; a
/// program both rows of LU share runs once.
#[test]
fn the_stressmarks_in_c_match_their_models_in_both_designs() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-stressmarks");
    let rows = [
        "neighborhood-7-c",
        "matrix-c",
        "lu-ready-c",
        "lu-rendezvous-c",
    ];
    let mut done: Vec<(Vec<&str>, &str)> = Vec::new();
    for name in rows {
        let row = catalog::find(name).unwrap();
        assert_eq!(row.variant, Variant::C);
        let model = row.model.unwrap();
        let mut assignments = model.test_size();
        for (n, v) in row.defsyms {
            assignments.retain(|(m, _)| m != n);
            assignments.push((n.to_string(), *v));
        }
        let want = model.reference(&assignments).unwrap();
        let defines: Vec<String> = assignments
            .iter()
            .map(|(n, v)| format!("-D{}={v}", row.symbol(n)))
            .collect();
        for (files, model_name, niu) in [
            (row.original, "am", "original"),
            (row.modified, "sr", "modified"),
        ] {
            if done.contains(&(files.to_vec(), model_name)) {
                continue;
            }
            done.push((files.to_vec(), model_name));
            let elf = dir.path(&format!("{name}-{model_name}.elf"));
            let o = scmp()
                .args(["cc", "--model", model_name, "-O2"])
                .args(files)
                .args(&defines)
                .arg("-o")
                .arg(&elf)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            for mesh in ["1x1", "3x2", "4x4"] {
                let out = run(&[
                    elf.to_str().unwrap(),
                    "--mesh",
                    mesh,
                    "--boot",
                    "all",
                    "--niu",
                    niu,
                ]);
                if let Err(e) = want.check_output(&out) {
                    panic!("{name} ({model_name}) on {mesh}: {e}");
                }
                let printed = Printed::parse(&out);
                assert!(printed.int("timed_cycles").unwrap() > 0, "{out}");
                let version = if model_name == "am" {
                    "(active messages"
                } else {
                    "(send-and-receive"
                };
                assert!(out.contains(version) && out.contains(", C)"), "{out}");
            }
        }
    }
}

/// `scmp sweep` compiles a C row once per design into DIR/bin, with its
/// parameters as definitions (the runs get no --defsym), and checks it.
#[test]
fn a_sweep_compiles_and_checks_a_c_row() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-sweep");
    let out = dir.path("sweep");
    let o = scmp()
        .args([
            "sweep",
            "transitive-c",
            "--test-size",
            "--check",
            "--tiles",
            "1,4",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for design in ["original", "modified"] {
        assert!(out.join(format!("bin/transitive-c-{design}.elf")).is_file());
    }
    let plan = std::fs::read_to_string(out.join("plan.json")).unwrap();
    assert!(
        plan.contains("transitive-c-original.elf") && !plan.contains("--defsym"),
        "{plan}"
    );
    let table = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let rows: Vec<&str> = table
        .lines()
        .filter(|l| l.starts_with("transitive-c,"))
        .collect();
    assert_eq!(rows.len(), 4, "{table}");
    assert!(rows.iter().all(|l| l.contains(",ok,")), "{table}");
    // `scmp stressmark` compiles it too.
    let o = scmp()
        .args(["stressmark", "transitive-c", "--test-size", "--tiles", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        text.matches("results match the reference model").count(),
        2,
        "{text}"
    );
}

/// A profile's program symbols reach a C row's library: under `--profile
/// thesis` (`SCMP_WAIT_POLL = 1`) the sweep links a send-and-receive
/// library whose waits poll, so the program never suspends in `waits` /
/// `waitr`; without a profile it links scmp cc's own, which does, and so
/// does the profile's library with `--symbol SCMP_WAIT_POLL=0`.
#[test]
fn a_c_row_gets_the_profiles_library() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-profile");
    // With `--symbol SCMP_WAIT_POLL=0` after the profile, the library
    // waits again: a command-line symbol reaches the library too.
    for (profile, symbol, polls) in [
        (None, None, false),
        (Some("thesis"), None, true),
        (Some("thesis"), Some("SCMP_WAIT_POLL=0"), false),
    ] {
        let out = dir.path(match (profile, symbol) {
            (None, _) => "default",
            (Some(_), None) => "thesis",
            (Some(_), Some(_)) => "thesis-waking",
        });
        let mut args = vec![
            "sweep",
            "transitive-c",
            "--test-size",
            "--check",
            "--tiles",
            "4",
        ];
        if let Some(p) = profile {
            args.extend(["--profile", p]);
        }
        if let Some(s) = symbol {
            args.extend(["--symbol", s]);
        }
        let o = scmp().args(&args).arg("--out").arg(&out).output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let elf = out.join("bin/transitive-c-modified.elf");
        let stats = out.join("stats.json");
        let o = scmp()
            .arg("run")
            .arg(&elf)
            .args([
                "--mesh",
                "2x2",
                "--boot",
                "all",
                "--niu",
                "modified",
                "--stats=json",
            ])
            .arg("--stats-file")
            .arg(&stats)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let suspended: u64 = json["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                t["idle_by"]["wait_send"].as_u64().unwrap()
                    + t["idle_by"]["wait_receive"].as_u64().unwrap()
            })
            .sum();
        assert_eq!(
            suspended == 0,
            polls,
            "{profile:?} {symbol:?}: {suspended} cycles suspended"
        );
        // A library assembled again for the profile is still `scmp cc`'s:
        // the threads it starts get their thread-local storage (its stub
        // reads `__tls_size`).
        let libraries: Vec<_> = std::fs::read_dir(out.join("bin"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with("-lib.o"))
            .collect();
        assert_eq!(!libraries.is_empty(), profile.is_some(), "{libraries:?}");
        for lib in libraries {
            use object::{Object, ObjectSymbol};
            let bytes = std::fs::read(&lib).unwrap();
            let file = object::File::parse(&*bytes).unwrap();
            assert!(
                file.symbols().any(|s| s.name() == Ok("__tls_size")),
                "{}: assembled without SCMP_C_TLS",
                lib.display()
            );
        }
    }
}
