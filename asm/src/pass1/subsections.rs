//! Subsections (`.text 1`, `.data 2`, `.subsection 3`): GNU as lays a
//! section out as its subsections in number order (0, the section itself,
//! first). Each numbered subsection is assembled as a section of its own
//! whose contents start at its final offset in the section (its base, known
//! from the previous round: zeros stand for what comes before), so that
//! labels, alignment and fixups in it are where GNU puts them; at the end
//! of the file it is appended to its section and every reference to it
//! moved there. When a base was not yet known or has changed (a size
//! depends on alignment), the file is assembled again with the bases
//! measured, as branch relaxation does (`assemble_unit` in lib.rs).

use std::collections::HashMap;

use crate::expr::Value;
use crate::unit::*;

use super::Pass1;

/// Where each numbered subsection starts in its section: (section, number)
/// to offset.
pub type SubBases = HashMap<(usize, u32), u64>;

impl Pass1<'_, '_> {
    /// The section a subsection belongs to (a section is its own).
    pub(crate) fn parent_of(&self, section: usize) -> usize {
        self.subsections
            .iter()
            .find(|s| s.2 == section)
            .map_or(section, |s| s.0)
    }

    /// The number of the subsection `section` is (0: a section itself).
    pub(crate) fn subsection_of(&self, section: usize) -> u32 {
        self.subsections
            .iter()
            .find(|s| s.2 == section)
            .map_or(0, |s| s.1)
    }

    /// Makes subsection `k` of the current section current (the section
    /// before stays the previous one).
    pub(crate) fn switch_subsection(&mut self, k: u32) {
        let before = self.cur;
        let parent = self.parent_of(self.cur);
        self.cur = if k == 0 {
            parent
        } else if let Some(s) = self.subsections.iter().find(|s| s.0 == parent && s.1 == k) {
            s.2
        } else {
            let base = self.sub_bases.get(&(parent, k)).copied().unwrap_or(0);
            let p = &self.unit.sections[parent];
            let mut s = Section::new(&p.name, p.class);
            s.flags.clone_from(&p.flags);
            s.sh_type.clone_from(&p.sh_type);
            s.entsize = p.entsize;
            s.group.clone_from(&p.group);
            s.align = 1;
            if s.class != SectionClass::Bss {
                s.data = vec![0; base as usize];
            }
            s.size = base;
            self.unit.sections.push(s);
            let index = self.unit.sections.len() - 1;
            self.subsections.push((parent, k, index));
            index
        };
        self.prev = before;
        self.struct_prev = self.struct_at.take();
    }

    /// At the end of the file: the bases measured when they differ from
    /// those assembled with (the file must be assembled again), else
    /// `None` after appending every subsection to its section.
    pub(crate) fn merge_subsections(&mut self) -> Option<SubBases> {
        if self.subsections.is_empty() {
            return None;
        }
        let mut order = self.subsections.clone();
        order.sort_by_key(|&(p, k, _)| (p, k));
        let mut measured = SubBases::new();
        let mut end: HashMap<usize, u64> = HashMap::new();
        for &(p, k, h) in &order {
            let at = *end.entry(p).or_insert(self.unit.sections[p].size);
            let base = self.sub_bases.get(&(p, k)).copied().unwrap_or(0);
            measured.insert((p, k), at);
            end.insert(p, at + (self.unit.sections[h].size - base));
        }
        if measured != self.sub_bases {
            return Some(measured);
        }
        for &(p, k, h) in &order {
            let base = self.sub_bases[&(p, k)];
            let sub = std::mem::replace(
                &mut self.unit.sections[h],
                Section::new("", SectionClass::NonAlloc),
            );
            let sec = &mut self.unit.sections[p];
            if sec.class != SectionClass::Bss {
                sec.data.extend_from_slice(&sub.data[base as usize..]);
            }
            sec.size = sub.size;
            sec.fixups.extend(sub.fixups);
            sec.aligns.extend(sub.aligns);
            sec.align = sec.align.max(sub.align);
        }
        // Every reference to a subsection now names its section; the
        // sections after one move down.
        let hidden: HashMap<usize, usize> = order.iter().map(|&(p, _, h)| (h, p)).collect();
        let mut new_index = Vec::with_capacity(self.unit.sections.len());
        let mut kept = 0;
        for i in 0..self.unit.sections.len() {
            new_index.push(kept);
            if !hidden.contains_key(&i) {
                kept += 1;
            }
        }
        let map = |i: usize| new_index[hidden.get(&i).copied().unwrap_or(i)];
        for sym in self.unit.symbols.values_mut() {
            match &mut sym.def {
                SymDef::Value(Value::Rel { section, .. }) => *section = map(*section),
                SymDef::Deferred(_, _, section, _) => *section = map(*section),
                _ => {}
            }
        }
        for l in &mut self.unit.listing {
            l.section = map(l.section);
        }
        for r in &mut self.lines.rows {
            r.section = map(r.section);
        }
        self.remap_branch_checks(&map);
        let mut i = 0;
        self.unit.sections.retain(|_| {
            i += 1;
            !hidden.contains_key(&(i - 1))
        });
        self.unit
            .section_index
            .retain(|_, v| !hidden.contains_key(v));
        for v in self.unit.section_index.values_mut() {
            *v = map(*v);
        }
        self.cur = map(self.cur);
        self.prev = map(self.prev);
        self.subsections.clear();
        None
    }
}
