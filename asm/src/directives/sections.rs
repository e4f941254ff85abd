//! Section directives: `.text`, `.data`, `.bss`, `.rodata`, `.section`,
//! `.pushsection`, `.popsection`, `.previous`.

use crate::ast::Operand;
use crate::diag::Diag;
use crate::pass1::{Pass1, Stmt};
use crate::source::Span;
use crate::unit::Group;

impl Pass1<'_, '_> {
    pub(super) fn section_directive(
        &mut self,
        st: &Stmt,
        directive: &str,
        head_span: Span,
        from: usize,
    ) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(first) = ops.first() else {
            self.error(
                st,
                Diag::error(head_span, "missing section name", "expected a name"),
            );
            return;
        };
        let (s, e) = first.range();
        let raw = &st.text[s as usize..e as usize];
        let name = raw.trim_matches('"').to_string();
        if name.is_empty() {
            self.error(
                st,
                Diag::error(head_span, "missing section name", "expected a name"),
            );
            return;
        }
        let flags = match ops.get(1) {
            Some(Operand::Str(s, e)) => Some(st.text[*s as usize + 1..*e as usize - 1].to_string()),
            Some(Operand::Empty(_)) | None => None,
            Some(other) => {
                let (s, e) = other.range();
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        "section flags must be a string",
                        "expected flags like \"ax\"",
                    ),
                );
                None
            }
        };
        if let Some(f) = &flags
            && let Some(bad) = f.chars().find(|c| !"awxMSGTRo?de".contains(*c))
        {
            let span = ops[1].range();
            self.error(
                st,
                Diag::error(
                    st.span(span.0, span.1),
                    format!("unknown section flag `{bad}`"),
                    "in these flags",
                )
                .with_help("flags are a (allocate), w (write), x (execute), M, S, G, T, R, o, ?"),
            );
        }
        let sh_type = match ops.get(2) {
            Some(Operand::Type(s, e)) => Some(st.text[*s as usize..*e as usize].to_string()),
            _ => None,
        };
        let entsize = match ops.get(3) {
            Some(Operand::Expr(e)) if flags.as_deref().is_some_and(|f| f.contains('M')) => {
                match self.absolute(st, e, "the entry size") {
                    Some(v) if v >= 0 => v as u64,
                    _ => return,
                }
            }
            _ => 0,
        };
        let group = match self.section_group(st, &ops, flags.as_deref(), head_span) {
            Ok(g) => g,
            Err(()) => return,
        };
        // `G` without a group (the warning above) is dropped.
        let flags = match (&group, flags) {
            (None, Some(f)) => Some(f.replace('G', "")),
            (_, f) => f,
        };
        if directive == ".pushsection" {
            self.section_stack.push((self.cur, self.prev));
        }
        self.switch_section_typed(&name, flags.as_deref(), sh_type.as_deref(), entsize, group);
    }

    /// The group of `.section NAME, "...G", @TYPE[, ENTSIZE], SIGNATURE[,
    /// comdat]` (the entry size when the flags have `M`), or with flag `?`
    /// the group of the section current before it (GNU as's rules).
    fn section_group(
        &mut self,
        st: &Stmt,
        ops: &[Operand],
        flags: Option<&str>,
        head_span: Span,
    ) -> Result<Option<Group>, ()> {
        let flags = flags.unwrap_or("");
        if !flags.contains('G') {
            return Ok(if flags.contains('?') {
                self.unit.sections[self.cur].group.clone()
            } else {
                None
            });
        }
        let at = if flags.contains('M') { 4 } else { 3 };
        let text = |o: &Operand| {
            let (s, e) = o.range();
            st.text[s as usize..e as usize]
                .trim()
                .trim_matches('"')
                .to_string()
        };
        let signature = match ops.get(at) {
            Some(o @ Operand::Expr(_)) | Some(o @ Operand::Str(..)) => text(o),
            _ => String::new(),
        };
        if signature.is_empty() {
            // GNU as warns and drops the flag.
            let span = ops.last().map_or(head_span, |o| {
                let (s, e) = o.range();
                st.span(s, e)
            });
            self.error(
                st,
                Diag::warning(span, "group name for flag `G` not specified", "after this")
                    .with_help("write `.section NAME, \"axG\", @progbits, GROUP, comdat`; the section is in no group"),
            );
            return Ok(None);
        }
        let comdat = match ops.get(at + 1) {
            None | Some(Operand::Empty(_)) => false,
            Some(o) if text(o) == "comdat" || text(o) == ".gnu.linkonce" => true,
            Some(o) => {
                let (s, e) = o.range();
                self.error(
                    st,
                    Diag::error(
                        st.span(s, e),
                        "expected `comdat` after the group name",
                        "not a group linkage",
                    ),
                );
                return Err(());
            }
        };
        Ok(Some(Group { signature, comdat }))
    }
}
