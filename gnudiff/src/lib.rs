//! Differential testing of `scmp asm -c` against GNU as 2.40 and GNU ld:
//! a generator of random sources GNU as takes ([`random_source`], over any
//! source of [`Choices`]), each object described as the comparison needs
//! it (sections, relocations, symbols, groups: [`describe`],
//! [`section_rows`], [`symbol_rows`], [`group_rows`]), the loaded image of
//! a link ([`loaded`], [`link`]) and the whole comparison of one source
//! ([`differences`]). Used by the workspace's tests (`tests/gnu_objects.rs`,
//! CI's smoke) and by the fuzz crate's `gnu_differential` target; needs
//! `riscv64-unknown-elf-as`, `-ld` and `-readelf` on the PATH.
//!
//! Over 600 lines: the generator and the comparison are one contract (what
//! the generator writes is what the comparison knows how to describe).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use object::elf;
use object::read::elf::{ElfFile32, FileHeader, SectionHeader};
use object::{Object, ObjectSection, ObjectSymbol, RelocationFlags, RelocationTarget};

/// Whether GNU as and ld are on the PATH.
pub fn gnu_tools_present() -> bool {
    ["riscv64-unknown-elf-as", "riscv64-unknown-elf-ld"]
        .iter()
        .all(|t| {
            Command::new(t)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// Options as `scmp asm -c -I DIR...` sets them.
pub fn ours(name: &str, text: &str, includes: &[&str]) -> Result<Vec<u8>, String> {
    let opts = asm::Options {
        include_dirs: includes.iter().map(Into::into).collect(),
        ..asm::Options::default()
    };
    asm::assemble_object(name, text, &opts, elf::EF_RISCV_FLOAT_ABI_DOUBLE)
        .map(|o| o.object)
        .map_err(|d| d.render(false))
}

pub fn gnu(
    dir: impl AsRef<Path>,
    stem: &str,
    text: &str,
    includes: &[&str],
) -> Result<Vec<u8>, String> {
    let src = dir.as_ref().join(format!("{stem}.s"));
    std::fs::write(&src, text).unwrap();
    let obj = dir.as_ref().join(format!("{stem}.gnu.o"));
    let mut cmd = Command::new("riscv64-unknown-elf-as");
    cmd.args(["-march=rv32g", "-mabi=ilp32d", "-o"])
        .arg(&obj)
        .arg(&src);
    for inc in includes {
        cmd.arg("-I").arg(inc);
    }
    // No `--gdwarf-N` (gcc -g passes `--gdwarf-5`; its sources give `.file
    // 0`, which chooses version 5 as well): the version follows the source.
    let out = cmd.output().expect("riscv64-unknown-elf-as runs");
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&obj).unwrap())
}

/// Per section (but the attributes): its bytes (`None` for `.bss`-like) and
/// size, and its relocations described without symbol names that need not
/// match (a local symbol is `section+value`).
pub type Described = BTreeMap<String, (Option<Vec<u8>>, u64, Vec<String>)>;

pub fn describe(bytes: &[u8]) -> Described {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    let groups = group_of(&file);
    let mut out = BTreeMap::new();
    for sec in file.sections() {
        let name = section_key(&sec, &groups);
        // The unwind tables (`.eh_frame`, `.debug_frame`) are compared as
        // any section: bytes and relocations.
        if name.is_empty() || not_compared_as_bytes(&name) {
            continue;
        }
        let data = (sec.kind() != object::SectionKind::UninitializedData)
            .then(|| sec.data().unwrap().to_vec());
        let mut relocs = Vec::new();
        for (offset, r) in sec.relocations() {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                unreachable!("ELF relocations")
            };
            let target = match r.target() {
                RelocationTarget::Symbol(i) => {
                    let s = file.symbol_by_index(i).unwrap();
                    if s.is_local() || s.kind() == object::SymbolKind::Section {
                        let sec = s
                            .section_index()
                            .and_then(|k| file.section_by_index(k).ok())
                            .map(|k| k.name().unwrap_or("?").to_string())
                            .unwrap_or_else(|| "*ABS*".into());
                        format!("{sec}+{:#x}", s.address())
                    } else {
                        s.name().unwrap_or("?").to_string()
                    }
                }
                _ => "-".to_string(),
            };
            relocs.push(format!("{offset:#06x} {r_type} {target} {:+}", r.addend()));
        }
        out.insert(name, (data, sec.size(), relocs));
    }
    let _ = file.elf_header().e_flags(file.endian());
    out
}

