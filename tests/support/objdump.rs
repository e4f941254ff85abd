//! `scmp objdump -d` next to GNU objdump's on one ELF file: the whole
//! output must be the same, line for line, except where GNU cannot know
//! SCMP: it shows the SCMP instructions as `.4byte 0x...` and the SCMP CSRs
//! by number, and, in a file without an architecture attribute (ours), it
//! reads 16-bit words as compressed instructions (it assumes rv64gc) where
//! we print `.2byte`; and GNU names privileged CSRs SCMP tiles do not have
//! (`mhpmevent10h`), which we show by number.

use std::process::Command;

use isa_spec::{CSRS, Extension, Inst};
use object::Object;

use super::Scratch;

/// What a comparison saw.
#[derive(Debug, Default)]
pub struct Compared {
    /// Instruction lines identical to GNU's.
    pub same: usize,
    /// SCMP instructions and CSRs, which GNU does not know.
    pub scmp: usize,
    /// 16-bit words GNU read as compressed instructions.
    pub compressed: usize,
    /// CSRs GNU names and SCMP does not have.
    pub unknown_csrs: usize,
}

/// `(address and bytes, text)` of an instruction line.
fn split(line: &str) -> Option<(&str, &str)> {
    let (addr, rest) = line.split_once(":\t")?;
    let (bytes, text) = rest.split_once('\t')?;
    u64::from_str_radix(addr.trim(), 16).ok()?;
    Some((&line[..addr.len() + 2 + bytes.len()], text))
}

/// Why a differing line is expected, if it is.
fn expected(ours: &str, gnu: &str, has_arch: bool) -> Option<fn(&mut Compared)> {
    let ((head, text), (gnu_head, gnu_text)) = (split(ours)?, split(gnu)?);
    if head != gnu_head {
        return None;
    }
    let bytes = head.rsplit('\t').next()?.trim();
    let word = u32::from_str_radix(bytes, 16).ok()?;
    if bytes.len() == 4 && !has_arch && text == format!(".2byte\t{word:#x}") {
        return Some(|c| c.compressed += 1);
    }
    if bytes.len() != 8 {
        return None;
    }
    let inst = Inst::decode(word)?;
    if inst.op.spec().extension == Extension::Scmp && gnu_text == format!(".4byte\t{word:#x}") {
        return Some(|c| c.scmp += 1);
    }
    if unknown_csr_named_by_gnu(&inst, text, gnu_text) {
        return Some(|c| c.unknown_csrs += 1);
    }
    let numbered = CSRS
        .iter()
        .filter(|c| (isa_spec::NODEID..=isa_spec::NCTX).contains(&c.number))
        .fold(text.to_string(), |t, c| {
            t.replace(c.name, &format!("{:#x}", c.number))
        });
    (numbered != text && numbered == gnu_text).then_some(|c: &mut Compared| c.scmp += 1)
}

/// Whether the texts differ only in a CSR we do not have, which we show
/// by number and GNU by a name.
fn unknown_csr_named_by_gnu(inst: &Inst, text: &str, gnu_text: &str) -> bool {
    let has_csr = inst.op.spec().operands.contains(&isa_spec::Operand::Csr);
    let number = inst.imm as u16;
    if !has_csr || isa_spec::csr_by_number(number).is_some() {
        return false;
    }
    let hex = format!("{number:#x}");
    let ours: Vec<&str> = text.split([',', '\t']).collect();
    let gnu: Vec<&str> = gnu_text.split([',', '\t']).collect();
    ours.len() == gnu.len()
        && ours
            .iter()
            .zip(&gnu)
            .all(|(o, g)| o == g || (*o == hex && g.chars().all(|c| c.is_ascii_alphanumeric())))
}

/// Disassembles `elf` with GNU objdump and with ours (`-M no-aliases` when
/// `no_aliases`) and checks the outputs are the same but for SCMP.
pub fn compare_with_gnu(dir: &Scratch, name: &str, elf: &[u8], no_aliases: bool) -> Compared {
    let path = dir.path(name);
    std::fs::write(&path, elf).unwrap();
    let mut gnu = Command::new("riscv64-unknown-elf-objdump");
    gnu.arg("-d");
    if no_aliases {
        gnu.args(["-M", "no-aliases"]);
    }
    let out = gnu
        .arg(&path)
        .output()
        .expect("riscv64-unknown-elf-objdump runs");
    assert!(out.status.success(), "GNU objdump failed on {name}");
    assert!(
        out.stderr.is_empty(),
        "GNU objdump: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let gnu = String::from_utf8(out.stdout).unwrap();
    let show = asm::objdump::Show {
        disassemble: true,
        options: asm::objdump::Options {
            aliases: !no_aliases,
            ..Default::default()
        },
        ..Default::default()
    };
    let ours = asm::objdump::dump(elf, &path.display().to_string(), &show).unwrap();
    let has_arch = object::File::parse(elf)
        .unwrap()
        .section_by_name(".riscv.attributes")
        .is_some();
    let mut compared = Compared::default();
    let mut unexplained = Vec::new();
    for (i, (o, g)) in ours.lines().zip(gnu.lines()).enumerate() {
        if o == g {
            compared.same += usize::from(split(o).is_some());
        } else if let Some(count) = expected(o, g, has_arch) {
            count(&mut compared);
        } else {
            unexplained.push(format!("line {}:\n  ours {o:?}\n  GNU  {g:?}", i + 1));
        }
    }
    if !unexplained.is_empty() || ours.lines().count() != gnu.lines().count() {
        let keep = |what: &str, text: &str| {
            let p = std::env::temp_dir().join(format!("scmp-objdump-{name}-{what}.txt"));
            std::fs::write(&p, text).unwrap();
            p
        };
        let (o, g) = (keep("ours", &ours), keep("gnu", &gnu));
        panic!(
            "{name}{}: {} lines differ from GNU objdump ({} lines here, {} in GNU's; kept in {} and {}):\n{}",
            if no_aliases { " -M no-aliases" } else { "" },
            unexplained.len(),
            ours.lines().count(),
            gnu.lines().count(),
            o.display(),
            g.display(),
            unexplained
                .iter()
                .take(12)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    compared
}

/// Both ways, aliases and `-M no-aliases`; the counts of the default one.
pub fn compare_both_ways(dir: &Scratch, name: &str, elf: &[u8]) -> Compared {
    compare_with_gnu(dir, name, elf, true);
    compare_with_gnu(dir, name, elf, false)
}

/// Fails when GNU objdump is not installed.
pub fn require_gnu_objdump() {
    super::require_tool(
        "riscv64-unknown-elf-objdump",
        "binutils-riscv64-unknown-elf",
    );
}
