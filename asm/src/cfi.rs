//! Unwind tables (`.eh_frame`, `.debug_frame`) from the compiler's `.cfi_*`
//! directives, as GNU as 2.40 writes them: the directives (here, from one
//! line in `directives`), GNU's checks and errors, the CIEs and FDEs with
//! GNU's CIE sharing, and the relocations that keep them right when the
//! linker relaxes code.
//!
//! Where the linker may move code, GNU as's rule decides what is a number
//! and what a relocation: each instruction a linker could shrink or delete
//! (`lui`/`auipc` forms, `%tprel_add`, branches and jumps to symbols, code
//! alignment, `.space`/`.fill`/`.org`) ends one of its internal "fragments";
//! an advance between two places of one fragment is a number
//! (`DW_CFA_advance_loc*`), across fragments a label difference the linker
//! fixes (`R_RISCV_SET6`/`SUB6` in the opcode byte, `SET8`/`SUB8`,
//! `SET16`/`SUB16`, `SET32`/`SUB32` in the operand). [`Pass1::cfi_break`]
//! is called at those places. The FDE's address is `R_RISCV_32_PCREL`
//! (`.eh_frame`) or `R_RISCV_32` (`.debug_frame`), its length an
//! `R_RISCV_ADD32`/`SUB32` pair.
//!
//! Over 600 lines: one directive family end to end (GNU's checks, the CIE
//! and FDE encoding with CIE sharing, the fragments' relocations), whose
//! parts share the open procedure's state (`pass1/cfi_state.rs`).

use gimli::constants as dw;

use crate::ast::{Expr, Operand};
use crate::diag::Diag;
use crate::directives::Call;
use crate::dwarf::{difference, sleb, sym, uleb};
use crate::expr::Value;
use crate::pass1::{CHUNK_BYTES, Chunk, FRAG_HEADER, Fde, Insn, Pass1, Point, Stmt};
use crate::source::Span;
use crate::unit::*;

/// `.cfi_sections` bits.
const EH_FRAME: u8 = 1;
const DEBUG_FRAME: u8 = 2;
/// The CIE's data alignment factor (GNU's for RV32: -4).
const DATA_ALIGN: i64 = -4;
/// The CIE version GNU as 2.40 writes for RISC-V.
const CIE_VERSION: u8 = 3;
/// `ra`: the default return address column.
const RETURN_COLUMN: u64 = 1;
/// `sp`.
const SP: u64 = 2;
/// `DW_EH_PE_pcrel | DW_EH_PE_sdata4`: how `.eh_frame` FDEs give their address.
const FDE_ENCODING: u8 = 0x1b;

/// What a directive does, once its procedure is known.
enum Op {
    Insn(Insn),
    /// `.cfi_restore`/`.cfi_undefined` of a list: one instruction each.
    Insns(Vec<Insn>),
    /// `.cfi_def_cfa`/`.cfi_def_cfa_offset`/`.cfi_adjust_cfa_offset`:
    /// also the CFA offset `.cfi_rel_offset` is relative to.
    Cfa(Insn, i64),
    RelOffset(u64, i64),
    Adjust(i64),
    Remember,
    Restore,
    ReturnColumn(u64),
    SignalFrame,
}

/// Whether GNU as ends a fragment after an instruction (`upper`: a `lui`
/// or `auipc`) with these fixups, as it does after those the linker may
/// change: `lui` and `auipc` (but the TLS GOT forms' and
/// `%got_pcrel_hi`'s), `%hi`, `%pcrel_hi`, `%tprel_hi`, `%tprel_add`,
/// branches and jumps to symbols.
pub(crate) fn ends_fragment(upper: bool, fixes: &[(FixKind, Expr)]) -> bool {
    let got = fixes.iter().any(|(k, _)| {
        matches!(
            k,
            FixKind::GotHi | FixKind::Tls(TlsFix::IePcrelHi | TlsFix::GdPcrelHi)
        )
    });
    (upper && !got)
        || fixes.iter().any(|(k, _)| {
            matches!(
                k,
                FixKind::PcRel(_)
                    | FixKind::Hi
                    | FixKind::PcrelHi
                    | FixKind::Tls(TlsFix::TprelHi | TlsFix::TprelAdd)
            )
        })
}

