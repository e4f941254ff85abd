//! Emulator of the SCMP machine: a mesh of multithreaded RV32G tiles with the
//! cycle timing model of `shared/design/scmp-machine.md` section 7.
//!
//! Split by concern: [`config`] (every number of the model), [`elf`]
//! (loading), [`memory`], [`decode`] (predecoded text), [`context`]
//! (registers and thread state), [`execute`] (semantics), [`fpu`] (F and D
//! in software, the reference; `hardfloat` its host-FPU fast path, `fast`
//! the untraced loop), [`csr`],
//! [`timing`], [`tile`] (scheduler and accounting), [`niu`] (the network's
//! plug-in point), [`machine`] (mesh and global loop), [`host`] (ecall
//! services and console), [`trace`], [`stats`], [`fault`], [`snapshot`]
//! (how a program is meant to run, and the text its snapshot keeps),
//! [`timeline`] (a run's timeline for Perfetto and chrome://tracing).
#![deny(missing_docs)]

pub mod config;
pub mod context;
pub mod csr;
pub mod decode;
pub mod elf;
pub mod execute;
mod fast;
pub mod fault;
pub mod fpu;
mod hardfloat;
pub mod host;
pub mod labels;
pub mod machine;
pub mod memory;
pub mod network;
pub mod niu;
pub mod noc;
pub mod semihost;
pub mod snapshot;
pub mod stats;
pub mod stats_network;
#[cfg(test)]
mod test_rng;
pub mod tile;
pub mod timeline;
pub mod timing;
pub mod trace;

pub use config::{Config, ConfigBuilder, ConfigError};
pub use elf::{LoadError, Program};
pub use fault::{FaultCause, FaultReport};
pub use host::{CapturedConsole, Console, NullConsole, StdConsole, Stream};
pub use machine::{
    Machine, Monitor, Progress, RunEnd, RunOptions, RunResult, TraceOptions, TraceSink, run,
};
pub use semihost::{HostEnvironment, with_host_environment};
pub use stats::Stats;
pub use trace::TraceFilter;
