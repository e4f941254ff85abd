//! Fuzzes the whole assembler: any bytes, as UTF-8 text, must give an
//! executable or diagnostics, never a panic. Run with
//! `cargo fuzz run assemble` (needs cargo-fuzz; see the README).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let opts = asm::Options {
        listing: true,
        max_statements: 200_000,
        max_expansions: 20_000,
        ..asm::Options::default()
    };
    match asm::assemble_sources(&[("fuzz.s".to_string(), text.to_string())], &opts) {
        Ok(out) => {
            let show = asm::objdump::Show { disassemble: true, symbols: true, headers: true, contents: true, ..Default::default() };
            asm::objdump::dump(&out.elf, "fuzz.elf", &show).expect("our own ELF reads back");
        }
        Err(diags) => {
            assert!(diags.error_count() > 0);
            let _ = diags.render(false);
        }
    }
});
