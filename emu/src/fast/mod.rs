//! The untraced fast loop: runs a context's frequent instructions from the
//! [`Fast`] table with the pc (as a position in the table), the clock and
//! the retired count in registers, and returns to the general interpreter
//! (`Tile::run_slice`) for everything else.
//!
//! The rule that keeps it exact: an instruction the loop cannot complete
//! the ordinary way (a fault, a store into the text, a store while a
//! reservation is held, a pc outside the table, any [`FastOp::Slow`] word)
//! is left with no effect at all, and the loop returns with the pc on it;
//! the general interpreter then runs that instruction as it always does.
//! So the loop only has to agree with `Hart::execute` on the ordinary case
//! (the FP and CSR instructions even run the same code, `fp_compute` and
//! `csr_op`, which change nothing when they fail).
//!
//! The loop is compiled twice: without calls (the integer, memory, AMO and
//! jump instructions; it returns for FP arithmetic, CSR, LR and SC) and
//! with them; a slice switches to the second at the first instruction that
//! needs it, because calls in the loop cost the other instructions
//! registers. The context, the memory words, the reservations and the table
//! are separate arguments so that the compiler knows they do not alias.

mod cursor;

use isa_spec::{Inst, Opcode};

use crate::context::Context;
use crate::csr::Identity;
use crate::decode::{Amo, Fast, FastOp, MulDiv, StopKind};
use crate::execute::{Effects, Reservations, Stop, csr_op, fp_compute};
use crate::fpu::{Arith, box_s};
use crate::hardfloat::{self, host_has_fma};
use cursor::Cursor;

/// The state the loop carries, in and out.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastState {
    /// Program counter.
    pub pc: u32,
    /// Tile cycle.
    pub clock: u64,
    /// Instructions retired in the slice.
    pub retired: u64,
}

/// Why the loop returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FastExit {
    /// The clock reached the slice end.
    End,
    /// The instruction at the pc is for the general interpreter.
    Slow,
}

/// Where the text lies and which stores must go the general way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FastEnv {
    /// Address of the first text word.
    pub base: u32,
    /// Stores to `store_base..store_base + store_len` (wrapping) go the
    /// general way: the range the memory notes as code writes, or all of
    /// memory while an LR reservation is held (the general way breaks it).
    pub store_base: u32,
    /// Length of that range.
    pub store_len: u32,
    /// Extra cycles of a taken branch.
    pub taken_extra: u32,
}

/// The most cycles one call runs (the accumulator's high half is an i32);
/// small in tests, so that they exercise a call that stops short of `end`.
const MAX_BUDGET: u64 = if cfg!(test) { 1000 } else { i32::MAX as u64 };

/// Runs from `state` until the clock reaches `end` (or has advanced by
/// [`MAX_BUDGET`] cycles, after which the caller calls again) or an instruction
/// needs the general interpreter. `x[0]` is zero and stays so (an entry
/// that may write it zeroes it again). `mem` is the tile memory as
/// little-endian words (at most 2 GiB); `id` the identity CSRs; `index` the
/// context's number (its reservation).
///
/// `CALLS`: whether the loop runs [`FastOp::Fp`] and [`FastOp::Csr`]
/// entries (through calls out of line) and [`FastOp::Lr`] and
/// [`FastOp::Sc`] ones, or returns for them. Calls in the loop cost the
/// other instructions registers, so a slice starts without them (see
/// [`needs_calls`]). With them, LR/SC change the reservations during the
/// loop, so stores and AMOs look at `reservations` (and `env`'s store range
/// is the text alone); without, `env` says it all.
///
/// With calls, the loop is compiled once more with the host's fused
/// multiply-add (see [`crate::hardfloat`]), and that one runs when the CPU
/// has it.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(crate) fn run<const CALLS: bool>(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    if CALLS && host_has_fma() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has the instructions the feature enables.
        return unsafe { run_with_fma(ctx, index, id, reservations, mem, code, env, state, end) };
        #[cfg(not(target_arch = "x86_64"))]
        return run_loop::<true, true>(ctx, index, id, reservations, mem, code, env, state, end);
    }
    run_loop::<CALLS, false>(ctx, index, id, reservations, mem, code, env, state, end)
}

/// [`run`] with calls, compiled for CPUs with the fused multiply-add.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
#[allow(clippy::too_many_arguments)]
fn run_with_fma(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    run_loop::<true, true>(ctx, index, id, reservations, mem, code, env, state, end)
}

