//! What each fast-loop operation does ([`step`]): a rule per form of the
//! core's operation table (`row!`, on the rows' semantics functions in
//! `semantics`), an arm per operation of its own form (`jal`, `jalr`,
//! `lr.w`, `sc.w` through `semantics`' functions with the loop's
//! [`semantics::Reach`], `FastReach`). An operation that cannot complete
//! the ordinary way returns [`Flow::Stop`] having changed nothing.

use isa_spec::{Inst, Opcode};

use super::Env;
use super::words::Words;
use crate::hart::context::Context;
use crate::hart::context_ops::{csr_op, fp_compute};
use crate::hart::csr::Identity;
use crate::hart::decode::{Fast, FastOp, for_each_fast_op};
use crate::hart::effects::Effects;
use crate::hart::fpu::{self, Arith, Compare};
use crate::hart::hardfloat;
use crate::hart::memory::PAGE_SHIFT;
use crate::hart::semantics;

/// Where the loop goes after an operation.
pub(super) enum Flow {
    /// To the next entry (the operation does not end its block).
    Next,
    /// To this entry, taking these extra cycles (an accumulator step): a
    /// control transfer, which ends its block.
    To(*const Fast, u64),
    /// Nowhere: the operation had no effect, the careful step runs it.
    Stop,
    /// To the F or D semantics of the careful step, out of line (the host
    /// FPU declined the operation, or it has no fast form), then as
    /// [`Flow::Next`] if it completed, else as [`Flow::Stop`]. A handler
    /// reaches them by a tail call (`handlers::fp_careful`), so that its
    /// own body holds no call and saves no registers.
    Fp,
}

/// Whether a store to `addr` may go the fast way: outside the range that
/// goes the careful way, and, while memory logs stores for undo (`U`), to a
/// page saved in this generation.
#[inline(always)]
fn store_ok<const U: bool>(env: &Env<'_>, addr: u32) -> bool {
    addr.wrapping_sub(env.store_base) >= env.store_len && undo_ok::<U>(env, addr)
}

#[inline(always)]
fn undo_ok<const U: bool>(env: &Env<'_>, addr: u32) -> bool {
    if !U {
        return true;
    }
    match env.undo {
        Some((saved_in, generation)) => {
            saved_in.get((addr >> PAGE_SHIFT) as usize) == Some(&generation)
        }
        None => true,
    }
}

/// Entry `i` of the table, when there is one.
#[inline(always)]
fn entry(env: &Env<'_>, i: usize) -> Option<*const Fast> {
    // SAFETY: `i` is below the table's length.
    (i < env.code_entries).then(|| unsafe { env.code.add(i) })
}

/// A jump to text index `i` (inside the table by construction; checked).
#[inline(always)]
fn jump(env: &Env<'_>, i: u32, extra: u64) -> Flow {
    match entry(env, i as usize) {
        Some(n) => Flow::To(n, extra),
        None => Flow::Stop,
    }
}

/// The fast loop's way to the next entry, memory and the reservations,
/// for the operations written once in `semantics` ([`semantics::Reach`]):
/// entry `e` of operation `OP` (`U`: memory logs stores for undo), which
/// stops for the careful step, having changed nothing, where the plain way
/// does not apply.
///
/// Built only in [`step`], under its contract: `mem` holds `env.mem_len`
/// words.
struct FastReach<'s, 'e, const OP: u8, const U: bool> {
    e: &'s Fast,
    ctx: &'s mut Context,
    mem: *mut [u8; 4],
    env: &'s mut Env<'e>,
}

impl<const OP: u8, const U: bool> semantics::Reach for FastReach<'_, '_, OP, U> {
    type To = *const Fast;
    type Stop = ();

    #[inline(always)]
    fn pc(&self) -> u32 {
        let i = (self.e as *const Fast as usize - self.env.code as usize) / size_of::<Fast>();
        self.env.base.wrapping_add(4 * i as u32)
    }

