//! `scmp asm -c` against GNU as 2.40 and GNU ld: on the `ok_` files, the
//! example programs, the messaging libraries and gcc -O2 output of a C mix
//! (`tests/c/mix.c`) and -g output of it and of the C stressmarks, our object
//! has GNU's section contents (the unwind tables `.cfi_*` build too) and the
//! same relocations (offset, type, what they name, addend) and the same line
//! table from `.loc` (decoded by GNU readelf), and linking ours or GNU's
//! with GNU ld (relaxing) gives the same loaded image.

mod support;

use std::path::Path;
use std::process::Command;

use gnudiff::*;
use support::*;

/// The generator's choices from the tests' seeded generator.
impl Choices for Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.range(0, n as i64 - 1) as u64
    }
}

/// The sources of the comparison: name, text, include directories.
fn corpus(dir: &Scratch) -> Vec<(String, String, Vec<&'static str>)> {
    let mut list = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("tests/asm")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("ok_") && n.ends_with(".s")
        })
        .collect();
    files.sort();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        if !text.contains("#nognu") {
            list.push((p.display().to_string(), text, vec!["tests/asm/include"]));
        }
    }
    // The example programs, with the SCMP mnemonics' macros for GNU as.
    let mut programs: Vec<_> = std::fs::read_dir("programs")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    programs.sort();
    for p in programs {
        let text = format!(
            "    .include \"scmp_insn.s\"\n{}",
            std::fs::read_to_string(&p).unwrap()
        );
        list.push((
            p.display().to_string(),
            text,
            vec!["stressmarks/lib", "programs"],
        ));
    }
    for lib in ["am", "sr", "dis_rng"] {
        let p = format!("stressmarks/lib/{lib}.s");
        let text = std::fs::read_to_string(&p).unwrap();
        list.push((p, text, vec!["stressmarks/lib"]));
    }
    for (c, flags) in [
        ("tests/c/mix.c", &["-O2"][..]),
        ("tests/c/mix.c", &["-O0"][..]),
        ("tests/c/mix.c", &["-O2", "-g"][..]),
        ("tests/c/mix.c", &["-O0", "-g"][..]),
        ("tests/c/sum.c", &["-O2", "-ffreestanding"][..]),
        ("tests/c/mix.c", &["-O3", "-mcmodel=medany"][..]),
        ("tests/c/regnames.c", &["-O0", "-g"][..]),
        ("tests/c/regnames.c", &["-O2"][..]),
        ("tests/c/regnames.c", &["-O3", "-mcmodel=medany"][..]),
        ("tests/c/regnames.c", &["-O2", "-fPIC"][..]),
        ("tests/c/mix.c", &["-O2", "-fPIC"][..]),
        ("tests/c/statics/main.c", &["-O0", "-g"][..]),
        ("tests/c/statics/a.c", &["-O0"][..]),
        ("tests/c/debug.c", &["-O0", "-g"][..]),
        ("tests/c/debug.c", &["-O2"][..]),
        ("tests/c/debug.c", &["-O3", "-mcmodel=medany"][..]),
        // Unwind tables (`.cfi_*`): `.debug_frame` with -g, `.eh_frame`
        // when asked for, on the C stressmarks too.
        ("tests/c/report.c", &["-O2", "-g"][..]),
        (
            "tests/c/mix.c",
            &["-O2", "-fasynchronous-unwind-tables"][..],
        ),
        ("stressmarks/lu/lu.c", &["-O2", "-g", "-DSCMP_MODEL_SR"][..]),
        (
            "stressmarks/matrix/cg.c",
            &["-O0", "-g", "-DSCMP_MODEL_SR"][..],
        ),
        (
            "stressmarks/neighborhood/nb.c",
            &["-O3", "-g", "-DSCMP_MODEL_SR"][..],
        ),
        (
            "stressmarks/transitive/tc.c",
            &["-Os", "-g", "-DSCMP_MODEL_SR"][..],
        ),
    ] {
        let s = dir.path("gcc.s");
        let out = Command::new("riscv64-unknown-elf-gcc")
            .args([
                "-S",
                "-march=rv32g",
                "-mabi=ilp32d",
                "--specs=picolibc.specs",
                "-Ic/include",
            ])
            .args(flags)
            .arg("-o")
            .arg(&s)
            .arg(c)
            .output()
            .expect("riscv64-unknown-elf-gcc runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        list.push((
            format!("{c} {}", flags.join(" ")),
            std::fs::read_to_string(&s).unwrap(),
            vec![],
        ));
    }
    list
}

