//! Files a guest program opens through semihosting (`SYS_OPEN`, `SYS_READ`,
//! `SYS_WRITE`, `SYS_SEEK`, `SYS_FLEN`, `SYS_CLOSE`: picolibc's `open`,
//! `read`, `write`, `lseek`, `close` and so `fopen` and the rest of stdio),
//! confined to the one directory the user grants (`scmp run --files DIR`);
//! with none granted every open fails with a message saying how to grant
//! one.
//!
//! No path may leave the granted directory. A path is refused before the
//! host is asked when it is absolute, empty, has a `..` component or a NUL
//! byte; every host access then goes through `cap-std`'s [`Dir`], which
//! resolves a path beneath the directory's open descriptor (`openat2`
//! with `RESOLVE_BENEATH` where the kernel has it, else component by
//! component with `O_NOFOLLOW`), so a symbolic link that leads outside is
//! refused too, and a link swapped in between a check and a use (TOCTOU)
//! cannot take an access outside: there is no check-then-use on path
//! strings, each access is itself confined.
//!
//! A run stays deterministic and safe under the time model's rollbacks:
//! each tile has its own view of the files ([`Files`], saved in a tile's
//! checkpoint and put back on a rollback). A tile's first open of a path
//! reads the host file as it was when the run began; reads, writes and
//! seeks then work on that copy, and written files are written back to the
//! host when the run ends ([`Files::write_back`]), whatever the end (exit,
//! fault, deadlock, interrupt). Nothing reaches the host during the run, so
//! a replay or a rollback writes nothing twice, and no tile sees another's
//! writes before the end (when two tiles write one file, the later tile's
//! contents are kept and a note says so). Files larger than `i32::MAX`
//! bytes (the largest offset `SYS_SEEK` and `SYS_FLEN` can give) are
//! refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
use cap_std::fs::Dir;

/// Errno values the guest sees (`SYS_ERRNO`): picolibc's, which are
/// Linux's for these.
pub mod errno {
    /// Operation not permitted.
    pub const EPERM: u32 = 1;
    /// No such file or directory.
    pub const ENOENT: u32 = 2;
    /// I/O error.
    pub const EIO: u32 = 5;
    /// Bad file descriptor.
    pub const EBADF: u32 = 9;
    /// Permission denied.
    pub const EACCES: u32 = 13;
    /// Is a directory.
    pub const EISDIR: u32 = 21;
    /// Invalid argument.
    pub const EINVAL: u32 = 22;
    /// File too large.
    pub const EFBIG: u32 = 27;
}

/// The largest file a guest may have: the largest offset `SYS_SEEK` and
/// `SYS_FLEN` (signed 32-bit) can express.
const MAX_FILE: usize = i32::MAX as usize;

/// The directory the user granted a run's programs for files.
#[derive(Debug)]
pub struct GrantedDir {
    dir: Dir,
    /// Its path as the user gave it, made absolute (for messages).
    shown: PathBuf,
}

impl GrantedDir {
    /// Opens `path` (a directory) for a run's files.
    pub fn open(path: &Path) -> Result<GrantedDir, String> {
        let shown = std::fs::canonicalize(path)
            .map_err(|e| format!("cannot use {} for files: {e}", path.display()))?;
        if !shown.is_dir() {
            return Err(format!(
                "cannot use {} for files: not a directory",
                path.display()
            ));
        }
        let dir = Dir::open_ambient_dir(&shown, ambient_authority())
            .map_err(|e| format!("cannot open {}: {e}", shown.display()))?;
        Ok(GrantedDir { dir, shown })
    }

    /// The directory's absolute path.
    pub fn path(&self) -> &Path {
        &self.shown
    }
}

/// One file as a tile sees it.
#[derive(Clone, Debug)]
struct FileData {
    bytes: Arc<Vec<u8>>,
    /// Written (or created) in this run: written back at its end.
    written: bool,
}

/// An open handle.
#[derive(Clone, Debug)]
struct Handle {
    path: String,
    pos: usize,
    read: bool,
    write: bool,
    append: bool,
}

/// The first handle number of a file (0..=3 are the console streams and
/// the features file).
pub const FIRST_HANDLE: u32 = 4;

