//! Fuzzes the readers of ELF files: any bytes given to the emulator's
//! loader and to the disassembler (`scmp objdump`) give a program or an
//! error, never a panic. Run with `cargo fuzz run load_elf`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(program) = emu::Program::from_elf(data) {
        let _ = program.check_fits(8 << 20, 1 << 20);
        let _ = program.text_range();
    }
    let show = asm::objdump::Show {
        disassemble: true,
        symbols: true,
        headers: true,
        contents: true,
        ..Default::default()
    };
    let _ = asm::objdump::dump(data, "fuzz.elf", &show);
});
