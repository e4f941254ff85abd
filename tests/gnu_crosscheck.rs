//! Checks the assembler against GNU as + ld (binutils-riscv64-unknown-elf):
//! a program generated from the isa-spec table exercising every instruction
//! form, pseudo-instruction and relocation operator, the `ok_` test files,
//! and compiler output must give identical `.text`/`.data` bytes; GNU's
//! readelf must accept our files and GNU objdump disassemble them as we do
//! (the whole output, line for line).
//!
//! Over 600 lines: one comparison per kind of input against the same GNU
//! tools, sharing their helpers.

mod support;

use std::fmt::Write;
use std::process::Command;

use isa_spec::{
    CSRS, Extension, F_ABI, Field, Inst, Operand as Op, RoundingMode, SPECS, SendType, X_ABI,
};
use support::*;

/// CSR names GNU as knows (ours also has the SCMP ones, which GNU gets as numbers).
const GNU_CSRS: &[&str] = &[
    "fflags", "frm", "fcsr", "cycle", "time", "instret", "cycleh", "timeh", "instreth",
];

struct Program {
    ours: String,
    gnu: String,
}

fn xreg(r: &mut Rng) -> String {
    let n = r.range(0, 31) as usize;
    if r.chance(50) {
        X_ABI[n].to_string()
    } else {
        format!("x{n}")
    }
}

fn freg(r: &mut Rng) -> String {
    let n = r.range(0, 31) as usize;
    if r.chance(50) {
        F_ABI[n].to_string()
    } else {
        format!("f{n}")
    }
}

fn imm12(r: &mut Rng) -> String {
    match r.range(0, 7) {
        0 => "-2048".into(),
        1 => "2047".into(),
        2 => "0".into(),
        3 => format!("{:#x}", r.range(0, 2047)),
        4 => format!("-{:#x}", r.range(1, 2048)),
        5 => format!("({} * 3)", r.range(-600, 600)),
        6 => format!("'{}'", (b'a' + r.range(0, 25) as u8) as char),
        _ => r.range(-2048, 2047).to_string(),
    }
}

fn fence_set(r: &mut Rng) -> String {
    let bits = r.range(1, 15) as u8;
    isa_spec::fence_set_name(bits)
}

/// One instance of a table row, written for us and for GNU as.
fn instance(
    r: &mut Rng,
    spec: &isa_spec::InstrSpec,
    line: usize,
    lines: usize,
) -> (String, String) {
    if spec.extension == Extension::Scmp {
        return scmp_instance(r, spec);
    }
    let mut ours = Vec::new();
    let mut gnu = Vec::new();
    let mut suffix = String::new();
    let label = |r: &mut Rng| {
        let lo = line.saturating_sub(150) as i64;
        let hi = (line + 150).min(lines - 1) as i64;
        format!("L{}", r.range(lo, hi))
    };
    for op in spec.operands {
        let (o, g) = match op {
            Op::Xd | Op::Xs1 | Op::Xs2 | Op::Xs3 => {
                let x = xreg(r);
                (x.clone(), x)
            }
            Op::Fd | Op::Fs1 | Op::Fs2 | Op::Fs3 => {
                let f = freg(r);
                (f.clone(), f)
            }
            Op::ImmI => {
                let v = imm12(r);
                (v.clone(), v)
            }
            Op::ImmU => {
                let v = match r.range(0, 3) {
                    0 => "0xfffff".to_string(),
                    1 => "0".to_string(),
                    _ => format!("{:#x}", r.range(0, 0xfffff)),
                };
                (v.clone(), v)
            }
            Op::Shamt | Op::Uimm5 => {
                let v = r.range(0, 31).to_string();
                (v.clone(), v)
            }
            Op::Branch | Op::Jump => {
                let l = label(r);
                (l.clone(), l)
            }
            Op::Csr => {
                if r.chance(60) {
                    let c = r.pick(CSRS);
                    let g = if GNU_CSRS.contains(&c.name) {
                        c.name.to_string()
                    } else {
                        format!("{:#x}", c.number)
                    };
                    (c.name.to_string(), g)
                } else {
                    let v = r.range(0, 0xfff).to_string();
                    (v.clone(), v)
                }
            }
            Op::LoadMem | Op::StoreMem => {
                let v = format!("{}({})", imm12(r), xreg(r));
                (v.clone(), v)
            }
            Op::AmoMem => {
                let base = xreg(r);
                let v = if r.chance(30) {
                    format!("0({base})")
                } else {
                    format!("({base})")
                };
                (v.clone(), v)
            }
            Op::Rm(default) => {
                // GNU as 2.40 takes no rounding mode on the exact conversions
                // (those whose default is rne); we accept one.
                if r.chance(40) || *default == RoundingMode::Rne {
                    continue;
                }
                let (_, name) = r.pick(&RoundingMode::NAMES);
                (name.to_string(), name.to_string())
            }
            Op::Fence => {
                if r.chance(30) {
                    continue;
                }
                let v = format!("{}, {}", fence_set(r), fence_set(r));
                (v.clone(), v)
            }
            Op::AqRl => {
                suffix = r.pick(&["", ".aq", ".rl", ".aqrl"]).to_string();
                continue;
            }
            Op::SendType | Op::Keyword(_) => unreachable!("SCMP rows are written above"),
            Op::Symbol | Op::Imm32 => unreachable!("written operands of pseudo-instructions only"),
        };
        ours.push(o);
        gnu.push(g);
    }
    let m = format!("{}{}", spec.mnemonic, suffix);
    (
        format!("{m} {}", ours.join(", ")),
        format!("{m} {}", gnu.join(", ")),
    )
}

