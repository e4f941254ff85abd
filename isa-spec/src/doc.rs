//! The ISA reference document (`docs/isa.md`), generated from the table.

use std::fmt::Write;

use crate::msg::MessageType;
use crate::{CSRS, Extension, HOST_SERVICES, Operand, SPECS, TimingClass};

/// Assembly syntax of a row, e.g. `lw rd, imm12(rs1)`.
pub fn syntax(spec: &crate::InstrSpec) -> String {
    let suffix = if spec.has_aqrl() {
        "[.aq|.rl|.aqrl]"
    } else {
        ""
    };
    let mut out = format!("{}{}", spec.mnemonic, suffix);
    let mut first = true;
    for operand in spec.operands.iter().filter(|o| !o.is_suffix()) {
        if let Operand::Rm(_) | Operand::Fence = operand {
            out.push(' ');
            out.push_str(operand.syntax());
            continue;
        }
        out.push_str(if first { " " } else { ", " });
        let class = match operand.reg_class() {
            Some(crate::RegClass::F) => "f",
            _ => "",
        };
        let _ = write!(out, "{}{}", class, operand.syntax());
        first = false;
    }
    out
}

fn fixed_bits(spec: &crate::InstrSpec) -> String {
    spec.fixed
        .iter()
        .map(|(hi, lo, v)| {
            if hi == lo {
                format!("{hi}={v:#x}")
            } else {
                format!("{hi}:{lo}={v:#x}")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The whole reference document as Markdown.
pub fn reference() -> String {
    let mut out = String::new();
    out.push_str("# SCMP instruction set reference\n\n");
    out.push_str(
        "Generated from `isa-spec/src/table.rs` by `isa_spec::doc::reference()`; do not edit.\n\
         Regenerate with `UPDATE_DOCS=1 cargo test -p isa-spec --test doc`.\n\n\
         Operands: `rd`/`rs1`/`rs2`/`rs3` are integer registers, `frd`/`frs1`... floating-point\n\
         registers; `target` is an address (encoded relative to the instruction); `[, rm]` is an\n\
         optional rounding mode (rne rtz rdn rup rmm dyn) whose default is given in the\n\
         operand column; the timing class selects the extra cycles in the emulator's\n\
         configuration.\n\n",
    );
    let extensions = [
        Extension::I,
        Extension::M,
        Extension::A,
        Extension::F,
        Extension::D,
        Extension::Zicsr,
        Extension::Zifencei,
        Extension::Scmp,
    ];
    for ext in extensions {
        let _ = writeln!(out, "## {}\n", ext.name());
        out.push_str("| syntax | fixed bits | match | mask | timing | semantics |\n");
        out.push_str("|---|---|---|---|---|---|\n");
        for spec in SPECS.iter().filter(|s| s.extension == ext) {
            let mut syn = syntax(spec);
            for operand in spec.operands {
                if let Operand::Rm(rm) = operand {
                    let _ = write!(syn, " (default {})", rm.name());
                }
            }
            let _ = writeln!(
                out,
                "| `{}` | `{}` | `{:#010x}` | `{:#010x}` | {} | {} |",
                syn,
                fixed_bits(spec),
                spec.match_bits,
                spec.mask,
                spec.timing.name(),
                spec.semantics.replace('|', "\\|")
            );
        }
        out.push('\n');
    }
    out.push_str("## Timing classes\n\n");
    for class in TimingClass::ALL {
        let members: Vec<&str> = SPECS
            .iter()
            .filter(|s| s.timing == class)
            .map(|s| s.mnemonic)
            .collect();
        let _ = writeln!(out, "- `{}`: {}", class.name(), members.join(", "));
    }
    out.push_str("\n## CSRs\n\n| number | name | access | holds |\n|---|---|---|---|\n");
    for csr in CSRS {
        let _ = writeln!(
            out,
            "| `{:#05x}` | `{}` | {} | {} |",
            csr.number,
            csr.name,
            match csr.access {
                crate::CsrAccess::ReadOnly => "read-only",
                crate::CsrAccess::ReadWrite => "read-write",
            },
            csr.description
        );
    }
    out.push_str("\n## Host services (`ecall`, number in `a7`)\n\n| a7 | name | arguments and result |\n|---|---|---|\n");
    for s in HOST_SERVICES {
        let _ = writeln!(out, "| {} | `{}` | {} |", s.number, s.name, s.description);
    }
    out.push_str(
        "\n## Flits and messages\n\n\
         A flit is 34 bits: head flag H, tail flag T, 32-bit payload. H=1 T=0 head, H=1 T=1 tag,\n\
         H=0 T=0 body, H=0 T=1 tail.\n\n\
         | head payload bits | field |\n|---|---|\n\
         | 31:26 | X offset (signed, destination − source) |\n\
         | 25:20 | Y offset (signed) |\n\
         | 19:17 | message type |\n\
         | 16 | data: 1 = Rendezvous, 0 = Ready |\n\
         | 13:4 | RTS: source node id |\n\
         | 3:0 | RTS: sender context; CTS: granted context |\n\
         | 16:0 | original data: destination stride (words) |\n\n\
         | type code | message | flits |\n|---|---|---|\n",
    );
    for ty in MessageType::ALL {
        let flits = match ty {
            MessageType::Thread => "head, tag (handler), body flits to a0..a7, tail",
            MessageType::Data => "head, tag (message id), data flits, tail",
            MessageType::Rts => "head (source node, context), tail (message id)",
            MessageType::Cts => "head (context), tail (message id)",
            MessageType::DataOrig => "head (stride), address flit, data flits, tail",
        };
        let _ = writeln!(out, "| {} | {} | {} |", ty as u8, ty.name(), flits);
    }
    out.push_str(
        "\n`sendm`/`sendme` second operand: stride in words in bits 31:16, count of words in bits 15:0.\n\n\
         Send-table states (`ldss`): 0 Empty, 1 In Use, 2 In Progress, 3 Complete.\n\
         Receive-table states (`ldsr`): 0 Empty, 1 In Use, 2 In Progress, 3 RTS Received, 7 Complete.\n",
    );
    out
}
