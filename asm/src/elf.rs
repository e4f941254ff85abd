//! Writes the linked [`Image`] as an ELF32 RISC-V executable (object's
//! two-phase ELF writer): two `PT_LOAD` segments (code + read-only data,
//! data + bss), a `PT_RISCV_ATTRIBUTES` header when attributes exist,
//! section headers, `.symtab`/`.strtab`, `.comment`, `.riscv.attributes` and
//! the `.debug_*` sections.

use object::Endianness;
use object::elf;
use object::write::StringId;
use object::write::elf::{FileHeader, ProgramHeader, SectionHeader, SectionIndex, Sym, Writer};

use crate::dwarf::uleb;
use crate::link::{Image, PAGE};
use crate::unit::{AttrValue, Binding, SectionClass};

/// The `.riscv.attributes` section contents: RISC-V's attributes, then
/// the "gnu" vendor's when there are any (`.gnu_attribute`).
/// An integer attribute of value 0 is its default and is not written (GNU
/// as: `.attribute unaligned_access, 0` leaves no tag), in either vendor.
pub(crate) fn attributes_section(attrs: &[(u64, AttrValue)], gnu: &[(u64, AttrValue)]) -> Vec<u8> {
    let written = |list: &[(u64, AttrValue)]| -> Vec<(u64, AttrValue)> {
        list.iter()
            .filter(|(_, v)| !matches!(v, AttrValue::Int(0)))
            .cloned()
            .collect()
    };
    let mut out = vec![b'A'];
    out.extend(vendor_subsection("riscv", &written(attrs)));
    let gnu = written(gnu);
    if !gnu.is_empty() {
        out.extend(vendor_subsection("gnu", &gnu));
    }
    out
}

/// One vendor's subsection: u32 length, the name, a Tag_File
/// sub-subsection (tag, u32 length, attributes).
fn vendor_subsection(vendor: &str, attrs: &[(u64, AttrValue)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (tag, v) in attrs {
        uleb(*tag, &mut body);
        match v {
            AttrValue::Int(i) => uleb(*i, &mut body),
            AttrValue::Str(s) => {
                body.extend_from_slice(s.as_bytes());
                body.push(0);
            }
        }
    }
    let mut file = vec![1u8];
    file.extend_from_slice(&(body.len() as u32 + 5).to_le_bytes());
    file.extend_from_slice(&body);
    let mut sub = Vec::new();
    sub.extend_from_slice(&(4 + vendor.len() as u32 + 1 + file.len() as u32).to_le_bytes());
    sub.extend_from_slice(vendor.as_bytes());
    sub.push(0);
    sub.extend_from_slice(&file);
    sub
}

/// A loadable segment: its sections' bytes at offsets from its start.
struct Segment<'a> {
    addr: u64,
    mem_size: u64,
    file_size: u64,
    parts: Vec<(u64, &'a [u8])>,
}

/// The parts of the file besides the sections' headers: the two loadable
/// segments (text and rodata; data and bss) and the attributes' bytes.
struct Parts<'a> {
    code: Option<Segment<'a>>,
    data: Option<Segment<'a>>,
    attributes: Option<Vec<u8>>,
}

/// What the writer reserved: file offsets, section indices and names,
/// symbol names (the writing must follow the order of the reservations).
struct Reserved {
    code_off: Option<u64>,
    data_off: Option<u64>,
    comment_off: Option<u64>,
    attr_off: Option<u64>,
    debug_offs: Vec<u64>,
    section_index: Vec<(SectionClass, SectionIndex)>,
    section_names: Vec<StringId>,
    comment_sec: Option<(SectionIndex, StringId)>,
    attr_sec: Option<(SectionIndex, StringId)>,
    debug_secs: Vec<StringId>,
    sym_names: Vec<StringId>,
    num_local: u32,
}

