//! Emulator of the SCMP machine: a mesh of multithreaded RV32G tiles with the
//! cycle timing model of docs/machine.md ("Time").
//!
//! Split by concern: [`config`] (every number of the model), [`elf`]
//! (loading), [`hart`] (one hardware context and its execution: registers
//! and thread state, CSRs, predecoded text, semantics, the untraced fast
//! loop, F and D, memory access, per-instruction timing, host services and
//! semihosting), [`tile`] (scheduler and accounting), [`niu`] (the network's
//! plug-in point), [`machine`] (mesh and global loop), [`trace`], [`stats`],
//! [`fault`], [`labels`] and [`lines`] (what names a pc in traces and
//! reports: symbols, source lines), [`snapshot`] (how a program is meant to run, and the text its
//! snapshot keeps), [`timeline`] (a run's timeline for Perfetto and
//! chrome://tracing).
#![deny(missing_docs)]

pub mod config;
pub mod elf;
pub mod fault;
pub mod hart;
pub mod labels;
pub mod lines;
pub mod machine;
pub mod network;
pub mod niu;
pub mod noc;
pub mod snapshot;
pub mod stats;
pub mod stats_network;
#[cfg(test)]
mod test_rng;
pub mod tile;
pub mod timeline;
pub mod trace;

pub use config::{Config, ConfigBuilder, ConfigError};
pub use elf::{LoadError, Program};
pub use fault::{FaultCause, FaultReport};
pub use hart::host::{CapturedConsole, Console, NullConsole, StdConsole};
pub use hart::semihost::{HostEnvironment, with_host_environment};
pub use hart::service::Stream;
pub use machine::{
    Machine, Monitor, Progress, RunEnd, RunOptions, RunResult, TraceOptions, TraceSink, run,
};
pub use stats::Stats;
pub use trace::TraceFilter;
