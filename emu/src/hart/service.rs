//! What the host services share: the `ecall` services (`host`) and
//! semihosting (`semihost`) write bytes to output [`Stream`]s as
//! [`OutputEvent`]s and tell the tile what the call asks of the run
//! ([`HostOutcome`]). In a module of their own so that neither service
//! module depends on the other for them.

/// Output stream of a host service.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stream {
    /// fd 1.
    Stdout,
    /// fd 2.
    Stderr,
}

/// Bytes a thread wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputEvent {
    /// Tile cycle of the ecall.
    pub cycle: u64,
    /// Tile.
    pub tile: u32,
    /// Context.
    pub context: u32,
    /// Stream.
    pub stream: Stream,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// What a host service asks of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostOutcome {
    /// The thread continues.
    Continue,
    /// `exit`/`exit_group`: the run ends with this code.
    Exit(i32),
}