/// The loop of [`run`]; `FMA`: whether it may use the host's fused
/// multiply-add (only in code compiled with the feature).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run_loop<const CALLS: bool, const FMA: bool>(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    code: &[Fast],
    env: &FastEnv,
    state: &mut FastState,
    end: u64,
) -> FastExit {
    if state.clock >= end {
        return FastExit::End;
    }
    let base = env.base;
    let start = state.pc.wrapping_sub(base) as usize >> 2;
    let Some(mut cursor) = Cursor::new(code, start) else {
        // Outside the table (where only a `jalr` goes).
        return FastExit::Slow;
    };
    // One register counts both: the high half is the cycles left minus one
    // (so that it is negative once the slice's cycles are spent), the low
    // half the instructions retired. Each instruction adds its
    // `Fast::step`: its cycles off the high half, one to the low half (at
    // most 2^31 per call, no carry). The sign of the sum ends the run, and
    // it is not negative whenever the loop returns for another reason, so
    // the exit needs no variable of its own.
    let budget = (end - state.clock).min(MAX_BUDGET);
    let mut acc = (budget - 1) << 32;
    macro_rules! retire {
        ($step:expr) => {
            acc = acc.wrapping_add($step);
            if (acc as i64) < 0 {
                break;
            }
        };
    }
    loop {
        let e = cursor.take();
        let rd = e.rd.index();
        let imm = e.imm;
        macro_rules! rs1 {
            () => {
                ctx.x[e.rs1.index()]
            };
        }
        macro_rules! rs2 {
            () => {
                ctx.x[e.rs2.index()]
            };
        }
        macro_rules! addr {
            () => {
                rs1!().wrapping_add(imm)
            };
        }
        // A jump to text index `$to`, known to be inside the table.
        macro_rules! jump {
            ($to:expr, $step:expr) => {{
                if !cursor.jump($to as usize) {
                    break;
                }
                retire!($step);
                continue;
            }};
        }
        // The text index of a `jalr` target, when it is aligned and in
        // the table (else the general interpreter runs the `jalr`).
        macro_rules! jalr_target {
            () => {{
                let target = addr!() & !1;
                let i = target.wrapping_sub(base) as usize >> 2;
                if target & 3 != 0 || i >= code.len() {
                    break;
                }
                i
            }};
        }
        macro_rules! branch {
            ($cond:expr) => {
                if $cond {
                    jump!(imm, e.step.wrapping_sub((env.taken_extra as u64) << 32))
                }
            };
        }
        macro_rules! load {
            ($v:expr) => {
                match $v {
                    Some(v) => ctx.x[rd] = v,
                    None => break,
                }
            };
        }
        // Whether a store to `addr` may go the fast way.
        macro_rules! store_check {
            () => {
                if addr!().wrapping_sub(env.store_base) < env.store_len
                    || (CALLS && !reservations.is_empty())
                {
                    break;
                }
            };
        }
        // The word holding `addr`, for a store that may go the fast way.
        macro_rules! store_word {
            ($index:expr) => {{
                store_check!();
                match mem.get_mut($index as usize) {
                    Some(w) => w,
                    None => break,
                }
            }};
        }
        // An F or D operation on the host FPU when the rounding mode is
        // round-to-nearest-even and the host can decide it, else (or when
        // the host declines) the general code out of line.
        macro_rules! host_float {
            ($host:expr) => {{
                if !CALLS {
                    break;
                }
                let done = (e.imm >> 24) as u8 & ctx.frm == 0
                    && match $host {
                        Some(r) => {
                            ctx.f[rd] = r;
                            true
                        }
                        None => false,
                    };
                if !done && !fp_call(ctx, e) {
                    break;
                }
            }};
        }
        macro_rules! host_arith {
            ($t:ty, $op:expr) => {{
                host_float!(hardfloat::arith::<$t, FMA>(
                    $op,
                    ctx.f[e.rs1.index()],
                    ctx.f[e.rs2.index()],
                    ctx.f[(e.imm >> 8 & 31) as usize],
                    &mut ctx.fflags,
                ))
            }};
        }
        match e.op {
            FastOp::Slow | FastOp::Stop => break,
            FastOp::FaddS => host_arith!(f32, Arith::Add),
            FastOp::FsubS => host_arith!(f32, Arith::Sub),
            FastOp::FmulS => host_arith!(f32, Arith::Mul),
            FastOp::FdivS => host_arith!(f32, Arith::Div),
            FastOp::FmaddS => host_arith!(f32, Arith::Madd),
            FastOp::FmsubS => host_arith!(f32, Arith::Msub),
            FastOp::FnmsubS => host_arith!(f32, Arith::Nmsub),
            FastOp::FnmaddS => host_arith!(f32, Arith::Nmadd),
            FastOp::FsqrtS => host_float!(hardfloat::sqrt::<f32, FMA>(
                ctx.f[e.rs1.index()],
                &mut ctx.fflags
            )),
            FastOp::FaddD => host_arith!(f64, Arith::Add),
            FastOp::FsubD => host_arith!(f64, Arith::Sub),
            FastOp::FmulD => host_arith!(f64, Arith::Mul),
            FastOp::FdivD => host_arith!(f64, Arith::Div),
            FastOp::FmaddD => host_arith!(f64, Arith::Madd),
            FastOp::FmsubD => host_arith!(f64, Arith::Msub),
            FastOp::FnmsubD => host_arith!(f64, Arith::Nmsub),
            FastOp::FnmaddD => host_arith!(f64, Arith::Nmadd),
            FastOp::FsqrtD => host_float!(hardfloat::sqrt::<f64, FMA>(
                ctx.f[e.rs1.index()],
                &mut ctx.fflags
            )),
            FastOp::Nop => {}
            FastOp::Const => ctx.x[rd] = imm,
            FastOp::Jal => {
                ctx.x[rd] = pc_of(base, &cursor);
                jump!(imm, e.step)
            }
            FastOp::J => jump!(imm, e.step),
            FastOp::Jalr => {
                let i = jalr_target!();
                ctx.x[rd] = pc_of(base, &cursor);
                jump!(i, e.step)
            }
            FastOp::Jr => jump!(jalr_target!(), e.step),
            FastOp::Beq => branch!(rs1!() == rs2!()),
            FastOp::Bne => branch!(rs1!() != rs2!()),
            FastOp::Blt => branch!((rs1!() as i32) < rs2!() as i32),
            FastOp::Bge => branch!((rs1!() as i32) >= rs2!() as i32),
            FastOp::Bltu => branch!(rs1!() < rs2!()),
            FastOp::Bgeu => branch!(rs1!() >= rs2!()),
            FastOp::Lb => load!(load8(mem, addr!()).map(|b| b as i8 as u32)),
            FastOp::Lbu => load!(load8(mem, addr!()).map(|b| b as u32)),
            FastOp::Lh => load!(load16(mem, addr!()).map(|h| h as i16 as u32)),
            FastOp::Lhu => load!(load16(mem, addr!()).map(|h| h as u32)),
            FastOp::Lw => load!(
                mem.get(addr!().rotate_right(2) as usize)
                    .map(|w| u32::from_le_bytes(*w))
            ),
            FastOp::Sb => store_word!(addr!() >> 2)[addr!() as usize & 3] = rs2!() as u8,
            FastOp::Sh => {
                // Rotating moves a misaligned address's low bit to the top,
                // beyond any word index.
                let w = store_word!(addr!().rotate_right(1) >> 1);
                let [lo, hi] = (rs2!() as u16).to_le_bytes();
                let i = addr!() as usize & 2;
                w[i] = lo;
                w[i + 1] = hi;
            }
            FastOp::Sw => *store_word!(addr!().rotate_right(2)) = rs2!().to_le_bytes(),
            FastOp::Addi => ctx.x[rd] = addr!(),
            FastOp::Slti => ctx.x[rd] = ((rs1!() as i32) < imm as i32) as u32,
            FastOp::Sltiu => ctx.x[rd] = (rs1!() < imm) as u32,
            FastOp::Xori => ctx.x[rd] = rs1!() ^ imm,
            FastOp::Ori => ctx.x[rd] = rs1!() | imm,
            FastOp::Andi => ctx.x[rd] = rs1!() & imm,
            FastOp::Slli => ctx.x[rd] = rs1!() << (imm & 31),
            FastOp::Srli => ctx.x[rd] = rs1!() >> (imm & 31),
            FastOp::Srai => ctx.x[rd] = ((rs1!() as i32) >> (imm & 31)) as u32,
            FastOp::Add => ctx.x[rd] = rs1!().wrapping_add(rs2!()),
            FastOp::Sub => ctx.x[rd] = rs1!().wrapping_sub(rs2!()),
            FastOp::Sll => ctx.x[rd] = rs1!() << (rs2!() & 31),
            FastOp::Slt => ctx.x[rd] = ((rs1!() as i32) < rs2!() as i32) as u32,
            FastOp::Sltu => ctx.x[rd] = (rs1!() < rs2!()) as u32,
            FastOp::Xor => ctx.x[rd] = rs1!() ^ rs2!(),
            FastOp::Srl => ctx.x[rd] = rs1!() >> (rs2!() & 31),
            FastOp::Sra => ctx.x[rd] = ((rs1!() as i32) >> (rs2!() & 31)) as u32,
            FastOp::Or => ctx.x[rd] = rs1!() | rs2!(),
            FastOp::And => ctx.x[rd] = rs1!() & rs2!(),
            FastOp::Mul => ctx.x[rd] = rs1!().wrapping_mul(rs2!()),
            FastOp::MulDiv => ctx.x[rd] = mul_div(imm, rs1!(), rs2!()),
            FastOp::Flw => match mem.get(addr!().rotate_right(2) as usize) {
                Some(w) => ctx.f[rd] = box_s(u32::from_le_bytes(*w)),
                None => break,
            },
            FastOp::Fld => match load64(mem, addr!()) {
                Some(v) => ctx.f[rd] = v,
                None => break,
            },
            FastOp::Fsw => {
                let v = ctx.f[e.rs2.index()] as u32;
                *store_word!(addr!().rotate_right(2)) = v.to_le_bytes();
            }
            FastOp::Fsd => {
                let v = ctx.f[e.rs2.index()];
                store_check!();
                // An aligned doubleword (the rotation as for words).
                match mem
                    .as_chunks_mut::<2>()
                    .0
                    .get_mut(addr!().rotate_right(3) as usize)
                {
                    Some(pair) => {
                        *pair = [(v as u32).to_le_bytes(), ((v >> 32) as u32).to_le_bytes()];
                    }
                    None => break,
                }
            }
            FastOp::Amo => {
                // Address rs1: the conditions of a store, and aligned.
                if rs1!().wrapping_sub(env.store_base) < env.store_len
                    || (CALLS && !reservations.is_empty())
                {
                    break;
                }
                let Some(w) = mem.get_mut(rs1!().rotate_right(2) as usize) else {
                    break;
                };
                let old = u32::from_le_bytes(*w);
                *w = amo(imm, old, rs2!()).to_le_bytes();
                ctx.x[rd] = old;
                ctx.x[0] = 0;
            }
            FastOp::Lr => {
                // Aligned and in range, else the general way faults.
                let Some(w) = mem.get(rs1!().rotate_right(2) as usize).filter(|_| CALLS) else {
                    break;
                };
                reservations.reserve(index, rs1!());
                ctx.x[rd] = u32::from_le_bytes(*w);
                ctx.x[0] = 0;
            }
            FastOp::Sc => {
                // Into the text (a code write if it stores): the general way.
                if !CALLS || rs1!().wrapping_sub(env.store_base) < env.store_len {
                    break;
                }
                let Some(w) = mem.get_mut(rs1!().rotate_right(2) as usize) else {
                    break;
                };
                ctx.x[rd] = if reservations.take(index, rs1!()) {
                    *w = rs2!().to_le_bytes();
                    reservations.on_store(rs1!());
                    0
                } else {
                    1
                };
                ctx.x[0] = 0;
            }
            FastOp::Fp => {
                if !CALLS || !fp_call(ctx, e) {
                    break;
                }
            }
            FastOp::Csr => {
                if !CALLS {
                    break;
                }
                // The clock and instret at issue.
                let now = state.clock + (budget as i64 - 1 - ((acc as i64) >> 32)) as u64;
                let instret = ctx.instret + state.retired + (acc & 0xffff_ffff);
                if !csr_call(ctx, id, e, now, instret) {
                    break;
                }
            }
        }
        retire!(e.step);
    }
    let left = (acc as i64) >> 32;
    let after = pc_of(base, &cursor);
    state.clock += (budget as i64 - 1 - left) as u64;
    state.retired += acc & 0xffff_ffff;
    if left < 0 {
        // The last instruction retired: the cursor is at the next one.
        state.pc = after;
        FastExit::End
    } else {
        // The cursor is past the instruction that did not run. (It
        // cannot have run off the table: that ends with a `Slow` entry.)
        state.pc = after.wrapping_sub(4);
        FastExit::Slow
    }
}

