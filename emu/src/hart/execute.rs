//! Instruction semantics: one `match` on [`Opcode`] that updates a context
//! and the tile memory, and reports what stops the straight-line flow
//! (faults, host calls, thread control, messaging) as a [`Stop`].
//!
//! `TRACE` is a const parameter: with it false the effect recording compiles
//! away, so tracing costs nothing when off.

use isa_spec::{CoreOp, Executes, HostOp, HostService, Inst, Opcode, ThreadOp};
use rustc_apfloat::ieee::{Double, Single};

use crate::fault::{Access, FaultCause};
use crate::hart::context::Context;
use crate::hart::csr::{self, Identity};
use crate::hart::effects::{Effects, Stop};
use crate::hart::fpu::{self, Arith, Compare, box_s, unbox_s};
use crate::hart::memory::Memory;
use crate::hart::reservations::Reservations;

/// Writes integer register `rd` and, when tracing, records the write
/// (callers re-zero `x0` after the instruction).
macro_rules! write_x {
    ($trace:expr, $ctx:expr, $fx:expr, $rd:expr, $v:expr) => {{
        let v: u32 = $v;
        $ctx.x[$rd] = v;
        if $trace && $rd != 0 {
            $fx.x = Some(($rd as u8, v));
        }
    }};
}

/// Writes FP register `rd` and, when tracing, records the write.
macro_rules! write_f {
    ($trace:expr, $ctx:expr, $fx:expr, $rd:expr, $v:expr) => {{
        let v: u64 = $v;
        $ctx.f[$rd] = v;
        if $trace {
            $fx.f = Some(($rd as u8, v));
        }
    }};
}

/// A store and what every store implies: it breaks reservations on the
/// word, is recorded when tracing, and a store into the text stops the
/// straight-line flow (after the instruction) so the predecoded text is
/// refreshed.
macro_rules! store_then_check {
    ($trace:expr, $exec:ident, $ctx:expr, $fx:expr, $pc:expr, $addr:expr, $method:ident, $v:expr, $w:literal) => {{
        let v = $v;
        $exec.mem.$method($addr, v)?;
        $exec.reservations.on_store($addr);
        if $trace {
            $fx.store = Some(($addr, v as u64, $w));
        }
        if $exec.mem.code_was_written() {
            $ctx.pc = $pc.wrapping_add(4);
            return Err(Stop::CodeWritten);
        }
    }};
}

/// What the executing context may see of its tile.
pub struct Hart<'a> {
    /// The context.
    pub ctx: &'a mut Context,
    /// Its number on the tile.
    pub index: usize,
    /// The tile's memory.
    pub mem: &'a mut Memory,
    /// The tile's reservations.
    pub reservations: &'a mut Reservations,
    /// Identity CSR values.
    pub id: &'a Identity,
    /// Extra cycles of a taken branch.
    pub branch_taken_extra: u32,
}

#[inline(always)]
fn target_ok(target: u32) -> Result<u32, Stop> {
    if target & 3 != 0 {
        Err(Stop::Fault(FaultCause::MisalignedTarget { target }))
    } else {
        Ok(target)
    }
}

