/* For tests/report_lines.rs: a deadlock three calls deep (main -> outer ->
   middle -> inner, which waits for a message no node sends; with -DFAULT, a
   load past memory there instead). The report lists each caller by function
   and file:line, from the unwind table scmp cc -g writes. */
#include <scmp.h>

static int word;
static volatile int *far_away = (volatile int *)0x7ffffff0;

__attribute__((noinline)) static int inner(int id) {
#if defined(FAULT)
    return *far_away + id; /* inner faults here */
#else
    scmp_str(id, &word, 1);
    scmp_waitr(id); /* inner waits here */
    return word;
#endif
}

__attribute__((noinline)) static int middle(int id) {
    return inner(id + 1) + 1; /* middle calls inner */
}

__attribute__((noinline)) static int outer(int id) {
    return middle(id * 2) + 2; /* outer calls middle */
}

int main(void) {
    return outer(4) == 0; /* main calls outer */
}
