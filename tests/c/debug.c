/* For tests/gdb_source.rs: stepped at source level in gdb-multiarch. */
#include <scmp.h>
#include <stdio.h>

static int add(int a, int b) {
    int sum = a + b;
    return sum;
}

int main(void) {
    int total = 0;
    for (int i = 1; i <= 3; i++)
        total = add(total, i);
    printf("total %d on node %d\n", total, scmp_node_id());
    return 0;
}
