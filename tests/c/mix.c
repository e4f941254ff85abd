/* The C mix for the object-file tests: what gcc -O2 makes of ordinary C
 * (jump tables, doubles, strings, function pointers, data holding
 * addresses, recursion, a function long enough that a conditional branch
 * must be relaxed, thread-local data and errno: `%tprel_*`) assembled by us and by GNU as, linked by GNU ld with
 * picolibc. It prints what it computes, so a wrong image shows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct shape {
    const char *name;
    double (*area)(double);
};

static double square(double s) { return s * s; }
static double circle(double r) { return 3.141592653589793 * r * r; }

const struct shape shapes[] = {{"square", square}, {"circle", circle}};
const char *const names[] = {"zero", "one", "two", "three", "four", "five", "six"};
int counters[16];
volatile int sink;
__thread int calls = 5;  /* .tdata */
__thread int zeroed[4];  /* .tbss */

__attribute__((noinline)) int classify(int k) {
    switch (k) {
    case 0: return 11;
    case 1: return 13;
    case 2: return 17;
    case 3: return 19;
    case 4: return 23;
    case 5: return 29;
    case 6: return 31;
    default: return -1;
    }
}

__attribute__((noinline)) int fib(int n) {
    calls++;
    zeroed[n & 3]++;
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

#define STEP sink = sink * 3 + 1;
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP
#define STEP64 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8 STEP8

/* A loop whose body is more than 4 KiB of code: its back branch is out of
 * a conditional branch's reach. */
__attribute__((noinline)) int long_body(int x) {
    do {
        STEP64 STEP64 STEP64 STEP64 STEP64 STEP64
    } while (--x > 0);
    return sink;
}

int main(void) {
    char line[64];
    int total = 0;
    for (int k = 0; k < 8; k++) {
        total += classify(k);
        counters[k % 16] += k;
    }
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        printf("%s %.3f\n", shapes[i].name, shapes[i].area(2.0));
    strcpy(line, names[total % 7]);
    sink = 1;
    printf("total %d %s fib %d long %d counters %d\n", total, line, fib(15), long_body(5),
           counters[7]);
    errno = 0;
    long big = strtol("99999999999", 0, 10);
    printf("tls %d %d errno %s %ld\n", calls, zeroed[1], errno == ERANGE ? "ERANGE" : "other", big);
    return 0;
}
