//! The SCMP instruction set: RV32G (RV32IMAFD, Zicsr, Zifencei) plus the SCMP
//! messaging and thread-control extension, its message and flit formats, CSRs
//! and host services.
//!
//! The instruction table in [`for_each_instruction`] is the single source of
//! truth: [`Opcode`], [`SPECS`], [`Inst::encode`], [`Inst::decode`], the
//! disassembler ([`Inst::display`], [`Inst::written`]), the assembler's mnemonic lookup
//! ([`rows_for_mnemonic`]) and the reference document ([`doc::reference`])
//! derive from it. The pseudo-instructions and aliases are a second table,
//! [`PSEUDOS`], written in terms of the first; it also says which alias the
//! disassembler prints for an instruction.
#![deny(missing_docs)]
// The unit column's muncher (`inst::define_units`) takes one step per row.
#![recursion_limit = "256"]

mod alias;
mod csr;
mod disasm;
pub mod doc;
mod field;
pub mod gnu;
mod host;
mod inst;
pub mod msg;
mod pseudo;
mod reg;
mod table;

pub use csr::*;
pub use disasm::{Disasm, Written, WrittenOperand};
pub use field::{Field, Operand, RangeError, RegClass, Slot};
pub use host::*;
pub use inst::*;
pub use pseudo::*;
pub use reg::*;
