//! `scmp run` and `scmp config` end to end: exit statuses, reports, trace
//! files and filters, JSON statistics, configuration errors and round trips.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn scmp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_scmp"))
        .args(args)
        .output()
        .expect("scmp runs")
}

fn program(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("programs")
        .join(name)
        .display()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("scmp-cli-{}-{name}", std::process::id()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

#[test]
fn runs_assembly_and_returns_the_programs_exit_code() {
    let out = scmp(&["run", &program("hello.s")]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Hello, world!\n55\n");
    let out = scmp(&["run", &program("linux_sieve.s")]);
    assert_eq!(out.status.code(), Some(17));
}

#[test]
fn prefixes_output_when_several_threads_run() {
    let out = scmp(&["run", &program("hello.s"), "--mesh", "2x1", "--boot", "all"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("[t0 c0] Hello, world!\n"), "{stdout}");
    assert!(stdout.contains("[t1 c0] 55\n"), "{stdout}");
    let raw = scmp(&[
        "run",
        &program("hello.s"),
        "--mesh",
        "2x1",
        "--boot",
        "all",
        "--raw-output",
    ]);
    assert!(!text(&raw.stdout).contains("[t"), "{}", text(&raw.stdout));
}

#[test]
fn a_fault_reports_where_and_why_with_status_134() {
    let out = scmp(&["run", &program("fault_misaligned.s")]);
    assert_eq!(out.status.code(), Some(134));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("guest fault on tile 0 context 0 at pc 0x0001000c"),
        "{stderr}"
    );
    assert!(stderr.contains("lw a1, 1(t0)"), "{stderr}");
    assert!(stderr.contains("misaligned load"), "{stderr}");
    assert!(
        stderr.contains("lw a0, 0(t0)"),
        "last trace lines: {stderr}"
    );
}

#[test]
fn the_cycle_limit_stops_an_endless_loop_with_status_124() {
    let out = scmp(&["run", &program("cycle_limit.s"), "--max-cycles", "1000"]);
    assert_eq!(out.status.code(), Some(124));
    assert!(text(&out.stderr).contains("cycle limit of 1000 cycles"));
}

#[test]
fn configuration_errors_name_the_key() {
    let out = scmp(&["run", &program("hello.s"), "--set", "scheduler.quantun=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("scheduler.quantun"),
        "{}",
        text(&out.stderr)
    );
    let out = scmp(&["run", &program("hello.s"), "--mesh", "65x1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("mesh.width")
            && text(&out.stderr).contains("65 is not in 1..=64"),
        "{}",
        text(&out.stderr)
    );
    let file = temp("bad.toml");
    std::fs::write(&file, "[timing]\nload = \"slow\"\n").unwrap();
    let out = scmp(&["config", "--config", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("timing.load"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_file(file);
}

#[test]
fn printed_configuration_reads_back() {
    let out = scmp(&["config", "--set", "timing.div=20", "--mesh", "4x2"]);
    assert_eq!(out.status.code(), Some(0));
    let printed = text(&out.stdout);
    assert!(printed.contains("div = 20\n") && printed.contains("width = 4\n"));
    // Every key line has its comment.
    let lines: Vec<&str> = printed.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        if line.contains(" = ") && !line.starts_with('#') {
            assert!(lines[i - 1].starts_with("# "), "undocumented: {line}");
        }
    }
    let file = temp("config.toml");
    std::fs::write(&file, &printed).unwrap();
    let again = scmp(&["config", "--config", file.to_str().unwrap()]);
    assert_eq!(text(&again.stdout), printed);
    let _ = std::fs::remove_file(file);
}

#[test]
fn trace_file_filters_and_json_statistics() {
    let trace = temp("trace.txt");
    let stats = temp("stats.json");
    let out = scmp(&[
        "run",
        &program("scheduling.s"),
        "--mesh",
        "1x1",
        "--threads",
        "3",
        &format!("--trace={}", trace.display()),
        "--trace-contexts",
        "1",
        "--trace-cycles",
        "10..100",
        "--stats=json",
        "--stats-file",
        stats.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines = std::fs::read_to_string(&trace).unwrap();
    assert!(!lines.is_empty());
    // The first line names the columns.
    assert!(
        lines.starts_with('#') && lines.lines().next().unwrap().contains("cycle"),
        "{lines}"
    );
    for line in lines.lines().skip(1) {
        let mut f = line.split_whitespace();
        let cycle: u64 = f.next().unwrap().parse().unwrap();
        assert!((10..100).contains(&cycle), "{line}");
        assert_eq!(f.nth(1), Some("c1"), "{line}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let tile = &json["tiles"][0];
    assert_eq!(tile["contexts"].as_array().unwrap().len(), 3);
    assert_eq!(
        json["total_cycles"].as_u64().unwrap(),
        tile["issuing"].as_u64().unwrap()
            + tile["switching"].as_u64().unwrap()
            + tile["idle"].as_u64().unwrap()
    );
    let _ = std::fs::remove_file(trace);
    let _ = std::fs::remove_file(stats);
}

#[test]
fn runs_an_elf_file() {
    let elf = asm::assemble_files(
        &[PathBuf::from(program("hello.s"))],
        &asm::Options::default(),
    )
    .expect("hello.s assembles")
    .elf;
    let file = temp("hello.elf");
    std::fs::write(&file, elf).unwrap();
    let out = scmp(&["run", file.to_str().unwrap(), "--mesh", "1x1"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "Hello, world!\n55\n");
    std::fs::write(&file, b"not an elf").unwrap();
    let out = scmp(&["run", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no ELF magic"),
        "{}",
        text(&out.stderr)
    );
    let _ = std::fs::remove_file(file);
}

/// `--dump SYMBOL[:BYTES]`: the memory at a symbol on every tile at the end
/// of the run, a line a tile, after the program's output.
#[test]
fn dump_prints_memory_per_tile_at_the_end() {
    let out = scmp(&[
        "run",
        &program("gather.s"),
        "--dump",
        "words:16",
        "--mesh",
        "2x2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // Tile 0 gathered node id * 3 from tiles 1-3; the others hold zeros.
    assert!(
        stdout.contains(
            "dump words (16 bytes at 0x00011000):\ntile 0: 00000000 00000003 00000006 00000009\ntile 1: 00000000 00000000 00000000 00000000\n"
        ),
        "{stdout}"
    );
    assert_eq!(stdout.lines().filter(|l| l.starts_with("tile ")).count(), 4);
    let out = scmp(&["run", &program("gather.s"), "--dump", "nowhere"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no symbol `nowhere`"));
    let out = scmp(&["run", &program("gather.s"), "--dump", "words:0x10000000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("go past the tile's"),
        "{}",
        text(&out.stderr)
    );
}
