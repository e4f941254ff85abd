//! File and line in reports, and the line table of executables that
//! `scmp asm` links: a C program built with `scmp cc -g` that faults (and
//! one that deadlocks) is reported as `pc 0x... <function+off>
//! (file.c:LINE)`; an assembly program with `.file`/`.loc` likewise; and
//! `scmp asm`'s own executables keep `.debug_line` and gcc's other
//! `.debug_*` sections, decoded by GNU objdump to the rows of the same
//! program linked by GNU as and ld. Fails (does not skip) without the GNU
//! tools and picolibc.

mod support;

use std::path::Path;
use std::process::Command;

use support::*;

/// Runs `scmp ARGS`; its exit status and standard error.
fn scmp_out(args: &[&str]) -> (i32, String) {
    let o = scmp().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The 1-based line of `file` that contains `marker` (exactly one does).
fn line_of(file: &Path, marker: &str) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(marker))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "`{marker}` in {}: {lines:?}",
        file.display()
    );
    lines[0]
}

#[test]
fn c_fault_and_deadlock_reports_name_function_file_and_line() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("report-lines");
    let elf = dir.path("fault.elf");
    let elf_s = elf.to_str().unwrap();
    let (status, err) = scmp_out(&["cc", "tests/c/report.c", "-g", "-O0", "-o", elf_s]);
    assert_eq!(status, 0, "{err}");
    let (status, err) = scmp_out(&["run", elf_s]);
    assert_ne!(status, 0, "the load past memory must fault:\n{err}");
    let line = line_of(Path::new("tests/c/report.c"), "the fault's line");
    let want = format!("(report.c:{line})");
    let head = err
        .lines()
        .find(|l| l.contains("guest fault on tile 0"))
        .unwrap_or_else(|| panic!("no fault report:\n{err}"));
    assert!(
        head.contains("<load+0x") && head.contains(&want),
        "the fault line names no `<load+...> {want}`: {head}"
    );

    // Without -g there is no line table: the label alone.
    let (status, err) = scmp_out(&["cc", "tests/c/report.c", "-O0", "-o", elf_s]);
    assert_eq!(status, 0, "{err}");
    let (_, err) = scmp_out(&["run", elf_s]);
    let head = err.lines().find(|l| l.contains("guest fault")).unwrap();
    assert!(head.contains("<load+0x") && !head.contains(".c:"), "{head}");

    // The deadlock: the waiting context's pc is scmp_waitr's instruction,
    // in scmp.h (where scmp cc wrote it), at the line of its `.insn`.
    let (status, err) = scmp_out(&[
        "cc",
        "tests/c/report.c",
        "-DDEADLOCK",
        "-g",
        "-O0",
        "-o",
        elf_s,
    ]);
    assert_eq!(status, 0, "{err}");
    let (status, err) = scmp_out(&["run", elf_s]);
    assert_ne!(status, 0, "{err}");
    let waitr = line_of(Path::new("c/include/scmp.h"), "\".insn r 0x5b, 3, 0");
    let context = err
        .lines()
        .find(|l| l.contains("<scmp_waitr+0x"))
        .unwrap_or_else(|| panic!("no context at scmp_waitr in the deadlock report:\n{err}"));
    assert!(
        context.contains(&format!("scmp.h:{waitr})")),
        "the context line names no scmp.h:{waitr}: {context}"
    );

    // A deadlock inside a library routine (assembly, no line of its own):
    // the C line that called it, from the return address; the message id
    // written with its SCMP_ID parts, not as 536870913.
    let (status, err) = scmp_out(&[
        "cc",
        "tests/c/report.c",
        "-DLIBRARY",
        "-g",
        "-O0",
        "-o",
        elf_s,
    ]);
    assert_eq!(status, 0, "{err}");
    let (status, err) = scmp_out(&["run", elf_s]);
    assert_ne!(status, 0, "{err}");
    let call = line_of(Path::new("tests/c/report.c"), "the library call's line");
    let context = err
        .lines()
        .find(|l| l.contains("context 0 at pc") && l.contains("<SCMP"))
        .unwrap_or_else(|| panic!("no context in a library routine:\n{err}"));
    assert!(
        context.contains(&format!("called from report.c:{call}")),
        "the context line names no caller report.c:{call}: {context}"
    );
    // The call chain below it starts at the caller's caller: that call
    // is not written twice.
    let block: Vec<&str> = err
        .lines()
        .skip_while(|l| *l != context)
        .take_while(|l| *l == context || l.trim_start().starts_with("called from"))
        .collect();
    let named = block
        .iter()
        .filter(|l| l.contains(&format!("report.c:{call}")))
        .count();
    assert_eq!(
        named,
        1,
        "the caller named more than once:\n{}",
        block.join("\n")
    );
    assert!(
        err.contains("message id 0x20000001 (SCMP_ID(2, 0, 1))"),
        "the id is not decoded:\n{err}"
    );
    // Nowhere in decimal, the NIU's own lines (what a context waits for)
    // included.
    assert!(
        err.contains("the receive of message id 0x20000001") && !err.contains("536870913"),
        "an id in decimal, or the NIU's wait line without it:\n{err}"
    );
}