/// Serializes the image: everything reserved first, then written in the
/// same order (headers, segment and section contents, symbols, string
/// tables, section headers).
pub fn write(image: &Image) -> Result<Vec<u8>, object::write::Error> {
    let parts = Parts {
        code: segment(image, &[SectionClass::Text, SectionClass::Rodata]),
        data: segment(image, &[SectionClass::Data, SectionClass::Bss]),
        attributes: (!image.attributes.is_empty())
            .then(|| attributes_section(&image.attributes, &[])),
    };
    let mut buf = Vec::new();
    let mut w = Writer::new(Endianness::Little, false, &mut buf);
    let r = reserve(&mut w, image, &parts)?;
    write_headers(&mut w, image, &parts, &r)?;
    write_contents(&mut w, image, &parts, &r);
    write_symbols(&mut w, image, &r);
    w.write_strtab();
    w.write_shstrtab();
    write_section_headers(&mut w, image, &parts, &r);
    w.write_symtab_section_header(r.num_local);
    w.write_strtab_section_header();
    w.write_shstrtab_section_header();
    Ok(buf)
}

/// The loadable segment of the image's sections of `classes`: its file
/// bytes are its sections' data at their offsets, written straight from the
/// sections (no copy: an image can be hundreds of MiB).
fn segment<'a>(image: &'a Image, classes: &[SectionClass]) -> Option<Segment<'a>> {
    let secs: Vec<_> = image
        .sections
        .iter()
        .filter(|s| classes.contains(&s.class))
        .collect();
    let first = secs.first()?;
    let start = first.addr;
    let end = secs.iter().map(|s| s.addr + s.size).max().unwrap_or(start);
    let file_end = secs
        .iter()
        .filter(|s| s.class != SectionClass::Bss)
        .map(|s| s.addr + s.size)
        .max()
        .unwrap_or(start);
    let mut parts: Vec<_> = secs
        .into_iter()
        .filter(|s| s.class != SectionClass::Bss)
        .map(|s| (s.addr - start, &s.data[..]))
        .collect();
    parts.sort_by_key(|p| p.0);
    Some(Segment {
        addr: start,
        mem_size: end - start,
        file_size: file_end - start,
        parts,
    })
}

/// Reserves the file's parts, in the order they are written.
fn reserve<'a>(
    w: &mut Writer<'a>,
    image: &'a Image,
    parts: &Parts<'_>,
) -> Result<Reserved, object::write::Error> {
    let Parts {
        code,
        data,
        attributes,
    } = parts;
    let segments = code.is_some() as u32 + data.is_some() as u32 + attributes.is_some() as u32;
    w.reserve_file_header();
    w.reserve_program_headers(segments);
    let code_off = code.as_ref().map(|c| w.reserve(c.file_size.max(1), PAGE));
    let data_off = data.as_ref().map(|d| w.reserve(d.file_size.max(1), PAGE));
    let comment_off = (!image.comment.is_empty()).then(|| w.reserve(image.comment.len() as u64, 1));
    let attr_off = attributes.as_ref().map(|a| w.reserve(a.len() as u64, 1));
    let debug_offs: Vec<u64> = image
        .debug
        .iter()
        .map(|(_, d)| w.reserve(d.len() as u64, 1))
        .collect();

    // Section indices and names.
    w.reserve_null_section_index();
    let mut section_index = Vec::new();
    let mut section_names = Vec::new();
    for s in &image.sections {
        section_index.push((s.class, w.reserve_section_index()));
        section_names.push(w.add_section_name(s.name.as_bytes()));
    }
    let comment_sec =
        comment_off.map(|_| (w.reserve_section_index(), w.add_section_name(b".comment")));
    let attr_sec = attr_off.map(|_| {
        (
            w.reserve_section_index(),
            w.add_section_name(b".riscv.attributes"),
        )
    });
    let debug_secs: Vec<_> = image
        .debug
        .iter()
        .map(|(name, _)| {
            w.reserve_section_index();
            w.add_section_name(name.as_bytes())
        })
        .collect();

    // Symbols (locals first, as ELF requires; link() orders them so).
    w.reserve_null_symbol_index();
    let mut sym_names = Vec::new();
    for s in &image.symbols {
        sym_names.push(w.add_string(s.name.as_bytes()));
        let sec = s
            .section
            .and_then(|c| section_index.iter().find(|(k, _)| *k == c).map(|(_, i)| *i));
        w.reserve_symbol_index(sec);
    }
    let num_local = 1 + image
        .symbols
        .iter()
        .take_while(|s| s.binding == Binding::Local)
        .count() as u32;
    w.reserve_symtab_section_index();
    w.reserve_symtab();
    w.reserve_strtab_section_index();
    w.reserve_strtab()?;
    w.reserve_shstrtab_section_index();
    w.reserve_shstrtab()?;
    w.reserve_section_headers();

    Ok(Reserved {
        code_off,
        data_off,
        comment_off,
        attr_off,
        debug_offs,
        section_index,
        section_names,
        comment_sec,
        attr_sec,
        debug_secs,
        sym_names,
        num_local,
    })
}

