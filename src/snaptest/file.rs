//! Snapshot files in insta's format, so that `cargo insta review` and a
//! Rust test's `insta::assert_snapshot!` read the same files: a YAML header
//! between `---` lines (`source`, `input_file`), then the contents.
//! `NAME.snap` is the accepted snapshot, `NAME.snap.new` one pending review.
//! Contents compare as insta compares them: trailing white space at the end
//! ignored, CRLF taken for LF.

use std::io;
use std::path::{Path, PathBuf};

/// What `source:` says in the files `scmp test` writes.
const SOURCE: &str = "scmp test";

/// The accepted snapshot of the program at `program`: `NAME.snap` beside it.
pub fn accepted_path(program: &Path) -> PathBuf {
    program.with_extension("snap")
}

/// The snapshot pending review: `NAME.snap.new` beside the program.
pub fn pending_path(program: &Path) -> PathBuf {
    program.with_extension("snap.new")
}

/// Contents as insta compares them.
pub fn normalize(contents: &str) -> String {
    contents.trim_end().replace("\r\n", "\n")
}

/// The contents of the snapshot file at `path`, normalized; `None` when
/// there is none. A file without insta's header is an error.
pub fn read(path: &Path) -> io::Result<Option<String>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut lines = text.split_inclusive('\n');
    let bad = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{} is not a snapshot file (insta's format: a header between `---` lines, then the contents)",
                path.display()
            ),
        )
    };
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(bad());
    }
    let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
    loop {
        let line = lines.next().ok_or_else(bad)?;
        offset += line.len();
        if line.trim_end() == "---" {
            break;
        }
    }
    Ok(Some(normalize(&text[offset..])))
}

/// A YAML scalar for `value`: plain where that is safe, else double-quoted.
fn yaml_scalar(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+@ ".contains(c))
        && !value.starts_with(['-', ' ', '@'])
        && !value.ends_with(' ');
    if plain {
        value.to_string()
    } else {
        // A JSON string is a valid double-quoted YAML scalar.
        serde_json::to_string(value).expect("a string serializes")
    }
}

/// Writes `contents` as a snapshot of `input_file` to `path`.
pub fn write(path: &Path, input_file: &str, contents: &str) -> io::Result<()> {
    let text = format!(
        "---\nsource: {}\ninput_file: {}\n---\n{}\n",
        yaml_scalar(SOURCE),
        yaml_scalar(input_file),
        normalize(contents)
    );
    std::fs::write(path, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_insta_normalization() {
        let dir = std::env::temp_dir().join(format!("scmp-snapfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.snap");
        write(&path, "dir with: colon/a.s", "## end\r\nexit(0)\n\n\n").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            "---\nsource: scmp test\ninput_file: \"dir with: colon/a.s\"\n---\n## end\nexit(0)\n"
        );
        assert_eq!(read(&path).unwrap().as_deref(), Some("## end\nexit(0)"));
        assert_eq!(read(&dir.join("none.snap")).unwrap(), None);
        std::fs::write(&path, "## end\n").unwrap();
        assert!(read(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_beside_the_program() {
        let p = Path::new("programs/pingpong.s");
        assert_eq!(accepted_path(p), Path::new("programs/pingpong.snap"));
        assert_eq!(pending_path(p), Path::new("programs/pingpong.snap.new"));
    }
}