#[test]
fn assembly_with_loc_is_reported_by_line() {
    let dir = Scratch::new("report-loc");
    let src = dir.path("loc.s");
    std::fs::write(
        &src,
        "    .file 1 \"loc.s\"\n    .text\n    .globl _start\n_start:\n    .loc 1 5\n    li a0, -16\n    .loc 1 7\n    lw a1, 0(a0)\n    .loc 1 9\n    li a7, 93\n    ecall\n",
    )
    .unwrap();
    let elf = dir.path("loc.elf");
    let (status, err) = scmp_out(&["asm", src.to_str().unwrap(), "-o", elf.to_str().unwrap()]);
    assert_eq!(status, 0, "{err}");
    let (status, err) = scmp_out(&["run", elf.to_str().unwrap()]);
    assert_ne!(status, 0, "{err}");
    let head = err.lines().find(|l| l.contains("guest fault")).unwrap();
    assert!(
        head.contains("pc 0x00010004 <_start+0x4> (loc.s:7)"),
        "{head}"
    );
}

/// GNU objdump's decoded line table, without the lines naming the file.
fn decoded_lines(elf: &Path) -> Vec<String> {
    let o = Command::new("riscv64-unknown-elf-objdump")
        .arg("--dwarf=decodedline")
        .arg(elf)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.contains("0x"))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn executables_of_scmp_asm_keep_the_debugging_sections() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("exec-debug");
    let s = dir.path("sum.s");
    let o = Command::new("riscv64-unknown-elf-gcc")
        .args(["-S", "-march=rv32g", "-mabi=ilp32d", "-O2", "-g"])
        .args(["-ffreestanding", "-o"])
        .arg(&s)
        .arg("tests/c/sum.c")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ours = dir.path("ours.elf");
    let (status, err) = scmp_out(&["asm", s.to_str().unwrap(), "-o", ours.to_str().unwrap()]);
    assert_eq!(status, 0, "{err}");
    let text = std::fs::read_to_string(&s).unwrap();
    let gnu = gnu_build(
        &dir,
        &[("sum.s".into(), text)],
        &[],
        &[(".text".into(), 0x10000)],
    )
    .unwrap();
    let theirs = dir.path("gnu.elf");
    std::fs::write(&theirs, gnu).unwrap();

    let bytes = std::fs::read(&ours).unwrap();
    let file = object::File::parse(&bytes[..]).unwrap();
    use object::{Object, ObjectSection};
    let names: Vec<&str> = file.sections().filter_map(|s| s.name().ok()).collect();
    for name in [".debug_info", ".debug_abbrev", ".debug_line", ".debug_str"] {
        assert!(names.contains(&name), "{name} missing: {names:?}");
    }
    let (a, b) = (decoded_lines(&ours), decoded_lines(&theirs));
    assert!(a.len() > 10, "too few rows: {a:?}");
    assert_eq!(a, b, "line rows differ from GNU as + ld's");

    // gdb's view: the compile unit's name and its functions, read from
    // .debug_info through .debug_abbrev and .debug_str, as in GNU's.
    let info = |elf: &Path| {
        let o = Command::new("riscv64-unknown-elf-readelf")
            .arg("--debug-dump=info")
            .arg(elf)
            .output()
            .unwrap();
        assert!(o.status.success());
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        let mut names: Vec<String> = text
            .lines()
            .filter(|l| l.contains("DW_AT_name") || l.contains("DW_AT_low_pc"))
            .map(|l| l.rsplit(':').next().unwrap_or("").trim().to_string())
            .collect();
        names.sort();
        (names, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let ((ours_info, ours_err), (gnu_info, _)) = (info(&ours), info(&theirs));
    assert!(ours_err.is_empty(), "readelf warns: {ours_err}");
    assert!(ours_info.iter().any(|n| n.contains("sum")), "{ours_info:?}");
    assert_eq!(ours_info, gnu_info);
}

/// The `called from` lines after a report's line of `context` (its first
/// line containing `head`), in order.
fn chain_after<'a>(err: &'a str, head: &str) -> (&'a str, Vec<&'a str>) {
    let mut lines = err.lines().skip_while(|l| !l.contains(head));
    let first = lines
        .next()
        .unwrap_or_else(|| panic!("no `{head}` in the report:\n{err}"));
    let chain = lines
        .take_while(|l| l.trim_start().starts_with("called from "))
        .map(|l| l.trim_start().trim_start_matches("called from "))
        .collect();
    (first, chain)
}

