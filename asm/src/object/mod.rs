//! Relocatable ELF objects (`scmp asm -c`): one input file's sections,
//! symbols and RISC-V relocations, as GNU as 2.40 writes them, for GNU ld.
//!
//! Every fixup the first pass left becomes either bytes (a value this file
//! fixes) or relocations. With relaxation on (GNU as's default), every
//! pc-relative reference to a label keeps a relocation (`R_RISCV_BRANCH`,
//! `R_RISCV_JAL`, `R_RISCV_CALL_PLT`, ...), since the linker may delete
//! bytes between; `call`/`tail`, `la` and `%hi`/`%lo` are marked
//! `R_RISCV_RELAX`, alignment in code `R_RISCV_ALIGN`, and differences of
//! code addresses are `R_RISCV_ADD*`/`R_RISCV_SUB*` pairs. Relocations name
//! the symbol written in the source (GNU as never swaps in a section
//! symbol), so assembler-local labels they name stay in the symbol table.

use std::collections::HashMap;

use object::Endianness;
use object::elf;
use object::write::elf::{FileHeader, Rel, SectionHeader, Sym, Writer};

use crate::Options;
use crate::ast::{BinOp, Expr, ExprKind, UnOp};
use crate::diag::Diag;
use crate::directives::fixup_data;
use crate::expr::{EvalError, Resolver, Value, eval};
use crate::pass1::display_name;
use crate::source::Span;
use crate::unit::*;
use isa_spec::Field;

/// GNU as 2.40's architecture attribute for `-march=rv32g`, written when
/// the source sets none (`.attribute arch`).
pub const RV32G_ARCH: &str = "rv32i2p1_m2p0_a2p1_f2p2_d2p2_zicsr2p0_zifencei2p0_zmmul1p0";

/// Most `.set` definitions followed through when a value is read.
const MAX_DEPTH: u32 = 200;

/// A term of a relocatable value: something whose address the linker fixes.
#[derive(Clone, Debug, PartialEq)]
enum Term {
    /// A label of this file (section and offset known).
    Label(String, usize, u64),
    /// An address with no name (`.`): a `.L0 ` symbol is made for it.
    Here(usize, u64),
    /// A symbol this file does not define (or a common one).
    External(String),
}

/// A value as a constant plus symbols with coefficients.
#[derive(Clone, Debug, Default)]
struct Linear {
    constant: i64,
    terms: Vec<(Term, i64)>,
}

impl Linear {
    fn add(mut self, other: Linear, sign: i64) -> Linear {
        self.constant = self
            .constant
            .wrapping_add(other.constant.wrapping_mul(sign));
        for (t, c) in other.terms {
            match self.terms.iter_mut().find(|(u, _)| *u == t) {
                Some((_, k)) => *k += c * sign,
                None => self.terms.push((t, c * sign)),
            }
        }
        self.terms.retain(|(_, c)| *c != 0);
        self
    }
}

/// What a fixup's value is for the linker.
enum Target {
    /// A number.
    Abs(i64),
    /// A symbol plus an addend.
    Sym(Term, i64),
    /// `plus - minus + addend`.
    Diff(Term, Term, i64),
}

struct NoSymbols;
impl Resolver for NoSymbols {
    fn symbol(&mut self, _: &str, start: u32, end: u32) -> Result<Value, EvalError> {
        Err(EvalError::Invalid(
            "not a number".into(),
            String::new(),
            start,
            end,
        ))
    }
}

/// An output symbol.
struct OutSym {
    name: String,
    value: u64,
    size: u64,
    bind: elf::SymbolBind,
    ty: elf::SymbolType,
    other: u8,
    /// Unit section index; `None` with `shndx` for ABS/COMMON/UNDEF.
    section: Option<usize>,
    shndx: elf::SymbolSection,
}

/// A relocation: offset, type, symbol (index into the output symbols, or
/// `None` for none), addend.
type Reloc = (u64, elf::RelocationType, Option<usize>, i64);

struct Writer1<'u> {
    unit: &'u Unit,
    diags: Vec<Diag>,
    syms: Vec<OutSym>,
    by_name: HashMap<String, usize>,
    /// Relocations per unit section: offset, type, symbol (index into
    /// `syms`, or `None` for no symbol), addend.
    relocs: Vec<Vec<Reloc>>,
    /// `.reloc` relocations per unit section, with their place in the
    /// order written.
    by_hand: Vec<Vec<(u32, Reloc)>>,
    data: Vec<Vec<u8>>,
}

fn err(fx: &Fixup, message: impl Into<String>, label: impl Into<String>) -> Diag {
    Diag {
        ctx: fx.ctx,
        ..Diag::error(fx.span, message, label)
    }
}