/// The file header and the program headers.
fn write_headers(
    w: &mut Writer<'_>,
    image: &Image,
    parts: &Parts<'_>,
    r: &Reserved,
) -> Result<(), object::write::Error> {
    let Parts {
        code,
        data,
        attributes,
    } = parts;
    let (code_off, data_off, attr_off) = (r.code_off, r.data_off, r.attr_off);
    w.write_file_header(&FileHeader {
        os_abi: elf::ELFOSABI_NONE,
        abi_version: 0,
        e_type: elf::ET_EXEC,
        e_machine: elf::EM_RISCV,
        e_entry: image.entry,
        e_flags: elf::EF_RISCV_FLOAT_ABI_DOUBLE,
    })?;
    w.write_align_program_headers();
    if let (Some(c), Some(off)) = (&code, code_off) {
        w.write_program_header(&ProgramHeader {
            p_type: elf::PT_LOAD,
            p_flags: elf::PF_R | elf::PF_X,
            p_offset: off,
            p_vaddr: c.addr,
            p_paddr: c.addr,
            p_filesz: c.file_size,
            p_memsz: c.mem_size,
            p_align: PAGE,
        });
    }
    if let (Some(d), Some(off)) = (&data, data_off) {
        w.write_program_header(&ProgramHeader {
            p_type: elf::PT_LOAD,
            p_flags: elf::PF_R | elf::PF_W,
            p_offset: off,
            p_vaddr: d.addr,
            p_paddr: d.addr,
            p_filesz: d.file_size,
            p_memsz: d.mem_size,
            p_align: PAGE,
        });
    }
    if let (Some(a), Some(off)) = (&attributes, attr_off) {
        w.write_program_header(&ProgramHeader {
            p_type: elf::PT_RISCV_ATTRIBUTES,
            p_flags: elf::PF_R,
            p_offset: off,
            p_vaddr: 0,
            p_paddr: 0,
            p_filesz: a.len() as u64,
            p_memsz: 0,
            p_align: 1,
        });
    }
    Ok(())
}

/// The segments' bytes, `.comment`, the attributes and the debug sections.
fn write_contents(w: &mut Writer<'_>, image: &Image, parts: &Parts<'_>, r: &Reserved) {
    let Parts {
        code,
        data,
        attributes,
    } = parts;
    let (code_off, data_off, comment_off, attr_off) =
        (r.code_off, r.data_off, r.comment_off, r.attr_off);
    let debug_offs = &r.debug_offs;
    for (seg, off) in [(&code, code_off), (&data, data_off)] {
        if let (Some(seg), Some(off)) = (seg, off) {
            for (at, bytes) in &seg.parts {
                w.pad_until(off + at);
                w.write(bytes);
            }
            w.pad_until(off + seg.file_size.max(1));
        }
    }
    if let Some(off) = comment_off {
        w.pad_until(off);
        w.write(&image.comment);
    }
    if let (Some(a), Some(off)) = (&attributes, attr_off) {
        w.pad_until(off);
        w.write(a);
    }
    for ((_, d), off) in image.debug.iter().zip(debug_offs) {
        w.pad_until(*off);
        w.write(d);
    }
}

