//! Fixups into bytes or relocations ([`Writer1::fixup`]): every kind of
//! fixup the first pass leaves, by the value its expression has here (a
//! constant, a symbol plus an addend, or a difference).

use isa_spec::Field;
use object::elf;

use super::{Target, Term, Writer1, err, hi_lo};
use crate::diag::Diag;
use crate::directives::fixup_data;
use crate::pass1::display_name;
use crate::unit::*;

impl Writer1<'_> {
    /// Turns one fixup into bytes or relocations.
    ///
    /// Long: one match with an arm per kind of fixup and target.
    pub(super) fn fixup(&mut self, si: usize, fx: &Fixup, calls: &[u64]) -> Result<(), Diag> {
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
        if let FixKind::Cfi(cfi) = fx.kind {
            return self.cfi(si, fx, cfi, target);
        }
        match (&fx.kind, target) {
            (FixKind::SymbolSize(name), t) => self.symbol_size(fx, name, t),
            (FixKind::Data(size), target) => self.data_fixup(si, fx, *size, target),
            (FixKind::PcRel(field), Target::Sym(t, a)) => self.pc_relative(si, fx, *field, t, a),
            (FixKind::Hi | FixKind::Lo(_), Target::Sym(t, a)) => {
                self.hi_lo(si, fx, t, a);
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
            (FixKind::Field(_), _) => Err(err(
                fx,
                "an address cannot go in this field of an object",
                "known only when linked",
            )
            .with_help("write `%lo(sym)`, `%pcrel_lo(label)`, or load it with `la`")),
            _ => Err(not_a_relocation(fx)),
        }
    }

    /// `%hi`/`%lo` of a symbol: its relocation (marked for relaxation
    /// with the instruction), and the addend's part in the field too, as
    /// GNU as writes it.
    fn hi_lo(&mut self, si: usize, fx: &Fixup, t: Term, a: i64) {
        use elf::*;
        let off = fx.offset as u64;
        let ty = match fx.kind {
            FixKind::Hi => R_RISCV_HI20,
            FixKind::Lo(Field::ImmS) => R_RISCV_LO12_S,
            _ => R_RISCV_LO12_I,
        };
        let s = self.symbol(&t);
        self.reloc(si, off, ty, Some(s), a);
        if fx.relax {
            self.reloc(si, off, R_RISCV_RELAX, None, a);
        }
        let (hi, lo) = hi_lo(a);
        let bits = match fx.kind {
            FixKind::Hi => Field::ImmU.insert(hi),
            FixKind::Lo(field) => field.insert(lo),
            _ => 0,
        };
        self.or_word(si, fx.offset as usize, bits);
    }

    /// Unwind tables (`cfi`): the FDE's address relative to its place; an
    /// advance the linker sets (its bytes hold the value already, as GNU's
    /// do).
    fn cfi(&mut self, si: usize, fx: &Fixup, cfi: CfiFix, target: Target) -> Result<(), Diag> {
        use elf::*;
        let off = fx.offset as u64;
        match (cfi, target) {
            (CfiFix::Pcrel32, Target::Sym(t, a)) => {
                let s = self.symbol(&t);
                self.reloc(si, off, R_RISCV_32_PCREL, Some(s), a);
            }
            (CfiFix::Advance(_), Target::Abs(_)) => {}
            (CfiFix::Advance(width), Target::Diff(p, m, 0)) => {
                let (set, sub) = match width {
                    6 => (R_RISCV_SET6, R_RISCV_SUB6),
                    8 => (R_RISCV_SET8, R_RISCV_SUB8),
                    16 => (R_RISCV_SET16, R_RISCV_SUB16),
                    _ => (R_RISCV_SET32, R_RISCV_SUB32),
                };
                self.difference(si, off, (set, sub), &p, &m, 0);
            }
            _ => return Err(not_a_relocation(fx)),
        }
        Ok(())
    }

    /// The pair of relocations of a difference `p - m + addend` at `off`:
    /// `first` (an ADD or a SET of the width) against `p` with the addend,
    /// then `sub` against `m`, as GNU as writes them.
    fn difference(
        &mut self,
        si: usize,
        off: u64,
        (first, sub): (elf::RelocationType, elf::RelocationType),
        p: &Term,
        m: &Term,
        addend: i64,
    ) {
        let (ps, ms) = (self.symbol(p), self.symbol(m));
        self.reloc(si, off, first, Some(ps), addend);
        self.reloc(si, off, sub, Some(ms), 0);
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
                self.difference(si, off, (add, sub), &p, &m, a);
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

/// The error of a value that no relocation of the fixup's kind can hold.
fn not_a_relocation(fx: &Fixup) -> Diag {
    err(
        fx,
        "this value cannot be a relocation here",
        "known only when linked",
    )
}
