//! The Transitive Closure stressmark in C (stressmarks/transitive/tc.c,
//! built with `scmp cc -O2` in both designs) against the stressmark's Rust
//! reference model at the test size on several meshes, and against the
//! assembly version's printed results. Fails (does not skip) without the
//! GNU tools and picolibc.

mod support;

use std::path::Path;
use std::process::Command;

use stressmarks::Printed;
use stressmarks::transitive::{TransitiveOutputs, TransitiveParams, reference};
use support::*;

fn scmp() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_scmp"));
    c.env(
        "SCMP_CACHE_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("scmp-cache"),
    );
    c
}

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
