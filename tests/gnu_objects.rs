//! `scmp asm -c` against GNU as 2.40 and GNU ld: on the `ok_` files, the
//! example programs, the messaging libraries and gcc -O2 output of a C mix
//! (`tests/c/mix.c`), our object has GNU's section contents and the same
//! relocations (offset, type, what they name, addend) and the same line
//! table from `.loc` (decoded by GNU readelf), and linking ours or GNU's
//! with GNU ld (relaxing) gives the same loaded image.

mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use object::elf;
use object::read::elf::{ElfFile32, FileHeader, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};
use support::*;

/// Options as `scmp asm -c -I DIR...` sets them.
fn ours(name: &str, text: &str, includes: &[&str]) -> Result<Vec<u8>, String> {
    let opts = asm::Options {
        include_dirs: includes.iter().map(Into::into).collect(),
        ..asm::Options::default()
    };
    asm::assemble_object(name, text, &opts, elf::EF_RISCV_FLOAT_ABI_DOUBLE)
        .map(|o| o.object)
        .map_err(|d| d.render(false))
}

fn gnu(dir: &Scratch, stem: &str, text: &str, includes: &[&str]) -> Result<Vec<u8>, String> {
    let src = dir.path(&format!("{stem}.s"));
    std::fs::write(&src, text).unwrap();
    let obj = dir.path(&format!("{stem}.gnu.o"));
    let mut cmd = Command::new("riscv64-unknown-elf-as");
    cmd.args(["-march=rv32g", "-mabi=ilp32d", "-o"])
        .arg(&obj)
        .arg(&src);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    // As gcc -g runs it (without, GNU as would describe the assembly source).
    if text.contains(".loc ") {
        cmd.arg("--gdwarf-5");
    }
    let out = cmd.output().expect("riscv64-unknown-elf-as runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&obj).unwrap())
}

/// Per section (but the attributes): its bytes (`None` for `.bss`-like) and
/// size, and its relocations described without symbol names that need not
/// match (a local symbol is `section+value`).
type Described = BTreeMap<String, (Option<Vec<u8>>, u64, Vec<String>)>;

fn describe(bytes: &[u8]) -> Described {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    let mut out = BTreeMap::new();
    for sec in file.sections() {
        let name = sec.name().unwrap_or("").to_string();
        // Relocations are compared as relocations; symbol tables differ in
        // the names of assembler-local labels and GNU's mapping symbols.
        // The line table is compared decoded (GNU puts its strings in
        // `.debug_line_str`, we inline them); we write no `.debug_frame`
        // (`.cfi_*` are accepted without effect).
        let bookkeeping = name.starts_with(".rela")
            || [
                ".symtab",
                ".strtab",
                ".shstrtab",
                ".riscv.attributes",
                ".debug_line",
                ".debug_line_str",
                ".debug_frame",
            ]
            .contains(&name.as_str());
        if name.is_empty() || bookkeeping {
            continue;
        }
        let data = (sec.kind() != object::SectionKind::UninitializedData)
            .then(|| sec.data().unwrap().to_vec());
        let mut relocs = Vec::new();
        for (offset, r) in sec.relocations() {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                unreachable!("ELF relocations")
            };
            let target = match r.target() {
                RelocationTarget::Symbol(i) => {
                    let s = file.symbol_by_index(i).unwrap();
                    if s.is_local() || s.kind() == object::SymbolKind::Section {
                        let sec = s
                            .section_index()
                            .and_then(|k| file.section_by_index(k).ok())
                            .map(|k| k.name().unwrap_or("?").to_string())
                            .unwrap_or_else(|| "*ABS*".into());
                        format!("{sec}+{:#x}", s.address())
                    } else {
                        s.name().unwrap_or("?").to_string()
                    }
                }
                _ => "-".to_string(),
            };
            relocs.push(format!("{offset:#06x} {r_type} {target} {:+}", r.addend()));
        }
        out.insert(name, (data, sec.size(), relocs));
    }
    let _ = file.elf_header().e_flags(file.endian());
    out
}

