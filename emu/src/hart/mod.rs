//! One hardware context (hart) of a tile and its execution: the register and
//! thread state ([`context`]), the control and status registers ([`csr`]),
//! predecoded text ([`decode`]); the core's operations written once
//! ([`semantics`]: the table of operations and each one's semantics) and
//! the two dispatchers generated from it, the careful step that traces and
//! faults exactly ([`execute`]) and the untraced fast loop with threaded
//! dispatch (`fast`), both calling [`context_ops`] for the instructions that
//! touch only the context (F and D computation, CSRs); what an instruction
//! produced besides its writes ([`effects`]: trace effects and stops), the
//! LR/SC [`reservations`], F and D arithmetic ([`fpu`] in software, the
//! reference; `hardfloat` its host-FPU fast path), access to the tile's
//! local memory ([`memory`]), the per-instruction costs of the timing
//! model ([`timing`]), and the services a program reaches through `ecall`
//! and semihosting ([`host`], [`semihost`], and what they share,
//! [`service`]).
//!
//! Which unit executes an instruction (core, NIU, thread control, host) is
//! the instruction table's (`isa_spec::Opcode::executes`). The tile
//! (`crate::tile`) schedules the contexts and hands the messaging
//! instructions to the NIU; nothing here knows about the network.

pub mod context;
pub mod context_ops;
pub mod csr;
pub mod decode;
pub mod effects;
pub mod execute;
pub(crate) mod fast;
pub mod files;
pub mod fpu;
pub(crate) mod hardfloat;
pub mod host;
pub mod memory;
pub mod reservations;
pub mod semantics;
pub mod semihost;
pub mod service;
pub mod timing;
