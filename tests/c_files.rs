//! The C runtime's files and errno (issue 31): a C program writes files and
//! reads them back through picolibc's stdio and open/read/write/lseek/close
//! (semihosting) inside the directory `scmp run --files DIR` grants; every
//! path that would leave it is refused (`..`, absolute paths, a symbolic
//! link leading out), nothing is written outside, and without `--files`
//! an open fails with a message naming the flag. errno is per thread,
//! also in threads that messages start (`createThread`).

mod support;

use std::path::Path;
use std::process::Output;

use support::*;

fn compile(dir: &Scratch, source: &str, stem: &str) -> std::path::PathBuf {
    let elf = dir.path(&format!("{stem}.elf"));
    let out = scmp()
        .args(["cc", source, "-O1", "-o"])
        .arg(&elf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    elf
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn files_round_trip_inside_the_granted_directory_and_escapes_are_refused() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-files");
    let elf = compile(&dir, "tests/c/files.c", "files");
    let granted = dir.path("granted");
    std::fs::create_dir_all(granted.join("sub")).unwrap();
    std::fs::write(granted.join("given.txt"), "hello from the host\n").unwrap();
    // A link inside the granted directory to its parent.
    std::os::unix::fs::symlink("..", granted.join("outside")).unwrap();
    let outside = dir.path("escape.txt");
    let out = scmp()
        .arg("run")
        .arg(&elf)
        .arg("--files")
        .arg(&granted)
        .arg("--")
        .arg(&outside)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0..3],
        ["stdio read 14: line 1", "line 2", "raw 10 10: 012abc6789"],
        "{stdout}"
    );
    assert_eq!(lines[3], "given: hello from the host");
    let escapes = &lines[4..9];
    for line in escapes {
        assert!(line.ends_with("refused errno 13"), "{line}\n{stdout}");
    }
    assert!(escapes[4].contains(&*outside.display().to_string()));
    assert_eq!(lines[9], "missing: absent errno 2");
    // Each refusal said why, on stderr.
    assert_eq!(
        stderr.matches("scmp: the program opened").count(),
        5,
        "{stderr}"
    );
    assert!(stderr.contains("a `..` component") && stderr.contains("an absolute path"));
    assert!(stderr.contains("symbolic link"), "{stderr}");
    // The files are on the host, nothing left the granted directory.
    assert_eq!(
        std::fs::read_to_string(granted.join("out.txt")).unwrap(),
        "line 1\nline 2\n"
    );
    assert_eq!(
        std::fs::read(granted.join("sub/raw.bin")).unwrap(),
        b"012abc6789"
    );
    assert!(!outside.exists());
    assert!(!Path::new("/tmp/escape.txt").exists());
    let mut names: Vec<String> = std::fs::read_dir(dir.path(""))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["files.elf", "granted"]);
}

#[test]
fn without_files_an_open_fails_and_names_the_flag() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-nofiles");
    let elf = compile(&dir, "tests/c/files.c", "files");
    let out = scmp().arg("run").arg(&elf).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert_eq!(stdout, "fopen w: errno 13\n");
    assert!(
        stderr.contains("no directory is granted for files: run with `--files DIR`"),
        "{stderr}"
    );
    // A directory that is not one is refused before the run.
    let out = scmp()
        .arg("run")
        .arg(&elf)
        .arg("--files")
        .arg(dir.path("nothing"))
        .output()
        .unwrap();
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--files: cannot use"), "{stderr}");
}

#[test]
fn errno_is_per_thread_in_threads_messages_start() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-errno");
    let elf = compile(&dir, "tests/c/errno_threads.c", "errno");
    let out = scmp().arg("run").arg(&elf).output().unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    // Lines are `[t0 cN] ...` (several threads print).
    let mut lines: Vec<&str> = stdout
        .lines()
        .map(|l| l.split_once("] ").map_or(l, |(_, rest)| rest))
        .collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "main errno 7",
            "thread 0 errno 100",
            "thread 1 errno 101",
            "thread 2 errno 102",
            "thread 3 errno 103",
            "thread 4 errno 104"
        ]
    );
}
