//! What the first pass makes of one input file: its sections (bytes and
//! fixups still to apply), its symbols, and what ELF records about it.

use std::collections::HashMap;

use indexmap::IndexMap;
use isa_spec::Field;

use crate::ast::Expr;
use crate::source::{CtxId, Span};

/// Largest section, in bytes (and largest file `.incbin` reads).
pub(crate) const MAX_SECTION_BYTES: u64 = 1 << 28;

/// Where a section goes in the executable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SectionClass {
    /// Code (`.text*`, or flags with `x`).
    Text,
    /// Read-only data (`.rodata*`, `.srodata*`, flags `a`).
    Rodata,
    /// Writable data (`.data*`, `.sdata*`, flags `aw`).
    Data,
    /// Zero-initialized data (`.bss*`, `.sbss*`, `@nobits`).
    Bss,
    /// Not loaded (`.comment`, `.note.GNU-stack`, sections without `a`).
    NonAlloc,
}

impl SectionClass {
    /// Classifies a section by name and, when given, by flags and type.
    pub fn classify(name: &str, flags: Option<&str>, nobits: bool) -> SectionClass {
        if let Some(flags) = flags {
            if !flags.contains('a') && !flags.contains('x') {
                return SectionClass::NonAlloc;
            }
            if flags.contains('x') {
                return SectionClass::Text;
            }
            if flags.contains('w') {
                return if nobits {
                    SectionClass::Bss
                } else {
                    SectionClass::Data
                };
            }
            return SectionClass::Rodata;
        }
        let has = |p: &str| name == p || name.starts_with(&format!("{p}."));
        if has(".text") {
            SectionClass::Text
        } else if has(".rodata") || has(".srodata") {
            SectionClass::Rodata
        } else if has(".bss") || has(".sbss") || has(".tbss") || nobits {
            SectionClass::Bss
        } else if has(".data")
            || has(".sdata")
            || has(".tdata")
            || has(".init_array")
            || has(".fini_array")
            || has(".preinit_array")
        {
            SectionClass::Data
        } else if name.starts_with(".note")
            || name.starts_with(".comment")
            || name.starts_with(".debug")
        {
            SectionClass::NonAlloc
        } else {
            // GNU as gives an unknown section without flags no flags at all.
            SectionClass::NonAlloc
        }
    }

    /// Whether alignment padding in this class is code (nops).
    pub fn is_code(self) -> bool {
        self == SectionClass::Text
    }
}

/// How a fixup's value goes into the bytes.
#[derive(Clone, Debug, PartialEq)]
pub enum FixKind {
    /// A data value of 1, 2, 4 or 8 bytes.
    Data(u8),
    /// An absolute value into an instruction field.
    Field(Field),
    /// A target address, encoded relative to the instruction (`ImmB`, `ImmJ`).
    PcRel(Field),
    /// `%hi(value)` into `ImmU`.
    Hi,
    /// `%lo(value)` into `ImmI` or `ImmS`.
    Lo(Field),
    /// `%pcrel_hi(target)` into the `ImmU` of an `auipc`.
    PcrelHi,
    /// `%got_pcrel_hi(symbol)` into the `ImmU` of an `auipc`: the symbol's
    /// GOT entry (`la` under `.option pic`); a linker with a GOT fills it.
    GotHi,
    /// `%pcrel_lo` of the `auipc` at the address of the expression.
    PcrelLoAt(Field),
    /// `%pcrel_lo` of the `auipc` this many bytes before the instruction.
    PcrelLoBefore(Field, u32),
    /// `.size` value of a symbol (no bytes).
    SymbolSize(Box<str>),
    /// `.reloc`: a relocation of this type (its number) written by hand,
    /// in objects only, and its place among the file's `.reloc`s (GNU as
    /// keeps them in the order written, whatever subsection).
    Reloc(u32, u32),
    /// A thread-local reference: a relocation only (objects; tiles have no
    /// thread pointer, so an executable cannot resolve it).
    Tls(TlsFix),
    /// A place in an unwind table (`cfi`): relocations only GNU as's
    /// `.eh_frame`/`.debug_frame` use.
    Cfi(CfiFix),
}

/// What an unwind table's fixup is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CfiFix {
    /// The FDE's address in `.eh_frame`: `symbol - .` in 4 bytes
    /// (`R_RISCV_32_PCREL`).
    Pcrel32,
    /// A `DW_CFA_advance_loc*` across GNU's fragments: the label difference
    /// set in 6 bits of the opcode byte, or in an 8-, 16- or 32-bit operand
    /// (`R_RISCV_SET6`/`SUB6`, `SET8`/`SUB8`, `SET16`/`SUB16`, `SET32`/`SUB32`).
    Advance(u8),
}

