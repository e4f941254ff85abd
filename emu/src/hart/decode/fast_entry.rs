//! One word of the text prepared for the fast loop: its operation,
//! registers, immediate or target, and its block's cycles.

use isa_spec::{Executes, Extension, HostOp, Opcode, ThreadOp};

use super::Decoded;
use super::fast_op::{Amo, DYNAMIC_ROUNDING, FastOp, MulDiv, Reg, StopKind};

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
        // inside the table (otherwise the general interpreter runs it).
        let target = |t: u32| -> Option<u32> {
            let i = t.wrapping_sub(base) >> 2;
            (t & 3 == 0 && (i as usize) < len).then_some(i)
        };
        let rd0 = inst.rd == 0;
        let writes = |f: &mut Fast, op: FastOp| f.op = if rd0 { FastOp::Nop } else { op };
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
            Executes::Host(HostOp::Ecall) => return stop(f, StopKind::HostCall),
            // A breakpoint or a semihosting call: the general way.
            Executes::Host(HostOp::Ebreak) => return Fast::SLOW,
        };
        match op.opcode() {
            Opcode::Lui => {
                f.imm = imm << 12;
                writes(&mut f, FastOp::Const);
            }
            Opcode::Auipc => {
                f.imm = pc.wrapping_add(imm << 12);
                writes(&mut f, FastOp::Const);
            }
            Opcode::Jal => {
                if let Some(i) = target(pc.wrapping_add(imm)) {
                    f.imm = i;
                    f.op = if rd0 { FastOp::J } else { FastOp::Jal };
                }
            }
            Opcode::Jalr => {
                f.op = if rd0 { FastOp::Jr } else { FastOp::Jalr };
            }
            Opcode::Beq | Opcode::Bne | Opcode::Blt | Opcode::Bge | Opcode::Bltu | Opcode::Bgeu => {
                if let Some(i) = target(pc.wrapping_add(imm)) {
                    f.imm = i;
                    f.op = match inst.op {
                        Opcode::Beq => FastOp::Beq,
                        Opcode::Bne => FastOp::Bne,
                        Opcode::Blt => FastOp::Blt,
                        Opcode::Bge => FastOp::Bge,
                        Opcode::Bltu => FastOp::Bltu,
                        _ => FastOp::Bgeu,
                    };
                }
            }
            Opcode::Lb | Opcode::Lh | Opcode::Lw | Opcode::Lbu | Opcode::Lhu => {
                if !rd0 {
                    f.op = match inst.op {
                        Opcode::Lb => FastOp::Lb,
                        Opcode::Lh => FastOp::Lh,
                        Opcode::Lw => FastOp::Lw,
                        Opcode::Lbu => FastOp::Lbu,
                        _ => FastOp::Lhu,
                    };
                }
            }
            Opcode::Sb => f.op = FastOp::Sb,
            Opcode::Sh => f.op = FastOp::Sh,
            Opcode::Sw => f.op = FastOp::Sw,
            Opcode::Flw => f.op = FastOp::Flw,
            Opcode::Fld => f.op = FastOp::Fld,
            Opcode::Fsw => f.op = FastOp::Fsw,
            Opcode::Fsd => f.op = FastOp::Fsd,
            Opcode::Csrrw
            | Opcode::Csrrs
            | Opcode::Csrrc
            | Opcode::Csrrwi
            | Opcode::Csrrsi
            | Opcode::Csrrci => {
                f.op = FastOp::Csr;
                f.imm = (inst.op as u32) << 16 | (inst.imm as u32 & 0xffff);
            }
            Opcode::LrW => f.op = FastOp::Lr,
            Opcode::ScW => f.op = FastOp::Sc,
            Opcode::AmoswapW
            | Opcode::AmoaddW
            | Opcode::AmoxorW
            | Opcode::AmoandW
            | Opcode::AmoorW
            | Opcode::AmominW
            | Opcode::AmomaxW
            | Opcode::AmominuW
            | Opcode::AmomaxuW => {
                f.op = FastOp::Amo;
                f.imm = match inst.op {
                    Opcode::AmoswapW => Amo::Swap,
                    Opcode::AmoaddW => Amo::Add,
                    Opcode::AmoxorW => Amo::Xor,
                    Opcode::AmoandW => Amo::And,
                    Opcode::AmoorW => Amo::Or,
                    Opcode::AmominW => Amo::Min,
                    Opcode::AmomaxW => Amo::Max,
                    Opcode::AmominuW => Amo::Minu,
                    _ => Amo::Maxu,
                } as u32;
            }
            op if matches!(op.spec().extension, Extension::F | Extension::D) => {
                f.op = FastOp::Fp;
                f.imm = op as u32 | (inst.rs3 as u32) << 8 | (inst.aux as u32) << 16;
                if let Some(host) = FastOp::host_float(op) {
                    if inst.aux == DYNAMIC_ROUNDING {
                        f.op = host;
                        f.imm |= 0xff << 24;
                    } else if inst.aux == 0 {
                        f.op = host;
                    }
                }
            }
            Opcode::Fence | Opcode::FenceTso | Opcode::FenceI => f.op = FastOp::Nop,
            op => {
                let alu = match op {
                    Opcode::Addi => FastOp::Addi,
                    Opcode::Slti => FastOp::Slti,
                    Opcode::Sltiu => FastOp::Sltiu,
                    Opcode::Xori => FastOp::Xori,
                    Opcode::Ori => FastOp::Ori,
                    Opcode::Andi => FastOp::Andi,
                    Opcode::Slli => FastOp::Slli,
                    Opcode::Srli => FastOp::Srli,
                    Opcode::Srai => FastOp::Srai,
                    Opcode::Add => FastOp::Add,
                    Opcode::Sub => FastOp::Sub,
                    Opcode::Sll => FastOp::Sll,
                    Opcode::Slt => FastOp::Slt,
                    Opcode::Sltu => FastOp::Sltu,
                    Opcode::Xor => FastOp::Xor,
                    Opcode::Srl => FastOp::Srl,
                    Opcode::Sra => FastOp::Sra,
                    Opcode::Or => FastOp::Or,
                    Opcode::And => FastOp::And,
                    Opcode::Mul => FastOp::Mul,
                    Opcode::Mulh
                    | Opcode::Mulhsu
                    | Opcode::Mulhu
                    | Opcode::Div
                    | Opcode::Divu
                    | Opcode::Rem
                    | Opcode::Remu => {
                        f.imm = match op {
                            Opcode::Mulh => MulDiv::Mulh,
                            Opcode::Mulhsu => MulDiv::Mulhsu,
                            Opcode::Mulhu => MulDiv::Mulhu,
                            Opcode::Div => MulDiv::Div,
                            Opcode::Divu => MulDiv::Divu,
                            Opcode::Rem => MulDiv::Rem,
                            _ => MulDiv::Remu,
                        } as u32;
                        FastOp::MulDiv
                    }
                    _ => return Fast::SLOW,
                };
                if matches!(alu, FastOp::Slli | FastOp::Srli | FastOp::Srai) {
                    f.imm = imm & 31;
                }
                writes(&mut f, alu);
            }
        }
        f
    }
}