impl Hart<'_> {
    /// Executes `inst` at `pc`; returns the next pc and the extra cycles it
    /// took beyond its decoded cost (a taken branch's). The caller keeps the
    /// pc (in a register) and `ctx.pc` is not written, except that with
    /// [`Stop::CodeWritten`] it holds the next pc.
    #[inline(always)]
    ///
    /// `now` is the tile cycle at issue, `retired` the instructions this
    /// context retired in the current slice beyond `ctx.instret` (the loop
    /// keeps both in registers).
    pub fn execute<const TRACE: bool>(
        &mut self,
        inst: &Inst,
        pc: u32,
        now: u64,
        retired: u64,
        fx: &mut Effects,
    ) -> Result<(u32, u32), Stop> {
        let ctx = &mut *self.ctx;
        // Register numbers are below 32 by construction; the masks let the
        // compiler drop the bounds checks.
        let rd = inst.rd as usize & 31;
        let rs1 = ctx.x[inst.rs1 as usize & 31];
        let rs2 = ctx.x[inst.rs2 as usize & 31];
        let imm = inst.imm as u32;
        let mut next = pc.wrapping_add(4);
        let mut extra = 0;

        macro_rules! wx {
            ($v:expr) => {
                write_x!(TRACE, ctx, fx, rd, $v)
            };
        }
        macro_rules! branch {
            ($cond:expr) => {{
                if $cond {
                    next = target_ok(pc.wrapping_add(imm))?;
                    extra = self.branch_taken_extra;
                    if TRACE {
                        fx.taken = true;
                    }
                }
            }};
        }
        let addr = rs1.wrapping_add(imm);
        macro_rules! store {
            ($method:ident, $v:expr, $w:literal) => {
                store_then_check!(TRACE, self, ctx, fx, pc, addr, $method, $v, $w)
            };
        }
        let op = match inst.op.executes() {
            Executes::Core(op) => op,
            Executes::Niu(_) => return Err(Stop::Messaging),
            Executes::Thread(ThreadOp::Endt) => return Err(Stop::EndThread),
            Executes::Thread(ThreadOp::Yield) => return Err(Stop::Yield),
            // Services that write guest memory run here, where the memory
            // is held mutably; the others go to the tile.
            Executes::Host(HostOp::Ecall) => {
                if HostService::from_number(ctx.x[17]) != Some(HostService::Read) {
                    return Err(Stop::HostCall);
                }
                let n = crate::hart::host::read(ctx, self.mem)?;
                write_x!(TRACE, ctx, fx, 10, n);
                if self.mem.code_was_written() {
                    ctx.pc = next;
                    return Err(Stop::CodeWritten);
                }
                ctx.x[0] = 0;
                return Ok((next, 0));
            }
            Executes::Host(HostOp::Ebreak) => {
                if !crate::hart::semihost::is_call(self.mem, pc) {
                    return Err(FaultCause::Breakpoint.into());
                }
                crate::hart::semihost::call_in_hart::<TRACE>(ctx, self.mem, fx)?;
                if self.mem.code_was_written() {
                    ctx.pc = next;
                    return Err(Stop::CodeWritten);
                }
                ctx.x[0] = 0;
                return Ok((next, 0));
            }
        };
        match op {
            CoreOp::Lui => wx!(imm << 12),
            CoreOp::Auipc => wx!(pc.wrapping_add(imm << 12)),
            CoreOp::Jal => {
                next = target_ok(pc.wrapping_add(imm))?;
                wx!(pc.wrapping_add(4))
            }
            CoreOp::Jalr => {
                next = target_ok(addr & !1)?;
                wx!(pc.wrapping_add(4))
            }
            CoreOp::Beq => branch!(rs1 == rs2),
            CoreOp::Bne => branch!(rs1 != rs2),
            CoreOp::Blt => branch!((rs1 as i32) < rs2 as i32),
            CoreOp::Bge => branch!((rs1 as i32) >= rs2 as i32),
            CoreOp::Bltu => branch!(rs1 < rs2),
            CoreOp::Bgeu => branch!(rs1 >= rs2),
            CoreOp::Lb => {
                wx!(self.mem.load_u8(addr)? as i8 as u32);
                if TRACE {
                    fx.load = Some((addr, 1));
                }
            }
            CoreOp::Lh => {
                wx!(self.mem.load_u16(addr)? as i16 as u32);
                if TRACE {
                    fx.load = Some((addr, 2));
                }
            }
            CoreOp::Lw => {
                wx!(self.mem.load_u32(addr)?);
                if TRACE {
                    fx.load = Some((addr, 4));
                }
            }
            CoreOp::Lbu => {
                wx!(self.mem.load_u8(addr)? as u32);
                if TRACE {
                    fx.load = Some((addr, 1));
                }
            }
            CoreOp::Lhu => {
                wx!(self.mem.load_u16(addr)? as u32);
                if TRACE {
                    fx.load = Some((addr, 2));
                }
            }
            CoreOp::Sb => store!(store_u8, rs2 as u8, 1),
            CoreOp::Sh => store!(store_u16, rs2 as u16, 2),
            CoreOp::Sw => store!(store_u32, rs2, 4),
            CoreOp::Addi => wx!(rs1.wrapping_add(imm)),
            CoreOp::Slti => wx!(((rs1 as i32) < inst.imm) as u32),
            CoreOp::Sltiu => wx!((rs1 < imm) as u32),
            CoreOp::Xori => wx!(rs1 ^ imm),
            CoreOp::Ori => wx!(rs1 | imm),
            CoreOp::Andi => wx!(rs1 & imm),
            CoreOp::Slli => wx!(rs1 << (imm & 31)),
            CoreOp::Srli => wx!(rs1 >> (imm & 31)),
            CoreOp::Srai => wx!(((rs1 as i32) >> (imm & 31)) as u32),
            CoreOp::Add => wx!(rs1.wrapping_add(rs2)),
            CoreOp::Sub => wx!(rs1.wrapping_sub(rs2)),
            CoreOp::Sll => wx!(rs1 << (rs2 & 31)),
            CoreOp::Slt => wx!(((rs1 as i32) < rs2 as i32) as u32),
            CoreOp::Sltu => wx!((rs1 < rs2) as u32),
            CoreOp::Xor => wx!(rs1 ^ rs2),
            CoreOp::Srl => wx!(rs1 >> (rs2 & 31)),
            CoreOp::Sra => wx!(((rs1 as i32) >> (rs2 & 31)) as u32),
            CoreOp::Or => wx!(rs1 | rs2),
            CoreOp::And => wx!(rs1 & rs2),
            // One in-order pipeline per tile and no caches: fences order nothing.
            CoreOp::Fence | CoreOp::FenceTso | CoreOp::FenceI => {}
            CoreOp::Mul => wx!(rs1.wrapping_mul(rs2)),
            CoreOp::Mulh => wx!(((rs1 as i32 as i64 * rs2 as i32 as i64) >> 32) as u32),
            CoreOp::Mulhsu => wx!(((rs1 as i32 as i64 * rs2 as i64) >> 32) as u32),
            CoreOp::Mulhu => wx!(((rs1 as u64 * rs2 as u64) >> 32) as u32),
            CoreOp::Csrrw
            | CoreOp::Csrrs
            | CoreOp::Csrrc
            | CoreOp::Csrrwi
            | CoreOp::Csrrsi
            | CoreOp::Csrrci
            | CoreOp::Div
            | CoreOp::Divu
            | CoreOp::Rem
            | CoreOp::Remu
            | CoreOp::LrW
            | CoreOp::ScW
            | CoreOp::AmoswapW
            | CoreOp::AmoaddW
            | CoreOp::AmoxorW
            | CoreOp::AmoandW
            | CoreOp::AmoorW
            | CoreOp::AmominW
            | CoreOp::AmomaxW
            | CoreOp::AmominuW
            | CoreOp::AmomaxuW => {
                self.execute_rare::<TRACE>(inst, pc, now, retired, fx)?;
                return Ok((next, 0));
            }
            CoreOp::Flw
            | CoreOp::Fsw
            | CoreOp::Fld
            | CoreOp::Fsd
            | CoreOp::FmaddS
            | CoreOp::FmsubS
            | CoreOp::FnmsubS
            | CoreOp::FnmaddS
            | CoreOp::FaddS
            | CoreOp::FsubS
            | CoreOp::FmulS
            | CoreOp::FdivS
            | CoreOp::FmaddD
            | CoreOp::FmsubD
            | CoreOp::FnmsubD
            | CoreOp::FnmaddD
            | CoreOp::FaddD
            | CoreOp::FsubD
            | CoreOp::FmulD
            | CoreOp::FdivD
            | CoreOp::FsqrtS
            | CoreOp::FsqrtD
            | CoreOp::FsgnjS
            | CoreOp::FsgnjnS
            | CoreOp::FsgnjxS
            | CoreOp::FsgnjD
            | CoreOp::FsgnjnD
            | CoreOp::FsgnjxD
            | CoreOp::FminS
            | CoreOp::FmaxS
            | CoreOp::FminD
            | CoreOp::FmaxD
            | CoreOp::FcvtWS
            | CoreOp::FcvtWuS
            | CoreOp::FcvtWD
            | CoreOp::FcvtWuD
            | CoreOp::FcvtSW
            | CoreOp::FcvtSWu
            | CoreOp::FcvtDW
            | CoreOp::FcvtDWu
            | CoreOp::FcvtSD
            | CoreOp::FcvtDS
            | CoreOp::FmvXW
            | CoreOp::FmvWX
            | CoreOp::FeqS
            | CoreOp::FltS
            | CoreOp::FleS
            | CoreOp::FeqD
            | CoreOp::FltD
            | CoreOp::FleD
            | CoreOp::FclassS
            | CoreOp::FclassD => {
                self.execute_fp::<TRACE>(inst, pc, fx)?;
                return Ok((next, 0));
            }
        }
        ctx.x[0] = 0;
        Ok((next, extra))
    }

    /// CSR accesses, divisions and atomics: out of line, so that the loop of
    /// the frequent instructions keeps its registers.
    #[inline(never)]
    fn execute_rare<const TRACE: bool>(
        &mut self,
        inst: &Inst,
        pc: u32,
        now: u64,
        retired: u64,
        fx: &mut Effects,
    ) -> Result<(), Stop> {
        let ctx = &mut *self.ctx;
        let rd = inst.rd as usize & 31;
        let rs1 = ctx.x[inst.rs1 as usize & 31];
        let rs2 = ctx.x[inst.rs2 as usize & 31];
        macro_rules! wx {
            ($v:expr) => {
                write_x!(TRACE, ctx, fx, rd, $v)
            };
        }
        macro_rules! amo {
            ($f:expr) => {{
                if addr_amo(rs1).is_err() {
                    return Err(FaultCause::Misaligned {
                        access: Access::Store,
                        addr: rs1,
                        width: 4,
                    }
                    .into());
                }
                let old = self
                    .mem
                    .load_u32(rs1)
                    .map_err(|c| c.with_access(Access::Store))?;
                let f: fn(u32, u32) -> u32 = $f;
                let new = f(old, rs2);
                self.mem.store_u32(rs1, new)?;
                self.reservations.on_store(rs1);
                if TRACE {
                    fx.store = Some((rs1, new as u64, 4));
                }
                wx!(old);
                if self.mem.code_was_written() {
                    ctx.x[0] = 0;
                    ctx.pc = pc.wrapping_add(4);
                    return Err(Stop::CodeWritten);
                }
            }};
        }

        match inst.op {
            Opcode::Csrrw
            | Opcode::Csrrs
            | Opcode::Csrrc
            | Opcode::Csrrwi
            | Opcode::Csrrsi
            | Opcode::Csrrci => {
                let instret = ctx.instret + retired;
                return csr_op::<TRACE>(ctx, self.id, inst, now, instret, fx);
            }
            Opcode::Div => wx!(if rs2 == 0 {
                u32::MAX
            } else {
                (rs1 as i32).wrapping_div(rs2 as i32) as u32
            }),
            Opcode::Divu => wx!(rs1.checked_div(rs2).unwrap_or(u32::MAX)),
            Opcode::Rem => wx!(if rs2 == 0 {
                rs1
            } else {
                (rs1 as i32).wrapping_rem(rs2 as i32) as u32
            }),
            Opcode::Remu => wx!(if rs2 == 0 { rs1 } else { rs1 % rs2 }),
            Opcode::LrW => {
                if rs1 & 3 != 0 {
                    return Err(FaultCause::Misaligned {
                        access: Access::Load,
                        addr: rs1,
                        width: 4,
                    }
                    .into());
                }
                let v = self.mem.load_u32(rs1)?;
                self.reservations.reserve(self.index, rs1);
                wx!(v)
            }
            Opcode::ScW => {
                // Check the address even when the store will not happen.
                self.mem
                    .load_u32(rs1)
                    .map_err(|c| c.with_access(Access::Store))?;
                if self.reservations.take(self.index, rs1) {
                    self.mem.store_u32(rs1, rs2)?;
                    self.reservations.on_store(rs1);
                    if TRACE {
                        fx.store = Some((rs1, rs2 as u64, 4));
                    }
                    wx!(0);
                    if self.mem.code_was_written() {
                        ctx.x[0] = 0;
                        ctx.pc = pc.wrapping_add(4);
                        return Err(Stop::CodeWritten);
                    }
                } else {
                    wx!(1)
                }
            }
            Opcode::AmoswapW => amo!(|_, b| b),
            Opcode::AmoaddW => amo!(|a, b| a.wrapping_add(b)),
            Opcode::AmoxorW => amo!(|a, b| a ^ b),
            Opcode::AmoandW => amo!(|a, b| a & b),
            Opcode::AmoorW => amo!(|a, b| a | b),
            Opcode::AmominW => amo!(|a, b| (a as i32).min(b as i32) as u32),
            Opcode::AmomaxW => amo!(|a, b| (a as i32).max(b as i32) as u32),
            Opcode::AmominuW => amo!(|a, b| a.min(b)),
            Opcode::AmomaxuW => amo!(|a, b| a.max(b)),
            _ => unreachable!(
                "execute_rare is called for CSR, division and atomic instructions only"
            ),
        }
        ctx.x[0] = 0;
        Ok(())
    }

    /// The F and D instructions (kept out of line so that the integer
    /// instructions' loop keeps its registers): the loads and stores here,
    /// the rest in [`fp_compute`].
    #[inline(never)]
    fn execute_fp<const TRACE: bool>(
        &mut self,
        inst: &Inst,
        pc: u32,
        fx: &mut Effects,
    ) -> Result<(), Stop> {
        let ctx = &mut *self.ctx;
        let rd = inst.rd as usize & 31;
        let rs1 = ctx.x[inst.rs1 as usize & 31];
        let addr = rs1.wrapping_add(inst.imm as u32);
        macro_rules! wf {
            ($v:expr) => {
                write_f!(TRACE, ctx, fx, rd, $v)
            };
        }
        macro_rules! store {
            ($method:ident, $v:expr, $w:literal) => {
                store_then_check!(TRACE, self, ctx, fx, pc, addr, $method, $v, $w)
            };
        }
        let f2 = ctx.f[inst.rs2 as usize & 31];
        match inst.op {
            Opcode::Flw => {
                wf!(box_s(self.mem.load_u32(addr)?));
                if TRACE {
                    fx.load = Some((addr, 4));
                }
            }
            Opcode::Fsw => store!(store_u32, f2 as u32, 4),
            Opcode::Fld => {
                wf!(self.mem.load_u64(addr)?);
                if TRACE {
                    fx.load = Some((addr, 8));
                }
            }
            Opcode::Fsd => store!(store_u64, f2, 8),
            _ => return fp_compute::<TRACE>(ctx, inst, fx),
        }
        ctx.x[0] = 0;
        Ok(())
    }
}