/// The line table as GNU readelf decodes it (file, line, address, stmt).
pub fn decoded_lines(dir: impl AsRef<Path>, object: &[u8]) -> String {
    let path = dir.as_ref().join("lines.o");
    std::fs::write(&path, object).unwrap();
    let out = Command::new("riscv64-unknown-elf-readelf")
        .arg("--debug-dump=decodedline")
        .arg(&path)
        .output()
        .expect("riscv64-unknown-elf-readelf runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.contains("lines.o"))
        .collect::<Vec<_>>()
        .join("\n")
}

pub fn compare(what: &str, ours: &[u8], gnu: &[u8]) -> Result<(), String> {
    let (a, b) = (describe(ours), describe(gnu));
    let mut report = String::new();
    for name in a
        .keys()
        .chain(b.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        match (a.get(name), b.get(name)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) => {
                if x.0 != y.0 || x.1 != y.1 {
                    report += &format!(
                        "{what}: section {name}: contents differ (size {} here, {} in GNU's)\n",
                        x.1, y.1
                    );
                }
                let (rx, ry) = (&x.2, &y.2);
                if rx != ry {
                    let first = rx
                        .iter()
                        .zip(ry)
                        .position(|(p, q)| p != q)
                        .unwrap_or(rx.len().min(ry.len()));
                    report += &format!(
                        "{what}: section {name}: relocations differ at #{first}: ours {:?}, GNU's {:?}\n",
                        rx.get(first),
                        ry.get(first)
                    );
                }
            }
            (x, _) => {
                report += &format!(
                    "{what}: section {name} only in {}\n",
                    if x.is_some() { "ours" } else { "GNU's" }
                );
            }
        }
    }
    if report.is_empty() {
        Ok(())
    } else {
        Err(report)
    }
}

/// Loaded section contents of a linked ELF, by name.
pub fn loaded(elf_bytes: &[u8]) -> BTreeMap<String, (u64, Vec<u8>)> {
    let file = ElfFile32::<object::Endianness>::parse(elf_bytes).unwrap();
    file.sections()
        .filter(|s| {
            matches!(
                s.flags(),
                object::SectionFlags::Elf { sh_flags, .. } if sh_flags.0 & elf::SHF_ALLOC.0 != 0
            )
        })
        .map(|s| {
            (
                s.name().unwrap().to_string(),
                (s.address(), s.data().unwrap_or(&[]).to_vec()),
            )
        })
        .collect()
}

pub fn link(dir: impl AsRef<Path>, stem: &str, object: &[u8]) -> Result<Vec<u8>, String> {
    link_with(dir, stem, object, &[])
}

/// [`link`] with more `ld` options (`--no-relax`, ...).
pub fn link_with(
    dir: impl AsRef<Path>,
    stem: &str,
    object: &[u8],
    options: &[&str],
) -> Result<Vec<u8>, String> {
    let obj = dir.as_ref().join(format!("{stem}.o"));
    std::fs::write(&obj, object).unwrap();
    let out = dir.as_ref().join(format!("{stem}.elf"));
    let ld = Command::new("riscv64-unknown-elf-ld")
        .args(["-m", "elf32lriscv", "-Ttext=0x10000"])
        .args(options)
        .arg("-o")
        .arg(&out)
        .arg(&obj)
        .output()
        .expect("riscv64-unknown-elf-ld runs");
    if !ld.status.success() {
        return Err(String::from_utf8_lossy(&ld.stderr).into_owned());
    }
    Ok(std::fs::read(&out).unwrap())
}

/// What differs between our object `ours` and GNU's `gnu` of one source:
/// sections (type, flags, alignment, size, bytes), relocations, symbols,
/// groups, attributes, OS/ABI.
pub fn object_differences(stem: &str, ours: &[u8], gnu: &[u8]) -> Vec<String> {
    let (o, g) = (ours, gnu);
    let mut why = Vec::new();
    if let Err(e) = compare(stem, o, g) {
        why.push(e);
    }
    for (what, rows) in [
        (
            "sections",
            section_rows as fn(&[u8]) -> BTreeMap<String, String>,
        ),
        ("symbols", symbol_rows),
        ("groups", group_rows),
    ] {
        let (rg, ro) = (rows(g), rows(o));
        if rg != ro {
            why.push(format!("{what}\n  GNU  {rg:?}\n  ours {ro:?}"));
        }
    }
    let attributes = |b: &[u8]| {
        let f = ElfFile32::<object::Endianness>::parse(b).unwrap();
        f.section_by_name(".riscv.attributes")
            .map(|s| s.data().unwrap().to_vec())
    };
    if attributes(g) != attributes(o) {
        why.push(".riscv.attributes differ".to_string());
    }
    if g[7] != o[7] {
        why.push(format!("OS/ABI {} against GNU's {}", o[7], g[7]));
    }
    why
}