    #[inline(always)]
    fn write_rd(&mut self, v: u32) {
        match const { FastOp::ALL[OP as usize] } {
            // The jumps into x0.
            FastOp::J | FastOp::Jr => {}
            // A jump entry's `rd` is never x0 (see `Fast`).
            FastOp::Jal | FastOp::Jalr => self.ctx.x[self.e.rd.index()] = v,
            _ => {
                self.ctx.x[self.e.rd.index()] = v;
                self.ctx.x[0] = 0;
            }
        }
    }

    #[inline(always)]
    fn jal_to(&mut self) -> Result<*const Fast, ()> {
        // The target's text index, predecoded.
        entry(self.env, self.e.imm as usize).ok_or(())
    }

    #[inline(always)]
    fn land(&mut self, target: u32) -> Result<*const Fast, ()> {
        let i = target.wrapping_sub(self.env.base) as usize >> 2;
        if target & 3 != 0 {
            return Err(());
        }
        entry(self.env, i).ok_or(())
    }

    #[inline(always)]
    fn load_word(&mut self, addr: u32) -> Result<u32, ()> {
        // Aligned and in range, else the careful step faults.
        // SAFETY: `mem` holds `mem_len` words (built in `step`).
        unsafe { u32::load(self.mem, self.env.mem_len, addr) }.ok_or(())
    }

    #[inline(always)]
    fn reserve(&mut self, addr: u32) {
        self.env.reservations.reserve(self.env.index, addr);
        // A reservation is held now: stores go the careful way.
        self.env.store_base = 0;
        self.env.store_len = u32::MAX;
    }

    #[inline(always)]
    fn check_store_word(&mut self, addr: u32) -> Result<(), ()> {
        // Into the text (a code write if it stores): the careful way.
        if addr.wrapping_sub(self.env.code_base) < self.env.code_len
            || !undo_ok::<U>(self.env, addr)
        {
            return Err(());
        }
        // SAFETY: as in `load_word`.
        match unsafe { u32::load(self.mem, self.env.mem_len, addr) } {
            Some(_) => Ok(()),
            None => Err(()),
        }
    }

    #[inline(always)]
    fn take_reservation(&mut self, addr: u32) -> bool {
        self.env.reservations.take(self.env.index, addr)
    }

    #[inline(always)]
    fn store_word(&mut self, addr: u32, v: u32) -> Result<(), ()> {
        // SAFETY: as in `load_word`; `check_store_word` found the word.
        unsafe { u32::store(self.mem, self.env.mem_len, addr, v) };
        self.env.reservations.on_store(addr);
        Ok(())
    }
}

/// Where the loop goes after a control transfer of [`semantics::Reach`].
#[inline(always)]
fn to(r: Result<*const Fast, ()>) -> Flow {
    match r {
        Ok(n) => Flow::To(n, 0),
        Err(()) => Flow::Stop,
    }
}

/// An F or D instruction of a [`FastOp::Fp`] entry (or one the host FPU
/// declined), out of line (it is long): the careful step's semantics;
/// whether it completed (else it changed nothing: a fault). See
/// [`Flow::Fp`].
#[inline(never)]
pub(super) fn fp_call(ctx: &mut Context, e: &Fast) -> bool {
    let inst = Inst {
        op: Opcode::ALL[(e.imm & 0xff) as usize],
        rd: e.rd as u8,
        rs1: e.rs1 as u8,
        rs2: e.rs2 as u8,
        rs3: (e.imm >> 8) as u8,
        aux: (e.imm >> 16 & 0xff) as u8,
        imm: 0,
    };
    fp_compute::<false>(ctx, &inst, &mut Effects::default()).is_ok()
}