/// The thread-local forms gcc writes for `__thread` variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TlsFix {
    /// `lui rd, %tprel_hi(x)`.
    TprelHi,
    /// `%tprel_lo(x)` in an `ImmI` or `ImmS` field.
    TprelLo(Field),
    /// `add rd, rs, tp, %tprel_add(x)`.
    TprelAdd,
    /// `auipc rd, %tls_ie_pcrel_hi(x)`.
    IePcrelHi,
    /// `auipc rd, %tls_gd_pcrel_hi(x)`.
    GdPcrelHi,
}

/// A value the second pass computes and patches in.
#[derive(Clone, Debug)]
pub struct Fixup {
    /// Byte offset in the section of the word or data it patches.
    pub offset: u32,
    /// How.
    pub kind: FixKind,
    /// The expression (positions in `span.file`).
    pub expr: Expr,
    /// The operand, for diagnostics.
    pub span: Span,
    /// Context of the statement.
    pub ctx: CtxId,
    /// Linker relaxation was on (`.option relax`) where it was written.
    pub relax: bool,
}

/// One section of a unit.
#[derive(Clone, Debug)]
pub struct Section {
    /// Name as written.
    pub name: String,
    /// Where it goes.
    pub class: SectionClass,
    /// Alignment in bytes (a power of two).
    pub align: u32,
    /// Contents (empty for `.bss`, whose size is `size`).
    pub data: Vec<u8>,
    /// Size in bytes.
    pub size: u64,
    /// Values to patch in the second pass.
    pub fixups: Vec<Fixup>,
    /// Address, once laid out.
    pub addr: u64,
    /// The flags string of `.section NAME, "flags"` (`None`: the name's defaults).
    pub flags: Option<String>,
    /// The type of `.section NAME, "flags", @type` (`progbits`, `nobits`,
    /// `note`, `init_array`, ...).
    pub sh_type: Option<String>,
    /// The entry size of a mergeable section (`.section NAME, "aMS", @progbits, 1`).
    pub entsize: u64,
    /// Alignment padding a linker that relaxes may shrink (`R_RISCV_ALIGN`):
    /// offset and bytes of nops, in objects with relaxation on.
    pub aligns: Vec<(u64, u64)>,
    /// The section group it belongs to (flag `G`, or `?` after a grouped
    /// section): an ELF `SHT_GROUP` section lists it in the object.
    pub group: Option<Group>,
}

/// A section group (`.section NAME, "axG", @progbits, SIGNATURE[, comdat]`):
/// sections a linker keeps or drops together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The signature: the group's name, a symbol of the object.
    pub signature: String,
    /// A COMDAT group: of several groups with the same signature, a linker
    /// keeps the first.
    pub comdat: bool,
}

impl Section {
    /// The key of `section_index` for a section named `name` in `group`:
    /// GNU as keeps sections of one name in different groups apart.
    pub fn key(name: &str, group: Option<&Group>) -> String {
        match group {
            None => name.to_string(),
            Some(g) => format!("{name}\u{1}{}", g.signature),
        }
    }

    /// Whether it holds thread-local data: flag `T`, or GNU as's default
    /// for `.tdata`/`.tbss` names.
    pub fn is_tls(&self) -> bool {
        self.flags.as_deref().is_some_and(|f| f.contains('T'))
            || [".tdata", ".tbss"]
                .iter()
                .any(|p| self.name == *p || self.name.starts_with(&format!("{p}.")))
    }

    /// An empty section.
    pub fn new(name: &str, class: SectionClass) -> Section {
        Section {
            name: name.to_string(),
            class,
            // GNU as records 4-byte alignment for `.text` alone (RV32G's
            // instruction size); other sections start at 1 and only
            // alignment directives raise them.
            align: if name == ".text" { 4 } else { 1 },
            data: Vec::new(),
            size: 0,
            fixups: Vec::new(),
            addr: 0,
            flags: None,
            sh_type: None,
            entsize: 0,
            aligns: Vec::new(),
            group: None,
        }
    }
}

/// Symbol binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// Visible in its unit only.
    Local,
    /// Visible in every unit.
    Global,
    /// Global, may stay undefined (then 0).
    Weak,
}

/// ELF symbol type from `.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SymType {
    /// No type given.
    #[default]
    NoType,
    /// `@function`
    Func,
    /// `@object`
    Object,
    /// `@tls_object`
    Tls,
    /// `@common`
    Common,
    /// `@gnu_indirect_function`
    Ifunc,
}

impl SymType {
    /// The ELF `STT_*` value written for it.
    pub fn elf_type(self) -> object::elf::SymbolType {
        match self {
            SymType::NoType => object::elf::STT_NOTYPE,
            SymType::Func => object::elf::STT_FUNC,
            SymType::Object | SymType::Common => object::elf::STT_OBJECT,
            SymType::Tls => object::elf::STT_TLS,
            SymType::Ifunc => object::elf::STT_GNU_IFUNC,
        }
    }
}

