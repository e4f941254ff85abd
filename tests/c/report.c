/* For tests/report_lines.rs: a fault (and, with -DDEADLOCK, a deadlock; with
   -DLIBRARY, a deadlock in a library routine called from C) in C, which the
   run's report names by function and file:line (scmp cc -g). */
#include <scmp.h>

static volatile int *far_away = (volatile int *)0x7ffffff0;

static int load(volatile int *p) {
    return *p; /* the fault's line */
}

int main(void) {
#if defined(LIBRARY)
    static int words[2];
    SCMPReceive(SCMP_ID(2, 0, 1), words, 1); /* the library call's line: nobody sends */
    return words[0];
#elif defined(DEADLOCK)
    static int word;
    scmp_str(9, &word, 1);
    scmp_waitr(9); /* no node sends id 9 */
    return word;
#else
    return load(far_away);
#endif
}
