//! One word of the text prepared for the fast loop: its operation,
//! registers, immediate or target, and its block's cycles.

use isa_spec::{CoreOp, Executes, HostOp, Inst, ThreadOp};

use super::Decoded;
use super::fast_op::{DYNAMIC_ROUNDING, FastOp, Form, Reg, StopKind};
use crate::hart::semantics;

/// One word prepared for the fast loop (16 bytes). Register numbers are
/// below 32. An ALU, load or jump entry never has `rd` 0 (ALU instructions
/// writing `x0` become [`FastOp::Nop`], loads into it [`FastOp::Slow`],
/// jumps [`FastOp::J`]/[`FastOp::Jr`]); AMO, LR/SC, FP and CSR entries may,
/// and the loop zeroes `x0` again after them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fast {
    /// Operation.
    pub op: FastOp,
    /// Destination register.
    pub rd: Reg,
    /// Source register 1.
    pub rs1: Reg,
    /// Source register 2.
    pub rs2: Reg,
    /// Immediate (shift amounts masked); for [`FastOp::Const`] the value;
    /// for a branch or `jal` the text index of the target.
    pub imm: u32,
    /// What the fast loop adds to its accumulator for this instruction and
    /// the rest of its block (up to the next entry that ends one, see
    /// [`FastOp::ends_block`]; a branch counted as not taken): their cycles
    /// times `-2^32`, plus their number. The accumulator's high half counts
    /// the slice's cycles down, its low half the instructions retired up.
    pub rest: u64,
}

/// The accumulator step of an instruction taking `cycles`.
#[inline]
pub const fn fast_step(cycles: u32) -> u64 {
    1u64.wrapping_sub((cycles as u64) << 32)
}

impl Fast {
    pub(crate) const SLOW: Fast = Fast {
        op: FastOp::Slow,
        rd: Reg::R0,
        rs1: Reg::R0,
        rs2: Reg::R0,
        imm: 0,
        rest: 0,
    };