/// The CSR instruction of a [`FastOp::Csr`] entry, issued at cycle `now`
/// with the `instret` value given, out of line; whether it completed (else
/// it changed nothing: a fault).
#[inline(never)]
fn csr_call(ctx: &mut Context, id: &Identity, e: &Fast, now: u64, instret: u64) -> bool {
    let inst = Inst {
        op: Opcode::ALL[(e.imm >> 16 & 0xff) as usize],
        rd: e.rd as u8,
        rs1: e.rs1 as u8,
        rs2: 0,
        rs3: 0,
        aux: 0,
        imm: (e.imm & 0xffff) as i32,
    };
    csr_op::<false>(ctx, id, &inst, now, instret, &mut Effects::default()).is_ok()
}

/// F or D arithmetic on the host FPU when the rounding mode is
/// round-to-nearest-even and the host can decide it (`host` computes it),
/// else (or when the host declines) the careful step's semantics
/// ([`Flow::Fp`]).
#[inline(always)]
fn host_float(ctx: &mut Context, e: &Fast, host: impl FnOnce(&mut Context) -> Option<u64>) -> Flow {
    if (e.imm >> 24) as u8 & ctx.frm != 0 {
        return Flow::Fp;
    }
    match host(ctx) {
        Some(r) => {
            ctx.f[e.rd.index()] = r;
            Flow::Next
        }
        None => Flow::Fp,
    }
}

/// Runs operation `OP` on entry `e` (`B`: in blocks, for the CSRs'
/// view of the clock; `FMA`: the host's fused multiply-add may be
/// used; `U`: memory logs stores for undo): a table row or an operation
/// of its own form (the choice is made when compiling).
///
/// Safety: `e` is an entry of the table `env` describes and `mem`
/// its memory (see `Handler`).
#[inline(always)]
pub(super) unsafe fn step<const OP: u8, const B: bool, const FMA: bool, const U: bool>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    env: &mut Env<'_>,
) -> Flow {
    // SAFETY: the caller's contract.
    unsafe {
        if const { FastOp::ALL[OP as usize].form().is_some() } {
            step_row::<OP, FMA, U>(e, ctx, mem, env)
        } else {
            step_own::<OP, B, U>(e, ctx, mem, acc, env)
        }
    }
}

/// What [`step_row`] and [`step_own`] start from: the entry `$e` (from
/// its pointer), its `$rd`, its immediate `$imm`, `rs1`'s value `$rs1`,
/// the address `$rs1 + $imm` and the memory's length, and `rs2!()`, which
/// reads `rs2` where a step needs it. Lets in the caller's body (a macro,
/// so the loop's code is as if written in place).
macro_rules! operands {
    ($e:ident, $ctx:ident, $env:ident => $rd:ident, $imm:ident, $rs1:ident, $addr:ident, $len:ident) => {
        // SAFETY: the caller's contract.
        let $e = unsafe { &*$e };
        let $rd = $e.rd.index();
        let $imm = $e.imm;
        let $rs1 = $ctx.x[$e.rs1.index()];
        let $addr = $rs1.wrapping_add($imm);
        let $len = $env.mem_len;
        macro_rules! rs2 {
            () => {
                $ctx.x[$e.rs2.index()]
            };
        }
    };
}

