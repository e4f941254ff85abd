//! Checks on the instruction table itself and on encode/decode round trips.

use isa_spec::{
    CoreOp, Executes, Extension, Field, HostOp, Inst, NiuOp, Opcode, SPECS, ThreadOp, Unit,
};
use proptest::prelude::*;

#[test]
fn rows_are_in_opcode_order() {
    for (i, spec) in SPECS.iter().enumerate() {
        assert_eq!(spec.opcode as usize, i, "{}", spec.mnemonic);
    }
    assert_eq!(Opcode::ALL.len(), SPECS.len());
}

#[test]
fn every_bit_is_fixed_or_exactly_one_field() {
    for spec in SPECS {
        let mut seen = 0u32;
        for &(hi, lo, value) in spec.fixed {
            assert!(
                hi >= lo && hi < 32,
                "{}: bad range {hi}:{lo}",
                spec.mnemonic
            );
            let width = hi - lo + 1;
            let ones = if width == 32 {
                u32::MAX
            } else {
                ((1u32 << width) - 1) << lo
            };
            assert_eq!(
                seen & ones,
                0,
                "{}: fixed bits {hi}:{lo} set twice",
                spec.mnemonic
            );
            assert!(
                width == 32 || value < (1 << width),
                "{}: value {value:#x} wider than {hi}:{lo}",
                spec.mnemonic
            );
            seen |= ones;
        }
        for field in spec.fields() {
            assert_eq!(
                seen & field.mask(),
                0,
                "{}: field {field:?} overlaps fixed bits or another field",
                spec.mnemonic
            );
            seen |= field.mask();
        }
        assert_eq!(
            seen,
            u32::MAX,
            "{}: bits {:#010x} neither fixed nor a field",
            spec.mnemonic,
            !seen
        );
        assert_eq!(spec.match_bits & !spec.mask, 0, "{}", spec.mnemonic);
        assert_eq!(
            spec.match_bits & 3,
            3,
            "{}: not a 32-bit encoding",
            spec.mnemonic
        );
    }
}

#[test]
fn no_two_encodings_overlap() {
    for (i, a) in SPECS.iter().enumerate() {
        for b in &SPECS[i + 1..] {
            let common = a.mask & b.mask;
            assert_ne!(
                a.match_bits & common,
                b.match_bits & common,
                "{} and {} can match the same word",
                a.mnemonic,
                b.mnemonic
            );
        }
    }
}

#[test]
fn each_field_range_round_trips_through_its_bits() {
    for field in Field::ALL {
        let r = field.range();
        for value in [r.min, r.max, 0.max(r.min), r.align.min(r.max)] {
            if field.check(value).is_ok() {
                assert_eq!(
                    field.extract(field.insert(value as i32)) as i64,
                    value,
                    "{field:?} {value}"
                );
                assert_eq!(field.insert(value as i32) & !field.mask(), 0, "{field:?}");
            }
        }
    }
}

#[test]
fn known_encodings_match_the_riscv_spec() {
    // Words taken from GNU as output (riscv64-unknown-elf-as -march=rv32g).
    let cases: &[(u32, &str)] = &[
        (0x00c5f553, "fadd.s fa0, fa1, fa2"),
        (0x00c58553, "fadd.s fa0, fa1, fa2, rne"),
        (0xd2050553, "fcvt.d.w fa0, a0"),
        (0x0ff0000f, "fence iorw, iorw"),
        (0x0210000f, "fence r, w"),
        (0x06b6252f, "amoadd.w.aqrl a0, a1, (a2)"),
        (0x1205a52f, "lr.w.rl a0, (a1)"),
        (0xc0002573, "csrrs a0, cycle, zero"),
        (0x0032d573, "csrrwi a0, fcsr, 5"),
        (0x6ac5f543, "fmadd.d fa0, fa1, fa2, fa3"),
        (0x8330000f, "fence.tso"),
    ];
    for &(word, text) in cases {
        let inst = Inst::decode(word).unwrap_or_else(|| panic!("{word:#x} does not decode"));
        assert_eq!(inst.display(0).no_aliases().to_string(), text);
        assert_eq!(inst.encode().unwrap(), word);
    }
}

#[test]
fn reserved_values_do_not_decode() {
    // fadd.s with rm = 5 (reserved)
    assert_eq!(Inst::decode(0x00c5d553), None);
    // sendh with send type 3 (reserved)
    assert_eq!(Inst::decode(0x06b5000b), None);
    // compressed and all-zero words
    assert_eq!(Inst::decode(0x0000_4501), None);
    assert_eq!(Inst::decode(0), None);
}

/// A valid random instruction: every field of `op` gets a value in range.
fn arbitrary_inst(op: Opcode, seeds: &[u64; 8]) -> Inst {
    let mut inst = Inst::new(op);
    for (i, field) in op.spec().fields().enumerate() {
        let r = field.range();
        let span = ((r.max - r.min) / r.align + 1) as u64;
        let mut value = r.min + (seeds[i] % span) as i64 * r.align;
        while field.check(value).is_err() {
            value = r.min + ((value - r.min) / r.align + 1) % span as i64 * r.align;
        }
        inst.set(field, value as i32);
    }
    inst
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn decode_inverts_encode(index in 0..Opcode::ALL.len(), seeds in any::<[u64; 8]>()) {
        let inst = arbitrary_inst(Opcode::ALL[index], &seeds);
        let word = inst.encode().expect("fields are in range");
        prop_assert_eq!(Inst::decode(word), Some(inst));
    }

    #[test]
    fn encode_inverts_decode(word in any::<u32>()) {
        if let Some(inst) = Inst::decode(word) {
            prop_assert_eq!(inst.encode(), Ok(word));
        }
    }
}

/// The unit column and the enums derived from it agree: each opcode is
/// one of its unit's instructions, and back; the units are where the
/// extensions say (the SCMP rows are the NIU's and the thread scheduler's,
/// `mret` the thread scheduler's too,
/// `ecall`/`ebreak` the host's, every other row the core's).
#[test]
fn each_opcode_is_one_of_its_units_instructions() {
    for &op in Opcode::ALL {
        let executes = op.executes();
        assert_eq!(executes.unit(), op.unit(), "{op:?}");
        let back = match executes {
            Executes::Core(c) => c.opcode(),
            Executes::Niu(n) => n.opcode(),
            Executes::Thread(ThreadOp::Endt) => Opcode::Endt,
            Executes::Thread(ThreadOp::Yield) => Opcode::Yield,
            Executes::Thread(ThreadOp::Mret) => Opcode::Mret,
            Executes::Host(HostOp::Ecall) => Opcode::Ecall,
            Executes::Host(HostOp::Ebreak) => Opcode::Ebreak,
        };
        assert_eq!(back, op);
        let expected = match (op.spec().extension, op) {
            (_, Opcode::Endt | Opcode::Yield | Opcode::Mret) => Unit::Thread,
            (_, Opcode::Ecall | Opcode::Ebreak) => Unit::Host,
            (Extension::Scmp, _) => Unit::Niu,
            _ => Unit::Core,
        };
        assert_eq!(op.unit(), expected, "{op:?}");
    }
    assert_eq!(CoreOp::ALL.len() + NiuOp::ALL.len() + 5, Opcode::ALL.len());
}
