//! Section directives: `.text`, `.data`, `.bss`, `.rodata`, `.section`,
//! `.pushsection`, `.popsection`, `.previous`.

use crate::ast::Operand;
use crate::diag::Diag;
use crate::pass1::*;
use crate::source::Span;

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
        if directive == ".pushsection" {
            self.section_stack.push((self.cur, self.prev));
        }
        self.switch_section_typed(&name, flags.as_deref(), sh_type.as_deref(), entsize);
    }
}