/// The line table as GNU readelf decodes it (file, line, address, stmt).
fn decoded_lines(dir: &Scratch, object: &[u8]) -> String {
    let path = dir.path("lines.o");
    std::fs::write(&path, object).unwrap();
    let out = Command::new("riscv64-unknown-elf-readelf")
        .arg("--debug-dump=decodedline")
        .arg(&path)
        .output()
        .expect("riscv64-unknown-elf-readelf runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains("lines.o"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn compare(what: &str, ours: &[u8], gnu: &[u8]) -> Result<(), String> {
    let (a, b) = (describe(ours), describe(gnu));
    let mut report = String::new();
    for name in a
        .keys()
        .chain(b.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        match (a.get(name), b.get(name)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                if x.0 != y.0 || x.1 != y.1 {
                    report += &format!(
                        "{what}: section {name}: contents differ (size {} here, {} in GNU's)\n",
                        x.1, y.1
                    );
                }
                let (rx, ry) = (&x.2, &y.2);
                if rx != ry {
                    let first = rx
                        .iter()
                        .zip(ry)
                        .position(|(p, q)| p != q)
                        .unwrap_or(rx.len().min(ry.len()));
                    report += &format!(
                        "{what}: section {name}: relocations differ at #{first}: ours {:?}, GNU's {:?}\n",
                        rx.get(first),
                        ry.get(first)
                    );
                }
            }
            (x, _) => {
                report += &format!(
                    "{what}: section {name} only in {}\n",
                    if x.is_some() { "ours" } else { "GNU's" }
                );
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

/// Loaded section contents of a linked ELF, by name.
fn loaded(elf_bytes: &[u8]) -> BTreeMap<String, (u64, Vec<u8>)> {
    let file = ElfFile32::<object::Endianness>::parse(elf_bytes).unwrap();
    file.sections()
        .filter(|s| {
            matches!(
                s.flags(),
                object::SectionFlags::Elf { sh_flags, .. } if sh_flags.0 & elf::SHF_ALLOC.0 != 0
            )
        })
        .map(|s| {
            (
                s.name().unwrap().to_string(),
                (s.address(), s.data().unwrap_or(&[]).to_vec()),
            )
        })
        .collect()
}

fn link(dir: &Scratch, stem: &str, object: &[u8]) -> Result<Vec<u8>, String> {
    let obj = dir.path(&format!("{stem}.o"));
    std::fs::write(&obj, object).unwrap();
    let out = dir.path(&format!("{stem}.elf"));
    let ld = Command::new("riscv64-unknown-elf-ld")
        .args(["-m", "elf32lriscv", "-Ttext=0x10000", "-o"])
        .arg(&out)
        .arg(&obj)
        .output()
        .expect("riscv64-unknown-elf-ld runs");
    if !ld.status.success() {
        return Err(String::from_utf8_lossy(&ld.stderr).into_owned());
    }
    Ok(std::fs::read(&out).unwrap())
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
        if let Err(e) = compare(&name, &mine, &theirs) {
            failures += &e;
            continue;
        }
        let (la, lb) = (decoded_lines(&dir, &mine), decoded_lines(&dir, &theirs));
        if la != lb {
            failures +=
                &format!("{name}: the decoded line tables differ:\n{la}\n--- GNU's:\n{lb}\n");
            continue;
        }
        if text.contains(".loc ") {
            with_lines += 1;
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

/// A symbol as the object's symbol table has it: binding, type, where it
/// lives (`COM`, `UND`, `ABS` or the section's name) and size.
fn symbol_rows(bytes: &[u8]) -> BTreeMap<String, String> {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    file.symbols()
        .filter(|s| {
            let n = s.name().unwrap_or("");
            let assembler_local = n.starts_with(".L") && s.is_local();
            !(n.is_empty() || n.starts_with('$') || assembler_local)
        })
        .map(|s| {
            let (bind, ty) = match s.flags() {
                object::SymbolFlags::Elf { st_info, .. } => (st_info.0 >> 4, st_info.0 & 15),
                _ => unreachable!("an ELF symbol"),
            };
            let place = match s.section() {
                object::SymbolSection::Common => "COM".to_string(),
                object::SymbolSection::Undefined => "UND".to_string(),
                object::SymbolSection::Absolute => "ABS".to_string(),
                object::SymbolSection::Section(i) => file
                    .section_by_index(i)
                    .unwrap()
                    .name()
                    .unwrap()
                    .to_string(),
                other => format!("{other:?}"),
            };
            (
                s.name().unwrap().to_string(),
                format!("bind {bind} type {ty} in {place} size {}", s.size()),
            )
        })
        .collect()
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

/// Section headers as they matter to a linker: type, flags, alignment, size.
fn section_rows(bytes: &[u8]) -> BTreeMap<String, String> {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    let endian = file.endian();
    file.sections()
        .filter(|s| {
            let n = s.name().unwrap_or("");
            !n.is_empty()
                && !n.starts_with(".rela")
                && ![".symtab", ".strtab", ".shstrtab", ".riscv.attributes"].contains(&n)
        })
        .map(|s| {
            let h = s.elf_section_header();
            (
                s.name().unwrap().to_string(),
                format!(
                    "type {} flags {:#x} align {} size {}",
                    h.sh_type(endian),
                    h.sh_flags(endian),
                    h.sh_addralign(endian),
                    h.sh_size(endian)
                ),
            )
        })
        .collect()
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
        if let Err(e) = compare(&stem, &o, &g) {
            failures.push(e);
        }
        let (sg, so) = (section_rows(&g), section_rows(&o));
        if sg != so {
            failures.push(format!("{stem}: sections\n  GNU  {sg:?}\n  ours {so:?}"));
        }
        let (yg, yo) = (symbol_rows(&g), symbol_rows(&o));
        if yg != yo {
            failures.push(format!("{stem}: symbols\n  GNU  {yg:?}\n  ours {yo:?}"));
        }
        let attributes = |b: &[u8]| {
            let f = ElfFile32::<object::Endianness>::parse(b).unwrap();
            f.section_by_name(".riscv.attributes")
                .map(|s| s.data().unwrap().to_vec())
        };
        if attributes(&g) != attributes(&o) {
            failures.push(format!("{stem}: .riscv.attributes differ"));
        }
        if g[7] != o[7] {
            failures.push(format!("{stem}: OS/ABI {} against GNU's {}", o[7], g[7]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The differential sources' choices, over the tests' splitmix64 [`Rng`].
struct Gen(Rng);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0.range(0, n as i64 - 1) as u64
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        self.0.pick::<&'a str>(items)
    }
    fn imm(&mut self, bits: u32) -> i64 {
        let half = 1i64 << (bits - 1);
        self.0.range(-half, half - 1)
    }
}

/// One random source that GNU as 2.40 takes: code with branches, jumps,
/// calls and address loads to labels of its own and external symbols,
/// loads and stores, `li` of any 32-bit value, FP and CSR instructions;
/// data of every width with numbers and same-section label differences,
/// strings, floats, LEB128 numbers; alignment with and without a maximum;
/// symbol directives (globals, weak, types, sizes, `.set`, file statics).
fn random_source(g: &mut Gen) -> String {
    const X: &[&str] = &["zero", "ra", "sp", "t0", "s0", "s1", "a0", "a1", "a5", "t6"];
    const F: &[&str] = &["fa0", "fa1", "ft0", "fs1"];
    let labels = 4 + g.below(8);
    let mut out = String::from("    .text\n");
    let mut code_labels = Vec::new();
    let mut data_labels = Vec::new();
    let mut section = "text";
    let mut next_label = 0;
    for _ in 0..20 + g.below(60) {
        let r = |g: &mut Gen| g.pick(X);
        let target = |g: &mut Gen| format!("L{}", g.below(labels));
        match g.below(100) {
            0..=5 => {
                let s = g.pick(&[
                    ".text",
                    ".data",
                    ".section .rodata",
                    ".section .text.hot,\"ax\",@progbits",
                ]);
                section = if s.contains("text") { "text" } else { "data" };
                out += &format!("    {s}\n");
            }
            6..=14 if next_label < labels => {
                out += &format!("L{next_label}:\n");
                if section == "text" {
                    code_labels.push(next_label);
                } else {
                    data_labels.push(next_label);
                }
                next_label += 1;
            }
            15..=19 => {
                let k = g.below(4);
                out += &match g.below(4) {
                    0 => format!("    .p2align {k}\n"),
                    1 => format!("    .balign {}\n", 1 << k),
                    2 => format!("    .p2align {k},,{}\n", g.below(5)),
                    _ => format!("    .align {k}\n"),
                };
            }
            _ if section == "data" => {
                out += &match g.below(9) {
                    0 => format!("    .byte {}, {}\n", g.imm(8), g.below(256)),
                    1 => format!("    .half {}\n", g.imm(16)),
                    2 => format!("    .word {}, {}\n", g.imm(32), g.imm(12)),
                    3 => format!("    .dword {}\n", g.imm(40)),
                    4 => format!("    .zero {}\n", g.below(9)),
                    5 => format!("    .asciz \"s{}\\n\"\n", g.below(1000)),
                    6 => format!("    .double {}.{}\n", g.imm(10), g.below(100)),
                    7 => format!("    .uleb128 {}\n", g.below(1 << 20)),
                    _ => match data_labels.as_slice() {
                        [.., a, b] => format!("    .word L{b} - L{a}\n"),
                        _ => format!("    .float {}.5\n", g.imm(8)),
                    },
                };
            }
            _ => {
                out += &match g.below(16) {
                    0 => format!("    add {}, {}, {}\n", r(g), r(g), r(g)),
                    1 => format!("    addi {}, {}, {}\n", r(g), r(g), g.imm(12)),
                    2 => format!("    lw {}, {}({})\n", r(g), g.imm(12), r(g)),
                    3 => format!("    sw {}, {}({})\n", r(g), g.imm(12), r(g)),
                    4 => format!("    beq {}, {}, {}\n", r(g), r(g), target(g)),
                    5 => format!("    bnez {}, {}\n", r(g), target(g)),
                    6 => format!("    j {}\n", target(g)),
                    7 => format!("    call {}\n", g.pick(&["L0", "L1", "ext_f", "puts"])),
                    8 => format!("    la {}, {}\n", r(g), target(g)),
                    9 => format!("    li {}, {}\n", r(g), g.imm(32)),
                    10 => format!("    lui {}, {}\n", r(g), g.below(1 << 20)),
                    11 => format!("    fadd.d {}, {}, {}\n", g.pick(F), g.pick(F), g.pick(F)),
                    12 => format!(
                        "    csrr {}, {}\n",
                        r(g),
                        g.pick(&["cycle", "fcsr", "instret"])
                    ),
                    13 => format!("    tail {}\n", g.pick(&["ext_g", "L2"])),
                    14 => format!("    lw {}, ext_v\n", r(g)),
                    _ => format!("    mul {}, {}, {}\n", r(g), r(g), r(g)),
                };
            }
        }
    }
    // Labels never placed are placed at the end, in code.
    out += "    .text\n";
    for k in next_label..labels {
        out += &format!("L{k}:\n    nop\n");
        code_labels.push(k);
    }
    // Symbol directives on some labels.
    for &k in &code_labels {
        match g.below(6) {
            0 => out += &format!("    .globl L{k}\n    .type L{k}, @function\n"),
            1 => out += &format!("    .weak L{k}\n"),
            2 => out += &format!("    .size L{k}, 4\n"),
            _ => {}
        }
    }
    if let Some(&k) = data_labels.first() {
        out += &format!("    .globl L{k}\n    .type L{k}, @object\n    .set alias{k}, L{k}\n");
    }
    if g.below(2) == 0 {
        out += "    .local fstatic\n    .comm fstatic,4,4\n    .comm shared,8,8\n";
    }
    out
}

/// Random valid sources (`random_source`) through GNU as and ours: the
/// same sections (type, flags, alignment, size, bytes), relocations,
/// symbols and attributes. `SCMP_GNU_DIFF_CASES` (default 120) sets how
/// many, `SCMP_GNU_DIFF_SEED` the first seed (a failure names its seed).
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
    for seed in first..first + cases {
        let text = random_source(&mut Gen(Rng(seed)));
        let stem = format!("seed{seed}");
        let g = match gnu(&dir, &stem, &text, &[]) {
            Ok(g) => g,
            Err(e) => panic!("seed {seed}: the generator wrote what GNU as refuses:\n{e}\n{text}"),
        };
        let o = match ours(&stem, &text, &[]) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("seed {seed}: ours refused it:\n{e}"));
                continue;
            }
        };
        let mut why = Vec::new();
        if let Err(e) = compare(&stem, &o, &g) {
            why.push(e);
        }
        if section_rows(&g) != section_rows(&o) {
            why.push(format!(
                "sections\n  GNU  {:?}\n  ours {:?}",
                section_rows(&g),
                section_rows(&o)
            ));
        }
        if symbol_rows(&g) != symbol_rows(&o) {
            why.push(format!(
                "symbols\n  GNU  {:?}\n  ours {:?}",
                symbol_rows(&g),
                symbol_rows(&o)
            ));
        }
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
}