/// [`step`] of a row of the table of operations, by its form.
///
/// Safety: as for [`step`].
#[inline(always)]
unsafe fn step_row<const OP: u8, const FMA: bool, const U: bool>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    env: &mut Env<'_>,
) -> Flow {
    operands!(e, ctx, env => rd, imm, rs1, addr, len);
    // A table row, by its form (`semantics::for_each_op!`).
    macro_rules! row {
        (AluRr ($f:ident)) => {
            ctx.x[rd] = semantics::$f(rs1, rs2!())
        };
        (AluRi ($f:ident)) => {
            ctx.x[rd] = semantics::$f(rs1, imm)
        };
        (Branch ($f:ident)) => {
            return if semantics::$f(rs1, rs2!()) {
                jump(env, imm, env.taken_extra)
            } else {
                // SAFETY: a branch is not the last entry (a `Slow` one).
                Flow::To(unsafe { (e as *const Fast).add(1) }, 0)
            }
        };
        // SAFETY (loads and stores): `mem` holds `len` words.
        (Load ($w:ident $f:ident)) => {
            match unsafe { <$w as Words>::load(mem, len, addr) } {
                Some(v) => ctx.x[rd] = semantics::$f(v),
                None => return Flow::Stop,
            }
        };
        (Store ($w:ident)) => {{
            let v = <$w as Words>::of_reg(rs2!() as u64);
            if !store_ok::<U>(env, addr) || !unsafe { <$w as Words>::store(mem, len, addr, v) } {
                return Flow::Stop;
            }
        }};
        (Amo ($f:ident)) => {{
            // Address rs1: the conditions of a store, and aligned.
            if !store_ok::<U>(env, rs1) {
                return Flow::Stop;
            }
            let Some(old) = (unsafe { u32::load(mem, len, rs1) }) else {
                return Flow::Stop;
            };
            let new = semantics::$f(old, rs2!());
            // SAFETY: the load found the word.
            unsafe { u32::store(mem, len, rs1, new) };
            ctx.x[rd] = old;
            ctx.x[0] = 0;
        }};
        (FpArith ($soft:ident $host:ident $op:ident)) => {
            return host_float(ctx, e, |ctx| {
                hardfloat::arith::<$host, FMA>(
                    Arith::$op,
                    ctx.f[e.rs1.index()],
                    ctx.f[e.rs2.index()],
                    ctx.f[(e.imm >> 8 & 31) as usize],
                    &mut ctx.fflags,
                )
            })
        };
        (FpSqrt ($soft:ident $host:ident)) => {
            return host_float(ctx, e, |ctx| {
                hardfloat::sqrt::<$host, FMA>(ctx.f[e.rs1.index()], &mut ctx.fflags)
            })
        };
    }
    macro_rules! arms {
        (
            own: $own:tt,
            pairs: $pairs:tt,
            rows: [$($form:ident $op:ident $args:tt,)*]
        ) => {
            match const { FastOp::ALL[OP as usize] } {
                $(FastOp::$op => row!($form $args),)*
                _ => unreachable!("step_row runs the table's rows"),
            }
        };
    }
    for_each_fast_op!(arms);
    Flow::Next
}

