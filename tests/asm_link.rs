//! Linking several files, options, ELF metadata, the `scmp asm`/`objdump`
//! commands, and the disassemble → reassemble round trip.

mod support;

use std::process::Command;

use object::{Object, ObjectSection, ObjectSymbol};
use support::*;

fn sources(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

fn symbol(elf: &[u8], name: &str) -> Option<(u64, u64, bool)> {
    let file = object::File::parse(elf).unwrap();
    file.symbols()
        .find(|s| s.name() == Ok(name))
        .map(|s| (s.address(), s.size(), s.is_global()))
}

#[test]
fn globals_resolve_across_files_and_locals_do_not_clash() {
    let a = "    .globl _start\n_start:\n    call helper\nlocal:\n    j local\n    .data\ncount: .word shared\n";
    let b = "    .globl helper, shared\nhelper:\n    ret\nlocal:\n    nop\n    .data\nshared: .word 7\ncount: .word 1\n";
    let out = asm::assemble_sources(
        &sources(&[("a.s", a), ("b.s", b)]),
        &asm::Options::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let text = &out.image.sections[0];
    assert_eq!(text.name, ".text");
    // a.s: call (8 bytes) + j (4) = 12 bytes, then b.s's helper.
    let (helper, _, global) = symbol(&out.elf, "helper").expect("helper in symtab");
    assert!(global);
    assert_eq!(helper, text.addr + 12);
    // The call reaches helper: auipc ra, 0; jalr ra, 12(ra).
    let w = |i: usize| u32::from_le_bytes(text.data[i..i + 4].try_into().unwrap());
    assert_eq!(w(0), 0x0000_0097);
    assert_eq!(w(4), 0x00c0_80e7);
    // Both files' `local` and `count` exist as distinct local symbols.
    let file = object::File::parse(&*out.elf).unwrap();
    assert_eq!(
        file.symbols().filter(|s| s.name() == Ok("local")).count(),
        2
    );
    assert_eq!(
        file.symbols().filter(|s| s.name() == Ok("count")).count(),
        2
    );
    // a.s's `.word shared` holds b.s's address of `shared`.
    let (shared, _, _) = symbol(&out.elf, "shared").unwrap();
    let data = out
        .image
        .sections
        .iter()
        .find(|s| s.name == ".data")
        .unwrap();
    assert_eq!(
        u32::from_le_bytes(data.data[0..4].try_into().unwrap()) as u64,
        shared
    );
}

#[test]
fn a_global_defined_twice_is_an_error_naming_both() {
    let a = "    .globl f\nf: ret\n";
    let b = "    .globl f\nf: nop\n";
    let err = asm::assemble_sources(
        &sources(&[("a.s", a), ("b.s", b)]),
        &asm::Options::default(),
    )
    .unwrap_err();
    let text = err.render(false);
    assert!(
        text.contains("global symbol `f` is defined in two files"),
        "{text}"
    );
    assert!(
        text.contains("b.s:2:1") && text.contains("a.s:2:1"),
        "{text}"
    );
}

/// COMDAT groups with one signature in two files: as GNU ld, the first
/// file's copy is kept, the second's takes no room, and every call reaches
/// the kept `foo` (no "defined in two files").
#[test]
fn comdat_groups_are_kept_once() {
    let group = |v: u32| {
        format!(
            ".section .text.foo,\"axG\",@progbits,foo,comdat\n.globl foo\nfoo: li a0, {v}\nret\n"
        )
    };
    let a = format!(
        "{}.text\n.globl _start\n_start: call foo\ncall bar\n",
        group(1)
    );
    let b = format!("{}.text\n.globl bar\nbar: call foo\nret\n", group(2));
    let out = asm::assemble_sources(
        &sources(&[("a.s", &a), ("b.s", &b)]),
        &asm::Options::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let text = &out.image.sections[0];
    let words: Vec<u32> = text
        .data
        .chunks(4)
        .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
        .collect();
    // a.s: _start (16 bytes), foo (8); b.s: bar (12); b.s's foo dropped.
    assert_eq!(text.data.len(), 16 + 8 + 12, "{words:x?}");
    assert_eq!(words.iter().filter(|&&w| w == 0x0010_0513).count(), 1);
    assert!(!words.contains(&0x0020_0513), "b.s's copy is dropped");
    let (foo, _, _) = symbol(&out.elf, "foo").expect("foo in the symbol table");
    assert_eq!(foo, text.addr + 16);
    // bar's call: auipc ra, 0 at text+24; jalr ra, -8(ra) reaches foo.
    assert_eq!(words[6], 0x0000_0097);
    assert_eq!(words[7], 0xff8_080e7);
}

#[test]
fn defsym_entry_and_text_base() {
    let src = "    .if FAST\n    li a0, 1\n    .else\n    li a0, 2\n    .endif\nmain:\n    li a1, LIMIT\n";
    let opts = asm::Options {
        defsyms: vec![("FAST".into(), 1), ("LIMIT".into(), 0x12345)],
        entry: Some("main".into()),
        text_base: 0x20000,
        ..asm::Options::default()
    };
    let out = asm::assemble_sources(&sources(&[("d.s", src)]), &opts)
        .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let file = object::File::parse(&*out.elf).unwrap();
    assert_eq!(file.entry(), 0x20004);
    let text = file.section_by_name(".text").unwrap();
    assert_eq!(text.address(), 0x20000);
    let w: Vec<u32> = text
        .data()
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(w[0], 0x0010_0513, "li a0, 1 (FAST=1)");
    assert_eq!(&w[1..3], &[0x0001_25b7, 0x3455_8593], "li a1, 0x12345");
    let missing = asm::Options {
        entry: Some("nope".into()),
        ..asm::Options::default()
    };
    let err = asm::assemble_sources(&sources(&[("d.s", "nop\n")]), &missing).unwrap_err();
    assert!(
        err.render(false)
            .contains("entry symbol `nope` is not defined")
    );
}

#[test]
fn elf_records_types_sizes_attributes_and_idents() {
    require_gnu();
    let src = r#"
    .file "prog.c"
    .attribute arch, "rv32i2p1_m2p0_a2p1_f2p2_d2p2"
    .attribute stack_align, 16
    .globl f
    .type f, @function
f:  addi a0, a0, 1
    ret
    .size f, .-f
    .data
    .type table, @object
    .size table, 8
table: .word 1, 2
    .comm buffer, 64, 8
    .ident "scmp test 1.0"
"#;
    let out = asm::assemble_sources(&sources(&[("m.s", src)]), &asm::Options::default()).unwrap();
    let file = object::File::parse(&*out.elf).unwrap();
    let f = file.symbols().find(|s| s.name() == Ok("f")).unwrap();
    assert_eq!((f.size(), f.kind()), (8, object::SymbolKind::Text));
    let t = file.symbols().find(|s| s.name() == Ok("table")).unwrap();
    assert_eq!((t.size(), t.kind()), (8, object::SymbolKind::Data));
    let b = file.symbols().find(|s| s.name() == Ok("buffer")).unwrap();
    assert_eq!(b.size(), 64);
    assert_eq!(b.address() % 8, 0);
    let bss = file.section_by_name(".bss").unwrap();
    assert!(b.address() >= bss.address() && b.address() + 64 <= bss.address() + bss.size());
    assert!(
        file.symbols()
            .any(|s| s.name() == Ok("prog.c") && s.kind() == object::SymbolKind::File)
    );
    let comment = file.section_by_name(".comment").unwrap();
    assert!(
        comment
            .data()
            .unwrap()
            .windows(13)
            .any(|w| w == b"scmp test 1.0")
    );
    // GNU readelf decodes our attributes section.
    let dir = Scratch::new("attrs");
    let path = dir.path("m.elf");
    std::fs::write(&path, &out.elf).unwrap();
    let r = Command::new("riscv64-unknown-elf-readelf")
        .arg("-A")
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&r.stdout);
    // Canonical, with what the string implies, as GNU as writes it.
    assert!(
        text.contains("Tag_RISCV_arch: \"rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zmmul1p0\""),
        "{text}"
    );
    assert!(text.contains("Tag_RISCV_stack_align: 16-bytes"), "{text}");
}

fn scmp(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .output()
        .expect("scmp runs")
}

#[test]
fn scmp_asm_writes_an_executable_and_a_listing_and_reports_errors() {
    let dir = Scratch::new("cli");
    let src = dir.path("p.s");
    std::fs::write(
        &src,
        "_start:\n    li a0, 0x12345678\n    .data\n    .word 5\n",
    )
    .unwrap();
    let out = dir.path("p.elf");
    let r = scmp(&[
        "asm",
        "-l",
        src.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let listing = String::from_utf8_lossy(&r.stdout);
    assert!(
        listing.contains("    2 00010000 12345537             li a0, 0x12345678"),
        "{listing}"
    );
    assert!(listing.contains("      00010004 67850513"), "{listing}");
    assert!(
        listing.contains("    4 00011000 05000000             .word 5"),
        "{listing}"
    );
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&out).unwrap().permissions().mode() & 0o111,
        0o111,
        "executable bit"
    );

    let bad = dir.path("bad.s");
    std::fs::write(&bad, "    addi a0, a0, 5000\n    bogus\n").unwrap();
    let r = scmp(&[
        "asm",
        bad.to_str().unwrap(),
        "-o",
        dir.path("x").to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("bad.s:1:18") && err.contains("bad.s:2:5"),
        "{err}"
    );
    assert!(err.contains("assembly failed with 2 errors"), "{err}");
    assert!(
        !err.contains('\u{1b}'),
        "no colour codes when stderr is not a terminal"
    );

    let r = scmp(&["asm", dir.path("missing.s").to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&r.stderr).contains("cannot read"));
}

/// Disassembling and reassembling gives the same bytes: every word of a
/// program using every instruction form, and arbitrary words that decode,
/// in the alias form (`li`, `beqz`, `csrr`, ...) and in the raw form.
#[test]
fn disassembly_reassembles_to_the_same_bytes() {
    let mut r = Rng(7);
    let mut words = Vec::new();
    while words.len() < 20_000 {
        let w = r.next() as u32;
        if isa_spec::Inst::decode(w).is_some() {
            words.push(w);
        }
    }
    // Every opcode at least once, and every form disassembly prints.
    for op in isa_spec::Opcode::ALL {
        let inst = isa_spec::Inst::with_defaults(*op);
        words.push(inst.encode().unwrap());
    }
    words.extend([
        0x0000_0013,
        0xffb0_0513,
        0x0005_8513,
        0x0000_8067,
        0xc000_1073,
    ]);
    const BASE: u32 = 0x10000;
    for aliases in [true, false] {
        let mut text = String::from("    .text\n");
        for (i, &w) in words.iter().enumerate() {
            let inst = isa_spec::Inst::decode(w).unwrap();
            let display = inst.display(BASE + 4 * i as u32);
            let mut line = if aliases {
                display.to_string()
            } else {
                display.no_aliases().to_string()
            };
            // A conditional branch to a number is relaxed (the inverted
            // branch over a jal, as GNU as writes it): the round trip names
            // its target relative to `.` instead, which stays one word.
            if inst.op.spec().operands.contains(&isa_spec::Operand::Branch)
                && let Some((head, _)) = line.rsplit_once(',')
            {
                line = format!("{head}, . + {}", inst.imm);
            }
            text += &format!("    {line}\n");
        }
        let again =
            asm::assemble_sources(&sources(&[("again.s", &text)]), &asm::Options::default())
                .unwrap_or_else(|d| panic!("reassembly failed:\n{}", d.render(false)));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(again.image.sections[0].addr, u64::from(BASE));
        assert_eq!(
            again.image.sections[0].data, bytes,
            "bytes differ after the round trip (aliases: {aliases})"
        );
    }
}

#[test]
fn scmp_objdump_shows_headers_symbols_and_code() {
    let dir = Scratch::new("objdump");
    let src = dir.path("o.s");
    std::fs::write(
        &src,
        "    .globl _start\n_start:\n    beq a0, a1, done\n    sendh a0, rdv, a1\ndone:\n    ret\n",
    )
    .unwrap();
    let elf = dir.path("o.elf");
    assert!(
        scmp(&["asm", src.to_str().unwrap(), "-o", elf.to_str().unwrap()])
            .status
            .success()
    );
    let r = scmp(&["objdump", "-d", "-t", "-h", elf.to_str().unwrap()]);
    assert!(r.status.success());
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(
        out.contains(".text              0000000c  00010000"),
        "{out}"
    );
    assert!(
        out.contains("00010000 g      .text      00000000 _start"),
        "{out}"
    );
    assert!(out.contains("00010000 <_start>:"), "{out}");
    assert!(
        out.contains("   10000:\t00b50463          \tbeq\ta0,a1,10008 <done>\n"),
        "{out}"
    );
    assert!(
        out.contains("   10004:\t04b5000b          \tsendh\ta0,rdv,a1\n"),
        "{out}"
    );
    assert!(
        out.contains("   10008:\t00008067          \tret\n"),
        "{out}"
    );
    let r = scmp(&["objdump", "-d", "-M", "no-aliases", elf.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&r.stdout);
    assert!(out.contains("\tjalr\tzero,0(ra)\n"), "{out}");
    let r = scmp(&["objdump", "-d", "-M", "no-alias", elf.to_str().unwrap()]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "an unknown -M option is bad input"
    );
    assert!(
        String::from_utf8_lossy(&r.stderr).contains("unrecognized disassembler option `no-alias`"),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let r = scmp(&["objdump", src.to_str().unwrap()]);
    assert_eq!(
        r.status.code(),
        Some(2),
        "a source file is not an ELF file (exit 2: bad input)"
    );
    assert!(String::from_utf8_lossy(&r.stderr).contains("not an ELF file"));
}

/// Two files with `.local x` + `.comm x,4,4` (gcc -O0's file-scope `static`)
/// get one `x` each, at different addresses; a plain `.comm` is shared.
#[test]
fn file_statics_from_local_comm_are_not_merged() {
    let a = "    .globl _start\n_start:\n    ret\n    .local x\n    .comm x,4,4\n    .comm shared,8,4\n";
    let b = "    .local x\n    .comm x,4,4\n    .comm shared,4,4\n";
    let out = asm::assemble_sources(
        &sources(&[("a.s", a), ("b.s", b)]),
        &asm::Options::default(),
    )
    .unwrap_or_else(|d| panic!("{}", d.render(false)));
    let file = object::File::parse(&*out.elf).unwrap();
    let xs: Vec<(u64, bool)> = file
        .symbols()
        .filter(|s| s.name() == Ok("x"))
        .map(|s| (s.address(), s.is_global()))
        .collect();
    assert_eq!(xs.len(), 2, "one `x` per file: {xs:?}");
    assert_ne!(xs[0].0, xs[1].0, "two addresses: {xs:?}");
    assert!(xs.iter().all(|&(_, global)| !global), "both local: {xs:?}");
    let (_, size, global) = symbol(&out.elf, "shared").expect("the common symbol");
    assert!(global);
    assert_eq!(size, 8, "the largest `.comm` wins");
}