impl Pass1<'_, '_> {
    /// After an instruction word with these fixups: the fragment GNU as
    /// ends there, if it does. A branch or jump to a symbol is a variable
    /// piece of 8 bytes in GNU as (its longest form).
    pub(crate) fn cfi_after_insn(&mut self, upper: bool, fixes: &[(FixKind, Expr)]) {
        if self.cfi.in_call {
        } else if fixes.iter().any(|(k, _)| matches!(k, FixKind::PcRel(_))) {
            self.cfi_var(4);
        } else if ends_fragment(upper, fixes) {
            self.cfi_break();
        }
    }
}

/// The `.cfi_*` directives that write an instruction (after `.cfi_`).
const CFI_INSNS: &[&str] = &[
    "def_cfa",
    "def_cfa_register",
    "def_cfa_offset",
    "adjust_cfa_offset",
    "offset",
    "rel_offset",
    "val_offset",
    "register",
    "return_column",
    "restore",
    "undefined",
    "same_value",
    "remember_state",
    "restore_state",
    "window_save",
    "negate_ra_state",
    "escape",
    "signal_frame",
];

/// The `.cfi_*` directives of exception-handling tables, not supported.
const CFI_UNSUPPORTED: &[&str] = &[
    "personality",
    "lsda",
    "val_encoded_addr",
    "label",
    "inline_lsda",
    "fde_data",
    "personality_id",
];

impl Pass1<'_, '_> {
    /// GNU as ends a fragment here (after an instruction the linker may
    /// change, an alignment, `.space`, `.fill`, `.org`): a CFI advance
    /// across this point is a relocation.
    pub(crate) fn cfi_break(&mut self) {
        let (n, c) = self.cfi.frags.entry(self.cur).or_default();
        *n += 1;
        c.used = c.used.next_multiple_of(8);
        if c.room - c.used < FRAG_HEADER {
            *c = Chunk {
                used: 0,
                room: CHUNK_BYTES,
            };
        }
        c.used += FRAG_HEADER;
    }

    /// `count` bytes of contents in one piece (GNU's `frag_more`): a new
    /// fragment in a new chunk when they do not fit.
    pub(crate) fn cfi_more(&mut self, count: u64) {
        self.cfi_grow(count);
        self.cfi.frags.entry(self.cur).or_default().1.used += count;
    }

    /// Room for `count` bytes in the current fragment (GNU's `frag_grow`):
    /// a new fragment in a new chunk when there is not.
    fn cfi_grow(&mut self, count: u64) {
        let (n, c) = self.cfi.frags.entry(self.cur).or_default();
        if c.room - c.used < count {
            *n += 1;
            // A piece larger than a chunk gets a chunk of twice its size.
            let size = if count < 0x10000 {
                2 * count
            } else {
                count + 0x10000
            } + FRAG_HEADER;
            *c = Chunk {
                used: FRAG_HEADER,
                room: CHUNK_BYTES.max(size.saturating_sub(16)),
            };
        }
    }

    /// Before the words of a `call`/`tail`/`jump` (an `auipc` and a `jalr`
    /// with `%pcrel_hi`/`%pcrel_lo`): GNU as makes room for both in one
    /// fragment and ends it after the `jalr` (not after the `auipc`).
    /// Returns whether `list` is one; then [`Self::cfi_call_end`] follows.
    pub(crate) fn cfi_call_start(&mut self, list: &[crate::pass1::Built]) -> bool {
        let call = matches!(list, [a, j]
            if a.inst.op == isa_spec::Opcode::Auipc
                && j.inst.op == isa_spec::Opcode::Jalr
                && a.fixes.iter().any(|f| f.0 == FixKind::PcrelHi)
                && j.fixes.iter().any(|f| matches!(f.0, FixKind::PcrelLoBefore(_, 4))));
        if call {
            self.cfi_grow(8);
            self.cfi.in_call = true;
        }
        call
    }

    /// After a call's words.
    pub(crate) fn cfi_call_end(&mut self) {
        self.cfi.in_call = false;
        self.cfi_break();
    }

    /// A variable piece of at most `max` bytes (GNU's `frag_var`: an
    /// alignment, `.space`, `.fill`, `.org`, a relaxable branch): it ends
    /// its fragment.
    pub(crate) fn cfi_var(&mut self, max: u64) {
        self.cfi_more(max);
        self.cfi_break();
    }

