//! docs/chapter6.md's four-column table against the sweeps it cites: every
//! committed run of `docs/chapter6/sweep.csv` (our default model),
//! `docs/chapter6/thesis-fitted/sweep.csv` (the fitted thesis profile) and
//! `docs/chapter6/thesis/sweep.csv` (the thesis profile from the text) is
//! checked `ok` and ended normally, and every "P% at N" of the table's three
//! columns of ours is
//! the improvement those runs' cycles give (the first of a cell the peak over
//! the runs on more than one tile, one in brackets the improvement at that
//! tile count).
//! So the figures a reader quotes cannot drift from the data committed
//! beside them.

use std::collections::BTreeMap;
use std::path::Path;

/// The seven stressmarks in the table's row order, by the sweep's names.
const ROWS: [&str; 7] = [
    "neighborhood-7",
    "neighborhood-11",
    "neighborhood-15",
    "matrix",
    "transitive",
    "lu-ready",
    "lu-rendezvous",
];

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The index of column `name` in a sweep.csv's `header`.
fn column(header: &[&str], relative: &str, name: &str) -> usize {
    header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("{relative}: no column {name}"))
}

/// Cycles by (stressmark, design, tiles) of a sweep.csv, after checking
/// every row's end and check.
fn cycles(relative: &str) -> BTreeMap<(String, String, u32), u64> {
    let text = read(relative);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = |name: &str| column(&header, relative, name);
    let (name, design, tiles, queue, cyc, end, check) = (
        col("stressmark"),
        col("design"),
        col("tiles"),
        col("queue_flits"),
        col("cycles"),
        col("end"),
        col("check"),
    );
    let mut out = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        // `results` is free text: only the columns before it are read here.
        let f: Vec<&str> = line.splitn(header.len(), ',').collect();
        assert_eq!(
            f[end],
            "all_threads_ended",
            "{relative} row {}: {line}",
            i + 2
        );
        assert_eq!(f[check], "ok", "{relative} row {}: {line}", i + 2);
        if !f[queue].is_empty() {
            continue;
        }
        let key = (
            f[name].trim_end_matches("-literal").to_string(),
            f[design].to_string(),
            f[tiles].parse().expect("tiles"),
        );
        out.insert(key, f[cyc].parse().expect("cycles"));
    }
    out
}

/// Improvement of send-and-receive over active messages at each tile count.
fn improvements(runs: &BTreeMap<(String, String, u32), u64>, stressmark: &str) -> Vec<(u32, f64)> {
    let mut out = Vec::new();
    for ((name, design, tiles), am) in runs {
        if name != stressmark || design != "original" {
            continue;
        }
        let sr = runs[&(name.clone(), "modified".to_string(), *tiles)];
        out.push((*tiles, 100.0 * (*am as f64 - sr as f64) / *am as f64));
    }
    assert!(!out.is_empty(), "no runs of {stressmark}");
    out
}

/// "P% at N" pairs of a table cell, in order.
fn figures(cell: &str) -> Vec<(f64, u32)> {
    let words: Vec<&str> = cell.split_whitespace().collect();
    let mut out = Vec::new();
    for w in words.windows(3) {
        if w[1] == "at"
            && let (Some(p), Ok(n)) = (
                w[0].trim_start_matches('(').strip_suffix('%'),
                w[2].trim_end_matches(')').parse::<u32>(),
            )
        {
            out.push((p.parse().expect("a percentage"), n));
        }
    }
    out
}

fn check_column(doc_rows: &[Vec<String>], column: usize, relative: &str) {
    let runs = cycles(relative);
    for (row, stressmark) in doc_rows.iter().zip(ROWS) {
        let cell = &row[column];
        let got = figures(cell);
        assert!(!got.is_empty(), "{stressmark}: no figure in '{cell}'");
        let imps = improvements(&runs, stressmark);
        // The peak is over the runs on more than one tile, as the sweep takes it.
        let peak = imps
            .iter()
            .filter(|(t, _)| *t > 1)
            .fold(None::<(u32, f64)>, |best, &(t, p)| match best {
                Some((_, b)) if b >= p => best,
                _ => Some((t, p)),
            })
            .expect("a peak");
        let (p0, t0) = got[0];
        assert_eq!(
            (format!("{p0:.2}"), t0),
            (format!("{:.2}", peak.1), peak.0),
            "{stressmark}: the table's peak '{cell}' is not {relative}'s"
        );
        for &(p, t) in &got[1..] {
            let at = imps
                .iter()
                .find(|(tiles, _)| *tiles == t)
                .unwrap_or_else(|| panic!("{stressmark}: no run at {t} tiles in {relative}"));
            assert_eq!(
                format!("{p:.2}"),
                format!("{:.2}", at.1),
                "{stressmark} at {t} tiles: '{cell}' against {relative}"
            );
        }
    }
}