impl<'u> Writer1<'u> {
    /// The value of `e` (written in `file`, with the location counter at
    /// `section`, `offset`) as a linear combination of symbols.
    fn linear(
        &self,
        e: &Expr,
        here: (usize, u64),
        depth: u32,
    ) -> Result<Linear, (String, u32, u32)> {
        let too_complex = || {
            (
                "this expression cannot be a relocation: only `symbol + number` or `a - b` can"
                    .to_string(),
                e.start,
                e.end,
            )
        };
        if depth > MAX_DEPTH {
            return Err(("symbol definitions nest too deeply".into(), e.start, e.end));
        }
        Ok(match &e.kind {
            ExprKind::Int(v) => Linear {
                constant: *v,
                terms: Vec::new(),
            },
            ExprKind::Paren(x) => self.linear(x, here, depth)?,
            ExprKind::Sym(n) if &**n == "." => Linear {
                constant: 0,
                terms: vec![(Term::Here(here.0, here.1), 1)],
            },
            ExprKind::Sym(n) => {
                let Some(sym) = self.unit.symbols.get(n.as_ref()) else {
                    return Ok(Linear {
                        constant: 0,
                        terms: vec![(Term::External(n.to_string()), 1)],
                    });
                };
                match &sym.def {
                    SymDef::Value(Value::Abs(v)) => Linear {
                        constant: *v,
                        terms: Vec::new(),
                    },
                    SymDef::Value(Value::Rel { section, offset }) => Linear {
                        constant: 0,
                        terms: vec![(Term::Label(n.to_string(), *section, *offset as u64), 1)],
                    },
                    SymDef::Deferred(x, _, section, offset) => {
                        let v = self.linear(x, (*section, *offset), depth + 1)?;
                        // `.set alias, label`: relocations name the alias.
                        match v.terms.as_slice() {
                            [(Term::Label(_, s, o), 1)] => Linear {
                                constant: 0,
                                terms: vec![(
                                    Term::Label(n.to_string(), *s, (*o as i64 + v.constant) as u64),
                                    1,
                                )],
                            },
                            _ => v,
                        }
                    }
                    SymDef::Common(..) | SymDef::Bss(..) | SymDef::Undefined => Linear {
                        constant: 0,
                        terms: vec![(Term::External(n.to_string()), 1)],
                    },
                }
            }
            ExprKind::Unary(UnOp::Plus, x) => self.linear(x, here, depth)?,
            ExprKind::Unary(UnOp::Neg, x) => {
                Linear::default().add(self.linear(x, here, depth)?, -1)
            }
            ExprKind::Binary(BinOp::Add, a, b) => self
                .linear(a, here, depth)?
                .add(self.linear(b, here, depth)?, 1),
            ExprKind::Binary(BinOp::Sub, a, b) => self
                .linear(a, here, depth)?
                .add(self.linear(b, here, depth)?, -1),
            ExprKind::Unary(op, x) => {
                let x = self.linear(x, here, depth)?;
                if !x.terms.is_empty() {
                    return Err(too_complex());
                }
                let e2 = Expr::new(
                    ExprKind::Unary(*op, Box::new(Expr::new(ExprKind::Int(x.constant), 0, 0))),
                    0,
                    0,
                );
                constant(&e2).ok_or_else(too_complex)?
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.linear(a, here, depth)?, self.linear(b, here, depth)?);
                // Differences of labels in one section fold away first; two
                // addresses of one section compare by their difference.
                let (x, y) = (self.fold(x, false), self.fold(y, false));
                let comparison = matches!(
                    op,
                    BinOp::Lt | BinOp::Gt | BinOp::Le | BinOp::Ge | BinOp::Eq | BinOp::Ne
                );
                let (x, y) = if comparison && !(x.terms.is_empty() && y.terms.is_empty()) {
                    (self.fold(x.add(y, -1), false), Linear::default())
                } else {
                    (x, y)
                };
                if !x.terms.is_empty() || !y.terms.is_empty() {
                    return Err(too_complex());
                }
                let e2 = Expr::new(
                    ExprKind::Binary(
                        *op,
                        Box::new(Expr::new(ExprKind::Int(x.constant), 0, 0)),
                        Box::new(Expr::new(ExprKind::Int(y.constant), 0, 0)),
                    ),
                    0,
                    0,
                );
                constant(&e2).ok_or_else(too_complex)?
            }
            ExprKind::Local { .. } | ExprKind::Reloc(..) => return Err(too_complex()),
        })
    }

    /// Folds `a - b` of two addresses in one section into a number, unless
    /// the section is code and `keep_code` (the linker may change the
    /// distance: GNU as 2.40 leaves it to the linker with or without
    /// relaxation).
    fn fold(&self, mut v: Linear, keep_code: bool) -> Linear {
        let place = |t: &Term| match t {
            Term::Label(_, s, o) | Term::Here(s, o) => Some((*s, *o)),
            Term::External(_) => None,
        };
        loop {
            let pair = v.terms.iter().enumerate().find_map(|(i, (t, c))| {
                let (s, _) = place(t)?;
                if keep_code && self.unit.sections[s].class.is_code() {
                    return None;
                }
                v.terms.iter().enumerate().find_map(|(j, (u, d))| {
                    (j != i && place(u).is_some_and(|(s2, _)| s2 == s) && c.signum() != d.signum())
                        .then_some((i, j))
                })
            });
            let Some((i, j)) = pair else { break };
            let (ti, ci) = v.terms[i].clone();
            let (tj, cj) = v.terms[j].clone();
            let step = ci.signum();
            let (oi, oj) = (place(&ti).unwrap().1 as i64, place(&tj).unwrap().1 as i64);
            v.constant = v.constant.wrapping_add(step * (oi - oj));
            v.terms[i].1 -= step;
            v.terms[j].1 += step;
            let _ = cj;
            v.terms.retain(|(_, c)| *c != 0);
        }
        v
    }

    fn target(&self, fx: &Fixup, section: usize) -> Result<Target, Diag> {
        let v = self
            .linear(&fx.expr, (section, fx.offset as u64), 0)
            .map_err(|(m, s, e)| Diag {
                ctx: fx.ctx,
                ..Diag::error(
                    Span {
                        file: fx.span.file,
                        start: s,
                        end: e,
                    },
                    m,
                    "here",
                )
            })?;
        let v = self.fold(v, true);
        let mut plus = v.terms.iter().filter(|(_, c)| *c == 1).map(|(t, _)| t);
        let mut minus = v.terms.iter().filter(|(_, c)| *c == -1).map(|(t, _)| t);
        let bad = v.terms.iter().any(|(_, c)| c.abs() != 1);
        match (plus.next(), plus.next(), minus.next(), minus.next(), bad) {
            (None, _, None, _, false) => Ok(Target::Abs(v.constant)),
            (Some(p), None, None, _, false) => Ok(Target::Sym(p.clone(), v.constant)),
            (Some(p), None, Some(m), None, false) => {
                Ok(Target::Diff(p.clone(), m.clone(), v.constant))
            }
            _ => Err(err(
                fx,
                "this value cannot be a relocation",
                "more symbols than `symbol + number` or `a - b`",
            )),
        }
    }

    /// The symbol index for a term, adding it when new.
    fn symbol(&mut self, t: &Term) -> usize {
        match t {
            Term::Label(name, section, offset) => {
                if let Some(&i) = self.by_name.get(name) {
                    return i;
                }
                self.push(OutSym {
                    name: object_name(name),
                    value: *offset,
                    size: 0,
                    bind: elf::STB_LOCAL,
                    ty: elf::STT_NOTYPE,
                    other: 0,
                    section: Some(*section),
                    shndx: elf::SHN_UNDEF,
                });
                let i = self.syms.len() - 1;
                self.by_name.insert(name.clone(), i);
                i
            }
            Term::Here(section, offset) => {
                self.push(OutSym {
                    name: ".L0 ".into(),
                    value: *offset,
                    size: 0,
                    bind: elf::STB_LOCAL,
                    ty: elf::STT_NOTYPE,
                    other: 0,
                    section: Some(*section),
                    shndx: elf::SHN_UNDEF,
                });
                self.syms.len() - 1
            }
            Term::External(name) => {
                if let Some(&i) = self.by_name.get(name) {
                    return i;
                }
                let sym = self.unit.symbols.get(name.as_str());
                self.push(OutSym {
                    name: name.clone(),
                    value: 0,
                    size: 0,
                    bind: if sym.is_some_and(|s| s.binding == Binding::Weak) {
                        elf::STB_WEAK
                    } else {
                        elf::STB_GLOBAL
                    },
                    ty: sym.map_or(elf::STT_NOTYPE, |s| s.ty.elf_type()),
                    other: sym.map_or(0, |s| s.visibility & 3),
                    section: None,
                    shndx: elf::SHN_UNDEF,
                });
                let i = self.syms.len() - 1;
                self.by_name.insert(name.clone(), i);
                i
            }
        }
    }

    fn push(&mut self, s: OutSym) {
        self.syms.push(s);
    }

    fn reloc(
        &mut self,
        section: usize,
        offset: u64,
        ty: elf::RelocationType,
        sym: Option<usize>,
        addend: i64,
    ) {
        self.relocs[section].push((offset, ty, sym, addend));
    }

    fn or_word(&mut self, section: usize, offset: usize, bits: u32) {
        let d = &mut self.data[section];
        let w = u32::from_le_bytes([d[offset], d[offset + 1], d[offset + 2], d[offset + 3]]) | bits;
        d[offset..offset + 4].copy_from_slice(&w.to_le_bytes());
    }

    fn word(&self, section: usize, offset: usize) -> u32 {
        let d = &self.data[section];
        d.get(offset..offset + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Turns one fixup into bytes or relocations.
    fn fixup(&mut self, si: usize, fx: &Fixup, calls: &[u64]) -> Result<(), Diag> {
        use elf::*;
        let off = fx.offset as u64;
        let relax = fx.relax;
        let mark = |w: &mut Self, addend: i64| {
            if relax {
                w.reloc(si, off, R_RISCV_RELAX, None, addend);
            }
        };
        // `%pcrel_hi`/`%pcrel_lo` (not `call`'s): also relaxation at the end
        // of the file (GNU as decides those when it applies the fixups).
        let pcrel_relax = relax && self.unit.relax_at_end;
        let mark_pcrel = |w: &mut Self, addend: i64| {
            if pcrel_relax {
                w.reloc(si, off, R_RISCV_RELAX, None, addend);
            }
        };
        // `la`'s addi and `call`'s jalr: see the `%pcrel_hi` they pair with.
        if let FixKind::PcrelLoBefore(field, back) = &fx.kind {
            let auipc = off - *back as u64;
            if calls.contains(&auipc) {
                return Ok(());
            }
            let sym = self.symbol(&Term::Here(si, auipc));
            let ty = if *field == Field::ImmS {
                R_RISCV_PCREL_LO12_S
            } else {
                R_RISCV_PCREL_LO12_I
            };
            self.reloc(si, off, ty, Some(sym), 0);
            mark_pcrel(self, 0);
            return Ok(());
        }
        let target = self.target(fx, si)?;
        if let FixKind::Reloc(ty, order) = fx.kind {
            return self.hand_reloc(si, fx, ty, order, target);
        }
        match (&fx.kind, target) {
            (FixKind::SymbolSize(name), t) => self.symbol_size(fx, name, t),
            (FixKind::Data(size), target) => self.data_fixup(si, fx, *size, target),
            (FixKind::PcRel(field), Target::Sym(t, a)) => self.pc_relative(si, fx, *field, t, a),
            (FixKind::Hi | FixKind::Lo(_), Target::Sym(t, a)) => {
                let ty = match fx.kind {
                    FixKind::Hi => R_RISCV_HI20,
                    FixKind::Lo(Field::ImmS) => R_RISCV_LO12_S,
                    _ => R_RISCV_LO12_I,
                };
                let s = self.symbol(&t);
                self.reloc(si, off, ty, Some(s), a);
                mark(self, a);
                // The addend's part goes in the field too, as GNU as writes it.
                let (hi, lo) = hi_lo(a);
                let bits = match fx.kind {
                    FixKind::Hi => Field::ImmU.insert(hi),
                    FixKind::Lo(field) => field.insert(lo),
                    _ => 0,
                };
                self.or_word(si, fx.offset as usize, bits);
                Ok(())
            }
            (FixKind::Hi, Target::Abs(v)) => {
                self.or_word(si, fx.offset as usize, Field::ImmU.insert(hi_lo(v).0));
                Ok(())
            }
            (FixKind::Lo(field), Target::Abs(v)) => {
                self.or_word(si, fx.offset as usize, field.insert(hi_lo(v).1));
                Ok(())
            }
            (FixKind::Field(field), Target::Abs(v)) => {
                let v = crate::expr::rv32_operand(v);
                field.check(v).map_err(|r| {
                    err(fx, format!("immediate {v} out of range"), "does not fit")
                        .with_help(r.to_string())
                })?;
                self.or_word(si, fx.offset as usize, field.insert(v as i32));
                Ok(())
            }
            (FixKind::PcrelHi, Target::Sym(t, a)) => {
                let s = self.symbol(&t);
                if calls.contains(&off) {
                    self.reloc(si, off, R_RISCV_CALL_PLT, Some(s), a);
                    mark(self, a);
                } else {
                    self.reloc(si, off, R_RISCV_PCREL_HI20, Some(s), a);
                    mark_pcrel(self, a);
                }
                Ok(())
            }
            // An absolute target of a pc-relative form (`jal t0, ABS`,
            // `%pcrel_hi(ABS)`): GNU as writes the relocation against no
            // symbol (*ABS*) with the value as addend; the field stays 0
            // and the auipc is not marked for relaxation.
            (FixKind::PcRel(field), Target::Abs(v)) => {
                let ty = if *field == Field::ImmB {
                    R_RISCV_BRANCH
                } else {
                    R_RISCV_JAL
                };
                self.reloc(si, off, ty, None, v);
                Ok(())
            }
            (FixKind::PcrelHi, Target::Abs(v)) if !calls.contains(&off) => {
                self.reloc(si, off, R_RISCV_PCREL_HI20, None, v);
                Ok(())
            }
            (FixKind::GotHi, Target::Sym(t, a)) => {
                // GNU as marks the GOT load's auipc for no relaxation.
                let s = self.symbol(&t);
                self.reloc(si, off, R_RISCV_GOT_HI20, Some(s), a);
                Ok(())
            }
            (FixKind::Tls(tls), Target::Sym(t, a)) => self.thread_local(si, fx, *tls, t, a),
            (FixKind::Tls(_), Target::Abs(_) | Target::Diff(..)) => Err(err(
                fx,
                "a thread-local operator needs a symbol",
                "not a thread-local variable",
            )),
            (FixKind::PcrelLoAt(field), Target::Sym(t, a)) => {
                let ty = if *field == Field::ImmS {
                    R_RISCV_PCREL_LO12_S
                } else {
                    R_RISCV_PCREL_LO12_I
                };
                let s = self.symbol(&t);
                self.reloc(si, off, ty, Some(s), a);
                mark_pcrel(self, a);
                Ok(())
            }
            // Unwind tables (`cfi`): the FDE's address relative to its
            // place; an advance the linker sets (its bytes hold the value
            // already, as GNU's do).
            (FixKind::Cfi(CfiFix::Pcrel32), Target::Sym(t, a)) => {
                let s = self.symbol(&t);
                self.reloc(si, off, R_RISCV_32_PCREL, Some(s), a);
                Ok(())
            }
            (FixKind::Cfi(CfiFix::Advance(_)), Target::Abs(_)) => Ok(()),
            (FixKind::Cfi(CfiFix::Advance(width)), Target::Diff(p, m, 0)) => {
                let (set, sub) = match width {
                    6 => (R_RISCV_SET6, R_RISCV_SUB6),
                    8 => (R_RISCV_SET8, R_RISCV_SUB8),
                    16 => (R_RISCV_SET16, R_RISCV_SUB16),
                    _ => (R_RISCV_SET32, R_RISCV_SUB32),
                };
                let (ps, ms) = (self.symbol(&p), self.symbol(&m));
                self.reloc(si, off, set, Some(ps), 0);
                self.reloc(si, off, sub, Some(ms), 0);
                Ok(())
            }
            (FixKind::Field(_), _) => Err(err(
                fx,
                "an address cannot go in this field of an object",
                "known only when linked",
            )
            .with_help("write `%lo(sym)`, `%pcrel_lo(label)`, or load it with `la`")),
            _ => Err(err(
                fx,
                "this value cannot be a relocation here",
                "known only when linked",
            )),
        }
    }

    /// A `.reloc`: written as given, in its order among the hand-written
    /// ones.
    fn hand_reloc(
        &mut self,
        si: usize,
        fx: &Fixup,
        ty: u32,
        order: u32,
        target: Target,
    ) -> Result<(), Diag> {
        let off = fx.offset as u64;
        if off > self.unit.sections[si].size {
            return Err(err(
                fx,
                "`.reloc` offset is past the end of the section",
                format!("the section has {} bytes", self.unit.sections[si].size),
            ));
        }
        let (sym, addend) = match target {
            Target::Abs(v) => (None, v),
            Target::Sym(t, a) => (Some(self.symbol(&t)), a),
            Target::Diff(..) => {
                return Err(err(
                    fx,
                    "a `.reloc` names one symbol and an addend",
                    "a difference",
                ));
            }
        };
        self.by_hand[si].push((order, (off, elf::RelocationType(ty), sym, addend)));
        Ok(())
    }

    /// `.size` by an expression: the symbol's size, a number.
    fn symbol_size(&mut self, fx: &Fixup, name: &str, t: Target) -> Result<(), Diag> {
        let size = match t {
            Target::Abs(v) => v,
            Target::Diff(
                Term::Label(_, _, a) | Term::Here(_, a),
                Term::Label(_, _, b) | Term::Here(_, b),
                c,
            ) => (a as i64 - b as i64).wrapping_add(c),
            _ => {
                return Err(err(
                    fx,
                    format!("the size of `{}` is not a number", display_name(name)),
                    "here",
                ));
            }
        };
        if let Some(&i) = self.by_name.get(name) {
            self.syms[i].size = size as u64;
        }
        Ok(())
    }

    /// Data (`.word`, `.byte`...): a number written, an address or a
    /// difference as relocations.
    fn data_fixup(&mut self, si: usize, fx: &Fixup, size: u8, target: Target) -> Result<(), Diag> {
        use elf::*;
        let off = fx.offset as u64;
        match target {
            Target::Abs(v) => {
                let bytes = fixup_data(v, size, fx.span).map_err(|d| Diag { ctx: fx.ctx, ..d })?;
                let o = fx.offset as usize;
                self.data[si][o..o + bytes.len()].copy_from_slice(&bytes);
                Ok(())
            }
            Target::Sym(t, a) => {
                let ty = match size {
                    4 => R_RISCV_32,
                    8 => R_RISCV_64,
                    _ => {
                        return Err(err(
                            fx,
                            format!("an address does not fit in {size} byte(s)"),
                            "needs .word or .dword",
                        ));
                    }
                };
                let s = self.symbol(&t);
                self.reloc(si, off, ty, Some(s), a);
                Ok(())
            }
            Target::Diff(p, m, a) => {
                let (add, sub) = match size {
                    1 => (R_RISCV_ADD8, R_RISCV_SUB8),
                    2 => (R_RISCV_ADD16, R_RISCV_SUB16),
                    4 => (R_RISCV_ADD32, R_RISCV_SUB32),
                    _ => (R_RISCV_ADD64, R_RISCV_SUB64),
                };
                let (ps, ms) = (self.symbol(&p), self.symbol(&m));
                self.reloc(si, off, add, Some(ps), a);
                self.reloc(si, off, sub, Some(ms), 0);
                Ok(())
            }
        }
    }

    /// A branch or `jal` to symbol `t` plus `a`.
    fn pc_relative(
        &mut self,
        si: usize,
        fx: &Fixup,
        field: Field,
        t: Term,
        a: i64,
    ) -> Result<(), Diag> {
        use elf::*;
        let off = fx.offset as u64;
        // A label of this section: the offset is checked and written
        // too (the linker overwrites it), as GNU as does.
        if let Term::Label(_, s, o) | Term::Here(s, o) = &t
            && *s == si
        {
            let rel = (*o as i64 + a) - off as i64;
            field.check(rel).map_err(|r| {
                err(
                    fx,
                    format!("target out of range: offset {rel}"),
                    "does not fit",
                )
                .with_help(r.to_string())
            })?;
            self.or_word(si, fx.offset as usize, field.insert(rel as i32));
        } else {
            // Elsewhere: the offset to its value in its own section
            // (0 for an undefined symbol), its bits as the field
            // holds them (odd, or out of reach, alike): GNU as's
            // "tentative value" for objdump, which the linker
            // overwrites.
            let value = match &t {
                Term::Label(_, _, o) | Term::Here(_, o) => *o as i64,
                Term::External(_) => 0,
            };
            let rel = value + a - off as i64;
            self.or_word(si, fx.offset as usize, field.insert(rel as i32));
        }
        let ty = if field == Field::ImmB {
            R_RISCV_BRANCH
        } else {
            R_RISCV_JAL
        };
        let s = self.symbol(&t);
        self.reloc(si, off, ty, Some(s), a);
        Ok(())
    }

    /// A thread-local operator on symbol `t` plus `a`.
    fn thread_local(
        &mut self,
        si: usize,
        fx: &Fixup,
        tls: TlsFix,
        t: Term,
        a: i64,
    ) -> Result<(), Diag> {
        use elf::*;
        let off = fx.offset as u64;
        // GNU as leaves the fields 0 and marks the local-exec
        // sequence (not the GOT forms) for relaxation.
        let (ty, relaxable) = match tls {
            TlsFix::TprelHi => (R_RISCV_TPREL_HI20, true),
            TlsFix::TprelLo(Field::ImmS) => (R_RISCV_TPREL_LO12_S, true),
            TlsFix::TprelLo(_) => (R_RISCV_TPREL_LO12_I, true),
            TlsFix::TprelAdd => (R_RISCV_TPREL_ADD, true),
            TlsFix::IePcrelHi => (R_RISCV_TLS_GOT_HI20, false),
            TlsFix::GdPcrelHi => (R_RISCV_TLS_GD_HI20, false),
        };
        let s = self.symbol(&t);
        // A symbol named by a thread-local operator is a TLS symbol.
        if self.syms[s].ty == STT_NOTYPE {
            self.syms[s].ty = STT_TLS;
        }
        self.reloc(si, off, ty, Some(s), a);
        if relaxable && fx.relax {
            self.reloc(si, off, R_RISCV_RELAX, None, a);
        }
        Ok(())
    }
}

fn constant(e: &Expr) -> Option<Linear> {
    match eval(e, &mut NoSymbols) {
        Ok(Value::Abs(v)) => Some(Linear {
            constant: v,
            terms: Vec::new(),
        }),
        _ => None,
    }
}

fn hi_lo(v: i64) -> (i32, i32) {
    crate::instr::split_hi_lo(v)
}

/// The name a symbol has in the object (a numeric local label `N` is
/// `.LN^B1`, as GNU as names it).
fn object_name(name: &str) -> String {
    match name.split_once('\u{2}') {
        Some((n, k)) => format!(".L{n}\u{2}{}", k.parse::<u32>().map_or(1, |k| k + 1)),
        None => name.to_string(),
    }
}

/// ELF type and flags of a section: from its `.section` flags and type,
/// else from its name as GNU as chooses.
fn section_header(s: &Section) -> (elf::SectionType, elf::SectionFlags) {
    use elf::*;
    let name = s.name.as_str();
    let has = |p: &str| name == p || name.starts_with(&format!("{p}."));
    let mut ty = match s.sh_type.as_deref() {
        Some("nobits") => SHT_NOBITS,
        Some("note") => SHT_NOTE,
        Some("init_array") => SHT_INIT_ARRAY,
        Some("fini_array") => SHT_FINI_ARRAY,
        Some("preinit_array") => SHT_PREINIT_ARRAY,
        _ => SHT_PROGBITS,
    };
    if s.sh_type.is_none() {
        if has(".bss") || has(".sbss") || has(".tbss") {
            ty = SHT_NOBITS;
        } else if has(".init_array") {
            ty = SHT_INIT_ARRAY;
        } else if has(".fini_array") {
            ty = SHT_FINI_ARRAY;
        } else if has(".preinit_array") {
            ty = SHT_PREINIT_ARRAY;
        } else if name.starts_with(".note") {
            ty = SHT_NOTE;
        }
    }
    let flags = match &s.flags {
        Some(f) => f
            .chars()
            .map(|c| match c {
                'a' => SHF_ALLOC,
                'w' => SHF_WRITE,
                'x' => SHF_EXECINSTR,
                'M' => SHF_MERGE,
                'S' => SHF_STRINGS,
                'T' => SHF_TLS,
                'G' => SHF_GROUP,
                'o' => SHF_LINK_ORDER,
                'e' => SHF_EXCLUDE,
                'R' => SHF_GNU_RETAIN,
                _ => elf::SectionFlags(0),
            })
            .fold(elf::SectionFlags(0), |a, b| a | b),
        None => match s.class {
            SectionClass::Text => SHF_ALLOC | SHF_EXECINSTR,
            SectionClass::Data | SectionClass::Bss => {
                let tls = if has(".tdata") || has(".tbss") {
                    SHF_TLS
                } else {
                    SectionFlags(0)
                };
                SHF_ALLOC | SHF_WRITE | tls
            }
            SectionClass::Rodata => SHF_ALLOC,
            SectionClass::NonAlloc if has(".comment") => SHF_MERGE | SHF_STRINGS,
            SectionClass::NonAlloc => elf::SectionFlags(0),
        },
    };
    // `?` puts a section in the group of the one before it.
    let flags = if s.group.is_some() {
        flags | SHF_GROUP
    } else {
        flags
    };
    (ty, flags)
}

/// The float ABI flag of `-mabi`.
pub fn abi_flags(abi: &str) -> Option<elf::FileFlags> {
    Some(match abi {
        "ilp32d" => elf::EF_RISCV_FLOAT_ABI_DOUBLE,
        "ilp32f" => elf::EF_RISCV_FLOAT_ABI_SINGLE,
        "ilp32" => elf::EF_RISCV_FLOAT_ABI_SOFT,
        _ => return None,
    })
}

/// Places each `.lcomm` symbol (and `.comm` of a `.local` name) in the
/// unit's `.bss`, as GNU as does.
fn place_local_commons(unit: &mut Unit) {
    // `.lcomm` symbols (and `.comm` of a `.local` name) go in `.bss`.
    let mut lcomm = Vec::new();
    for (name, sym) in &unit.symbols {
        if let SymDef::Bss(size, align) = sym.def {
            lcomm.push((name.clone(), size, align));
        }
    }
    if !lcomm.is_empty() {
        let bss = match unit.section_index.get(".bss") {
            Some(&i) => i,
            None => {
                unit.sections.push(Section::new(".bss", SectionClass::Bss));
                unit.section_index
                    .insert(".bss".into(), unit.sections.len() - 1);
                unit.sections.len() - 1
            }
        };
        for (name, size, align) in lcomm {
            let sec = &mut unit.sections[bss];
            let at = sec.size.div_ceil(align.max(1)) * align.max(1);
            sec.size = at + size;
            sec.align = sec.align.max(align as u32);
            let s = unit.symbols.get_mut(&name).expect("listed above");
            s.def = SymDef::Value(Value::Rel {
                section: bss,
                offset: at as i64,
            });
            if s.size.is_none() {
                s.size = Some(size);
            }
        }
    }
}

/// The sections GNU as always writes (`.data`, `.bss`) and `.comment` of
/// the `.ident` strings.
fn add_gnu_sections(unit: &mut Unit) {
    for (name, class) in [(".data", SectionClass::Data), (".bss", SectionClass::Bss)] {
        if !unit.section_index.contains_key(name) {
            unit.sections.push(Section::new(name, class));
            unit.section_index
                .insert(name.into(), unit.sections.len() - 1);
        }
    }
    if !unit.idents.is_empty() && !unit.section_index.contains_key(".comment") {
        let mut s = Section::new(".comment", SectionClass::NonAlloc);
        s.flags = Some("MS".into());
        s.entsize = 1;
        s.data.push(0);
        for i in &unit.idents {
            s.data.extend_from_slice(i.as_bytes());
            s.data.push(0);
        }
        s.size = s.data.len() as u64;
        unit.sections.push(s);
    }
}

/// Writes one unit as a relocatable object; errors are values that cannot
/// be relocations. `e_flags` is the ABI's (see [`abi_flags`]).
pub fn write(
    unit: &mut Unit,
    _opts: &Options,
    e_flags: elf::FileFlags,
) -> Result<Vec<u8>, Vec<Diag>> {
    place_local_commons(unit);
    add_gnu_sections(unit);
    let unit = &*unit;
    let mut w = Writer1 {
        unit,
        diags: Vec::new(),
        syms: Vec::new(),
        by_name: HashMap::new(),
        relocs: vec![Vec::new(); unit.sections.len()],
        by_hand: vec![Vec::new(); unit.sections.len()],
        data: unit.sections.iter().map(|s| s.data.clone()).collect(),
    };

    // The file's symbols, in the order they were first seen.
    if let Some(f) = &unit.file_name {
        w.push(OutSym {
            name: f.clone(),
            value: 0,
            size: 0,
            bind: elf::STB_LOCAL,
            ty: elf::STT_FILE,
            other: 0,
            section: None,
            shndx: elf::SHN_ABS,
        });
    }
    for (name, sym) in &unit.symbols {
        // `.L` names stay out unless made global (`.globl .Lx`, as GNU as).
        let referenced_only = is_assembler_local(name) && sym.binding == Binding::Local;
        if referenced_only {
            continue;
        }
        // `.set g, f`: g takes f's type and size when it has none.
        let target = sym.alias_of.as_deref().and_then(|t| unit.symbols.get(t));
        let ty = match (sym.ty, target) {
            (SymType::NoType, Some(t)) => t.ty,
            (ty, _) => ty,
        };
        let size = sym.size.or(target.and_then(|t| t.size));
        let bind = match sym.binding {
            _ if sym.unique => elf::STB_GNU_UNIQUE,
            Binding::Local => elf::STB_LOCAL,
            Binding::Global => elf::STB_GLOBAL,
            Binding::Weak => elf::STB_WEAK,
        };
        let mut out = OutSym {
            name: name.to_string(),
            value: 0,
            size: size.unwrap_or(0),
            bind,
            ty: ty.elf_type(),
            other: sym.visibility & 3,
            section: None,
            shndx: elf::SHN_ABS,
        };
        match &sym.def {
            SymDef::Undefined => {
                if sym.binding == Binding::Local {
                    continue; // only referenced: added with its relocation
                }
                out.shndx = elf::SHN_UNDEF;
            }
            SymDef::Bss(..) => unreachable!("`write` places every `.lcomm` in `.bss` first"),
            SymDef::Common(size, align) => {
                out.shndx = elf::SHN_COMMON;
                out.value = *align;
                out.size = *size;
            }
            SymDef::Value(Value::Abs(v)) => out.value = *v as u64,
            SymDef::Value(Value::Rel { section, offset }) => {
                // A symbol in a TLS section is a TLS symbol whatever its
                // `.type` (GNU as: thread-local wins over function and
                // object).
                if unit.sections[*section].is_tls() {
                    out.ty = elf::STT_TLS;
                }
                out.section = Some(*section);
                out.value = *offset as u64;
            }
            SymDef::Deferred(e, _, section, offset) => {
                match w
                    .linear(e, (*section, *offset), 0)
                    .map(|v| w.fold(v, false))
                {
                    Ok(v) if v.terms.is_empty() => out.value = v.constant as u64,
                    Ok(v) => match v.terms.as_slice() {
                        [(Term::Label(_, s, o) | Term::Here(s, o), 1)] => {
                            out.section = Some(*s);
                            out.value = (*o as i64 + v.constant) as u64;
                        }
                        _ => continue, // an alias of an external symbol: not written
                    },
                    Err(_) => continue,
                }
            }
        }
        w.by_name.insert(name.to_string(), w.syms.len());
        w.push(out);
    }

    // `call`-like pairs: an auipc with `%pcrel_hi` and a jalr with its `%pcrel_lo`.
    for (si, sec) in unit.sections.iter().enumerate() {
        let calls: Vec<u64> = sec
            .fixups
            .iter()
            .filter(|f| {
                matches!(f.kind, FixKind::PcrelLoBefore(_, 4))
                    && w.word(si, f.offset as usize) & 0x7f == 0x67
            })
            .map(|f| f.offset as u64 - 4)
            .collect();
        for fx in &sec.fixups {
            if let Err(d) = w.fixup(si, fx, &calls) {
                w.diags.push(d);
            }
        }
        for &(at, pad) in &sec.aligns {
            w.reloc(si, at, elf::R_RISCV_ALIGN, None, pad as i64);
        }
        w.relocs[si].sort_by_key(|r| r.0);
        // GNU as puts each `.reloc` (in the order written) before the first
        // relocation of a higher offset that is still to come.
        let mut hand = std::mem::take(&mut w.by_hand[si]);
        hand.sort_by_key(|h| h.0);
        let hand: Vec<Reloc> = hand.into_iter().map(|h| h.1).collect();
        if !hand.is_empty() {
            let mut merged = Vec::with_capacity(w.relocs[si].len() + hand.len());
            let mut pending = hand.into_iter().peekable();
            for r in std::mem::take(&mut w.relocs[si]) {
                while let Some(h) = pending.next_if(|h| h.0 < r.0) {
                    merged.push(h);
                }
                merged.push(r);
            }
            merged.extend(pending);
            w.relocs[si] = merged;
        }
    }
    if !w.diags.is_empty() {
        return Err(w.diags);
    }

    let mut attributes = unit.attributes.clone();
    if !attributes.iter().any(|(t, _)| *t == 5) {
        attributes.push((5, AttrValue::Str(RV32G_ARCH.into())));
    }
    // Tag_RISCV_priv_spec (8) and _minor (10): GNU as 2.40 writes 1.11
    // once an instruction names a CSR.
    if unit.names_csr && !attributes.iter().any(|(t, _)| matches!(t, 8 | 10)) {
        attributes.push((8, AttrValue::Int(1)));
        attributes.push((10, AttrValue::Int(11)));
    }
    attributes.sort_by_key(|(t, _)| *t);
    let attributes = crate::elf::attributes_section(&attributes, &unit.gnu_attributes);
    emit(unit, &w, &attributes, e_flags).map_err(|e| {
        vec![Diag::error(
            Span::default(),
            format!("cannot write the object: {e}"),
            "",
        )]
    })
}

/// A group of the object: its signature, whether COMDAT, and its member
/// sections (indices in the unit) in order.
struct ObjGroup {
    signature: String,
    comdat: bool,
    members: Vec<usize>,
}

/// The unit's section groups, in order of first appearance (sections of
/// one signature form one group).
fn groups(unit: &Unit) -> Vec<ObjGroup> {
    let mut out: Vec<ObjGroup> = Vec::new();
    for (si, s) in unit.sections.iter().enumerate() {
        let Some(g) = &s.group else { continue };
        match out.iter_mut().find(|o| o.signature == g.signature) {
            Some(o) => o.members.push(si),
            None => out.push(ObjGroup {
                signature: g.signature.clone(),
                comdat: g.comdat,
                members: vec![si],
            }),
        }
    }
    out
}

fn emit(
    unit: &Unit,
    w: &Writer1,
    attributes: &[u8],
    e_flags: elf::FileFlags,
) -> Result<Vec<u8>, object::write::Error> {
    let mut buf = Vec::new();
    let mut out = Writer::new(Endianness::Little, false, &mut buf);
    out.reserve_file_header();

    // Sections: the groups (GNU as writes them first), the unit's,
    // `.riscv.attributes`, then relocations.
    out.reserve_null_section_index();
    let groups = groups(unit);
    let group_index: Vec<_> = groups.iter().map(|_| out.reserve_section_index()).collect();
    let group_name = (!groups.is_empty()).then(|| out.add_section_name(b".group"));
    let headers: Vec<(elf::SectionType, elf::SectionFlags)> =
        unit.sections.iter().map(section_header).collect();
    let mut index = Vec::new();
    let mut names = Vec::new();
    for s in &unit.sections {
        index.push(out.reserve_section_index());
        names.push(out.add_section_name(s.name.as_bytes()));
    }
    let attr_index = out.reserve_section_index();
    let attr_name = out.add_section_name(b".riscv.attributes");
    let rela_names: Vec<String> = unit
        .sections
        .iter()
        .map(|s| format!(".rela{}", s.name))
        .collect();
    let mut rela = Vec::new();
    for (si, name) in rela_names.iter().enumerate() {
        if w.relocs[si].is_empty() {
            rela.push(None);
        } else {
            rela.push(Some((
                out.reserve_section_index(),
                out.add_section_name(name.as_bytes()),
            )));
        }
    }

    // Symbols: null, section symbols, locals, then globals.
    let SymbolLayout {
        order,
        locals,
        position,
        names: sym_names,
        signatures: signature_syms,
        num_local,
    } = reserve_symbols(&mut out, w, &index, &groups, &group_index);
    let symtab = out.reserve_symtab_section_index();
    out.reserve_symtab();
    out.reserve_strtab_section_index();
    out.reserve_strtab()?;
    out.reserve_shstrtab_section_index();
    out.reserve_shstrtab()?;

    // Contents.
    let Offsets {
        groups: group_offsets,
        sections: offsets,
        attributes: attr_off,
        relocations: rela_offsets,
    } = reserve_contents(&mut out, unit, w, &groups, &rela, &headers, attributes);
    out.reserve_section_headers();

    // GNU as marks an object with an indirect function or a unique symbol
    // as GNU's OS/ABI.
    let gnu_abi = unit
        .symbols
        .values()
        .any(|s| s.ty == SymType::Ifunc || s.unique);
    out.write_file_header(&FileHeader {
        os_abi: if gnu_abi {
            elf::ELFOSABI_GNU
        } else {
            elf::ELFOSABI_NONE
        },
        abi_version: 0,
        e_type: elf::ET_REL,
        e_machine: elf::EM_RISCV,
        e_entry: 0,
        e_flags,
    })?;
    out.write_null_symbol();
    for &i in &index {
        out.write_symbol(&Sym {
            st_name: 0,
            section: Some(i.0),
            st_info: elf::SymbolInfo::new(elf::STB_LOCAL, elf::STT_SECTION),
            st_other: elf::SymbolOther(0),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: 0,
        });
    }
    write_symbols(
        &mut out,
        w,
        &index,
        &order,
        &sym_names,
        locals,
        &signature_syms,
    );
    out.write_strtab();
    out.write_shstrtab();
    let group_sizes = write_groups(&mut out, &groups, &group_offsets, &index, &rela);
    for (si, s) in unit.sections.iter().enumerate() {
        if headers[si].0 != elf::SHT_NOBITS && !s.data.is_empty() {
            out.pad_until(offsets[si]);
            out.write(&w.data[si]);
        }
    }
    out.pad_until(attr_off);
    out.write(attributes);
    for (si, relocs) in w.relocs.iter().enumerate() {
        if relocs.is_empty() {
            continue;
        }
        out.pad_until(rela_offsets[si]);
        for &(offset, ty, sym, addend) in relocs {
            out.write_relocation(
                true,
                &Rel {
                    r_offset: offset,
                    r_sym: sym.map_or(0, |i| position[i]),
                    r_type: ty,
                    r_addend: addend,
                },
            );
        }
        let _ = si;
    }

    out.write_null_section_header();
    let signatures: Vec<u32> = groups
        .iter()
        .zip(&group_index)
        .map(|(g, gi)| match w.by_name.get(&g.signature) {
            Some(&i) => position[i],
            None => {
                signature_syms
                    .iter()
                    .find(|s| s.0 == *gi)
                    .expect("reserved above")
                    .2
            }
        })
        .collect();
    for (gi, &signature) in signatures.iter().enumerate() {
        out.write_section_header(&SectionHeader {
            sh_link: symtab.0,
            sh_info: signature,
            sh_entsize: 4,
            ..header(
                out.section_name_offset(group_name),
                elf::SHT_GROUP,
                group_offsets[gi],
                group_sizes[gi],
                4,
            )
        });
    }
    for (si, s) in unit.sections.iter().enumerate() {
        let (ty, flags) = headers[si];
        let h = header(
            out.section_name_offset(Some(names[si])),
            ty,
            offsets[si],
            s.size,
            s.align.max(1) as u64,
        );
        out.write_section_header(&SectionHeader {
            sh_flags: flags,
            sh_entsize: s.entsize,
            ..h
        });
    }
    let h = header(
        out.section_name_offset(Some(attr_name)),
        elf::SHT_RISCV_ATTRIBUTES,
        attr_off,
        attributes.len() as u64,
        1,
    );
    out.write_section_header(&h);
    let _ = attr_index;
    write_rela_headers(&mut out, unit, w, &rela, &rela_offsets, &index, symtab);
    out.write_symtab_section_header(num_local);
    out.write_strtab_section_header();
    out.write_shstrtab_section_header();
    Ok(buf)
}

/// Where the object's contents go (file offsets).
struct Offsets {
    groups: Vec<u64>,
    sections: Vec<u64>,
    attributes: u64,
    relocations: Vec<u64>,
}

/// Reserves the contents: the groups, the unit's sections, the attributes,
/// the relocations.
fn reserve_contents(
    out: &mut Writer,
    unit: &Unit,
    w: &Writer1,
    groups: &[ObjGroup],
    rela: &[RelaSection],
    headers: &[(elf::SectionType, elf::SectionFlags)],
    attributes: &[u8],
) -> Offsets {
    let group_offsets: Vec<u64> = groups
        .iter()
        .map(|g| {
            let relocated = g.members.iter().filter(|&&si| rela[si].is_some()).count();
            out.reserve_comdat(g.members.len() + relocated)
        })
        .collect();
    let mut offsets = Vec::new();
    for (s, (ty, _)) in unit.sections.iter().zip(headers) {
        offsets.push(if *ty == elf::SHT_NOBITS || s.data.is_empty() {
            0
        } else {
            out.reserve(s.data.len() as u64, s.align.max(1) as u64)
        });
    }
    let attr_off = out.reserve(attributes.len() as u64, 1);
    let rela_offsets: Vec<u64> = (0..unit.sections.len())
        .map(|si| {
            if w.relocs[si].is_empty() {
                0
            } else {
                out.reserve_relocations(w.relocs[si].len(), true)
            }
        })
        .collect();
    Offsets {
        groups: group_offsets,
        sections: offsets,
        attributes: attr_off,
        relocations: rela_offsets,
    }
}

/// Where the symbol table puts each symbol (see [`reserve_symbols`]).
struct SymbolLayout {
    /// Indices into `Writer1::syms`: locals first.
    order: Vec<usize>,
    /// How many of `order` are local.
    locals: usize,
    /// Each symbol's index in the table.
    position: Vec<u32>,
    /// Their names, in `order`.
    names: Vec<object::write::StringId>,
    /// Group signatures made local symbols: group section, name, index.
    signatures: Vec<(
        object::write::elf::SectionIndex,
        object::write::StringId,
        u32,
    )>,
    /// The table's count of local entries.
    num_local: u32,
}

/// Reserves the symbol table: null, section symbols, locals, the group
/// signatures that name no symbol of the file, then the rest.
fn reserve_symbols<'a>(
    out: &mut Writer<'a>,
    w: &'a Writer1,
    index: &[object::write::elf::SectionIndex],
    groups: &'a [ObjGroup],
    group_index: &[object::write::elf::SectionIndex],
) -> SymbolLayout {
    out.reserve_null_symbol_index();
    for &i in index {
        out.reserve_symbol_index(Some(i));
    }
    let order: Vec<usize> = (0..w.syms.len())
        .filter(|&i| w.syms[i].bind == elf::STB_LOCAL)
        .chain((0..w.syms.len()).filter(|&i| w.syms[i].bind != elf::STB_LOCAL))
        .collect();
    let locals = order
        .iter()
        .take_while(|&&i| w.syms[i].bind == elf::STB_LOCAL)
        .count();
    let mut position = vec![0u32; w.syms.len()];
    let mut sym_names = Vec::new();
    for &i in &order[..locals] {
        let s = &w.syms[i];
        sym_names.push(out.add_string(s.name.as_bytes()));
        position[i] = out.reserve_symbol_index(s.section.map(|k| index[k])).0;
    }
    // A signature that names no symbol of the file becomes a local symbol
    // in its group's section, as GNU as makes it.
    let mut signature_syms = Vec::new();
    for (g, &gi) in groups.iter().zip(group_index) {
        if !w.by_name.contains_key(&g.signature) {
            let name = out.add_string(g.signature.as_bytes());
            let at = out.reserve_symbol_index(Some(gi)).0;
            signature_syms.push((gi, name, at));
        }
    }
    for &i in &order[locals..] {
        let s = &w.syms[i];
        sym_names.push(out.add_string(s.name.as_bytes()));
        position[i] = out.reserve_symbol_index(s.section.map(|k| index[k])).0;
    }
    let num_local = 1 + index.len() as u32 + locals as u32 + signature_syms.len() as u32;
    SymbolLayout {
        order,
        locals,
        position,
        names: sym_names,
        signatures: signature_syms,
        num_local,
    }
}