    /// A new label here.
    fn cfi_point(&mut self) -> Point {
        let label = format!(".Lscmp_cfi{}", self.cfi.labels);
        self.cfi.labels += 1;
        let offset = self.section_size();
        let mut s = Symbol::undefined();
        s.def = SymDef::Value(Value::Rel {
            section: self.cur,
            offset: offset as i64,
        });
        s.is_label = true;
        self.unit.symbols.insert(label.as_str().into(), s);
        Point {
            label,
            section: self.cur,
            frag: self.cfi.frags.get(&self.cur).map_or(0, |f| f.0),
            offset,
        }
    }

    /// A `.cfi_*` directive.
    pub(crate) fn cfi_directive(&mut self, st: &Stmt, c: &Call) {
        let name = c.name.trim_start_matches(".cfi_");
        match name {
            "sections" => return self.cfi_sections(st, c),
            "startproc" => return self.cfi_startproc(st, c),
            "endproc" => return self.cfi_endproc(st, c),
            _ => {}
        }
        if !self.cfi_supported(st, c, name) {
            return;
        }
        let Some(&k) = self.cfi.open.get(&self.cur) else {
            return self.error(
                st,
                Diag::error(
                    c.head,
                    "CFI instruction used without previous `.cfi_startproc`",
                    "no procedure is open in this section",
                ),
            );
        };
        let Some(op) = self.cfi_operands(st, c, name) else {
            return;
        };
        self.cfi_advance(k);
        self.cfi_apply(st, c, k, op);
    }

    /// Whether `.cfi_NAME` is an instruction directive; if not, the error
    /// (none for an "omit" `.cfi_personality`/`.cfi_lsda`).
    fn cfi_supported(&mut self, st: &Stmt, c: &Call, name: &str) -> bool {
        if CFI_UNSUPPORTED.contains(&name) {
            // `.cfi_personality 0xff` / `.cfi_lsda 0xff` ("omit") ask nothing.
            let (raw, _) = st.raw_from(c.from);
            let omit = matches!(name, "personality" | "lsda")
                && crate::lexer::parse_int(raw.trim()) == Some(0xff);
            if !omit {
                self.error(
                    st,
                    Diag::error(
                        c.head,
                        format!("`{}` is not supported", c.name),
                        "exception-handling tables are not written",
                    )
                    .with_help("C needs none; assemble C++ with GNU as"),
                );
            }
            return false;
        }
        if !CFI_INSNS.contains(&name) {
            let mut d = Diag::error(
                c.head,
                format!("unknown directive `{}`", c.name),
                "not a directive",
            );
            let names = CFI_INSNS
                .iter()
                .chain(&["sections", "startproc", "endproc"])
                .map(|n| format!(".cfi_{n}"))
                .collect::<Vec<_>>();
            if let Some(near) = crate::pass1::nearest(c.name, names.iter().map(String::as_str)) {
                d = d.with_help(format!("did you mean `{near}`?"));
            }
            self.error(st, d);
            return false;
        }
        true
    }

    /// If FDE `k`'s last place is not here, an advance to here (GNU as
    /// writes one before every instruction, whatever it is).
    fn cfi_advance(&mut self, k: usize) {
        let here_frag = self.cfi.frags.get(&self.cur).map_or(0, |f| f.0);
        let last = &self.cfi.fdes[k].last;
        if last.frag != here_frag || last.offset != self.section_size() {
            let to = self.cfi_point();
            let fde = &mut self.cfi.fdes[k];
            let from = std::mem::replace(&mut fde.last, to.clone());
            fde.insns.push(Insn::Advance(Box::new((from, to))));
        }
    }

