//! ISA strings against GNU as 2.40: for `.attribute arch, "..."` and for
//! `-march=...`, `scmp asm -c` takes what GNU as takes, refuses what it
//! refuses, and writes the same `Tag_RISCV_arch` (read back by GNU
//! readelf): the listed cases (gcc's strings, every extension GNU knows,
//! its odd readings) and seeded random strings built from them
//! (`SCMP_ARCH_CASES`, default 300; `SCMP_ARCH_SEED`).

mod support;

use std::process::Command;

use support::*;

/// What an assembler made of `source` with `args`: the architecture
/// attribute, or `Err` when it refused.
fn arch_of(assembler: &str, dir: &Scratch, source: &str, args: &[String]) -> Result<String, ()> {
    let s = dir.path("a.s");
    let o = dir.path(&format!("{assembler}.o"));
    std::fs::write(&s, source).unwrap();
    let _ = std::fs::remove_file(&o);
    let out = if assembler == "gnu" {
        Command::new("riscv64-unknown-elf-as")
            .args(args)
            .arg(&s)
            .arg("-o")
            .arg(&o)
            .output()
            .unwrap()
    } else {
        scmp()
            .args(["asm", "-c"])
            .args(args.iter().map(|a| a.replacen("-march", "--march", 1)))
            .arg(&s)
            .arg("-o")
            .arg(&o)
            .output()
            .unwrap()
    };
    if !out.status.success() {
        return Err(());
    }
    let readelf = Command::new("riscv64-unknown-elf-readelf")
        .arg("-A")
        .arg(&o)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&readelf.stdout).into_owned();
    Ok(text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Tag_RISCV_arch: "))
        .unwrap_or("(none)")
        .trim_matches('"')
        .to_string())
}

/// Both assemblers on `arch` as a directive and as `-march`; the
/// differences, one line each.
fn compare(dir: &Scratch, arch: &str) -> Vec<String> {
    let mut diffs = Vec::new();
    let directive = format!("\t.attribute arch, \"{arch}\"\n\tnop\n");
    let ways = [
        ("directive", directive.as_str(), vec![]),
        ("-march", "\tnop\n", vec![format!("-march={arch}")]),
    ];
    for (how, source, args) in ways {
        let gnu = arch_of("gnu", dir, source, &args);
        let ours = arch_of("scmp", dir, source, &args);
        if gnu != ours {
            diffs.push(format!("{how} {arch:?}: GNU {gnu:?}, ours {ours:?}"));
        }
    }
    diffs
}

const BASES: [&str; 6] = ["rv32i", "rv32e", "rv32g", "rv32i2p0", "rv64i", "rv32"];
const LETTERS: &[&str] = &["m", "a", "f", "d", "q", "c", "v", "h", "b", "p", "t"];
const PREFIXED: &[&str] = &[
    "zicsr",
    "zifencei",
    "zmmul",
    "zihintpause",
    "zicbom",
    "zicboz",
    "zawrs",
    "zba",
    "zbb",
    "zbs",
    "zbkb",
    "zk",
    "zkn",
    "zks",
    "zkt",
    "zfh",
    "zfhmin",
    "zfinx",
    "zdinx",
    "zhinx",
    "ztso",
    "zve32x",
    "zve32f",
    "zve64d",
    "zvl128b",
    "zvl1024b",
    "smaia",
    "ssaia",
    "sstc",
    "svinval",
    "svpbmt",
    "xtheadba",
    "xtheadsync",
    "xfoo",
    "zfoo",
];

fn version(rng: &mut Rng) -> String {
    match rng.range(0, 9) {
        0 => "2p0".into(),
        1 => format!("{}", rng.range(0, 3)),
        2 => format!("{}p{}", rng.range(0, 3), rng.range(0, 3)),
        _ => String::new(),
    }
}

/// A random ISA string: a base, letters (in any order, some repeated,
/// some with versions), prefixed names with and without versions.
fn random_arch(rng: &mut Rng) -> String {
    let mut s = rng.pick(&BASES).to_string();
    s.push_str(&version(rng));
    for _ in 0..rng.range(0, 4) {
        if rng.chance(20) {
            s.push('_');
        }
        let letter = *rng.pick::<&str>(LETTERS);
        s.push_str(letter);
        s.push_str(&version(rng));
    }
    for _ in 0..rng.range(0, 4) {
        s.push('_');
        let name = *rng.pick::<&str>(PREFIXED);
        s.push_str(name);
        s.push_str(&version(rng));
    }
    s
}

