//! `scmp objdump -d` against GNU objdump 2.40 on real programs, with and
//! without `-M no-aliases`: the whole output, line for line, except for what
//! GNU cannot know of SCMP (see `support/objdump.rs`). The programs: every
//! example in `programs/` (assembled here), gcc's assembly for a C file
//! (assembled here), and a C program with picolibc compiled and linked by
//! GNU (several code sections, `gp`-relative addresses, `lui`/`auipc`
//! pairs, tables inside code, symbols of every kind). Fails, does not skip,
//! without the GNU tools.

mod support;

use std::process::Command;

use support::objdump::{Compared, compare_both_ways, require_gnu_objdump};
use support::{Scratch, require_gnu, require_tool};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn assemble(name: &str, source: String, defsyms: Vec<(String, i64)>) -> Vec<u8> {
    // Examples find their `.include` files beside them.
    let options = asm::Options {
        defsyms,
        include_dirs: vec![format!("{ROOT}/programs").into()],
        ..Default::default()
    };
    asm::assemble_sources(&[(name.to_string(), source)], &options)
        .unwrap_or_else(|d| panic!("{name}: {}", d.render(false)))
        .elf
}

#[test]
fn example_programs_disassemble_as_gnu_objdump_does() {
    require_gnu_objdump();
    let dir = Scratch::new("objdump-programs");
    let mut paths: Vec<_> = std::fs::read_dir(format!("{ROOT}/programs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    paths.sort();
    let mut total = Compared::default();
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let header = emu::snapshot::RunHeader::parse(&source).unwrap();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let elf = assemble(&format!("{name}.s"), source, header.defsyms.clone());
        let c = compare_both_ways(&dir, &format!("{name}.elf"), &elf);
        total.same += c.same;
        total.scmp += c.scmp;
        total.compressed += c.compressed;
    }
    assert!(paths.len() >= 30, "only {} programs", paths.len());
    assert!(total.same > 1200, "{total:?}");
    assert!(total.scmp > 100, "the SCMP lines were not seen: {total:?}");
    // Only fault_illegal.s has a word that is no instruction.
    assert!(total.compressed <= 4, "{total:?}");
}

#[test]
fn compiler_output_disassembles_as_gnu_objdump_does() {
    require_gnu_objdump();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("objdump-gcc");
    for flag in ["-O0", "-O2", "-Os"] {
        let out = Command::new("riscv64-unknown-elf-gcc")
            .args(["-S", "-march=rv32g", "-mabi=ilp32d", "-ffreestanding"])
            .args(["-fno-builtin", "-msmall-data-limit=0", flag, "-o", "-"])
            .arg(format!("{ROOT}/tests/c/sum.c"))
            .output()
            .expect("gcc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let elf = assemble("sum.s", String::from_utf8(out.stdout).unwrap(), Vec::new());
        let c = compare_both_ways(&dir, &format!("sum{flag}.elf"), &elf);
        assert!(
            c.same > 40 && c.scmp == 0 && c.compressed == 0,
            "{flag}: {c:?}"
        );
    }
}

#[test]
fn a_gnu_linked_c_program_disassembles_as_gnu_objdump_does() {
    require_gnu();
    require_gnu_objdump();
    let dir = Scratch::new("objdump-picolibc");
    let elf = dir.path("hello.elf");
    let source = format!("{ROOT}/tests/c/picolibc_hello.c");
    support::build_with_picolibc(std::path::Path::new(&source), &elf);
    let bytes = std::fs::read(&elf).unwrap();
    let c = compare_both_ways(&dir, "picolibc_hello.elf", &bytes);
    assert!(c.same > 3000 && c.scmp == 0 && c.compressed == 0, "{c:?}");
}