    /// Instruction `op` into FDE `k`, and the CFA offset it leaves.
    fn cfi_apply(&mut self, st: &Stmt, c: &Call, k: usize, op: Op) {
        let fde = &mut self.cfi.fdes[k];
        match op {
            Op::Insn(i) => fde.insns.push(i),
            Op::Insns(list) => fde.insns.extend(list),
            Op::Cfa(i, offset) => {
                fde.insns.push(i);
                fde.cfa_offset = offset;
            }
            Op::Adjust(by) => {
                fde.cfa_offset += by;
                fde.insns.push(Insn::DefCfaOffset(fde.cfa_offset));
            }
            Op::RelOffset(reg, offset) => {
                let o = offset - fde.cfa_offset;
                fde.insns.push(Insn::Offset(reg, o));
                self.cfi_check_multiple(st, o);
            }
            Op::Remember => {
                fde.insns.push(Insn::RememberState);
                fde.saved_offsets.push(fde.cfa_offset);
            }
            Op::Restore => {
                fde.insns.push(Insn::RestoreState);
                match fde.saved_offsets.pop() {
                    Some(o) => fde.cfa_offset = o,
                    None => self.error(
                        st,
                        Diag::error(
                            c.head,
                            "CFI state restore without previous remember",
                            "no `.cfi_remember_state` before",
                        ),
                    ),
                }
            }
            Op::ReturnColumn(r) => fde.return_column = r,
            Op::SignalFrame => fde.signal_frame = true,
        }
    }