/// How our line table differs from GNU as's, for a source with `.loc`
/// rows: the rows as GNU readelf decodes them and, for a version 3 table
/// (no `.file 0`: no strings in `.debug_line_str`), the bytes.
pub fn line_differences(dir: &Path, text: &str, ours: &[u8], gnu: &[u8]) -> Vec<String> {
    let mut why = Vec::new();
    if !text.contains(".loc ") {
        return why;
    }
    let (lo, lg) = (decoded_lines(dir, ours), decoded_lines(dir, gnu));
    if lo != lg {
        why.push(format!("line tables differ:\n  GNU  {lg}\n  ours {lo}"));
    }
    let bytes = |object: &[u8]| {
        let file = ElfFile32::<object::Endianness>::parse(object).expect("an ELF object");
        let section = file.section_by_name(".debug_line");
        section.map(|s| s.data().expect("section data").to_vec())
    };
    if !text.contains(".file 0 ") && bytes(ours) != bytes(gnu) {
        why.push("`.debug_line` bytes differ (version 3)".into());
    }
    why
}

/// Everything that differs between our object of `text` and GNU as's, and
/// between their images linked by GNU ld with relaxation and without
/// (external symbols left at 0): sections (type, flags, alignment, size,
/// bytes), relocations, symbols, groups, attributes, OS/ABI, and the line
/// tables as GNU readelf decodes them. `Err` when
/// GNU as refuses the source (a generator's bug, not a difference). Links
/// that fail in both (a jump out of reach, as ld says) are no difference;
/// `linked` counts the images compared.
pub fn differences(
    dir: impl AsRef<Path>,
    stem: &str,
    text: &str,
    linked: &mut u64,
) -> Result<Vec<String>, String> {
    let dir = dir.as_ref();
    let g = gnu(dir, stem, text, &[])?;
    let o = match ours(stem, text, &[]) {
        Ok(o) => o,
        Err(e) => return Ok(vec![format!("ours refused it:\n{e}")]),
    };
    let mut why = object_differences(stem, &o, &g);
    why.extend(line_differences(dir, text, &o, &g));
    for (how, options) in [
        ("relaxed", &["--unresolved-symbols=ignore-all"][..]),
        (
            "--no-relax",
            &["--unresolved-symbols=ignore-all", "--no-relax"][..],
        ),
    ] {
        let image = |who: &str, object: &[u8]| {
            link_with(dir, &format!("{stem}-{who}"), object, options).map(|elf| loaded(&elf))
        };
        match (image("gnu", &g), image("ours", &o)) {
            (Ok(a), Ok(b)) if a == b => *linked += 1,
            (Err(_), Err(_)) => {}
            (a, b) => why.push(format!(
                "images linked {how} differ: GNU {}, ours {}",
                a.map_or_else(|e| e, |m| format!("{} sections", m.len())),
                b.map_or_else(|e| e, |m| format!("{} sections", m.len()))
            )),
        }
    }
    Ok(why)
}

/// A symbol as the object's symbol table has it: binding, type, where it
/// lives (`COM`, `UND`, `ABS` or the section's name) and size.
pub fn symbol_rows(bytes: &[u8]) -> BTreeMap<String, String> {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    let groups = group_of(&file);
    file.symbols()
        .filter(|s| {
            let n = s.name().unwrap_or("");
            let assembler_local = n.starts_with(".L") && s.is_local();
            !(n.is_empty() || n.starts_with('$') || assembler_local)
        })
        .map(|s| {
            let (bind, ty) = match s.flags() {
                object::SymbolFlags::Elf { st_info, .. } => (st_info.0 >> 4, st_info.0 & 15),
                _ => unreachable!("an ELF symbol"),
            };
            let place = match s.section() {
                object::SymbolSection::Common => "COM".to_string(),
                object::SymbolSection::Undefined => "UND".to_string(),
                object::SymbolSection::Absolute => "ABS".to_string(),
                object::SymbolSection::Section(i) => {
                    section_key(&file.section_by_index(i).unwrap(), &groups)
                }
                other => format!("{other:?}"),
            };
            (
                s.name().unwrap().to_string(),
                format!("bind {bind} type {ty} in {place} size {}", s.size()),
            )
        })
        .collect()
}