/// A section header without flags, link or entry size (set what differs).
fn header(sh_name: u32, ty: elf::SectionType, offset: u64, size: u64, align: u64) -> SectionHeader {
    SectionHeader {
        sh_name,
        sh_type: ty,
        sh_flags: elf::SectionFlags(0),
        sh_addr: 0,
        sh_offset: offset,
        sh_size: size,
        sh_link: 0,
        sh_info: 0,
        sh_addralign: align,
        sh_entsize: 0,
    }
}

/// A relocation section of the object: its index and name.
type RelaSection = Option<(object::write::elf::SectionIndex, object::write::StringId)>;

/// The symbol table's entries after the section symbols: the locals, the
/// group signatures made local, then the rest.
fn write_symbols(
    out: &mut Writer,
    w: &Writer1,
    index: &[object::write::elf::SectionIndex],
    order: &[usize],
    sym_names: &[object::write::StringId],
    locals: usize,
    signature_syms: &[(
        object::write::elf::SectionIndex,
        object::write::StringId,
        u32,
    )],
) {
    let write_sym = |out: &mut Writer, i: usize, name: &object::write::StringId| {
        let s = &w.syms[i];
        out.write_symbol(&Sym {
            st_name: out.string_offset(Some(*name)),
            section: s.section.map(|k| index[k].0),
            st_info: elf::SymbolInfo::new(s.bind, s.ty),
            st_other: elf::SymbolOther(s.other),
            st_shndx: s.shndx,
            st_value: s.value,
            st_size: s.size,
        });
    };
    for (&i, name) in order.iter().zip(sym_names).take(locals) {
        write_sym(out, i, name);
    }
    for &(gi, name, _) in signature_syms {
        out.write_symbol(&Sym {
            st_name: out.string_offset(Some(name)),
            section: Some(gi.0),
            st_info: elf::SymbolInfo::new(elf::STB_LOCAL, elf::STT_NOTYPE),
            st_other: elf::SymbolOther(0),
            st_shndx: elf::SymbolSection(0),
            st_value: 0,
            st_size: 0,
        });
    }
    for (&i, name) in order.iter().zip(sym_names).skip(locals) {
        write_sym(out, i, name);
    }
}

