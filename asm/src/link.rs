//! The second pass: lays the units' sections out in memory, resolves symbols
//! across units (globals are shared, everything else stays in its unit),
//! evaluates the fixups and patches the bytes.
//!
//! Memory layout (every tile loads the same image):
//! `.text` at [`Options::text_base`] (default 0x10000), `.rodata` after it,
//! `.data` at the next 4 KiB boundary, `.bss` (and `.comm` symbols) after
//! `.data`. Input sections of one class are concatenated in the order the
//! files were given, each at its own alignment.
//!
//! Over 600 lines: the linker's passes (layout, symbols, fixups, patching)
//! share the layout and symbol tables they build; each pass is its own
//! function here, and the ELF writing is `elf.rs`.

use std::cell::RefCell;
use std::collections::HashMap;

use isa_spec::Field;

use crate::Options;
use crate::ast::ExprKind;
use crate::diag::Diag;
use crate::directives::fixup_data;
use crate::expr::{EvalError, EvalWarning, Resolver, Value, eval, rv32_operand};
use crate::pass1::{display_name, nearest};
use crate::source::{CtxId, Span};
use crate::unit::*;

/// Page size the data segment is aligned to.
pub const PAGE: u64 = 0x1000;

/// An output section of the executable.
#[derive(Clone, Debug)]
pub struct OutSection {
    /// `.text`, `.rodata`, `.data` or `.bss`.
    pub name: &'static str,
    /// Class.
    pub class: SectionClass,
    /// Address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Contents (empty for `.bss`).
    pub data: Vec<u8>,
    /// Alignment.
    pub align: u64,
}

/// A symbol of the executable.
#[derive(Clone, Debug)]
pub struct OutSymbol {
    /// Name.
    pub name: String,
    /// Value (address for labels).
    pub value: u64,
    /// Size.
    pub size: u64,
    /// Binding.
    pub binding: Binding,
    /// Type.
    pub ty: SymType,
    /// Visibility.
    pub visibility: u8,
    /// Section it lies in; `None` for absolute values.
    pub section: Option<SectionClass>,
    /// A file-name symbol (`STT_FILE`).
    pub is_file: bool,
}

/// The linked program, ready to be written as ELF.
#[derive(Clone, Debug)]
pub struct Image {
    /// Entry address.
    pub entry: u64,
    /// Non-empty output sections, in address order.
    pub sections: Vec<OutSection>,
    /// Symbols: per unit a file symbol and its locals, then the globals.
    pub symbols: Vec<OutSymbol>,
    /// `.comment` contents (from `.ident`).
    pub comment: Vec<u8>,
    /// `.riscv.attributes` tags and values (merged from every unit).
    pub attributes: Vec<(u64, AttrValue)>,
    /// The `.debug_*` sections (line tables from `.loc`, gcc's debugging
    /// information), by name: every unit's in file order, as GNU ld
    /// concatenates them, so gdb and reports read them.
    pub debug: Vec<(String, Vec<u8>)>,
}

const CLASSES: [(SectionClass, &str); 4] = [
    (SectionClass::Text, ".text"),
    (SectionClass::Rodata, ".rodata"),
    (SectionClass::Data, ".data"),
    (SectionClass::Bss, ".bss"),
];

fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

struct Linker<'a> {
    units: &'a [Unit],
    names: &'a [String],
    globals: HashMap<&'a str, usize>,
    commons: HashMap<(usize, String), u64>,
    diags: Vec<Diag>,
    /// Warnings of the final evaluations (a symbol's definition may be
    /// evaluated at each use: duplicates are dropped at the end).
    warnings: RefCell<Vec<Diag>>,
    /// Final values of symbols defined by expressions, by defining unit and
    /// name: each is evaluated once, after the symbols it refers to.
    deferred_values: RefCell<HashMap<(usize, String), SymbolValue>>,
    /// The "did you mean" of an undefined symbol, by unit and name: once per
    /// name, not at every reference (thousands of references to one
    /// undefined name against thousands of labels took seconds).
    suggestions: RefCell<HashMap<(usize, String), Option<String>>>,
}

/// The `%pcrel_hi` targets by `auipc` address, and the failed ones.
type PcrelTargets = (HashMap<u64, u32>, std::collections::HashSet<u64>);

/// Why a symbol has no value: message, label, help.
type SymbolError = (String, String, Option<String>);
/// A symbol's final value, or why it has none.
type SymbolValue = Result<i64, SymbolError>;

/// Evaluates expressions of one unit with final addresses.
struct FinalResolver<'l, 'a> {
    linker: &'l Linker<'a>,
    unit: usize,
    file: u32,
    dot: u64,
    ctx: CtxId,
}

