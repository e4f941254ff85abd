//! Instructions: operands matched against the rows of the isa-spec table,
//! and the pseudo-instructions (written in terms of table opcodes).

use isa_spec::{
    Field, Inst, Opcode, Operand as Op, RegClass, RoundingMode, SendType, csr_by_name,
    parse_fence_set, parse_freg, parse_xreg, rows_for_mnemonic,
};

use crate::ast::{Expr, ExprKind, Operand, RelocOp};
use crate::diag::Diag;
use crate::expr::{EvalError, Value, rv32_operand};
use crate::pass1::{Pass1, Stmt, eval_diag, nearest};
use crate::unit::FixKind;

/// A field value known now, or a fixup for the second pass.
enum Imm {
    Known(i64),
    Fix(FixKind, Expr),
}

/// An instruction being built: the word's fields and pending fixups.
struct Built {
    inst: Inst,
    fixes: Vec<(FixKind, Expr)>,
}

impl Built {
    fn new(op: Opcode) -> Built {
        Built {
            inst: Inst::with_defaults(op),
            fixes: Vec::new(),
        }
    }
    fn regs(op: Opcode, rd: u8, rs1: u8, rs2: u8) -> Built {
        let mut b = Built::new(op);
        b.inst.rd = rd;
        b.inst.rs1 = rs1;
        b.inst.rs2 = rs2;
        b
    }
    fn imm(mut self, field: Field, imm: Imm) -> Built {
        match imm {
            Imm::Known(v) => self.inst.set(field, v as i32),
            Imm::Fix(kind, e) => self.fixes.push((kind, e)),
        }
        self
    }
}

/// Pseudo-instruction names, for suggestions.
const PSEUDOS: &[&str] = &[
    "nop",
    "li",
    "la",
    "lla",
    "mv",
    "not",
    "neg",
    "seqz",
    "snez",
    "sltz",
    "sgtz",
    "sgt",
    "sgtu",
    "beqz",
    "bnez",
    "blez",
    "bgez",
    "bltz",
    "bgtz",
    "bgt",
    "ble",
    "bgtu",
    "bleu",
    "j",
    "jr",
    "ret",
    "call",
    "tail",
    "jump",
    "csrr",
    "csrw",
    "csrs",
    "csrc",
    "csrwi",
    "csrsi",
    "csrci",
    "rdcycle",
    "rdcycleh",
    "rdtime",
    "rdtimeh",
    "rdinstret",
    "rdinstreth",
    "frcsr",
    "fscsr",
    "frrm",
    "fsrm",
    "frflags",
    "fsflags",
    "fsrmi",
    "fsflagsi",
    "fmv.s",
    "fabs.s",
    "fneg.s",
    "fmv.d",
    "fabs.d",
    "fneg.d",
    "fmv.x.s",
    "fmv.s.x",
    "fgt.s",
    "fge.s",
    "fgt.d",
    "fge.d",
    "zext.b",
    "unimp",
];

fn split_hi_lo(v: i64) -> (i32, i32) {
    let v = v as u32;
    let hi = (v.wrapping_add(0x800) >> 12) & 0xf_ffff;
    let lo = ((v & 0xfff) as i32) << 20 >> 20;
    (hi as i32, lo)
}

fn operand_span(st: &Stmt, op: &Operand) -> crate::source::Span {
    let (s, e) = op.range();
    st.span(s, e)
}

