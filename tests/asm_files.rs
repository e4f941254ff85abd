//! File-based assembler tests: `tests/asm/ok_*.s` and `tests/asm/err_*.s`.
//!
//! Expectations live in comments on the line they are about:
//! - `#= 00150513 0a` — the bytes this line assembles to: 8 hex digits are a
//!   little-endian 32-bit word, 2 hex digits a byte. For a macro invocation or
//!   `.rept`, the bytes of everything it expands to.
//! - `#! text` — an error is reported at this line whose message contains `text`.
//! - `#~ text` — a warning is reported at this line whose message contains `text`.
//!
//! A line may carry several markers; each one's text ends at the next.
//!
//! Every reported diagnostic must be expected and every expectation met; a
//! malformed expectation fails the test. Each `err_` file also has an insta
//! snapshot of its rendered diagnostics (plain text).

use std::collections::BTreeMap;

#[derive(Debug, Default)]
struct Expect {
    bytes: BTreeMap<usize, Vec<u8>>,
    errors: Vec<(usize, String)>,
    warnings: Vec<(usize, String)>,
}

/// The text after `marker` on `line`, up to the next expectation marker.
fn marked<'l>(line: &'l str, marker: &str) -> Option<&'l str> {
    let rest = &line[line.find(marker)? + 2..];
    let end = ["#=", "#!", "#~"]
        .iter()
        .filter_map(|m| rest.find(m))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].trim())
}

fn parse_expectations(text: &str) -> Result<Expect, String> {
    let mut e = Expect::default();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(expected) = marked(line, "#=") {
            let mut bytes = Vec::new();
            for group in expected.split_whitespace() {
                let ok = group.chars().all(|c| c.is_ascii_hexdigit());
                match (ok, group.len()) {
                    (true, 8) => {
                        bytes.extend(u32::from_str_radix(group, 16).unwrap().to_le_bytes())
                    }
                    (true, 2) => bytes.push(u8::from_str_radix(group, 16).unwrap()),
                    _ => return Err(format!("line {n}: malformed byte expectation `{group}`")),
                }
            }
            if bytes.is_empty() {
                return Err(format!("line {n}: `#=` without bytes"));
            }
            e.bytes.insert(n, bytes);
        }
        for (marker, list) in [("#!", &mut e.errors), ("#~", &mut e.warnings)] {
            if let Some(msg) = marked(line, marker) {
                if msg.is_empty() {
                    return Err(format!("line {n}: `{marker}` without a message"));
                }
                list.push((n, msg.to_string()));
            }
        }
    }
    Ok(e)
}

fn options() -> asm::Options {
    asm::Options {
        include_dirs: vec!["tests/asm/include".into()],
        listing: true,
        ..asm::Options::default()
    }
}

/// Checks diagnostics against `#!`/`#~` expectations; returns the problems.
/// A diagnostic in an included file is checked against that file's comments.
fn check_diagnostics(name: &str, diags: &asm::Diagnostics, expect: &Expect) -> Vec<String> {
    type Pool = Vec<(usize, String)>;
    let mut problems = Vec::new();
    let mut pools: BTreeMap<String, (Pool, Pool)> = BTreeMap::new();
    pools.insert(
        name.to_string(),
        (expect.errors.clone(), expect.warnings.clone()),
    );
    for d in &diags.list {
        let loc = diags.location(d);
        let mut parts = loc.rsplitn(3, ':');
        let (_col, line, file) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
        let line: usize = line.and_then(|l| l.parse().ok()).unwrap_or(0);
        let (errors, warnings) = pools.entry(file.to_string()).or_insert_with(|| {
            let other = std::fs::read_to_string(file)
                .ok()
                .and_then(|t| parse_expectations(&t).ok())
                .unwrap_or_default();
            (other.errors, other.warnings)
        });
        let pool = match d.severity {
            asm::Severity::Error => errors,
            asm::Severity::Warning => warnings,
        };
        match pool
            .iter()
            .position(|(l, m)| *l == line && d.message.contains(m.as_str()))
        {
            Some(i) => {
                pool.remove(i);
            }
            None => problems.push(format!(
                "unexpected {:?} at {loc}: {}",
                d.severity, d.message
            )),
        }
    }
    for (file, (errors, warnings)) in pools {
        for (l, m) in errors {
            problems.push(format!(
                "{file}:{l}: expected an error containing `{m}`, none reported"
            ));
        }
        for (l, m) in warnings {
            problems.push(format!(
                "{file}:{l}: expected a warning containing `{m}`, none reported"
            ));
        }
    }
    problems
}

