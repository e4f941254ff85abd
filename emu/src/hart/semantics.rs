//! The core's operations, written once: [`for_each_op!`] is the table of
//! the operations that the two dispatchers share (its rows name the
//! instruction, the form it takes and its semantics function), and the
//! functions below are those semantics, on plain values.
//!
//! A form says how an operation reads its operands and where its result
//! goes (`rd = f(rs1, rs2)`, a load of a width, a conditional branch...).
//! Each dispatcher implements each form once: the careful step
//! (`execute`: any instruction, with its trace effects and its exact fault)
//! and the fast loop (`fast`: its threaded handlers, which give an
//! instruction they cannot complete back to the careful step). The fast
//! loop's operations (`decode::FastOp`), the predecoder's choice among
//! them, the careful step's dispatch and the fast loop's handler table are
//! all generated from the table. Adding an instruction of an existing form
//! is a row in the instruction table (`isa_spec::for_each_instruction`),
//! a row here and its function.
//!
//! The instructions of their own form that both dispatchers run inline
//! (the jumps' targets and links, `sc.w`'s result, the FP loads' and
//! stores' values, `fsgnj*.d`, `fmv`, `fcvt.d.w[u]`, `feq`/`flt`/`fle.d`)
//! are functions here too, at the end, which both call. Those that
//! reach memory, the reservations or the next instruction (`jal`, `jalr`,
//! `lr.w`, `sc.w`) are written once generic over [`Reach`], which each
//! dispatcher implements its own way. The rest (`lui`/`auipc`, fences, CSR accesses, the other F and
//! D instructions) run one code for both (`context_ops`, or a constant
//! predecoded). The rounded F and D arithmetic is here as rows, its
//! functions are the soft `fpu` (the reference) and, in the fast loop, the
//! host's FPU where it agrees bit for bit (`hardfloat`).

/// Calls `$callback! { rows: [Form Op(args), ...] }` with the table of the
/// core's operations (after any tokens given after the callback's name):
/// every row in one shape, its form (`decode::Form`), its instruction
/// (`isa_spec::CoreOp`, `Opcode`) and the form's arguments. A callback
/// takes the rows as `$($form:ident $op:ident $args:tt,)*` and hands each
/// row's form and arguments to a macro of its own with a rule per form it
/// implements, so that a new form is rows here, a `Form` variant and its
/// rule in each dispatcher (`execute`, `fast/step.rs`). The forms:
/// - `AluRr(f)`: `rd = f(rs1, rs2)`;
/// - `AluRi(f)`: `rd = f(rs1, imm)`;
/// - `Branch(f)`: the pc goes to the target when `f(rs1, rs2)`;
/// - `Load(width f)`: `rd = f(mem[rs1 + imm])` of an unsigned width;
/// - `Store(width)`: `mem[rs1 + imm] = rs2` truncated to a width;
/// - `Amo(f)`: `rd = mem[rs1]; mem[rs1] = f(rd, rs2)` (a word);
/// - `FpArith(SoftFormat HostType Arith)`: `frd = op(frs1, frs2, frs3)`
///   rounded in a format;
/// - `FpSqrt(SoftFormat HostType)`: `frd = sqrt(frs1)` rounded.
///
/// Every instruction of a form is here, and an operation appears once:
/// the immediate forms share their function with the register forms. The
/// rows are written grouped by form; the second rule flattens them.
macro_rules! for_each_op {
    ($callback:ident $($before:tt)*) => {
        $crate::hart::semantics::for_each_op! {
            @rows $callback [$($before)*]
            AluRr: [
                Add(add), Sub(sub), Sll(sll), Slt(slt), Sltu(sltu), Xor(xor), Srl(srl),
                Sra(sra), Or(or), And(and), Mul(mul), Mulh(mulh), Mulhsu(mulhsu),
                Mulhu(mulhu), Div(div), Divu(divu), Rem(rem), Remu(remu),
            ],
            AluRi: [
                Addi(add), Slti(slt), Sltiu(sltu), Xori(xor), Ori(or), Andi(and),
                Slli(sll), Srli(srl), Srai(sra),
            ],
            Branch: [Beq(eq), Bne(ne), Blt(lt), Bge(ge), Bltu(ltu), Bgeu(geu)],
            Load: [Lb(u8 lb), Lh(u16 lh), Lw(u32 lw), Lbu(u8 lbu), Lhu(u16 lhu)],
            Store: [Sb(u8), Sh(u16), Sw(u32)],
            Amo: [
                AmoswapW(swap), AmoaddW(add), AmoxorW(xor), AmoandW(and), AmoorW(or),
                AmominW(min), AmomaxW(max), AmominuW(minu), AmomaxuW(maxu),
            ],
            FpArith: [
                FaddS(Single f32 Add), FsubS(Single f32 Sub), FmulS(Single f32 Mul),
                FdivS(Single f32 Div), FmaddS(Single f32 Madd), FmsubS(Single f32 Msub),
                FnmsubS(Single f32 Nmsub), FnmaddS(Single f32 Nmadd),
                FaddD(Double f64 Add), FsubD(Double f64 Sub), FmulD(Double f64 Mul),
                FdivD(Double f64 Div), FmaddD(Double f64 Madd), FmsubD(Double f64 Msub),
                FnmsubD(Double f64 Nmsub), FnmaddD(Double f64 Nmadd),
            ],
            FpSqrt: [FsqrtS(Single f32), FsqrtD(Double f64)],
        }
    };
    (@rows $callback:ident [$($before:tt)*]
        $($form:ident: [$($op:ident $args:tt),* $(,)?]),* $(,)?) => {
        $callback! { $($before)* rows: [$($($form $op $args,)*)*] }
    };
}
pub(crate) use for_each_op;