impl Resolver for FinalResolver<'_, '_> {
    fn warn(&mut self, w: EvalWarning) {
        let span = Span {
            file: self.file,
            start: w.start,
            end: w.end,
        };
        self.linker.warnings.borrow_mut().push(Diag {
            ctx: self.ctx,
            ..Diag::warning(span, w.message, w.label)
        });
    }

    fn symbol(&mut self, name: &str, start: u32, end: u32) -> Result<Value, EvalError> {
        if name == "." {
            return Ok(Value::Abs(self.dot as i64));
        }
        let span = Span {
            file: self.file,
            start,
            end,
        };
        self.linker
            .value_of(self.unit, name, span)
            .map(Value::Abs)
            .map_err(|(msg, label, help)| {
                let _ = help;
                EvalError::Invalid(msg, label, start, end)
            })
    }
}

impl<'a> Linker<'a> {
    /// The unit that defines `name` as seen from `unit`, and its symbol;
    /// `Ok(None)` for an undefined weak reference (value 0).
    fn lookup(&self, unit: usize, name: &str) -> Result<Option<(usize, &'a Symbol)>, SymbolError> {
        let units = self.units;
        let local = units[unit].symbols.get(name);
        match local {
            Some(s) if s.is_defined() => Ok(Some((unit, s))),
            _ => match self.globals.get(name) {
                Some(&g) => Ok(Some((g, &units[g].symbols[name]))),
                None if local.is_some_and(|s| s.binding == Binding::Weak) => Ok(None),
                None => Err(self.undefined(unit, name)),
            },
        }
    }

    /// The final value of `name` as seen from unit `unit`.
    fn value_of(&self, unit: usize, name: &str, _span: Span) -> SymbolValue {
        let Some((u, sym)) = self.lookup(unit, name)? else {
            return Ok(0);
        };
        match &sym.def {
            SymDef::Value(Value::Abs(v)) => Ok(*v),
            SymDef::Value(Value::Rel { section, offset }) => {
                Ok(self.units[u].sections[*section].addr as i64 + offset)
            }
            SymDef::Deferred(..) => {
                let key = (u, name.to_string());
                if !self.deferred_values.borrow().contains_key(&key) {
                    self.resolve_deferred(key.clone());
                }
                self.deferred_values.borrow()[&key].clone()
            }
            SymDef::Common(..) | SymDef::Bss(..) => Ok(*self
                .commons
                .get(&(u, name.to_string()))
                .or_else(|| self.commons.get(&(usize::MAX, name.to_string())))
                .unwrap_or(&0) as i64),
            SymDef::Undefined => Err(self.undefined(unit, name)),
        }
    }

    /// The symbols defined by expressions that `key`'s definition refers to.
    fn deferred_dependencies(&self, (unit, name): &(usize, String)) -> Vec<(usize, String)> {
        let SymDef::Deferred(expr, ..) = &self.units[*unit].symbols[name.as_str()].def else {
            return Vec::new();
        };
        let mut deps = Vec::new();
        let mut todo = vec![&**expr];
        while let Some(e) = todo.pop() {
            match &e.kind {
                ExprKind::Sym(n) if &**n != "." => {
                    if let Ok(Some((u, sym))) = self.lookup(*unit, n)
                        && matches!(sym.def, SymDef::Deferred(..))
                    {
                        deps.push((u, n.to_string()));
                    }
                }
                ExprKind::Paren(x) | ExprKind::Unary(_, x) | ExprKind::Reloc(_, x) => todo.push(x),
                ExprKind::Binary(_, a, b) => todo.extend([&**a, &**b]),
                _ => {}
            }
        }
        deps
    }

    /// Evaluates the symbol `key` (defined by an expression) and every such
    /// symbol it depends on, deepest first, without recursion: a chain of
    /// `.equ` definitions may be thousands long. A true cycle is reported
    /// with its members.
    fn resolve_deferred(&self, key: (usize, String)) {
        let mut stack = vec![(self.deferred_dependencies(&key), 0, key)];
        while let Some((deps, next, key)) = stack.last_mut() {
            if let Some(dep) = deps.get(*next).cloned() {
                *next += 1;
                if self.deferred_values.borrow().contains_key(&dep) {
                    continue;
                }
                if let Some(at) = stack.iter().position(|(.., k)| *k == dep) {
                    let cycle: Vec<String> = stack[at..]
                        .iter()
                        .map(|(.., k)| display_name(&k.1).to_string())
                        .chain([display_name(&dep.1).to_string()])
                        .collect();
                    let error = (
                        format!(
                            "symbol `{}` is defined in terms of itself",
                            display_name(&dep.1)
                        ),
                        format!("definition loop: {}", cycle.join(" -> ")),
                        None,
                    );
                    let mut values = self.deferred_values.borrow_mut();
                    for (.., k) in &stack[at..] {
                        values.insert(k.clone(), Err(error.clone()));
                    }
                    continue;
                }
                let deps = self.deferred_dependencies(&dep);
                stack.push((deps, 0, dep));
                continue;
            }
            let key = key.clone();
            stack.pop();
            if self.deferred_values.borrow().contains_key(&key) {
                continue;
            }
            let value = self.evaluate_deferred(&key);
            self.deferred_values.borrow_mut().insert(key, value);
        }
    }

