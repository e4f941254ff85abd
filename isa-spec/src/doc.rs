//! The ISA reference document (`docs/isa.md`), generated from the table.

use std::fmt::Write;

use crate::msg::{MessageType, ReceiveState, SendState};
use crate::{
    Bind, CSRS, Expansion, Extension, F_ABI, Field, HOST_SERVICES, Operand, PSEUDOS, PseudoSpec,
    RegClass, SPECS, TimingClass, TlsModel, X_ABI, csr_by_number,
};

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

fn operand_name(operand: Operand) -> String {
    let class = match operand.reg_class() {
        Some(RegClass::F) => "f",
        _ => "",
    };
    format!("{class}{}", operand.syntax())
}

/// Written syntax of a pseudo-instruction row, e.g. `jr imm12(rs1)`.
pub fn pseudo_syntax(spec: &PseudoSpec) -> String {
    let ops: Vec<String> = spec.operands.iter().map(|o| operand_name(*o)).collect();
    if ops.is_empty() {
        spec.mnemonic.to_string()
    } else {
        format!("{} {}", spec.mnemonic, ops.join(", "))
    }
}

/// What a pseudo-instruction row assembles to, e.g. `jalr zero, imm12(rs1)`.
pub fn expansion_text(spec: &PseudoSpec) -> String {
    let templates = match &spec.expansion {
        Expansion::Insts(templates) => templates,
        Expansion::LoadImmediate => {
            return "`addi rd, zero, imm`, `lui rd, hi20` or both, by the value".to_string();
        }
        Expansion::LoadAddress => {
            return "`auipc rd, %pcrel_hi(symbol)`; `addi rd, rd, %pcrel_lo(symbol)` (`li` of a constant; under `.option pic`: `auipc rd, %got_pcrel_hi(symbol)`; `lw rd, %pcrel_lo(symbol)(rd)`)"
                .to_string();
        }
        Expansion::LoadLocalAddress => {
            return "`auipc rd, %pcrel_hi(symbol)`; `addi rd, rd, %pcrel_lo(symbol)` (`li` of a constant)"
                .to_string();
        }
        Expansion::LoadTlsAddress(TlsModel::InitialExec) => {
            return "`auipc rd, %tls_ie_pcrel_hi(symbol)`; `lw rd, %pcrel_lo(symbol)(rd)` (objects only)"
                .to_string();
        }
        Expansion::LoadTlsAddress(TlsModel::GeneralDynamic) => {
            return "`auipc rd, %tls_gd_pcrel_hi(symbol)`; `addi rd, rd, %pcrel_lo(symbol)` (objects only)"
                .to_string();
        }
    };
    let mut out = Vec::new();
    for t in *templates {
        let bound = |field: Field| t.binds.iter().find(|(f, _)| *f == field).map(|(_, b)| *b);
        let value = |field: Field, class: Option<RegClass>| -> String {
            match bound(field) {
                Some(Bind::Arg(i)) => {
                    let written = spec.operands[i as usize];
                    match (written, field) {
                        (Operand::LoadMem | Operand::StoreMem, Field::Rs1) => "rs1".to_string(),
                        (Operand::LoadMem | Operand::StoreMem, _) => "imm12".to_string(),
                        _ => operand_name(written),
                    }
                }
                Some(Bind::Const(v)) => match (class, field) {
                    (Some(RegClass::X), _) => X_ABI[v as usize].to_string(),
                    (Some(RegClass::F), _) => F_ABI[v as usize].to_string(),
                    (_, Field::Csr) => csr_by_number(v as u16)
                        .map_or_else(|| format!("{v:#x}"), |c| c.name.to_string()),
                    _ => v.to_string(),
                },
                Some(Bind::PcrelHi(_)) => "%pcrel_hi(symbol)".to_string(),
                Some(Bind::PcrelLo(_)) => "%pcrel_lo(symbol)".to_string(),
                None if class.is_some() => "zero".to_string(),
                None => "0".to_string(),
            }
        };
        let mut ops = Vec::new();
        for operand in t.op.spec().operands {
            let fields = operand.fields();
            let text = match operand {
                Operand::LoadMem | Operand::StoreMem => format!(
                    "{}({})",
                    value(fields[0], None),
                    value(Field::Rs1, Some(RegClass::X))
                ),
                Operand::Rm(_) | Operand::Fence | Operand::AqRl => continue,
                _ if fields.is_empty() => continue,
                _ => value(fields[0], operand.reg_class()),
            };
            ops.push(text);
        }
        let mnemonic = t.op.mnemonic();
        out.push(if ops.is_empty() {
            format!("`{mnemonic}`")
        } else {
            format!("`{mnemonic} {}`", ops.join(", "))
        });
    }
    out.join("; ")
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
         configuration; the unit is the part of the tile that executes the instruction\n\
         (core: the hart's pipeline; NIU: the network interface unit; thread: the\n\
         thread scheduler; host: a host service).\n\n",
    );
    instructions(&mut out);
    pseudo_instructions(&mut out);
    timing_classes(&mut out);
    csrs(&mut out);
    host_services(&mut out);
    flits_and_messages(&mut out);
    out
}