/// An SCMP row: our syntax, and GNU's `.insn` with the same fields.
fn scmp_instance(r: &mut Rng, spec: &isa_spec::InstrSpec) -> (String, String) {
    let mut inst = Inst::with_defaults(spec.opcode);
    for field in spec.fields() {
        match field {
            Field::Rd | Field::Rs1 | Field::Rs2 | Field::Rs3 => {
                inst.set(field, r.range(0, 31) as i32)
            }
            Field::SendType => inst.set(
                field,
                *r.pick(&[SendType::Thread, SendType::Ready, SendType::Rendezvous]) as i32,
            ),
            other => panic!("unexpected field {other:?} in an SCMP row"),
        }
    }
    let w = inst.encode().expect("fields in range");
    let reg = |n: u32| X_ABI[(n & 31) as usize];
    let (op, f3, rd, rs1, rs2) = (
        w & 0x7f,
        (w >> 12) & 7,
        reg(w >> 7),
        reg(w >> 15),
        reg(w >> 20),
    );
    let gnu = if spec.fields().any(|f| f == Field::Rs3) {
        format!(
            ".insn r4 {op:#x}, {f3}, {}, {rd}, {rs1}, {rs2}, {}",
            (w >> 25) & 3,
            reg(w >> 27)
        )
    } else {
        format!(".insn r {op:#x}, {f3}, {}, {rd}, {rs1}, {rs2}", w >> 25)
    };
    (inst.display(0).to_string(), gnu)
}

/// One instance of a pseudo-instruction or alias row, random operands.
fn pseudo_instance(
    r: &mut Rng,
    spec: &isa_spec::PseudoSpec,
    label: &mut dyn FnMut(&mut Rng) -> String,
) -> String {
    let li_values = [
        "0",
        "1",
        "-1",
        "2047",
        "-2048",
        "2048",
        "-2049",
        "0x800",
        "0x1000",
        "0x12345678",
        "0x7fffffff",
        "0x80000000",
        "-0x80000000",
        "0xffffffff",
        "0xfffff800",
        "0xfffff7ff",
        "123456",
        "'z'",
    ];
    let ops: Vec<String> = spec
        .operands
        .iter()
        .map(|op| match op {
            Op::Xd | Op::Xs1 | Op::Xs2 => xreg(r),
            Op::Fd | Op::Fs1 | Op::Fs2 => freg(r),
            Op::ImmI => imm12(r),
            Op::Shamt | Op::Uimm5 => r.range(0, 31).to_string(),
            Op::Csr => r.pick(GNU_CSRS).to_string(),
            Op::Branch | Op::Jump => label(r),
            Op::LoadMem => format!("{}({})", imm12(r), xreg(r)),
            Op::Symbol => {
                if r.chance(50) {
                    format!("D{}", r.range(0, 7))
                } else {
                    label(r)
                }
            }
            Op::Imm32 => {
                if r.chance(50) {
                    r.pick(&li_values).to_string()
                } else {
                    r.range(-(1 << 31), (1 << 32) - 1).to_string()
                }
            }
            other => panic!("no generator for pseudo operand {other:?}"),
        })
        .collect();
    if ops.is_empty() {
        spec.mnemonic.to_string()
    } else {
        format!("{} {}", spec.mnemonic, ops.join(", "))
    }
}

