//! Whatever the input, the assembler returns output or diagnostics: never a
//! panic. Two generators: arbitrary text, and token soup made of the pieces
//! real sources are made of (mnemonics, directives, registers, numbers,
//! punctuation, macro syntax), which reaches much deeper into the assembler.

use proptest::prelude::*;

const PIECES: &[&str] = &[
    "addi",
    "lw",
    "sw",
    "beq",
    "jal",
    "jalr",
    "li",
    "la",
    "call",
    "tail",
    "ret",
    "lui",
    "auipc",
    "csrr",
    "fadd.s",
    "fcvt.d.w",
    "amoadd.w.aqrl",
    "lr.w",
    "fence",
    "sendh",
    "send2e",
    "str",
    "ldsr",
    "endt",
    "a0",
    "t1",
    "x31",
    "fa0",
    "f5",
    "zero",
    "sp",
    "thread",
    "rdv",
    "data",
    "rtz",
    "iorw",
    "cycle",
    "nodeid",
    ".text",
    ".data",
    ".bss",
    ".section",
    ".word",
    ".byte",
    ".half",
    ".dword",
    ".ascii",
    ".asciz",
    ".float",
    ".double",
    ".align",
    ".p2align",
    ".balign",
    ".org",
    ".space",
    ".fill",
    ".zero",
    ".equ",
    ".set",
    ".globl",
    ".type",
    ".size",
    ".macro",
    ".endm",
    ".exitm",
    ".rept",
    ".endr",
    ".irp",
    ".irpc",
    ".if",
    ".ifdef",
    ".else",
    ".elseif",
    ".endif",
    ".include",
    ".incbin",
    ".uleb128",
    ".sleb128",
    ".comm",
    ".pushsection",
    ".popsection",
    ".previous",
    ".attribute",
    ".option",
    ".end",
    ".purgem",
    ".ifc",
    ".ifb",
    "0",
    "1",
    "-1",
    "2047",
    "4096",
    "0x7fffffff",
    "0xffffffffffffffff",
    "99999999999999999999",
    "'a'",
    "1b",
    "1f",
    "1:",
    "2:",
    "label",
    "label:",
    ".L1",
    "\\arg",
    "\\@",
    "\\()",
    "%hi",
    "%lo",
    "%pcrel_hi",
    "%pcrel_lo",
    "(",
    ")",
    ",",
    ",",
    "+",
    "-",
    "*",
    "/",
    "%",
    "<<",
    ">>",
    "&",
    "|",
    "^",
    "~",
    "!",
    "==",
    "=",
    "\"str\"",
    "\"unterminated",
    "#",
    "/*",
    "*/",
    ";",
    "\n",
    "\n",
    "\n",
    " ",
    "@function",
    "\"ax\"",
    "1.5",
    "nan",
];

fn assemble(text: &str) {
    let sources = vec![("fuzz.s".to_string(), text.to_string())];
    let opts = asm::Options {
        listing: true,
        ..asm::Options::default()
    };
    match asm::assemble_sources(&sources, &opts) {
        Ok(out) => {
            assert!(!out.elf.is_empty());
            // Disassembling our own output never fails either.
            asm::objdump::dump(
                &out.elf,
                "fuzz.elf",
                &asm::objdump::Show {
                    disassemble: true,
                    symbols: true,
                    headers: true,
                    contents: true,
                    ..Default::default()
                },
            )
            .expect("our ELF reads back");
        }
        Err(diags) => {
            assert!(diags.error_count() > 0, "an error result carries an error");
            let rendered = diags.render(false);
            assert!(!rendered.is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
        assemble(&text);
    }

    #[test]
    fn token_soup_never_panics(pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..60)) {
        assemble(&pieces.join(" "));
    }
}

#[test]
fn runaway_repetition_and_recursion_stop_with_an_error() {
    // Small limits keep the test fast; the defaults are the same mechanism.
    let opts = asm::Options {
        max_statements: 100_000,
        max_expansions: 10_000,
        max_expansion_bytes: 1 << 20,
        ..asm::Options::default()
    };
    let cases = [
        (
            ".rept 100000000\n.rept 100000000\nnop\n.endr\n.endr\n",
            "too many statements",
        ),
        (".macro m\nm\nm\n.endm\nm\n", "nested too deeply"),
        (
            ".macro e\n.endm\n.rept 20000\ne\n.endr\n",
            "too many macro expansions",
        ),
        (".rept 5000\naddi a0, a0, 5000\n.endr\n", "too many errors"),
        (".macro r\nr\n.endm\nr\n", "nested too deeply"),
        // An argument that doubles with each use (found by the assemble
        // target: memory ran out before the nesting limit).
        (
            ".macro grow a\n.word 0\ngrow \\a\\a\n.endm\ngrow 1\n",
            "macro expansions too large",
        ),
        (".space 0x7fffffff\n", "invalid size"),
        (".fill 0x10000000, 8, 1\n", "invalid `.fill` size"),
        (".org 0xffffffff\n", "`.org` target is too large"),
        (
            ".irp x, 1, 2\n.irp y, 1, 2\n.byte \\x\n.endr\n.endr\n.include \"fuzz.s\"\n",
            "cannot find",
        ),
    ];
    // `.irpc` over 30,000 characters of a 50-byte body: 1.5 MB of text,
    // stopped as it grows.
    let irpc = format!(
        ".irpc c, {}\n.word 0 # padding padding padding padding padding\n.endr\n",
        "x".repeat(30_000)
    );
    let cases = cases
        .iter()
        .map(|&(t, m)| (t.to_string(), m))
        .chain([(irpc, "macro expansions too large")]);
    for (text, message) in cases {
        let err =
            asm::assemble_sources(&[("fuzz.s".to_string(), text.clone())], &opts).expect_err(&text);
        let rendered = err.render(false);
        assert!(rendered.contains(message), "{text:?}: {rendered}");
    }
}

#[test]
fn the_first_pass_stops_at_max_errors() {
    // 50 bad lines; the first pass reports 10 and says it stopped.
    let text: String = (0..50).map(|i| format!("bogus{i} a0\n")).collect();
    for (max, errors) in [(10, 11), (1000, 50)] {
        let opts = asm::Options {
            max_errors: max,
            ..asm::Options::default()
        };
        let err = asm::assemble_sources(&[("f.s".to_string(), text.clone())], &opts)
            .expect_err("unknown mnemonics");
        assert_eq!(err.error_count(), errors, "max_errors {max}");
        let rendered = err.render(false);
        assert_eq!(
            rendered.contains(&format!("{max} diagnostics reported")),
            errors > max,
            "{rendered}"
        );
    }
}