/// Each group's contents (its flags word, then each member and its
/// relocations) at its reserved offset; returns their sizes.
fn write_groups(
    out: &mut Writer,
    groups: &[ObjGroup],
    offsets: &[u64],
    index: &[object::write::elf::SectionIndex],
    rela: &[RelaSection],
) -> Vec<u64> {
    let mut sizes = Vec::new();
    for (g, &at) in groups.iter().zip(offsets) {
        out.pad_until(at);
        let mut words = vec![if g.comdat { elf::GRP_COMDAT.0 } else { 0 }];
        for &si in &g.members {
            words.push(index[si].0);
            if let Some((r, _)) = rela[si] {
                words.push(r.0);
            }
        }
        for word in &words {
            out.write(&word.to_le_bytes());
        }
        sizes.push(4 * words.len() as u64);
    }
    sizes
}

/// The relocation sections' headers (a grouped section's in its group).
fn write_rela_headers(
    out: &mut Writer,
    unit: &Unit,
    w: &Writer1,
    rela: &[RelaSection],
    offsets: &[u64],
    index: &[object::write::elf::SectionIndex],
    symtab: object::write::elf::SectionIndex,
) {
    for (si, r) in rela.iter().enumerate() {
        if let Some((_, name)) = r {
            let grouped = if unit.sections[si].group.is_some() {
                elf::SHF_GROUP
            } else {
                elf::SectionFlags(0)
            };
            out.write_section_header(&SectionHeader {
                sh_name: out.section_name_offset(Some(*name)),
                sh_type: elf::SHT_RELA,
                sh_flags: elf::SHF_INFO_LINK | grouped,
                sh_addr: 0,
                sh_offset: offsets[si],
                sh_size: 12 * w.relocs[si].len() as u64,
                sh_link: symtab.0,
                sh_info: index[si].0,
                sh_addralign: 4,
                sh_entsize: 12,
            });
        }
    }
}
