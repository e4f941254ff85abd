//! Inputs that used to crash the assembler or exhaust the machine: devices
//! and huge files, sections grown by many directives, deeply nested
//! expressions, long definition chains. Each ends in a value or a clear
//! error, within the test thread's 2 MiB stack.

fn assemble(text: &str) -> Result<asm::Output, String> {
    asm::assemble_sources(
        &[("limits.s".to_string(), text.to_string())],
        &asm::Options::default(),
    )
    .map_err(|d| d.render(false))
}

fn error_of(text: &str) -> String {
    match assemble(text) {
        Ok(_) => panic!("{text:.80} assembled"),
        Err(e) => e,
    }
}

fn data_word(out: &asm::Output) -> u32 {
    let data = out
        .image
        .sections
        .iter()
        .find(|s| s.name == ".data")
        .expect("a .data section");
    u32::from_le_bytes(data.data[..4].try_into().unwrap())
}

#[test]
fn devices_cannot_be_included_without_bound() {
    let e = error_of(".incbin \"/dev/zero\"\n");
    assert!(
        e.contains("cannot read `/dev/zero`") && e.contains("larger than 256 MiB"),
        "{e}"
    );
    let e = error_of(".include \"/dev/zero\"\n");
    assert!(e.contains("larger than 256 MiB"), "{e}");
    // A window of a device reads only its bytes.
    let out = assemble(".data\n.incbin \"/dev/zero\", 1000, 4\n").unwrap();
    assert_eq!(data_word(&out), 0);
}

#[test]
fn incbin_reads_only_its_window() {
    let path = std::env::temp_dir().join(format!("scmp-incbin-{}.bin", std::process::id()));
    {
        // A sparse 1 GiB file with a marker near its end: reading it whole
        // would exceed the limit, the window is 4 bytes.
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(1 << 30).unwrap();
        use std::io::{Seek, SeekFrom, Write};
        let mut f = f;
        f.seek(SeekFrom::Start((1 << 30) - 8)).unwrap();
        f.write_all(&0xfeed_beefu32.to_le_bytes()).unwrap();
    }
    let src = format!(".data\n.incbin \"{}\", 0x3ffffff8, 4\n", path.display());
    let out = assemble(&src);
    let whole = error_of(&format!(".data\n.incbin \"{}\"\n", path.display()));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(data_word(&out.unwrap()), 0xfeed_beef);
    assert!(whole.contains("larger than 256 MiB"), "{whole}");
}

#[test]
fn many_fills_cannot_pass_the_section_limit() {
    let e = error_of(&".space 0x8000000\n".repeat(4));
    assert!(e.contains("section `.text` is too large"), "{e}");
    assert!(e.contains("limits.s:3:1"), "the third line crosses it: {e}");
    // Spread over sections, the image is bounded as a whole.
    let src: String = (0..20)
        .map(|i| format!(".section s{i}, \"aw\"\n.space 0x8000000\n"))
        .collect();
    let e = error_of(&src);
    assert!(e.contains("the program is too large"), "{e}");
    let e = error_of(".bss\n.space 0x10000000\n.space 1\n");
    assert!(e.contains("section `.bss` is too large"), "{e}");
    for last in [".fill 5, 4, 0", ".org 0x10000004", ".byte 1, 2, 3, 4, 5"] {
        let e = error_of(&format!(".space 0xffffffc\n{last}\n"));
        assert!(
            e.contains("limits.s:2:") && e.contains("too large"),
            "{last}: {e}"
        );
    }
}

#[test]
fn deep_expressions_evaluate_or_stop_with_an_error() {
    let ok = format!(".data\n.word {}\n", vec!["1"; 1000].join("+"));
    assert_eq!(data_word(&assemble(&ok).unwrap()), 1000);
    let negs = format!(".data\n.word {}5\n", "-".repeat(1000));
    assert_eq!(data_word(&assemble(&negs).unwrap()), 5);
    for deep in [
        format!(".word {}\n", vec!["1"; 50_000].join("+")),
        format!(".word {}1\n", "-".repeat(50_000)),
        format!(".word {}1{}\n", "(".repeat(50_000), ")".repeat(50_000)),
        format!(".if {}\n.endif\n", vec!["1"; 50_000].join("*")),
        format!("li a0, {}\n", "~".repeat(50_000)),
    ] {
        let e = error_of(&deep);
        assert!(e.contains("expression too deeply nested"), "{e:.300}");
    }
    // Many operands, each shallow, are fine.
    let wide = format!(".word {}\n", vec!["1+1"; 5000].join(", "));
    assemble(&wide).unwrap();
}

#[test]
fn definition_chains_of_any_length_resolve() {
    let n = 5000;
    let mut src: String = (0..n)
        .map(|i| format!(".equ e{i}, e{}+1\n", i + 1))
        .collect();
    src += &format!(".equ e{n}, 7\n.data\n.word e0\n");
    assert_eq!(data_word(&assemble(&src).unwrap()), n + 7);
    let e = error_of(".equ a, b+1\n.equ b, c\n.equ c, a\n.data\n.word a\n");
    assert!(e.contains("is defined in terms of itself"), "{e}");
    assert!(e.contains("a -> b -> c -> a"), "names the cycle: {e}");
}