/// Pseudo-instructions (rows of the isa-spec table) and relocation
/// operators, with random operands.
fn pseudo_lines(r: &mut Rng, line: usize, lines: usize) -> Vec<String> {
    let x = |r: &mut Rng| xreg(r);
    let lo = line.saturating_sub(150) as i64;
    let hi = (line + 150).min(lines - 1) as i64;
    let mut l = move |r: &mut Rng| format!("L{}", r.range(lo, hi));
    let d = |r: &mut Rng| format!("D{}", r.range(0, 7));
    let csr = |r: &mut Rng| r.pick(GNU_CSRS).to_string();
    let v = match r.range(0, 14) {
        0 => format!("lui {}, %hi({} + {})", x(r), d(r), r.range(0, 4000)),
        1 => format!("addi {}, {}, %lo({})", x(r), x(r), d(r)),
        2 => format!("lw {}, %lo({})({})", x(r), d(r), x(r)),
        3 => format!("sw {}, %lo({} + 4)({})", x(r), d(r), x(r)),
        4 => {
            let (a, b) = (x(r), x(r));
            format!(
                "1: auipc {a}, %pcrel_hi({})\n    addi {b}, {a}, %pcrel_lo(1b)",
                d(r)
            )
        }
        5 => format!("fence {}, {}", fence_set(r), fence_set(r)),
        6 => format!("csrrw {}, {}, {}", x(r), csr(r), r.range(0, 31)),
        7 => format!("auipc {}, %pcrel_hi({})", x(r), l(r)),
        8 => format!("jalr {}, {}, {}", x(r), x(r), imm12(r)),
        9 => format!("li {}, %lo({})", x(r), d(r)),
        10 => format!("jalr {}, %lo({})({})", x(r), d(r), x(r)),
        _ => {
            // Not the thread-local ones: the executable these programs are
            // linked into has no thread pointer (`tests/asm/err_tls.s`;
            // objects keep them: `tests/asm/gnu/tls_relocations.s`).
            let spec = loop {
                let spec = r.pick(isa_spec::PSEUDOS);
                if !spec.mnemonic.starts_with("la.tls.") {
                    break spec;
                }
            };
            pseudo_instance(r, spec, &mut l)
        }
    };
    vec![v]
}

fn data_section(r: &mut Rng, out: &mut String) {
    out.push_str("    .data\n");
    for i in 0..8 {
        let _ = writeln!(out, "D{i}:");
        let _ = match r.range(0, 9) {
            0 => writeln!(
                out,
                "    .byte {}, {}, 'q, -{}",
                r.range(-128, 255),
                r.range(0, 255),
                r.range(0, 128)
            ),
            1 => writeln!(
                out,
                "    .half {}, {:#x}",
                r.range(-32768, 65535),
                r.range(0, 65535)
            ),
            2 => writeln!(
                out,
                "    .word {}, D{} + {}, L{} - L0",
                r.range(i64::from(i32::MIN), i64::from(u32::MAX)),
                r.range(0, 7),
                r.range(0, 64),
                r.range(0, 50)
            ),
            3 => writeln!(
                out,
                "    .dword {:#x}, -{}",
                r.next() >> 1,
                r.range(0, 1 << 40)
            ),
            4 => writeln!(
                out,
                "    .float {}.{}, -{}e{}, inf, -nan\n    .double {}.{}e-{}, nan",
                r.range(0, 1000),
                r.range(0, 999),
                r.range(1, 9),
                r.range(-30, 30),
                r.range(0, 99999),
                r.range(0, 99),
                r.range(0, 300)
            ),
            5 => writeln!(
                out,
                "    .ascii \"a\\tb\\n\\\\\\\"\\101\"\n    .asciz \"z{}\"\n    .string \"s\"",
                r.range(0, 9)
            ),
            6 => writeln!(
                out,
                "    .zero {}\n    .space {}, {}\n    .fill {}, 2, {:#x}",
                r.range(0, 9),
                r.range(0, 9),
                r.range(0, 255),
                r.range(0, 4),
                r.range(0, 0xffff)
            ),
            7 => writeln!(
                out,
                "    .uleb128 {}\n    .sleb128 -{}",
                r.range(0, 1 << 30),
                r.range(0, 1 << 20)
            ),
            8 => writeln!(
                out,
                "    .balign {}\n    .byte 1\n    .p2align {}, 0x{:x}",
                1 << r.range(0, 4),
                r.range(0, 3),
                r.range(0, 255)
            ),
            _ => writeln!(
                out,
                "    .word D{} - D0, 0x{:x}",
                r.range(0, 7),
                r.range(0, 0xffff_ffff)
            ),
        };
    }
}

