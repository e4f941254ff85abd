//! Source-level debug information the assembler writes itself: the DWARF
//! line table (`.debug_line`) built from the compiler's `.file` and `.loc`.

use crate::pass1::Pass1;

/// `.file` entries and `.loc` rows seen so far in a unit.
#[derive(Clone, Debug, Default)]
pub struct LineState {}

impl Pass1<'_, '_> {
    /// Appends the line program of the unit's `.loc` rows to `.debug_line`.
    pub(crate) fn finish_line_table(&mut self) {}
}
