//! Data directives: integers (`.byte` ... `.dword`, `.uleb128`), strings,
//! floating-point numbers, fills and `.incbin`, with GNU as's truncation of
//! integers that do not fit.

use crate::ast::{ExprKind, Operand};
use crate::diag::Diag;
use crate::expr::{EvalError, Value};
use crate::lexer::{Kind, unescape};
use crate::pass1::{Pass1, Stmt, eval_diag, split_top_level, trim_range};
use crate::source::Span;
use crate::unit::*;

impl Pass1<'_, '_> {
    pub(super) fn data_values(&mut self, st: &Stmt, from: usize, size: u8) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            match op {
                Operand::Expr(e) => {
                    if let ExprKind::Reloc(..) = e.kind {
                        let span = st.span(e.start, e.end);
                        self.error(
                            st,
                            Diag::error(
                                span,
                                "relocation operators are not allowed in data",
                                "here",
                            ),
                        );
                        continue;
                    }
                    let span = st.span(e.start, e.end);
                    let value = self.eval1(st, &e);
                    // A difference of code addresses is left to the linker,
                    // which may move code (GNU as 2.40's R_RISCV_ADD/SUB
                    // pairs, with or without relaxation).
                    let linked = self.sh.opts.relocatable
                        && matches!(value, Ok(Value::Abs(_)))
                        && self.mentions_code_address(&e);
                    match value {
                        // GNU as: a constant that does not fit is truncated
                        // with a warning, a difference of addresses is an error.
                        Ok(Value::Abs(v)) if !linked && self.mentions_address(&e, false) => {
                            match fixup_data(v, size, span) {
                                Ok(bytes) => self.emit(st, &bytes, span),
                                Err(d) => self.error(st, d),
                            }
                        }
                        Ok(Value::Abs(v)) if !linked => {
                            let (bytes, warning) = truncate_data(v, size, span);
                            if let Some(w) = warning {
                                self.error(st, w);
                            }
                            self.emit(st, &bytes, span);
                        }
                        Ok(_) | Err(EvalError::Defer(..)) => {
                            let offset = self.section_size();
                            self.emit(st, &vec![0u8; size as usize], span);
                            self.add_fixup(st, FixKind::Data(size), e, offset);
                        }
                        Err(err) => {
                            let d = eval_diag(st.file, err, "the value");
                            self.error(st, d);
                        }
                    }
                }
                Operand::Empty(p) if size > 0 => {
                    self.error(
                        st,
                        Diag::error(st.span(p, p), "missing value", "expected a value here"),
                    );
                }
                other => {
                    let (s, e) = other.range();
                    self.error(
                        st,
                        Diag::error(
                            st.span(s, e),
                            "expected a value",
                            "not a number or expression",
                        ),
                    );
                }
            }
        }
    }

    /// `.ascii`, `.asciz`, `.string`: string literals separated by commas;
    /// adjacent literals make one string (`.asciz "a" "b"` is `"ab\0"`).
    pub(super) fn strings(&mut self, st: &Stmt, from: usize, nul: bool) {
        let toks = st.tokens();
        let mut bytes: Option<(Vec<u8>, u32, u32)> = None;
        let finish = |p: &mut Self, bytes: &mut Option<(Vec<u8>, u32, u32)>| {
            if let Some((mut b, s, e)) = bytes.take() {
                if nul {
                    b.push(0);
                }
                p.emit(st, &b, st.span(s, e));
            }
        };
        for t in &toks[from.min(toks.len())..] {
            match t.kind {
                Kind::Str => {
                    let text = unescape(&st.text[t.start as usize + 1..t.end as usize - 1]);
                    match &mut bytes {
                        Some((b, _, e)) => {
                            b.extend(text);
                            *e = t.end;
                        }
                        None => bytes = Some((text, t.start, t.end)),
                    }
                }
                Kind::Comma if bytes.is_some() => finish(self, &mut bytes),
                _ => {
                    let (s, e) = (t.start, t.end);
                    self.error(
                        st,
                        Diag::error(st.span(s, e), "expected a string", "not a string literal"),
                    );
                    return;
                }
            }
        }
        finish(self, &mut bytes);
    }

    pub(super) fn floats(&mut self, st: &Stmt, from: usize, double: bool) {
        let (raw, base) = st.raw_from(from);
        let raw = raw.to_string();
        for (s, e) in split_top_level(&raw, ',') {
            let (s, e) = trim_range(&raw, (s, e));
            let text = &raw[s..e];
            let span = st.span(base + s as u32, base + e as u32);
            // GNU as skips a `0` and a letter before a number (`0d-1.25`,
            // `0f1.5`, `0e2.5`); `0x` stays ours, a hexadecimal float.
            let b = text.as_bytes();
            let number = match b {
                [b'0', l, ..] if l.is_ascii_alphabetic() && !matches!(l, b'x' | b'X') => &text[2..],
                _ => text,
            };
            match crate::floats::parse(number, double) {
                Ok(bits) => {
                    let bytes = bits.to_le_bytes();
                    self.emit(st, &bytes[..if double { 8 } else { 4 }], span);
                }
                Err(why) => {
                    let d =
                        Diag::error(span, format!("invalid floating-point number `{text}`"), why)
                            .with_help(
                                "write decimal (1.5, -2e10), hexadecimal (0x1.8p3), inf or nan",
                            );
                    self.error(st, d);
                }
            }
        }
    }

    /// `.ds.b`, `.ds.w`, `.ds.l`: `count` units of `width` bytes, each the
    /// fill value (0 when not given).
    pub(super) fn ds(&mut self, st: &Stmt, from: usize, width: u8) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(Operand::Expr(n)) = ops.first() else {
            let span = st.whole();
            self.error(st, Diag::error(span, "missing count", "expected a count"));
            return;
        };
        let Some(count) = self.absolute(st, n, "the count") else {
            return;
        };
        if count < 0 || (count as u64).saturating_mul(width as u64) > MAX_SECTION_BYTES {
            let d = Diag::error(
                st.span(n.start, n.end),
                format!("invalid count {count}"),
                "must be 0..=256 MiB in all",
            );
            self.error(st, d);
            return;
        }
        let fill = match ops.get(1) {
            Some(Operand::Expr(f)) => match self.absolute(st, f, "the fill value") {
                Some(v) => v,
                None => return,
            },
            _ => 0,
        };
        let unit = truncate_data(fill, width, st.whole()).0;
        let bytes: Vec<u8> = unit
            .iter()
            .copied()
            .cycle()
            .take(count as usize * width as usize)
            .collect();
        let span = st.whole();
        self.emit(st, &bytes, span);
        if count > 0 {
            self.cfi_var(width as u64);
        }
    }

    /// `.space`, `.skip` and `.zero`: a byte count and a fill byte (GNU as
    /// takes the fill for `.zero` too).
    pub(super) fn space(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let Some(Operand::Expr(n)) = ops.first() else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(span, "missing size", "expected a byte count"),
            );
            return;
        };
        let Some(count) = self.absolute(st, n, "the size") else {
            return;
        };
        if count < 0 || count as u64 > MAX_SECTION_BYTES {
            self.error(
                st,
                Diag::error(
                    st.span(n.start, n.end),
                    format!("invalid size {count}"),
                    "must be 0..=256 MiB",
                ),
            );
            return;
        }
        if let Some(at) = self.struct_at {
            // `.struct`'s absolute section: only the offset moves.
            if let Some(f) = ops.get(1) {
                let (s, e) = f.range();
                self.error(
                    st,
                    Diag::warning(
                        st.span(s, e),
                        "fill value ignored after `.struct`",
                        "no bytes are stored",
                    ),
                );
            }
            self.struct_at = Some(at + count);
            return;
        }
        let fill = match ops.get(1) {
            Some(Operand::Expr(f)) => {
                let v = self.absolute(st, f, "the fill value");
                if let Some(v) = v
                    && let (_, Some(w)) = truncate_data(v, 1, st.span(f.start, f.end))
                {
                    self.error(st, w);
                }
                v
            }
            _ => None,
        };
        self.pad(Some(st), count as u64, Some(fill.unwrap_or(0)), 1);
        if count > 0 {
            self.cfi_var(1);
        }
    }

    pub(super) fn fill(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        let mut vals = [None, Some(1), Some(0)];
        for (i, op) in ops.iter().take(3).enumerate() {
            if let Operand::Expr(e) = op {
                vals[i] = self.absolute(st, e, "the `.fill` argument");
                if vals[i].is_none() {
                    return;
                }
            }
        }
        let (Some(repeat), Some(size), Some(value)) = (vals[0], vals[1], vals[2]) else {
            let span = st.whole();
            self.error(
                st,
                Diag::error(
                    span,
                    "`.fill` needs a repeat count",
                    "expected `repeat[, size[, value]]`",
                ),
            );
            return;
        };
        // GNU as warns and ignores a negative size or count, and clamps a
        // size beyond 8.
        let span = st.whole();
        let ignored = if size < 0 {
            Some("size negative; `.fill` ignored")
        } else if repeat < 0 {
            Some("repeat count negative; `.fill` ignored")
        } else {
            None
        };
        if let Some(message) = ignored {
            self.error(st, Diag::warning(span, message, "emits nothing"));
            return;
        }
        if size > 8 {
            self.error(
                st,
                Diag::warning(span, "`.fill` size clamped to 8", format!("size {size}")),
            );
        }
        let size = size.min(8);
        if (repeat as u64).saturating_mul(size as u64) > MAX_SECTION_BYTES {
            self.error(st, Diag::error(span, "invalid `.fill` size", "too large"));
            return;
        }
        // GNU as stores at most 4 bytes of the value; wider units get zeros.
        let v = (value as u32 as u64).to_le_bytes();
        let mut bytes = Vec::with_capacity((repeat * size) as usize);
        for _ in 0..repeat {
            bytes.extend_from_slice(&v[..size as usize]);
        }
        self.emit(st, &bytes, span);
        if repeat > 0 && size > 0 {
            self.cfi_var(size as u64);
        }
    }

    pub(super) fn leb128(&mut self, st: &Stmt, from: usize, signed: bool) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        for op in ops {
            let Operand::Expr(e) = op else { continue };
            if self.sh.opts.relocatable && self.mentions_code_address(&e) {
                // A linker may move code, and no relocation writes a LEB128
                // in GNU as 2.40's RISC-V objects, which refuses it too.
                let name = if signed { ".sleb128" } else { ".uleb128" };
                let d = Diag::error(
                    st.span(e.start, e.end),
                    format!("non-constant `{name}` is not supported"),
                    "a difference of code addresses",
                )
                .with_help("the linker may move code; GNU as 2.40 refuses this too (binutils 2.41 has R_RISCV_SET_ULEB128)");
                self.error(st, d);
                continue;
            }
            let Some(v) = self.absolute(st, &e, "a LEB128 value") else {
                continue;
            };
            let mut bytes = Vec::new();
            if signed {
                crate::dwarf::sleb(v, &mut bytes);
            } else {
                crate::dwarf::uleb(v as u64, &mut bytes);
            }
            self.emit(st, &bytes, st.span(e.start, e.end));
        }
    }

    pub(super) fn incbin(&mut self, st: &Stmt, from: usize) {
        let Some(ops) = self.parse_operands(st, from) else {
            return;
        };
        // The window is known before the file is opened, so only its bytes
        // are read.
        let mut args = [Some(0i64), None];
        for (i, op) in ops.iter().skip(1).take(2).enumerate() {
            if let Operand::Expr(x) = op {
                match self.absolute(st, x, "the `.incbin` argument") {
                    Some(v) => args[i] = Some(v.max(0)),
                    None => return,
                }
            }
        }
        let window = crate::files::FileWindow {
            skip: args[0].unwrap_or(0) as u64,
            // GNU as: a count of 0 is no count (the rest of the file).
            count: args[1].filter(|&n| n > 0).map(|n| n as u64),
        };
        let Some((_, _, data, span)) = self.read_named_file(st, &ops, ".incbin", window) else {
            return;
        };
        self.emit(st, &data, span);
    }
}