/// The instructions, one table per extension.
fn instructions(out: &mut String) {
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
        out.push_str("| syntax | fixed bits | match | mask | timing | unit | semantics |\n");
        out.push_str("|---|---|---|---|---|---|---|\n");
        for spec in SPECS.iter().filter(|s| s.extension == ext) {
            let mut syn = syntax(spec);
            for operand in spec.operands {
                if let Operand::Rm(rm) = operand {
                    let _ = write!(syn, " (default {})", rm.name());
                }
            }
            let _ = writeln!(
                out,
                "| `{}` | `{}` | `{:#010x}` | `{:#010x}` | {} | {} | {} |",
                syn,
                fixed_bits(spec),
                spec.match_bits,
                spec.mask,
                spec.timing.name(),
                spec.unit.name(),
                spec.semantics.replace('|', "\\|")
            );
        }
        out.push('\n');
    }
}

/// The pseudo-instructions and aliases.
fn pseudo_instructions(out: &mut String) {
    out.push_str(
        "## Pseudo-instructions and aliases\n\n\
         GNU as's forms for RV32G, each written form one row of `isa-spec/src/pseudo.rs`.\n\
         A form is tried after the instruction rows of its mnemonic: `add rd, rs1, imm12`\n\
         is `addi` because `add rd, rs1, rs2` does not take an immediate.\n\
         Disassembly (`scmp objdump`, traces, fault reports) prints an instruction as the\n\
         first form marked *alias* that it matches, in this order, as GNU objdump does;\n\
         with `-M no-aliases` only the forms marked *always*.\n\n\
         | syntax | assembles to | meaning | disassembly |\n|---|---|---|---|\n",
    );
    for spec in PSEUDOS {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            pseudo_syntax(spec),
            expansion_text(spec),
            spec.description.replace('|', "\\|"),
            match spec.disassembly {
                crate::Disassembly::Alias => "alias",
                crate::Disassembly::Always => "always",
                crate::Disassembly::Input => "",
            }
        );
    }
    out.push('\n');
}

/// Which instructions each timing class holds.
fn timing_classes(out: &mut String) {
    out.push_str("## Timing classes\n\n");
    for class in TimingClass::ALL {
        let members: Vec<&str> = SPECS
            .iter()
            .filter(|s| s.timing == class)
            .map(|s| s.mnemonic)
            .collect();
        let _ = writeln!(out, "- `{}`: {}", class.name(), members.join(", "));
    }
}

/// The CSRs.
fn csrs(out: &mut String) {
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
}

/// The host services.
fn host_services(out: &mut String) {
    out.push_str("\n## Host services (`ecall`, number in `a7`)\n\n| a7 | name | arguments and result |\n|---|---|---|\n");
    for s in HOST_SERVICES {
        let _ = writeln!(out, "| {} | `{}` | {} |", s.number, s.name, s.description);
    }
}

/// Flits, message heads and types, the tables' states.
fn flits_and_messages(out: &mut String) {
    out.push_str(
        "\n## Flits and messages\n\n\
         A flit is 34 bits: head flag H, tail flag T, 32-bit payload. H=1 T=0 head, H=1 T=1 tag,\n\
         H=0 T=0 body, H=0 T=1 tail.\n\n\
         The head's payload: two signed offsets (destination − source), then a message type\n\
         code whose length depends on the type (an expanding code: zeros, then a one, from\n\
         bit 17 down), then the type's fields. The offsets reach ±63: meshes up to 64x64.\n\
         A code of all zeros (bits 17:13) is no message type.\n\n\
         | head payload bits | field |\n|---|---|\n\
         | 31:25 | X offset (signed, destination − source) |\n\
         | 24:18 | Y offset (signed) |\n\
         | 14 | data: 1 = Rendezvous, 0 = Ready |\n\
         | 15:4 | RTS: source node id |\n\
         | 3:0 | RTS: sender context; CTS: granted context |\n\
         | 16:0 | original data: destination stride (words) |\n\n\
         | type code | bits | message | flits |\n|---|---|---|---|\n",
    );
    for ty in MessageType::ALL {
        let flits = match ty {
            MessageType::Thread => "head, tag (handler), body flits to a0..a7, tail",
            MessageType::Data => "head, tag (message id), data flits, tail",
            MessageType::Rts => "head (source node, context), tail (message id)",
            MessageType::Cts => "head (context), tail (message id)",
            MessageType::DataOrig => "head (stride), address flit, data flits, tail",
        };
        let n = ty.code_bits();
        let top = crate::msg::HEAD_Y_SHIFT - 1;
        let bits = if n == 1 {
            top.to_string()
        } else {
            format!("{top}:{}", top + 1 - n)
        };
        let code = format!("{:0n$b}", 1, n = n as usize);
        let _ = writeln!(out, "| `{code}` | {bits} | {} | {flits} |", ty.name());
    }
    out.push_str(
        "\n`sendm`/`sendme` second operand: stride in words in bits 31:16, count of words in bits 15:0.\n\n",
    );
    let send: Vec<String> = SendState::ALL
        .iter()
        .map(|s| format!("{} {}", *s as u8, s.name()))
        .collect();
    let receive: Vec<String> = ReceiveState::ALL
        .iter()
        .map(|s| format!("{} {}", *s as u8, s.name()))
        .collect();
    let _ = writeln!(out, "Send-table states (`ldss`): {}.", send.join(", "));
    let _ = writeln!(
        out,
        "Receive-table states (`ldsr`): {}.",
        receive.join(", ")
    );
}