// Integer results (`alu_rr`, `alu_ri`; shifts use the low five bits).

/// `rs1 + rs2` (`add`, `addi`).
#[inline(always)]
pub fn add(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

/// `rs1 - rs2`.
#[inline(always)]
pub fn sub(a: u32, b: u32) -> u32 {
    a.wrapping_sub(b)
}

/// Shift left (`sll`, `slli`).
#[inline(always)]
pub fn sll(a: u32, b: u32) -> u32 {
    a << (b & 31)
}

/// Logical shift right (`srl`, `srli`).
#[inline(always)]
pub fn srl(a: u32, b: u32) -> u32 {
    a >> (b & 31)
}

/// Arithmetic shift right (`sra`, `srai`).
#[inline(always)]
pub fn sra(a: u32, b: u32) -> u32 {
    ((a as i32) >> (b & 31)) as u32
}

/// Signed less-than, 1 or 0 (`slt`, `slti`).
#[inline(always)]
pub fn slt(a: u32, b: u32) -> u32 {
    ((a as i32) < b as i32) as u32
}

/// Unsigned less-than (`sltu`, `sltiu`: the immediate sign-extended first).
#[inline(always)]
pub fn sltu(a: u32, b: u32) -> u32 {
    (a < b) as u32
}

/// `xor`, `xori`.
#[inline(always)]
pub fn xor(a: u32, b: u32) -> u32 {
    a ^ b
}

/// `or`, `ori`.
#[inline(always)]
pub fn or(a: u32, b: u32) -> u32 {
    a | b
}

/// `and`, `andi`.
#[inline(always)]
pub fn and(a: u32, b: u32) -> u32 {
    a & b
}

/// The low word of the product.
#[inline(always)]
pub fn mul(a: u32, b: u32) -> u32 {
    a.wrapping_mul(b)
}

/// The high word of the signed product.
#[inline(always)]
pub fn mulh(a: u32, b: u32) -> u32 {
    ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
}

/// The high word of signed `rs1` times unsigned `rs2`.
#[inline(always)]
pub fn mulhsu(a: u32, b: u32) -> u32 {
    ((a as i32 as i64 * b as i64) >> 32) as u32
}

/// The high word of the unsigned product.
#[inline(always)]
pub fn mulhu(a: u32, b: u32) -> u32 {
    ((a as u64 * b as u64) >> 32) as u32
}

/// Signed quotient: all ones for a division by zero, `rs1` on overflow.
#[inline(always)]
pub fn div(a: u32, b: u32) -> u32 {
    if b == 0 {
        u32::MAX
    } else {
        (a as i32).wrapping_div(b as i32) as u32
    }
}

/// Unsigned quotient: all ones for a division by zero.
#[inline(always)]
pub fn divu(a: u32, b: u32) -> u32 {
    a.checked_div(b).unwrap_or(u32::MAX)
}

/// Signed remainder: `rs1` for a division by zero, 0 on overflow.
#[inline(always)]
pub fn rem(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        (a as i32).wrapping_rem(b as i32) as u32
    }
}