/// The F and D instructions that touch no memory (all but the loads and
/// stores): they read and write only the context. On an error nothing has
/// changed.
pub(crate) fn fp_compute<const TRACE: bool>(
    ctx: &mut Context,
    inst: &Inst,
    fx: &mut Effects,
) -> Result<(), Stop> {
    let rd = inst.rd as usize & 31;
    let rs1 = ctx.x[inst.rs1 as usize & 31];
    macro_rules! wx {
        ($v:expr) => {
            write_x!(TRACE, ctx, fx, rd, $v)
        };
    }
    macro_rules! wf {
        ($v:expr) => {
            write_f!(TRACE, ctx, fx, rd, $v)
        };
    }
    macro_rules! rm {
        () => {{
            let bits = if inst.aux == 7 { ctx.frm } else { inst.aux };
            match fpu::round_mode(bits) {
                Some(rm) => rm,
                None => return Err(FaultCause::InvalidRoundingMode { frm: ctx.frm }.into()),
            }
        }};
    }
    let f1 = ctx.f[inst.rs1 as usize & 31];
    let f2 = ctx.f[inst.rs2 as usize & 31];
    let f3 = ctx.f[inst.rs3 as usize & 31];
    let flags_before = ctx.fflags;
    macro_rules! arith_s {
        ($op:expr) => {{
            let rm = rm!();
            let r = fpu::arith::<Single>(
                $op,
                unbox_s(f1) as u64,
                unbox_s(f2) as u64,
                unbox_s(f3) as u64,
                rm,
                &mut ctx.fflags,
            );
            wf!(box_s(r as u32))
        }};
    }
    macro_rules! arith_d {
        ($op:expr) => {{
            let rm = rm!();
            let r = fpu::arith::<Double>($op, f1, f2, f3, rm, &mut ctx.fflags);
            wf!(r)
        }};
    }
    match inst.op {
        Opcode::FmaddS => arith_s!(Arith::Madd),
        Opcode::FmsubS => arith_s!(Arith::Msub),
        Opcode::FnmsubS => arith_s!(Arith::Nmsub),
        Opcode::FnmaddS => arith_s!(Arith::Nmadd),
        Opcode::FaddS => arith_s!(Arith::Add),
        Opcode::FsubS => arith_s!(Arith::Sub),
        Opcode::FmulS => arith_s!(Arith::Mul),
        Opcode::FdivS => arith_s!(Arith::Div),
        Opcode::FmaddD => arith_d!(Arith::Madd),
        Opcode::FmsubD => arith_d!(Arith::Msub),
        Opcode::FnmsubD => arith_d!(Arith::Nmsub),
        Opcode::FnmaddD => arith_d!(Arith::Nmadd),
        Opcode::FaddD => arith_d!(Arith::Add),
        Opcode::FsubD => arith_d!(Arith::Sub),
        Opcode::FmulD => arith_d!(Arith::Mul),
        Opcode::FdivD => arith_d!(Arith::Div),
        Opcode::FsqrtS => {
            let rm = rm!();
            let r = fpu::sqrt::<Single>(unbox_s(f1) as u64, rm, &mut ctx.fflags);
            wf!(box_s(r as u32))
        }
        Opcode::FsqrtD => {
            let rm = rm!();
            wf!(fpu::sqrt::<Double>(f1, rm, &mut ctx.fflags))
        }
        Opcode::FsgnjS | Opcode::FsgnjnS | Opcode::FsgnjxS => {
            let kind = (inst.op as u8) - (Opcode::FsgnjS as u8);
            let r = fpu::sign_inject(32, kind, unbox_s(f1) as u64, unbox_s(f2) as u64);
            wf!(box_s(r as u32))
        }
        Opcode::FsgnjD | Opcode::FsgnjnD | Opcode::FsgnjxD => {
            let kind = (inst.op as u8) - (Opcode::FsgnjD as u8);
            wf!(fpu::sign_inject(64, kind, f1, f2))
        }
        Opcode::FminS | Opcode::FmaxS => {
            let r = fpu::min_max::<Single>(
                inst.op == Opcode::FmaxS,
                unbox_s(f1) as u64,
                unbox_s(f2) as u64,
                &mut ctx.fflags,
            );
            wf!(box_s(r as u32))
        }
        Opcode::FminD | Opcode::FmaxD => {
            wf!(fpu::min_max::<Double>(
                inst.op == Opcode::FmaxD,
                f1,
                f2,
                &mut ctx.fflags
            ))
        }
        Opcode::FcvtWS | Opcode::FcvtWuS => {
            let rm = rm!();
            let signed = inst.op == Opcode::FcvtWS;
            wx!(fpu::to_int::<Single>(
                unbox_s(f1) as u64,
                signed,
                rm,
                &mut ctx.fflags
            ))
        }
        Opcode::FcvtWD | Opcode::FcvtWuD => {
            let rm = rm!();
            let signed = inst.op == Opcode::FcvtWD;
            wx!(fpu::to_int::<Double>(f1, signed, rm, &mut ctx.fflags))
        }
        Opcode::FcvtSW | Opcode::FcvtSWu => {
            let rm = rm!();
            let signed = inst.op == Opcode::FcvtSW;
            let r = fpu::from_int::<Single>(rs1, signed, rm, &mut ctx.fflags);
            wf!(box_s(r as u32))
        }
        Opcode::FcvtDW | Opcode::FcvtDWu => {
            let rm = rm!();
            let signed = inst.op == Opcode::FcvtDW;
            wf!(fpu::from_int::<Double>(rs1, signed, rm, &mut ctx.fflags))
        }
        Opcode::FcvtSD => {
            let rm = rm!();
            let r = fpu::convert::<Double, Single>(f1, rm, &mut ctx.fflags);
            wf!(box_s(r as u32))
        }
        Opcode::FcvtDS => {
            let rm = rm!();
            wf!(fpu::convert::<Single, Double>(
                unbox_s(f1) as u64,
                rm,
                &mut ctx.fflags
            ))
        }
        Opcode::FmvXW => wx!(f1 as u32),
        Opcode::FmvWX => wf!(box_s(rs1)),
        Opcode::FeqS | Opcode::FltS | Opcode::FleS => {
            let cmp = match inst.op {
                Opcode::FeqS => Compare::Eq,
                Opcode::FltS => Compare::Lt,
                _ => Compare::Le,
            };
            wx!(fpu::compare::<Single>(
                cmp,
                unbox_s(f1) as u64,
                unbox_s(f2) as u64,
                &mut ctx.fflags
            ))
        }
        Opcode::FeqD | Opcode::FltD | Opcode::FleD => {
            let cmp = match inst.op {
                Opcode::FeqD => Compare::Eq,
                Opcode::FltD => Compare::Lt,
                _ => Compare::Le,
            };
            wx!(fpu::compare::<Double>(cmp, f1, f2, &mut ctx.fflags))
        }
        Opcode::FclassS => wx!(fpu::classify::<Single>(unbox_s(f1) as u64)),
        Opcode::FclassD => wx!(fpu::classify::<Double>(f1)),
        _ => unreachable!("fp_compute is called for F and D instructions only"),
    }
    ctx.x[0] = 0;
    if TRACE && ctx.fflags != flags_before {
        fx.fflags = Some(ctx.fflags);
    }
    Ok(())
}