/// The stop of the instruction at `pc`, when it is a [`FastOp::Stop`]
/// entry (the loop returned for it; the general step would only find that
/// it stops).
pub(crate) fn stop_at(code: &[Fast], base: u32, pc: u32) -> Option<Stop> {
    let e = code.get(pc.wrapping_sub(base) as usize >> 2)?;
    (e.op == FastOp::Stop).then_some(match e.imm {
        k if k == StopKind::HostCall as u32 => Stop::HostCall,
        k if k == StopKind::EndThread as u32 => Stop::EndThread,
        k if k == StopKind::Yield as u32 => Stop::Yield,
        _ => Stop::Messaging,
    })
}

/// Whether the loop without calls returned for the instruction at `pc`
/// because it needs them.
pub(crate) fn needs_calls(code: &[Fast], base: u32, pc: u32) -> bool {
    code.get(pc.wrapping_sub(base) as usize >> 2)
        .is_some_and(|e| e.op.needs_calls())
}

/// The address of the cursor's next entry.
#[inline(always)]
fn pc_of(base: u32, cursor: &Cursor) -> u32 {
    base.wrapping_add(4 * cursor.index() as u32)
}

/// The M instructions other than `mul`, `op` a [`MulDiv`] (out of line:
/// they are rarer, and inline they would cost the loop registers).
#[inline(never)]
fn mul_div(op: u32, a: u32, b: u32) -> u32 {
    match MulDiv::ALL.get(op as usize) {
        Some(MulDiv::Mulh) => ((a as i32 as i64 * b as i32 as i64) >> 32) as u32,
        Some(MulDiv::Mulhsu) => ((a as i32 as i64 * b as i64) >> 32) as u32,
        Some(MulDiv::Mulhu) => ((a as u64 * b as u64) >> 32) as u32,
        Some(MulDiv::Div) => {
            if b == 0 {
                u32::MAX
            } else {
                (a as i32).wrapping_div(b as i32) as u32
            }
        }
        Some(MulDiv::Divu) => a.checked_div(b).unwrap_or(u32::MAX),
        Some(MulDiv::Rem) => {
            if b == 0 {
                a
            } else {
                (a as i32).wrapping_rem(b as i32) as u32
            }
        }
        Some(MulDiv::Remu) | None => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
    }
}

