//! From a matched form to instruction words: a table row's fields from its
//! operands, a pseudo-instruction's templates instantiated (and `li`'s
//! value-dependent choice), each word emitted with its fixups.

use isa_spec::{Bind, Expansion, Field, Opcode, PseudoSpec, TlsModel};

use crate::ast::{Expr, ExprKind, RelocOp};
use crate::diag::Diag;
use crate::expr::{EvalError, Value};
use crate::pass1::{Built, Pass1, Stmt, eval_diag};
use crate::source::Span;
use crate::unit::{FixKind, TlsFix};

use super::{Arg, Imm, field_of, split_hi_lo};

impl Built {
    fn set(&mut self, field: Field, imm: Imm) {
        match imm {
            Imm::Known(v) => self.inst.set(field, v as i32),
            Imm::Fix(kind, e) => self.fixes.push((kind, e)),
        }
    }

    /// A table row with its operands in order.
    pub(super) fn from_row(op: Opcode, aqrl: u8, args: Vec<Arg>) -> Built {
        let spec = op.spec();
        let mut b = Built::new(op);
        if spec.has_aqrl() {
            b.inst.aux = aqrl;
        }
        let written = spec.operands.iter().filter(|o| !o.is_suffix());
        for (&operand, arg) in written.zip(args) {
            let Some(field) = field_of(operand) else {
                continue;
            };
            match arg {
                Arg::Reg(r) => b.inst.set(field, r as i32),
                Arg::Imm(imm) => b.set(field, imm),
                Arg::Mem(offset, base) => {
                    b.inst.rs1 = base;
                    if let Some(imm) = offset {
                        b.set(field, imm);
                    }
                }
                Arg::Value(Some(v)) => b.inst.set(field, v),
                Arg::Value(None) | Arg::Expr(_) => {}
            }
        }
        b
    }
}

impl Pass1<'_, '_> {
    /// Writes an instruction (a conditional branch through branch relaxation).
    pub(super) fn emit_built(&mut self, st: &Stmt, b: Built, span: Span) {
        if crate::pass1::relax::inverse(b.inst.op).is_some() {
            self.emit_branch(st, b, span);
        } else {
            self.emit_word(st, b, span);
        }
    }

    /// Writes one instruction word and its fixups.
    pub(crate) fn emit_word(&mut self, st: &Stmt, b: Built, span: Span) {
        let offset = self.section_size();
        let word = match b.inst.encode() {
            Ok(w) => w,
            Err(e) => {
                // Operand values are checked before; this names what slipped through.
                self.error(
                    st,
                    Diag::error(span, format!("cannot encode: {e}"), "this instruction"),
                );
                return;
            }
        };
        self.emit(st, &word.to_le_bytes(), span);
        let upper = matches!(b.inst.op, Opcode::Lui | Opcode::Auipc);
        self.cfi_after_insn(upper, &b.fixes);
        for (kind, expr) in b.fixes {
            self.add_fixup(st, kind, expr, offset);
        }
    }

    pub(super) fn expand_pseudo(
        &mut self,
        st: &Stmt,
        spec: &PseudoSpec,
        args: Vec<Arg>,
    ) -> Result<Vec<Built>, Diag> {
        let templates = match &spec.expansion {
            Expansion::Insts(t) => *t,
            Expansion::LoadTlsAddress(model) => {
                let (Some(Arg::Reg(rd)), Some(Arg::Expr(e))) = (args.first(), args.get(1)) else {
                    unreachable!("`la.tls.*` rows read a register and a symbol");
                };
                return Ok(tls_address(*rd, *model, e));
            }
            Expansion::LoadImmediate | Expansion::LoadAddress | Expansion::LoadLocalAddress => {
                let (Some(Arg::Reg(rd)), Some(Arg::Expr(e))) = (args.first(), args.get(1)) else {
                    unreachable!("`li` and `la` rows read a register and a value");
                };
                let constant = matches!(self.eval1(st, e), Ok(Value::Abs(_)));
                if matches!(spec.expansion, Expansion::LoadImmediate) || constant {
                    return self.load_immediate(st, *rd, e);
                }
                let mut auipc = Built::new(Opcode::Auipc);
                auipc.inst.rd = *rd;
                if self.pic && matches!(spec.expansion, Expansion::LoadAddress) {
                    // GNU as under `.option pic`: the address is loaded
                    // from the symbol's GOT entry (`lla` stays direct).
                    auipc.fixes.push((FixKind::GotHi, e.clone()));
                    let mut lw = Built::new(Opcode::Lw);
                    lw.inst.rd = *rd;
                    lw.inst.rs1 = *rd;
                    lw.fixes
                        .push((FixKind::PcrelLoBefore(Field::ImmI, 4), e.clone()));
                    return Ok(vec![auipc, lw]);
                }
                auipc.fixes.push((FixKind::PcrelHi, e.clone()));
                let mut addi = Built::new(Opcode::Addi);
                addi.inst.rd = *rd;
                addi.inst.rs1 = *rd;
                addi.fixes
                    .push((FixKind::PcrelLoBefore(Field::ImmI, 4), e.clone()));
                return Ok(vec![auipc, addi]);
            }
        };
        let mut out = Vec::with_capacity(templates.len());
        for t in templates {
            let mut b = Built::new(t.op);
            for &(field, bind) in t.binds {
                match bind {
                    Bind::Const(v) => b.inst.set(field, v),
                    Bind::Arg(i) => match &args[i as usize] {
                        Arg::Reg(r) => b.inst.set(field, *r as i32),
                        Arg::Imm(imm) => b.set(field, clone_imm(imm)),
                        Arg::Mem(offset, base) => {
                            if field == Field::Rs1 {
                                b.inst.rs1 = *base;
                            } else if let Some(imm) = offset {
                                b.set(field, clone_imm(imm));
                            }
                        }
                        Arg::Value(Some(v)) => b.inst.set(field, *v),
                        Arg::Value(None) | Arg::Expr(_) => {}
                    },
                    Bind::PcrelHi(i) | Bind::PcrelLo(i) => {
                        let Arg::Expr(target) = &args[i as usize] else {
                            unreachable!("pc-relative binds name a symbol operand");
                        };
                        let kind = if matches!(bind, Bind::PcrelHi(_)) {
                            FixKind::PcrelHi
                        } else {
                            FixKind::PcrelLoBefore(field, 4)
                        };
                        b.fixes.push((kind, target.clone()));
                    }
                }
            }
            out.push(b);
        }
        Ok(out)
    }

