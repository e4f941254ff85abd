//! C with a real C library: a program built with gcc and Debian's picolibc
//! (`--oslib=semihost`, linked with our `c/scmp-picolibc.ld`) runs on a tile
//! through RISC-V semihosting and prints what it prints on hardware: the
//! same bytes as the same program built for the host. Fails (does not skip)
//! when gcc or picolibc is missing: `cargo xtask test` installs them.

mod support;

use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn a_picolibc_program_runs_on_a_tile() {
    let elf = std::env::temp_dir().join(format!("scmp-picolibc-{}.elf", std::process::id()));
    support::build_with_picolibc(Path::new(&format!("{ROOT}/tests/c/picolibc_hello.c")), &elf);

    let mut child = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(&elf)
        .args(["--", "alpha", "beta"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"a line of input\n")
        .unwrap();
    let run = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&elf);
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "exit status of main: {stderr}");
    // What the C library prints on hardware, where picolibc's stdout and
    // stderr both write the semihosting console (SYS_WRITEC).
    assert_eq!(
        stdout,
        "argc 3: alpha beta\n\
         sqrt(2) = 1.414213562373095, sin(1) = 0.841471\n\
         sum 249750, 0000beef, ok   |\n\
         read 16 bytes: a line of input\n\
         to stderr\n"
    );
    assert!(stderr.is_empty(), "{stderr}");
}

/// ELF files gcc makes by mistake are refused with what to do: an RV64 one
/// (gcc's default) names the flags for RV32, one linked with picolibc's own
/// memory map (text at 0x10000000) names c/scmp-picolibc.ld.
#[test]
fn wrong_elfs_name_the_fix() {
    let dir = support::Scratch::new("wrong-elf");
    let source = format!("{ROOT}/tests/c/picolibc_hello.c");
    let build = |name: &str, args: &[&str]| {
        let out = dir.0.join(name);
        let gcc = Command::new("riscv64-unknown-elf-gcc")
            .args(args)
            .args(["--specs=picolibc.specs", "--oslib=semihost", "-O2"])
            .arg(&source)
            .args(["-lm", "-o"])
            .arg(&out)
            .output()
            .expect("riscv64-unknown-elf-gcc runs");
        assert!(
            gcc.status.success(),
            "{}",
            String::from_utf8_lossy(&gcc.stderr)
        );
        out
    };
    let run = |elf: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_scmp"))
            .arg("run")
            .arg(elf)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let rv64 = build("rv64.elf", &[]);
    let e = run(&rv64);
    assert!(
        e.contains("a 64-bit ELF (RV64)") && e.contains("-march=rv32g -mabi=ilp32d"),
        "{e}"
    );
    let default_map = build("map.elf", &["-march=rv32g", "-mabi=ilp32d"]);
    let e = run(&default_map);
    assert!(
        e.contains("0x10000000") && e.contains("-Tscmp-picolibc.ld"),
        "{e}"
    );
}