/// What a symbol stands for.
#[derive(Clone, Debug)]
pub enum SymDef {
    /// Referenced or declared, not defined.
    Undefined,
    /// A value known in the first pass (a label is `Rel`).
    Value(crate::expr::Value),
    /// An expression only the second pass can evaluate, with the location
    /// counter at its definition (section, offset).
    Deferred(Box<Expr>, u32, usize, u64),
    /// `.comm` of a symbol not declared `.local`: a common symbol (size and
    /// alignment), merged by name and placed in `.bss` by the linker.
    Common(u64, u64),
    /// `.lcomm`, or `.comm` of a symbol declared `.local` before it (what
    /// gcc writes for a file-scope `static`): size and alignment, reserved
    /// in this unit's own `.bss` whatever its binding becomes, as GNU as
    /// does. Never merged with another unit's symbol of the same name.
    Bss(u64, u64),
}

/// A symbol of a unit.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// Definition.
    pub def: SymDef,
    /// Binding.
    pub binding: Binding,
    /// ELF visibility (`STV_*`).
    pub visibility: u8,
    /// Type.
    pub ty: SymType,
    /// Size from `.size`, once known.
    pub size: Option<u64>,
    /// Where it was defined.
    pub def_span: Option<Span>,
    /// Where it was first referenced or declared.
    pub first_use: Option<Span>,
    /// A label (as opposed to `.equ`/`.set`).
    pub is_label: bool,
    /// May be redefined (`.set`, `=`).
    pub redefinable: bool,
    /// Named by `.local`: a later `.comm` reserves it in `.bss` (GNU as).
    pub declared_local: bool,
    /// `.set NAME, OTHER` (a bare symbol): NAME takes OTHER's type and size
    /// when it has none of its own, as GNU as copies them.
    pub alias_of: Option<Box<str>>,
    /// `.type NAME, @gnu_unique_object`: written with binding
    /// `STB_GNU_UNIQUE` (GNU as), linked as a global.
    pub unique: bool,
}

impl Symbol {
    /// A symbol known only by name.
    pub fn undefined() -> Symbol {
        Symbol {
            def: SymDef::Undefined,
            binding: Binding::Local,
            visibility: 0,
            ty: SymType::NoType,
            size: None,
            def_span: None,
            first_use: None,
            is_label: false,
            redefinable: false,
            declared_local: false,
            alias_of: None,
            unique: false,
        }
    }

    /// Whether it has a definition.
    pub fn is_defined(&self) -> bool {
        !matches!(self.def, SymDef::Undefined)
    }
}

/// A line of the listing: where a statement's bytes are.
#[derive(Clone, Debug)]
pub struct ListEntry {
    /// The statement.
    pub span: Span,
    /// Section index.
    pub section: usize,
    /// Offset of its first byte.
    pub start: u64,
    /// Offset after its last byte.
    pub end: u64,
    /// Context of the statement.
    pub ctx: CtxId,
}

/// A value of a `.attribute`.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// Integer (ULEB128).
    Int(u64),
    /// String (NUL-terminated).
    Str(String),
}

/// One input file after the first pass.
#[derive(Debug, Default)]
pub struct Unit {
    /// File index of the input file.
    pub file: u32,
    /// Sections in order of first appearance.
    pub sections: Vec<Section>,
    /// Section index by name ([`Section::key`]: with its group's signature
    /// for a grouped section).
    pub section_index: HashMap<String, usize>,
    /// Symbols in order of first appearance.
    pub symbols: IndexMap<Box<str>, Symbol>,
    /// Listing entries.
    pub listing: Vec<ListEntry>,
    /// `.file` name.
    pub file_name: Option<String>,
    /// `.ident` strings.
    pub idents: Vec<String>,
    /// `.attribute` tags and values.
    pub attributes: Vec<(u64, AttrValue)>,
    /// `.gnu_attribute` tags and values (the "gnu" vendor's).
    pub gnu_attributes: Vec<(u64, AttrValue)>,
    /// An instruction names a CSR (GNU as then records the privileged
    /// spec's version, 1.11, among the object's attributes).
    pub names_csr: bool,
    /// Relaxation is on (`.option relax`) at the end of the file: GNU as
    /// marks `%pcrel_hi`/`%pcrel_lo` relocations for relaxation only when
    /// it is on both where they are written and here.
    pub relax_at_end: bool,
}

/// Name of the `n`th definition of numeric local label `label` (never a
/// valid identifier, and left out of the symbol table).
pub fn local_label_name(label: u32, n: u32) -> String {
    format!("{label}\u{2}{n}")
}

/// Whether a symbol is assembler-local (`.L*` or numeric) and stays out of
/// the ELF symbol table, as GNU as does.
pub fn is_assembler_local(name: &str) -> bool {
    name.starts_with(".L") || name.contains('\u{2}') || name == isa_spec::gnu::SCMP_AS_SYMBOL
}