#[test]
fn isa_strings_are_read_and_written_as_gnu_as_does() {
    require_gnu();
    let dir = Scratch::new("arch");
    let listed = [
        // gcc's strings (-march=rv32g, rv32imafd, rv32gc, rv32imac).
        "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0",
        "rv32i2p1_m2p0_a2p1_f2p2_d2p2_c2p0_zicsr2p0_zifencei2p0",
        "rv32i2p1_m2p0_a2p1_c2p0",
        "rv32g",
        "rv32gc",
        "rv32imafd",
        "rv32e",
        "rv32ec",
        "rv32ie",
        "rv32eg",
        "rv64i",
        "rv64e",
        "rv32i2p0",
        "rv32ip1",
        "rv32i2p1p0",
        "rv32imp0",
        "rv32im2p",
        "rv32im123p456",
        "rv32i_zba99999999999",
        "rv32imm3p0",
        "rv32im3p0_m",
        "rv32gi2p0",
        "rv32ifm",
        "rv32i_m",
        "rv32ima_",
        "rv32i__zba",
        "rv32izba",
        "rv32icb1p0k1p0j1p0t1p0p1p0l1p0n1p0vh",
        "rv32ib",
        "rv32iu",
        "rv32i_xfoo_bar1p0",
        "rv32i_xfoo",
        "rv32i_xfoo0p0",
        "rv32i_xfoo1",
        "rv32i_zba1p",
        "rv32i_zbap1",
        "rv32i_zfoo",
        "rv32i_s",
        "rv32i_z",
        "rv32if_zfinx",
        "rv32i_zhinx",
        "rv32i_zhinx_zfh",
        "rv32i_zvl64b",
        "rv32i_zve32x_zvl65536b",
        "rv32iv2p0",
        "rv32i_zk2p0",
        "rv32i_zks",
        "rv32im_xtheadba_zba_svinval_smaia",
        "rv32gc_xfoo1p0_xbar2p0_sstc_svinval_zkt_zawrs_ztso_zicboz",
        "rv32imafd_zfh_zba_zbb_zbc_zbs_zicbom",
        "rv32i_zicsr3p0_f",
        "RV32I",
        "rv32",
        "rv32mi",
        "rv128i",
        "",
        "rv32i 2p1",
    ];
    let mut diffs = Vec::new();
    for arch in listed {
        diffs.extend(compare(&dir, arch));
    }
    let cases: usize = std::env::var("SCMP_ARCH_CASES").map_or(300, |v| v.parse().unwrap());
    let seed: u64 = std::env::var("SCMP_ARCH_SEED").map_or(1, |v| v.parse().unwrap());
    let mut rng = Rng(seed);
    for _ in 0..cases {
        let arch = random_arch(&mut rng);
        diffs.extend(compare(&dir, &arch));
    }
    assert!(
        diffs.is_empty(),
        "{} differences from GNU as:\n{}",
        diffs.len(),
        diffs.join("\n")
    );
}

#[test]
fn without_march_the_attribute_is_rv32gs_and_no_arch_attr_writes_none() {
    require_gnu();
    let dir = Scratch::new("arch-default");
    // GNU as here is riscv64's: its own default is RV64, so it is given
    // -march=rv32g, which is ours.
    let rv32g = "-march=rv32g".to_string();
    let no_attr = "-mno-arch-attr".to_string();
    assert_eq!(
        arch_of("gnu", &dir, "\tnop\n", std::slice::from_ref(&rv32g)),
        arch_of("scmp", &dir, "\tnop\n", &[])
    );
    assert_eq!(
        arch_of("gnu", &dir, "\tnop\n", &[rv32g.clone(), no_attr]).unwrap(),
        "(none)"
    );
    assert_eq!(
        arch_of("scmp", &dir, "\tnop\n", &["--no-arch-attr".to_string()]).unwrap(),
        "(none)"
    );
    // A directive is written whatever -mno-arch-attr says.
    let directive = "\t.attribute arch, \"rv32im\"\n\tnop\n";
    assert_eq!(
        arch_of("scmp", &dir, directive, &["--no-arch-attr".to_string()]).unwrap(),
        "rv32i2p1_m2p0_zmmul1p0"
    );
}