    /// `li rd, value`: `addi` for a 12-bit value, else `lui` and an `addi`
    /// of the low part unless it is zero, as GNU as chooses; a value known
    /// only later takes both, patched then. `li rd, %lo(x)` is an `addi`.
    fn load_immediate(&mut self, st: &Stmt, rd: u8, e: &Expr) -> Result<Vec<Built>, Diag> {
        let addi = |rs1: u8, imm: Imm| {
            let mut b = Built::new(Opcode::Addi);
            b.inst.rd = rd;
            b.inst.rs1 = rs1;
            b.set(Field::ImmI, imm);
            b
        };
        let lui = |imm: Imm| {
            let mut b = Built::new(Opcode::Lui);
            b.inst.rd = rd;
            b.set(Field::ImmU, imm);
            b
        };
        if let ExprKind::Reloc(RelocOp::Lo | RelocOp::PcrelLo, _) = e.kind {
            let imm = self.immediate(st, e, Field::ImmI)?;
            return Ok(vec![addi(0, imm)]);
        }
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) => {
                if !(-(1i64 << 31)..(1i64 << 32)).contains(&v) {
                    return Err(Diag::error(
                        st.span(e.start, e.end),
                        format!("`li` value {v} does not fit in 32 bits"),
                        "out of range",
                    )
                    .with_help("the value must be in -2147483648..=4294967295"));
                }
                let v32 = v as u32 as i32 as i64;
                if (-2048..2048).contains(&v32) {
                    return Ok(vec![addi(0, Imm::Known(v32))]);
                }
                let (hi, lo) = split_hi_lo(v);
                let mut out = vec![lui(Imm::Known(hi as i64))];
                // GNU as also writes the addi when rd is x0 (its rule: an
                // addi whenever the high part's register is x0).
                if lo != 0 || rd == 0 {
                    out.push(addi(rd, Imm::Known(lo as i64)));
                }
                Ok(out)
            }
            // Not known yet: always lui + addi, patched in the second pass.
            Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => Ok(vec![
                lui(Imm::Fix(FixKind::Hi, e.clone())),
                addi(rd, Imm::Fix(FixKind::Lo(Field::ImmI), e.clone())),
            ]),
            Err(err) => Err(eval_diag(st.file, err, "the value")),
        }
    }
}

fn clone_imm(imm: &Imm) -> Imm {
    match imm {
        Imm::Known(v) => Imm::Known(*v),
        Imm::Fix(kind, e) => Imm::Fix(kind.clone(), e.clone()),
    }
}

/// `la.tls.ie rd, x` (`auipc` + `lw` of x's GOT entry: its offset from the
/// thread pointer) and `la.tls.gd rd, x` (`auipc` + `addi`: the address of
/// its GOT pair for `__tls_get_addr`), as GNU as expands them; relocations
/// for GNU ld only (tiles have no thread pointer).
fn tls_address(rd: u8, model: TlsModel, e: &Expr) -> Vec<Built> {
    let (hi, second) = match model {
        TlsModel::InitialExec => (TlsFix::IePcrelHi, Opcode::Lw),
        TlsModel::GeneralDynamic => (TlsFix::GdPcrelHi, Opcode::Addi),
    };
    let mut auipc = Built::new(Opcode::Auipc);
    auipc.inst.rd = rd;
    auipc.fixes.push((FixKind::Tls(hi), e.clone()));
    let mut low = Built::new(second);
    low.inst.rd = rd;
    low.inst.rs1 = rd;
    low.fixes
        .push((FixKind::PcrelLoBefore(Field::ImmI, 4), e.clone()));
    vec![auipc, low]
}