    /// The value of a symbol defined by an expression whose dependencies
    /// have their values.
    fn evaluate_deferred(&self, (u, name): &(usize, String)) -> SymbolValue {
        let SymDef::Deferred(expr, file, section, offset) =
            &self.units[*u].symbols[name.as_str()].def
        else {
            unreachable!("only symbols defined by expressions are deferred");
        };
        let mut r = FinalResolver {
            linker: self,
            unit: *u,
            file: *file,
            dot: self.units[*u].sections[*section].addr + offset,
            ctx: 0,
        };
        match eval(expr, &mut r) {
            Ok(Value::Abs(v)) => Ok(v),
            Ok(Value::Rel { .. }) => unreachable!("final values are absolute"),
            Err(EvalError::Invalid(m, l, ..)) => Err((m, l, None)),
            Err(EvalError::Defer(..)) => unreachable!("the final pass defers nothing"),
        }
    }

    fn undefined(&self, unit: usize, name: &str) -> (String, String, Option<String>) {
        if name.contains('\u{2}') {
            let n = name.split('\u{2}').next().unwrap_or("");
            return (
                format!("local label `{n}` is not defined after this reference"),
                format!("`{n}f` finds no later `{n}:`"),
                None,
            );
        }
        let help = self
            .suggestions
            .borrow_mut()
            .entry((unit, name.to_string()))
            .or_insert_with(|| {
                let candidates = self.units[unit]
                    .symbols
                    .iter()
                    .filter(|(_, s)| s.is_defined())
                    .map(|(n, _)| n.as_ref())
                    .chain(self.globals.keys().copied())
                    .filter(|n| !n.contains('\u{2}'));
                if isa_spec::parse_xreg(name).is_some() || isa_spec::parse_freg(name).is_some() {
                    // GNU as reads a register's name where a form takes a
                    // symbol as a symbol (`lw a0, a1` loads from `a1`).
                    return Some(format!(
                        "`{name}` is also a register's name, read here as a symbol as GNU as reads it; for the address in the register write `0({name})`"
                    ));
                }
                nearest(name, candidates).map(|n| format!("did you mean `{n}`?"))
            })
            .clone();
        (
            format!("undefined symbol `{name}`"),
            "not defined in any input file".to_string(),
            help,
        )
    }

    fn eval_at(&self, unit: usize, fx: &Fixup, dot: u64) -> Result<i64, Diag> {
        let (file, expr) = (fx.span.file, &fx.expr);
        let mut r = FinalResolver {
            linker: self,
            unit,
            file,
            dot,
            ctx: fx.ctx,
        };
        match eval(expr, &mut r) {
            Ok(Value::Abs(v)) => Ok(v),
            Ok(Value::Rel { .. }) => unreachable!("final values are absolute"),
            Err(EvalError::Invalid(msg, label, s, e)) => {
                let span = Span {
                    file,
                    start: s,
                    end: e,
                };
                let mut d = Diag::error(span, msg.clone(), label);
                if msg.starts_with("undefined symbol") {
                    let name = msg
                        .trim_start_matches("undefined symbol `")
                        .trim_end_matches('`');
                    if let (_, _, Some(help)) = self.undefined(unit, name) {
                        d = d.with_help(help);
                    }
                }
                Err(d)
            }
            Err(EvalError::Defer(..)) => unreachable!("the final pass defers nothing"),
        }
    }
}

fn range_diag(span: Span, ctx: CtxId, message: String, help: String) -> Diag {
    Diag {
        ctx,
        ..Diag::error(span, message, "does not fit").with_help(help)
    }
}

fn split_hi_lo(v: u32) -> (i32, i32) {
    let hi = (v.wrapping_add(0x800) >> 12) & 0xf_ffff;
    let lo = ((v & 0xfff) as i32) << 20 >> 20;
    (hi as i32, lo)
}

enum Patch {
    Bytes(usize, usize, usize, Vec<u8>),
    Or(usize, usize, usize, u32),
    Size(usize, Box<str>, u64),
}