#[test]
fn objects_match_gnu_as_and_link_to_the_same_image() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("objects");
    let mut failures = String::new();
    let (mut compared, mut linked, mut skipped, mut with_lines) = (0, 0, Vec::new(), 0);
    let mut with_frames = 0;
    for (i, (name, text, includes)) in corpus(&dir).into_iter().enumerate() {
        let stem = format!("u{i}");
        let theirs = match gnu(&dir, &stem, &text, &includes) {
            Ok(o) => o,
            Err(e) => {
                // Programs that need `# run:` definitions or use our
                // extensions are not GNU input; the libraries and C must be.
                assert!(name.starts_with("programs/"), "GNU as rejected {name}: {e}");
                skipped.push(name);
                continue;
            }
        };
        let mine = ours(&name, &text, &includes)
            .unwrap_or_else(|e| panic!("{name}: our assembler rejected it:\n{e}"));
        // Contents, relocations, headers, symbols, groups, attributes,
        // OS/ABI and the line tables (decoded; version 3's bytes too), as
        // for the GNU cases. GNU's objects also hold the `.equ`s of the
        // SCMP CSR names that scmp_insn.s gives it (our assembler knows
        // them): left out of its symbols.
        let mut why = object_differences(&name, &mine, &theirs);
        let scmp_csr = |n: &str| {
            isa_spec::CSRS
                .iter()
                .any(|c| c.name == n && (0xcc0..=0xcff).contains(&c.number))
        };
        let mut gnu_symbols = symbol_rows(&theirs);
        gnu_symbols.retain(|n, _| !scmp_csr(n));
        if gnu_symbols == symbol_rows(&mine) {
            why.retain(|w| !w.starts_with("symbols\n"));
        }
        why.extend(line_differences(dir.as_ref(), &text, &mine, &theirs));
        if !why.is_empty() {
            failures += &format!("{name}:\n{}\n", why.join("\n"));
            continue;
        }
        if text.contains(".loc ") {
            with_lines += 1;
        }
        if text.contains(".cfi_startproc") {
            with_frames += 1;
        }
        compared += 1;
        // Standalone programs: linked by GNU ld (relaxing), same image.
        if name.starts_with("programs/") {
            let a = link(&dir, &format!("{stem}.ours"), &mine);
            let b = link(&dir, &format!("{stem}.gnu"), &theirs);
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    if loaded(&a) != loaded(&b) {
                        failures += &format!("{name}: linked images differ\n");
                    }
                    linked += 1;
                }
                (Err(e), _) | (_, Err(e)) => failures += &format!("{name}: ld: {e}\n"),
            }
        }
    }
    assert!(failures.is_empty(), "{failures}");
    assert!(
        with_lines >= 2,
        "only {with_lines} sources had a line table"
    );
    assert!(
        with_frames >= 10,
        "only {with_frames} sources had unwind tables"
    );
    assert!(
        compared >= 50 && linked >= 15,
        "only {compared} objects compared and {linked} programs linked (GNU as rejected {skipped:?})"
    );
}

