//! The emulator's layers as `docs/architecture.md` states them: every use of
//! another top-level module (`crate::NAME` in code that is not a test) is in
//! that module's "may use" column, the column has no circle, every module
//! has a row; and no file of `emu/src` is over 600 lines without saying why
//! in its first lines (a doc line starting with "Over 600 lines:").
//! Circles between files inside a module, in every crate, are the
//! workspace's `tests/file_circles.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LONG: usize = 600;
const REASON: &str = "Over 600 lines:";

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The "may use" column of the modules' table.
fn allowed() -> BTreeMap<String, BTreeSet<String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/architecture.md");
    let doc = std::fs::read_to_string(&path).expect("docs/architecture.md");
    let section = doc
        .split("## The emulator's modules")
        .nth(1)
        .expect("docs/architecture.md has a section \"The emulator's modules\"");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut table = BTreeMap::new();
    for line in section.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let Some(name) = cells.first().map(|c| c.trim()) else {
            continue;
        };
        let Some(name) = name.strip_prefix('`').and_then(|n| n.strip_suffix('`')) else {
            continue;
        };
        assert_eq!(
            cells.len(),
            3,
            "docs/architecture.md: row of `{name}`: {line}"
        );
        let uses = cells[2]
            .split(',')
            .map(|u| u.trim().to_string())
            .filter(|u| !u.is_empty())
            .collect();
        assert!(
            table.insert(name.to_string(), uses).is_none(),
            "docs/architecture.md: `{name}` twice"
        );
    }
    table
}

/// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("emu/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `emu/src` belongs to (`None` for lib.rs).
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(src()).expect("under emu/src");
    let first = rel.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib").then(|| name.to_string())
}

/// The code of a file that is not a test: up to its `#[cfg(test)]` module,
/// without comments; nothing for a test file.
fn code(path: &Path, text: &str) -> String {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name == "tests.rs"
        || name == "test_rng.rs"
        || path.components().any(|c| c.as_os_str() == "tests")
    {
        return String::new();
    }
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // A test module (inline or in its own file) ends the code.
            if lines
                .peek()
                .is_some_and(|n| n.trim_start().starts_with("mod "))
            {
                break;
            }
            continue;
        }
        let line = match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        };
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The top-level modules `code` names through `crate::`.
fn uses(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name = ident(item.trim());
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        } else {
            found.insert(ident(rest));
        }
    }
    found
}

#[test]
fn modules_use_only_what_the_architecture_allows() {
    let allowed = allowed();
    let mut all = Vec::new();
    files(&src(), &mut all);
    all.sort();
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    for line in lib.lines() {
        let t = line.trim_start();
        if let Some(name) = t.strip_prefix("pub mod ").or(t.strip_prefix("mod ")) {
            let name = name.trim_end_matches(';');
            if name != "test_rng" {
                assert!(
                    allowed.contains_key(name),
                    "module `{name}` has no row in docs/architecture.md's table"
                );
            }
        }
    }
    let mut bad = Vec::new();
    for path in &all {
        let Some(module) = module_of(path) else {
            continue;
        };
        let text = std::fs::read_to_string(path).expect("a source file");
        for used in uses(&code(path, &text)) {
            if used == module {
                continue;
            }
            if used.starts_with(|c: char| c.is_uppercase()) {
                bad.push(format!(
                    "{}: crate::{used}: name the module (a re-export hides the layer)",
                    path.display()
                ));
                continue;
            }
            if !allowed.get(&module).is_some_and(|a| a.contains(&used)) {
                bad.push(format!(
                    "{}: `{module}` uses `{used}`, which docs/architecture.md does not allow",
                    path.display()
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_allowed_uses_have_no_circle() {
    let allowed = allowed();
    // Peel off modules that use nothing left; what remains is a circle.
    let mut left: BTreeMap<&str, BTreeSet<&str>> = allowed
        .iter()
        .map(|(m, u)| (m.as_str(), u.iter().map(String::as_str).collect()))
        .collect();
    for (m, u) in &left {
        for used in u {
            assert!(
                allowed.contains_key(*used),
                "docs/architecture.md: `{m}` may use `{used}`, which has no row"
            );
        }
    }
    while !left.is_empty() {
        let free: Vec<&str> = left
            .iter()
            .filter(|(_, u)| u.iter().all(|x| !left.contains_key(x)))
            .map(|(m, _)| *m)
            .collect();
        assert!(!free.is_empty(), "a circle among {:?}", left.keys());
        for m in free {
            left.remove(m);
        }
    }
}

#[test]
fn long_files_say_why() {
    let mut all = Vec::new();
    files(&src(), &mut all);
    all.sort();
    let mut bad = Vec::new();
    for path in &all {
        let text = std::fs::read_to_string(path).expect("a source file");
        let lines = text.lines().count();
        let says = text.lines().take(40).any(|l| {
            l.trim_start()
                .trim_start_matches("//!")
                .trim_start()
                .starts_with(REASON)
        });
        if lines > LONG && !says {
            bad.push(format!("{}: {lines} lines", path.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "over {LONG} lines with no \"{REASON}\" line at the top:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_parser_sees_uses() {
    let code = code(
        Path::new("x.rs"),
        "use crate::{hart::fpu, niu};\nlet a = crate::tile::Tile::new(); // crate::machine\n#[cfg(test)]\nmod tests {\n use crate::snapshot;\n}\n",
    );
    let found: Vec<String> = uses(&code).into_iter().collect();
    assert_eq!(found, ["hart", "niu", "tile"]);
}
