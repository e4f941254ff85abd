# Floating point: single and double arithmetic, fused multiply-add, every
# rounding mode (static and dynamic through frm), accrued fflags, NaN boxing
# and the canonical NaN, min/max with -0 and NaN, saturating conversions,
# classification; results printed as raw bits and with print_double.
# run: mesh=1x1
    .text
    .globl _start
_start:
    la s1, data
    fld fs0, 0(s1)          # 1.0
    fld fs1, 8(s1)          # 3.0
    fdiv.d fa0, fs0, fs1    # 1/3
    call pd
    fsflags zero
    fdiv.d ft0, fs0, fs1, rup
    fmv.d fa0, ft0
    call pd
    frflags a0              # NX
    call ph
    fsrmi 2                 # frm = rdn
    fdiv.d fa0, fs0, fs1    # dynamic: rounds down
    call pd
    frrm a0
    call ph
    fsrmi 0
    flw ft1, 16(s1)         # 2.0f
    flw ft2, 20(s1)         # 0.1f
    fmadd.s ft3, ft1, ft2, ft1   # 2 * 0.1 + 2
    fmv.x.w a0, ft3
    call ph
    fcvt.d.s fa0, ft3
    call pd
    fsflags zero
    fsqrt.d fa0, fs1        # sqrt 3
    call pd
    fcvt.w.d a0, fa0, rtz   # 1
    call ph
    fld ft4, 24(s1)         # -0.0
    fmin.d fa0, fs0, ft4
    call pd
    fmin.d fa0, ft4, ft0    # -0.0 < 1/3
    call pd
    fcvt.s.w ft5, zero
    fdiv.s ft5, ft5, ft5    # 0/0 = canonical NaN, NV
    fmv.x.w a0, ft5
    call ph
    frflags a0
    call ph
    fmax.s ft6, ft5, ft1    # NaN operand: the other one
    fmv.x.w a0, ft6
    call ph
    fsflags zero
    fld ft7, 32(s1)         # 1e10
    fcvt.w.d a0, ft7        # saturates at 0x7fffffff, NV
    call ph
    fcvt.wu.d a0, ft4       # -0.0 -> 0, no flag
    call ph
    frflags a0
    call ph
    fclass.s a0, ft5        # quiet NaN
    call ph
    fmv.d ft8, fs0          # a double in a register read as a single:
    fadd.s ft9, ft8, ft1    # improperly boxed, so NaN
    fmv.x.w a0, ft9
    call ph
    li t0, -3
    fcvt.d.w fa0, t0
    call pd
    fcvt.s.wu ft10, t0      # 4294967293 rounds to 4294967296
    fcvt.d.s fa0, ft10
    call pd
    fld fa1, 40(s1)         # 2.5
    fcvt.w.d a0, fa1, rne   # 2
    call ph
    fcvt.w.d a0, fa1, rmm   # 3
    call ph
    feq.d a0, fs0, fs0
    call ph
    flt.d a0, fs1, fs0
    call ph
    li a0, 0
    li a7, 93
    ecall

pd: li a7, 0x5c04           # print_double fa0
    ecall
    j nl
ph: li a7, 0x5c01           # print_hex a0
    ecall
nl: li a0, 10
    li a7, 0x5c02
    ecall
    ret

    .data
    .align 3
data:
    .double 1.0, 3.0
    .float 2.0, 0.1
    .double -0.0, 1e10, 2.5