    /// A register save offset GNU as accepts: a multiple of 4.
    fn cfi_check_multiple(&mut self, st: &Stmt, offset: i64) {
        if offset % DATA_ALIGN != 0 {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "register save offset not a multiple of 4",
                    format!("offset {offset}"),
                ),
            );
        }
    }

    /// The operands of an instruction directive.
    fn cfi_operands(&mut self, st: &Stmt, c: &Call, name: &str) -> Option<Op> {
        let ops = if c.from < st.tokens().len() {
            self.parse_operands(st, c.from)?
        } else {
            Vec::new()
        };
        let want = |n: usize| -> Result<(), Diag> {
            if ops.len() == n {
                Ok(())
            } else {
                Err(Diag::error(
                    st.whole(),
                    format!("`{}` takes {n} operand(s), found {}", c.name, ops.len()),
                    "wrong number of operands",
                ))
            }
        };
        let result = (|| -> Result<Op, Diag> {
            Ok(match name {
                "def_cfa" | "offset" | "rel_offset" | "val_offset" => {
                    want(2)?;
                    let r = self.cfi_reg(st, &ops[0])?;
                    let v = self.cfi_const(st, &ops[1])?;
                    match name {
                        "def_cfa" => Op::Cfa(Insn::DefCfa(r, v), v),
                        "offset" | "val_offset" => {
                            self.cfi_check_multiple(st, v);
                            Op::Insn(if name == "offset" {
                                Insn::Offset(r, v)
                            } else {
                                Insn::ValOffset(r, v)
                            })
                        }
                        _ => Op::RelOffset(r, v),
                    }
                }
                "register" => {
                    want(2)?;
                    Op::Insn(Insn::Register(
                        self.cfi_reg(st, &ops[0])?,
                        self.cfi_reg(st, &ops[1])?,
                    ))
                }
                "def_cfa_register" | "same_value" | "return_column" => {
                    want(1)?;
                    let r = self.cfi_reg(st, &ops[0])?;
                    match name {
                        "def_cfa_register" => Op::Insn(Insn::DefCfaRegister(r)),
                        "same_value" => Op::Insn(Insn::SameValue(r)),
                        _ => Op::ReturnColumn(r),
                    }
                }
                "def_cfa_offset" | "adjust_cfa_offset" => {
                    want(1)?;
                    let v = self.cfi_const(st, &ops[0])?;
                    if name == "def_cfa_offset" {
                        Op::Cfa(Insn::DefCfaOffset(v), v)
                    } else {
                        Op::Adjust(v)
                    }
                }
                "restore" | "undefined" => {
                    if ops.is_empty() {
                        want(1)?;
                    }
                    // GNU takes a list; each is an instruction.
                    let mut regs = Vec::new();
                    for o in &ops {
                        regs.push(self.cfi_reg(st, o)?);
                    }
                    Op::Insns(
                        regs.into_iter()
                            .map(|r| {
                                if name == "restore" {
                                    Insn::Restore(r)
                                } else {
                                    Insn::Undefined(r)
                                }
                            })
                            .collect(),
                    )
                }
                "remember_state" | "restore_state" | "window_save" | "negate_ra_state"
                | "signal_frame" => {
                    want(0)?;
                    match name {
                        "remember_state" => Op::Remember,
                        "restore_state" => Op::Restore,
                        "signal_frame" => Op::SignalFrame,
                        _ => Op::Insn(Insn::WindowSave),
                    }
                }
                _ => {
                    // `escape`: bytes written as they are.
                    let mut bytes = Vec::new();
                    for o in &ops {
                        bytes.push(self.cfi_const(st, o)? as u8);
                    }
                    if bytes.is_empty() {
                        want(1)?;
                    }
                    Op::Insn(Insn::Escape(bytes))
                }
            })
        })();
        match result {
            Ok(op) => Some(op),
            Err(d) => {
                self.error(st, d);
                None
            }
        }
    }

    /// A register: a name (`ra`, `x1`, `fa0`, a CSR: GNU's DWARF numbers,
    /// 32 on for floating-point registers, 4096 on for CSRs) or a number.
    fn cfi_reg(&mut self, st: &Stmt, o: &Operand) -> Result<u64, Diag> {
        if let Operand::Expr(e) = o
            && let Some(n) = e.as_sym()
        {
            if let Some(r) = isa_spec::parse_xreg(n) {
                return Ok(r as u64);
            }
            if let Some(r) = isa_spec::parse_freg(n) {
                return Ok(32 + r as u64);
            }
            if let Some(c) = isa_spec::csr_by_name(n) {
                return Ok(4096 + c.number as u64);
            }
            if let Some(c) = isa_spec::standard_csr_number(n) {
                return Ok(4096 + c as u64);
            }
            if !self.unit.symbols.contains_key(n) {
                return Err(Diag::error(
                    st.span(e.start, e.end),
                    format!("unknown register `{n}`"),
                    "not a register name or number",
                ));
            }
        }
        let v = self.cfi_const(st, o)?;
        u64::try_from(v).map_err(|_| {
            Diag::error(
                crate::instr::operand_span(st, o),
                "bad register expression",
                "a register number is not negative",
            )
        })
    }

    /// An absolute value.
    fn cfi_const(&mut self, st: &Stmt, o: &Operand) -> Result<i64, Diag> {
        let span = crate::instr::operand_span(st, o);
        let Operand::Expr(e) = o else {
            return Err(Diag::error(span, "expected a number", "not a number"));
        };
        match self.eval1(st, e) {
            Ok(Value::Abs(v)) => Ok(v),
            _ => Err(Diag::error(
                span,
                "a CFI operand must be a number known here",
                "not an absolute value",
            )),
        }
    }

    /// `.cfi_sections [.eh_frame][, .debug_frame]`.
    fn cfi_sections(&mut self, st: &Stmt, c: &Call) {
        let (raw, _) = st.raw_from(c.from);
        let mut bits = 0;
        for name in raw.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let name = name.trim_matches('"');
            if name.starts_with(".eh_frame") && !name[9..].starts_with('_') {
                bits |= EH_FRAME;
            } else if name.starts_with(".debug_frame") {
                bits |= DEBUG_FRAME;
            } else {
                let span = st.whole();
                return self.error(
                    st,
                    Diag::error(
                        span,
                        format!("unknown CFI section `{name}`"),
                        "expected `.eh_frame` or `.debug_frame`",
                    ),
                );
            }
        }
        let was = self.cfi.sections.unwrap_or(EH_FRAME);
        // Once a procedure has taken the sections, changing `.eh_frame` is
        // an error.
        if !self.cfi.fdes.is_empty() && bits & EH_FRAME != 0 && was & EH_FRAME != bits & EH_FRAME {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "inconsistent uses of `.cfi_sections`",
                    "changes the sections after a procedure",
                ),
            );
        }
        self.cfi.sections = Some(bits);
    }

    fn cfi_startproc(&mut self, st: &Stmt, c: &Call) {
        if self.cfi.open.contains_key(&self.cur) {
            return self.error(
                st,
                Diag::error(
                    c.head,
                    "previous CFI entry not closed (missing `.cfi_endproc`)",
                    "a procedure is open here",
                ),
            );
        }
        let (raw, _) = st.raw_from(c.from);
        let simple = raw.trim() == "simple";
        if !simple && !raw.trim().is_empty() {
            let span = st.whole();
            return self.error(
                st,
                Diag::error(
                    span,
                    "junk at end of `.cfi_startproc`",
                    "expected nothing or `simple`",
                ),
            );
        }
        let start = self.cfi_point();
        self.cfi.all_sections |= self.cfi.sections.unwrap_or(EH_FRAME);
        self.cfi.fdes.push(Fde {
            last: start.clone(),
            start,
            end: None,
            insns: if simple {
                Vec::new()
            } else {
                vec![Insn::DefCfaRegister(SP)]
            },
            cfa_offset: 0,
            saved_offsets: Vec::new(),
            return_column: RETURN_COLUMN,
            signal_frame: false,
            sections: self.cfi.all_sections,
            span: c.head,
            ctx: st.ctx,
        });
        self.cfi.open.insert(self.cur, self.cfi.fdes.len() - 1);
    }

    fn cfi_endproc(&mut self, st: &Stmt, c: &Call) {
        let Some(k) = self.cfi.open.remove(&self.cur) else {
            return self.error(
                st,
                Diag::error(
                    c.head,
                    "`.cfi_endproc` without corresponding `.cfi_startproc`",
                    "no procedure is open in this section",
                ),
            );
        };
        let end = self.cfi_point();
        self.cfi.fdes[k].end = Some(end);
    }

    /// Writes `.eh_frame` and `.debug_frame` at the end of the file, as
    /// GNU as's `cfi_finish` does: every procedure still open is an error.
    pub(crate) fn finish_cfi(&mut self) {
        let mut state = std::mem::take(&mut self.cfi);
        if state.fdes.is_empty() {
            return;
        }
        for fde in &mut state.fdes {
            if fde.end.is_none() {
                self.sh.diags.push(Diag {
                    ctx: fde.ctx,
                    ..Diag::error(
                        fde.span,
                        "open CFI at the end of file; missing `.cfi_endproc` directive",
                        "this procedure is never closed",
                    )
                });
                fde.end = Some(fde.start.clone());
            }
        }
        // Points of numbered subsections moved into their sections.
        let place = |p: &mut Point, unit: &Unit| {
            if let Some(SymDef::Value(Value::Rel { offset, .. })) =
                unit.symbols.get(p.label.as_str()).map(|s| &s.def)
            {
                p.offset = *offset as u64;
            }
        };
        for fde in &mut state.fdes {
            place(&mut fde.start, &self.unit);
            if let Some(e) = fde.end.as_mut() {
                place(e, &self.unit);
            }
            for i in &mut fde.insns {
                if let Insn::Advance(pair) = i {
                    place(&mut pair.0, &self.unit);
                    place(&mut pair.1, &self.unit);
                }
            }
        }
        if state.all_sections & EH_FRAME != 0 {
            let fdes: Vec<&Fde> = state
                .fdes
                .iter()
                .filter(|f| f.sections & EH_FRAME != 0)
                .collect();
            self.write_frame(".eh_frame", true, &fdes);
        }
        if state.all_sections & DEBUG_FRAME != 0 {
            let fdes: Vec<&Fde> = state
                .fdes
                .iter()
                .filter(|f| f.sections & DEBUG_FRAME != 0)
                .collect();
            self.write_frame(".debug_frame", false, &fdes);
        }
    }

    /// The section `name`, made when new.
    fn frame_section(&mut self, name: &str, eh: bool) -> usize {
        if let Some(&i) = self.unit.section_index.get(name) {
            return i;
        }
        let class = if eh {
            SectionClass::Rodata
        } else {
            SectionClass::NonAlloc
        };
        let mut s = Section::new(name, class);
        s.align = 4;
        if eh {
            s.flags = Some("a".into());
        }
        self.unit.sections.push(s);
        let i = self.unit.sections.len() - 1;
        self.unit.section_index.insert(name.into(), i);
        i
    }

    /// One table: CIEs as GNU shares them (a new one when no earlier CIE's
    /// initial instructions begin the procedure's), each FDE after.
    fn write_frame(&mut self, name: &str, eh: bool, fdes: &[&Fde]) {
        let sec = self.frame_section(name, eh);
        let mut out = std::mem::take(&mut self.unit.sections[sec].data);
        while !out.len().is_multiple_of(4) {
            out.push(0);
        }
        let mut fixes: Vec<(usize, FixKind, Expr)> = Vec::new();
        // (return column, signal frame, initial instructions, offset, label)
        let mut cies: Vec<(u64, bool, Vec<Insn>, usize, String)> = Vec::new();
        for fde in fdes {
            let found = cies.iter().rev().find(|c| {
                c.0 == fde.return_column
                    && c.1 == fde.signal_frame
                    && fde.insns.len() >= c.2.len()
                    && fde.insns[..c.2.len()] == c.2[..]
            });
            let (cie_at, cie_label, skip) = match found {
                Some(c) => (c.3, c.4.clone(), c.2.len()),
                None => {
                    let n = fde.insns.iter().take_while(|i| i.initial()).count();
                    let initial = fde.insns[..n].to_vec();
                    let at = out.len();
                    let label = self.frame_label(sec, at as u64);
                    write_cie(&mut out, eh, fde, &initial);
                    cies.push((
                        fde.return_column,
                        fde.signal_frame,
                        initial,
                        at,
                        label.clone(),
                    ));
                    (at, label, n)
                }
            };
            let start = out.len();
            out.extend_from_slice(&[0; 4]);
            if eh {
                let pointer = (start + 4 - cie_at) as u32;
                out.extend_from_slice(&pointer.to_le_bytes());
                fixes.push((
                    out.len(),
                    FixKind::Cfi(CfiFix::Pcrel32),
                    sym(&fde.start.label),
                ));
            } else {
                fixes.push((out.len(), FixKind::Data(4), sym(&cie_label)));
                out.extend_from_slice(&[0; 4]);
                fixes.push((out.len(), FixKind::Data(4), sym(&fde.start.label)));
            }
            out.extend_from_slice(&[0; 4]);
            let end = fde.end.as_ref().expect("closed above");
            fixes.push((
                out.len(),
                FixKind::Data(4),
                difference(&end.label, &fde.start.label),
            ));
            out.extend_from_slice(&[0; 4]);
            if eh {
                out.push(0);
            }
            for i in &fde.insns[skip..] {
                match i {
                    Insn::Advance(pair) => advance(&mut out, &mut fixes, &pair.0, &pair.1),
                    _ => encode(i, &mut out),
                }
            }
            while !out.len().is_multiple_of(4) {
                out.push(dw::DW_CFA_nop.0);
            }
            let length = (out.len() - start - 4) as u32;
            out[start..start + 4].copy_from_slice(&length.to_le_bytes());
        }
        let relax = self.relax;
        let s = &mut self.unit.sections[sec];
        s.data = out;
        s.size = s.data.len() as u64;
        for (at, kind, expr) in fixes {
            s.fixups.push(Fixup {
                offset: at as u32,
                kind,
                expr,
                span: Span::default(),
                ctx: 0,
                relax,
            });
        }
    }

    /// A label in a frame section (a CIE's place).
    fn frame_label(&mut self, section: usize, offset: u64) -> String {
        let name = &self.unit.sections[section].name;
        let label = format!(".Lscmp_cie{name}{offset}");
        let mut s = Symbol::undefined();
        s.def = SymDef::Value(Value::Rel {
            section,
            offset: offset as i64,
        });
        s.is_label = true;
        self.unit.symbols.insert(label.as_str().into(), s);
        label
    }
}