/// Lays out and links the units. `names` are the input file names; warnings
/// go to `warnings` whether or not the link succeeds. The steps, in order:
/// the layout (addresses of every section and common symbol), the global
/// symbols, every fixup evaluated into a patch, the entry point and the
/// symbol table; then, without errors, the patches applied and the output
/// sections gathered.
pub fn link(
    units: &mut [Unit],
    names: &[String],
    opts: &Options,
    warnings: &mut Vec<Diag>,
) -> Result<Image, Vec<Diag>> {
    discard_duplicate_groups(units);
    let layout = lay_out(units, opts)?;
    let units_ref: &[Unit] = units;
    let mut linker = Linker {
        units: units_ref,
        names,
        globals: HashMap::new(),
        commons: layout.commons,
        diags: Vec::new(),
        warnings: RefCell::new(Vec::new()),
        deferred_values: RefCell::new(HashMap::new()),
        suggestions: RefCell::new(HashMap::new()),
    };
    linker.resolve_globals();
    let patches = linker.evaluate_fixups();
    let text_start = layout.classes[0].1;
    let entry = linker.entry_point(opts, text_start);
    let symbols = linker.symbol_table(&layout.classes, &patches);

    let mut seen = std::collections::HashSet::new();
    for w in linker.warnings.take() {
        if seen.insert((w.span, w.message.clone())) {
            warnings.push(w);
        }
    }
    if !linker.diags.is_empty() {
        let mut diags = linker.diags;
        diags.sort_by_key(|d| (d.span.file, d.span.start));
        return Err(diags);
    }
    apply_patches(units, patches);
    let (comment, attributes) = comment_and_attributes(units);
    Ok(Image {
        entry,
        sections: output_sections(units, &layout.classes),
        symbols,
        comment,
        attributes,
        debug: debug_sections(units, layout.debug_sizes),
    })
}

/// Where the layout put things: each class's range (class, start, end,
/// alignment), the common symbols' addresses (by defining unit, or
/// `usize::MAX` for a global one, and name), and each debug section's size.
struct Layout {
    classes: Vec<(SectionClass, u64, u64, u64)>,
    commons: HashMap<(usize, String), u64>,
    debug_sizes: indexmap::IndexMap<String, u64>,
}

/// Gives every section (and common symbol) its address; an error when the
/// program does not fit the 32-bit address space.
fn lay_out(units: &mut [Unit], opts: &Options) -> Result<Layout, Vec<Diag>> {
    let mut addr = opts.text_base;
    let mut class_ranges: Vec<(SectionClass, u64, u64, u64)> = Vec::new();
    let mut common_addrs: HashMap<(usize, String), u64> = HashMap::new();
    for (class, _) in CLASSES {
        if class == SectionClass::Data {
            addr = align_up(addr, PAGE);
        }
        let start = addr;
        let mut align = 1u64;
        for unit in units.iter_mut() {
            for sec in unit.sections.iter_mut().filter(|s| s.class == class) {
                // Code is placed on an instruction boundary whatever its
                // section's recorded alignment.
                let at_least = if class.is_code() { 4 } else { 1 };
                addr = align_up(addr, (sec.align as u64).max(at_least));
                sec.addr = addr;
                addr += sec.size;
                align = align.max(sec.align as u64);
            }
        }
        if class == SectionClass::Bss {
            // Common symbols: one per global name (largest size wins); one
            // per `.lcomm` (or `.comm` of a `.local` name) in each file.
            let mut global: indexmap::IndexMap<String, (u64, u64)> = indexmap::IndexMap::new();
            for (ui, unit) in units.iter().enumerate() {
                for (name, sym) in &unit.symbols {
                    match sym.def {
                        SymDef::Bss(size, al) => {
                            addr = align_up(addr, al);
                            common_addrs.insert((ui, name.to_string()), addr);
                            addr += size;
                            align = align.max(al);
                        }
                        SymDef::Common(size, al) => {
                            let e = global.entry(name.to_string()).or_insert((0, 1));
                            e.0 = e.0.max(size);
                            e.1 = e.1.max(al);
                        }
                        _ => {}
                    }
                }
            }
            for (name, (size, al)) in global {
                addr = align_up(addr, al);
                common_addrs.insert((usize::MAX, name), addr);
                addr += size;
                align = align.max(al);
            }
        }
        class_ranges.push((class, start, addr, align));
    }
    // Debug sections are not loaded: a label in one has its offset in the
    // output section as value (its address, with the section at 0, as ELF
    // gives non-allocated sections), which is what DWARF's references
    // between them (`.4byte .Ldebug_abbrev0`) mean.
    let mut debug_sizes: indexmap::IndexMap<String, u64> = indexmap::IndexMap::new();
    for unit in units.iter_mut() {
        for sec in unit.sections.iter_mut().filter(|s| is_debug(s)) {
            let end = debug_sizes.entry(sec.name.clone()).or_insert(0);
            *end = align_up(*end, sec.align as u64);
            sec.addr = *end;
            *end += sec.size;
        }
    }
    if addr > u32::MAX as u64 {
        let span = Span {
            file: units.first().map_or(0, |u| u.file),
            start: 0,
            end: 0,
        };
        return Err(vec![Diag::error(
            span,
            "the program does not fit the 32-bit address space",
            "program",
        )]);
    }

    Ok(Layout {
        classes: class_ranges,
        commons: common_addrs,
        debug_sizes,
    })
}