/// Unsigned remainder: `rs1` for a division by zero.
#[inline(always)]
pub fn remu(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { a % b }
}

// Branch conditions.

/// `beq`.
#[inline(always)]
pub fn eq(a: u32, b: u32) -> bool {
    a == b
}

/// `bne`.
#[inline(always)]
pub fn ne(a: u32, b: u32) -> bool {
    a != b
}

/// `blt` (signed).
#[inline(always)]
pub fn lt(a: u32, b: u32) -> bool {
    (a as i32) < b as i32
}

/// `bge` (signed).
#[inline(always)]
pub fn ge(a: u32, b: u32) -> bool {
    (a as i32) >= b as i32
}

/// `bltu`.
#[inline(always)]
pub fn ltu(a: u32, b: u32) -> bool {
    a < b
}

/// `bgeu`.
#[inline(always)]
pub fn geu(a: u32, b: u32) -> bool {
    a >= b
}

// Loaded values into a register.

/// A byte, sign-extended.
#[inline(always)]
pub fn lb(v: u8) -> u32 {
    v as i8 as u32
}

/// A halfword, sign-extended.
#[inline(always)]
pub fn lh(v: u16) -> u32 {
    v as i16 as u32
}

/// A word.
#[inline(always)]
pub fn lw(v: u32) -> u32 {
    v
}

/// A byte, zero-extended.
#[inline(always)]
pub fn lbu(v: u8) -> u32 {
    v as u32
}

/// A halfword, zero-extended.
#[inline(always)]
pub fn lhu(v: u16) -> u32 {
    v as u32
}

// The values AMOs store, from the old value and rs2 (`add`, `xor`, `and`
// and `or` are the ALU's).

/// `amoswap.w`: rs2.
#[inline(always)]
pub fn swap(_old: u32, b: u32) -> u32 {
    b
}

/// `amomin.w`: the signed minimum.
#[inline(always)]
pub fn min(a: u32, b: u32) -> u32 {
    (a as i32).min(b as i32) as u32
}

/// `amomax.w`: the signed maximum.
#[inline(always)]
pub fn max(a: u32, b: u32) -> u32 {
    (a as i32).max(b as i32) as u32
}

/// `amominu.w`.
#[inline(always)]
pub fn minu(a: u32, b: u32) -> u32 {
    a.min(b)
}

/// `amomaxu.w`.
#[inline(always)]
pub fn maxu(a: u32, b: u32) -> u32 {
    a.max(b)
}

// The operations of their own form that both dispatchers run: each is one
// function here, which the careful step (`execute`, `context_ops`) and the
// fast loop (`fast/step.rs`, `decode/fast_entry.rs`) call. What differs
// between them is only how they reach memory and the next instruction.

/// `jal`'s target: the pc plus the offset (the caller checks alignment).
#[inline(always)]
pub fn jal_target(pc: u32, offset: u32) -> u32 {
    pc.wrapping_add(offset)
}

