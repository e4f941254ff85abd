//! A readable difference between a stored snapshot and a run: section by
//! section (`## end`, `## stdout`, ...), only the sections that differ, a
//! few lines of each; for the trace, where the runs part (the first
//! differing cycle, tile, context, pc and instruction) before a short diff.

use std::fmt::Write as _;

use similar::{ChangeTag, DiffOp, TextDiff};

/// Changed lines shown per section at most.
const MAX_LINES: usize = 24;

/// The sections of a snapshot text, in order: (name, body).
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("## ") {
            out.push((name.to_string(), String::new()));
        } else if let Some((_, body)) = out.last_mut() {
            body.push_str(line);
            body.push('\n');
        } else {
            out.push((String::new(), format!("{line}\n")));
        }
    }
    out
}

/// Where a trace line stands: "cycle C, tile T, context C, pc P: inst", or
/// the router or NIU for network records.
pub fn describe_trace_line(line: &str) -> String {
    let mut f = line.split_whitespace();
    let (Some(cycle), Some(who)) = (f.next(), f.next()) else {
        return format!("`{}`", line.trim());
    };
    let rest: Vec<&str> = f.collect();
    match who.split_at(1) {
        ("t", tile) if rest.len() >= 3 => {
            let context = rest[0].trim_start_matches('c');
            let pc = rest[1].trim_end_matches(':');
            // The disassembly runs up to the effects (two spaces apart).
            let text = line.split_once(rest[2]).map_or("", |(_, t)| t).trim();
            let inst = text.split("  ").next().unwrap_or("").trim();
            format!("cycle {cycle}, tile {tile}, context {context}, pc {pc}: {inst}")
        }
        ("r", node) => format!("cycle {cycle}, router {node}: {}", rest.join(" ")),
        ("n", node) => format!("cycle {cycle}, NIU {node}: {}", rest.join(" ")),
        _ => format!("`{}`", line.trim()),
    }
}

/// The first changed line pair of a diff: (old line, new line), either
/// absent where one side has no line there.
fn first_change<'a>(old: &'a str, new: &'a str) -> Option<(Option<&'a str>, Option<&'a str>)> {
    let (o, n): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let diff = TextDiff::from_lines(old, new);
    diff.ops().iter().find_map(|op| match *op {
        DiffOp::Equal { .. } => None,
        DiffOp::Delete { old_index, .. } => Some((Some(o[old_index]), None)),
        DiffOp::Insert { new_index, .. } => Some((None, Some(n[new_index]))),
        DiffOp::Replace {
            old_index,
            new_index,
            ..
        } => Some((Some(o[old_index]), Some(n[new_index]))),
    })
}

/// A unified diff of `old` and `new` with two lines of context, at most
/// [`MAX_LINES`] changed lines, indented.
fn short_diff(old: &str, new: &str, out: &mut String) {
    let diff = TextDiff::from_lines(old, new);
    let mut changed = 0;
    let mut total_changed = 0;
    for group in diff.grouped_ops(2) {
        if changed < MAX_LINES {
            let _ = writeln!(out, "    @@");
        }
        for op in group {
            for change in diff.iter_changes(&op) {
                let sign = match change.tag() {
                    ChangeTag::Equal => ' ',
                    ChangeTag::Delete => '-',
                    ChangeTag::Insert => '+',
                };
                if sign != ' ' {
                    total_changed += 1;
                }
                if changed >= MAX_LINES {
                    continue;
                }
                if sign != ' ' {
                    changed += 1;
                }
                let _ = write!(out, "    {sign} {}", change.value());
                if change.missing_newline() {
                    out.push('\n');
                }
            }
        }
    }
    if total_changed > changed {
        let _ = writeln!(
            out,
            "    ... and {} more changed lines",
            total_changed - changed
        );
    }
}

