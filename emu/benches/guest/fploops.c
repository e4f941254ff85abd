/* FP micro-loops of the throughput benchmark: ITERATIONS times eight of
   one double operation (OP: 1 fadd.d, 2 fmul.d, 3 fmadd.d, 4 fdiv.d) on
   four accumulators, values kept normal and the results inexact (the
   common case of real code), then an exit code from the accumulators. */
#include "exit.h"

#ifndef OP
#define OP 1
#endif
#ifndef ITERATIONS
#define ITERATIONS 2000000
#endif

#if OP == 1
#define STEP(r) "fadd.d " r ", " r ", %4\n"
#define K 1e-7
#define M 0.0
#elif OP == 2
/* Times k, then times about 1/k: the accumulators stay near their start. */
#define STEP(r) "fmul.d " r ", " r ", %4\nfmul.d " r ", " r ", %5\n"
#define K 1.0000001
#define M 0.99999990000001
#elif OP == 3
/* x = x * k + m converges to m / (1 - k) = 1000, inexactly. */
#define STEP(r) "fmadd.d " r ", " r ", %4, %5\n"
#define K 0.999999
#define M 1e-3
#else
/* x = k / x alternates between x and k / x. */
#define STEP(r) "fdiv.d " r ", %4, " r "\n"
#define K 3.0
#define M 0.0
#endif

#if OP == 2
#define EIGHT STEP("%0") STEP("%1") STEP("%2") STEP("%3")
#else
#define EIGHT STEP("%0") STEP("%1") STEP("%2") STEP("%3") STEP("%0") STEP("%1") STEP("%2") STEP("%3")
#endif

GUEST_ENTRY

void __attribute__((noreturn)) guest_main(void) {
    double a = 1.0, b = 1.25, c = 1.5, d = 1.75;
    double k = K, m = M;
    for (unsigned i = ITERATIONS; i; i--)
        __asm__ volatile(EIGHT : "+f"(a), "+f"(b), "+f"(c), "+f"(d) : "f"(k), "f"(m));
    guest_exit((unsigned)(int)(a + b + c + d) & 0xff);
}