impl Linker<'_> {
    /// Which unit defines each global name (a strong definition over a weak
    /// or common one); two strong definitions are an error.
    fn resolve_globals(&mut self) {
        let units = self.units;
        let mut global_defs: HashMap<&str, (usize, Binding)> = HashMap::new();
        for (ui, unit) in units.iter().enumerate() {
            for (name, sym) in &unit.symbols {
                if sym.binding == Binding::Local || !sym.is_defined() {
                    continue;
                }
                if matches!(sym.def, SymDef::Common(..)) {
                    global_defs.entry(name).or_insert((ui, Binding::Weak));
                    continue;
                }
                match global_defs.get(name.as_ref()) {
                    Some(&(other, b)) if b != Binding::Weak && sym.binding != Binding::Weak => {
                        let first = units[other].symbols[name.as_ref()].def_span;
                        let mut d = Diag::error(
                            sym.def_span.unwrap_or_default(),
                            format!("global symbol `{name}` is defined in two files"),
                            "defined again here",
                        );
                        if let Some(f) = first {
                            d = d.with_note(f, format!("first defined in {}", self.names[other]));
                        }
                        self.diags.push(d);
                    }
                    Some(&(_, b)) if b != Binding::Weak => {}
                    _ => {
                        global_defs.insert(name, (ui, sym.binding));
                    }
                }
            }
        }
        self.globals = global_defs.into_iter().map(|(k, (u, _))| (k, u)).collect();
    }

    /// Every fixup evaluated into a patch (`%pcrel_hi` targets first:
    /// `%pcrel_lo` needs them); errors go to `diags`.
    fn evaluate_fixups(&mut self) -> Vec<Patch> {
        let targets = self.pcrel_targets();
        let mut patches = Vec::new();
        let units = self.units;
        for (ui, unit) in units.iter().enumerate() {
            for (si, sec) in unit.sections.iter().enumerate() {
                for fx in &sec.fixups {
                    match self.patch(&targets, ui, si, sec, fx) {
                        Ok(Some(p)) => patches.push(p),
                        Ok(None) => {}
                        Err(d) => self.diags.push(Diag { ctx: fx.ctx, ..d }),
                    }
                }
            }
        }
        patches
    }

    /// The targets of the `%pcrel_hi` fixups, by the address of their
    /// `auipc`, and the addresses whose `%pcrel_hi` failed (reported).
    fn pcrel_targets(&mut self) -> PcrelTargets {
        let units = self.units;
        let mut pcrel_targets: HashMap<u64, u32> = HashMap::new();
        let mut pcrel_failed: std::collections::HashSet<u64> = std::collections::HashSet::new();
        for (ui, unit) in units.iter().enumerate() {
            for sec in &unit.sections {
                for fx in sec.fixups.iter().filter(|f| {
                    matches!(
                        f.kind,
                        FixKind::PcrelHi
                            | FixKind::GotHi
                            | FixKind::Tls(TlsFix::IePcrelHi | TlsFix::GdPcrelHi)
                    )
                }) {
                    let pc = sec.addr + fx.offset as u64;
                    if fx.kind != FixKind::PcrelHi {
                        // Reported at the auipc; its `lw` says no more.
                        pcrel_failed.insert(pc);
                        continue;
                    }
                    match self.eval_at(ui, fx, pc) {
                        Ok(t) => {
                            pcrel_targets.insert(pc, t as u32);
                        }
                        Err(d) => {
                            pcrel_failed.insert(pc);
                            self.diags.push(Diag { ctx: fx.ctx, ..d });
                        }
                    }
                }
            }
        }
        (pcrel_targets, pcrel_failed)
    }

    /// The patch of fixup `fx` of section `si` of unit `ui` (`None`: nothing
    /// to write, or already reported).
    ///
    /// Long: one match with an arm per kind of fixup and target.
    fn patch(
        &self,
        targets: &PcrelTargets,
        ui: usize,
        si: usize,
        sec: &Section,
        fx: &Fixup,
    ) -> Result<Option<Patch>, Diag> {
        let (pcrel_targets, pcrel_failed) = targets;
        let pc = sec.addr + fx.offset as u64;
        let off = fx.offset as usize;
        // `None`: the `%pcrel_hi` already failed and was reported.
        let pcrel_lo = |auipc: u64| -> Result<Option<i32>, Diag> {
            match pcrel_targets.get(&auipc) {
                Some(t) => Ok(Some(split_hi_lo(t.wrapping_sub(auipc as u32)).1)),
                None if pcrel_failed.contains(&auipc) => Ok(None),
                None => Err(Diag {
                    ctx: fx.ctx,
                    ..Diag::error(
                        fx.span,
                        "`%pcrel_lo` must name the label of an `auipc` with `%pcrel_hi`",
                        "no `%pcrel_hi` there",
                    )
                    .with_help(
                        "label the auipc (`1: auipc a0, %pcrel_hi(sym)`) and write `%pcrel_lo(1b)`",
                    )
                }),
            }
        };
        Ok(Some(match &fx.kind {
            FixKind::GotHi => {
                return Err(Diag {
                        ctx: fx.ctx,
                        ..Diag::error(fx.span, "`la` under `.option pic` loads from a GOT, which this linker does not build", "a GOT entry")
                            .with_help("assemble with -c and link with GNU ld (as `scmp cc` does), or write `lla` / `.option nopic`")
                    });
            }
            // `R_RISCV_NONE` asks nothing of a self.
            FixKind::Reloc(0, _) => return Ok(None),
            FixKind::Reloc(..) => {
                return Err(Diag {
                        ctx: fx.ctx,
                        ..Diag::error(fx.span, "`.reloc` is written for a linker: this executable is linked here, without it", "a hand-written relocation")
                            .with_help("assemble with -c and link with GNU ld")
                    });
            }
            FixKind::Tls(_) => {
                return Err(Diag {
                        ctx: fx.ctx,
                        ..Diag::error(fx.span, "thread-local storage needs a thread pointer, which SCMP tiles do not have", "a thread-local variable")
                            .with_help("assemble with -c for GNU ld, or make the variable an ordinary global (or per-thread data the program keeps itself)")
                    });
            }
            FixKind::PcrelHi => {
                let t = pcrel_targets.get(&pc).copied().unwrap_or(0);
                let (hi, _) = split_hi_lo(t.wrapping_sub(pc as u32));
                Patch::Or(ui, si, off, Field::ImmU.insert(hi))
            }
            FixKind::PcrelLoBefore(field, back) => match pcrel_lo(pc - *back as u64)? {
                Some(lo) => Patch::Or(ui, si, off, field.insert(lo)),
                None => return Ok(None),
            },
            FixKind::PcrelLoAt(field) => {
                let at = self.eval_at(ui, fx, pc)? as u64;
                match pcrel_lo(at)? {
                    Some(lo) => Patch::Or(ui, si, off, field.insert(lo)),
                    None => return Ok(None),
                }
            }
            _ => {
                let v = self.eval_at(ui, fx, pc)?;
                return Self::value_patch(ui, si, pc, fx, v);
            }
        }))
    }

    /// The patch of fixup `fx` at `pc` whose value is `v`: a kind
    /// [`Self::patch`] does not settle without it.
    ///
    /// Long: one match with an arm per kind of fixup.
    fn value_patch(
        ui: usize,
        si: usize,
        pc: u64,
        fx: &Fixup,
        v: i64,
    ) -> Result<Option<Patch>, Diag> {
        let off = fx.offset as usize;
        Ok(Some(match &fx.kind {
            FixKind::Data(size) => {
                let bytes = fixup_data(v, *size, fx.span).map_err(|d| Diag { ctx: fx.ctx, ..d })?;
                Patch::Bytes(ui, si, off, bytes)
            }
            FixKind::Field(field) => {
                let v = rv32_operand(v);
                field.check(v).map_err(|r| {
                    range_diag(
                        fx.span,
                        fx.ctx,
                        format!("immediate {v} out of range"),
                        r.to_string(),
                    )
                })?;
                Patch::Or(ui, si, off, field.insert(v as i32))
            }
            FixKind::PcRel(field) => {
                let rel = (v as u32).wrapping_sub(pc as u32) as i32 as i64;
                field.check(rel).map_err(|r| {
                    range_diag(
                        fx.span,
                        fx.ctx,
                        format!("target out of range: offset {rel}"),
                        r.to_string(),
                    )
                })?;
                Patch::Or(ui, si, off, field.insert(rel as i32))
            }
            FixKind::Hi => Patch::Or(ui, si, off, Field::ImmU.insert(split_hi_lo(v as u32).0)),
            FixKind::Lo(field) => Patch::Or(ui, si, off, field.insert(split_hi_lo(v as u32).1)),
            FixKind::SymbolSize(name) => Patch::Size(ui, name.clone(), v as u64),
            FixKind::Cfi(CfiFix::Pcrel32) => Patch::Bytes(
                ui,
                si,
                off,
                (v as u32).wrapping_sub(pc as u32).to_le_bytes().to_vec(),
            ),
            FixKind::Cfi(CfiFix::Advance(width)) => {
                let bytes = (v as u32).to_le_bytes();
                Patch::Bytes(
                    ui,
                    si,
                    off,
                    match width {
                        6 => vec![0x40 | (bytes[0] & 0x3f)],
                        8 => bytes[..1].to_vec(),
                        16 => bytes[..2].to_vec(),
                        _ => bytes.to_vec(),
                    },
                )
            }
            FixKind::PcrelHi
            | FixKind::GotHi
            | FixKind::Tls(_)
            | FixKind::Reloc(..)
            | FixKind::PcrelLoAt(_)
            | FixKind::PcrelLoBefore(..) => return Ok(None),
        }))
    }

    /// The entry address: `-e`'s symbol or `_start`, else the start of
    /// `.text` (an `-e` symbol not defined is an error).
    fn entry_point(&mut self, opts: &Options, text_start: u64) -> u64 {
        let units = self.units;
        let entry_name = opts.entry.clone().unwrap_or_else(|| "_start".to_string());
        match self.globals.get(entry_name.as_str()).copied().or_else(|| {
            units.iter().position(|u| {
                u.symbols
                    .get(entry_name.as_str())
                    .is_some_and(|s| s.is_defined())
            })
        }) {
            Some(u) => {
                let span = units[u].symbols[entry_name.as_str()]
                    .def_span
                    .unwrap_or_default();
                match self.value_of(u, &entry_name, span) {
                    Ok(v) => v as u64,
                    Err((m, l, _)) => {
                        self.diags.push(Diag::error(span, m, l));
                        text_start
                    }
                }
            }
            None if opts.entry.is_some() => {
                let span = Span {
                    file: units.first().map_or(0, |u| u.file),
                    start: 0,
                    end: 0,
                };
                self.diags.push(
                    Diag::error(
                        span,
                        format!("entry symbol `{entry_name}` is not defined"),
                        "no such symbol",
                    )
                    .with_help("define the label, or name another with -e"),
                );
                text_start
            }
            // No `_start`: like GNU ld, start at the beginning of `.text`.
            None => text_start,
        }
    }

    /// The symbol table: per unit a file symbol and its locals, then the
    /// globals.
    fn symbol_table(
        &self,
        class_ranges: &[(SectionClass, u64, u64, u64)],
        patches: &[Patch],
    ) -> Vec<OutSymbol> {
        let units = self.units;
        let names = self.names;
        let mut symbols = Vec::new();
        let mut global_syms = Vec::new();
        let class_of = |addr: u64| {
            class_ranges
                .iter()
                .find(|(_, s, e, _)| addr >= *s && addr < *e.max(&(*s + 1)))
                .map(|(c, ..)| *c)
        };
        let mut sizes: HashMap<(usize, Box<str>), u64> = HashMap::new();
        for p in patches {
            if let Patch::Size(u, name, v) = p {
                sizes.insert((*u, name.clone()), *v);
            }
        }
        for (ui, unit) in units.iter().enumerate() {
            let file_name = unit.file_name.clone().unwrap_or_else(|| {
                std::path::Path::new(&names[ui])
                    .file_name()
                    .map_or(names[ui].clone(), |f| f.to_string_lossy().into_owned())
            });
            symbols.push(OutSymbol {
                name: file_name,
                value: 0,
                size: 0,
                binding: Binding::Local,
                ty: SymType::NoType,
                visibility: 0,
                section: None,
                is_file: true,
            });
            for (name, sym) in &unit.symbols {
                if is_assembler_local(name) || !sym.is_defined() {
                    continue;
                }
                if sym.binding != Binding::Local && self.globals.get(name.as_ref()) != Some(&ui) {
                    continue;
                }
                let Ok(value) = self.value_of(ui, name, sym.def_span.unwrap_or_default()) else {
                    continue;
                };
                let is_address = matches!(
                    sym.def,
                    SymDef::Value(Value::Rel { .. }) | SymDef::Common(..) | SymDef::Bss(..)
                ) || matches!(sym.def, SymDef::Deferred(..) if class_of(value as u64).is_some());
                let out = OutSymbol {
                    name: name.to_string(),
                    value: value as u32 as u64,
                    size: sizes
                        .get(&(ui, name.clone()))
                        .copied()
                        .or(sym.size)
                        .unwrap_or(match sym.def {
                            SymDef::Common(s, _) | SymDef::Bss(s, _) => s,
                            _ => 0,
                        }),
                    binding: sym.binding,
                    ty: sym.ty,
                    visibility: sym.visibility,
                    section: if is_address {
                        class_of(value as u64)
                    } else {
                        None
                    },
                    is_file: false,
                };
                if sym.binding == Binding::Local {
                    symbols.push(out);
                } else {
                    global_syms.push(out);
                }
            }
        }
        symbols.extend(global_syms);

        symbols
    }
}