/// A tile's files: its view of the granted directory and its open handles.
#[derive(Clone, Debug, Default)]
pub struct Files {
    root: Option<Arc<GrantedDir>>,
    files: BTreeMap<String, FileData>,
    handles: Vec<Option<Handle>>,
    /// The last error of each context (`SYS_ERRNO`).
    errors: Vec<u32>,
}

/// A failed call: the errno, and a note for the user (on stderr) when the
/// failure is the run's setup rather than the program's business.
type Failure = (u32, Option<String>);

impl Files {
    /// A tile's files under `root` (none: every open fails).
    pub fn new(root: Option<Arc<GrantedDir>>) -> Files {
        Files {
            root,
            ..Files::default()
        }
    }

    /// Whether `handle` is a file's.
    pub fn is_file_handle(handle: u32) -> bool {
        handle >= FIRST_HANDLE
    }

    /// The last error of `context`.
    pub fn errno(&self, context: u32) -> u32 {
        self.errors.get(context as usize).copied().unwrap_or(0)
    }

    fn fail(&mut self, context: u32, (code, note): Failure, notes: &mut dyn FnMut(String)) -> u32 {
        let c = context as usize;
        if self.errors.len() <= c {
            self.errors.resize(c + 1, 0);
        }
        self.errors[c] = code;
        if let Some(n) = note {
            notes(n);
        }
        u32::MAX
    }

    /// `SYS_OPEN` of `name` with semihosting `mode` (0..=11: r, rb, r+,
    /// r+b, w, wb, w+, w+b, a, ab, a+, a+b): the handle, or -1 (errno set,
    /// a note given when the path was refused).
    pub fn open(
        &mut self,
        context: u32,
        name: &[u8],
        mode: u32,
        notes: &mut dyn FnMut(String),
    ) -> u32 {
        match self.try_open(name, mode) {
            Ok(h) => h,
            Err(f) => self.fail(context, f, notes),
        }
    }

    fn try_open(&mut self, name: &[u8], mode: u32) -> Result<u32, Failure> {
        let shown = String::from_utf8_lossy(name).into_owned();
        let Some(root) = self.root.clone() else {
            return Err((
                errno::EACCES,
                Some(format!(
                    "the program opened \"{shown}\", but no directory is granted for files: run with `--files DIR` to let it open files in DIR (and nowhere else)"
                )),
            ));
        };
        // A reason ending in `;` is a path that would leave the directory.
        let refuse = |why: &str| {
            Some(match why.strip_suffix(';') {
                Some(why) => format!(
                    "the program opened \"{shown}\": refused, {why}; a path must be relative to the granted directory {} and stay inside it",
                    root.path().display()
                ),
                None => format!("the program opened \"{shown}\": refused, {why}"),
            })
        };
        let path = std::str::from_utf8(name).map_err(|_| (errno::EINVAL, refuse("not UTF-8")))?;
        if path.contains('\0') {
            return Err((errno::EINVAL, refuse("it has a NUL byte")));
        }
        if path.starts_with('/') {
            return Err((errno::EACCES, refuse("an absolute path;")));
        }
        let parts: Vec<&str> = path
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        if parts.contains(&"..") {
            return Err((errno::EACCES, refuse("a `..` component;")));
        }
        if parts.is_empty() {
            return Err((errno::EISDIR, None));
        }
        let key = parts.join("/");
        let (read, write, truncate, append, create) = match mode / 2 {
            0 => (true, false, false, false, false),
            1 => (true, true, false, false, false),
            2 => (false, true, true, false, true),
            3 => (true, true, true, false, true),
            4 => (false, true, false, true, true),
            5 => (true, true, false, true, true),
            _ => return Err((errno::EINVAL, None)),
        };
        if !self.files.contains_key(&key) {
            match load(&root, &key).map_err(|(code, why)| (code, why.and_then(|w| refuse(&w))))? {
                Some(bytes) => {
                    self.files.insert(
                        key.clone(),
                        FileData {
                            bytes: Arc::new(bytes),
                            written: false,
                        },
                    );
                }
                None if create => {
                    check_parent(&root, &parts)
                        .map_err(|(code, why)| (code, why.and_then(|w| refuse(&w))))?;
                    self.files.insert(
                        key.clone(),
                        FileData {
                            bytes: Arc::new(Vec::new()),
                            written: true,
                        },
                    );
                }
                None => return Err((errno::ENOENT, None)),
            }
        }
        if truncate {
            let f = self.files.get_mut(&key).expect("loaded above");
            f.bytes = Arc::new(Vec::new());
            f.written = true;
        }
        let handle = Handle {
            path: key,
            pos: 0,
            read,
            write,
            append,
        };
        let slot = match self.handles.iter().position(Option::is_none) {
            Some(i) => {
                self.handles[i] = Some(handle);
                i
            }
            None => {
                self.handles.push(Some(handle));
                self.handles.len() - 1
            }
        };
        Ok(FIRST_HANDLE + slot as u32)
    }