/// Each grouped section's group signature, by section index.
fn group_of(file: &ElfFile32<object::Endianness>) -> BTreeMap<usize, String> {
    let mut out = BTreeMap::new();
    for (signature, _, members) in groups(file) {
        for m in members {
            out.insert(m, signature.clone());
        }
    }
    out
}

/// The groups of an object: signature, flags word, member section indices.
fn groups(file: &ElfFile32<object::Endianness>) -> Vec<(String, u32, Vec<usize>)> {
    let endian = file.endian();
    let mut out = Vec::new();
    for sec in file.sections() {
        let h = sec.elf_section_header();
        if h.sh_type(endian) != elf::SHT_GROUP {
            continue;
        }
        let symbol = file
            .symbol_by_index(object::SymbolIndex(h.sh_info(endian) as usize))
            .expect("a group names its signature symbol");
        let words: Vec<u32> = sec
            .data()
            .unwrap()
            .chunks(4)
            .map(|w| u32::from_le_bytes(w.try_into().unwrap()))
            .collect();
        out.push((
            symbol.name().unwrap().to_string(),
            words[0],
            words[1..].iter().map(|&i| i as usize).collect(),
        ));
    }
    out
}

/// A section's name, with its group's signature when in one (GNU as keeps
/// sections of one name in different groups apart).
fn section_key(
    sec: &object::read::elf::ElfSection32<object::Endianness>,
    groups: &BTreeMap<usize, String>,
) -> String {
    let name = sec.name().unwrap_or("").to_string();
    match groups.get(&sec.index().0) {
        Some(g) => format!("{name} [{g}]"),
        None => name,
    }
}

/// The groups by signature: COMDAT or not, and the members' names in order.
pub fn group_rows(bytes: &[u8]) -> BTreeMap<String, String> {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    groups(&file)
        .into_iter()
        .map(|(signature, flags, members)| {
            let names: Vec<&str> = members
                .iter()
                .map(|&i| {
                    file.section_by_index(object::SectionIndex(i))
                        .unwrap()
                        .name()
                        .unwrap()
                })
                .collect();
            (signature, format!("flags {flags} members {names:?}"))
        })
        .collect()
}

/// Sections compared otherwise than by their headers and bytes:
/// relocations as relocations; symbol tables differ in the names of
/// assembler-local labels and GNU's mapping symbols; groups list section
/// indices, which differ (GNU puts each `.rela` after its section), so
/// `group_rows` compares them by name; attributes by `attributes`; the line
/// table decoded (`line_differences`: GNU puts its strings in
/// `.debug_line_str`, we inline them).
fn not_compared_as_bytes(name: &str) -> bool {
    name.starts_with(".rela")
        || [
            ".group",
            ".symtab",
            ".strtab",
            ".shstrtab",
            ".riscv.attributes",
            ".debug_line",
            ".debug_line_str",
        ]
        .contains(&name)
}

/// Section headers as they matter to a linker: type, flags, alignment, size.
pub fn section_rows(bytes: &[u8]) -> BTreeMap<String, String> {
    let file = ElfFile32::<object::Endianness>::parse(bytes).expect("an ELF object");
    let endian = file.endian();
    let groups = group_of(&file);
    file.sections()
        .filter(|s| {
            let n = s.name().unwrap_or("");
            !n.is_empty() && !not_compared_as_bytes(n)
        })
        .map(|s| {
            let h = s.elf_section_header();
            (
                section_key(&s, &groups),
                format!(
                    "type {} flags {:#x} align {} size {}",
                    h.sh_type(endian),
                    h.sh_flags(endian),
                    h.sh_addralign(endian),
                    h.sh_size(endian)
                ),
            )
        })
        .collect()
}

/// Where a generated source's choices come from: a seeded generator in the
/// tests, the fuzzer's bytes in the fuzz target.
pub trait Choices {
    /// A number in `0..n` (`n` at least 1).
    fn below(&mut self, n: u64) -> u64;
}

