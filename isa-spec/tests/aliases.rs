//! The alias the disassembler prints for an instruction: GNU objdump's
//! (binutils 2.40) choice, read from the pseudo-instruction table.

use isa_spec::{Bind, Disassembly, Field, Inst, Operand, PSEUDOS};

/// `(word, pc, alias form, raw form)`: the words and both texts are GNU's
/// (`riscv64-unknown-elf-as -march=rv32g`, then `objdump -d` with and
/// without `-M no-aliases`), in our syntax (`, ` between operands, decimal
/// shift amounts, `0x` targets).
#[rustfmt::skip]
const GNU_CHOICES: &[(u32, u32, &str, &str)] = &[
    (0x00000013, 0x0, "nop", "addi zero, zero, 0"),
    (0xffb00513, 0x4, "li a0, -5", "addi a0, zero, -5"),
    (0x00058513, 0x8, "mv a0, a1", "addi a0, a1, 0"),
    (0x00758513, 0xc, "add a0, a1, 7", "addi a0, a1, 7"),
    (0x00100013, 0x10, "li zero, 1", "addi zero, zero, 1"),
    (0xfff5c513, 0x14, "not a0, a1", "xori a0, a1, -1"),
    (0x0035c513, 0x18, "xor a0, a1, 3", "xori a0, a1, 3"),
    (0x0ff5f513, 0x1c, "zext.b a0, a1", "andi a0, a1, 255"),
    (0x0035f513, 0x20, "and a0, a1, 3", "andi a0, a1, 3"),
    (0xffd5e513, 0x24, "or a0, a1, -3", "ori a0, a1, -3"),
    (0x40b00533, 0x28, "neg a0, a1", "sub a0, zero, a1"),
    (0x0015b513, 0x2c, "seqz a0, a1", "sltiu a0, a1, 1"),
    (0x0025b513, 0x30, "sltiu a0, a1, 2", "sltiu a0, a1, 2"),
    (0x0015a513, 0x34, "slti a0, a1, 1", "slti a0, a1, 1"),
    (0x00b03533, 0x38, "snez a0, a1", "sltu a0, zero, a1"),
    (0x0005a533, 0x3c, "sltz a0, a1", "slt a0, a1, zero"),
    (0x00b02533, 0x40, "sgtz a0, a1", "slt a0, zero, a1"),
    (0x00002533, 0x44, "sltz a0, zero", "slt a0, zero, zero"),
    (0x00359513, 0x48, "sll a0, a1, 3", "slli a0, a1, 3"),
    (0x01f5d513, 0x4c, "srl a0, a1, 31", "srli a0, a1, 31"),
    (0x4015d513, 0x50, "sra a0, a1, 1", "srai a0, a1, 1"),
    (0x00050463, 0x54, "beqz a0, 0x5c", "beq a0, zero, 0x5c"),
    (0x00a00463, 0x58, "beq zero, a0, 0x60", "beq zero, a0, 0x60"),
    (0xfe059ce3, 0x5c, "bnez a1, 0x54", "bne a1, zero, 0x54"),
    (0x00a05863, 0x60, "blez a0, 0x70", "bge zero, a0, 0x70"),
    (0x00055863, 0x64, "bgez a0, 0x74", "bge a0, zero, 0x74"),
    (0x00005863, 0x68, "blez zero, 0x78", "bge zero, zero, 0x78"),
    (0x00054263, 0x6c, "bltz a0, 0x70", "blt a0, zero, 0x70"),
    (0x00a04263, 0x70, "bgtz a0, 0x74", "blt zero, a0, 0x74"),
    (0x00004263, 0x74, "bltz zero, 0x78", "blt zero, zero, 0x78"),
    (0x00a06263, 0x78, "bltu zero, a0, 0x7c", "bltu zero, a0, 0x7c"),
    (0x0400006f, 0x7c, "j 0xbc", "jal zero, 0xbc"),
    (0xffdff0ef, 0x80, "jal 0x7c", "jal ra, 0x7c"),
    (0x008002ef, 0x84, "jal t0, 0x8c", "jal t0, 0x8c"),
    (0x00008067, 0x88, "ret", "jalr zero, 0(ra)"),
    (0x00050067, 0x8c, "jr a0", "jalr zero, 0(a0)"),
    (0x00c50067, 0x90, "jr 12(a0)", "jalr zero, 12(a0)"),
    (0x000500e7, 0x94, "jalr a0", "jalr ra, 0(a0)"),
    (0xffc500e7, 0x98, "jalr -4(a0)", "jalr ra, -4(a0)"),
    (0x000502e7, 0x9c, "jalr t0, a0", "jalr t0, 0(a0)"),
    (0x008502e7, 0xa0, "jalr t0, 8(a0)", "jalr t0, 8(a0)"),
    (0x00408067, 0xa4, "jr 4(ra)", "jalr zero, 4(ra)"),
    (0xc0002573, 0xa8, "rdcycle a0", "csrrs a0, cycle, zero"),
    (0xc8202573, 0xac, "rdinstreth a0", "csrrs a0, instreth, zero"),
    (0x00302573, 0xb0, "frcsr a0", "csrrs a0, fcsr, zero"),
    (0x00202573, 0xb4, "frrm a0", "csrrs a0, frm, zero"),
    (0x00102573, 0xb8, "frflags a0", "csrrs a0, fflags, zero"),
    (0x30002573, 0xbc, "csrr a0, mstatus", "csrrs a0, mstatus, zero"),
    (0x30002073, 0xc0, "csrr zero, mstatus", "csrrs zero, mstatus, zero"),
    (0x30052073, 0xc4, "csrs mstatus, a0", "csrrs zero, mstatus, a0"),
    (0x300525f3, 0xc8, "csrrs a1, mstatus, a0", "csrrs a1, mstatus, a0"),
    (0x00351073, 0xcc, "fscsr a0", "csrrw zero, fcsr, a0"),
    (0x003515f3, 0xd0, "fscsr a1, a0", "csrrw a1, fcsr, a0"),
    (0x00251073, 0xd4, "fsrm a0", "csrrw zero, frm, a0"),
    (0x00151073, 0xd8, "fsflags a0", "csrrw zero, fflags, a0"),
    (0x001515f3, 0xdc, "fsflags a1, a0", "csrrw a1, fflags, a0"),
    (0x30551073, 0xe0, "csrw mtvec, a0", "csrrw zero, mtvec, a0"),
    (0xc0001073, 0xe4, "unimp", "unimp"),
    (0x0020d073, 0xe8, "fsrmi zero, 1", "csrrwi zero, frm, 1"),
    (0x00105573, 0xec, "fsflagsi a0, 0", "csrrwi a0, fflags, 0"),
    (0x30045073, 0xf0, "csrw mstatus, 8", "csrrwi zero, mstatus, 8"),
    (0x30045573, 0xf4, "csrrw a0, mstatus, 8", "csrrwi a0, mstatus, 8"),
    (0x30046073, 0xf8, "csrs mstatus, 8", "csrrsi zero, mstatus, 8"),
    (0x30046573, 0xfc, "csrrs a0, mstatus, 8", "csrrsi a0, mstatus, 8"),
    (0x30053073, 0x100, "csrc mstatus, a0", "csrrc zero, mstatus, a0"),
    (0x30047073, 0x104, "csrc mstatus, 8", "csrrci zero, mstatus, 8"),
    (0x30047573, 0x108, "csrrc a0, mstatus, 8", "csrrci a0, mstatus, 8"),
    (0x20b58553, 0x10c, "fmv.s fa0, fa1", "fsgnj.s fa0, fa1, fa1"),
    (0x20b59553, 0x110, "fneg.s fa0, fa1", "fsgnjn.s fa0, fa1, fa1"),
    (0x20b5a553, 0x114, "fabs.s fa0, fa1", "fsgnjx.s fa0, fa1, fa1"),
    (0x22b58553, 0x118, "fmv.d fa0, fa1", "fsgnj.d fa0, fa1, fa1"),
    (0x22b59553, 0x11c, "fneg.d fa0, fa1", "fsgnjn.d fa0, fa1, fa1"),
    (0x22b5a553, 0x120, "fabs.d fa0, fa1", "fsgnjx.d fa0, fa1, fa1"),
    (0x22c58553, 0x124, "fsgnj.d fa0, fa1, fa2", "fsgnj.d fa0, fa1, fa2"),
    (0xe0050553, 0x128, "fmv.x.w a0, fa0", "fmv.x.w a0, fa0"),
    (0xa0a59553, 0x12c, "flt.s a0, fa1, fa0", "flt.s a0, fa1, fa0"),
    (0x0ff0000f, 0x130, "fence", "fence iorw, iorw"),
    (0x0310000f, 0x134, "fence rw, w", "fence rw, w"),
    (0x00000073, 0x138, "ecall", "ecall"),
    (0x00100073, 0x13c, "ebreak", "ebreak"),
];

