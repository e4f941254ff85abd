//! clock(), time() and gettimeofday() in C programs count simulated time:
//! cycles at `tile.clock_hz` (issue 31; they returned 0 and -1 before).

mod support;

use std::path::Path;

use support::*;

/// (clock before, clock after, time, gettimeofday's microseconds, total cycles).
fn run(elf: &Path, clock_hz: &str) -> (i64, i64, i64, i64, i64) {
    let out = scmp()
        .arg("run")
        .arg(elf)
        .args(["--stats", "--set", &format!("tile.clock_hz={clock_hz}")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let w: Vec<&str> = stdout.split_whitespace().collect();
    assert_eq!(w[0..2], ["per_sec", "1000000"], "{stdout}");
    let n = |i: usize| w[i].parse::<i64>().unwrap();
    let cycles = stderr
        .lines()
        .find_map(|l| l.strip_prefix("total cycles: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    (n(3), n(4), n(6), n(8), cycles)
}

#[test]
fn clock_time_and_gettimeofday_advance_with_simulated_time() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("c-clock");
    let elf = dir.path("clock.elf");
    let out = scmp()
        .args(["cc", "tests/c/clock.c", "-O1", "-o"])
        .arg(&elf)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 1 GHz (the default): a microsecond is 1,000 cycles.
    let (c0, c1, t0, us, cycles) = run(&elf, "1000000000");
    assert!((0..100).contains(&c0), "clock() at the start: {c0}");
    assert_eq!(t0, 0, "time() counts from the epoch at cycle 0");
    let spent = c1 - c0;
    assert!(
        spent > 1000 && spent * 1000 <= cycles && cycles < (spent + 200) * 1000,
        "clock() advanced {spent} us over a run of {cycles} cycles"
    );
    assert!(
        (us - spent).abs() <= 2,
        "gettimeofday {us} us, clock {spent} us"
    );
    // Half the rate: the same cycles are twice the time.
    let (d0, d1, _, us2, cycles2) = run(&elf, "500000000");
    // The same loop (printf of other digits differs by a few cycles).
    assert!((cycles2 - cycles).abs() < 10_000, "{cycles2} vs {cycles}");
    assert!(
        ((d1 - d0) - 2 * spent).abs() <= 2,
        "{} vs 2 * {spent}",
        d1 - d0
    );
    assert!((us2 - 2 * us).abs() <= 4, "{us2} vs 2 * {us}");
}
