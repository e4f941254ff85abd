/* C names that are also RISC-V register names: gcc writes `call f1`,
   `tail zero`, `lla s1, ...`, `lw a5, s4` for them, and `call f1@plt` with
   -fPIC. GNU as reads a name by its position, and so must we
   (tests/gnu_objects.rs compares the objects). */
int s4 = 5;
static int s1[4] = {1, 2, 3, 4};

__attribute__((noinline)) int f1(int x) { return x + s4; }
__attribute__((noinline)) int zero(void) { return s1[0] - 1; }
__attribute__((noinline)) int ra(int x) { return f1(x) * 2 + zero(); }
__attribute__((noinline)) int t1(int x) { return ra(x) + s1[x & 3]; }
__attribute__((noinline)) double fa0(double d) { return d * 2.0; }
int a0(int x) { return t1(x) + (int)fa0((double)x) + zero(); }
