//! The fast loop's operations out of line or shared: the M instructions
//! other than `mul`, the AMOs, the loads' address checks, and the calls
//! into the general code for FP and CSR instructions.

use isa_spec::{Inst, Opcode};

use crate::hart::context::Context;
use crate::hart::csr::Identity;
use crate::hart::decode::{Amo, Fast, MulDiv};
use crate::hart::effects::Effects;
use crate::hart::execute::{csr_op, fp_compute};

/// The M instructions other than `mul`, `op` a [`MulDiv`] (out of line:
/// they are rarer, and inline they would cost the loop registers).
#[inline(never)]
pub(super) fn mul_div(op: u32, a: u32, b: u32) -> u32 {
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
pub(super) fn load8(mem: &[[u8; 4]], addr: u32) -> Option<u8> {
    mem.get((addr >> 2) as usize).map(|w| w[addr as usize & 3])
}

/// The value an AMO stores, `op` an [`Amo`], `a` the old value, `b` rs2
/// (out of line, as [`mul_div`]).
#[inline(never)]
pub(super) fn amo(op: u32, a: u32, b: u32) -> u32 {
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
pub(super) fn load64(mem: &[[u8; 4]], addr: u32) -> Option<u64> {
    let (pairs, _) = mem.as_chunks::<2>();
    pairs
        .get(addr.rotate_right(3) as usize)
        .map(|[lo, hi]| u32::from_le_bytes(*lo) as u64 | (u32::from_le_bytes(*hi) as u64) << 32)
}

/// An F or D instruction of a [`FastOp::Fp`] entry, out of line (it is
/// long, and the loop keeps its registers); whether it completed (else it
/// changed nothing and the general interpreter runs it: a fault).
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
pub(super) fn csr_call(ctx: &mut Context, id: &Identity, e: &Fast, now: u64, instret: u64) -> bool {
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
pub(super) fn load16(mem: &[[u8; 4]], addr: u32) -> Option<u16> {
    mem.get((addr.rotate_right(1) >> 1) as usize).map(|w| {
        let i = addr as usize & 2;
        u16::from_le_bytes([w[i], w[i + 1]])
    })
}