/// A CIE: length, id, version 3, augmentation (`zR` in `.eh_frame`, `S`
/// for a signal frame), alignment factors, return column, [the FDE
/// encoding], the initial instructions, padded with `DW_CFA_nop`.
fn write_cie(out: &mut Vec<u8>, eh: bool, fde: &Fde, initial: &[Insn]) {
    let start = out.len();
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&if eh { 0u32 } else { u32::MAX }.to_le_bytes());
    out.push(CIE_VERSION);
    if eh {
        out.extend_from_slice(b"zR");
    }
    if fde.signal_frame {
        out.push(b'S');
    }
    out.push(0);
    uleb(1, out);
    sleb(DATA_ALIGN, out);
    uleb(fde.return_column, out);
    if eh {
        uleb(1, out);
        out.push(FDE_ENCODING);
    }
    for i in initial {
        encode(i, out);
    }
    while !out.len().is_multiple_of(4) {
        out.push(dw::DW_CFA_nop.0);
    }
    let length = (out.len() - start - 4) as u32;
    out[start..start + 4].copy_from_slice(&length.to_le_bytes());
}

/// An advance from `from` to `to`: a number within one fragment, else a
/// label difference the linker sets (nothing for none).
fn advance(out: &mut Vec<u8>, fixes: &mut Vec<(usize, FixKind, Expr)>, from: &Point, to: &Point) {
    let delta = to.offset.wrapping_sub(from.offset);
    if delta == 0 {
        return;
    }
    let fixed = from.section == to.section && from.frag == to.frag;
    let width = if delta < 0x40 {
        6
    } else if delta < 0x100 {
        8
    } else if delta < 0x10000 {
        16
    } else {
        32
    };
    let mut relocated = |at: usize| {
        if !fixed {
            fixes.push((
                at,
                FixKind::Cfi(CfiFix::Advance(width)),
                difference(&to.label, &from.label),
            ));
        }
    };
    match width {
        6 => {
            relocated(out.len());
            out.push(dw::DW_CFA_advance_loc.0 | delta as u8);
        }
        8 => {
            out.push(dw::DW_CFA_advance_loc1.0);
            relocated(out.len());
            out.push(delta as u8);
        }
        16 => {
            out.push(dw::DW_CFA_advance_loc2.0);
            relocated(out.len());
            out.extend_from_slice(&(delta as u16).to_le_bytes());
        }
        _ => {
            out.push(dw::DW_CFA_advance_loc4.0);
            relocated(out.len());
            out.extend_from_slice(&(delta as u32).to_le_bytes());
        }
    }
}

