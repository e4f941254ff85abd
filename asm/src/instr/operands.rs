//! Reading one written operand: registers, memory references, CSRs,
//! immediates (with the relocation operators a field takes) and branch
//! targets.

use isa_spec::{Field, RegClass, csr_by_name, parse_freg, parse_xreg};

use crate::ast::{Expr, ExprKind, Operand, RelocOp};
use crate::diag::Diag;
use crate::expr::{EvalError, Value, rv32_operand};
use crate::pass1::{Pass1, Stmt, eval_diag, nearest};
use crate::unit::FixKind;

use super::{Imm, operand_span, split_hi_lo};

impl Pass1<'_, '_> {
    pub(crate) fn expr_operand<'a>(&self, st: &Stmt, o: &'a Operand) -> Result<&'a Expr, Diag> {
        match o {
            Operand::Expr(e) => Ok(e),
            other => Err(Diag::error(
                operand_span(st, other),
                "expected an expression",
                "not a value",
            )),
        }
    }

    pub(crate) fn keyword(&self, st: &Stmt, o: &Operand) -> Result<String, Diag> {
        match o {
            Operand::Expr(e) if e.as_sym().is_some() => {
                Ok(e.as_sym().unwrap_or_default().to_string())
            }
            other => Err(Diag::error(
                operand_span(st, other),
                "expected a keyword",
                "not a name",
            )),
        }
    }

    pub(crate) fn reg(&self, st: &Stmt, o: &Operand, class: RegClass) -> Result<u8, Diag> {
        let span = operand_span(st, o);
        let name = match o {
            Operand::Expr(e) => e.as_sym(),
            _ => None,
        };
        type RegParser = fn(&str) -> Option<u8>;
        let (want, parse, other): (&str, RegParser, RegParser) = match class {
            RegClass::X => ("an integer register", parse_xreg, parse_freg),
            RegClass::F => ("a floating-point register", parse_freg, parse_xreg),
        };
        match name {
            Some(n) => parse(n).ok_or_else(|| {
                let found = if other(n).is_some() {
                    let kind = if class == RegClass::X {
                        "floating-point"
                    } else {
                        "integer"
                    };
                    format!("{kind} register `{n}`")
                } else {
                    format!("`{n}`")
                };
                Diag::error(
                    span,
                    format!("expected {want}, found {found}"),
                    "not the right register",
                )
            }),
            None => {
                let text = &st.text[span.start as usize..span.end as usize];
                Err(Diag::error(
                    span,
                    format!("expected {want}, found `{text}`"),
                    "not a register",
                ))
            }
        }
    }

    /// `offset(base)` or `(base)`: the offset expression (if any) and base register.
    pub(crate) fn memory<'a>(
        &self,
        st: &Stmt,
        o: &'a Operand,
    ) -> Result<(Option<&'a Expr>, u8), Diag> {
        match o {
            Operand::Mem { offset, base, .. } => {
                let base_op = Operand::Expr((**base).clone());
                let r = self.reg(st, &base_op, RegClass::X)?;
                Ok((Some(offset.as_ref()), r))
            }
            Operand::Expr(Expr {
                kind: ExprKind::Paren(inner),
                ..
            }) if inner.as_sym().and_then(parse_xreg).is_some() => {
                Ok((None, inner.as_sym().and_then(parse_xreg).unwrap_or(0)))
            }
            other => Err(Diag::error(
                operand_span(st, other),
                "expected a memory operand",
                "not `offset(register)`",
            )
            .with_help("write `offset(reg)`, e.g. `8(sp)`")),
        }
    }

    pub(crate) fn csr(&mut self, st: &Stmt, e: &Expr) -> Result<i32, Diag> {
        if let Some(name) = e.as_sym() {
            // The machine's CSRs, then every standard name GNU as knows.
            if let Some(c) = csr_by_name(name) {
                return Ok(c.number as i32);
            }
            if let Some(n) = isa_spec::standard_csr_number(name) {
                return Ok(n as i32);
            }
        }
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) if (0..=0xfff).contains(&v) => Ok(v as i32),
            Ok(Value::Abs(v)) => Err(Diag::error(
                st.span(e.start, e.end),
                format!("CSR number {v} out of range"),
                "not a CSR",
            )
            .with_help("CSR numbers are 0..=4095")),
            _ => {
                let mut d = Diag::error(
                    st.span(e.start, e.end),
                    "unknown CSR",
                    "not a CSR name or number",
                );
                if let Some(n) = e.as_sym()
                    && let Some(near) = nearest(n, isa_spec::CSRS.iter().map(|c| c.name))
                {
                    d = d.with_help(format!("did you mean `{near}`?"));
                }
                Err(d)
            }
        }
    }

    /// An immediate for `field`, with the relocation operators the field takes.
    pub(crate) fn immediate(&mut self, st: &Stmt, e: &Expr, field: Field) -> Result<Imm, Diag> {
        let span = st.span(e.start, e.end);
        if let Some(name) = e.as_sym()
            && (parse_xreg(name).is_some() || parse_freg(name).is_some())
        {
            return Err(Diag::error(
                span,
                format!("expected an immediate, found register `{name}`"),
                "not a value",
            ));
        }
        if let ExprKind::Reloc(op, inner) = &e.kind {
            let kind = match (op, field) {
                (RelocOp::Hi, Field::ImmU) => FixKind::Hi,
                (RelocOp::PcrelHi, Field::ImmU) => FixKind::PcrelHi,
                (RelocOp::Lo, Field::ImmI | Field::ImmS) => FixKind::Lo(field),
                (RelocOp::PcrelLo, Field::ImmI | Field::ImmS) => FixKind::PcrelLoAt(field),
                (RelocOp::TprelHi, Field::ImmU) => FixKind::TprelHi,
                (RelocOp::TprelLo, Field::ImmI | Field::ImmS) => FixKind::TprelLo(field),
                _ => {
                    let fits = match op {
                        RelocOp::Hi | RelocOp::PcrelHi | RelocOp::TprelHi => "lui/auipc",
                        RelocOp::TprelAdd => {
                            "the fourth operand of `add rd, rs, tp, %tprel_add(x)`"
                        }
                        _ => "12-bit immediates and load/store offsets",
                    };
                    return Err(Diag::error(
                        span,
                        format!("`{}` does not fit this operand", op.name()),
                        "wrong place",
                    )
                    .with_help(format!("`{}` goes with {fits}", op.name())));
                }
            };
            if let FixKind::Hi | FixKind::Lo(_) = kind
                && let Ok(Value::Abs(v)) = self.eval1(st, inner)
            {
                let (hi, lo) = split_hi_lo(v);
                return Ok(Imm::Known(if kind == FixKind::Hi {
                    hi as i64
                } else {
                    lo as i64
                }));
            }
            return Ok(Imm::Fix(kind, (**inner).clone()));
        }
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) => {
                let v = rv32_operand(v);
                field.check(v).map_err(|r| {
                    Diag::error(
                        span,
                        format!("immediate {v} out of range"),
                        format!("does not fit in {}", field_name(field)),
                    )
                    .with_help(r.to_string())
                })?;
                Ok(Imm::Known(v))
            }
            Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => {
                Ok(Imm::Fix(FixKind::Field(field), e.clone()))
            }
            Err(err) => Err(eval_diag(st.file, err, "the immediate")),
        }
    }

    /// A branch or jump target, encoded relative to this instruction.
    pub(crate) fn pc_relative(&mut self, st: &Stmt, e: &Expr, field: Field) -> Result<Imm, Diag> {
        if let ExprKind::Reloc(op, _) = &e.kind {
            return Err(Diag::error(
                st.span(e.start, e.end),
                format!("`{}` cannot be a branch target", op.name()),
                "here",
            ));
        }
        let pc = self.section_size() as i64;
        match self.eval1(st, e) {
            // An object keeps a relocation for every symbolic target (the
            // linker may move code), as GNU as 2.40 does (even without
            // relaxation).
            // Conditional branches: short or long is decided where they are
            // written (`pass1::relax`).
            Ok(Value::Rel { .. }) if field == Field::ImmB => {
                Ok(Imm::Fix(FixKind::PcRel(field), e.clone()))
            }
            Ok(Value::Rel { .. }) if self.sh.opts.relocatable => {
                Ok(Imm::Fix(FixKind::PcRel(field), e.clone()))
            }
            Ok(Value::Rel { section, offset }) if section == self.cur => {
                let off = offset - pc;
                field.check(off).map_err(|r| {
                    Diag::error(
                        st.span(e.start, e.end),
                        format!("target out of range: offset {off}"),
                        "too far from this instruction",
                    )
                    .with_help(r.to_string())
                })?;
                Ok(Imm::Known(off))
            }
            Ok(_) | Err(EvalError::Defer(..)) => Ok(Imm::Fix(FixKind::PcRel(field), e.clone())),
            Err(err) => Err(eval_diag(st.file, err, "the target")),
        }
    }
}

pub(crate) fn field_name(field: Field) -> &'static str {
    match field {
        Field::ImmI | Field::ImmS => "a signed 12-bit immediate",
        Field::ImmU => "a 20-bit upper immediate",
        Field::Shamt => "a 5-bit shift amount",
        Field::Uimm5 => "a 5-bit unsigned immediate",
        Field::Csr => "a CSR number",
        _ => "this field",
    }
}