fn generate(seed: u64) -> Program {
    let mut r = Rng(seed);
    let variants = 3;
    let pseudos = 4 * isa_spec::PSEUDOS.len();
    let lines = SPECS.len() * variants + pseudos;
    let mut body: Vec<(String, String)> = Vec::with_capacity(lines);
    let mut rows: Vec<usize> = (0..SPECS.len())
        .flat_map(|i| std::iter::repeat_n(i, variants))
        .collect();
    rows.extend(std::iter::repeat_n(usize::MAX, pseudos));
    // Shuffle so that neighbours and branch distances vary with the seed.
    for i in (1..rows.len()).rev() {
        let j = (r.next() % (i as u64 + 1)) as usize;
        rows.swap(i, j);
    }
    for (line, &row) in rows.iter().enumerate() {
        if row == usize::MAX {
            let p = pseudo_lines(&mut r, line, lines).join("\n");
            body.push((p.clone(), p));
        } else {
            body.push(instance(&mut r, &SPECS[row], line, lines));
        }
    }
    let mut ours = String::from("    .text\n    .globl _start\n_start:\n");
    let mut gnu = ours.clone();
    for (i, (o, g)) in body.iter().enumerate() {
        let _ = writeln!(ours, "L{i}: {o}");
        let _ = writeln!(gnu, "L{i}: {g}");
    }
    let mut data = String::new();
    data_section(&mut r, &mut data);
    ours.push_str(&data);
    gnu.push_str(&data);
    Program { ours, gnu }
}

fn placement(image: &asm::link::Image) -> Vec<(String, u64)> {
    image
        .sections
        .iter()
        .map(|s| (s.name.to_string(), s.addr))
        .collect()
}

fn options() -> asm::Options {
    asm::Options {
        listing: true,
        ..asm::Options::default()
    }
}

#[test]
fn generated_program_is_byte_identical_to_gnu_as() {
    require_gnu();
    let dir = Scratch::new("gen");
    for seed in 1..=6u64 {
        let p = generate(seed);
        let name = format!("generated-{seed}.s");
        let ours = asm::assemble_sources(&[(name.clone(), p.ours.clone())], &options())
            .unwrap_or_else(|d| {
                panic!(
                    "seed {seed}: our assembler rejected the program:\n{}",
                    d.render(false)
                )
            });
        let gnu = gnu_build(&dir, &[(name, p.gnu.clone())], &[], &placement(&ours.image))
            .unwrap_or_else(|e| panic!("seed {seed}: GNU rejected the program: {e}"));
        // Every table row is in the program.
        let text = &ours.image.sections[0];
        assert!(
            text.size as usize >= SPECS.len() * 3 * 4,
            "seed {seed}: program too short"
        );
        if let Err(e) = compare_sections(
            &sections(&ours.elf),
            &sections(&gnu),
            &[".text", ".data"],
            &ours.lines,
        ) {
            let path = std::env::temp_dir().join(format!("scmp-generated-{seed}.s"));
            let _ = std::fs::write(&path, &p.ours);
            panic!(
                "seed {seed}: differs from GNU as (source saved to {}):\n{e}",
                path.display()
            );
        }
    }
}

/// The `ok_` files that GNU as can assemble (those not marked `#nognu`).
#[test]
fn ok_files_are_byte_identical_to_gnu_as() {
    require_gnu();
    let dir = Scratch::new("okfiles");
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir("tests/asm")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("ok_") || !name.ends_with(".s") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("#nognu") {
            continue;
        }
        let opts = asm::Options {
            include_dirs: vec!["tests/asm/include".into()],
            ..options()
        };
        let src = vec![(path.display().to_string(), text)];
        let ours = asm::assemble_sources(&src, &opts)
            .unwrap_or_else(|d| panic!("{name}: {}", d.render(false)));
        let gnu = gnu_build(
            &dir,
            &src,
            &[std::path::Path::new("tests/asm/include")],
            &placement(&ours.image),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        compare_sections(
            &sections(&ours.elf),
            &sections(&gnu),
            &[".text", ".rodata", ".data"],
            &ours.lines,
        )
        .unwrap_or_else(|e| panic!("{name} differs from GNU as:\n{e}"));
        checked += 1;
    }
    assert!(
        checked >= 15,
        "only {checked} ok_ files were compared with GNU as"
    );
}

