/* Three files, each with a file-scope `static int count;`: at -O0 gcc writes
   `.local count` then `.comm count,4,4`, which must stay three variables
   (tests/c_programs.rs, `file_statics_stay_apart_at_o0`). */
#include <stdio.h>

static int count;
int a_bump(int times);
int b_bump(int times);

int main(void) {
    for (int i = 0; i < 1000; i++)
        count++;
    int a = a_bump(2);
    int b = b_bump(10);
    printf("a=%d b=%d n=%d\n", a, b, count);
    return 0;
}
