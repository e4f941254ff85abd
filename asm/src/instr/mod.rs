//! Instructions: a statement's operands matched against the written forms of
//! its mnemonic, first the rows of the instruction table, then the
//! pseudo-instruction and alias rows (both in `isa-spec`), and the chosen
//! form expanded into instruction words (`expand`). Reading one operand is
//! in `operands`.

mod expand;
mod operands;

use isa_spec::{
    Field, Opcode, Operand as Op, PseudoSpec, RegClass, RoundingMode, SendType, parse_fence_set,
    pseudos_for_mnemonic, rows_for_mnemonic,
};

use crate::ast::{Expr, ExprKind, Operand, RelocOp};
use crate::diag::Diag;
use crate::expr::Value;
use crate::pass1::{Built, Pass1, Stmt, nearest};
use crate::source::Span;
use crate::unit::{FixKind, TlsFix};

/// A field value known now, or a fixup for the second pass.
pub(crate) enum Imm {
    Known(i64),
    Fix(FixKind, Expr),
}

/// One written operand, read for the kind its form expects.
enum Arg {
    /// A register number.
    Reg(u8),
    /// An immediate or a target, for the field of its kind.
    Imm(Imm),
    /// `offset(base)`: the offset (none in `(base)`) and the base register.
    Mem(Option<Imm>, u8),
    /// A value with no field of its own (a symbol, `li`'s value).
    Expr(Expr),
    /// A value that goes whole into its field (CSR number, rounding mode,
    /// fence sets, message type); nothing for a keyword.
    Value(Option<i32>),
}

/// A written form: a table row or a pseudo-instruction row.
#[derive(Clone, Copy)]
enum Form {
    Row(Opcode),
    Pseudo(&'static PseudoSpec),
}

impl Form {
    fn operands(self) -> &'static [Op] {
        match self {
            Form::Row(op) => op.spec().operands,
            Form::Pseudo(p) => p.operands,
        }
    }

    fn syntax(self) -> String {
        match self {
            Form::Row(op) => isa_spec::doc::syntax(op.spec()),
            Form::Pseudo(p) => isa_spec::doc::pseudo_syntax(p),
        }
    }
}

/// Mnemonics GNU as accepts for RV32G that SCMP has no use for, and why.
const NOT_SCMP: &[(&str, &str)] = &[
    ("sret", "a privileged instruction"),
    ("uret", "a privileged instruction"),
    ("dret", "a privileged instruction"),
    ("hret", "a privileged instruction"),
    ("wfi", "a privileged instruction"),
    ("sfence.vm", "a privileged instruction"),
    ("sfence.vma", "a privileged instruction"),
];

pub(crate) fn split_hi_lo(v: i64) -> (i32, i32) {
    let v = v as u32;
    let hi = (v.wrapping_add(0x800) >> 12) & 0xf_ffff;
    let lo = ((v & 0xfff) as i32) << 20 >> 20;
    (hi as i32, lo)
}

