//! Reading input files with a bound: a source, an `.include`d file or the
//! window of an `.incbin`. A device such as `/dev/zero` or a huge file must
//! end in an error, not in memory exhaustion, and `.incbin FILE, skip, count`
//! reads only the bytes it keeps.

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

/// Largest file the assembler reads (a source, an included file, or the
/// part of an `.incbin` it keeps): the largest section.
pub const MAX_FILE_BYTES: u64 = crate::unit::MAX_SECTION_BYTES;

/// The part of a file to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileWindow {
    /// Bytes to pass over first.
    pub skip: u64,
    /// Most bytes to keep (`None`: to the end of the file).
    pub count: Option<u64>,
}

impl FileWindow {
    /// The whole file.
    pub const WHOLE: FileWindow = FileWindow {
        skip: 0,
        count: None,
    };
}

/// Reads `window` of the file at `path`, failing (with `InvalidData`) when
/// the part to keep would exceed [`MAX_FILE_BYTES`] and, for a file that
/// cannot seek (a device, a pipe), when the skip would.
pub fn read_window(path: &Path, window: FileWindow) -> io::Result<Vec<u8>> {
    let mut file = std::fs::File::open(path)?;
    let regular = file.metadata()?.is_file();
    if window.skip > 0 {
        if regular {
            file.seek(SeekFrom::Start(window.skip))?;
        } else {
            if window.skip > MAX_FILE_BYTES {
                return Err(too_large());
            }
            io::copy(&mut (&mut file).take(window.skip), &mut io::sink())?;
        }
    }
    let wanted = window.count.unwrap_or(u64::MAX);
    let limit = wanted.min(MAX_FILE_BYTES + 1);
    let mut data = Vec::new();
    (&mut file).take(limit).read_to_end(&mut data)?;
    if data.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(data)
}

fn too_large() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("larger than {} MiB", MAX_FILE_BYTES >> 20),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_bounded_and_windows_read_only_their_bytes() {
        let err = read_window(Path::new("/dev/zero"), FileWindow::WHOLE).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        let some = FileWindow {
            skip: 1 << 20,
            count: Some(16),
        };
        assert_eq!(read_window(Path::new("/dev/zero"), some).unwrap(), [0; 16]);
        let far = FileWindow {
            skip: u64::MAX / 2,
            count: Some(1),
        };
        assert!(read_window(Path::new("/dev/zero"), far).is_err());
        let dir = std::env::temp_dir().join(format!("scmp-files-{}", std::process::id()));
        std::fs::write(&dir, b"0123456789").unwrap();
        let mid = FileWindow {
            skip: 3,
            count: Some(4),
        };
        assert_eq!(read_window(&dir, mid).unwrap(), b"3456");
        let past = FileWindow {
            skip: 20,
            count: None,
        };
        assert_eq!(read_window(&dir, past).unwrap(), b"");
        std::fs::remove_file(&dir).unwrap();
    }
}
