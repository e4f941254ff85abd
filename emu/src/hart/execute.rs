//! The careful step: executes any instruction on a context and the tile
//! memory, with its trace effects and its exact fault, and reports what
//! stops the straight-line flow (faults, host calls, thread control,
//! messaging) as a [`Stop`]. Which unit executes an instruction comes from
//! the instruction table (`Opcode::executes`); the core's operations are
//! dispatched from the table of operations (`semantics::for_each_op!`,
//! whose forms are implemented here once, the fast loop implementing them
//! its own way); the operations of their own form are `semantics`'
//! functions, called with the careful step's way to memory, the
//! reservations and the next instruction ([`Careful`]).
//!
//! `TRACE` is a const parameter: with it false the effect recording compiles
//! away, so tracing costs nothing when off.

use isa_spec::{CoreOp, Executes, HostOp, HostService, Inst, ThreadOp};

use crate::fault::{Access, FaultCause};
use crate::hart::context::Context;
use crate::hart::context_ops;
use crate::hart::csr::Identity;
use crate::hart::effects::{Effects, Stop, write_f, write_x};
use crate::hart::memory::{Memory, Width};
use crate::hart::reservations::Reservations;
use crate::hart::semantics::{self, for_each_op};

/// A store and what every store implies: it breaks reservations on the
/// word, is recorded when tracing, and a store into the text stops the
/// straight-line flow (after the instruction) so the predecoded text is
/// refreshed.
macro_rules! store_then_check {
    ($trace:expr, $exec:ident, $ctx:expr, $fx:expr, $pc:expr, $addr:expr, $w:ty, $v:expr) => {{
        let v: $w = $v;
        <$w as Width>::store($exec.mem, $addr, v)?;
        $exec.reservations.on_store($addr);
        if $trace {
            $fx.store = Some(($addr, v.to_u64(), <$w as Width>::BYTES));
        }
        if $exec.mem.code_was_written() {
            $ctx.pc = $pc.wrapping_add(4);
            return Err(Stop::CodeWritten);
        }
    }};
}

/// Where the careful step sends an instruction it does not run inline.
enum OutOfLine {
    /// CSR accesses and atomics (`execute_rare`).
    Rare,
    /// F and D instructions (`execute_fp`).
    Fp,
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

/// The careful step's [`Careful`] for the instruction at `$pc` of the hart
/// `$hart` whose context is `$ctx` (borrowed from the hart apart), with
/// its effects `$fx`: one place for both of `Hart`'s execute functions,
/// written as a struct in place (a macro, not a function, for the split
/// borrows).
macro_rules! new_careful {
    ($hart:expr, $ctx:ident, $fx:ident, $rd:expr, $pc:expr, $imm:expr) => {
        Careful::<TRACE> {
            ctx: &mut *$ctx,
            mem: &mut *$hart.mem,
            reservations: &mut *$hart.reservations,
            index: $hart.index,
            fx: &mut *$fx,
            rd: $rd,
            pc: $pc,
            imm: $imm,
        }
    };
}

/// The careful step's way to the next instruction, memory and the
/// reservations, for the operations written once in `semantics`
/// ([`semantics::Reach`]): the next pc, faults and trace effects.
struct Careful<'c, const TRACE: bool> {
    ctx: &'c mut Context,
    mem: &'c mut Memory,
    reservations: &'c mut Reservations,
    index: usize,
    fx: &'c mut Effects,
    rd: usize,
    pc: u32,
    imm: u32,
}