pub(crate) fn operand_span(st: &Stmt, op: &Operand) -> Span {
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
        let toks = st.tokens();
        // `call f@plt` / `tail f@plt` (gcc -fPIC): GNU as takes the suffix
        // after the symbol of a far call only, and writes the same CALL_PLT.
        let end = match toks {
            [.., sym, at, plt]
                if pseudos_for_mnemonic(name).iter().any(|p| p.is_far_call())
                    && sym.kind == crate::lexer::Kind::Ident
                    && at.kind == crate::lexer::Kind::At
                    && st.tok_text(*plt) == "plt" =>
            {
                toks.len() - 2
            }
            _ => toks.len(),
        };
        let Some(ops) = self.parse_operand_tokens(st, from, end) else {
            return;
        };
        let head_span = st.tok_span(head);
        self.place_pending_loc();
        // `add rd, rs, tp, %tprel_add(x)` (gcc's local-exec TLS): the add,
        // with a relocation that only marks it.
        let (ops, tprel_add) = match ops.as_slice() {
            [a, b, c, Operand::Expr(e)] if rows_for_mnemonic(name) == [Opcode::Add] => {
                match &e.kind {
                    ExprKind::Reloc(RelocOp::TprelAdd, inner) => (
                        vec![a.clone(), b.clone(), c.clone()],
                        Some((**inner).clone()),
                    ),
                    _ => (ops, None),
                }
            }
            _ => (ops, None),
        };
        match self
            .assemble_instruction(st, name, head_span, &ops)
            .map(|mut list| {
                if let (Some(inner), Some(add)) = (tprel_add, list.first_mut()) {
                    add.fixes.push((FixKind::Tls(TlsFix::TprelAdd), inner));
                }
                list
            }) {
            Ok(list) => {
                let call = self.cfi_call_start(&list);
                for b in list {
                    self.emit_built(st, b, head_span);
                }
                if call {
                    self.cfi_call_end();
                }
            }
            Err(d) => self.error(st, d),
        }
    }

    fn assemble_instruction(
        &mut self,
        st: &Stmt,
        name: &str,
        head_span: Span,
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
        let pseudos = if aqrl == 0 {
            pseudos_for_mnemonic(name)
        } else {
            &[]
        };
        let forms: Vec<Form> = rows
            .iter()
            .map(|&op| Form::Row(op))
            .chain(pseudos.iter().map(|&p| Form::Pseudo(p)))
            .collect();
        if forms.is_empty() {
            return Err(unknown_mnemonic(name, head_span));
        }
        let mut best: Option<(usize, Diag)> = None;
        for &form in &forms {
            match self.read_args(st, form, ops, head_span) {
                Ok(args) => {
                    return match form {
                        Form::Row(op) => Ok(vec![Built::from_row(op, aqrl, args)]),
                        Form::Pseudo(p) => self.expand_pseudo(st, p, args),
                    };
                }
                Err(e) => {
                    let (score, d) = *e;
                    if best.as_ref().is_none_or(|(s, _)| score > *s) {
                        best = Some((score, d));
                    }
                }
            }
        }
        let (score, mut d) = best.expect("at least one form was tried");
        if score == 0 && forms.len() > 1 {
            // No form takes this many operands: list them all.
            let written: Vec<String> = forms.iter().map(|f| f.syntax()).collect();
            let counts: Vec<usize> = forms
                .iter()
                .map(|f| f.operands().iter().filter(|o| !o.is_suffix()).count())
                .collect();
            let message = if counts.iter().all(|c| *c == counts[0]) {
                format!(
                    "`{name}` takes {} operand(s), found {}",
                    counts[0],
                    ops.len()
                )
            } else {
                format!("no form of `{name}` takes {} operand(s)", ops.len())
            };
            d = Diag::error(d.span, message, "operands")
                .with_help(format!("forms: {}", written.join("; ")));
        }
        Err(d)
    }

    /// Reads `ops` as the written operands of `form`. On failure, returns a
    /// score to pick the most relevant error among forms: twice the number of
    /// operands that matched, plus one when they all did and some are missing.
    fn read_args(
        &mut self,
        st: &Stmt,
        form: Form,
        ops: &[Operand],
        head_span: Span,
    ) -> Result<Vec<Arg>, Box<(usize, Diag)>> {
        let written = || form.operands().iter().copied().filter(|o| !o.is_suffix());
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
            let span = if ops.is_empty() {
                head_span
            } else {
                let (s, _) = ops[0].range();
                let (_, e) = ops[ops.len() - 1].range();
                st.span(s, e)
            };
            let mnemonic = match form {
                Form::Row(op) => op.mnemonic(),
                Form::Pseudo(p) => p.mnemonic,
            };
            let prefix_fits = ops.len() < required
                && !has_fence
                && ops
                    .iter()
                    .zip(written())
                    .all(|(o, operand)| self.read_arg(st, operand, o).is_ok());
            let score = if prefix_fits { 2 * ops.len() + 1 } else { 0 };
            return Err(Box::new((
                score,
                Diag::error(
                    span,
                    format!(
                        "`{mnemonic}` takes {expected} operand(s), found {}",
                        ops.len()
                    ),
                    "operands",
                )
                .with_help(match form {
                    Form::Row(_) => format!("syntax: {}", form.syntax()),
                    Form::Pseudo(p) => format!("syntax: {} ({})", form.syntax(), p.description),
                }),
            )));
        }
        let mut args = Vec::with_capacity(ops.len());
        let mut i = 0;
        for (k, operand) in written().enumerate() {
            let fail = |d: Diag| Box::new((2 * (k + 1), d));
            if i >= ops.len() {
                break; // optional operands left out
            }
            let arg = if operand == Op::Fence {
                let sets = self.fence_sets(st, &ops[i..i + 2]).map_err(fail)?;
                i += 1;
                Arg::Value(Some(sets))
            } else {
                match self.read_arg(st, operand, &ops[i]) {
                    Ok(arg) => arg,
                    // Every bad register of the line, not only the first.
                    Err(d) if operand.reg_class().is_some() => {
                        let rest: Vec<Op> = written().skip(k + 1).collect();
                        return Err(fail(self.also_bad_registers(st, d, &rest, &ops[i + 1..])));
                    }
                    Err(d) => return Err(fail(d)),
                }
            };
            args.push(arg);
            i += 1;
        }
        Ok(args)
    }

    /// `d` (a bad register) with a note at each later register operand of
    /// the line that is bad too.
    fn also_bad_registers(&mut self, st: &Stmt, mut d: Diag, rest: &[Op], ops: &[Operand]) -> Diag {
        for (operand, o) in rest.iter().zip(ops) {
            let bad = match operand {
                Op::LoadMem | Op::StoreMem | Op::AmoMem => self.memory(st, o).err(),
                _ => operand
                    .reg_class()
                    .and_then(|class| self.reg(st, o, class).err()),
            };
            if let Some(e) = bad {
                d = d.with_note(e.span, e.message);
            }
        }
        d
    }

    fn read_arg(&mut self, st: &Stmt, operand: Op, o: &Operand) -> Result<Arg, Diag> {
        Ok(match operand {
            Op::Xd | Op::Xs1 | Op::Xs2 | Op::Xs3 | Op::Fd | Op::Fs1 | Op::Fs2 | Op::Fs3 => {
                let class = operand.reg_class().unwrap_or(RegClass::X);
                Arg::Reg(self.reg(st, o, class)?)
            }
            Op::ImmI | Op::ImmU | Op::Shamt | Op::Uimm5 => {
                let e = self.expr_operand(st, o)?;
                Arg::Imm(self.immediate(st, e, operand.fields()[0])?)
            }
            Op::Branch | Op::Jump => {
                let e = self.expr_operand(st, o)?;
                Arg::Imm(self.pc_relative(st, e, operand.fields()[0])?)
            }
            Op::Csr => {
                self.unit.names_csr = true;
                let e = self.expr_operand(st, o)?;
                Arg::Value(Some(self.csr(st, e)?))
            }
            Op::LoadMem | Op::StoreMem => {
                let (offset, base) = self.memory(st, o)?;
                let offset = match offset {
                    Some(e) => Some(self.immediate(st, e, operand.fields()[0])?),
                    None => None,
                };
                Arg::Mem(offset, base)
            }
            Op::AmoMem => {
                let (offset, base) = self.memory(st, o)?;
                if let Some(e) = offset
                    && !matches!(self.eval1(st, e), Ok(Value::Abs(0)))
                {
                    return Err(Diag::error(
                        st.span(e.start, e.end),
                        "atomic instructions take no offset",
                        "must be 0",
                    )
                    .with_help("write the address as `(reg)`"));
                }
                Arg::Mem(None, base)
            }
            Op::Rm(_) => {
                let name = self.keyword(st, o)?;
                let rm = RoundingMode::from_name(&name).ok_or_else(|| {
                    Diag::error(
                        operand_span(st, o),
                        format!("unknown rounding mode `{name}`"),
                        "not a rounding mode",
                    )
                    .with_help("rounding modes: rne, rtz, rdn, rup, rmm, dyn")
                })?;
                Arg::Value(Some(rm as i32))
            }
            Op::SendType => {
                let name = self.keyword(st, o)?;
                let t = SendType::from_name(&name).ok_or_else(|| {
                    Diag::error(operand_span(st, o), format!("unknown message type `{name}`"), "not a message type")
                        .with_help("`sendh rs1, TYPE, rs2` takes thread, ready or rdv; the original data header is `sendh rs1, data, rs2, rs3`")
                })?;
                Arg::Value(Some(t as i32))
            }
            Op::Keyword(word) => {
                let name = self.keyword(st, o)?;
                if name != word {
                    return Err(Diag::error(
                        operand_span(st, o),
                        format!("expected `{word}`, found `{name}`"),
                        "keyword",
                    ));
                }
                Arg::Value(None)
            }
            Op::Symbol => {
                // GNU as decides by position: where a form takes a symbol, a
                // name is a symbol even if it is also a register's (`call f1`,
                // `lla s1, s1`, `lw a5, s4` for C globals named so).
                let symbolic =
                    matches!(o, Operand::Expr(e) if !matches!(e.kind, ExprKind::Paren(_)));
                if !symbolic {
                    return Err(Diag::error(
                        operand_span(st, o),
                        "expected a symbol",
                        "not an address",
                    ));
                }
                Arg::Expr(self.expr_operand(st, o)?.clone())
            }
            Op::Imm32 => Arg::Expr(self.expr_operand(st, o)?.clone()),
            Op::Fence | Op::AqRl => Arg::Value(None),
        })
    }

    /// `pred, succ` of `fence`.
    fn fence_sets(&mut self, st: &Stmt, ops: &[Operand]) -> Result<i32, Diag> {
        let mut sets = 0i32;
        for o in ops {
            let name = match o {
                Operand::Expr(Expr {
                    kind: ExprKind::Int(0),
                    ..
                }) => "0".to_string(),
                _ => self.keyword(st, o)?,
            };
            let set = parse_fence_set(&name).ok_or_else(|| {
                Diag::error(
                    operand_span(st, o),
                    format!("invalid fence set `{name}`"),
                    "not a set",
                )
                .with_help("write the letters i, o, r, w in that order, e.g. `rw`")
            })?;
            sets = (sets << 4) | set as i32;
        }
        Ok(sets)
    }
}

fn unknown_mnemonic(name: &str, span: Span) -> Diag {
    if let Some((_, what)) = NOT_SCMP.iter().find(|(n, _)| *n == name) {
        return Diag::error(
            span,
            format!("`{name}` is {what}, which SCMP does not have"),
            "not an SCMP instruction",
        )
        .with_help("SCMP tiles have no privilege modes; `.insn` writes any encoding");
    }
    let mut d = Diag::error(
        span,
        format!("unknown instruction `{name}`"),
        "not an instruction",
    );
    if let Some(near) = nearest(name, isa_spec::all_mnemonics()) {
        d = d.with_help(format!("did you mean `{near}`?"));
    }
    d
}

/// The field an argument read for `operand` fills, when it fills one whole.
fn field_of(operand: Op) -> Option<Field> {
    operand.fields().first().copied()
}
