//! Emulator of the SCMP machine: a mesh of multithreaded RV32G tiles with the
//! cycle timing model of docs/machine.md ("Time").
//!
//! Split by the parts of the machine (docs/architecture.md has the picture
//! of the layers and what each module may use; a test holds the code to it):
//! - the base: [`config`] (every number of the model), [`fault`] (guest
//!   faults as values), [`elf`] (loading), [`labels`] and [`lines`] (a
//!   program's symbols and source lines, for reports and traces);
//! - [`hart`]: one hardware context and its execution (registers and thread
//!   state, CSRs, predecoding, the table of operations and their semantics,
//!   the careful step and the threaded fast loop over it, F and D, memory
//!   access, per-instruction timing, host services and semihosting);
//! - [`network`] (routers, links, allocators, flits) and [`noc`] (the
//!   network alone under synthetic traffic, `scmp noc`);
//! - [`niu`]: the network interface unit, both designs of the thesis;
//! - [`tile`]: memory, contexts, the scheduler and cycle accounting;
//! - [`machine`]: the mesh, the global loop and its time model, a run's
//!   output and reports;
//! - observation: [`trace`], [`stats`], [`stats_network`], [`timeline`];
//! - [`snapshot`]: how a program is meant to run, and the text its snapshot
//!   keeps.
#![deny(missing_docs)]

pub mod config;
pub mod elf;
pub mod energy;
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
pub mod unwind;

pub use config::{Config, ConfigBuilder, ConfigError};
pub use elf::{LoadError, Program};
pub use fault::{FaultCause, FaultReport};
pub use hart::files::GrantedDir;
pub use hart::host::{CapturedConsole, Console, NullConsole, StdConsole};
pub use hart::semihost::{HostEnvironment, with_host_environment};
pub use hart::service::Stream;
pub use machine::{
    Machine, Monitor, Progress, RunEnd, RunOptions, RunResult, TraceOptions, TraceSink, run,
};
pub use stats::Stats;
pub use trace::TraceFilter;