#[test]
fn aliases_are_gnu_objdumps_choices() {
    for &(word, pc, alias, raw) in GNU_CHOICES {
        let inst = Inst::decode(word).unwrap_or_else(|| panic!("{word:#010x} does not decode"));
        assert_eq!(
            inst.display(pc).to_string(),
            alias,
            "{word:#010x} with aliases"
        );
        assert_eq!(
            inst.display(pc).no_aliases().to_string(),
            raw,
            "{word:#010x} raw"
        );
    }
}

#[test]
fn scmp_csrs_print_by_name_and_scmp_instructions_as_before() {
    // csrrs s0, nodeid, zero; csrrs a0, ctxid, zero (GNU knows neither CSR).
    let cases: &[(u32, &str, &str)] = &[
        (0xcc002473, "csrr s0, nodeid", "csrrs s0, nodeid, zero"),
        (0xcc102573, "csrr a0, ctxid", "csrrs a0, ctxid, zero"),
        // sendh a0, rdv, a1 and endt have no aliases.
        (0x04b5000b, "sendh a0, rdv, a1", "sendh a0, rdv, a1"),
        (0x0000005b, "endt", "endt"),
    ];
    for &(word, alias, raw) in cases {
        let inst = Inst::decode(word).unwrap();
        assert_eq!(inst.display(0).to_string(), alias);
        assert_eq!(inst.display(0).no_aliases().to_string(), raw);
    }
}