/// Writes the evaluated fixups into the sections' bytes.
fn apply_patches(units: &mut [Unit], patches: Vec<Patch>) {
    for p in patches {
        match p {
            Patch::Bytes(u, s, off, bytes) => {
                units[u].sections[s].data[off..off + bytes.len()].copy_from_slice(&bytes);
            }
            Patch::Or(u, s, off, bits) => {
                let data = &mut units[u].sections[s].data;
                let w =
                    u32::from_le_bytes([data[off], data[off + 1], data[off + 2], data[off + 3]])
                        | bits;
                data[off..off + 4].copy_from_slice(&w.to_le_bytes());
            }
            Patch::Size(..) => {}
        }
    }
}

/// The loaded output sections: each class's input sections concatenated at
/// their addresses (gaps in code filled with nops).
fn output_sections(
    units: &[Unit],
    class_ranges: &[(SectionClass, u64, u64, u64)],
) -> Vec<OutSection> {
    let mut sections = Vec::new();
    for (class, name) in CLASSES {
        let &(_, start, end, align) = class_ranges
            .iter()
            .find(|(c, ..)| *c == class)
            .expect("every class laid out");
        if end == start {
            continue;
        }
        let mut data = Vec::new();
        if class != SectionClass::Bss {
            data.reserve((end - start) as usize);
            for unit in units.iter() {
                for sec in unit.sections.iter().filter(|s| s.class == class) {
                    let gap = (sec.addr - start) as usize - data.len();
                    if class.is_code() {
                        // Gaps between files' code are filled with nops.
                        let mut g = gap;
                        while g >= 4 && data.len() % 4 == 0 {
                            data.extend_from_slice(&0x13u32.to_le_bytes());
                            g -= 4;
                        }
                        data.resize(data.len() + g, 0);
                    } else {
                        data.resize(data.len() + gap, 0);
                    }
                    data.extend_from_slice(&sec.data);
                }
            }
        }
        sections.push(OutSection {
            name,
            class,
            addr: start,
            size: end - start,
            data,
            align,
        });
    }

    sections
}

