/* A C program with a real C library (picolibc, semihosting): formatted
 * output, libm, the heap, stdin, program arguments, stderr and the exit
 * status. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    printf("argc %d:", argc);
    for (int i = 1; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\nsqrt(2) = %.15f, sin(1) = %.6f\n", sqrt(2.0), sin(1.0));
    double *v = malloc(1000 * sizeof *v);
    if (!v)
        return 1;
    double sum = 0;
    for (int i = 0; i < 1000; i++)
        v[i] = i * 0.5;
    for (int i = 0; i < 1000; i++)
        sum += v[i];
    free(v);
    printf("sum %g, %08x, %-5s|\n", sum, 0xbeef, "ok");
    char line[64];
    if (fgets(line, sizeof line, stdin))
        printf("read %u bytes: %s", (unsigned)strlen(line), line);
    fprintf(stderr, "to stderr\n");
    return 3;
}