    fn handle(&mut self, handle: u32) -> Result<&mut Handle, Failure> {
        handle
            .checked_sub(FIRST_HANDLE)
            .and_then(|i| self.handles.get_mut(i as usize))
            .and_then(Option::as_mut)
            .ok_or((errno::EBADF, None))
    }

    /// `SYS_READ`: up to `len` bytes at the handle's position (fewer at the
    /// end), or -1 (errno set).
    pub fn read(&mut self, context: u32, handle: u32, len: u32) -> Result<Vec<u8>, u32> {
        let r = self.handle(handle).and_then(|h| {
            if h.read {
                Ok((h.path.clone(), h.pos))
            } else {
                Err((errno::EBADF, None))
            }
        });
        match r {
            Ok((path, pos)) => {
                let bytes = &self.files[&path].bytes;
                let end = bytes.len().min(pos.saturating_add(len as usize));
                let out = bytes.get(pos..end).unwrap_or_default().to_vec();
                self.handle(handle).expect("checked").pos += out.len();
                Ok(out)
            }
            Err(f) => Err(self.fail(context, f, &mut |_| {})),
        }
    }

    /// `SYS_WRITE` of `data`: 0 (all written), or -1 (errno set).
    pub fn write(&mut self, context: u32, handle: u32, data: &[u8]) -> u32 {
        let r = self.handle(handle).and_then(|h| {
            if h.write {
                Ok((h.path.clone(), h.pos, h.append))
            } else {
                Err((errno::EBADF, None))
            }
        });
        let (path, pos, append) = match r {
            Ok(x) => x,
            Err(f) => return self.fail(context, f, &mut |_| {}),
        };
        let file = self.files.get_mut(&path).expect("open files are loaded");
        let at = if append { file.bytes.len() } else { pos };
        let end = at.saturating_add(data.len());
        if end > MAX_FILE {
            return self.fail(context, (errno::EFBIG, None), &mut |_| {});
        }
        let bytes = Arc::make_mut(&mut file.bytes);
        if bytes.len() < end {
            bytes.resize(end, 0);
        }
        bytes[at..end].copy_from_slice(data);
        file.written = true;
        self.handle(handle).expect("checked").pos = end;
        0
    }

    /// `SYS_SEEK` to `at` (from the start): 0, or -1 (errno set).
    pub fn seek(&mut self, context: u32, handle: u32, at: u32) -> u32 {
        if at as usize > MAX_FILE {
            return self.fail(context, (errno::EINVAL, None), &mut |_| {});
        }
        match self.handle(handle) {
            Ok(h) => {
                h.pos = at as usize;
                0
            }
            Err(f) => self.fail(context, f, &mut |_| {}),
        }
    }

    /// `SYS_FLEN`: the file's length, or -1 (errno set).
    pub fn len(&mut self, context: u32, handle: u32) -> u32 {
        match self.handle(handle) {
            Ok(h) => {
                let path = h.path.clone();
                self.files[&path].bytes.len() as u32
            }
            Err(f) => self.fail(context, f, &mut |_| {}),
        }
    }