/// The C mix through both assemblers and picolibc: the same image, and
/// it runs on a tile printing what it computes.
#[test]
fn c_mix_links_with_picolibc_to_the_same_image_and_runs() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("cmix");
    let s = dir.path("mix.s");
    let out = Command::new("riscv64-unknown-elf-gcc")
        .args([
            "-S",
            "-O2",
            "-march=rv32g",
            "-mabi=ilp32d",
            "--specs=picolibc.specs",
        ])
        .arg("-o")
        .arg(&s)
        .arg("tests/c/mix.c")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&s).unwrap();
    let mut images = Vec::new();
    for (who, object) in [
        ("ours", ours("mix.s", &text, &[]).unwrap()),
        ("gnu", gnu(&dir, "mix", &text, &[]).unwrap()),
    ] {
        let obj = dir.path(&format!("mix.{who}.o"));
        std::fs::write(&obj, object).unwrap();
        let elf = dir.path(&format!("mix.{who}.elf"));
        let root = env!("CARGO_MANIFEST_DIR");
        let gcc = Command::new("riscv64-unknown-elf-gcc")
            .args(["-march=rv32g", "-mabi=ilp32d", "--specs=picolibc.specs"])
            .args(["--oslib=semihost", "--crt0=semihost"])
            .arg(format!("-L{root}/c"))
            .arg("-Tscmp-picolibc.ld")
            .arg(&obj)
            .arg("-o")
            .arg(&elf)
            .output()
            .unwrap();
        assert!(
            gcc.status.success(),
            "{}",
            String::from_utf8_lossy(&gcc.stderr)
        );
        images.push((elf.clone(), loaded(&std::fs::read(&elf).unwrap())));
    }
    assert!(images[0].1 == images[1].1, "the linked images differ");
    let run = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(&images[0].0)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "square 4.000\ncircle 12.566\ntotal 142 two fib 610 long 1240971521 counters 7\ntls 1978 714 errno ERANGE 2147483647\n"
    );
    assert!(Path::new(&images[0].0).exists());
}

