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

mod emit;
mod fixup;
mod value;

use std::collections::HashMap;

use object::elf;

use crate::Options;
use crate::diag::Diag;
use crate::expr::Value;
use crate::source::Span;
use crate::unit::*;

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

impl OutSym {
    /// A local symbol of no type at `offset` in unit section `section`: a
    /// label of the unit, or a place a fixup names (`.L0 `).
    fn local(name: String, section: usize, offset: u64) -> OutSym {
        OutSym {
            name,
            value: offset,
            size: 0,
            bind: elf::STB_LOCAL,
            ty: elf::STT_NOTYPE,
            other: 0,
            section: Some(section),
            shndx: elf::SHN_UNDEF,
        }
    }
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
    /// The symbol index for a term, adding it when new.
    fn symbol(&mut self, t: &Term) -> usize {
        match t {
            Term::Label(name, section, offset) => {
                if let Some(&i) = self.by_name.get(name) {
                    return i;
                }
                self.push(OutSym::local(object_name(name), *section, *offset));
                let i = self.syms.len() - 1;
                self.by_name.insert(name.clone(), i);
                i
            }
            Term::Here(section, offset) => {
                self.push(OutSym::local(".L0 ".into(), *section, *offset));
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
    opts: &Options,
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

    w.add_symbols();
    w.add_relocations();
    if !w.diags.is_empty() {
        return Err(w.diags);
    }

    let attributes = attributes(unit, opts.arch_attribute.as_deref());
    emit::emit(unit, &w, &attributes, e_flags).map_err(|e| {
        vec![Diag::error(
            Span::default(),
            format!("cannot write the object: {e}"),
            "",
        )]
    })
}

impl Writer1<'_> {
    /// The file's symbols, in the order they were first seen.
    fn add_symbols(&mut self) {
        if let Some(f) = &self.unit.file_name {
            self.push(OutSym {
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
        let unit = self.unit;
        for (name, sym) in &unit.symbols {
            if let Some(out) = self.out_sym(name, sym) {
                self.by_name.insert(name.to_string(), self.syms.len());
                self.push(out);
            }
        }
    }

    /// Symbol `name` as the object writes it, if it does.
    fn out_sym(&self, name: &str, sym: &Symbol) -> Option<OutSym> {
        // `.L` names stay out unless made global (`.globl .Lx`, as GNU as).
        let referenced_only = is_assembler_local(name) && sym.binding == Binding::Local;
        if referenced_only {
            return None;
        }
        // `.set g, f`: g takes f's type and size when it has none.
        let target = sym
            .alias_of
            .as_deref()
            .and_then(|t| self.unit.symbols.get(t));
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
                    return None; // only referenced: added with its relocation
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
                if self.unit.sections[*section].is_tls() {
                    out.ty = elf::STT_TLS;
                }
                out.section = Some(*section);
                out.value = *offset as u64;
            }
            SymDef::Deferred(e, _, section, offset) => {
                match self
                    .linear(e, (*section, *offset), 0)
                    .map(|v| self.fold(v, false))
                {
                    Ok(v) if v.terms.is_empty() => out.value = v.constant as u64,
                    Ok(v) => match v.terms.as_slice() {
                        [(Term::Label(_, s, o) | Term::Here(s, o), 1)] => {
                            out.section = Some(*s);
                            out.value = (*o as i64 + v.constant) as u64;
                        }
                        _ => return None, // an alias of an external symbol: not written
                    },
                    Err(_) => return None,
                }
            }
        }
        Some(out)
    }

    /// Every section's fixups as bytes or relocations, its alignments'
    /// `R_RISCV_ALIGN`, and its `.reloc`s, in GNU as's order.
    fn add_relocations(&mut self) {
        let unit = self.unit;
        // `call`-like pairs: an auipc with `%pcrel_hi` and a jalr with its `%pcrel_lo`.
        for (si, sec) in unit.sections.iter().enumerate() {
            let calls: Vec<u64> = sec
                .fixups
                .iter()
                .filter(|f| {
                    matches!(f.kind, FixKind::PcrelLoBefore(_, 4))
                        && self.word(si, f.offset as usize) & 0x7f == 0x67
                })
                .map(|f| f.offset as u64 - 4)
                .collect();
            for fx in &sec.fixups {
                if let Err(d) = self.fixup(si, fx, &calls) {
                    self.diags.push(d);
                }
            }
            for &(at, pad) in &sec.aligns {
                self.reloc(si, at, elf::R_RISCV_ALIGN, None, pad as i64);
            }
            self.relocs[si].sort_by_key(|r| r.0);
            // GNU as puts each `.reloc` (in the order written) before the first
            // relocation of a higher offset that is still to come.
            let mut hand = std::mem::take(&mut self.by_hand[si]);
            hand.sort_by_key(|h| h.0);
            let hand: Vec<Reloc> = hand.into_iter().map(|h| h.1).collect();
            if !hand.is_empty() {
                let mut merged = Vec::with_capacity(self.relocs[si].len() + hand.len());
                let mut pending = hand.into_iter().peekable();
                for r in std::mem::take(&mut self.relocs[si]) {
                    while let Some(h) = pending.next_if(|h| h.0 < r.0) {
                        merged.push(h);
                    }
                    merged.push(r);
                }
                merged.extend(pending);
                self.relocs[si] = merged;
            }
        }
    }
}

/// The `.riscv.attributes` section: the source's, with `arch` (from
/// `-march`, canonical) when it sets none.
fn attributes(unit: &Unit, arch: Option<&str>) -> Vec<u8> {
    let mut attributes = unit.attributes.clone();
    if !attributes.iter().any(|(t, _)| *t == 5)
        && let Some(arch) = arch
    {
        attributes.push((5, AttrValue::Str(arch.to_string())));
    }
    // Tag_RISCV_priv_spec (8) and _minor (10): GNU as 2.40 writes 1.11
    // once an instruction names a CSR.
    if unit.names_csr && !attributes.iter().any(|(t, _)| matches!(t, 8 | 10)) {
        attributes.push((8, AttrValue::Int(1)));
        attributes.push((10, AttrValue::Int(11)));
    }
    attributes.sort_by_key(|(t, _)| *t);
    crate::elf::attributes_section(&attributes, &unit.gnu_attributes)
}
