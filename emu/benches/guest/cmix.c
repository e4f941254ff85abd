/* The C mix of the throughput benchmark: a linked-list walk, integer and
   double 16x16 matrix products, CRC-32 over a buffer, and a parser state
   machine (a tokenizer summing the numbers of an expression text), each
   repeated, then an exit code folded from every part's checksum so that
   every simulator provably computed the same.

   PARTS (a bit mask: 1 list, 2 int matmul, 4 double matmul, 8 CRC,
   16 parser) selects what runs; REPEAT the repetitions. */
#include "exit.h"

#ifndef PARTS
#define PARTS 31
#endif
#ifndef REPEAT
#define REPEAT 2100
#endif

#define N 16
#define NODES 2048
#define BUF 4096

struct node {
    struct node *next;
    int value;
};

static struct node nodes[NODES];
static int ia[N][N], ib[N][N], ic[N][N];
static double da[N][N], db[N][N], dc[N][N];
static unsigned char buf[BUF];
static unsigned crc_table[256];
static char text[BUF];

static unsigned rng_state = 12345;
static unsigned rng(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

static void setup(void) {
    /* The list in a scrambled order, so the walk jumps around memory. */
    for (int i = 0; i < NODES; i++) nodes[i].value = (int)(rng() & 0xffff);
    int order[NODES];
    for (int i = 0; i < NODES; i++) order[i] = i;
    for (int i = NODES - 1; i > 0; i--) {
        int j = (int)(rng() % (unsigned)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int i = 0; i < NODES - 1; i++) nodes[order[i]].next = &nodes[order[i + 1]];
    nodes[order[NODES - 1]].next = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ia[i][j] = (int)(rng() % 200) - 100;
            ib[i][j] = (int)(rng() % 200) - 100;
            da[i][j] = (double)(int)(rng() % 2000 - 1000) / 256.0;
            db[i][j] = (double)(int)(rng() % 2000 - 1000) / 300.0;
        }
    for (int i = 0; i < BUF; i++) buf[i] = (unsigned char)rng();
    for (unsigned i = 0; i < 256; i++) {
        unsigned c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
    /* An expression text: numbers, identifiers, operators, spaces. */
    static const char *const pieces[] = {"12", "+", "foo", " ", "345", "*", "(", "x7",
                                         ")", "-", "6789", "  ", "bar_2", "/", "0", ","};
    int t = 0;
    while (t < BUF - 8) {
        const char *p = pieces[rng() % 16];
        while (*p && t < BUF - 1) text[t++] = *p++;
    }
    text[t] = 0;
}

static unsigned list_walk(void) {
    unsigned sum = 0;
    for (struct node *n = &nodes[0]; n; n = n->next) sum += (unsigned)n->value ^ (sum >> 3);
    return sum;
}

static unsigned int_matmul(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++) s += ia[i][k] * ib[k][j];
            ic[i][j] = s;
        }
    /* Feed the result back so that repetitions differ. */
    ia[0][0] = ic[N - 1][N - 1] & 0xff;
    return (unsigned)ic[3][5];
}

static unsigned double_matmul(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++) s += da[i][k] * db[k][j];
            dc[i][j] = s;
        }
    da[0][0] = dc[N - 1][N - 1] / 1024.0;
    return (unsigned)(int)(dc[2][7] * 16.0);
}

static unsigned crc32(void) {
    unsigned c = 0xffffffffu;
    for (int i = 0; i < BUF; i++) c = crc_table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
    buf[0] ^= (unsigned char)c;
    return ~c;
}

enum state { SPACE, NUMBER, IDENT, OTHER };

static unsigned parse(void) {
    enum state st = SPACE;
    unsigned value = 0, sum = 0, idents = 0, ops = 0, depth = 0;
    for (const char *p = text; *p; p++) {
        char ch = *p;
        switch (st) {
        case NUMBER:
            if (ch >= '0' && ch <= '9') {
                value = value * 10 + (unsigned)(ch - '0');
                continue;
            }
            sum += value;
            break;
        case IDENT:
            if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_') continue;
            idents++;
            break;
        default:
            break;
        }
        if (ch >= '0' && ch <= '9') {
            st = NUMBER;
            value = (unsigned)(ch - '0');
        } else if ((ch >= 'a' && ch <= 'z') || ch == '_') {
            st = IDENT;
        } else if (ch == ' ') {
            st = SPACE;
        } else {
            st = OTHER;
            if (ch == '(') depth++;
            else if (ch == ')') depth--;
            else ops++;
        }
    }
    return sum ^ (idents << 16) ^ (ops << 8) ^ depth;
}

static unsigned run(void) {
    unsigned check = 0;
    for (int r = 0; r < REPEAT; r++) {
        if (PARTS & 1) check = check * 31 + list_walk();
        if (PARTS & 2) check = check * 31 + int_matmul();
        if (PARTS & 4) check = check * 31 + double_matmul();
        if (PARTS & 8) check = check * 31 + crc32();
        if (PARTS & 16) check = check * 31 + parse();
    }
    return check;
}

GUEST_ENTRY

void __attribute__((noreturn)) guest_main(void) {
    setup();
    unsigned c = run();
    guest_exit((c ^ (c >> 8) ^ (c >> 16) ^ (c >> 24)) & 0xff);
}