impl<const TRACE: bool> semantics::Reach for Careful<'_, TRACE> {
    type To = u32;
    type Stop = Stop;

    #[inline(always)]
    fn pc(&self) -> u32 {
        self.pc
    }

    #[inline(always)]
    fn write_rd(&mut self, v: u32) {
        write_x!(TRACE, self.ctx, self.fx, self.rd, v)
    }

    #[inline(always)]
    fn jal_to(&mut self) -> Result<u32, Stop> {
        target_ok(semantics::jal_target(self.pc, self.imm))
    }

    #[inline(always)]
    fn land(&mut self, target: u32) -> Result<u32, Stop> {
        target_ok(target)
    }

    #[inline(always)]
    fn load_word(&mut self, addr: u32) -> Result<u32, Stop> {
        if addr & 3 != 0 {
            return Err(FaultCause::Misaligned {
                access: Access::Load,
                addr,
                width: 4,
            }
            .into());
        }
        Ok(self.mem.load_u32(addr)?)
    }

    #[inline(always)]
    fn reserve(&mut self, addr: u32) {
        self.reservations.reserve(self.index, addr);
    }

    #[inline(always)]
    fn check_store_word(&mut self, addr: u32) -> Result<(), Stop> {
        self.mem
            .load_u32(addr)
            .map_err(|c| c.with_access(Access::Store))?;
        Ok(())
    }

    #[inline(always)]
    fn take_reservation(&mut self, addr: u32) -> bool {
        self.reservations.take(self.index, addr)
    }

    #[inline(always)]
    fn store_word(&mut self, addr: u32, v: u32) -> Result<(), Stop> {
        self.mem.store_u32(addr, v)?;
        self.reservations.on_store(addr);
        if TRACE {
            self.fx.store = Some((addr, v as u64, 4));
        }
        Ok(())
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
    ///
    /// Long: one match over the table of operations' rows and the
    /// operations of their own form (an arm each).
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
        macro_rules! careful {
            () => {
                new_careful!(self, ctx, fx, rd, pc, imm)
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
            ($w:ty, $v:expr) => {
                store_then_check!(TRACE, self, ctx, fx, pc, addr, $w, $v)
            };
        }
        let op = match inst.op.executes() {
            Executes::Core(op) => op,
            Executes::Niu(_) => return Err(Stop::Messaging),
            Executes::Thread(ThreadOp::Endt) => return Err(Stop::EndThread),
            Executes::Thread(ThreadOp::Yield) => return Err(Stop::Yield),
            Executes::Thread(ThreadOp::Mret) => return Err(Stop::Return),
            Executes::Host(host) => return self.execute_host::<TRACE>(host, pc, now, fx),
        };
        // A table row, by its form (`semantics::for_each_op!`).
        macro_rules! row {
            (AluRr ($f:ident)) => {{
                wx!(semantics::$f(rs1, rs2));
                None
            }};
            (AluRi ($f:ident)) => {{
                wx!(semantics::$f(rs1, imm));
                None
            }};
            (Branch ($f:ident)) => {{
                branch!(semantics::$f(rs1, rs2));
                None
            }};
            (Load ($w:ident $f:ident)) => {{
                wx!(semantics::$f(<$w as Width>::load(self.mem, addr)?));
                if TRACE {
                    fx.load = Some((addr, <$w as Width>::BYTES));
                }
                None
            }};
            (Store ($w:ident)) => {{
                store!($w, <$w as Width>::of_reg(rs2 as u64));
                None
            }};
            (Amo $args:tt) => {
                Some(OutOfLine::Rare)
            };
            (FpArith $args:tt) => {
                Some(OutOfLine::Fp)
            };
            (FpSqrt $args:tt) => {
                Some(OutOfLine::Fp)
            };
        }
        // The table's rows, then the operations of their own form.
        macro_rules! dispatch {
            (rows: [$($form:ident $op:ident $args:tt,)*]) => {
                match op {
                    $(CoreOp::$op => row!($form $args),)*
                    CoreOp::LrW
                    | CoreOp::ScW
                    | CoreOp::Csrrw
                    | CoreOp::Csrrs
                    | CoreOp::Csrrc
                    | CoreOp::Csrrwi
                    | CoreOp::Csrrsi
                    | CoreOp::Csrrci => Some(OutOfLine::Rare),
                    CoreOp::Lui => {
                        wx!(imm << 12);
                        None
                    }
                    CoreOp::Auipc => {
                        wx!(pc.wrapping_add(imm << 12));
                        None
                    }
                    CoreOp::Jal => {
                        next = semantics::jal(&mut careful!())?;
                        None
                    }
                    CoreOp::Jalr => {
                        next = semantics::jalr(&mut careful!(), rs1, imm)?;
                        None
                    }
                    // One in-order pipeline per tile and no caches: fences
                    // order nothing.
                    CoreOp::Fence | CoreOp::FenceTso | CoreOp::FenceI => None,
                    // The F and D instructions, by the instruction table's
                    // extension (as the predecoder chooses the FP entries).
                    op if semantics::is_fd(op) => {
                        self.execute_fp::<TRACE>(inst, op, pc, fx)?;
                        return Ok((next, 0));
                    }
                    _ => unreachable!("{op:?}: a core operation of no form, not F or D"),
                }
            };
        }
        // The instructions run inline end here; the others (one value each
        // way, so that the dispatch's table has one target for them) go on
        // below.
        let Some(out_of_line) = for_each_op!(dispatch) else {
            ctx.x[0] = 0;
            return Ok((next, extra));
        };
        match out_of_line {
            OutOfLine::Rare => self.execute_rare::<TRACE>(inst, op, pc, now, retired, fx)?,
            OutOfLine::Fp => self.execute_fp::<TRACE>(inst, op, pc, fx)?,
        }
        Ok((next, 0))
    }

    /// A host call (`ecall`) or a breakpoint (`ebreak`, which may be a
    /// semihosting call): services that write guest memory run here,
    /// where the memory is held mutably; the others go to the tile.
    #[inline(always)]
    fn execute_host<const TRACE: bool>(
        &mut self,
        host: HostOp,
        pc: u32,
        now: u64,
        fx: &mut Effects,
    ) -> Result<(u32, u32), Stop> {
        let ctx = &mut *self.ctx;
        let next = pc.wrapping_add(4);
        match host {
            HostOp::Ecall => {
                ctx.outside += 1;
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
                Ok((next, 0))
            }
            HostOp::Ebreak => {
                if !crate::hart::semihost::is_call(self.mem, pc) {
                    return Err(FaultCause::Breakpoint.into());
                }
                ctx.outside += 1;
                crate::hart::semihost::call_in_hart::<TRACE>(
                    ctx,
                    self.mem,
                    fx,
                    now,
                    self.id.clock_hz,
                )?;
                if self.mem.code_was_written() {
                    ctx.pc = next;
                    return Err(Stop::CodeWritten);
                }
                ctx.x[0] = 0;
                Ok((next, 0))
            }
        }
    }

    /// CSR accesses and atomics: out of line, so that the step of the
    /// frequent instructions keeps its registers.
    #[inline(never)]
    fn execute_rare<const TRACE: bool>(
        &mut self,
        inst: &Inst,
        op: CoreOp,
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
        macro_rules! careful {
            () => {
                new_careful!(self, ctx, fx, rd, pc, inst.imm as u32)
            };
        }
        macro_rules! amo {
            ($f:expr) => {{
                if rs1 & 3 != 0 {
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

        // A table row: only the AMOs come here.
        macro_rules! row {
            (Amo ($f:ident)) => {
                amo!(semantics::$f)
            };
            ($form:ident $args:tt) => {
                unreachable!("execute_rare is called for CSR and atomic instructions only")
            };
        }
        macro_rules! dispatch {
            (rows: [$($form:ident $op:ident $args:tt,)*]) => {
                match op {
                    $(CoreOp::$op => row!($form $args),)*
                    CoreOp::Csrrw
                    | CoreOp::Csrrs
                    | CoreOp::Csrrc
                    | CoreOp::Csrrwi
                    | CoreOp::Csrrsi
                    | CoreOp::Csrrci => {
                        let instret = ctx.instret + retired;
                        return context_ops::csr_op::<TRACE>(ctx, self.id, inst, now, instret, fx);
                    }
                    CoreOp::LrW => semantics::lr_w(&mut careful!(), rs1)?,
                    CoreOp::ScW => {
                        let stored = semantics::sc_w(&mut careful!(), rs1, rs2)?;
                        if stored && self.mem.code_was_written() {
                            ctx.x[0] = 0;
                            ctx.pc = pc.wrapping_add(4);
                            return Err(Stop::CodeWritten);
                        }
                    }
                    _ => unreachable!("execute_rare is called for CSR and atomic instructions only"),
                }
            };
        }
        for_each_op!(dispatch);
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
        op: CoreOp,
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
            ($w:ty, $v:expr) => {
                store_then_check!(TRACE, self, ctx, fx, pc, addr, $w, $v)
            };
        }
        let f2 = ctx.f[inst.rs2 as usize & 31];
        match op {
            CoreOp::Flw => {
                wf!(semantics::flw(self.mem.load_u32(addr)?));
                if TRACE {
                    fx.load = Some((addr, 4));
                }
            }
            CoreOp::Fsw => store!(u32, semantics::fsw(f2)),
            CoreOp::Fld => {
                wf!(self.mem.load_u64(addr)?);
                if TRACE {
                    fx.load = Some((addr, 8));
                }
            }
            CoreOp::Fsd => store!(u64, f2),
            _ => return context_ops::fp_compute::<TRACE>(ctx, inst, fx),
        }
        ctx.x[0] = 0;
        Ok(())
    }
}
