//! GNU as macros for the SCMP instructions (`stressmarks/lib/scmp_insn.s`),
//! generated from the table: each mnemonic becomes a `.macro` that writes
//! the row's encoding with `.insn`, so GNU as (which does not know SCMP)
//! assembles the same words as our assembler. Our assembler defines
//! `__scmp_as__` and skips the file's macros (its own table gives better
//! errors).

use std::fmt::Write;

use crate::{Extension, Field, InstrSpec, Operand, SPECS, SendType};

/// The symbol our assembler defines in every file (GNU as does not).
pub const SCMP_AS_SYMBOL: &str = "__scmp_as__";

/// Macro parameter names, by operand position.
const PARAMS: [&str; 4] = ["p0", "p1", "p2", "p3"];

/// The `.insn` line for `spec`, its operands named by position; `funct`
/// is the expression of funct7 (`r`) or funct2 (`r4`) when an operand sets
/// it (the message type), else the row's fixed bits.
fn insn_line(spec: &InstrSpec, funct: Option<&str>) -> String {
    let m = spec.match_bits;
    if spec.operands.is_empty() {
        return format!(".insn 0x{m:08x}");
    }
    let reg = |op: Operand| {
        spec.operands
            .iter()
            .position(|o| *o == op)
            .map_or("x0".to_string(), |i| format!("\\{}", PARAMS[i]))
    };
    let opcode = m & 0x7f;
    let funct3 = (m >> 12) & 7;
    if spec.operands.contains(&Operand::Xs3) {
        let funct2 = funct.map_or(((m >> 25) & 3).to_string(), str::to_string);
        format!(
            ".insn r4 0x{opcode:02x}, {funct3}, {funct2}, {}, {}, {}, {}",
            reg(Operand::Xd),
            reg(Operand::Xs1),
            reg(Operand::Xs2),
            reg(Operand::Xs3)
        )
    } else {
        let funct7 = funct.map_or((m >> 25).to_string(), str::to_string);
        format!(
            ".insn r 0x{opcode:02x}, {funct3}, {funct7}, {}, {}, {}",
            reg(Operand::Xd),
            reg(Operand::Xs1),
            reg(Operand::Xs2)
        )
    }
}

/// The body lines of one row (a message-type operand picks funct by name).
fn row_body(spec: &InstrSpec, indent: &str, out: &mut String) {
    let Some(k) = spec.operands.iter().position(|o| *o == Operand::SendType) else {
        let _ = writeln!(out, "{indent}{}", insn_line(spec, None));
        return;
    };
    for (i, (t, name)) in SendType::NAMES.iter().enumerate() {
        // funct7 and funct2 both start at bit 25 (the type sits in 26:25).
        let funct = ((spec.match_bits | Field::SendType.insert(*t as i32)) >> 25).to_string();
        let kw = if i == 0 { ".ifc" } else { ".else\n.ifc" };
        let kw = kw.replace('\n', &format!("\n{indent}"));
        let _ = writeln!(out, "{indent}{kw} \\{},{name}", PARAMS[k]);
        let _ = writeln!(out, "{indent}  {}", insn_line(spec, Some(&funct)));
    }
    let _ = writeln!(out, "{indent}.else");
    let names: Vec<&str> = SendType::NAMES.iter().map(|(_, n)| *n).collect();
    let _ = writeln!(
        out,
        "{indent}  .error \"{}: unknown message type (takes {})\"",
        spec.mnemonic,
        names.join(", ")
    );
    for _ in 0..SendType::NAMES.len() {
        let _ = writeln!(out, "{indent}.endif");
    }
}

/// The whole include file.
pub fn insn_macros() -> String {
    let mut out = String::new();
    out.push_str(
        "# GENERATED from the isa-spec table (isa-spec/src/gnu.rs); do not edit.\n\
         # Regenerate: UPDATE_DOCS=1 cargo test -p isa-spec --test doc\n\
         #\n\
         # The SCMP instructions as GNU as macros over `.insn`, so GNU as (which\n\
         # does not know them) assembles the messaging libraries and programs to\n\
         # the same words as `scmp asm`: `riscv64-unknown-elf-as -march=rv32g\n\
         # -I stressmarks/lib prog.s` with `.include \"scmp_insn.s\"` (the\n\
         # libraries include it through scmp_common.s). `scmp asm` defines\n",
    );
    let _ = writeln!(
        out,
        "# `{SCMP_AS_SYMBOL}` and skips the macros: its own table reads the mnemonics.\n"
    );
    let _ = writeln!(out, "    .ifndef {SCMP_AS_SYMBOL}");
    // The SCMP CSRs by name (GNU as takes a CSR number from a symbol).
    for c in crate::CSRS
        .iter()
        .filter(|c| (0xcc0..=0xcff).contains(&c.number))
    {
        let _ = writeln!(
            out,
            "    .equ {}, 0x{:03x}  # {}",
            c.name, c.number, c.description
        );
    }
    out.push('\n');
    let mut mnemonics: Vec<&str> = Vec::new();
    for s in SPECS.iter().filter(|s| s.extension == Extension::Scmp) {
        if !mnemonics.contains(&s.mnemonic) {
            mnemonics.push(s.mnemonic);
        }
    }
    for m in mnemonics {
        let rows: Vec<&InstrSpec> = SPECS.iter().filter(|s| s.mnemonic == m).collect();
        let params = rows.iter().map(|r| r.operands.len()).max().unwrap_or(0);
        let doc: Vec<String> = rows
            .iter()
            .map(|r| {
                let mut text = crate::doc::syntax(r);
                text.push_str(": ");
                text.push_str(r.semantics);
                text
            })
            .collect();
        for d in doc {
            let _ = writeln!(out, "    # {d}");
        }
        let _ = writeln!(out, "    .macro {m} {}", PARAMS[..params].join(", "));
        if rows.len() == 1 {
            row_body(rows[0], "    ", &mut out);
        } else {
            // Rows told apart by a keyword operand (`sendh a0, data, ...`).
            let (keyed, plain): (Vec<&InstrSpec>, Vec<&InstrSpec>) = rows
                .iter()
                .partition(|r| r.operands.iter().any(|o| matches!(o, Operand::Keyword(_))));
            for r in &keyed {
                let k = r
                    .operands
                    .iter()
                    .position(|o| matches!(o, Operand::Keyword(_)))
                    .expect("partitioned on it");
                let Operand::Keyword(word) = r.operands[k] else {
                    unreachable!()
                };
                let _ = writeln!(out, "    .ifc \\{},{word}", PARAMS[k]);
                row_body(r, "      ", &mut out);
                let _ = writeln!(out, "    .else");
            }
            for r in &plain {
                row_body(r, "      ", &mut out);
            }
            for _ in &keyed {
                let _ = writeln!(out, "    .endif");
            }
        }
        let _ = writeln!(out, "    .endm\n");
    }
    let _ = writeln!(out, "    .endif");
    out
}