    /// Prepares `decoded`, the word at `pc`, in a table of `len` words at
    /// `base`.
    ///
    /// Long: one match over the forms and the core operations, an arm each.
    pub fn new(decoded: &Decoded, pc: u32, base: u32, len: usize) -> Fast {
        let Some(inst) = decoded.inst else {
            return Fast::SLOW;
        };
        let imm = inst.imm as u32;
        let mut f = Fast {
            op: FastOp::Slow,
            rd: Reg::new(inst.rd),
            rs1: Reg::new(inst.rs1),
            rs2: Reg::new(inst.rs2),
            imm,
            rest: fast_step(decoded.cost),
        };
        // A branch or jump target as a text index, when it is aligned and
        // inside the table (otherwise the careful step runs it).
        let target = |t: u32| -> Option<u32> {
            let i = t.wrapping_sub(base) >> 2;
            (t & 3 == 0 && (i as usize) < len).then_some(i)
        };
        let rd0 = inst.rd == 0;
        let stop = |mut f: Fast, kind: StopKind| {
            f.op = FastOp::Stop;
            f.imm = kind as u32;
            f
        };
        let op = match inst.op.executes() {
            Executes::Core(op) => op,
            Executes::Niu(_) => return stop(f, StopKind::Messaging),
            Executes::Thread(ThreadOp::Endt) => return stop(f, StopKind::EndThread),
            Executes::Thread(ThreadOp::Yield) => return stop(f, StopKind::Yield),
            // The end of the swap handler, rare: the careful step.
            Executes::Thread(ThreadOp::Mret) => return Fast::SLOW,
            Executes::Host(HostOp::Ecall) => return stop(f, StopKind::HostCall),
            // A breakpoint or a semihosting call: the careful step.
            Executes::Host(HostOp::Ebreak) => return Fast::SLOW,
        };
        if let Some((row, form)) = FastOp::of_row(op) {
            f.op = match form {
                // An ALU result into x0 only takes its cycles.
                Form::AluRr | Form::AluRi if rd0 => FastOp::Nop,
                Form::AluRr | Form::AluRi | Form::Store | Form::Amo => row,
                // (A load into x0 still faults: the careful step.)
                Form::Load if rd0 => FastOp::Slow,
                Form::Load => row,
                Form::Branch => match target(pc.wrapping_add(imm)) {
                    Some(i) => {
                        f.imm = i;
                        row
                    }
                    None => FastOp::Slow,
                },
                // Rounded first on the host FPU when the rounding mode is
                // round-to-nearest-even: static, or dynamic (then bits 31:24
                // all ones, so that `frm` masked by them is zero exactly
                // when the host's rounding applies); `imm` as for `Fp`.
                Form::FpArith | Form::FpSqrt => {
                    f.imm = fp_imm(&inst);
                    match inst.aux {
                        DYNAMIC_ROUNDING => {
                            f.imm |= 0xff << 24;
                            row
                        }
                        0 => row,
                        _ => FastOp::Fp,
                    }
                }
            };
            return f;
        }
        match op {
            CoreOp::Lui => {
                f.imm = imm << 12;
                f.op = if rd0 { FastOp::Nop } else { FastOp::Const };
            }
            CoreOp::Auipc => {
                f.imm = pc.wrapping_add(imm << 12);
                f.op = if rd0 { FastOp::Nop } else { FastOp::Const };
            }
            CoreOp::Jal => {
                if let Some(i) = target(semantics::jal_target(pc, imm)) {
                    f.imm = i;
                    f.op = if rd0 { FastOp::J } else { FastOp::Jal };
                }
            }
            CoreOp::Jalr => f.op = if rd0 { FastOp::Jr } else { FastOp::Jalr },
            CoreOp::Flw => f.op = FastOp::Flw,
            CoreOp::Fld => f.op = FastOp::Fld,
            CoreOp::Fsw => f.op = FastOp::Fsw,
            CoreOp::Fsd => f.op = FastOp::Fsd,
            CoreOp::Csrrw
            | CoreOp::Csrrs
            | CoreOp::Csrrc
            | CoreOp::Csrrwi
            | CoreOp::Csrrsi
            | CoreOp::Csrrci => {
                f.op = FastOp::Csr;
                f.imm = (inst.op as u32) << 16 | (inst.imm as u32 & 0xffff);
            }
            CoreOp::LrW => f.op = FastOp::Lr,
            CoreOp::ScW => f.op = FastOp::Sc,
            CoreOp::Fence | CoreOp::FenceTso | CoreOp::FenceI => f.op = FastOp::Nop,
            op if semantics::is_fd(op) => {
                f.imm = fp_imm(&inst);
                // F and D instructions that never round (flags only for NaN
                // compares) have inline operations, for a static
                // round-to-nearest-even or the dynamic rounding mode (`imm`
                // as for `Fp`, and bits 31:24 all ones when it is dynamic);
                // another rounding mode may be invalid: the general code.
                let inline = match op {
                    CoreOp::FsgnjD => FastOp::FsgnjD,
                    CoreOp::FsgnjnD => FastOp::FsgnjnD,
                    CoreOp::FsgnjxD => FastOp::FsgnjxD,
                    CoreOp::FmvXW => FastOp::FmvXW,
                    CoreOp::FmvWX => FastOp::FmvWX,
                    CoreOp::FcvtDW => FastOp::FcvtDW,
                    CoreOp::FcvtDWu => FastOp::FcvtDWu,
                    CoreOp::FeqD => FastOp::FeqD,
                    CoreOp::FltD => FastOp::FltD,
                    CoreOp::FleD => FastOp::FleD,
                    _ => FastOp::Fp,
                };
                f.op = match inst.aux {
                    DYNAMIC_ROUNDING => {
                        f.imm |= 0xff << 24;
                        inline
                    }
                    0 => inline,
                    _ => FastOp::Fp,
                };
            }
            _ => {}
        }
        f
    }
}

/// The immediate of an F or D entry: the opcode in bits 7:0, `rs3` in
/// 15:8 and the rounding mode field in 23:16.
fn fp_imm(inst: &Inst) -> u32 {
    inst.op as u32 | (inst.rs3 as u32) << 8 | (inst.aux as u32) << 16
}