impl Pass1<'_, '_> {
    pub(crate) fn instruction(
        &mut self,
        st: &Stmt,
        name: &str,
        head: crate::lexer::Token,
        from: usize,
    ) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let head_span = st.tok_span(head);
        let result = match self.pseudo(st, name, &ops) {
            Some(r) => r,
            None => self.table_instruction(st, name, head_span, &ops),
        };
        match result {
            Ok(list) => {
                for b in list {
                    self.emit_built(st, b, head_span);
                }
            }
            Err(d) => self.error(st, d),
        }
    }

    fn emit_built(&mut self, st: &Stmt, b: Built, span: crate::source::Span) {
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
        for (kind, expr) in b.fixes {
            self.add_fixup(st, kind, expr, offset);
        }
    }

    fn table_instruction(
        &mut self,
        st: &Stmt,
        name: &str,
        head_span: crate::source::Span,
        ops: &[Operand],
    ) -> Result<Vec<Built>, Diag> {
        let mut rows = rows_for_mnemonic(name);
        let mut aqrl = 0u8;
        if rows.is_empty() {
            for (suffix, bits) in [(".aqrl", 3u8), (".aq", 2), (".rl", 1)] {
                if let Some(base) = name.strip_suffix(suffix) {
                    let r = rows_for_mnemonic(base);
                    if r.iter().any(|op| op.spec().has_aqrl()) {
                        rows = r;
                        aqrl = bits;
                    }
                    break;
                }
            }
        }
        if rows.is_empty() {
            let mut d = Diag::error(
                head_span,
                format!("unknown instruction `{name}`"),
                "not an instruction",
            );
            let candidates = isa_spec::mnemonics().chain(PSEUDOS.iter().copied());
            if let Some(near) = nearest(name, candidates) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            return Err(d);
        }
        let mut first_err = None;
        for &op in rows {
            match self.match_row(st, op, ops, aqrl, head_span) {
                Ok(b) => return Ok(vec![b]),
                Err(e) => {
                    let (score, d) = *e;
                    if first_err.as_ref().is_none_or(|(s, _)| score > *s) {
                        first_err = Some((score, d));
                    }
                }
            }
        }
        Err(first_err
            .map(|(_, d)| d)
            .unwrap_or_else(|| Diag::error(head_span, "invalid operands", "here")))
    }

    /// Matches `ops` against one table row. On failure, returns how many
    /// operands matched (to pick the most relevant error among rows).
    fn match_row(
        &mut self,
        st: &Stmt,
        op: Opcode,
        ops: &[Operand],
        aqrl: u8,
        head_span: crate::source::Span,
    ) -> Result<Built, Box<(usize, Diag)>> {
        let spec = op.spec();
        let mut b = Built::new(op);
        if spec.has_aqrl() {
            b.inst.aux = aqrl;
        }
        let written = || spec.operands.iter().copied().filter(|o| !o.is_suffix());
        let required = written().filter(|o| !o.is_optional()).count();
        let max = written()
            .map(|o| if o == Op::Fence { 2 } else { 1 })
            .sum::<usize>();
        let has_fence = written().any(|o| o == Op::Fence);
        if ops.len() < required || ops.len() > max || (has_fence && ops.len() == 1) {
            let expected = if required == max {
                format!("{required}")
            } else {
                format!("{required} to {max}")
            };
            let syntax = isa_spec::doc::syntax(spec);
            let span = if ops.is_empty() {
                head_span
            } else {
                let (s, _) = ops[0].range();
                let (_, e) = ops[ops.len() - 1].range();
                st.span(s, e)
            };
            return Err(Box::new((
                0,
                Diag::error(
                    span,
                    format!(
                        "`{}` takes {expected} operand(s), found {}",
                        spec.mnemonic,
                        ops.len()
                    ),
                    "operands",
                )
                .with_help(format!("syntax: {syntax}")),
            )));
        }
        let mut i = 0;
        for (k, operand) in written().enumerate() {
            let fail = |d: Diag| Box::new((k + 1, d));
            if i >= ops.len() {
                break; // optional operands left out
            }
            let o = &ops[i];
            match operand {
                Op::Xd | Op::Xs1 | Op::Xs2 | Op::Xs3 | Op::Fd | Op::Fs1 | Op::Fs2 | Op::Fs3 => {
                    let class = operand.reg_class().unwrap_or(RegClass::X);
                    let r = self.reg(st, o, class).map_err(fail)?;
                    let field = operand.fields()[0];
                    b.inst.set(field, r as i32);
                }
                Op::ImmI | Op::ImmU | Op::Shamt | Op::Uimm5 => {
                    let field = operand.fields()[0];
                    let e = self.expr_operand(st, o).map_err(fail)?;
                    let imm = self.immediate(st, e, field).map_err(fail)?;
                    b = b.imm(field, imm);
                }
                Op::Branch | Op::Jump => {
                    let field = operand.fields()[0];
                    let e = self.expr_operand(st, o).map_err(fail)?;
                    let imm = self.pc_relative(st, e, field).map_err(fail)?;
                    b = b.imm(field, imm);
                }
                Op::Csr => {
                    let e = self.expr_operand(st, o).map_err(fail)?;
                    let n = self.csr(st, e).map_err(fail)?;
                    b.inst.imm = n;
                }
                Op::LoadMem | Op::StoreMem => {
                    let field = operand.fields()[0];
                    let (offset, base) = self.memory(st, o).map_err(fail)?;
                    b.inst.rs1 = base;
                    if let Some(e) = offset {
                        let imm = self.immediate(st, e, field).map_err(fail)?;
                        b = b.imm(field, imm);
                    }
                }
                Op::AmoMem => {
                    let (offset, base) = self.memory(st, o).map_err(fail)?;
                    if let Some(e) = offset {
                        match self.eval1(st, e) {
                            Ok(Value::Abs(0)) => {}
                            _ => {
                                return Err(fail(
                                    Diag::error(
                                        st.span(e.start, e.end),
                                        "atomic instructions take no offset",
                                        "must be 0",
                                    )
                                    .with_help("write the address as `(reg)`"),
                                ));
                            }
                        }
                    }
                    b.inst.rs1 = base;
                }
                Op::Rm(_) => {
                    let name = self.keyword(st, o).map_err(fail)?;
                    let rm = RoundingMode::from_name(&name).ok_or_else(|| {
                        fail(
                            Diag::error(
                                operand_span(st, o),
                                format!("unknown rounding mode `{name}`"),
                                "not a rounding mode",
                            )
                            .with_help("rounding modes: rne, rtz, rdn, rup, rmm, dyn"),
                        )
                    })?;
                    b.inst.aux = rm as u8;
                }
                Op::Fence => {
                    let mut sets = 0i32;
                    for o in &ops[i..i + 2] {
                        let name = match o {
                            Operand::Expr(Expr {
                                kind: ExprKind::Int(0),
                                ..
                            }) => "0".to_string(),
                            _ => self.keyword(st, o).map_err(fail)?,
                        };
                        let set = parse_fence_set(&name).ok_or_else(|| {
                            fail(
                                Diag::error(
                                    operand_span(st, o),
                                    format!("invalid fence set `{name}`"),
                                    "not a set",
                                )
                                .with_help("write the letters i, o, r, w in that order, e.g. `rw`"),
                            )
                        })?;
                        sets = (sets << 4) | set as i32;
                    }
                    b.inst.imm = sets;
                    i += 1;
                }
                Op::SendType => {
                    let name = self.keyword(st, o).map_err(fail)?;
                    let t = SendType::from_name(&name).ok_or_else(|| {
                        fail(Diag::error(operand_span(st, o), format!("unknown message type `{name}`"), "not a message type")
                            .with_help("`sendh rs1, TYPE, rs2` takes thread, ready or rdv; the original data header is `sendh rs1, data, rs2, rs3`"))
                    })?;
                    b.inst.set(Field::SendType, t as i32);
                }
                Op::Keyword(word) => {
                    let name = self.keyword(st, o).map_err(fail)?;
                    if name != word {
                        return Err(fail(Diag::error(
                            operand_span(st, o),
                            format!("expected `{word}`, found `{name}`"),
                            "keyword",
                        )));
                    }
                }
                Op::AqRl => {}
            }
            i += 1;
        }
        Ok(b)
    }

    fn expr_operand<'a>(&self, st: &Stmt, o: &'a Operand) -> Result<&'a Expr, Diag> {
        match o {
            Operand::Expr(e) => Ok(e),
            other => Err(Diag::error(
                operand_span(st, other),
                "expected an expression",
                "not a value",
            )),
        }
    }

    fn keyword(&self, st: &Stmt, o: &Operand) -> Result<String, Diag> {
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

    fn reg(&self, st: &Stmt, o: &Operand, class: RegClass) -> Result<u8, Diag> {
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
    fn memory<'a>(&self, st: &Stmt, o: &'a Operand) -> Result<(Option<&'a Expr>, u8), Diag> {
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

    fn csr(&mut self, st: &Stmt, e: &Expr) -> Result<i32, Diag> {
        if let Some(name) = e.as_sym()
            && let Some(c) = csr_by_name(name)
        {
            return Ok(c.number as i32);
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
    fn immediate(&mut self, st: &Stmt, e: &Expr, field: Field) -> Result<Imm, Diag> {
        let span = st.span(e.start, e.end);
        if let ExprKind::Reloc(op, inner) = &e.kind {
            let kind = match (op, field) {
                (RelocOp::Hi, Field::ImmU) => FixKind::Hi,
                (RelocOp::PcrelHi, Field::ImmU) => FixKind::PcrelHi,
                (RelocOp::Lo, Field::ImmI | Field::ImmS) => FixKind::Lo(field),
                (RelocOp::PcrelLo, Field::ImmI | Field::ImmS) => FixKind::PcrelLoAt(field),
                _ => {
                    let fits = match op {
                        RelocOp::Hi | RelocOp::PcrelHi => "lui/auipc",
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
    fn pc_relative(&mut self, st: &Stmt, e: &Expr, field: Field) -> Result<Imm, Diag> {
        if let ExprKind::Reloc(op, _) = &e.kind {
            return Err(Diag::error(
                st.span(e.start, e.end),
                format!("`{}` cannot be a branch target", op.name()),
                "here",
            ));
        }
        let pc = self.section_size() as i64;
        match self.eval1(st, e) {
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

    // ----------------------------------------------------------- pseudos

    /// Pseudo-instructions and alternate operand forms of real ones.
    /// `None` when `name` with these operands is not one.
    fn pseudo(
        &mut self,
        st: &Stmt,
        name: &str,
        ops: &[Operand],
    ) -> Option<Result<Vec<Built>, Diag>> {
        use Opcode::*;
        let n = ops.len();
        let x = |p: &mut Self, i: usize| p.reg(st, &ops[i], RegClass::X);
        let f = |p: &mut Self, i: usize| p.reg(st, &ops[i], RegClass::F);
        let is_reg = |i: usize| matches!(&ops[i], Operand::Expr(e) if e.as_sym().and_then(parse_xreg).is_some());
        let arity = |want: usize| -> Result<(), Diag> {
            if n == want {
                Ok(())
            } else {
                let span = st.whole();
                Err(Diag::error(
                    span,
                    format!("`{name}` takes {want} operand(s), found {n}"),
                    "operands",
                ))
            }
        };
        // Two registers into one instruction: (rd, rs) shapes.
        let rr = |p: &mut Self, op: Opcode, swap: bool, float: bool| -> Result<Vec<Built>, Diag> {
            arity(2)?;
            let (rd, rs) = if float {
                (f(p, 0)?, f(p, 1)?)
            } else {
                (x(p, 0)?, x(p, 1)?)
            };
            let b = match op {
                Addi => Built::regs(op, rd, rs, 0),
                Xori => Built::regs(op, rd, rs, 0).imm(Field::ImmI, Imm::Known(-1)),
                Sltiu => Built::regs(op, rd, rs, 0).imm(Field::ImmI, Imm::Known(1)),
                Andi => Built::regs(op, rd, rs, 0).imm(Field::ImmI, Imm::Known(255)),
                _ if float => Built::regs(op, rd, rs, rs),
                _ if swap => Built::regs(op, rd, 0, rs),
                _ => Built::regs(op, rd, rs, 0),
            };
            Ok(vec![b])
        };
        let branch_zero =
            |p: &mut Self, op: Opcode, zero_first: bool| -> Result<Vec<Built>, Diag> {
                arity(2)?;
                let r = x(p, 0)?;
                let e = p.expr_operand(st, &ops[1])?;
                let imm = p.pc_relative(st, e, Field::ImmB)?;
                let (a, b) = if zero_first { (0, r) } else { (r, 0) };
                Ok(vec![Built::regs(op, 0, a, b).imm(Field::ImmB, imm)])
            };
        let branch_swap = |p: &mut Self, op: Opcode| -> Result<Vec<Built>, Diag> {
            arity(3)?;
            let (a, b) = (x(p, 0)?, x(p, 1)?);
            let e = p.expr_operand(st, &ops[2])?;
            let imm = p.pc_relative(st, e, Field::ImmB)?;
            Ok(vec![Built::regs(op, 0, b, a).imm(Field::ImmB, imm)])
        };
        let csr_read = |p: &mut Self, csr: u16| -> Result<Vec<Built>, Diag> {
            arity(1)?;
            let rd = x(p, 0)?;
            let mut b = Built::regs(Csrrs, rd, 0, 0);
            b.inst.imm = csr as i32;
            Ok(vec![b])
        };
        // csrw-like: [rd,] value into a CSR, register or immediate form.
        let csr_write =
            |p: &mut Self, reg_op: Opcode, imm_op: Opcode, csr: Option<u16>, with_rd: bool| {
                let fixed = csr.is_some() as usize;
                let want = 2 - fixed;
                let (rd, first) = if with_rd && n == want + 1 {
                    (x(p, 0)?, 1)
                } else {
                    arity(want)?;
                    (0, 0)
                };
                let csr_num = match csr {
                    Some(c) => c as i32,
                    None => {
                        let e = p.expr_operand(st, &ops[first])?;
                        p.csr(st, e)?
                    }
                };
                let vi = first + 1 - fixed;
                let mut b = if is_reg(vi) {
                    Built::regs(reg_op, rd, x(p, vi)?, 0)
                } else {
                    let e = p.expr_operand(st, &ops[vi])?;
                    let imm = p.immediate(st, e, Field::Uimm5)?;
                    Built::regs(imm_op, rd, 0, 0).imm(Field::Uimm5, imm)
                };
                b.inst.imm = csr_num;
                Ok(vec![b])
            };
        // auipc + one instruction reaching `target` pc-relatively.
        let pcrel_pair =
            |target: &Expr, temp: u8, second: Built, field: Field| -> Result<Vec<Built>, Diag> {
                let mut auipc = Built::regs(Auipc, temp, 0, 0);
                auipc.fixes.push((FixKind::PcrelHi, target.clone()));
                let mut second = second;
                second
                    .fixes
                    .push((FixKind::PcrelLoBefore(field, 4), target.clone()));
                Ok(vec![auipc, second])
            };
        let r: Result<Vec<Built>, Diag> = match name {
            "nop" => arity(0).map(|_| vec![Built::new(Addi)]),
            "li" => (|| {
                arity(2)?;
                let rd = x(self, 0)?;
                let e = self.expr_operand(st, &ops[1])?;
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
                            return Ok(vec![
                                Built::regs(Addi, rd, 0, 0).imm(Field::ImmI, Imm::Known(v32)),
                            ]);
                        }
                        let (hi, lo) = split_hi_lo(v);
                        let mut out = vec![
                            Built::regs(Lui, rd, 0, 0).imm(Field::ImmU, Imm::Known(hi as i64)),
                        ];
                        if lo != 0 {
                            out.push(
                                Built::regs(Addi, rd, rd, 0)
                                    .imm(Field::ImmI, Imm::Known(lo as i64)),
                            );
                        }
                        Ok(out)
                    }
                    // Not known yet: always lui + addi, patched in the second pass.
                    Ok(Value::Rel { .. }) | Err(EvalError::Defer(..)) => Ok(vec![
                        Built::regs(Lui, rd, 0, 0)
                            .imm(Field::ImmU, Imm::Fix(FixKind::Hi, e.clone())),
                        Built::regs(Addi, rd, rd, 0)
                            .imm(Field::ImmI, Imm::Fix(FixKind::Lo(Field::ImmI), e.clone())),
                    ]),
                    Err(err) => Err(eval_diag(st.file, err, "the value")),
                }
            })(),
            "la" | "lla" => (|| {
                arity(2)?;
                let rd = x(self, 0)?;
                let e = self.expr_operand(st, &ops[1])?;
                pcrel_pair(e, rd, Built::regs(Addi, rd, rd, 0), Field::ImmI)
            })(),
            "mv" => rr(self, Addi, false, false),
            "not" => rr(self, Xori, false, false),
            "neg" => rr(self, Sub, true, false),
            "seqz" => rr(self, Sltiu, false, false),
            "snez" => rr(self, Sltu, true, false),
            "sltz" => rr(self, Slt, false, false),
            "sgtz" => rr(self, Slt, true, false),
            "zext.b" => rr(self, Andi, false, false),
            "sgt" | "sgtu" => (|| {
                arity(3)?;
                let (rd, a, b) = (x(self, 0)?, x(self, 1)?, x(self, 2)?);
                Ok(vec![Built::regs(
                    if name == "sgt" { Slt } else { Sltu },
                    rd,
                    b,
                    a,
                )])
            })(),
            "beqz" => branch_zero(self, Beq, false),
            "bnez" => branch_zero(self, Bne, false),
            "blez" => branch_zero(self, Bge, true),
            "bgez" => branch_zero(self, Bge, false),
            "bltz" => branch_zero(self, Blt, false),
            "bgtz" => branch_zero(self, Blt, true),
            "bgt" => branch_swap(self, Blt),
            "ble" => branch_swap(self, Bge),
            "bgtu" => branch_swap(self, Bltu),
            "bleu" => branch_swap(self, Bgeu),
            "j" => (|| {
                arity(1)?;
                let e = self.expr_operand(st, &ops[0])?;
                let imm = self.pc_relative(st, e, Field::ImmJ)?;
                Ok(vec![Built::new(Jal).imm(Field::ImmJ, imm)])
            })(),
            "jal" if n == 1 => (|| {
                let e = self.expr_operand(st, &ops[0])?;
                let imm = self.pc_relative(st, e, Field::ImmJ)?;
                Ok(vec![Built::regs(Jal, 1, 0, 0).imm(Field::ImmJ, imm)])
            })(),
            "jr" | "ret" | "jalr" if !(name == "jalr" && n == 2 && !is_reg(1)) => (|| {
                let (rd, rest) = match (name, n) {
                    ("ret", 0) => return Ok(vec![Built::regs(Jalr, 0, 1, 0)]),
                    ("jr", 1) => (0, 0),
                    ("jalr", 1) => (1, 0),
                    ("jalr", 2) | ("jalr", 3) => (x(self, 0)?, 1),
                    _ => {
                        let span = st.whole();
                        return Err(Diag::error(
                            span,
                            format!("wrong number of operands for `{name}`"),
                            "operands",
                        )
                        .with_help(
                            "forms: ret; jr rs; jalr rs; jalr rd, rs[, imm]; jalr rd, imm(rs)",
                        ));
                    }
                };
                let mut b = Built::regs(Jalr, rd, 0, 0);
                if is_reg(rest) {
                    b.inst.rs1 = x(self, rest)?;
                    if n == 3 {
                        let e = self.expr_operand(st, &ops[2])?;
                        let imm = self.immediate(st, e, Field::ImmI)?;
                        b = b.imm(Field::ImmI, imm);
                    }
                } else {
                    let (off, base) = self.memory(st, &ops[rest])?;
                    b.inst.rs1 = base;
                    if let Some(e) = off {
                        let imm = self.immediate(st, e, Field::ImmI)?;
                        b = b.imm(Field::ImmI, imm);
                    }
                }
                Ok(vec![b])
            })(),
            "call" | "tail" | "jump" => (|| {
                let (rd, temp, target) = match (name, n) {
                    ("call", 1) => (1, 1, 0),
                    ("call", 2) => (x(self, 0)?, 6, 1),
                    ("tail", 1) => (0, 6, 0),
                    ("jump", 2) => (0, x(self, 1)?, 0),
                    _ => {
                        let span = st.whole();
                        return Err(Diag::error(
                            span,
                            format!("wrong number of operands for `{name}`"),
                            "operands",
                        )
                        .with_help("forms: call sym; call rd, sym; tail sym; jump sym, temp"));
                    }
                };
                let e = self.expr_operand(st, &ops[target])?;
                pcrel_pair(e, temp, Built::regs(Jalr, rd, temp, 0), Field::ImmI)
            })(),
            "csrr" => (|| {
                arity(2)?;
                let rd = x(self, 0)?;
                let e = self.expr_operand(st, &ops[1])?;
                let c = self.csr(st, e)?;
                let mut b = Built::regs(Csrrs, rd, 0, 0);
                b.inst.imm = c;
                Ok(vec![b])
            })(),
            "csrw" => csr_write(self, Csrrw, Csrrwi, None, false),
            "csrs" => csr_write(self, Csrrs, Csrrsi, None, false),
            "csrc" => csr_write(self, Csrrc, Csrrci, None, false),
            "csrwi" | "csrsi" | "csrci" => (|| {
                arity(2)?;
                let op = match name {
                    "csrwi" => Csrrwi,
                    "csrsi" => Csrrsi,
                    _ => Csrrci,
                };
                let e = self.expr_operand(st, &ops[0])?;
                let c = self.csr(st, e)?;
                let v = self.expr_operand(st, &ops[1])?;
                let imm = self.immediate(st, v, Field::Uimm5)?;
                let mut b = Built::new(op).imm(Field::Uimm5, imm);
                b.inst.imm = c;
                Ok(vec![b])
            })(),
            "csrrw" | "csrrs" | "csrrc" if n == 3 && !is_reg(2) => (|| {
                let op = match name {
                    "csrrw" => Csrrwi,
                    "csrrs" => Csrrsi,
                    _ => Csrrci,
                };
                let rd = x(self, 0)?;
                let e = self.expr_operand(st, &ops[1])?;
                let c = self.csr(st, e)?;
                let v = self.expr_operand(st, &ops[2])?;
                let imm = self.immediate(st, v, Field::Uimm5)?;
                let mut b = Built::regs(op, rd, 0, 0).imm(Field::Uimm5, imm);
                b.inst.imm = c;
                Ok(vec![b])
            })(),
            "rdcycle" => csr_read(self, isa_spec::CYCLE),
            "rdcycleh" => csr_read(self, isa_spec::CYCLEH),
            "rdtime" => csr_read(self, isa_spec::TIME),
            "rdtimeh" => csr_read(self, isa_spec::TIMEH),
            "rdinstret" => csr_read(self, isa_spec::INSTRET),
            "rdinstreth" => csr_read(self, isa_spec::INSTRETH),
            "frcsr" => csr_read(self, isa_spec::FCSR),
            "frrm" => csr_read(self, isa_spec::FRM),
            "frflags" => csr_read(self, isa_spec::FFLAGS),
            "fscsr" => csr_write(self, Csrrw, Csrrwi, Some(isa_spec::FCSR), true),
            "fsrm" | "fsrmi" => csr_write(self, Csrrw, Csrrwi, Some(isa_spec::FRM), true),
            "fsflags" | "fsflagsi" => csr_write(self, Csrrw, Csrrwi, Some(isa_spec::FFLAGS), true),
            "fmv.s" => rr(self, FsgnjS, false, true),
            "fabs.s" => rr(self, FsgnjxS, false, true),
            "fneg.s" => rr(self, FsgnjnS, false, true),
            "fmv.d" => rr(self, FsgnjD, false, true),
            "fabs.d" => rr(self, FsgnjxD, false, true),
            "fneg.d" => rr(self, FsgnjnD, false, true),
            "fmv.x.s" => (|| {
                arity(2)?;
                Ok(vec![Built::regs(FmvXW, x(self, 0)?, f(self, 1)?, 0)])
            })(),
            "fmv.s.x" => (|| {
                arity(2)?;
                Ok(vec![Built::regs(FmvWX, f(self, 0)?, x(self, 1)?, 0)])
            })(),
            "fgt.s" | "fge.s" | "fgt.d" | "fge.d" => (|| {
                arity(3)?;
                let op = match name {
                    "fgt.s" => FltS,
                    "fge.s" => FleS,
                    "fgt.d" => FltD,
                    _ => FleD,
                };
                Ok(vec![Built::regs(op, x(self, 0)?, f(self, 2)?, f(self, 1)?)])
            })(),
            "unimp" => arity(0).map(|_| {
                // GNU as's `unimp`: a write to the read-only `cycle` CSR.
                let mut b = Built::new(Csrrw);
                b.inst.imm = isa_spec::CYCLE as i32;
                vec![b]
            }),
            _ => return self.symbol_load_store(st, name, ops),
        };
        Some(r)
    }

    /// `lw rd, sym` and `sw rs, sym, temp` (and the other widths, FP too):
    /// auipc + the access, pc-relative to the symbol.
    fn symbol_load_store(
        &mut self,
        st: &Stmt,
        name: &str,
        ops: &[Operand],
    ) -> Option<Result<Vec<Built>, Diag>> {
        let rows = rows_for_mnemonic(name);
        let &op = rows.first()?;
        let spec = op.spec();
        let is_load = spec.operands.contains(&Op::LoadMem) && op != Opcode::Jalr;
        let is_store = spec.operands.contains(&Op::StoreMem);
        if !(is_load || is_store) {
            return None;
        }
        // A register is not a symbol: `lw a0, a1` is a malformed load, not a load from `a1`.
        let symbolic = |o: &Operand| {
            matches!(o, Operand::Expr(e) if !matches!(e.kind, ExprKind::Paren(_))
                && e.as_sym().is_none_or(|n| parse_xreg(n).is_none() && parse_freg(n).is_none()))
        };
        if ops.len() < 2 || !symbolic(&ops[1]) {
            return None;
        }
        let float = matches!(spec.operands[0], Op::Fd | Op::Fs2);
        let class = if float { RegClass::F } else { RegClass::X };
        Some((|| {
            let reg = self.reg(st, &ops[0], class)?;
            let target = self.expr_operand(st, &ops[1])?;
            let temp = if is_store || float {
                let Some(t) = ops.get(2) else {
                    return Err(Diag::error(
                        operand_span(st, &ops[1]),
                        format!("`{name}` with a symbol needs a temporary register"),
                        "address of a symbol",
                    )
                    .with_help(format!(
                        "write `{name} {}, symbol, temp` (temp is an integer register for the address)",
                        &st.text[ops[0].range().0 as usize..ops[0].range().1 as usize]
                    )));
                };
                self.reg(st, t, RegClass::X)?
            } else {
                if ops.len() != 2 {
                    let span = operand_span(st, &ops[2]);
                    return Err(Diag::error(span, "unexpected operand", "extra operand"));
                }
                reg
            };
            let mut auipc = Built::regs(Opcode::Auipc, temp, 0, 0);
            auipc.fixes.push((FixKind::PcrelHi, target.clone()));
            let mut access = Built::new(op);
            access.inst.rs1 = temp;
            let field = if is_store {
                access.inst.rs2 = reg;
                Field::ImmS
            } else {
                access.inst.rd = reg;
                Field::ImmI
            };
            access
                .fixes
                .push((FixKind::PcrelLoBefore(field, 4), target.clone()));
            Ok(vec![auipc, access])
        })())
    }
}

fn field_name(field: Field) -> &'static str {
    match field {
        Field::ImmI | Field::ImmS => "a signed 12-bit immediate",
        Field::ImmU => "a 20-bit upper immediate",
        Field::Shamt => "a 5-bit shift amount",
        Field::Uimm5 => "a 5-bit unsigned immediate",
        Field::Csr => "a CSR number",
        _ => "this field",
    }
}
