/* files.c: file I/O through semihosting (tests/c_files.rs). Writes a file
 * with stdio and reads it back, then with open/write/lseek/read/close,
 * then tries paths that would leave the granted directory (argv[1] names
 * one outside it) and expects each to fail with EACCES. Prints one line a
 * step; the test checks them and the files on the host. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    FILE *f = fopen("out.txt", "w");
    if (!f) {
        printf("fopen w: errno %d\n", errno);
        return 1;
    }
    fprintf(f, "line %d\nline %d\n", 1, 2);
    fclose(f);
    char buf[64] = {0};
    f = fopen("out.txt", "r");
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    printf("stdio read %u: %s", (unsigned)n, buf);

    int fd = open("sub/raw.bin", O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        printf("open raw: errno %d\n", errno);
        return 1;
    }
    write(fd, "0123456789", 10);
    lseek(fd, 3, SEEK_SET);
    write(fd, "abc", 3);
    off_t end = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    memset(buf, 0, sizeof buf);
    ssize_t r = read(fd, buf, sizeof buf - 1);
    close(fd);
    printf("raw %d %d: %s\n", (int)end, (int)r, buf);

    f = fopen("given.txt", "r");
    memset(buf, 0, sizeof buf);
    if (f) {
        fgets(buf, sizeof buf, f);
        fclose(f);
    }
    printf("given: %s", f ? buf : "(none)\n");

    const char *escapes[] = {"../escape.txt", "sub/../../escape.txt", "/tmp/escape.txt",
                             "outside/escape.txt", argc > 1 ? argv[1] : "/x"};
    for (unsigned i = 0; i < sizeof escapes / sizeof *escapes; i++) {
        errno = 0;
        f = fopen(escapes[i], "w");
        printf("escape %s: %s errno %d\n", escapes[i], f ? "OPENED" : "refused", errno);
        if (f)
            fclose(f);
    }
    errno = 0;
    f = fopen("missing.txt", "r");
    printf("missing: %s errno %d\n", f ? "OPENED" : "absent", errno);
    return 0;
}
