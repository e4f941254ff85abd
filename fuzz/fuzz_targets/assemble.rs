//! Fuzzes the whole assembler: any text gives an executable or
//! diagnostics, never a panic; an executable reads back through our own
//! `objdump`. Fast and bounded, so that a campaign runs thousands of inputs
//! a second: inputs over 4 KiB are passed over (the run script also sets
//! `-max_len`), runaway `.rept` counts and macro recursion stop at small
//! limits, the listing, the objdump and the rendering of diagnostics run on one
//! input in 64 (chosen by
//! the input's bytes, so that one input always takes the same path), and
//! inputs naming device or process files (`/dev/stdin`, `/dev/urandom`,
//! ...) are passed over: `.include` and `.incbin` of those would block or
//! differ between runs.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// Largest input assembled.
const MAX_INPUT: usize = 4096;

fuzz_target!(|data: &[u8]| {
    if data.len() > MAX_INPUT {
        return;
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if ["/dev/", "/proc/", "/sys/"]
        .iter()
        .any(|p| text.contains(p))
    {
        return;
    }
    let hash = data.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    });
    let sample = hash % 64 == 0;
    let opts = asm::Options {
        listing: sample,
        max_statements: 20_000,
        max_expansions: 2_000,
        ..asm::Options::default()
    };
    match asm::assemble_sources(&[("fuzz.s".to_string(), text.to_string())], &opts) {
        Ok(out) => {
            if sample {
                let show = asm::objdump::Show {
                    disassemble: true,
                    symbols: true,
                    headers: true,
                    contents: true,
                    ..Default::default()
                };
                asm::objdump::dump(&out.elf, "fuzz.elf", &show).expect("our own ELF reads back");
            }
        }
        Err(diags) => {
            assert!(diags.error_count() > 0);
            if sample {
                let _ = diags.render(false);
            }
        }
    }
});
