//! Emulator of the SCMP machine: a mesh of multithreaded RV32G tiles.
#![deny(missing_docs)]
