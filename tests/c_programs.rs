//! The C route: `scmp.h` against the isa-spec table and the libraries,
//! `scmp cc` (gcc with `scmp asm` as its assembler), every library routine
//! called from C in both designs on several meshes, and the C examples.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::*;

fn require_c() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    assert!(
        Path::new("/usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs").exists(),
        "picolibc is missing: apt-get install picolibc-riscv64-unknown-elf (.ci/run does)"
    );
}

/// `scmp cc ARGS` into `out`; panics with gcc's messages on failure.
fn cc(args: &[&str], out: &Path) {
    let o = scmp()
        .arg("cc")
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "scmp cc {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `scmp run ELF --mesh M --boot all --niu NIU`: status and standard output.
fn run(elf: &Path, mesh: &str, niu: &str) -> (i32, String) {
    let o = scmp()
        .args(["run"])
        .arg(elf)
        .args(["--mesh", mesh, "--boot", "all", "--niu", niu])
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

/// Every wrapper of scmp.h is the instruction its name says, with GNU as
/// and with scmp asm (gcc -B), read back by our disassembler (the table's
/// decoder); its constants are the libraries' `.equ` values.
#[test]
fn scmp_h_is_the_table_and_the_libraries() {
    require_c();
    let dir = Scratch::new("header");
    let support = {
        // scmp cc fills the support directory; -v shows the line it runs.
        let o = scmp()
            .args(["cc", "-v", "-c", "tests/c/header_all.c", "-O2", "-o"])
            .arg(dir.path("ours.o"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(o.status.success(), "{err}");
        let line = err
            .lines()
            .find(|l| l.contains("riscv64-unknown-elf-gcc"))
            .unwrap();
        let b = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("-B"))
            .expect("-B on the gcc line");
        PathBuf::from(b.trim_end_matches('/'))
            .parent()
            .unwrap()
            .to_path_buf()
    };
    let gnu = Command::new("riscv64-unknown-elf-gcc")
        .args(["-march=rv32g", "-mabi=ilp32d", "-O2", "-c"])
        .arg(format!("-I{}", support.join("include").display()))
        .arg("tests/c/header_all.c")
        .arg("-o")
        .arg(dir.path("gnu.o"))
        .output()
        .unwrap();
    assert!(
        gnu.status.success(),
        "{}",
        String::from_utf8_lossy(&gnu.stderr)
    );
    let expect: &[(&str, &str)] = &[
        ("t_sendh_thread", "sendh a0, thread, a1"),
        ("t_sendh_ready", "sendh a0, ready, a1"),
        ("t_sendh_rdv", "sendh a0, rdv, a1"),
        ("t_sendh_macro", "sendh a0, rdv, a1"),
        ("t_sendh_data", "sendh a0, data, a1, a2"),
        ("t_send", "send a0"),
        ("t_sende", "sende a0"),
        ("t_send2", "send2 a0, a1"),
        ("t_send2e", "send2e a0, a1"),
        ("t_sendm", "sendm a0,"),
        ("t_sendme", "sendme a0,"),
        ("t_ldss", "ldss a0, a0"),
        ("t_ldsr", "ldsr a0, a0"),
        ("t_str", "str a0, a1, a2"),
        ("t_rms", "rms a0"),
        ("t_rmr", "rmr a0"),
        ("t_waits", "waits a0"),
        ("t_waitr", "waitr a0"),
        ("t_endt", "endt"),
        ("t_yield", "yield"),
        ("t_nodeid", "csrr a0, nodeid"),
        ("t_ctxid", "csrr a0, ctxid"),
        ("t_meshw", "csrr a0, meshw"),
        ("t_meshh", "csrr a0, meshh"),
        ("t_ntiles", "csrr a0, ntiles"),
        ("t_nctx", "csrr a0, nctx"),
    ];
    for obj in ["ours.o", "gnu.o"] {
        let data = std::fs::read(dir.path(obj)).unwrap();
        let text = asm::objdump::dump(
            &data,
            obj,
            &asm::objdump::Show {
                disassemble: true,
                ..Default::default()
            },
        )
        .unwrap();
        for (func, inst) in expect {
            let body: String = text
                .split(&format!("<{func}>:"))
                .nth(1)
                .unwrap_or_else(|| panic!("{obj}: no {func}"))
                .split("\n\n")
                .next()
                .unwrap()
                .replace(['\t', ' '], "");
            assert!(
                body.contains(&inst.replace(' ', "")),
                "{obj}: {func} should hold `{inst}`:\n{body}"
            );
        }
    }
    the_constants_are_the_libraries();
}

/// scmp.h's constants, as the libraries define them.
fn the_constants_are_the_libraries() {
    let header = std::fs::read_to_string("c/include/scmp.h").unwrap();
    let mut libs = String::new();
    for f in ["sr.s", "scmp_common.s"] {
        libs += &std::fs::read_to_string(format!("stressmarks/lib/{f}")).unwrap();
    }
    let mut checked = 0;
    for line in libs.lines() {
        let Some(rest) = line.trim().strip_prefix(".equ ") else {
            continue;
        };
        let (name, value) = rest.split_once(',').unwrap();
        let value = value.split('#').next().unwrap().trim();
        // SCMP_WAIT_POLL is a build option of sr.s (how it waits), not a
        // constant of the interface; the C library waits with waits/waitr.
        if !name.starts_with("SCMP_")
            || name == "SCMP_WAIT_POLL"
            || name.starts_with("SCMP_TREE")
            || name.starts_with("SCMP_COLL")
            || name.starts_with("SCMP_OP")
        {
            continue;
        }
        let define = format!("#define {name} {value}");
        assert!(
            header.contains(&define),
            "scmp.h should say `{define}` as the library does"
        );
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} constants compared");
}

/// Every library routine from C, both designs, three meshes.
#[test]
fn every_library_routine_from_c_in_both_designs() {
    require_c();
    let dir = Scratch::new("libs");
    for (model, niu) in [("am", "original"), ("sr", "modified")] {
        let elf = dir.path(&format!("lib_{model}.elf"));
        cc(
            &["--model", model, &format!("tests/c/lib_{model}.c"), "-O2"],
            &elf,
        );
        for (mesh, nodes) in [("2x2", 4), ("3x2", 6), ("4x4", 16)] {
            let (status, out) = run(&elf, mesh, niu);
            let n = nodes as f64;
            let expected = format!(
                "[t0 c0] {model} on {nodes} nodes: sum {} min {} max {} dsum {:.2} dmin -1.50 dmax {:.2}: 0 errors\n",
                nodes * (nodes + 1) / 2,
                50 - (nodes - 1),
                3 * (nodes - 1),
                0.25 * n * (n - 1.0),
                1.25 * (n - 1.0)
            );
            assert_eq!(out, expected, "{model} on {mesh}");
            assert_eq!(status, 0, "{model} on {mesh}: exit status");
        }
    }
}

/// The examples: a parallel sum and a ping-pong in both models.
#[test]
fn c_examples_run_in_both_models() {
    require_c();
    let dir = Scratch::new("examples");
    for (model, niu) in [("am", "original"), ("sr", "modified")] {
        let sum = dir.path(&format!("sum_{model}.elf"));
        cc(
            &[
                "--model",
                model,
                &format!("examples/c/sum_{model}.c"),
                "-O2",
            ],
            &sum,
        );
        let (status, out) = run(&sum, "4x4", niu);
        let how = if model == "am" { "threads" } else { "messages" };
        assert_eq!(
            out,
            format!(
                "[t0 c0] sum of 1..50000 on 16 nodes: 1250025000 ({how}), 1250025000 (reduction), expected 1250025000\n"
            ),
            "sum_{model}"
        );
        assert_eq!(status, 0, "sum_{model}");
        let pp = dir.path(&format!("pingpong_{model}.elf"));
        cc(
            &[
                "--model",
                model,
                &format!("examples/c/pingpong_{model}.c"),
                "-O2",
                // gcc then pipes the assembly into `as` (standard input).
                "-pipe",
            ],
            &pp,
        );
        let (status, out) = run(&pp, "2x1", niu);
        assert!(
            out.starts_with("[t0 c0] 20 round trips, counter 20, ")
                && out.ends_with(" cycles per round trip\n"),
            "pingpong_{model}: {out}"
        );
        assert_eq!(status, 0, "pingpong_{model}");
    }
}

/// The send-and-receive test program and library through both assemblers,
/// linked every way (C object ours or GNU's, library ours or GNU's) by GNU
/// ld with picolibc: one image, which passes on the tiles.
#[test]
fn c_and_library_objects_of_either_assembler_link_to_one_image() {
    require_c();
    let dir = Scratch::new("both-ways");
    let root = env!("CARGO_MANIFEST_DIR");
    let gcc = |args: &[&str]| {
        let o = Command::new("riscv64-unknown-elf-gcc")
            .args(["-march=rv32g", "-mabi=ilp32d", "--specs=picolibc.specs"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "gcc {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let s = dir.path("lib_sr.s");
    let inc = format!("-I{root}/c/include");
    gcc(&[
        "-S",
        "-O2",
        &inc,
        "tests/c/lib_sr.c",
        "-o",
        s.to_str().unwrap(),
    ]);
    let start = dir.path("start.o");
    gcc(&[
        "-c",
        "-O2",
        &inc,
        "c/scmp_start.c",
        "-o",
        start.to_str().unwrap(),
    ]);
    let assemble = |src: &Path, out: &Path, ours: bool| {
        let mut cmd = if ours {
            let mut c = scmp();
            c.args(["asm", "-c"]);
            c
        } else {
            let mut c = Command::new("riscv64-unknown-elf-as");
            c.args(["-march=rv32g", "-mabi=ilp32d"]);
            c
        };
        let o = cmd
            .arg("-I")
            .arg("stressmarks/lib")
            .arg(src)
            .arg("-o")
            .arg(out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let mut images = Vec::new();
    for (c_ours, lib_ours) in [(true, true), (false, false), (true, false), (false, true)] {
        let tag = format!("{}-{}", c_ours as u8, lib_ours as u8);
        let c_obj = dir.path(&format!("c-{tag}.o"));
        let lib_obj = dir.path(&format!("lib-{tag}.o"));
        assemble(&s, &c_obj, c_ours);
        assemble(Path::new("stressmarks/lib/sr.s"), &lib_obj, lib_ours);
        let elf = dir.path(&format!("{tag}.elf"));
        gcc(&[
            "--oslib=semihost",
            "--crt0=semihost",
            &format!("-L{root}/c"),
            "-Tscmp-picolibc.ld",
            "-Wl,--wrap=main",
            c_obj.to_str().unwrap(),
            start.to_str().unwrap(),
            lib_obj.to_str().unwrap(),
            "-lm",
            "-o",
            elf.to_str().unwrap(),
        ]);
        images.push((
            tag,
            elf.clone(),
            loaded_image(&std::fs::read(&elf).unwrap()),
        ));
    }
    for (tag, _, image) in &images[1..] {
        assert!(
            *image == images[0].2,
            "C/library objects {tag} link to another image"
        );
    }
    let (status, out) = run(&images[0].1, "2x2", "modified");
    assert_eq!(
        out,
        "[t0 c0] sr on 4 nodes: sum 10 min 47 max 9 dsum 3.00 dmin -1.50 dmax 3.75: 0 errors\n"
    );
    assert_eq!(status, 0);
}

/// Loaded section contents of a linked ELF, by name.
fn loaded_image(elf_bytes: &[u8]) -> Vec<(String, u64, Vec<u8>)> {
    use object::{Object, ObjectSection};
    let file = object::File::parse(elf_bytes).unwrap();
    file.sections()
        .filter(|s| {
            matches!(s.flags(), object::SectionFlags::Elf { sh_flags, .. } if sh_flags.0 & 2 != 0)
        })
        .map(|s| {
            (
                s.name().unwrap().to_string(),
                s.address(),
                s.data().unwrap_or(&[]).to_vec(),
            )
        })
        .collect()
}

/// gcc -O0 writes a file-scope `static int count;` as `.local count` then
/// `.comm count,4,4`: three files with one each must keep three variables
/// (GNU's build prints the same line). They were merged into one global
/// common once, silently.
#[test]
fn file_statics_stay_apart_at_o0() {
    require_c();
    let dir = Scratch::new("statics");
    let elf = dir.path("statics.elf");
    let d = "tests/c/statics";
    cc(
        &[
            "-O0",
            &format!("{d}/main.c"),
            &format!("{d}/a.c"),
            &format!("{d}/b.c"),
        ],
        &elf,
    );
    let (status, out) = run(&elf, "1x1", "modified");
    assert_eq!(status, 0, "{out}");
    assert_eq!(out.trim(), "a=2 b=10 n=1000");
}