/// The `.debug_*` sections: every unit's in file order.
fn debug_sections(
    units: &[Unit],
    debug_sizes: indexmap::IndexMap<String, u64>,
) -> Vec<(String, Vec<u8>)> {
    let mut debug = Vec::new();
    for (name, size) in debug_sizes {
        let mut data = Vec::with_capacity(size as usize);
        for sec in units.iter().flat_map(|u| &u.sections) {
            if is_debug(sec) && sec.name == name {
                data.resize(sec.addr as usize, 0);
                data.extend_from_slice(&sec.data);
            }
        }
        debug.push((name, data));
    }

    debug
}

/// `.comment` (from `.ident`) and the merged `.riscv.attributes`.
fn comment_and_attributes(units: &[Unit]) -> (Vec<u8>, Vec<(u64, AttrValue)>) {
    let mut comment = Vec::new();
    for unit in units.iter() {
        for ident in &unit.idents {
            if comment.is_empty() {
                comment.push(0);
            }
            comment.extend_from_slice(ident.as_bytes());
            comment.push(0);
        }
    }
    let mut attributes: Vec<(u64, AttrValue)> = Vec::new();
    for unit in units.iter() {
        for (tag, v) in &unit.attributes {
            attributes.retain(|(t, _)| t != tag);
            attributes.push((*tag, v.clone()));
        }
    }
    attributes.sort_by_key(|(t, _)| *t);

    (comment, attributes)
}