    /// `SYS_CLOSE`: 0, or -1 (errno set).
    pub fn close(&mut self, context: u32, handle: u32) -> u32 {
        match self.handle(handle) {
            Ok(_) => {
                self.handles[(handle - FIRST_HANDLE) as usize] = None;
                0
            }
            Err(f) => self.fail(context, f, &mut |_| {}),
        }
    }

    /// The files written in this run, with their contents, by path.
    pub fn written(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.files
            .iter()
            .filter(|(_, f)| f.written)
            .map(|(p, f)| (p.as_str(), f.bytes.as_slice()))
    }

    /// Writes the files the tiles wrote back to the granted directory, in
    /// tile order (`tiles`: each tile's files); returns notes for the user
    /// (a file two tiles wrote differently, a write that failed).
    pub fn write_back(tiles: &[(u32, &Files)]) -> Vec<String> {
        let mut last: BTreeMap<&str, (u32, &[u8], Arc<GrantedDir>)> = BTreeMap::new();
        let mut notes = Vec::new();
        for (tile, files) in tiles {
            let Some(root) = &files.root else { continue };
            for (path, bytes) in files.written() {
                if let Some((other, before, _)) = last.get(path)
                    && *before != bytes
                {
                    notes.push(format!(
                        "tiles {other} and {tile} both wrote {path} (each tile has its own view of the files until the run ends): tile {tile}'s contents are kept"
                    ));
                }
                last.insert(path, (*tile, bytes, root.clone()));
            }
        }
        for (path, (_, bytes, root)) in last {
            if let Err(e) = root.dir.write(path, bytes) {
                notes.push(format!(
                    "cannot write {}: {e}",
                    root.path().join(path).display()
                ));
            }
        }
        notes
    }
}

/// Reads `key` from the granted directory: `None` if it does not exist.
/// The error's note (a reason) is given when the path was refused. The
/// file is opened once (non-blocking, so a FIFO cannot stall the run) and
/// checked through its descriptor: a regular file, not too large.
fn load(root: &GrantedDir, key: &str) -> Result<Option<Vec<u8>>, (u32, Option<String>)> {
    use cap_std::fs::{OpenOptions, OpenOptionsExt};
    use std::io::Read;
    let mut options = OpenOptions::new();
    options
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    let mut file = match root.dir.open_with(key, &options) {
        Ok(f) => f,
        Err(e) => return not_there(e),
    };
    let meta = file
        .metadata()
        .map_err(|e| (errno::EIO, Some(format!("the host said: {e}"))))?;
    if meta.is_dir() {
        return Err((errno::EISDIR, None));
    }
    if !meta.is_file() {
        return Err((
            errno::EACCES,
            Some("not a regular file (a FIFO or a device could stall the run)".to_string()),
        ));
    }
    if meta.len() > MAX_FILE as u64 {
        return Err((errno::EFBIG, Some(format!("larger than {MAX_FILE} bytes"))));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes)
        .map_err(|e| (errno::EIO, Some(format!("the host said: {e}"))))?;
    Ok(Some(bytes))
}

/// A host error of a lookup: not found is `None`, a path cap-std refused
/// (it leads outside, through a symbolic link) is EACCES with a reason.
fn not_there(e: std::io::Error) -> Result<Option<Vec<u8>>, (u32, Option<String>)> {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => Ok(None),
        ErrorKind::PermissionDenied => Err((
            errno::EACCES,
            Some(format!(
                "it leads outside through a symbolic link, or the host refused it ({e});"
            )),
        )),
        ErrorKind::IsADirectory => Err((errno::EISDIR, None)),
        ErrorKind::NotADirectory => Err((errno::ENOENT, None)),
        _ => Err((errno::EIO, Some(format!("the host said: {e}")))),
    }
}