#[inline(always)]
fn load8(mem: &[[u8; 4]], addr: u32) -> Option<u8> {
    mem.get((addr >> 2) as usize).map(|w| w[addr as usize & 3])
}

/// The value an AMO stores, `op` an [`Amo`], `a` the old value, `b` rs2
/// (out of line, as [`mul_div`]).
#[inline(never)]
fn amo(op: u32, a: u32, b: u32) -> u32 {
    match Amo::ALL.get(op as usize) {
        Some(Amo::Swap) => b,
        Some(Amo::Add) => a.wrapping_add(b),
        Some(Amo::Xor) => a ^ b,
        Some(Amo::And) => a & b,
        Some(Amo::Or) => a | b,
        Some(Amo::Min) => (a as i32).min(b as i32) as u32,
        Some(Amo::Max) => (a as i32).max(b as i32) as u32,
        Some(Amo::Minu) => a.min(b),
        Some(Amo::Maxu) | None => a.max(b),
    }
}

/// An aligned doubleword (rotating moves a misaligned address's low bits
/// to the top, beyond any doubleword index).
#[inline(always)]
fn load64(mem: &[[u8; 4]], addr: u32) -> Option<u64> {
    let (pairs, _) = mem.as_chunks::<2>();
    pairs
        .get(addr.rotate_right(3) as usize)
        .map(|[lo, hi]| u32::from_le_bytes(*lo) as u64 | (u32::from_le_bytes(*hi) as u64) << 32)
}

/// An F or D instruction of a [`FastOp::Fp`] entry, out of line (it is
/// long, and the loop keeps its registers); whether it completed (else it
/// changed nothing and the general interpreter runs it: a fault).
#[inline(never)]
fn fp_call(ctx: &mut Context, e: &Fast) -> bool {
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

/// An aligned halfword (rotating moves a misaligned address's low bit to
/// the top, beyond any word index).
#[inline(always)]
fn load16(mem: &[[u8; 4]], addr: u32) -> Option<u16> {
    mem.get((addr.rotate_right(1) >> 1) as usize).map(|w| {
        let i = addr as usize & 2;
        u16::from_le_bytes([w[i], w[i + 1]])
    })
}

#[cfg(test)]
mod tests;
