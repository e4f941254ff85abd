//! The instruction set: one row per instruction, the single source of truth.
//!
//! Each row reads
//! `Variant "mnemonic" Extension [operands] {hi:lo = fixed bits, ...} TimingClass Unit "semantics";`
//! where [`crate::Unit`] says which part of the tile executes the
//! instruction (the emulator's dispatch, the fast loop's exits and the
//! NIU's instruction set derive from it).
//! Operands are in assembly order (see [`crate::Operand`]); every bit of the
//! word is either fixed here or belongs to exactly one operand field, which the
//! crate's tests check. The `Opcode` enum, [`crate::SPECS`], the encoder, the
//! decoder, the disassembler, the assembler's mnemonic lookup and
//! `docs/isa.md` are all derived from this macro; a mnemonic is written here
//! and nowhere else.
//!
//! The callback receives the rows verbatim; the names used in operand lists
//! (`Xd`, `Rm(DYN)`, ...) and fixed values (`OP`, `CUSTOM0`, ...) must be in
//! scope where it expands (see `crate::inst`).

/// Calls `$callback! { rows }` with every instruction row.
#[macro_export]
macro_rules! for_each_instruction {
    ($callback:ident) => {
        $callback! {
        // ---------------------------------------------------------------- RV32I
        Lui      "lui"       I [Xd, ImmU]           {6:0 = LUI}                                 Alu    Core   "rd = imm20 << 12";
        Auipc    "auipc"     I [Xd, ImmU]           {6:0 = AUIPC}                               Alu    Core   "rd = pc + (imm20 << 12)";
        Jal      "jal"       I [Xd, Jump]           {6:0 = JAL}                                 Jump   Core   "rd = pc + 4; pc = target";
        Jalr     "jalr"      I [Xd, LoadMem]        {14:12 = 0, 6:0 = JALR}                     Jump   Core   "t = pc + 4; pc = (rs1 + imm12) & ~1; rd = t";
        Beq      "beq"       I [Xs1, Xs2, Branch]   {14:12 = 0, 6:0 = BRANCH}                   Branch Core   "if rs1 == rs2 then pc = target";
        Bne      "bne"       I [Xs1, Xs2, Branch]   {14:12 = 1, 6:0 = BRANCH}                   Branch Core   "if rs1 != rs2 then pc = target";
        Blt      "blt"       I [Xs1, Xs2, Branch]   {14:12 = 4, 6:0 = BRANCH}                   Branch Core   "if rs1 < rs2 (signed) then pc = target";
        Bge      "bge"       I [Xs1, Xs2, Branch]   {14:12 = 5, 6:0 = BRANCH}                   Branch Core   "if rs1 >= rs2 (signed) then pc = target";
        Bltu     "bltu"      I [Xs1, Xs2, Branch]   {14:12 = 6, 6:0 = BRANCH}                   Branch Core   "if rs1 < rs2 (unsigned) then pc = target";
        Bgeu     "bgeu"      I [Xs1, Xs2, Branch]   {14:12 = 7, 6:0 = BRANCH}                   Branch Core   "if rs1 >= rs2 (unsigned) then pc = target";
        Lb       "lb"        I [Xd, LoadMem]        {14:12 = 0, 6:0 = LOAD}                     Load   Core   "rd = sext(mem8[rs1 + imm12])";
        Lh       "lh"        I [Xd, LoadMem]        {14:12 = 1, 6:0 = LOAD}                     Load   Core   "rd = sext(mem16[rs1 + imm12])";
        Lw       "lw"        I [Xd, LoadMem]        {14:12 = 2, 6:0 = LOAD}                     Load   Core   "rd = mem32[rs1 + imm12]";
        Lbu      "lbu"       I [Xd, LoadMem]        {14:12 = 4, 6:0 = LOAD}                     Load   Core   "rd = zext(mem8[rs1 + imm12])";
        Lhu      "lhu"       I [Xd, LoadMem]        {14:12 = 5, 6:0 = LOAD}                     Load   Core   "rd = zext(mem16[rs1 + imm12])";
        Sb       "sb"        I [Xs2, StoreMem]      {14:12 = 0, 6:0 = STORE}                    Store  Core   "mem8[rs1 + imm12] = rs2";
        Sh       "sh"        I [Xs2, StoreMem]      {14:12 = 1, 6:0 = STORE}                    Store  Core   "mem16[rs1 + imm12] = rs2";
        Sw       "sw"        I [Xs2, StoreMem]      {14:12 = 2, 6:0 = STORE}                    Store  Core   "mem32[rs1 + imm12] = rs2";
        Addi     "addi"      I [Xd, Xs1, ImmI]      {14:12 = 0, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 + imm12";
        Slti     "slti"      I [Xd, Xs1, ImmI]      {14:12 = 2, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 < imm12 (signed) ? 1 : 0";
        Sltiu    "sltiu"     I [Xd, Xs1, ImmI]      {14:12 = 3, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 < sext(imm12) (unsigned) ? 1 : 0";
        Xori     "xori"      I [Xd, Xs1, ImmI]      {14:12 = 4, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 ^ imm12";
        Ori      "ori"       I [Xd, Xs1, ImmI]      {14:12 = 6, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 | imm12";
        Andi     "andi"      I [Xd, Xs1, ImmI]      {14:12 = 7, 6:0 = OP_IMM}                   Alu    Core   "rd = rs1 & imm12";
        Slli     "slli"      I [Xd, Xs1, Shamt]     {31:25 = 0x00, 14:12 = 1, 6:0 = OP_IMM}     Alu    Core   "rd = rs1 << shamt";
        Srli     "srli"      I [Xd, Xs1, Shamt]     {31:25 = 0x00, 14:12 = 5, 6:0 = OP_IMM}     Alu    Core   "rd = rs1 >> shamt (logical)";
        Srai     "srai"      I [Xd, Xs1, Shamt]     {31:25 = 0x20, 14:12 = 5, 6:0 = OP_IMM}     Alu    Core   "rd = rs1 >> shamt (arithmetic)";
        Add      "add"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 0, 6:0 = OP}         Alu    Core   "rd = rs1 + rs2";
        Sub      "sub"       I [Xd, Xs1, Xs2]       {31:25 = 0x20, 14:12 = 0, 6:0 = OP}         Alu    Core   "rd = rs1 - rs2";
        Sll      "sll"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 1, 6:0 = OP}         Alu    Core   "rd = rs1 << rs2[4:0]";
        Slt      "slt"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 2, 6:0 = OP}         Alu    Core   "rd = rs1 < rs2 (signed) ? 1 : 0";
        Sltu     "sltu"      I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 3, 6:0 = OP}         Alu    Core   "rd = rs1 < rs2 (unsigned) ? 1 : 0";
        Xor      "xor"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 4, 6:0 = OP}         Alu    Core   "rd = rs1 ^ rs2";
        Srl      "srl"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 5, 6:0 = OP}         Alu    Core   "rd = rs1 >> rs2[4:0] (logical)";
        Sra      "sra"       I [Xd, Xs1, Xs2]       {31:25 = 0x20, 14:12 = 5, 6:0 = OP}         Alu    Core   "rd = rs1 >> rs2[4:0] (arithmetic)";
        Or       "or"        I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 6, 6:0 = OP}         Alu    Core   "rd = rs1 | rs2";
        And      "and"       I [Xd, Xs1, Xs2]       {31:25 = 0x00, 14:12 = 7, 6:0 = OP}         Alu    Core   "rd = rs1 & rs2";
        Fence    "fence"     I [Fence]              {31:28 = 0, 19:15 = 0, 14:12 = 0, 11:7 = 0, 6:0 = MISC_MEM} Fence  Core   "order memory accesses in pred before those in succ";
        FenceTso "fence.tso" I []                   {31:0 = 0x8330_000f}                        Fence  Core   "fence rw, rw with total store order";
        Ecall    "ecall"     I []                   {31:0 = 0x0000_0073}                        System Host   "host service call: service number in a7, arguments in a0..a5";
        Ebreak   "ebreak"    I []                   {31:0 = 0x0010_0073}                        System Host   "breakpoint: stops the run with a report";
        Mret     "mret"      I []                   {31:0 = 0x3020_0073}                        System Thread "return from the context-exhaustion exception: pc = mepc (niu.context_exhausted = \"swap\")";
        // ------------------------------------------------------------ Zifencei
        FenceI   "fence.i"   Zifencei []            {31:0 = 0x0000_100f}                        Fence  Core   "synchronize instruction fetch with stores";
        // --------------------------------------------------------------- Zicsr
        Csrrw    "csrrw"     Zicsr [Xd, Csr, Xs1]   {14:12 = 1, 6:0 = SYSTEM}                   Csr    Core   "t = csr; csr = rs1; rd = t";
        Csrrs    "csrrs"     Zicsr [Xd, Csr, Xs1]   {14:12 = 2, 6:0 = SYSTEM}                   Csr    Core   "t = csr; csr = t | rs1; rd = t";
        Csrrc    "csrrc"     Zicsr [Xd, Csr, Xs1]   {14:12 = 3, 6:0 = SYSTEM}                   Csr    Core   "t = csr; csr = t & ~rs1; rd = t";
        Csrrwi   "csrrwi"    Zicsr [Xd, Csr, Uimm5] {14:12 = 5, 6:0 = SYSTEM}                   Csr    Core   "rd = csr; csr = uimm5";
        Csrrsi   "csrrsi"    Zicsr [Xd, Csr, Uimm5] {14:12 = 6, 6:0 = SYSTEM}                   Csr    Core   "t = csr; csr = t | uimm5; rd = t";
        Csrrci   "csrrci"    Zicsr [Xd, Csr, Uimm5] {14:12 = 7, 6:0 = SYSTEM}                   Csr    Core   "t = csr; csr = t & ~uimm5; rd = t";
        // ---------------------------------------------------------------- RV32M
        Mul      "mul"       M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 0, 6:0 = OP}         Mul    Core   "rd = (rs1 * rs2)[31:0]";
        Mulh     "mulh"      M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 1, 6:0 = OP}         Mul    Core   "rd = (signed rs1 * signed rs2)[63:32]";
        Mulhsu   "mulhsu"    M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 2, 6:0 = OP}         Mul    Core   "rd = (signed rs1 * unsigned rs2)[63:32]";
        Mulhu    "mulhu"     M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 3, 6:0 = OP}         Mul    Core   "rd = (unsigned rs1 * unsigned rs2)[63:32]";
        Div      "div"       M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 4, 6:0 = OP}         Div    Core   "rd = rs1 / rs2 (signed; /0 = -1, overflow = rs1)";
        Divu     "divu"      M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 5, 6:0 = OP}         Div    Core   "rd = rs1 / rs2 (unsigned; /0 = all ones)";
        Rem      "rem"       M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 6, 6:0 = OP}         Div    Core   "rd = rs1 % rs2 (signed; %0 = rs1, overflow = 0)";
        Remu     "remu"      M [Xd, Xs1, Xs2]       {31:25 = 0x01, 14:12 = 7, 6:0 = OP}         Div    Core   "rd = rs1 % rs2 (unsigned; %0 = rs1)";
        // ---------------------------------------------------------------- RV32A
        LrW      "lr.w"      A [AqRl, Xd, AmoMem]        {31:27 = 0x02, 24:20 = 0, 14:12 = 2, 6:0 = AMO} Atomic Core   "rd = mem32[rs1]; reserve rs1";
        ScW      "sc.w"      A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x03, 14:12 = 2, 6:0 = AMO}    Atomic Core   "if reserved(rs1) { mem32[rs1] = rs2; rd = 0 } else { rd = 1 }";
        AmoswapW "amoswap.w" A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x01, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = rs2";
        AmoaddW  "amoadd.w"  A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x00, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = rd + rs2";
        AmoxorW  "amoxor.w"  A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x04, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = rd ^ rs2";
        AmoandW  "amoand.w"  A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x0c, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = rd & rs2";
        AmoorW   "amoor.w"   A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x08, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = rd | rs2";
        AmominW  "amomin.w"  A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x10, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = min(rd, rs2) (signed)";
        AmomaxW  "amomax.w"  A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x14, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = max(rd, rs2) (signed)";
        AmominuW "amominu.w" A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x18, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = min(rd, rs2) (unsigned)";
        AmomaxuW "amomaxu.w" A [AqRl, Xd, Xs2, AmoMem]   {31:27 = 0x1c, 14:12 = 2, 6:0 = AMO}    Atomic Core   "rd = mem32[rs1]; mem32[rs1] = max(rd, rs2) (unsigned)";
        // ---------------------------------------------------------------- RV32F
        Flw      "flw"       F [Fd, LoadMem]             {14:12 = 2, 6:0 = LOAD_FP}              Load   Core   "rd = nanbox(mem32[rs1 + imm12])";
        Fsw      "fsw"       F [Fs2, StoreMem]           {14:12 = 2, 6:0 = STORE_FP}             Store  Core   "mem32[rs1 + imm12] = rs2[31:0]";
        FmaddS   "fmadd.s"   F [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 0, 6:0 = MADD}             FpMul  Core   "rd = rs1 * rs2 + rs3 (single, one rounding)";
        FmsubS   "fmsub.s"   F [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 0, 6:0 = MSUB}             FpMul  Core   "rd = rs1 * rs2 - rs3 (single, one rounding)";
        FnmsubS  "fnmsub.s"  F [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 0, 6:0 = NMSUB}            FpMul  Core   "rd = -(rs1 * rs2) + rs3 (single, one rounding)";
        FnmaddS  "fnmadd.s"  F [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 0, 6:0 = NMADD}            FpMul  Core   "rd = -(rs1 * rs2) - rs3 (single, one rounding)";
        FaddS    "fadd.s"    F [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x00, 6:0 = OP_FP}             FpAdd  Core   "rd = rs1 + rs2 (single)";
        FsubS    "fsub.s"    F [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x04, 6:0 = OP_FP}             FpAdd  Core   "rd = rs1 - rs2 (single)";
        FmulS    "fmul.s"    F [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x08, 6:0 = OP_FP}             FpMul  Core   "rd = rs1 * rs2 (single)";
        FdivS    "fdiv.s"    F [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x0c, 6:0 = OP_FP}             FpDiv  Core   "rd = rs1 / rs2 (single)";
        FsqrtS   "fsqrt.s"   F [Fd, Fs1, Rm(DYN)]        {31:25 = 0x2c, 24:20 = 0, 6:0 = OP_FP}  FpDiv  Core   "rd = sqrt(rs1) (single)";
        FsgnjS   "fsgnj.s"   F [Fd, Fs1, Fs2]            {31:25 = 0x10, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with the sign of rs2 (single)";
        FsgnjnS  "fsgnjn.s"  F [Fd, Fs1, Fs2]            {31:25 = 0x10, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with the opposite sign of rs2 (single)";
        FsgnjxS  "fsgnjx.s"  F [Fd, Fs1, Fs2]            {31:25 = 0x10, 14:12 = 2, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with sign(rs1) ^ sign(rs2) (single)";
        FminS    "fmin.s"    F [Fd, Fs1, Fs2]            {31:25 = 0x14, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = minimumNumber(rs1, rs2) (single)";
        FmaxS    "fmax.s"    F [Fd, Fs1, Fs2]            {31:25 = 0x14, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = maximumNumber(rs1, rs2) (single)";
        FcvtWS   "fcvt.w.s"  F [Xd, Fs1, Rm(DYN)]        {31:25 = 0x60, 24:20 = 0, 6:0 = OP_FP}  FpAdd  Core   "rd = (i32) rs1 (single, saturating)";
        FcvtWuS  "fcvt.wu.s" F [Xd, Fs1, Rm(DYN)]        {31:25 = 0x60, 24:20 = 1, 6:0 = OP_FP}  FpAdd  Core   "rd = (u32) rs1 (single, saturating)";
        FmvXW    "fmv.x.w"   F [Xd, Fs1]                 {31:25 = 0x70, 24:20 = 0, 14:12 = 0, 6:0 = OP_FP} FpMisc Core   "rd = bits of rs1[31:0]";
        FeqS     "feq.s"     F [Xd, Fs1, Fs2]            {31:25 = 0x50, 14:12 = 2, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 == rs2 (single, quiet)";
        FltS     "flt.s"     F [Xd, Fs1, Fs2]            {31:25 = 0x50, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 < rs2 (single, signaling)";
        FleS     "fle.s"     F [Xd, Fs1, Fs2]            {31:25 = 0x50, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 <= rs2 (single, signaling)";
        FclassS  "fclass.s"  F [Xd, Fs1]                 {31:25 = 0x70, 24:20 = 0, 14:12 = 1, 6:0 = OP_FP} FpMisc Core   "rd = class mask of rs1 (single)";
        FcvtSW   "fcvt.s.w"  F [Fd, Xs1, Rm(DYN)]        {31:25 = 0x68, 24:20 = 0, 6:0 = OP_FP}  FpAdd  Core   "rd = (single) signed rs1";
        FcvtSWu  "fcvt.s.wu" F [Fd, Xs1, Rm(DYN)]        {31:25 = 0x68, 24:20 = 1, 6:0 = OP_FP}  FpAdd  Core   "rd = (single) unsigned rs1";
        FmvWX    "fmv.w.x"   F [Fd, Xs1]                 {31:25 = 0x78, 24:20 = 0, 14:12 = 0, 6:0 = OP_FP} FpMisc Core   "rd = nanbox(bits of rs1)";
        // ---------------------------------------------------------------- RV32D
        Fld      "fld"       D [Fd, LoadMem]             {14:12 = 3, 6:0 = LOAD_FP}              Load   Core   "rd = mem64[rs1 + imm12]";
        Fsd      "fsd"       D [Fs2, StoreMem]           {14:12 = 3, 6:0 = STORE_FP}             Store  Core   "mem64[rs1 + imm12] = rs2";
        FmaddD   "fmadd.d"   D [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 1, 6:0 = MADD}             FpMul  Core   "rd = rs1 * rs2 + rs3 (double, one rounding)";
        FmsubD   "fmsub.d"   D [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 1, 6:0 = MSUB}             FpMul  Core   "rd = rs1 * rs2 - rs3 (double, one rounding)";
        FnmsubD  "fnmsub.d"  D [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 1, 6:0 = NMSUB}            FpMul  Core   "rd = -(rs1 * rs2) + rs3 (double, one rounding)";
        FnmaddD  "fnmadd.d"  D [Fd, Fs1, Fs2, Fs3, Rm(DYN)]  {26:25 = 1, 6:0 = NMADD}            FpMul  Core   "rd = -(rs1 * rs2) - rs3 (double, one rounding)";
        FaddD    "fadd.d"    D [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x01, 6:0 = OP_FP}             FpAdd  Core   "rd = rs1 + rs2 (double)";
        FsubD    "fsub.d"    D [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x05, 6:0 = OP_FP}             FpAdd  Core   "rd = rs1 - rs2 (double)";
        FmulD    "fmul.d"    D [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x09, 6:0 = OP_FP}             FpMul  Core   "rd = rs1 * rs2 (double)";
        FdivD    "fdiv.d"    D [Fd, Fs1, Fs2, Rm(DYN)]   {31:25 = 0x0d, 6:0 = OP_FP}             FpDiv  Core   "rd = rs1 / rs2 (double)";
        FsqrtD   "fsqrt.d"   D [Fd, Fs1, Rm(DYN)]        {31:25 = 0x2d, 24:20 = 0, 6:0 = OP_FP}  FpDiv  Core   "rd = sqrt(rs1) (double)";
        FsgnjD   "fsgnj.d"   D [Fd, Fs1, Fs2]            {31:25 = 0x11, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with the sign of rs2 (double)";
        FsgnjnD  "fsgnjn.d"  D [Fd, Fs1, Fs2]            {31:25 = 0x11, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with the opposite sign of rs2 (double)";
        FsgnjxD  "fsgnjx.d"  D [Fd, Fs1, Fs2]            {31:25 = 0x11, 14:12 = 2, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 with sign(rs1) ^ sign(rs2) (double)";
        FminD    "fmin.d"    D [Fd, Fs1, Fs2]            {31:25 = 0x15, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = minimumNumber(rs1, rs2) (double)";
        FmaxD    "fmax.d"    D [Fd, Fs1, Fs2]            {31:25 = 0x15, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = maximumNumber(rs1, rs2) (double)";
        FcvtSD   "fcvt.s.d"  D [Fd, Fs1, Rm(DYN)]        {31:25 = 0x20, 24:20 = 1, 6:0 = OP_FP}  FpAdd  Core   "rd = (single) rs1";
        FcvtDS   "fcvt.d.s"  D [Fd, Fs1, Rm(RNE)]        {31:25 = 0x21, 24:20 = 0, 6:0 = OP_FP}  FpAdd  Core   "rd = (double) rs1 (exact)";
        FeqD     "feq.d"     D [Xd, Fs1, Fs2]            {31:25 = 0x51, 14:12 = 2, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 == rs2 (double, quiet)";
        FltD     "flt.d"     D [Xd, Fs1, Fs2]            {31:25 = 0x51, 14:12 = 1, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 < rs2 (double, signaling)";
        FleD     "fle.d"     D [Xd, Fs1, Fs2]            {31:25 = 0x51, 14:12 = 0, 6:0 = OP_FP}  FpMisc Core   "rd = rs1 <= rs2 (double, signaling)";
        FclassD  "fclass.d"  D [Xd, Fs1]                 {31:25 = 0x71, 24:20 = 0, 14:12 = 1, 6:0 = OP_FP} FpMisc Core   "rd = class mask of rs1 (double)";
        FcvtWD   "fcvt.w.d"  D [Xd, Fs1, Rm(DYN)]        {31:25 = 0x61, 24:20 = 0, 6:0 = OP_FP}  FpAdd  Core   "rd = (i32) rs1 (double, saturating)";
        FcvtWuD  "fcvt.wu.d" D [Xd, Fs1, Rm(DYN)]        {31:25 = 0x61, 24:20 = 1, 6:0 = OP_FP}  FpAdd  Core   "rd = (u32) rs1 (double, saturating)";
        FcvtDW   "fcvt.d.w"  D [Fd, Xs1, Rm(RNE)]        {31:25 = 0x69, 24:20 = 0, 6:0 = OP_FP}  FpAdd  Core   "rd = (double) signed rs1 (exact)";
        FcvtDWu  "fcvt.d.wu" D [Fd, Xs1, Rm(RNE)]        {31:25 = 0x69, 24:20 = 1, 6:0 = OP_FP}  FpAdd  Core   "rd = (double) unsigned rs1 (exact)";
        // ------------------------------------------------ SCMP messaging extension
        SendhT   "sendh"     Scmp [Xs1, SendType, Xs2]              {31:27 = 0, 14:12 = 0, 11:7 = 0, 6:0 = CUSTOM0} Msg    Niu    "thread header (thread: rs2 = handler) or data header (ready|rdv: rs2 = message id) to node rs1";
        SendhD   "sendh"     Scmp [Xs1, Keyword("data"), Xs2, Xs3]  {26:25 = 0, 14:12 = 1, 11:7 = 0, 6:0 = CUSTOM0} Msg    Niu    "original active-message data header to node rs1: destination address rs2, stride rs3 (words)";
        Send     "send"      Scmp [Xs1]                {31:25 = 0, 24:20 = 0, 14:12 = 2, 11:7 = 0, 6:0 = CUSTOM0} Msg    Niu    "enqueue one body flit rs1";
        Sende    "sende"     Scmp [Xs1]                {31:25 = 1, 24:20 = 0, 14:12 = 2, 11:7 = 0, 6:0 = CUSTOM0} Msg    Niu    "enqueue one tail flit rs1 (ends the message)";
        Send2    "send2"     Scmp [Xs1, Xs2]           {31:25 = 0, 14:12 = 3, 11:7 = 0, 6:0 = CUSTOM0}           Msg    Niu    "enqueue body flits rs1, rs2";
        Send2e   "send2e"    Scmp [Xs1, Xs2]           {31:25 = 1, 14:12 = 3, 11:7 = 0, 6:0 = CUSTOM0}           Msg    Niu    "enqueue body flit rs1 and tail flit rs2 (ends the message)";
        Sendm    "sendm"     Scmp [Xs1, Xs2]           {31:25 = 0, 14:12 = 4, 11:7 = 0, 6:0 = CUSTOM0}           Msg    Niu    "send count = rs2[15:0] words from address rs1, stride rs2[31:16] words";
        Sendme   "sendme"    Scmp [Xs1, Xs2]           {31:25 = 1, 14:12 = 4, 11:7 = 0, 6:0 = CUSTOM0}           Msg    Niu    "as sendm, the last word is the tail flit (ends the message)";
        Ldss     "ldss"      Scmp [Xd, Xs1]            {31:25 = 0, 24:20 = 0, 14:12 = 0, 6:0 = CUSTOM1}          Msg    Niu    "rd = state of the send-table entry for message id rs1";
        Ldsr     "ldsr"      Scmp [Xd, Xs1]            {31:25 = 0, 24:20 = 0, 14:12 = 1, 6:0 = CUSTOM1}          Msg    Niu    "rd = state of the receive-table entry for message id rs1";
        Str      "str"       Scmp [Xs1, Xs2, Xs3]      {26:25 = 0, 14:12 = 2, 11:7 = 0, 6:0 = CUSTOM1}          Msg    Niu    "post a receive: message id rs1 into address rs2 with stride rs3 (words)";
        Rms      "rms"       Scmp [Xs1]                {31:25 = 0, 24:20 = 0, 14:12 = 3, 11:7 = 0, 6:0 = CUSTOM1} Msg    Niu    "remove the send-table entry for message id rs1";
        Rmr      "rmr"       Scmp [Xs1]                {31:25 = 0, 24:20 = 0, 14:12 = 4, 11:7 = 0, 6:0 = CUSTOM1} Msg    Niu    "remove the receive-table entry for message id rs1";
        Endt     "endt"      Scmp []                   {31:0 = 0x0000_005b}                                      Thread Thread "end the current thread and free its context";
        Yield    "yield"     Scmp []                   {31:0 = 0x0000_105b}                                      Thread Thread "give the pipeline to the next ready context";
        Waits    "waits"     Scmp [Xs1]                {31:25 = 0, 24:20 = 0, 14:12 = 2, 11:7 = 0, 6:0 = CUSTOM2} Thread Niu    "suspend until the send-table entry for message id rs1 is Complete";
        Waitr    "waitr"     Scmp [Xs1]                {31:25 = 0, 24:20 = 0, 14:12 = 3, 11:7 = 0, 6:0 = CUSTOM2} Thread Niu    "suspend until the receive-table entry for message id rs1 is Complete";
        }
    };
}
