//! Writing a command's result to stdout: a closed pipe (`scmp objdump -d x
//! | head`) ends the output quietly, as it does for `scmp run`, instead of a
//! panic.

use std::io::Write;

/// Writes `text` to stdout; a reader that went away is not an error.
pub fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => eprintln!("error: cannot write the output: {e}"),
    }
}