/// Whether a new file at `parts` may be created: its parent directory
/// exists (inside the granted one).
fn check_parent(root: &GrantedDir, parts: &[&str]) -> Result<(), (u32, Option<String>)> {
    let parent = parts[..parts.len() - 1].join("/");
    if parent.is_empty() {
        return Ok(());
    }
    match root.dir.metadata(&parent) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err((errno::ENOENT, None)),
        Err(e) => not_there(e).and(Err((errno::ENOENT, None))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> (PathBuf, Arc<GrantedDir>) {
        let base = std::env::temp_dir().join(format!(
            "scmp-files-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(base.join("granted/sub")).unwrap();
        std::fs::write(base.join("secret"), b"outside").unwrap();
        std::fs::write(base.join("granted/in.txt"), b"inside").unwrap();
        let g = Arc::new(GrantedDir::open(&base.join("granted")).unwrap());
        (base, g)
    }

    fn open(f: &mut Files, name: &str, mode: u32) -> (u32, Vec<String>) {
        let mut notes = Vec::new();
        let h = f.open(0, name.as_bytes(), mode, &mut |n| notes.push(n));
        (h, notes)
    }

    #[test]
    fn without_a_grant_every_open_fails_and_says_how() {
        let mut f = Files::new(None);
        let (h, notes) = open(&mut f, "in.txt", 0);
        assert_eq!(h, u32::MAX);
        assert_eq!(f.errno(0), errno::EACCES);
        assert!(notes[0].contains("--files DIR"), "{notes:?}");
    }

    #[test]
    fn escapes_are_refused() {
        let (base, g) = dir();
        std::os::unix::fs::symlink(base.join("secret"), base.join("granted/link")).unwrap();
        std::os::unix::fs::symlink("../secret", base.join("granted/rel")).unwrap();
        std::os::unix::fs::symlink("../..", base.join("granted/sub/up")).unwrap();
        let mut f = Files::new(Some(g));
        let outside = base.join("secret").display().to_string();
        for (name, mode) in [
            ("../secret", 0),
            ("sub/../../secret", 0),
            (outside.as_str(), 0),
            ("/etc/passwd", 0),
            ("link", 0),
            ("rel", 0),
            ("sub/up/../secret", 0),
            ("sub/up/secret", 0),
            ("sub/up/new", 4),
            ("link", 4),
            ("rel", 8),
            ("../new", 4),
        ] {
            let (h, notes) = open(&mut f, name, mode);
            assert_eq!(h, u32::MAX, "{name} opened");
            assert_eq!(f.errno(0), errno::EACCES, "{name}");
            assert!(notes[0].contains("refused"), "{name}: {notes:?}");
        }
        // Nothing was written outside, and the secret is unchanged.
        assert!(Files::write_back(&[(0, &f)]).is_empty());
        assert_eq!(std::fs::read(base.join("secret")).unwrap(), b"outside");
        assert!(!base.join("new").exists());
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let (base, g) = dir();
        let fifo = base.join("granted/pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let mut f = Files::new(Some(g));
        let (h, notes) = open(&mut f, "pipe", 0);
        assert_eq!((h, f.errno(0)), (u32::MAX, errno::EACCES));
        assert!(notes[0].contains("not a regular file"), "{notes:?}");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_link_inside_is_followed_and_files_round_trip() {
        let (base, g) = dir();
        std::os::unix::fs::symlink("in.txt", base.join("granted/alias")).unwrap();
        let mut f = Files::new(Some(g));
        let (h, _) = open(&mut f, "alias", 0);
        assert_eq!(f.read(0, h, 100).unwrap(), b"inside");
        assert_eq!(f.write(0, h, b"x"), u32::MAX, "read-only handle");
        assert_eq!(f.errno(0), errno::EBADF);
        let (w, _) = open(&mut f, "./sub//out.txt", 6);
        assert_eq!(f.write(0, w, b"hello world"), 0);
        assert_eq!(f.seek(0, w, 6), 0);
        assert_eq!(f.read(0, w, 5).unwrap(), b"world");
        assert_eq!(f.len(0, w), 11);
        assert_eq!(f.close(0, w), 0);
        assert_eq!(f.close(0, w), u32::MAX);
        // Not on the host until the run ends.
        assert!(!base.join("granted/sub/out.txt").exists());
        let (missing, _) = open(&mut f, "nothing/here.txt", 4);
        assert_eq!((missing, f.errno(0)), (u32::MAX, errno::ENOENT));
        assert!(Files::write_back(&[(0, &f)]).is_empty());
        assert_eq!(
            std::fs::read(base.join("granted/sub/out.txt")).unwrap(),
            b"hello world"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }
}