/// An instruction's bytes as GNU as encodes it (factored offsets; the
/// `_sf` forms for negative ones).
fn encode(i: &Insn, out: &mut Vec<u8>) {
    match *i {
        Insn::Advance(_) => unreachable!("advances are written with their relocations"),
        Insn::DefCfa(r, o) => {
            if o < 0 {
                out.push(dw::DW_CFA_def_cfa_sf.0);
                uleb(r, out);
                sleb(o / DATA_ALIGN, out);
            } else {
                out.push(dw::DW_CFA_def_cfa.0);
                uleb(r, out);
                uleb(o as u64, out);
            }
        }
        Insn::DefCfaRegister(r) => {
            out.push(dw::DW_CFA_def_cfa_register.0);
            uleb(r, out);
        }
        Insn::Undefined(r) => {
            out.push(dw::DW_CFA_undefined.0);
            uleb(r, out);
        }
        Insn::SameValue(r) => {
            out.push(dw::DW_CFA_same_value.0);
            uleb(r, out);
        }
        Insn::DefCfaOffset(o) => {
            if o < 0 {
                out.push(dw::DW_CFA_def_cfa_offset_sf.0);
                sleb(o / DATA_ALIGN, out);
            } else {
                out.push(dw::DW_CFA_def_cfa_offset.0);
                uleb(o as u64, out);
            }
        }
        Insn::Restore(r) => {
            if r <= 0x3f {
                out.push(dw::DW_CFA_restore.0 | r as u8);
            } else {
                out.push(dw::DW_CFA_restore_extended.0);
                uleb(r, out);
            }
        }
        Insn::Offset(r, o) => {
            let f = o / DATA_ALIGN;
            if f < 0 {
                out.push(dw::DW_CFA_offset_extended_sf.0);
                uleb(r, out);
                sleb(f, out);
            } else if r <= 0x3f {
                out.push(dw::DW_CFA_offset.0 | r as u8);
                uleb(f as u64, out);
            } else {
                out.push(dw::DW_CFA_offset_extended.0);
                uleb(r, out);
                uleb(f as u64, out);
            }
        }
        Insn::ValOffset(r, o) => {
            let f = o / DATA_ALIGN;
            if f < 0 {
                out.push(dw::DW_CFA_val_offset_sf.0);
                uleb(r, out);
                sleb(f, out);
            } else {
                out.push(dw::DW_CFA_val_offset.0);
                uleb(r, out);
                uleb(f as u64, out);
            }
        }
        Insn::Register(a, b) => {
            out.push(dw::DW_CFA_register.0);
            uleb(a, out);
            uleb(b, out);
        }
        Insn::RememberState => out.push(dw::DW_CFA_remember_state.0),
        Insn::RestoreState => out.push(dw::DW_CFA_restore_state.0),
        Insn::WindowSave => out.push(dw::DW_CFA_GNU_window_save.0),
        Insn::Escape(ref bytes) => out.extend_from_slice(bytes),
    }
}