/// The order of `.local`, `.comm`, `.lcomm`, `.globl` and `.weak` decides a
/// symbol's binding and storage as GNU as decides it. gcc -O0 writes `.local
/// x` then `.comm x,4,4` for a file-scope `static`: a LOCAL symbol in `.bss`,
/// never a global common that ld would merge with another file's.
#[test]
fn local_comm_lcomm_and_bindings_match_gnu_as() {
    require_gnu();
    let dir = Scratch::new("gnu-bindings");
    let cases = [
        ("static_at_o0", ".local x\n.comm x,4,4\n"),
        ("comm_then_local", ".comm x,4,4\n.local x\n"),
        ("globl_then_lcomm", ".globl x\n.lcomm x,8\n"),
        ("lcomm_then_globl", ".lcomm x,8\n.globl x\n"),
        ("local_comm_globl", ".local x\n.comm x,4,4\n.globl x\n"),
        ("local_comm_weak", ".local x\n.comm x,4,4\n.weak x\n"),
        ("weak_then_local", ".weak a\n.local a\na: nop\n"),
        ("local_then_weak", ".local a\n.weak a\na: nop\n"),
        ("globl_then_local", ".globl a\n.local a\na: nop\n"),
        (
            "two_statics",
            ".local x\n.comm x,4,4\n.local y\n.comm y,16,8\n.comm z,2,2\n",
        ),
    ];
    let mut failures = Vec::new();
    for (stem, text) in cases {
        let gnu = gnu(&dir, stem, text, &[]).unwrap_or_else(|e| panic!("{stem}: GNU as: {e}"));
        let ours = ours(stem, text, &[]).unwrap_or_else(|e| panic!("{stem}: ours: {e}"));
        let (g, o) = (symbol_rows(&gnu), symbol_rows(&ours));
        assert!(!g.is_empty(), "{stem}: GNU's object has the symbols");
        if g != o {
            failures.push(format!("{stem}:\n  GNU  {g:?}\n  ours {o:?}"));
        }
        // The `.bss` size (where the local ones are reserved) agrees too.
        let bss = |b: &[u8]| describe(b).get(".bss").map(|s| s.1);
        if bss(&gnu) != bss(&ours) {
            failures.push(format!(
                "{stem}: .bss {:?} against GNU's {:?}",
                bss(&ours),
                bss(&gnu)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The cases of `tests/asm/gnu/`: each file is a behaviour of GNU as 2.40
/// (its comment says which) that our object must have too: the same
/// sections (type, flags, alignment, size, contents), relocations, symbols
/// (binding, type, place, size) and OS/ABI. An `err_` file must fail in
/// both.
#[test]
fn gnu_cases_match_gnu_as() {
    require_gnu();
    let dir = Scratch::new("gnu-cases");
    let mut files: Vec<_> = std::fs::read_dir("tests/asm/gnu")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the cases are there: {files:?}");
    let mut failures = Vec::new();
    for p in files {
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&p).unwrap();
        let (g, o) = (gnu(&dir, &stem, &text, &[]), ours(&stem, &text, &[]));
        if stem.starts_with("err_") {
            if g.is_ok() || o.is_ok() {
                failures.push(format!(
                    "{stem}: must fail in both (GNU ok: {}, ours ok: {})",
                    g.is_ok(),
                    o.is_ok()
                ));
            }
            continue;
        }
        let (g, o) = match (g, o) {
            (Ok(g), Ok(o)) => (g, o),
            (g, o) => {
                failures.push(format!("{stem}: GNU {:?}, ours {:?}", g.err(), o.err()));
                continue;
            }
        };
        let mut why = object_differences(&stem, &o, &g);
        why.extend(line_differences(dir.as_ref(), &text, &o, &g));
        if !why.is_empty() {
            failures.push(format!("{stem}:\n{}", why.join("\n")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Random valid sources (`gnudiff::random_source`) through GNU as and
/// ours: the same sections (type, flags, alignment, size, bytes),
/// relocations, symbols, groups and attributes, and the same images linked
/// by GNU ld with relaxation and without (`gnudiff::differences`). CI's
/// smoke of the fuzz crate's `gnu_differential` target, which runs the
/// same generator from fuzzer bytes. `SCMP_GNU_DIFF_CASES` (default 120)
/// sets how many, `SCMP_GNU_DIFF_SEED` the first seed (a failure names its
/// seed).
#[test]
fn random_sources_assemble_as_gnu_as_does() {
    require_gnu();
    let dir = Scratch::new("gnu-diff");
    let cases: u64 = std::env::var("SCMP_GNU_DIFF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(120);
    let first: u64 = std::env::var("SCMP_GNU_DIFF_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut failures = Vec::new();
    let mut linked = 0;
    for seed in first..first + cases {
        let text = random_source(&mut Rng(seed));
        let why =
            differences(&dir, &format!("seed{seed}"), &text, &mut linked).unwrap_or_else(|e| {
                panic!("seed {seed}: the generator wrote what GNU as refuses:\n{e}\n{text}")
            });
        if !why.is_empty() {
            failures.push(format!(
                "seed {seed}:\n{}\n--- source ---\n{text}",
                why.join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cases} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Most sources link (the rest jump out of reach in both builds): the
    // images were compared, not skipped.
    assert!(
        linked >= cases,
        "only {linked} of {} images linked",
        2 * cases
    );
}

/// Two files each with a COMDAT copy of an inline function (as gcc writes
/// C++ inline functions and template instances): GNU ld keeps the first
/// file's group and drops the second's, so `foo` is defined once and both
/// calls reach the first copy. Linking our objects gives GNU's image.
#[test]
fn comdat_groups_link_once_as_gnu_as_objects_do() {
    require_gnu();
    let dir = Scratch::new("gnu-comdat");
    let copy = |value: u32| {
        format!(
            ".section .text.foo,\"axG\",@progbits,foo,comdat\n.globl foo\n.type foo,@function\nfoo: li a0, {value}\nret\n"
        )
    };
    let a = format!(
        "{}.text\n.globl _start\n_start: call foo\ncall bar\n1: j 1b\n",
        copy(1)
    );
    let b = format!("{}.text\n.globl bar\nbar: call foo\nret\n", copy(2));
    let mut images = Vec::new();
    for (who, objects) in [
        (
            "ours",
            [ours("a.s", &a, &[]).unwrap(), ours("b.s", &b, &[]).unwrap()],
        ),
        (
            "gnu",
            [
                gnu(&dir, "a", &a, &[]).unwrap(),
                gnu(&dir, "b", &b, &[]).unwrap(),
            ],
        ),
    ] {
        let paths: Vec<_> = objects
            .iter()
            .enumerate()
            .map(|(i, o)| {
                let p = dir.path(&format!("{who}{i}.o"));
                std::fs::write(&p, o).unwrap();
                p
            })
            .collect();
        let out = dir.path(&format!("{who}.elf"));
        let ld = Command::new("riscv64-unknown-elf-ld")
            .args(["-m", "elf32lriscv", "-Ttext=0x10000", "-o"])
            .arg(&out)
            .args(&paths)
            .output()
            .expect("riscv64-unknown-elf-ld runs");
        assert!(
            ld.status.success(),
            "{who}: {}",
            String::from_utf8_lossy(&ld.stderr)
        );
        images.push(loaded(&std::fs::read(&out).unwrap()));
    }
    assert_eq!(
        images[0], images[1],
        "ours and GNU's objects link to one image"
    );
    // One copy of foo (li a0, 1: 0x00100513), none of the second (li a0, 2).
    let text = &images[0][".text"].1;
    let words: Vec<u32> = text
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    assert_eq!(
        words.iter().filter(|&&w| w == 0x0010_0513).count(),
        1,
        "{words:x?}"
    );
    assert!(!words.contains(&0x0020_0513), "{words:x?}");
}

/// The two places the README lists where GNU as 2.40 is wrong and we keep
/// ours, each checked against GNU's bytes (so the list cannot go stale
/// either way): a `.float`/`.double` literal exactly halfway between two
/// values (IEEE 754 rounds to the even one: 1 + 3*2^-24 is 0x3f800002;
/// GNU writes 0x3f800001), and `.set z, .-start+5`, where `.` is the
/// location where the `.set` is written (4 + 5 = 9; GNU writes 4).
#[test]
fn where_gnu_as_is_wrong_we_keep_ours() {
    require_gnu();
    let dir = Scratch::new("gnu-wrong");
    let cases: [(&str, &str, [u32; 3], [u32; 3]); 2] = [
        (
            "float_tie",
            ".data\n.float 1.000000059604644775390625\n.float 1.000000178813934326171875\n.float 2.5\n",
            [0x3f80_0000, 0x3f80_0002, 0x4020_0000],
            [0x3f80_0000, 0x3f80_0001, 0x4020_0000],
        ),
        (
            "set_dot",
            ".data\nstart: .word 1\n.set z, .-start+5\n.word 2\n.word z\n",
            [1, 2, 9],
            [1, 2, 4],
        ),
    ];
    for (stem, text, want_ours, want_gnu) in cases {
        let words = |object: &[u8]| -> Vec<u32> {
            let data = describe(object)[".data"].0.clone().unwrap();
            data.chunks(4)
                .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
                .collect()
        };
        let g = words(&gnu(&dir, stem, text, &[]).unwrap());
        let o = words(&ours(stem, text, &[]).unwrap());
        assert_eq!(o, want_ours, "{stem}: ours");
        assert_eq!(
            g, want_gnu,
            "{stem}: GNU as 2.40 (fixed there? then drop it from the README's list)"
        );
    }
    // The tie is IEEE 754's: Rust's own parsing rounds the same way.
    assert_eq!(
        "1.000000178813934326171875"
            .parse::<f32>()
            .unwrap()
            .to_bits(),
        0x3f80_0002
    );
}

/// A CFI advance of zero bytes across GNU's fragments (an alignment already
/// met under `.option norelax`): GNU as 2.40 drops the advance but keeps its
/// `R_RISCV_SET32`/`SUB32` pair, at an offset that no longer holds it (the
/// linked table is corrupted there); we write the same bytes without the
/// pair (the README lists it).
#[test]
fn zero_cfi_advance_gnu_relocates_wrongly_we_leave_it_out() {
    require_gnu();
    let dir = Scratch::new("gnu-cfi-zero");
    let text = "    .text\n    .cfi_startproc\n    nop\n    nop\n    .cfi_def_cfa_offset 16\n    \
                .option norelax\n    .p2align 3\n    .option relax\n    .cfi_def_cfa_offset 32\n    \
                nop\n    .cfi_endproc\n";
    let g = describe(&gnu(&dir, "zero", text, &[]).unwrap())[".eh_frame"].clone();
    let o = describe(&ours("zero", text, &[]).unwrap())[".eh_frame"].clone();
    assert_eq!(o.0, g.0, "the same bytes");
    let extra: Vec<&String> = g.2.iter().filter(|r| !o.2.contains(r)).collect();
    assert_eq!(o.2.len() + 2, g.2.len(), "ours {:?}, GNU's {:?}", o.2, g.2);
    assert!(
        extra.len() == 2 && extra[0].contains(" 56 ") && extra[1].contains(" 39 "),
        "GNU's stray SET32/SUB32 pair (fixed in GNU? then drop it from the README): {extra:?}"
    );
}