/// `jalr`'s target: `rs1 + imm` with bit 0 cleared (the caller checks
/// alignment).
#[inline(always)]
pub fn jalr_target(rs1: u32, imm: u32) -> u32 {
    rs1.wrapping_add(imm) & !1
}

/// The link a jump writes into `rd`: the address after it.
#[inline(always)]
pub fn link(pc: u32) -> u32 {
    pc.wrapping_add(4)
}

/// `sc.w`'s result in `rd`: 0 when it stored, 1 when the reservation was
/// lost.
#[inline(always)]
pub fn sc_result(stored: bool) -> u32 {
    !stored as u32
}

/// `flw`: the loaded word, NaN-boxed into the 64-bit register.
#[inline(always)]
pub fn flw(word: u32) -> u64 {
    crate::hart::fpu::box_s(word)
}

/// `fsw`: the word stored, the register's low half (`fld` and `fsd` move
/// the 64 bits unchanged).
#[inline(always)]
pub fn fsw(reg: u64) -> u32 {
    reg as u32
}

/// `fsgnj.d`: `rs1`'s magnitude with `rs2`'s sign.
#[inline(always)]
pub fn fsgnj_d(a: u64, b: u64) -> u64 {
    crate::hart::fpu::sign_inject(64, 0, a, b)
}

/// `fsgnjn.d`: `rs1`'s magnitude with the opposite of `rs2`'s sign.
#[inline(always)]
pub fn fsgnjn_d(a: u64, b: u64) -> u64 {
    crate::hart::fpu::sign_inject(64, 1, a, b)
}

/// `fsgnjx.d`: `rs1` with its sign xor `rs2`'s.
#[inline(always)]
pub fn fsgnjx_d(a: u64, b: u64) -> u64 {
    crate::hart::fpu::sign_inject(64, 2, a, b)
}

/// `fmv.x.w`: the register's low word, as bits.
#[inline(always)]
pub fn fmv_x_w(reg: u64) -> u32 {
    reg as u32
}

/// `fmv.w.x`: the word as a single's bits, NaN-boxed.
#[inline(always)]
pub fn fmv_w_x(x: u32) -> u64 {
    crate::hart::fpu::box_s(x)
}

/// `fcvt.d.w`: exact in a double (no rounding, no flags), under any valid
/// rounding mode.
#[inline(always)]
pub fn fcvt_d_w(x: u32) -> u64 {
    (x as i32 as f64).to_bits()
}

/// `fcvt.d.wu`: exact, as `fcvt.d.w`.
#[inline(always)]
pub fn fcvt_d_wu(x: u32) -> u64 {
    (x as f64).to_bits()
}

/// `feq.d`, `flt.d`, `fle.d` on two doubles that are not NaN (`None` when
/// one is: then `fpu::compare` decides, with its flags). Ordered compares
/// of numbers raise no flag.
#[inline(always)]
pub fn fcmp_d(cmp: crate::hart::fpu::Compare, a: u64, b: u64) -> Option<u32> {
    use crate::hart::fpu::Compare;
    let (x, y) = (f64::from_bits(a), f64::from_bits(b));
    if x.is_nan() || y.is_nan() {
        return None;
    }
    Some(match cmp {
        Compare::Eq => x == y,
        Compare::Lt => x < y,
        Compare::Le => x <= y,
    } as u32)
}

