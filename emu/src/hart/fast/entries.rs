//! The body of the fast loop: every [`Fast`] entry's semantics, run entry
//! after entry with the cycles charged a block at a time.
//!
//! A block is the run of entries up to and including the next control
//! transfer (`Fast::rest` of its first entry holds the accumulator step of
//! all of them). When the slice's cycles left cover a block, the loop
//! charges it when it starts and runs its entries with no cycle check;
//! an entry that cannot complete takes back its own and the later entries'
//! share. Near the end of a slice a block may not fit: then the loop runs
//! "carefully", charging and checking each instruction, so that the slice
//! ends after the same instruction as ever.

use super::cursor::Cursor;
use super::ops::{amo, csr_call, fp_call, load8, load16, load64, mul_div};
use super::{FastEnv, pc_of};
use crate::hart::context::Context;
use crate::hart::csr::Identity;
use crate::hart::decode::FastOp;
use crate::hart::fpu::{Arith, box_s};
use crate::hart::hardfloat;
use crate::hart::reservations::Reservations;

/// Why [`entries`] returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Exit {
    /// The slice's cycles are spent; the cursor is at the next instruction.
    End,
    /// The instruction before the cursor is for the general interpreter.
    Slow,
    /// The block at the cursor does not fit in the cycles left: run it
    /// carefully.
    Careful,
}

/// What the loop carries between its two ways of running.
pub(super) struct LoopState<'a, 'c> {
    /// The next entry.
    pub cursor: &'a mut Cursor<'c>,
    /// The accumulator (see `run_loop`).
    pub acc: &'a mut u64,
    /// The tile cycle at which the accumulator's high half reaches zero.
    pub clock: u64,
    /// The context's `instret` when the accumulator's low half is zero.
    pub instret: u64,
}