/// Whether a section is debugging information (`.debug_*`, not loaded),
/// which executables keep.
/// COMDAT groups, as GNU ld keeps them: of the groups with one signature,
/// the first file's stays and the others' sections are dropped (emptied,
/// so that they take no room). A global defined in a dropped section
/// becomes a reference, which the kept group's definition answers; local
/// labels keep their (now empty) section, as ld's tombstone for debug
/// references to discarded code.
fn discard_duplicate_groups(units: &mut [Unit]) {
    let mut kept: HashMap<String, usize> = HashMap::new();
    for (ui, unit) in units.iter_mut().enumerate() {
        let mut dropped = Vec::new();
        for (si, sec) in unit.sections.iter_mut().enumerate() {
            let Some(g) = sec.group.as_ref().filter(|g| g.comdat) else {
                continue;
            };
            if *kept.entry(g.signature.clone()).or_insert(ui) == ui {
                continue;
            }
            sec.data.clear();
            sec.size = 0;
            sec.fixups.clear();
            sec.aligns.clear();
            dropped.push(si);
        }
        for sym in unit.symbols.values_mut() {
            if let SymDef::Value(Value::Rel { section, .. }) = sym.def
                && dropped.contains(&section)
                && sym.binding != Binding::Local
            {
                sym.def = SymDef::Undefined;
            }
        }
    }
}

fn is_debug(sec: &Section) -> bool {
    sec.class == SectionClass::NonAlloc && sec.name.starts_with(".debug")
}