/// What the operations of control flow and reservation need of a
/// dispatcher: how it writes `rd`, reaches the next instruction, memory and
/// the reservations. Each such operation is one function below, generic
/// over it, which both dispatchers call (the careful step with its pc,
/// faults and trace effects; the fast loop with its table's entries, giving
/// the instruction back to the careful step when it cannot complete), as
/// Pulley's interpreter has one method per operation for its two loops.
/// Every method is inlined: a dispatcher's code is as if written in place.
pub trait Reach {
    /// Where the dispatcher goes after a control transfer (the careful
    /// step: the next pc; the fast loop: an entry of its table).
    type To;
    /// Why an operation cannot complete (the careful step: a fault; the
    /// fast loop: the careful step runs it, nothing having changed).
    type Stop;
    /// The instruction's address.
    fn pc(&self) -> u32;
    /// Writes `rd` (a dispatcher that knows `rd` is `x0` may skip it).
    fn write_rd(&mut self, v: u32);
    /// Where `jal` goes, aligned and reachable: `jal_target` of its pc and
    /// offset (the fast loop's entry holds it, predecoded).
    fn jal_to(&mut self) -> Result<Self::To, Self::Stop>;
    /// Where a computed target goes, when it is aligned and reachable.
    fn land(&mut self, target: u32) -> Result<Self::To, Self::Stop>;
    /// The aligned word at `addr` (`lr.w`'s load).
    fn load_word(&mut self, addr: u32) -> Result<u32, Self::Stop>;
    /// Reserves the word at `addr` for this context.
    fn reserve(&mut self, addr: u32);
    /// Whether a word may be stored at `addr` (`sc.w` checks it whether it
    /// stores or not).
    fn check_store_word(&mut self, addr: u32) -> Result<(), Self::Stop>;
    /// Takes this context's reservation of `addr`: whether it held one.
    fn take_reservation(&mut self, addr: u32) -> bool;
    /// Stores a word at `addr` (checked), breaking the reservations on it.
    fn store_word(&mut self, addr: u32, v: u32) -> Result<(), Self::Stop>;
}

/// `jal`: to the target, the link into `rd`.
#[inline(always)]
pub fn jal<R: Reach>(r: &mut R) -> Result<R::To, R::Stop> {
    let to = r.jal_to()?;
    r.write_rd(link(r.pc()));
    Ok(to)
}

/// `jalr`: to `rs1 + imm` with bit 0 cleared (`rs1` read before `rd` is
/// written: they may be one register), the link into `rd`.
#[inline(always)]
pub fn jalr<R: Reach>(r: &mut R, rs1: u32, imm: u32) -> Result<R::To, R::Stop> {
    let to = r.land(jalr_target(rs1, imm))?;
    r.write_rd(link(r.pc()));
    Ok(to)
}

/// `lr.w`: `rd` = the word at `rs1`, reserved.
#[inline(always)]
pub fn lr_w<R: Reach>(r: &mut R, rs1: u32) -> Result<(), R::Stop> {
    let v = r.load_word(rs1)?;
    r.reserve(rs1);
    r.write_rd(v);
    Ok(())
}

/// `sc.w`: stores `rs2` at `rs1` when this context's reservation of it
/// holds; `rd` = 0 when it stored, 1 when not. Whether it stored.
#[inline(always)]
pub fn sc_w<R: Reach>(r: &mut R, rs1: u32, rs2: u32) -> Result<bool, R::Stop> {
    r.check_store_word(rs1)?;
    let stored = r.take_reservation(rs1);
    if stored {
        r.store_word(rs1, rs2)?;
    }
    r.write_rd(sc_result(stored));
    Ok(stored)
}

/// Whether a core operation is an F or D instruction (the instruction
/// table's extension): the careful step hands these to `execute_fp`, the
/// predecoder to the fast loop's FP entries.
#[inline(always)]
pub fn is_fd(op: isa_spec::CoreOp) -> bool {
    FD[op as usize]
}

/// [`is_fd`] of every core operation, by `CoreOp as usize`, computed when
/// compiling (a byte load where the careful step asks).
const FD: [bool; isa_spec::CoreOp::ALL.len()] = {
    let mut fd = [false; isa_spec::CoreOp::ALL.len()];
    let mut i = 0;
    while i < fd.len() {
        fd[i] = matches!(
            isa_spec::CoreOp::ALL[i].opcode().extension(),
            isa_spec::Extension::F | isa_spec::Extension::D
        );
        i += 1;
    }
    fd
};
