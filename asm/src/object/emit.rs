//! The object's bytes: the ELF file of a unit whose fixups are settled
//! ([`Writer1`]'s symbols, relocations and data), with its section groups,
//! symbol table and headers in the order GNU as 2.40 writes them.

use object::Endianness;
use object::elf;
use object::write::elf::{FileHeader, Rel, SectionHeader, Sym, Writer};

use super::{Writer1, section_header};
use crate::unit::*;

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

/// Writes the object: its section indices and names, symbols and contents
/// reserved in GNU as's order, then the header, the symbols, the contents
/// and the section headers.
pub(super) fn emit(
    unit: &Unit,
    w: &Writer1,
    attributes: &[u8],
    e_flags: elf::FileFlags,
) -> Result<Vec<u8>, object::write::Error> {
    let mut buf = Vec::new();
    let mut out = Writer::new(Endianness::Little, false, &mut buf);
    out.reserve_file_header();
    let rela_names: Vec<String> = unit
        .sections
        .iter()
        .map(|s| format!(".rela{}", s.name))
        .collect();
    let sections = reserve_sections(&mut out, unit, w, &rela_names);

    // Symbols: null, section symbols, locals, then globals.
    let symbols = reserve_symbols(
        &mut out,
        w,
        &sections.index,
        &sections.groups,
        &sections.group_index,
    );
    let symtab = out.reserve_symtab_section_index();
    out.reserve_symtab();
    out.reserve_strtab_section_index();
    out.reserve_strtab()?;
    out.reserve_shstrtab_section_index();
    out.reserve_shstrtab()?;

    let offsets = reserve_contents(
        &mut out,
        unit,
        w,
        &sections.groups,
        &sections.rela,
        &sections.headers,
        attributes,
    );
    out.reserve_section_headers();

    write_file_header(&mut out, unit, e_flags)?;
    out.write_null_symbol();
    for &i in &sections.index {
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
        &sections.index,
        &symbols.order,
        &symbols.names,
        symbols.locals,
        &symbols.signatures,
    );
    out.write_strtab();
    out.write_shstrtab();
    let group_sizes = write_groups(
        &mut out,
        &sections.groups,
        &offsets.groups,
        &sections.index,
        &sections.rela,
    );
    write_contents(&mut out, unit, w, &sections, &offsets, &symbols, attributes);
    write_section_headers(
        &mut out,
        unit,
        w,
        &sections,
        &offsets,
        &symbols,
        &group_sizes,
        symtab,
        attributes,
    );
    Ok(buf)
}

/// The section indices and names of an object, reserved in GNU as's order:
/// the groups (GNU as writes them first), the unit's sections,
/// `.riscv.attributes`, then the relocation sections.
struct SectionIndices {
    groups: Vec<ObjGroup>,
    group_index: Vec<object::write::elf::SectionIndex>,
    group_name: Option<object::write::StringId>,
    headers: Vec<(elf::SectionType, elf::SectionFlags)>,
    index: Vec<object::write::elf::SectionIndex>,
    names: Vec<object::write::StringId>,
    attr_name: object::write::StringId,
    rela: Vec<RelaSection>,
}

fn reserve_sections<'a>(
    out: &mut Writer<'a>,
    unit: &'a Unit,
    w: &Writer1,
    rela_names: &'a [String],
) -> SectionIndices {
    out.reserve_null_section_index();
    let groups = groups(unit);
    let group_index: Vec<_> = groups.iter().map(|_| out.reserve_section_index()).collect();
    let group_name = (!groups.is_empty()).then(|| out.add_section_name(b".group"));
    let headers = unit.sections.iter().map(section_header).collect();
    let mut index = Vec::new();
    let mut names = Vec::new();
    for s in &unit.sections {
        index.push(out.reserve_section_index());
        names.push(out.add_section_name(s.name.as_bytes()));
    }
    out.reserve_section_index();
    let attr_name = out.add_section_name(b".riscv.attributes");
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
    SectionIndices {
        groups,
        group_index,
        group_name,
        headers,
        index,
        names,
        attr_name,
        rela,
    }
}

/// The ELF header; GNU as marks an object with an indirect function or a
/// unique symbol as GNU's OS/ABI.
fn write_file_header(
    out: &mut Writer,
    unit: &Unit,
    e_flags: elf::FileFlags,
) -> Result<(), object::write::Error> {
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
    })
}

/// The sections' bytes, `.riscv.attributes`, then the relocations.
fn write_contents(
    out: &mut Writer,
    unit: &Unit,
    w: &Writer1,
    sections: &SectionIndices,
    offsets: &Offsets,
    symbols: &SymbolLayout,
    attributes: &[u8],
) {
    for (si, s) in unit.sections.iter().enumerate() {
        if sections.headers[si].0 != elf::SHT_NOBITS && !s.data.is_empty() {
            out.pad_until(offsets.sections[si]);
            out.write(&w.data[si]);
        }
    }
    out.pad_until(offsets.attributes);
    out.write(attributes);
    for (si, relocs) in w.relocs.iter().enumerate() {
        if relocs.is_empty() {
            continue;
        }
        out.pad_until(offsets.relocations[si]);
        for &(offset, ty, sym, addend) in relocs {
            out.write_relocation(
                true,
                &Rel {
                    r_offset: offset,
                    r_sym: sym.map_or(0, |i| symbols.position[i]),
                    r_type: ty,
                    r_addend: addend,
                },
            );
        }
    }
}

/// The section headers, in the order of their indices.
#[allow(clippy::too_many_arguments)]
fn write_section_headers(
    out: &mut Writer,
    unit: &Unit,
    w: &Writer1,
    sections: &SectionIndices,
    offsets: &Offsets,
    symbols: &SymbolLayout,
    group_sizes: &[u64],
    symtab: object::write::elf::SectionIndex,
    attributes: &[u8],
) {
    out.write_null_section_header();
    let signatures: Vec<u32> = sections
        .groups
        .iter()
        .zip(&sections.group_index)
        .map(|(g, gi)| match w.by_name.get(&g.signature) {
            Some(&i) => symbols.position[i],
            None => {
                symbols
                    .signatures
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
                out.section_name_offset(sections.group_name),
                elf::SHT_GROUP,
                offsets.groups[gi],
                group_sizes[gi],
                4,
            )
        });
    }
    for (si, s) in unit.sections.iter().enumerate() {
        let (ty, flags) = sections.headers[si];
        let h = header(
            out.section_name_offset(Some(sections.names[si])),
            ty,
            offsets.sections[si],
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
        out.section_name_offset(Some(sections.attr_name)),
        elf::SHT_RISCV_ATTRIBUTES,
        offsets.attributes,
        attributes.len() as u64,
        1,
    );
    out.write_section_header(&h);
    write_rela_headers(
        out,
        unit,
        w,
        &sections.rela,
        &offsets.relocations,
        &sections.index,
        symtab,
    );
    out.write_symtab_section_header(symbols.num_local);
    out.write_strtab_section_header();
    out.write_shstrtab_section_header();
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
