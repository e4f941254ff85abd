//! `scmp run --gdb`: the real GDB (`gdb-multiarch`, Debian's) in batch mode
//! against the server: threads (one per context), a software breakpoint,
//! registers (x, CSRs) and memory read and written, a single step, a write
//! watchpoint, the run going on to its exit; and Ctrl-C stopping a program
//! that loops forever, then `kill`. The test fails (does not skip) when
//! gdb-multiarch is missing; `cargo xtask test` installs it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("scmp-gdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Assembles `source` into `dir/prog.elf` with `scmp asm`.
fn assemble(dir: &Path, source: &str) -> PathBuf {
    let src = dir.join("prog.s");
    let elf = dir.join("prog.elf");
    std::fs::write(&src, source).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("asm")
        .arg(&src)
        .arg("-o")
        .arg(&elf)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    elf
}

/// Starts `scmp run ELF ARGS --gdb 0` and returns it with the address it
/// listens on (from its first line on stderr).
fn serve(elf: &Path, args: &[&str]) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scmp"))
        .arg("run")
        .arg(elf)
        .args(args)
        .args(["--gdb", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("scmp runs");
    let mut line = String::new();
    BufReader::new(child.stderr.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let address = line
        .split_whitespace()
        .find(|w| w.starts_with("127.0.0.1:"))
        .unwrap_or_else(|| panic!("no address in `{line}`"))
        .to_string();
    (child, address)
}

/// `gdb-multiarch -batch` on `elf` with `commands`, each an `-ex`.
fn gdb(elf: &Path, commands: &[&str]) -> Command {
    let mut cmd = Command::new("gdb-multiarch");
    cmd.args([
        "-batch",
        "-nx",
        "-ex",
        "set confirm off",
        "-ex",
        "set pagination off",
    ]);
    for c in commands {
        cmd.args(["-ex", c]);
    }
    cmd.arg(elf);
    cmd
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

const PROGRAM: &str = "
    .data
value:   .word 0x11223344, 0x55667788
counter: .word 0
    .text
    .globl _start
_start:
    csrr t0, ctxid
    li a0, 7
    li a1, 35
    add a2, a0, a1
here:
    la t1, counter
    lw t2, 0(t1)
    addi t2, t2, 1
    sw t2, 0(t1)
    bnez t0, done
    la t3, value
    lw a0, 0(t3)
    add a0, a0, a2
    li a7, 93
    ecall
done:
    endt
";

#[test]
fn breakpoint_registers_memory_step_watchpoint() {
    let dir = scratch("session");
    let elf = assemble(&dir, PROGRAM);
    let (scmp, address) = serve(&elf, &["--mesh", "2x1", "--threads", "2"]);
    let out = gdb(
        &elf,
        &[
            &format!("target remote {address}"),
            "info threads 1-3",
            "break *here",
            "continue",
            "info registers a0 a1 a2",
            "x/2wx &value",
            "p $nodeid",
            "p $cycle",
            "stepi",
            "p/x $pc",
            "p/x $t1",
            "set var $a2 = 10",
            "set var *(int*)&value = 5",
            "x/1wx &value",
            "delete",
            "watch *(int*)&counter",
            "continue",
            "delete",
            "continue",
        ],
    )
    .output()
    .expect("gdb-multiarch runs (apt-get install gdb-multiarch)");
    let log = text(&out);
    let scmp = scmp.wait_with_output().unwrap();
    let expected = [
        "Thread 1.1 (tile 0 context 0, ready) 0x00010000 in _start ()",
        "Thread 1.2 (tile 0 context 1, ready) 0x00010000 in _start ()",
        "Thread 1.3 (tile 0 context 2, free)",
        "Breakpoint 1 at 0x10010",
        "Thread 1 hit Breakpoint 1, 0x00010010 in here ()",
        "a0             0x7\t7",
        "a1             0x23\t35",
        "a2             0x2a\t42",
        "0x11000:\t0x11223344\t0x55667788",
        // tile 0, cycle 4: four single-cycle instructions before `here`.
        "$1 = 0\n$2 = 4\n",
        "$3 = 0x10014",
        // `la` is auipc + addi: after the auipc, t1 = pc + 0x1000.
        "$4 = 0x11010",
        "0x11000:\t0x00000005",
        "Thread 1 hit Hardware watchpoint 2: *(int*)&counter",
        "Old value = 0\nNew value = 1",
        "[Inferior 1 (process 1) exited with code 017]",
    ];
    for e in expected {
        assert!(log.contains(e), "gdb printed no `{e}`:\n{log}");
    }
    // The run's exit status: value (5, written by GDB) + a2 (10, set by GDB).
    assert_eq!(scmp.status.code(), Some(15), "{}", text(&scmp));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupt_and_kill() {
    let dir = scratch("interrupt");
    let elf = assemble(
        &dir,
        ".text\n.globl _start\n_start:\n    li a0, 1\nspin:\n    addi a0, a0, 1\n    j spin\n",
    );
    let (scmp, address) = serve(&elf, &["--mesh", "1x1"]);
    let mut child = gdb(
        &elf,
        &[
            &format!("target remote {address}"),
            "continue",
            "p $pc == &spin || $pc == &spin + 4",
            "p $a0 > 10",
            "kill",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("gdb-multiarch runs");
    // Once GDB is connected (it shows where the program stands) and has
    // had time to continue, Ctrl-C: GDB sends the interrupt to the server.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut log = String::new();
    while !log.contains("in _start ()") {
        if stdout.read_line(&mut log).unwrap() == 0 {
            panic!("gdb ended early: {log}");
        }
    }
    std::thread::sleep(Duration::from_millis(500));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut rest).unwrap();
    let out = child.wait_with_output().unwrap();
    let log = format!("{log}{rest}{}", text(&out));
    assert!(log.contains("received signal SIGINT, Interrupt."), "{log}");
    assert!(log.contains("$1 = 1\n$2 = 1"), "{log}");
    let scmp = scmp.wait_with_output().unwrap();
    assert_eq!(scmp.status.code(), Some(137), "{}", text(&scmp));
    assert!(text(&scmp).contains("the debugger killed the run"));
    std::fs::remove_dir_all(&dir).unwrap();
}