/// The `size` bytes of a value known only at the end (a fixup: a label
/// difference, an address), or GNU as's error when it does not fit: unlike a
/// value known where it is written, it is not truncated with a warning.
pub(crate) fn fixup_data(v: i64, size: u8, span: Span) -> Result<Vec<u8>, Diag> {
    match truncate_data(v, size, span) {
        (bytes, None) => Ok(bytes),
        (_, Some(w)) => Err(Diag {
            help: w.help,
            ..Diag::error(
                span,
                format!(
                    "value of {v} too large for field of {size} byte{}",
                    if size == 1 { "" } else { "s" }
                ),
                w.label,
            )
        }),
    }
}

/// The `size` bytes GNU as stores for `v`, and the warning it gives when `v`
/// does not fit: it takes -(2^8n - 1)..=2^8n - 1 silently (either reading of
/// the bytes) and keeps the low bytes of anything else.
pub(crate) fn truncate_data(v: i64, size: u8, span: Span) -> (Vec<u8>, Option<Diag>) {
    if size > 8 {
        // `.octa`: the 64-bit value sign-extended.
        return ((v as i128).to_le_bytes()[..size as usize].to_vec(), None);
    }
    let bytes = v.to_le_bytes()[..size as usize].to_vec();
    if size == 8 {
        return (bytes, None);
    }
    let bits = size as u32 * 8;
    let high = u64::MAX << bits;
    let u = v as u64;
    let warning = (u & high != 0 && u.wrapping_neg() & high != 0).then(|| {
        let limit = (1i64 << bits) - 1;
        Diag::warning(
            span,
            format!("value {u:#x} truncated to {:#x}", u & !high),
            format!("does not fit in {size} byte(s)"),
        )
        .with_help(format!("a {size}-byte value is in -{limit}..={limit}"))
    });
    (bytes, warning)
}