#[test]
fn the_four_columns_are_the_committed_sweeps() {
    let doc = read("docs/chapter6.md");
    let start = doc.find("## The four columns").expect("the section");
    let rows: Vec<Vec<String>> = doc[start..]
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains('%'))
        .take(ROWS.len())
        .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
        .collect();
    assert_eq!(rows.len(), ROWS.len(), "the table's seven rows");
    // Cells: ["", stressmark, thesis, default model, fitted profile, profile
    // from the text, ""].
    check_column(&rows, 3, "docs/chapter6/sweep.csv");
    check_column(&rows, 4, "docs/chapter6/thesis-fitted/sweep.csv");
    check_column(&rows, 5, "docs/chapter6/thesis/sweep.csv");
}

#[test]
fn a_misquoted_figure_is_caught() {
    assert_eq!(
        figures("20.78% at 64 (13.01% at 16)"),
        vec![(20.78, 64), (13.01, 16)]
    );
    assert_eq!(
        figures("-0.00% at 2 (-1.23% at 64)"),
        vec![(-0.0, 2), (-1.23, 64)]
    );
    let runs = cycles("docs/chapter6/sweep.csv");
    let imps = improvements(&runs, "matrix");
    let at64 = imps.iter().find(|(t, _)| *t == 64).expect("64 tiles").1;
    assert_ne!(
        format!("{at64:.2}"),
        "9.94",
        "a figure one hundredth off must not match"
    );
}

/// Energy by (stressmark, design, tiles) of a sweep.csv: the run's total
/// and its four parts, joules.
fn energies(relative: &str) -> BTreeMap<(String, String, u32), [f64; 5]> {
    let text = read(relative);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let col = |name: &str| column(&header, relative, name);
    let parts = [
        col("energy_j"),
        col("energy_tiles_j"),
        col("energy_nius_j"),
        col("energy_routers_j"),
        col("energy_links_j"),
    ];
    let (name, design, tiles, queue) = (
        col("stressmark"),
        col("design"),
        col("tiles"),
        col("queue_flits"),
    );
    let mut out = BTreeMap::new();
    for line in lines {
        // The energy columns come after the free-text `results`: read them
        // from the end.
        let f: Vec<&str> = line.split(',').collect();
        let back = |c: usize| f[f.len() - (header.len() - c)];
        if !f[queue].is_empty() {
            continue;
        }
        let e = parts.map(|c| back(c).parse::<f64>().expect("joules"));
        out.insert(
            (
                f[name].to_string(),
                f[design].to_string(),
                f[tiles].parse().expect("tiles"),
            ),
            e,
        );
    }
    out
}

/// The "Chapter 6 in joules" table: every total and part (mJ, as printed)
/// and every saving of the default technology is the committed sweep's.
#[test]
fn the_joules_table_is_the_committed_sweep() {
    let doc = read("docs/chapter6.md");
    let start = doc.find("## Chapter 6 in joules").expect("the section");
    let runs = energies("docs/chapter6/sweep.csv");
    let mut checked = 0;
    for line in doc[start..]
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("mJ") && l.contains('%'))
    {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // ["", stressmark, tiles, original, modified, saving, saving 2, instructions, ""]
        let (name, tiles): (&str, u32) = (cells[1], cells[2].parse().expect("tiles"));
        let mj = |cell: &str| -> Vec<String> {
            cell.split(['(', ')', '/'])
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        };
        let mut total = [0.0f64; 2];
        for (k, design) in ["original", "modified"].iter().enumerate() {
            let e = runs[&(name.to_string(), design.to_string(), tiles)];
            total[k] = e[0];
            let want: Vec<String> = [e[0], e[1], e[2], e[3], e[4]]
                .iter()
                .enumerate()
                .map(|(i, j)| {
                    if i == 2 {
                        format!("{:.2}", j * 1e3)
                    } else {
                        format!("{:.1}", j * 1e3)
                    }
                })
                .collect();
            assert_eq!(mj(cells[3 + k]), want, "{name} {design} at {tiles} tiles");
        }
        let saving = (total[0] - total[1]) / total[0] * 100.0;
        assert_eq!(
            cells[5],
            format!("{saving:.2}%"),
            "{name} at {tiles} tiles: the saving"
        );
        checked += 1;
    }
    assert_eq!(checked, 21, "seven stressmarks at 1, 16 and 64 tiles");
}
