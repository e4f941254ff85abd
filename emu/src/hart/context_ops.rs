//! The instructions that read and write only the context: the F and D
//! instructions other than loads and stores ([`fp_compute`]) and the CSR
//! accesses ([`csr_op`]). One implementation each, which both dispatchers
//! call (the careful step, `execute`, and the fast loop, `fast`, when it
//! cannot do better inline); on an error nothing has changed, so the fast
//! loop can give the instruction back to the careful step.

use isa_spec::{Inst, Opcode};
use rustc_apfloat::ieee::{Double, Single};

use crate::fault::FaultCause;
use crate::hart::context::Context;
use crate::hart::csr::{self, Identity};
use crate::hart::effects::{Effects, Stop, write_f, write_x};
use crate::hart::fpu::{self, Arith, Compare, Format, box_s, unbox_s};
use crate::hart::semantics::{self, for_each_op};

/// The rounding mode of F or D instruction `inst`: its field, or `frm` when
/// the field says dynamic; an invalid one is a fault. The one place it is
/// resolved (the fast loop's entries say at predecoding whether the host's
/// round-to-nearest-even applies, and go the careful way otherwise).
#[inline(always)]
fn rounding(ctx: &Context, inst: &Inst) -> Result<rustc_apfloat::Round, Stop> {
    fpu::rounding(inst.aux, ctx.frm).ok_or(Stop::Fault(FaultCause::InvalidRoundingMode {
        frm: ctx.frm,
    }))
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
    macro_rules! wf {
        ($v:expr) => {
            write_f!(TRACE, ctx, fx, rd, $v)
        };
    }
    let f1 = ctx.f[inst.rs1 as usize & 31];
    let f2 = ctx.f[inst.rs2 as usize & 31];
    let f3 = ctx.f[inst.rs3 as usize & 31];
    let flags_before = ctx.fflags;
    // The rounded arithmetic of the table of operations, in its format;
    // the others rows are not F or D.
    macro_rules! row {
        (FpArith ($soft:ident $host:ident $op:ident)) => {{
            let rm = rounding(ctx, inst)?;
            let r = fpu::arith::<$soft>(
                Arith::$op,
                $soft::unbox(f1),
                $soft::unbox(f2),
                $soft::unbox(f3),
                rm,
                &mut ctx.fflags,
            );
            wf!($soft::rebox(r))
        }};
        (FpSqrt ($soft:ident $host:ident)) => {{
            let rm = rounding(ctx, inst)?;
            let r = fpu::sqrt::<$soft>($soft::unbox(f1), rm, &mut ctx.fflags);
            wf!($soft::rebox(r))
        }};
        ($form:ident $args:tt) => {
            unreachable!("fp_compute is called for F and D instructions only")
        };
    }
    macro_rules! dispatch {
        (rows: [$($form:ident $op:ident $args:tt,)*]) => {
            match inst.op {
                $(Opcode::$op => row!($form $args),)*
                _ => fp_other::<TRACE>(ctx, inst, fx)?,
            }
        };
    }
    for_each_op!(dispatch);
    ctx.x[0] = 0;
    if TRACE && ctx.fflags != flags_before {
        fx.fflags = Some(ctx.fflags);
    }
    Ok(())
}

/// The F and D instructions that are not rows of the table of operations
/// (sign injection, min/max, conversions, moves, compares, classify), for
/// [`fp_compute`].
#[inline(always)]
fn fp_other<const TRACE: bool>(
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
    let f1 = ctx.f[inst.rs1 as usize & 31];
    let f2 = ctx.f[inst.rs2 as usize & 31];
    match inst.op {
        Opcode::FsgnjS | Opcode::FsgnjnS | Opcode::FsgnjxS => {
            let kind = (inst.op as u8) - (Opcode::FsgnjS as u8);
            let r = fpu::sign_inject(32, kind, unbox_s(f1) as u64, unbox_s(f2) as u64);
            wf!(box_s(r as u32))
        }
        Opcode::FsgnjD => wf!(semantics::fsgnj_d(f1, f2)),
        Opcode::FsgnjnD => wf!(semantics::fsgnjn_d(f1, f2)),
        Opcode::FsgnjxD => wf!(semantics::fsgnjx_d(f1, f2)),
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
            let rm = rounding(ctx, inst)?;
            let signed = inst.op == Opcode::FcvtWS;
            wx!(fpu::to_int::<Single>(
                unbox_s(f1) as u64,
                signed,
                rm,
                &mut ctx.fflags
            ))
        }
        Opcode::FcvtWD | Opcode::FcvtWuD => {
            let rm = rounding(ctx, inst)?;
            let signed = inst.op == Opcode::FcvtWD;
            wx!(fpu::to_int::<Double>(f1, signed, rm, &mut ctx.fflags))
        }
        Opcode::FcvtSW | Opcode::FcvtSWu => {
            let rm = rounding(ctx, inst)?;
            let signed = inst.op == Opcode::FcvtSW;
            let r = fpu::from_int::<Single>(rs1, signed, rm, &mut ctx.fflags);
            wf!(box_s(r as u32))
        }
        // Exact, but an invalid rounding mode still faults.
        Opcode::FcvtDW => {
            rounding(ctx, inst)?;
            wf!(semantics::fcvt_d_w(rs1))
        }
        Opcode::FcvtDWu => {
            rounding(ctx, inst)?;
            wf!(semantics::fcvt_d_wu(rs1))
        }
        Opcode::FcvtSD => {
            let rm = rounding(ctx, inst)?;
            let r = fpu::convert::<Double, Single>(f1, rm, &mut ctx.fflags);
            wf!(box_s(r as u32))
        }
        Opcode::FcvtDS => {
            let rm = rounding(ctx, inst)?;
            wf!(fpu::convert::<Single, Double>(
                unbox_s(f1) as u64,
                rm,
                &mut ctx.fflags
            ))
        }
        Opcode::FmvXW => wx!(semantics::fmv_x_w(f1)),
        Opcode::FmvWX => wf!(semantics::fmv_w_x(rs1)),
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
            let r = semantics::fcmp_d(cmp, f1, f2);
            wx!(r.unwrap_or_else(|| fpu::compare::<Double>(cmp, f1, f2, &mut ctx.fflags)))
        }
        Opcode::FclassS => wx!(fpu::classify::<Single>(unbox_s(f1) as u64)),
        Opcode::FclassD => wx!(fpu::classify::<Double>(f1)),
        _ => unreachable!("fp_compute is called for F and D instructions only"),
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
    if csr::is_clock(number) {
        ctx.outside += 1;
    }
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