/// The generator's choices over a [`Choices`].
struct Gen<'c, C: Choices>(&'c mut C);

impl<C: Choices> Gen<'_, C> {
    fn below(&mut self, n: u64) -> u64 {
        self.0.below(n.max(1))
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
    fn imm(&mut self, bits: u32) -> i64 {
        let half = 1i64 << (bits - 1);
        self.below(2 * half as u64) as i64 - half
    }
}

/// One random source that GNU as 2.40 takes: code with branches, jumps,
/// calls and address loads to labels of its own and external symbols,
/// loads and stores, `li` of any 32-bit value, FP and CSR instructions;
/// data of every width with numbers and same-section label differences,
/// strings, floats, LEB128 numbers; alignment with and without a maximum;
/// symbol directives (globals, weak, types, sizes, `.set`, file statics);
/// subsections, a COMDAT group, thread-local (`%tprel_*`) references and
/// `.option relax`/`norelax`; `.file`/`.loc` line information in some.
/// Not `.reloc`: where GNU as puts one among the relocations of nearby code
/// follows its fragments (the README says so); the cases of
/// `tests/asm/gnu/reloc_by_hand.s` check it where that is plain.
pub fn random_source(choices: &mut impl Choices) -> String {
    let mut s = Source::new(Gen(choices));
    for _ in 0..20 + s.g.below(60) {
        s.statement();
    }
    s.finish()
}

/// The integer registers a generated source uses.
const X: &[&str] = &["zero", "ra", "sp", "t0", "s0", "s1", "a0", "a1", "a5", "t6"];
/// The FP registers a generated source uses.
const F: &[&str] = &["fa0", "fa1", "ft0", "fs1"];

/// A random source being written ([`random_source`]): its choices, what it
/// chose at the start and what its statements so far leave in force.
struct Source<'c, C: Choices> {
    g: Gen<'c, C>,
    /// How many labels `L0`.. the source has.
    labels: u64,
    /// Whether it has `.file`/`.loc` line information.
    lines: bool,
    /// Whether it has unwind tables (`.cfi_*`).
    cfi: bool,
    out: String,
    /// The section statement in force (`None` after `.subsection`).
    key: Option<&'static str>,
    /// The section statements with a procedure open.
    open: Vec<&'static str>,
    /// Whether the last statement was an alignment: GNU as 2.40 writes a
    /// CFI advance of zero bytes across one (an alignment already met under
    /// `.option norelax`) as relocations at the wrong place, corrupting its
    /// table (the README lists it); a `nop` between keeps such cases out.
    aligned: bool,
    code_labels: Vec<u64>,
    data_labels: Vec<u64>,
    /// "text" or "data": the kind of the section in force.
    section: &'static str,
    next_label: u64,
    norelax: bool,
}

impl<'c, C: Choices> Source<'c, C> {
    /// The choices made once, and the source's first lines.
    fn new(mut g: Gen<'c, C>) -> Self {
        let labels = 4 + g.below(8);
        // Line information as gcc -g writes it (`.file 0` too: DWARF 5) or
        // without `.file 0` (version 3), in some.
        let lines = g.below(3) == 0;
        let v5 = lines && g.below(2) == 0;
        // Unwind tables as gcc writes them (`.cfi_*`), in some: procedures
        // open per section, in `.eh_frame`, `.debug_frame` or both.
        let cfi = g.below(3) == 0;
        let mut out = String::new();
        if cfi {
            out += g.pick(&[
                "",
                "    .cfi_sections .debug_frame\n",
                "    .cfi_sections .eh_frame, .debug_frame\n",
            ]);
        }
        if lines {
            if v5 {
                out += "    .file 0 \"/src\" \"gen.c\"\n";
            }
            out += "    .file 1 \"gen.c\"\n    .file 2 \"inc/gen.h\"\n";
        }
        out += "    .text\n";
        Source {
            g,
            labels,
            lines,
            cfi,
            out,
            key: Some(".text"),
            open: Vec::new(),
            aligned: false,
            code_labels: Vec::new(),
            data_labels: Vec::new(),
            section: "text",
            next_label: 0,
            norelax: false,
        }
    }