/// The symbol table (locals first, as ELF requires; `link` orders them so).
fn write_symbols(w: &mut Writer<'_>, image: &Image, r: &Reserved) {
    let (sym_names, section_index) = (&r.sym_names, &r.section_index);
    w.write_null_symbol();
    for (s, name) in image.symbols.iter().zip(sym_names) {
        let bind = match s.binding {
            Binding::Local => elf::STB_LOCAL,
            Binding::Global => elf::STB_GLOBAL,
            Binding::Weak => elf::STB_WEAK,
        };
        let ty = if s.is_file {
            elf::STT_FILE
        } else {
            s.ty.elf_type()
        };
        let shndx = match s
            .section
            .and_then(|c| section_index.iter().find(|(k, _)| *k == c))
        {
            Some((_, i)) => elf::SymbolSection(i.0 as u16),
            None => elf::SHN_ABS,
        };
        w.write_symbol(&Sym {
            section: None,
            st_name: w.string_offset(Some(*name)),
            st_info: elf::SymbolInfo::new(bind, ty),
            st_other: elf::SymbolOther(s.visibility & 3),
            st_shndx: shndx,
            st_value: s.value,
            st_size: s.size,
        });
    }
}

/// The section headers of the loaded sections, `.comment`, the attributes
/// and the debug sections.
fn write_section_headers(w: &mut Writer<'_>, image: &Image, parts: &Parts<'_>, r: &Reserved) {
    let Parts {
        code,
        data,
        attributes,
    } = parts;
    let (code_off, data_off, comment_off, attr_off) =
        (r.code_off, r.data_off, r.comment_off, r.attr_off);
    let (section_names, comment_sec, attr_sec) = (&r.section_names, r.comment_sec, r.attr_sec);
    let (debug_offs, debug_secs) = (&r.debug_offs, &r.debug_secs);
    w.write_null_section_header();
    for (s, name) in image.sections.iter().zip(section_names) {
        let (seg_start, off) = match s.class {
            SectionClass::Text | SectionClass::Rodata => {
                (code.as_ref().map_or(0, |c| c.addr), code_off.unwrap_or(0))
            }
            _ => (data.as_ref().map_or(0, |d| d.addr), data_off.unwrap_or(0)),
        };
        let flags = match s.class {
            SectionClass::Text => elf::SHF_ALLOC | elf::SHF_EXECINSTR,
            SectionClass::Rodata => elf::SHF_ALLOC,
            _ => elf::SHF_ALLOC | elf::SHF_WRITE,
        };
        w.write_section_header(&SectionHeader {
            sh_name: w.section_name_offset(Some(*name)),
            sh_type: if s.class == SectionClass::Bss {
                elf::SHT_NOBITS
            } else {
                elf::SHT_PROGBITS
            },
            sh_flags: elf::SectionFlags(flags.0),
            sh_addr: s.addr,
            sh_offset: off + (s.addr - seg_start),
            sh_size: s.size,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: s.align,
            sh_entsize: 0,
        });
    }
    if let (Some((_, name)), Some(off)) = (comment_sec, comment_off) {
        w.write_section_header(&SectionHeader {
            sh_name: w.section_name_offset(Some(name)),
            sh_type: elf::SHT_PROGBITS,
            sh_flags: elf::SHF_MERGE | elf::SHF_STRINGS,
            sh_addr: 0,
            sh_offset: off,
            sh_size: image.comment.len() as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: 1,
            sh_entsize: 1,
        });
    }
    if let (Some((_, name)), Some(off), Some(a)) = (attr_sec, attr_off, &attributes) {
        w.write_section_header(&SectionHeader {
            sh_name: w.section_name_offset(Some(name)),
            sh_type: elf::SHT_RISCV_ATTRIBUTES,
            sh_flags: elf::SectionFlags(0),
            sh_addr: 0,
            sh_offset: off,
            sh_size: a.len() as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: 1,
            sh_entsize: 0,
        });
    }
    for (((name, d), off), sh_name) in image.debug.iter().zip(debug_offs).zip(debug_secs) {
        // The string tables are mergeable strings, as GNU ld writes them.
        let strings = name == ".debug_str" || name == ".debug_line_str";
        w.write_section_header(&SectionHeader {
            sh_name: w.section_name_offset(Some(*sh_name)),
            sh_type: elf::SHT_PROGBITS,
            sh_flags: if strings {
                elf::SHF_MERGE | elf::SHF_STRINGS
            } else {
                elf::SectionFlags(0)
            },
            sh_addr: 0,
            sh_offset: *off,
            sh_size: d.len() as u64,
            sh_link: 0,
            sh_info: 0,
            sh_addralign: 1,
            sh_entsize: strings as u64,
        });
    }
}