/// [`step`] of an operation of its own form (and of a fused pair's entry,
/// which runs as its halves).
///
/// Safety: as for [`step`].
///
/// Long: one match with an arm per operation of its own form.
#[inline(always)]
unsafe fn step_own<const OP: u8, const B: bool, const U: bool>(
    e: *const Fast,
    ctx: &mut Context,
    mem: *mut [u8; 4],
    acc: u64,
    env: &mut Env<'_>,
) -> Flow {
    operands!(e, ctx, env => rd, imm, rs1, addr, len);
    macro_rules! reach {
        () => {
            FastReach::<OP, U> {
                e,
                ctx: &mut *ctx,
                mem,
                env: &mut *env,
            }
        };
    }
    macro_rules! arms {
        (
            own: $own:tt,
            pairs: [$($pair:ident = $first:ident $second:ident),* $(,)?],
            rows: $rows:tt
        ) => {
            match const { FastOp::ALL[OP as usize] } {
                // Pairs run as their halves (see `handlers::pair`).
                $(FastOp::$pair)|* => return Flow::Stop,
                FastOp::Slow | FastOp::Stop => return Flow::Stop,
                FastOp::Nop => {}
                FastOp::Const => ctx.x[rd] = imm,
                FastOp::Jal | FastOp::J => return to(semantics::jal(&mut reach!())),
                FastOp::Jalr | FastOp::Jr => return to(semantics::jalr(&mut reach!(), rs1, imm)),
                FastOp::Flw => match unsafe { u32::load(mem, len, addr) } {
                    Some(v) => ctx.f[rd] = semantics::flw(v),
                    None => return Flow::Stop,
                },
                FastOp::Fld => match unsafe { u64::load(mem, len, addr) } {
                    Some(v) => ctx.f[rd] = v,
                    None => return Flow::Stop,
                },
                FastOp::Fsw => {
                    let v = semantics::fsw(ctx.f[e.rs2.index()]);
                    if !store_ok::<U>(env, addr) || !unsafe { u32::store(mem, len, addr, v) } {
                        return Flow::Stop;
                    }
                }
                FastOp::Fsd => {
                    let v = ctx.f[e.rs2.index()];
                    if !store_ok::<U>(env, addr) || !unsafe { u64::store(mem, len, addr, v) } {
                        return Flow::Stop;
                    }
                }
                FastOp::Fp => return Flow::Fp,
                FastOp::FsgnjD | FastOp::FsgnjnD | FastOp::FsgnjxD => {
                    let (a, b) = (ctx.f[e.rs1.index()], ctx.f[e.rs2.index()]);
                    ctx.f[rd] = match const { FastOp::ALL[OP as usize] } {
                        FastOp::FsgnjD => semantics::fsgnj_d(a, b),
                        FastOp::FsgnjnD => semantics::fsgnjn_d(a, b),
                        _ => semantics::fsgnjx_d(a, b),
                    };
                }
                FastOp::FmvXW => {
                    ctx.x[rd] = semantics::fmv_x_w(ctx.f[e.rs1.index()]);
                    ctx.x[0] = 0;
                }
                FastOp::FmvWX => ctx.f[rd] = semantics::fmv_w_x(rs1),
                FastOp::FcvtDW | FastOp::FcvtDWu => {
                    // Exact: any valid rounding mode (the entry's is
                    // round-to-nearest-even, or dynamic with bits 31:24 set:
                    // then `frm` must be a mode).
                    if imm >> 24 == 0 || fpu::round_mode(ctx.frm).is_some() {
                        ctx.f[rd] = if const { matches!(FastOp::ALL[OP as usize], FastOp::FcvtDW) } {
                            semantics::fcvt_d_w(rs1)
                        } else {
                            semantics::fcvt_d_wu(rs1)
                        };
                    } else {
                        return Flow::Fp;
                    }
                }
                FastOp::FeqD | FastOp::FltD | FastOp::FleD => {
                    let cmp = match const { FastOp::ALL[OP as usize] } {
                        FastOp::FeqD => Compare::Eq,
                        FastOp::FltD => Compare::Lt,
                        _ => Compare::Le,
                    };
                    let (a, b) = (ctx.f[e.rs1.index()], ctx.f[e.rs2.index()]);
                    // NaNs (and their flags) the careful step's way.
                    let Some(r) = semantics::fcmp_d(cmp, a, b) else {
                        return Flow::Fp;
                    };
                    ctx.x[rd] = r;
                    ctx.x[0] = 0;
                }
                FastOp::Csr => {
                    // The clock and instret at issue (a block's charge counts
                    // this instruction and the rest of its block).
                    let before = if B { acc.wrapping_sub(e.rest) } else { acc };
                    let now = env.clock_end - ((before as i64) >> 32) as u64;
                    let instret = env.instret_start + (before & 0xffff_ffff);
                    if !csr_call(ctx, env.id, e, now, instret) {
                        return Flow::Stop;
                    }
                }
                FastOp::Lr => {
                    if semantics::lr_w(&mut reach!(), rs1).is_err() {
                        return Flow::Stop;
                    }
                }
                FastOp::Sc => {
                    let rs2 = rs2!();
                    if semantics::sc_w(&mut reach!(), rs1, rs2).is_err() {
                        return Flow::Stop;
                    }
                }
                _ => unreachable!("step_own runs the operations of their own form"),
            }
        };
    }
    for_each_fast_op!(arms);
    Flow::Next
}
