//! The register file GDB sees for one hardware context: x0..x31, pc,
//! f0..f31 (64 bits: the D extension), fflags, frm, fcsr and the CSRs
//! below, described to GDB by a target description (`target.xml`) with
//! GDB's RISC-V feature names, so that `info registers`, `p $fa0` and
//! `p $cycle` work as on any RV32G target.

use std::sync::OnceLock;

use gdbstub::arch::{Arch, Registers};
use isa_spec::{
    CTXID, CYCLE, CYCLEH, INSTRET, INSTRETH, MCAUSE, MEPC, MESHH, MESHW, MSTATUS, MTVAL, MTVEC,
    NCTX, NODEID, NTILES,
};

/// The CSRs shown (after the FP CSRs), in order.
pub const CSRS: [u16; 15] = [
    CYCLE, INSTRET, CYCLEH, INSTRETH, MSTATUS, MTVEC, MEPC, MCAUSE, MTVAL, NODEID, CTXID, MESHW,
    MESHH, NTILES, NCTX,
];

/// One context's registers as GDB reads and writes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContextRegs {
    /// Integer registers.
    pub x: [u32; 32],
    /// Program counter.
    pub pc: u32,
    /// Floating-point registers.
    pub f: [u64; 32],
    /// fflags, frm and fcsr.
    pub fcsr: [u32; 3],
    /// [`CSRS`], in order.
    pub csrs: [u32; CSRS.len()],
}

impl Registers for ContextRegs {
    type ProgramCounter = u32;

    fn pc(&self) -> u32 {
        self.pc
    }

    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        let mut put = |bytes: &[u8]| bytes.iter().for_each(|b| write_byte(Some(*b)));
        for x in &self.x {
            put(&x.to_le_bytes());
        }
        put(&self.pc.to_le_bytes());
        for f in &self.f {
            put(&f.to_le_bytes());
        }
        for v in self.fcsr.iter().chain(&self.csrs) {
            put(&v.to_le_bytes());
        }
    }

    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        let expected = 33 * 4 + 32 * 8 + (3 + CSRS.len()) * 4;
        if bytes.len() != expected {
            return Err(());
        }
        let mut words = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")));
        let mut next = || words.next().expect("length checked");
        for x in &mut self.x {
            *x = next();
        }
        self.pc = next();
        for f in &mut self.f {
            *f = next() as u64 | (next() as u64) << 32;
        }
        for v in self.fcsr.iter_mut().chain(&mut self.csrs) {
            *v = next();
        }
        Ok(())
    }
}

/// RV32G with SCMP's CSRs, for gdbstub.
pub enum ScmpRv32 {}

impl Arch for ScmpRv32 {
    type Usize = u32;
    type Registers = ContextRegs;
    type BreakpointKind = usize;
    type RegId = ();

    fn target_description_xml() -> Option<&'static str> {
        static XML: OnceLock<String> = OnceLock::new();
        Some(XML.get_or_init(target_xml))
    }
}

/// The target description: GDB's RISC-V features (cpu, fpu, csr), the
/// registers in the order [`ContextRegs`] sends them.
fn target_xml() -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n<target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n<feature name=\"org.gnu.gdb.riscv.cpu\">\n",
    );
    let mut regnum = 0;
    let mut reg = |xml: &mut String, name: &str, bits: u32, ty: &str| {
        xml.push_str(&format!(
            "  <reg name=\"{name}\" bitsize=\"{bits}\" type=\"{ty}\" regnum=\"{regnum}\"/>\n"
        ));
        regnum += 1;
    };
    for (i, name) in isa_spec::X_ABI.iter().enumerate() {
        let ty = match i {
            1 => "code_ptr",
            2 => "data_ptr",
            _ => "int",
        };
        reg(&mut xml, name, 32, ty);
    }
    reg(&mut xml, "pc", 32, "code_ptr");
    xml.push_str("</feature>\n<feature name=\"org.gnu.gdb.riscv.fpu\">\n  <union id=\"riscv_double\">\n    <field name=\"float\" type=\"ieee_single\"/>\n    <field name=\"double\" type=\"ieee_double\"/>\n  </union>\n");
    for name in isa_spec::F_ABI {
        reg(&mut xml, name, 64, "riscv_double");
    }
    for name in ["fflags", "frm", "fcsr"] {
        reg(&mut xml, name, 32, "int");
    }
    xml.push_str("</feature>\n<feature name=\"org.gnu.gdb.riscv.csr\">\n");
    for csr in CSRS {
        let name = isa_spec::csr_by_number(csr)
            .map(|c| c.name)
            .expect("a known CSR");
        reg(&mut xml, name, 32, "int");
    }
    xml.push_str("</feature>\n</target>\n");
    xml
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_round_trip_through_the_g_packet_layout() {
        let mut r = ContextRegs::default();
        r.x[10] = 0x1234_5678;
        r.pc = 0x10004;
        r.f[31] = 0x4009_21fb_5444_2d18;
        r.fcsr = [1, 2, 0x41];
        r.csrs[0] = 99;
        let mut bytes = Vec::new();
        r.gdb_serialize(|b| bytes.push(b.unwrap()));
        assert_eq!(bytes.len(), 33 * 4 + 32 * 8 + 18 * 4);
        assert_eq!(&bytes[40..44], &[0x78, 0x56, 0x34, 0x12]);
        let mut back = ContextRegs::default();
        back.gdb_deserialize(&bytes).unwrap();
        assert_eq!(back, r);
        assert!(back.gdb_deserialize(&bytes[1..]).is_err());
    }

    #[test]
    fn description_names_every_register_once() {
        let xml = target_xml();
        for name in ["zero", "ra", "pc", "ft0", "fs11", "fcsr", "cycle", "nodeid"] {
            assert_eq!(
                xml.matches(&format!("name=\"{name}\"")).count(),
                1,
                "{name}"
            );
        }
        assert_eq!(xml.matches("<reg ").count(), 33 + 32 + 3 + CSRS.len());
    }
}