/// A CSR instruction: it reads and writes only the context (`now` is the
/// tile cycle at issue, `instret` the context's `instret` CSR value). On an
/// error nothing has changed.
pub(crate) fn csr_op<const TRACE: bool>(
    ctx: &mut Context,
    id: &Identity,
    inst: &Inst,
    now: u64,
    instret: u64,
    fx: &mut Effects,
) -> Result<(), Stop> {
    let rd = inst.rd as usize & 31;
    let rs1 = ctx.x[inst.rs1 as usize & 31];
    let number = inst.imm as u16;
    let operand = match inst.op {
        Opcode::Csrrw | Opcode::Csrrs | Opcode::Csrrc => rs1,
        _ => inst.rs1 as u32,
    };
    let old = csr::read(ctx, id, now, instret, number)?;
    let new = match inst.op {
        Opcode::Csrrw | Opcode::Csrrwi => Some(operand),
        // csrrs/csrrc with x0 (or uimm 0) read without writing.
        _ if inst.rs1 == 0 => None,
        Opcode::Csrrs | Opcode::Csrrsi => Some(old | operand),
        _ => Some(old & !operand),
    };
    if let Some(new) = new {
        let (frm_before, flags_before) = (ctx.frm, ctx.fflags);
        csr::write(ctx, number, new)?;
        if TRACE && ctx.frm != frm_before {
            fx.frm = Some(ctx.frm);
        }
        if TRACE && ctx.fflags != flags_before {
            fx.fflags = Some(ctx.fflags);
        }
    }
    ctx.x[rd] = old;
    if TRACE && rd != 0 {
        fx.x = Some((rd as u8, old));
    }
    ctx.x[0] = 0;
    Ok(())
}

#[inline(always)]
fn addr_amo(addr: u32) -> Result<(), ()> {
    if addr & 3 == 0 { Ok(()) } else { Err(()) }
}