/// Every form the disassembler may print is one instruction, and no earlier
/// row hides it: an instance of the form prints as that form.
#[test]
fn every_printed_form_is_reachable() {
    let mut printed = 0;
    for row in PSEUDOS {
        if row.disassembly == Disassembly::Input {
            continue;
        }
        let (op, binds) = row
            .single_instruction()
            .unwrap_or_else(|| panic!("`{}` is printed but is not one instruction", row.mnemonic));
        let mut inst = Inst::new(op);
        for &(field, bind) in binds {
            let value = match bind {
                Bind::Const(c) => c,
                Bind::Arg(i) => match (row.operands[i as usize], field) {
                    (_, Field::Rd | Field::Rs1 | Field::Rs2 | Field::Rs3) => 10 + i as i32,
                    (Operand::Csr, _) => isa_spec::MSTATUS as i32,
                    (Operand::Branch | Operand::Jump, _) => 64,
                    (Operand::Uimm5 | Operand::Shamt, _) => 3,
                    _ => 5,
                },
                other => panic!("`{}` binds {other:?}", row.mnemonic),
            };
            inst.set(field, value);
        }
        let word = inst.encode().expect("the instance encodes");
        let written = Inst::decode(word).unwrap().written(0, true);
        assert!(
            written.alias.is_some_and(|a| std::ptr::eq(a, row)),
            "an instance of `{}` {:?} prints as `{}`",
            row.mnemonic,
            row.operands,
            inst.display(0)
        );
        let raw = Inst::decode(word).unwrap().written(0, false);
        assert_eq!(
            raw.alias.is_some(),
            row.disassembly == Disassembly::Always,
            "`{}` without aliases",
            row.mnemonic
        );
        printed += 1;
    }
    assert!(printed > 50, "only {printed} printed forms");
}
