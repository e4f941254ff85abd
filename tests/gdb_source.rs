//! Source-level debugging of C through `scmp cc` (gcc with `scmp asm` as
//! its assembler: our `.debug_line` from `.loc`, gcc's other `.debug_*`
//! kept) and `scmp run --gdb` with gdb-multiarch: a breakpoint at a C line,
//! the arguments, `next` over a line, a local read, `bt` through the
//! caller, `list`. Fails (does not skip) without gdb-multiarch.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn break_at_a_c_line_step_read_locals_backtrace() {
    let dir = std::env::temp_dir().join(format!("scmp-gdb-source-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let elf = dir.join("debug.elf");
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scmp-cache");
    let cc = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .env("SCMP_CACHE_DIR", &cache)
        .args(["cc", "tests/c/debug.c", "-g", "-O0", "-o"])
        .arg(&elf)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );

    let mut server = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(&elf)
        .args(["--gdb", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in `{line}`"))
        .to_string();
    let commands = [
        "set confirm off".to_string(),
        "set pagination off".to_string(),
        format!("target remote {address}"),
        "break debug.c:6".into(),
        "continue".into(),
        "bt".into(),
        "next".into(),
        "print sum".into(),
        "info line *$pc".into(),
        "list add".into(),
        "delete".into(),
        "continue".into(),
    ];
    let mut gdb = Command::new("gdb-multiarch");
    gdb.args(["-batch", "-nx"]);
    for c in &commands {
        gdb.args(["-ex", c]);
    }
    let out = gdb
        .arg(&elf)
        .output()
        .expect("gdb-multiarch runs (apt-get install gdb-multiarch)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let run = server.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    for want in [
        "Breakpoint 1 at",
        "add (a=0, b=1) at tests/c/debug.c:6",
        "#1  0x",
        "in main () at tests/c/debug.c:13",
        "$1 = 1",
        "Line 7 of \"tests/c/debug.c\"",
        "int sum = a + b;",
    ] {
        assert!(text.contains(want), "gdb output lacks `{want}`:\n{text}");
    }
    assert!(stdout.contains("total 6 on node 0"), "{stdout}");
    assert_eq!(run.status.code(), Some(0), "{text}");
}