/// A C program three calls deep (main -> outer -> middle -> inner) built
/// with `scmp cc -g`: its deadlock report and its fault report list every
/// caller by function and file:line, from the unwind table (`.debug_frame`)
/// read with gimli, at -O0 (frame pointer) and -O2; built without -g (no
/// table for its code) the report is as before, with no chain.
#[test]
fn c_reports_list_the_call_chain() {
    require_gnu();
    require_tool("riscv64-unknown-elf-gcc", "gcc-riscv64-unknown-elf");
    let dir = Scratch::new("report-chain");
    let elf = dir.path("chain.elf");
    let elf_s = elf.to_str().unwrap();
    let src = Path::new("tests/c/chain.c");
    let at = |marker: &str| format!("(chain.c:{})", line_of(src, marker));
    let frame = |name: &str, marker: &str| (format!("<{name}"), at(marker));
    let callers = [
        frame("middle", "middle calls inner"),
        frame("outer", "outer calls middle"),
        frame("main", "main calls outer"),
    ];
    let check = |what: &str, chain: &[&str], want: &[(String, String)]| {
        assert!(chain.len() >= want.len(), "{what}: chain {chain:#?}");
        for (got, (name, line)) in chain.iter().zip(want) {
            assert!(
                got.starts_with(name.as_str()) && got.ends_with(line.as_str()),
                "{what}: `{got}` is not {name}...> {line}; chain {chain:#?}"
            );
        }
    };
    for opt in ["-O0", "-O2"] {
        // The deadlock: at -O0 the context waits in scmp_waitr (scmp.h),
        // called from inner; at -O2 scmp_waitr is inlined into inner.
        let (status, err) = scmp_out(&["cc", "tests/c/chain.c", "-g", opt, "-o", elf_s]);
        assert_eq!(status, 0, "{err}");
        let (status, err) = scmp_out(&["run", elf_s]);
        assert_ne!(status, 0, "{opt}: the wait must deadlock:\n{err}");
        let (head, chain) = chain_after(&err, "tile 0 context 0 at pc");
        let mut want = callers.to_vec();
        if opt == "-O0" {
            assert!(head.contains("<scmp_waitr+0x"), "{head}");
            want.insert(0, frame("inner", "inner waits here"));
        } else {
            assert!(head.contains("<inner"), "{head}");
        }
        check(&format!("deadlock {opt}"), &chain, &want);

        // The fault in inner: the same callers under the fault's line.
        let (status, err) = scmp_out(&["cc", "tests/c/chain.c", "-DFAULT", "-g", opt, "-o", elf_s]);
        assert_eq!(status, 0, "{err}");
        let (status, err) = scmp_out(&["run", elf_s]);
        assert_ne!(status, 0, "{opt}: the load must fault:\n{err}");
        let (head, chain) = chain_after(&err, "guest fault on tile 0");
        assert!(
            head.contains("<inner") && head.contains(&at("inner faults here")),
            "{head}"
        );
        check(&format!("fault {opt}"), &chain, &callers);
    }

    // Without -g: no unwind table for the program's code, no chain.
    let (status, err) = scmp_out(&["cc", "tests/c/chain.c", "-O2", "-o", elf_s]);
    assert_eq!(status, 0, "{err}");
    let (_, err) = scmp_out(&["run", elf_s]);
    let (head, chain) = chain_after(&err, "tile 0 context 0 at pc");
    assert!(
        head.contains("<inner") && chain.is_empty(),
        "{head} {chain:?}\n{err}"
    );
}