    /// An integer register.
    fn r(&mut self) -> &'static str {
        self.g.pick(X)
    }

    /// A label of the source's own.
    fn target(&mut self) -> String {
        format!("L{}", self.g.below(self.labels))
    }

    /// One statement of the body.
    fn statement(&mut self) {
        let was_aligned = std::mem::take(&mut self.aligned);
        match self.g.below(100) {
            0..=5 => self.section_statement(),
            6..=14 if self.next_label < self.labels => {
                let k = self.next_label;
                self.out += &format!("L{k}:\n");
                if self.section == "text" {
                    self.code_labels.push(k);
                } else {
                    self.data_labels.push(k);
                }
                self.next_label += 1;
            }
            15 if self.g.below(3) == 0 => {
                let option = self
                    .g
                    .pick(&["    .option norelax\n", "    .option relax\n"]);
                self.norelax |= option.contains("norelax");
                self.out += option;
            }
            15..=19 => {
                self.aligned = true;
                let k = self.g.below(4);
                let line = match self.g.below(4) {
                    0 => format!("    .p2align {k}\n"),
                    1 => format!("    .balign {}\n", 1 << k),
                    2 => format!("    .p2align {k},,{}\n", self.g.below(5)),
                    _ => format!("    .align {k}\n"),
                };
                self.out += &line;
            }
            _ if self.section == "data" => {
                let line = self.data();
                self.out += &line;
            }
            _ if self.cfi
                && self.section == "text"
                && self.key.is_some()
                && self.g.below(3) == 0 =>
            {
                self.cfi_statement(was_aligned)
            }
            _ if self.lines && self.section == "text" && self.g.below(4) == 0 => {
                let line = format!(
                    "    .loc {} {} {}\n",
                    1 + self.g.below(2),
                    1 + self.g.below(400),
                    self.g.below(40)
                );
                self.out += &line;
            }
            _ => {
                let line = self.code();
                self.out += &line;
            }
        }
    }

    /// A section statement: a section, a subsection, a COMDAT group.
    fn section_statement(&mut self) {
        let s = self.g.pick(&[
            ".text",
            ".data",
            ".section .rodata",
            ".section .text.hot,\"ax\",@progbits",
            ".text 1",
            ".text 2",
            ".data 1",
            ".section .text.inl,\"axG\",@progbits,inl,comdat",
            ".subsection 3",
        ]);
        self.key = (s != ".subsection 3").then_some(s);
        self.section = match s {
            ".subsection 3" => self.section,
            _ if s.contains("text") => "text",
            _ => "data",
        };
        self.out += &format!("    {s}\n");
    }

    /// A data directive.
    fn data(&mut self) -> String {
        let g = &mut self.g;
        match g.below(9) {
            0 => format!("    .byte {}, {}\n", g.imm(8), g.below(256)),
            1 => format!("    .half {}\n", g.imm(16)),
            2 => format!("    .word {}, {}\n", g.imm(32), g.imm(12)),
            3 => format!("    .dword {}\n", g.imm(40)),
            4 => format!("    .zero {}\n", g.below(9)),
            5 => format!("    .asciz \"s{}\\n\"\n", g.below(1000)),
            6 => format!("    .double {}.{}\n", g.imm(10), g.below(100)),
            7 => format!("    .uleb128 {}\n", g.below(1 << 20)),
            _ => match self.data_labels.as_slice() {
                [.., a, b] => format!("    .word L{b} - L{a}\n"),
                _ => format!("    .float {}.5\n", g.imm(8)),
            },
        }
    }

    /// A CFI directive in the procedure open in this section, or one opened.
    fn cfi_statement(&mut self, was_aligned: bool) {
        let k = self.key.expect("checked");
        if was_aligned {
            self.out += "    nop\n";
        }
        if !self.open.contains(&k) {
            self.open.push(k);
            self.out += "    .cfi_startproc\n";
            return;
        }
        let line = match self.g.below(12) {
            0 => {
                self.open.retain(|o| *o != k);
                "    .cfi_endproc\n".to_string()
            }
            1 => format!("    .cfi_def_cfa_offset {}\n", 16 * self.g.below(200)),
            2 | 3 => format!(
                "    .cfi_offset {}, {}\n",
                self.r(),
                -4 * self.g.below(40) as i64
            ),
            4 => format!("    .cfi_restore {}\n", self.r()),
            5 => format!("    .cfi_def_cfa {}, {}\n", self.r(), 4 * self.g.below(100)),
            6 => format!("    .cfi_adjust_cfa_offset {}\n", 4 * self.g.imm(6)),
            7 => format!(
                "    .cfi_rel_offset {}, {}\n",
                self.r(),
                4 * self.g.below(30)
            ),
            8 => format!("    .cfi_register {}, {}\n", self.r(), self.r()),
            9 => "    .cfi_remember_state\n".to_string(),
            10 => format!("    .cfi_undefined {}\n", self.g.pick(F)),
            _ => format!("    .cfi_def_cfa_register {}\n", self.r()),
        };
        self.out += &line;
    }

    /// An instruction.
    fn code(&mut self) -> String {
        match self.g.below(16) {
            0 => format!("    add {}, {}, {}\n", self.r(), self.r(), self.r()),
            1 => format!("    addi {}, {}, {}\n", self.r(), self.r(), self.g.imm(12)),
            2 => format!("    lw {}, {}({})\n", self.r(), self.g.imm(12), self.r()),
            3 => format!("    sw {}, {}({})\n", self.r(), self.g.imm(12), self.r()),
            4 => format!("    beq {}, {}, {}\n", self.r(), self.r(), self.target()),
            5 => format!("    bnez {}, {}\n", self.r(), self.target()),
            6 => format!("    j {}\n", self.target()),
            7 => format!("    call {}\n", self.g.pick(&["L0", "L1", "ext_f", "puts"])),
            8 => format!("    la {}, {}\n", self.r(), self.target()),
            9 => format!("    li {}, {}\n", self.r(), self.g.imm(32)),
            10 => format!("    lui {}, {}\n", self.r(), self.g.below(1 << 20)),
            11 => format!(
                "    fadd.d {}, {}, {}\n",
                self.g.pick(F),
                self.g.pick(F),
                self.g.pick(F)
            ),
            12 => format!(
                "    csrr {}, {}\n",
                self.r(),
                self.g.pick(&["cycle", "fcsr", "instret"])
            ),
            13 => format!("    tail {}\n", self.g.pick(&["ext_g", "L2"])),
            14 => match self.g.below(4) {
                0 => format!("    lui {}, %tprel_hi(tv)\n", self.r()),
                1 => format!("    add {0}, {0}, tp, %tprel_add(tv)\n", self.r()),
                2 => format!("    sw {}, %tprel_lo(tv)({})\n", self.r(), self.r()),
                _ => format!("    lw {}, ext_v\n", self.r()),
            },
            _ => format!("    mul {}, {}, {}\n", self.r(), self.r(), self.r()),
        }
    }

    /// The source's end: open procedures closed, the labels not yet placed,
    /// symbol directives, and the sections every source has.
    fn finish(mut self) -> String {
        let (g, out) = (&mut self.g, &mut self.out);
        // Procedures still open are closed in their sections.
        for k in &self.open {
            *out += &format!("    {k}\n    .cfi_endproc\n");
        }
        // Labels never placed are placed at the end, in code.
        *out += "    .text\n";
        for k in self.next_label..self.labels {
            *out += &format!("L{k}:\n    nop\n");
            self.code_labels.push(k);
        }
        // Symbol directives on some labels.
        for &k in &self.code_labels {
            match g.below(6) {
                0 => *out += &format!("    .globl L{k}\n    .type L{k}, @function\n"),
                1 => *out += &format!("    .weak L{k}\n"),
                2 => *out += &format!("    .size L{k}, 4\n"),
                _ => {}
            }
        }
        if let Some(&k) = self.data_labels.first() {
            *out += &format!("    .globl L{k}\n    .type L{k}, @object\n    .set alias{k}, L{k}\n");
        }
        if g.below(2) == 0 {
            *out += "    .local fstatic\n    .comm fstatic,4,4\n    .comm shared,8,8\n";
        }
        *out += "    .section .tbss,\"awT\",@nobits\ntv: .zero 4\n";
        if self.lines {
            // A compiler writes its own `.debug_info` (GNU as would otherwise
            // make one for an assembly source; we do not: the README says so).
            *out += "    .section .debug_info,\"\",@progbits\n    .4byte 0\n";
        }
        // A file that turned relaxation off ends with it off: GNU as pads a
        // code alignment written under norelax with zeros when relaxation is
        // on again at the end, we with nops (the README lists it).
        if self.norelax {
            *out += "    .option norelax\n";
        }
        self.out
    }
}