fn files(prefix: &str) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir("tests/asm")
        .expect("tests/asm exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with(prefix) && n.ends_with(".s")
        })
        .collect();
    v.sort();
    v
}

/// Each test file of a kind with its name, text and expectations; a file
/// whose expectations do not parse is a problem, not a skip.
fn test_files(prefix: &str, problems: &mut Vec<String>) -> Vec<(String, String, Expect)> {
    let paths = files(prefix);
    assert!(paths.len() >= 10, "the {prefix} tests are missing");
    let mut out = Vec::new();
    for path in &paths {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        match parse_expectations(&text) {
            Ok(e) => out.push((name, text, e)),
            Err(m) => problems.push(format!("{name}: {m}")),
        }
    }
    out
}

#[test]
fn ok_files_assemble_to_the_expected_bytes() {
    let mut problems = Vec::new();
    for (name, text, expect) in test_files("ok_", &mut problems) {
        if expect.bytes.is_empty() {
            problems.push(format!("{name}: has no `#=` expectation"));
        }
        match asm::assemble_sources(&[(name.clone(), text)], &options()) {
            Ok(out) => {
                problems.extend(check_diagnostics(&name, &out.warnings, &expect));
                let mut got: BTreeMap<usize, Vec<u8>> = BTreeMap::new();
                for l in out.lines.iter().filter(|l| l.origin_file == name) {
                    got.entry(l.origin_line).or_default().extend(&l.bytes);
                }
                for (line, want) in &expect.bytes {
                    let have = got.get(line).cloned().unwrap_or_default();
                    if &have != want {
                        problems.push(format!(
                            "{name}:{line}: expected bytes {want:02x?}, assembled {have:02x?}"
                        ));
                    }
                }
            }
            Err(d) => problems.push(format!("{name}: failed to assemble:\n{}", d.render(false))),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn err_files_report_the_expected_diagnostics() {
    let mut problems = Vec::new();
    for (name, text, expect) in test_files("err_", &mut problems) {
        if expect.errors.is_empty() {
            problems.push(format!(
                "{name}: an err_ file must expect at least one error (`#!`)"
            ));
        }
        match asm::assemble_sources(&[(name.clone(), text)], &options()) {
            Ok(_) => problems.push(format!("{name}: assembled without errors")),
            Err(d) => problems.extend(check_diagnostics(&name, &d, &expect)),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn err_files_render_as_in_their_snapshots() {
    insta::glob!("asm/err_*.s", |path: &std::path::Path| {
        let rel = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path);
        let name = rel.display().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let rendered = match asm::assemble_sources(&[(name, text)], &options()) {
            Ok(_) => panic!("{} assembled without errors", rel.display()),
            Err(d) => d.render(false),
        };
        // The snapshot is of real diagnostics: each names a file and position.
        assert!(
            rendered.contains("─["),
            "no source position in:\n{rendered}"
        );
        insta::with_settings!({
            snapshot_path => "snapshots/asm",
            prepend_module_to_snapshot => false,
        }, {
            insta::assert_snapshot!(rendered);
        });
    });
}

/// Every snapshot belongs to an existing input (an `err_` file or a
/// program), and none is pending review (`.snap.new`): a stale or unreviewed
/// snapshot fails the run.
#[test]
fn snapshots_are_referenced_and_reviewed() {
    let mut problems = Vec::new();
    let mut seen = 0;
    for (dir, source_of) in [
        (
            "tests/snapshots/asm",
            (|n: &str| {
                n.strip_prefix("err_files_render_as_in_their_snapshots@")
                    .map(|n| format!("tests/asm/{n}"))
            }) as fn(&str) -> Option<String>,
        ),
        // `scmp test`'s snapshots sit beside their programs.
        ("programs", |n: &str| Some(format!("programs/{n}.s"))),
    ] {
        for entry in std::fs::read_dir(dir).expect("snapshot directory") {
            let name = entry.unwrap().file_name().to_string_lossy().to_string();
            if !name.contains(".snap") && !name.ends_with(".pending-snap") {
                continue;
            }
            seen += 1;
            if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
                problems.push(format!("{dir}/{name} is pending review"));
                continue;
            }
            match name.strip_suffix(".snap").and_then(source_of) {
                Some(s) if std::path::Path::new(&s).exists() => {}
                _ => problems.push(format!("{dir}/{name} has no source file")),
            }
        }
    }
    assert!(seen >= 30, "only {seen} snapshots found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