/// Compiler output (`gcc -S`) and cpp-preprocessed sources assemble to the
/// same bytes as with GNU as, and the program runs the same under qemu.
#[test]
fn compiler_output_is_byte_identical_and_runs() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    require_tool("qemu-riscv32", "qemu-user");
    let dir = Scratch::new("gcc");
    let flags: &[&[&str]] = &[&["-O0"], &["-O2"], &["-O1", "-g"], &["-Os", "-fno-inline"]];
    for flag in flags {
        let asm_path = dir.path("sum.s");
        let out = Command::new("riscv64-unknown-elf-gcc")
            .args([
                "-S",
                "-march=rv32g",
                "-mabi=ilp32d",
                "-ffreestanding",
                "-fno-builtin",
                "-msmall-data-limit=0",
            ])
            .args(*flag)
            .arg("-o")
            .arg(&asm_path)
            .arg("tests/c/sum.c")
            .output()
            .expect("gcc runs");
        assert!(
            out.status.success(),
            "gcc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&asm_path).unwrap();
        let src = vec![(format!("sum{}.s", flag.join("")), text)];
        let ours = asm::assemble_sources(&src, &options())
            .unwrap_or_else(|d| panic!("gcc {flag:?} output rejected:\n{}", d.render(false)));
        let gnu = gnu_build(&dir, &src, &[], &placement(&ours.image)).unwrap();
        compare_sections(
            &sections(&ours.elf),
            &sections(&gnu),
            &[".text", ".rodata", ".data"],
            &ours.lines,
        )
        .unwrap_or_else(|e| panic!("gcc {flag:?} output differs from GNU as:\n{e}"));
        let exe = dir.path("sum.elf");
        std::fs::write(&exe, &ours.elf).unwrap();
        make_executable(&exe);
        let run = Command::new("qemu-riscv32").arg(&exe).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "58\n",
            "gcc {flag:?}: program output"
        );
        assert_eq!(run.status.code(), Some(58), "gcc {flag:?}: exit code");
    }
    // A cpp-preprocessed source: #define, #include, #if and line markers.
    let pre = Command::new("riscv64-unknown-elf-gcc")
        .args([
            "-E",
            "-P",
            "-x",
            "assembler-with-cpp",
            "-Itests/c",
            "tests/c/startup.S",
        ])
        .output()
        .expect("gcc -E runs");
    assert!(
        pre.status.success(),
        "{}",
        String::from_utf8_lossy(&pre.stderr)
    );
    let with_markers = Command::new("riscv64-unknown-elf-gcc")
        .args([
            "-E",
            "-x",
            "assembler-with-cpp",
            "-Itests/c",
            "tests/c/startup.S",
        ])
        .output()
        .unwrap();
    for (what, text) in [("-P", pre.stdout), ("line markers", with_markers.stdout)] {
        let src = vec![("startup.s".to_string(), String::from_utf8(text).unwrap())];
        let ours = asm::assemble_sources(&src, &options()).unwrap_or_else(|d| {
            panic!(
                "preprocessed ({what}) source rejected:\n{}",
                d.render(false)
            )
        });
        let gnu = gnu_build(&dir, &src, &[], &placement(&ours.image)).unwrap();
        compare_sections(
            &sections(&ours.elf),
            &sections(&gnu),
            &[".text", ".data"],
            &ours.lines,
        )
        .unwrap_or_else(|e| panic!("preprocessed ({what}) source differs:\n{e}"));
    }
}

fn make_executable(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn gnu_readelf_and_objdump_accept_our_files_and_agree_with_our_disassembly() {
    require_gnu();
    let dir = Scratch::new("readelf");
    let p = generate(42);
    let ours = asm::assemble_sources(&[("gen.s".into(), p.ours)], &options()).unwrap();
    let elf = dir.path("gen.elf");
    std::fs::write(&elf, &ours.elf).unwrap();
    let readelf = Command::new("riscv64-unknown-elf-readelf")
        .arg("-a")
        .arg("-W")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(readelf.status.success());
    let stderr = String::from_utf8_lossy(&readelf.stderr);
    assert!(stderr.trim().is_empty(), "readelf complained: {stderr}");
    let text = String::from_utf8_lossy(&readelf.stdout);
    for needle in [
        "EXEC (Executable file)",
        "RISC-V",
        "double-float ABI",
        "Entry point address:               0x10000",
        ".symtab",
        "_start",
    ] {
        assert!(
            text.contains(needle),
            "readelf output lacks `{needle}`:\n{text}"
        );
    }
    // The whole `objdump -d` output, with and without `-M no-aliases`.
    let compared = support::objdump::compare_both_ways(&dir, "gen.elf", &ours.elf);
    assert!(
        compared.same > SPECS.len() * 2 && compared.scmp > 0,
        "{compared:?}"
    );
}