/// What a new snapshot holds, in one line: how the run ended and the size
/// of each section that is not empty (`end: exit(0); stdout 2 lines,
/// statistics 9 lines, trace 120 lines`).
pub fn summary(new: &str) -> String {
    let s = sections(new);
    let end = s
        .iter()
        .find(|(n, _)| n == "end")
        .and_then(|(_, b)| b.lines().next())
        .unwrap_or("")
        .to_string();
    let sizes: Vec<String> = s
        .iter()
        .filter(|(n, b)| n != "end" && !b.trim().is_empty())
        .map(|(n, b)| {
            let lines = b.lines().count();
            format!("{n} {lines} line{}", if lines == 1 { "" } else { "s" })
        })
        .collect();
    format!("end: {end}; {}", sizes.join(", "))
}

/// The difference between the stored snapshot `old` and the run's `new`
/// (`-` the snapshot, `+` this run).
pub fn render(old: &str, new: &str) -> String {
    let (old_s, new_s) = (sections(old), sections(new));
    let mut names: Vec<&str> = old_s.iter().map(|(n, _)| n.as_str()).collect();
    for (n, _) in &new_s {
        if !names.contains(&n.as_str()) {
            names.push(n);
        }
    }
    let body = |s: &[(String, String)], name: &str| {
        s.iter()
            .find(|(n, _)| n == name)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    };
    let mut out = String::new();
    for name in names {
        let (a, b) = (body(&old_s, name), body(&new_s, name));
        if a == b {
            continue;
        }
        let title = if name.is_empty() { "(text)" } else { name };
        let _ = writeln!(out, "  {title}: differs (- snapshot, + this run)");
        if name == "trace"
            && let Some((was, is)) = first_change(&a, &b)
        {
            let at = is.or(was).map(describe_trace_line).unwrap_or_default();
            let _ = writeln!(out, "    first difference at {at}");
            let _ = writeln!(
                out,
                "      snapshot: {}",
                was.map_or("(no more lines)", str::trim)
            );
            let _ = writeln!(
                out,
                "      this run: {}",
                is.map_or("(no more lines)", str::trim)
            );
        }
        short_diff(&a, &b, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_snapshot_is_summarised_without_empty_sections() {
        let new = "## end\nexit(0)\n## stdout\nhi\nthere\n## stderr\n\n## statistics\ntotal cycles: 5\n## trace\n         0 t0 ...\n";
        assert_eq!(
            summary(new),
            "end: exit(0); stdout 2 lines, statistics 1 line, trace 1 line"
        );
    }

    #[test]
    fn trace_difference_names_cycle_tile_context_instruction() {
        let old = "## end\nexit(0)\n## trace\n         1 t0   c0  00010000: 00000513  addi a0, zero, 0                  a0=0x00000000\n         2 t0   c1  00010004: 00150513  addi a0, a0, 1                    a0=0x00000001\n";
        let new = "## end\nexit(0)\n## trace\n         1 t0   c0  00010000: 00000513  addi a0, zero, 0                  a0=0x00000000\n         2 t0   c1  00010004: 00250513  addi a0, a0, 2                    a0=0x00000002\n";
        let d = render(old, new);
        assert!(!d.contains("end:"), "{d}");
        assert!(
            d.contains(
                "first difference at cycle 2, tile 0, context 1, pc 00010004: addi a0, a0, 2"
            ),
            "{d}"
        );
        assert!(d.contains("    - "), "{d}");
        assert!(d.contains("    + "), "{d}");
    }

    #[test]
    fn long_differences_are_cut() {
        let old: String = (0..100).map(|i| format!("{i}\n")).collect();
        let new: String = (0..100).map(|i| format!("{}\n", i + 1000)).collect();
        let d = render(&format!("## stdout\n{old}"), &format!("## stdout\n{new}"));
        assert!(d.contains("... and 176 more changed lines"), "{d}");
        assert!(d.lines().count() < 40, "{d}");
    }

    #[test]
    fn network_lines() {
        assert_eq!(
            describe_trace_line("        40 r1   forward W0->L0       H 00000000  pkt 0->1 #0"),
            "cycle 40, router 1: forward W0->L0 H 00000000 pkt 0->1 #0"
        );
    }
}