/// Runs entries from the cursor on (see the module's doc). `BLOCKS`: charge
/// whole blocks (else every instruction, carefully).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn entries<const CALLS: bool, const FMA: bool, const BLOCKS: bool>(
    ctx: &mut Context,
    index: usize,
    id: &Identity,
    reservations: &mut Reservations,
    mem: &mut [[u8; 4]],
    env: &FastEnv<'_>,
    loop_state: &mut LoopState,
) -> Exit {
    let base = env.base;
    let clock_end = loop_state.clock;
    let instret_start = loop_state.instret;
    let cursor = &mut *loop_state.cursor;
    let mut acc = *loop_state.acc;
    let exit = 'run: loop {
        if BLOCKS {
            let charged = acc.wrapping_add(cursor.peek().rest);
            if (charged as i64) < 0 {
                break 'run Exit::Careful;
            }
            acc = charged;
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
            // The instruction cannot complete the ordinary way: it has had no
            // effect, and the loop returns with the pc on it (a block's charge
            // for it and the rest of its block taken back).
            macro_rules! stop {
                () => {{
                    if BLOCKS {
                        acc = acc.wrapping_sub(e.rest);
                    }
                    break 'run Exit::Slow;
                }};
            }
            // A control transfer retired (it ends its block), taking `$extra`
            // more cycles: the run ends when the slice's cycles are spent, else
            // the next block starts.
            macro_rules! transfer {
                ($extra:expr) => {{
                    if !BLOCKS {
                        acc = acc.wrapping_add(e.rest);
                    }
                    let extra: u32 = $extra;
                    if !BLOCKS || extra != 0 {
                        acc = acc.wrapping_sub((extra as u64) << 32);
                        if (acc as i64) < 0 {
                            break 'run Exit::End;
                        }
                    }
                    continue 'run;
                }};
            }
            // A jump to text index `$to`, known to be inside the table.
            macro_rules! jump {
                ($to:expr, $extra:expr) => {{
                    if !cursor.jump($to as usize) {
                        stop!();
                    }
                    transfer!($extra)
                }};
            }
            // The text index of a `jalr` target, when it is aligned and in
            // the table (else the general interpreter runs the `jalr`).
            macro_rules! jalr_target {
                () => {{
                    let target = addr!() & !1;
                    let i = target.wrapping_sub(base) as usize >> 2;
                    if target & 3 != 0 || i >= cursor.len() {
                        stop!();
                    }
                    i
                }};
            }
            macro_rules! branch {
                ($cond:expr) => {{
                    if $cond {
                        jump!(imm, env.taken_extra)
                    }
                    transfer!(0)
                }};
            }
            macro_rules! load {
                ($v:expr) => {
                    match $v {
                        Some(v) => ctx.x[rd] = v,
                        None => stop!(),
                    }
                };
            }
            // Whether a store to the page of `$a` may go the fast way while
            // memory logs stores for undo.
            macro_rules! undo_check {
                ($a:expr) => {
                    if let Some((saved_in, generation)) = env.undo
                        && saved_in.get(($a >> crate::hart::memory::PAGE_SHIFT) as usize)
                            != Some(&generation)
                    {
                        stop!();
                    }
                };
            }
            // Whether a store to `addr` may go the fast way.
            macro_rules! store_check {
                () => {
                    if addr!().wrapping_sub(env.store_base) < env.store_len
                        || (CALLS && !reservations.is_empty())
                    {
                        stop!();
                    }
                    undo_check!(addr!());
                };
            }
            // The word holding `addr`, for a store that may go the fast way.
            macro_rules! store_word {
                ($index:expr) => {{
                    store_check!();
                    match mem.get_mut($index as usize) {
                        Some(w) => w,
                        None => stop!(),
                    }
                }};
            }
            // An F or D operation on the host FPU when the rounding mode is
            // round-to-nearest-even and the host can decide it, else (or when
            // the host declines) the general code out of line.
            macro_rules! host_float {
                ($host:expr) => {{
                    if !CALLS {
                        stop!();
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
                        stop!();
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
            // Fused pairs (blocks only): the first operation with this
            // entry's operands, then the second with the next entry's.
            macro_rules! fused {
                ($first:expr, |$e2:ident| $second:expr) => {{
                    ctx.x[rd] = $first;
                    let $e2 = cursor.take();
                    $second
                }};
            }
            // The second of a pair could not complete: as `stop`, for it.
            macro_rules! stop_second {
                ($e2:expr) => {{
                    acc = acc.wrapping_sub($e2.rest);
                    break 'run Exit::Slow;
                }};
            }
            macro_rules! x {
                ($r:expr) => {
                    ctx.x[$r.index()]
                };
            }
            macro_rules! lw_second {
                ($e2:expr) => {
                    match mem.get(x!($e2.rs1).wrapping_add($e2.imm).rotate_right(2) as usize) {
                        Some(w) => x!($e2.rd) = u32::from_le_bytes(*w),
                        None => stop_second!($e2),
                    }
                };
            }
            macro_rules! branch_second {
                ($e2:expr, $cond:expr) => {{
                    if $cond {
                        if !cursor.jump($e2.imm as usize) {
                            stop_second!($e2);
                        }
                        acc = acc.wrapping_sub((env.taken_extra as u64) << 32);
                        if (acc as i64) < 0 {
                            break 'run Exit::End;
                        }
                    }
                    continue 'run;
                }};
            }
            let op = if BLOCKS { e.op } else { e.op.alone() };
            match op {
                FastOp::LuiAddi => fused!(imm, |e2| x!(e2.rd) = x!(e2.rs1).wrapping_add(e2.imm)),
                FastOp::AddiAddi => {
                    fused!(addr!(), |e2| x!(e2.rd) = x!(e2.rs1).wrapping_add(e2.imm))
                }
                FastOp::AddiLw => fused!(addr!(), |e2| lw_second!(e2)),
                FastOp::AddiBeq => {
                    fused!(addr!(), |e2| branch_second!(e2, x!(e2.rs1) == x!(e2.rs2)))
                }
                FastOp::AddiBne => {
                    fused!(addr!(), |e2| branch_second!(e2, x!(e2.rs1) != x!(e2.rs2)))
                }
                FastOp::AddiBlt => fused!(addr!(), |e2| branch_second!(
                    e2,
                    (x!(e2.rs1) as i32) < x!(e2.rs2) as i32
                )),
                FastOp::AddiBge => fused!(addr!(), |e2| branch_second!(
                    e2,
                    (x!(e2.rs1) as i32) >= x!(e2.rs2) as i32
                )),
                FastOp::AddiBltu => {
                    fused!(addr!(), |e2| branch_second!(e2, x!(e2.rs1) < x!(e2.rs2)))
                }
                FastOp::AddiBgeu => {
                    fused!(addr!(), |e2| branch_second!(e2, x!(e2.rs1) >= x!(e2.rs2)))
                }
                FastOp::SlliAdd => fused!(rs1!() << (imm & 31), |e2| x!(e2.rd) =
                    x!(e2.rs1).wrapping_add(x!(e2.rs2))),
                FastOp::AddLw => fused!(rs1!().wrapping_add(rs2!()), |e2| lw_second!(e2)),
                FastOp::AddBne => fused!(rs1!().wrapping_add(rs2!()), |e2| branch_second!(
                    e2,
                    x!(e2.rs1) != x!(e2.rs2)
                )),
                FastOp::AddiAndi => fused!(addr!(), |e2| x!(e2.rd) = x!(e2.rs1) & e2.imm),
                FastOp::MulAdd => fused!(rs1!().wrapping_mul(rs2!()), |e2| x!(e2.rd) =
                    x!(e2.rs1).wrapping_add(x!(e2.rs2))),
                FastOp::XorBne => fused!(rs1!() ^ rs2!(), |e2| branch_second!(
                    e2,
                    x!(e2.rs1) != x!(e2.rs2)
                )),
                FastOp::LwLw | FastOp::LwAddi => {
                    load!(
                        mem.get(addr!().rotate_right(2) as usize)
                            .map(|w| u32::from_le_bytes(*w))
                    );
                    let e2 = cursor.take();
                    if op == FastOp::LwLw {
                        lw_second!(e2)
                    } else {
                        x!(e2.rd) = x!(e2.rs1).wrapping_add(e2.imm)
                    }
                }
                FastOp::FldFld => {
                    match load64(mem, addr!()) {
                        Some(v) => ctx.f[rd] = v,
                        None => stop!(),
                    }
                    let e2 = cursor.take();
                    match load64(mem, x!(e2.rs1).wrapping_add(e2.imm)) {
                        Some(v) => ctx.f[e2.rd.index()] = v,
                        None => stop_second!(e2),
                    }
                }
                FastOp::Slow | FastOp::Stop => stop!(),
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
                FastOp::FsgnjD | FastOp::FsgnjnD | FastOp::FsgnjxD => {
                    if !CALLS {
                        stop!();
                    }
                    let (a, b) = (ctx.f[e.rs1.index()], ctx.f[e.rs2.index()]);
                    let sign = match op {
                        FastOp::FsgnjD => b,
                        FastOp::FsgnjnD => !b,
                        _ => a ^ b,
                    } & 1 << 63;
                    ctx.f[rd] = a & !(1 << 63) | sign;
                }
                FastOp::FmvXW => {
                    if !CALLS {
                        stop!();
                    }
                    ctx.x[rd] = ctx.f[e.rs1.index()] as u32;
                    ctx.x[0] = 0;
                }
                FastOp::FmvWX => {
                    if !CALLS {
                        stop!();
                    }
                    ctx.f[rd] = box_s(rs1!());
                }
                FastOp::FcvtDW | FastOp::FcvtDWu => {
                    if !CALLS {
                        stop!();
                    }
                    // Exact: any valid rounding mode (a dynamic one must be).
                    if imm >> 24 == 0 || ctx.frm <= 4 {
                        let v = rs1!();
                        let v = if op == FastOp::FcvtDW {
                            v as i32 as f64
                        } else {
                            v as f64
                        };
                        ctx.f[rd] = v.to_bits();
                    } else if !fp_call(ctx, e) {
                        stop!();
                    }
                }
                FastOp::FeqD | FastOp::FltD | FastOp::FleD => {
                    if !CALLS {
                        stop!();
                    }
                    let a = f64::from_bits(ctx.f[e.rs1.index()]);
                    let b = f64::from_bits(ctx.f[e.rs2.index()]);
                    // NaNs (and their flags) the general way.
                    if a.is_nan() || b.is_nan() {
                        if !fp_call(ctx, e) {
                            stop!();
                        }
                    } else {
                        ctx.x[rd] = match op {
                            FastOp::FeqD => a == b,
                            FastOp::FltD => a < b,
                            _ => a <= b,
                        } as u32;
                        ctx.x[0] = 0;
                    }
                }
                FastOp::Nop => {}
                FastOp::Const => ctx.x[rd] = imm,
                FastOp::Jal => {
                    ctx.x[rd] = pc_of(base, cursor);
                    jump!(imm, 0)
                }
                FastOp::J => jump!(imm, 0),
                FastOp::Jalr => {
                    let i = jalr_target!();
                    ctx.x[rd] = pc_of(base, cursor);
                    jump!(i, 0)
                }
                FastOp::Jr => jump!(jalr_target!(), 0),
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
                    None => stop!(),
                },
                FastOp::Fld => match load64(mem, addr!()) {
                    Some(v) => ctx.f[rd] = v,
                    None => stop!(),
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
                        None => stop!(),
                    }
                }
                FastOp::Amo => {
                    // Address rs1: the conditions of a store, and aligned.
                    if rs1!().wrapping_sub(env.store_base) < env.store_len
                        || (CALLS && !reservations.is_empty())
                    {
                        stop!();
                    }
                    undo_check!(rs1!());
                    let Some(w) = mem.get_mut(rs1!().rotate_right(2) as usize) else {
                        stop!();
                    };
                    let old = u32::from_le_bytes(*w);
                    *w = amo(imm, old, rs2!()).to_le_bytes();
                    ctx.x[rd] = old;
                    ctx.x[0] = 0;
                }
                FastOp::Lr => {
                    // Aligned and in range, else the general way faults.
                    let Some(w) = mem.get(rs1!().rotate_right(2) as usize).filter(|_| CALLS) else {
                        stop!();
                    };
                    reservations.reserve(index, rs1!());
                    ctx.x[rd] = u32::from_le_bytes(*w);
                    ctx.x[0] = 0;
                }
                FastOp::Sc => {
                    // Into the text (a code write if it stores): the general way.
                    if !CALLS || rs1!().wrapping_sub(env.store_base) < env.store_len {
                        stop!();
                    }
                    undo_check!(rs1!());
                    let Some(w) = mem.get_mut(rs1!().rotate_right(2) as usize) else {
                        stop!();
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
                        stop!();
                    }
                }
                FastOp::Csr => {
                    if !CALLS {
                        stop!();
                    }
                    // The clock and instret at issue (a block's charge counts
                    // this instruction and the rest of its block).
                    let before = if BLOCKS {
                        acc.wrapping_sub(e.rest)
                    } else {
                        acc
                    };
                    let now = clock_end - ((before as i64) >> 32) as u64;
                    let instret = instret_start + (before & 0xffff_ffff);
                    if !csr_call(ctx, id, e, now, instret) {
                        stop!();
                    }
                }
            }
            // An instruction that does not end its block retired.
            if !BLOCKS {
                acc = acc.wrapping_add(e.rest.wrapping_sub(cursor.peek().rest));
                if (acc as i64) < 0 {
                    break 'run Exit::End;
                }
            }
        }
    };
    *loop_state.acc = acc;
    exit
}
