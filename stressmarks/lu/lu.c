/* lu.c: the LU stressmark (SPLASH-2's blocked LU without pivoting;
 * docs/stressmarks-spec.md section 5, thesis 6.3) in C, one source for both
 * designs: active messages (`scmp cc --model am`, original NIU) and
 * send-and-receive (`--model sr`, modified NIU; Rendezvous mode, or Ready
 * mode with -DLU_READY=1). docs/c-stressmarks.md compares it with the
 * assembly versions (lu_am.s, lu_sr.s):
 *
 *   scmp cc --model am -O2 stressmarks/lu/lu.c -DLU_N=64 -DLU_B=8 -o lu_am.elf
 *   scmp run lu_am.elf --mesh 4x4 --boot all --niu original
 *
 * Parameters (-D): LU_N, the matrix side (512), LU_B, the block side (16),
 * LU_READY (0: Rendezvous; 1: Ready mode with the thesis's barrier after
 * the receives are posted), LU_PRINT_MATRIX (1 up to n = 64: print the
 * factored matrix for the bit-for-bit check).
 *
 * Every tile generates the whole matrix with lrand48 (SPLASH-2's InitA) and
 * keeps its blocks: block (I, J) belongs to tile (J mod W, I mod H), the
 * 2-D scatter with the mesh as the processor grid (6.3.1). For each K:
 *
 * AM, as 6.3.1 describes: "nodes request the diagonal block and perimeter
 * blocks by creating threads on the nodes that own these blocks", with
 * barriers "to separate diagonal block request periods from perimeter
 * block request periods, as well as to separate each iteration from the
 * next". The owner of D = A_KK factors it; barrier; the perimeter owners
 * request D (getBlock) and divide; barrier; every tile walks its interior
 * blocks and requests each block it needs when it first needs it (one
 * getBlock, the thesis's blocking form: a request per needed block, each
 * block once per iteration), updating A_IJ -= L_IK U_KJ; barrier.
 *
 * SR: "nodes post non-blocking receives for all the blocks that they will
 * need at the beginning of each iteration" (6.3.1; in Ready mode a barrier
 * follows); the owner of D factors it and sends it to the perimeter owners
 * in its grid row and column; they divide and send each U_KJ down its grid
 * column and each L_IK along its grid row to the tiles with interior blocks
 * there; every tile waits for its blocks and updates its interior. A tile
 * keeps at most SENDS_IN_FLIGHT sends in flight (the send table's 32
 * entries); its receives of one iteration (at most 2 n/B + 1) must fit the
 * receive table with the collectives' entries (niu.receive_table_entries).
 * Ids: kind 1 (D; index = the receiver), 2 (L_IK; li << 4 | receiver's x),
 * 3 (U_KJ; lj << 4 | receiver's y), step K; 4 for the untimed gather.
 *
 * Node 0 then gathers the blocks (untimed) and prints the factored matrix
 * (`matrix`, column-major, up to n = 64), `checksum` (the sum of all entries
 * in column-major order), `solve_error` (max |y - 1| of the solve check)
 * and `timed_cycles` (from the barrier after generation to the barrier
 * after the last iteration), the form the stressmarks crate checks. */
/* Every operation rounded separately (the spec's rule: no fused
 * multiply-add); GNU C's default would contract a - b * c into fnmsub. */
#pragma GCC optimize("fp-contract=off")
#include <scmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LU_N
#define LU_N 512
#endif
#ifndef LU_B
#define LU_B 16
#endif
#ifndef LU_READY
#define LU_READY 0
#endif
#ifndef LU_PRINT_MATRIX
#if LU_N <= 64
#define LU_PRINT_MATRIX 1
#else
#define LU_PRINT_MATRIX 0
#endif
#endif

#if LU_N % LU_B != 0 || LU_B < 1
#error "LU_N must be a multiple of LU_B"
#endif
#define NB (LU_N / LU_B)
#define BB (LU_B * LU_B)       /* doubles in a block */
#define BLOCK_WORDS (2 * BB)   /* words in a block */
#define SENDS_IN_FLIGHT 8

static int node, W, H, X, Y;
static int lrows, lcols;       /* block rows I = y, y + H, ...; columns J = x, x + W, ... */
static double *blocks;         /* local block (li, lj) at (li + lj lrows) BB */
/* The blocks' address, which getBlock's thread on the owner reads. */
char *lu_blocks_ptr;
static double *dbuf, *lbuf, *ubuf; /* D; L_IK by li; U_KJ by lj */
static double *matrix, *rhs;       /* node 0: the gathered matrix, the right-hand side */
static unsigned lu_cycles;

static double *block(int bi, int bj) { return blocks + ((bi / H) + (bj / W) * lrows) * BB; }
static int owner(int bi, int bj) { return (bi % H) * W + bj % W; }
/* Whether grid row y (column x) has a block row (column) after K. */
static int row_after(int y, int k) { return y < NB && (NB - 1 - y) / H * H + y > k; }
static int col_after(int x, int k) { return x < NB && (NB - 1 - x) / W * W + x > k; }

static void fail(const char *why) {
    if (node != 0)
        scmp_endt();
    printf("lu: %s\n", why);
    exit(2);
}

static void setup(void) {
    node = scmp_node_id();
    W = scmp_mesh_width();
    H = scmp_mesh_height();
    X = node % W;
    Y = node / W;
#ifdef SCMP_MODEL_SR
    if (W > 16 || H > 16 || NB > 255)
        fail("the send-and-receive version needs a mesh at most 16 wide and high and n / B < 256 (the ids' index field)");
#endif
    lrows = (NB - Y + H - 1) / H;
    lcols = (NB - X + W - 1) / W;
    size_t nblocks = (size_t)lrows * lcols;
    blocks = malloc(nblocks * BB * sizeof(double));
    dbuf = malloc(BB * sizeof(double));
    lbuf = malloc((size_t)lrows * BB * sizeof(double));
    ubuf = malloc((size_t)lcols * BB * sizeof(double));
    if (node == 0) {
        matrix = malloc((size_t)LU_N * LU_N * sizeof(double));
        rhs = calloc(LU_N, sizeof(double));
    }
    if ((nblocks && !blocks) || !dbuf || (lrows && !lbuf) || (lcols && !ubuf) ||
        (node == 0 && (!matrix || !rhs)))
        fail("the blocks and buffers do not fit: use more tiles or a smaller n");
    lu_blocks_ptr = (char *)blocks;
}

/* SPLASH-2's InitA with lrand48 seeded 1: columns outer, rows inner,
 * lrand48() / 32767.0, x10 on the diagonal; node 0 also sums the rows. */
static void generate(void) {
    unsigned long long s = (1ull << 16) | 0x330E;
    for (int j = 0; j < LU_N; j++)
        for (int i = 0; i < LU_N; i++) {
            s = (0x5DEECE66Dull * s + 0xB) & ((1ull << 48) - 1);
            double v = (double)(unsigned)(s >> 17) / 32767.0;
            if (i == j)
                v *= 10.0;
            int bi = i / LU_B, bj = j / LU_B;
            if (bi % H == Y && bj % W == X)
                block(bi, bj)[i % LU_B + (j % LU_B) * LU_B] = v;
            if (node == 0)
                rhs[i] += v;
        }
}

/* The kernels, each element's updates in ascending k (the model's order). */
static void factor_diagonal(double *d) {
    for (int k = 0; k < LU_B; k++)
        for (int j = k + 1; j < LU_B; j++) {
            d[k + j * LU_B] /= d[k + k * LU_B];
            double dkj = d[k + j * LU_B];
            for (int i = k + 1; i < LU_B; i++)
                d[i + j * LU_B] -= dkj * d[i + k * LU_B];
        }
}

static void column_perimeter(double *a, const double *d) {
    for (int k = 0; k < LU_B; k++)
        for (int j = k + 1; j < LU_B; j++) {
            double dkj = d[k + j * LU_B];
            for (int i = 0; i < LU_B; i++)
                a[i + j * LU_B] -= dkj * a[i + k * LU_B];
        }
}

static void row_perimeter(double *a, const double *d) {
    for (int k = 0; k < LU_B; k++)
        for (int j = 0; j < LU_B; j++) {
            a[k + j * LU_B] /= d[k + k * LU_B];
            double akj = a[k + j * LU_B];
            for (int i = k + 1; i < LU_B; i++)
                a[i + j * LU_B] -= akj * d[i + k * LU_B];
        }
}

static void interior(double *a, const double *l, const double *u) {
    for (int j = 0; j < LU_B; j++)
        for (int k = 0; k < LU_B; k++) {
            double ukj = u[k + j * LU_B];
            for (int i = 0; i < LU_B; i++)
                a[i + j * LU_B] -= ukj * l[i + k * LU_B];
        }
}

/* Divides the node's perimeter blocks of K by d. */
static void divide(int k, const double *d) {
    if (k % W == X)
        for (int bi = k + 1; bi < NB; bi++)
            if (bi % H == Y)
                column_perimeter(block(bi, k), d);
    if (k % H == Y)
        for (int bj = k + 1; bj < NB; bj++)
            if (bj % W == X)
                row_perimeter(block(k, bj), d);
}

/* Whether the node owns a perimeter block of K. */
static int owns_perimeter(int k) {
    return (k % W == X && row_after(Y, k)) || (k % H == Y && col_after(X, k));
}

#ifdef SCMP_MODEL_AM
/* The byte offset of block (bi, bj) among its owner's blocks. */
static int local_offset(int bi, int bj) { return ((bi / H) + (bj / W) * lrows) * BB * 8; }

/* getBlock of the whole block (bi, bj) from its owner into dst, waiting. */
static void fetch(int bi, int bj, double *dst) {
    getBlock(owner(bi, bj), dst, 1, &lu_blocks_ptr, local_offset(bi, bj), 1, BLOCK_WORDS, 0);
}

static void factor(void) {
    static char have_l[NB];
    for (int k = 0; k < NB; k++) {
        if (owner(k, k) == node)
            factor_diagonal(block(k, k));
        SCMPBarrier();
        if (owns_perimeter(k)) {
            const double *d = block(k, k);
            if (owner(k, k) != node) {
                fetch(k, k, dbuf);
                d = dbuf;
            }
            divide(k, d);
        }
        SCMPBarrier();
        /* The interior, each needed block requested when first needed. */
        memset(have_l, 0, sizeof have_l);
        for (int bj = k + 1; bj < NB; bj++) {
            if (bj % W != X || !row_after(Y, k))
                continue;
            const double *u = block(k, bj);
            if (k % H != Y) {
                u = ubuf + (bj / W) * BB;
                fetch(k, bj, (double *)u);
            }
            for (int bi = k + 1; bi < NB; bi++) {
                if (bi % H != Y)
                    continue;
                const double *l = block(bi, k);
                if (k % W != X) {
                    l = lbuf + (bi / H) * BB;
                    if (!have_l[bi]) {
                        fetch(bi, k, (double *)l);
                        have_l[bi] = 1;
                    }
                }
                interior(block(bi, bj), l, u);
            }
        }
        SCMPBarrier();
    }
}

static void gather(void) {
    if (node != 0)
        return; /* the blocks stay for node 0's requests */
    for (int bj = 0; bj < NB; bj++)
        for (int bi = 0; bi < NB; bi++) {
            double *dst = matrix + (bi + bj * NB) * BB;
            if (owner(bi, bj) == 0)
                memcpy(dst, block(bi, bj), BB * sizeof(double));
            else
                fetch(bi, bj, dst);
        }
}
#if LU_READY
#error "LU_READY is a mode of the send-and-receive version"
#endif
#define VERSION "active messages, C"
#endif

#ifdef SCMP_MODEL_SR
enum { KIND_D = 1, KIND_L, KIND_U, KIND_GATHER };

static int sent[SENDS_IN_FLIGHT], nsent;

static void wait_sends(void) {
    for (int i = 0; i < nsent; i++) {
        SCMPWaitSend(sent[i]);
        SCMPClearSend(sent[i]);
    }
    nsent = 0;
}

static void send_block(int to, int id, const double *b) {
    if (nsent == SENDS_IN_FLIGHT)
        wait_sends();
    SCMPSendNB(to, id, (int *)b, 1, BLOCK_WORDS);
    sent[nsent++] = id;
}

static void take(int id) {
    SCMPWaitReceive(id);
    SCMPClearReceive(id);
}

/* Whether the node has an interior block of K. */
static int owns_interior(int k) { return row_after(Y, k) && col_after(X, k); }

static void factor(void) {
    for (int k = 0; k < NB; k++) {
        int xk = k % W, yk = k % H, inner = owns_interior(k);
        int need_d = owns_perimeter(k) && owner(k, k) != node;
        /* Every receive of the iteration, posted at its start. */
        if (need_d)
            SCMPReceiveNB(SCMP_ID(KIND_D, k, node), dbuf, 1);
        if (inner && xk != X)
            for (int bi = k + 1; bi < NB; bi++)
                if (bi % H == Y)
                    SCMPReceiveNB(SCMP_ID(KIND_L, k, (bi / H) << 4 | X), lbuf + (bi / H) * BB, 1);
        if (inner && yk != Y)
            for (int bj = k + 1; bj < NB; bj++)
                if (bj % W == X)
                    SCMPReceiveNB(SCMP_ID(KIND_U, k, (bj / W) << 4 | Y), ubuf + (bj / W) * BB, 1);
        if (LU_READY)
            SCMPBarrier();
        const double *d = dbuf;
        if (owner(k, k) == node) {
            d = block(k, k);
            factor_diagonal(block(k, k));
            for (int x = 0; x < W; x++) /* the row perimeter's owners */
                if (x != X && col_after(x, k))
                    send_block(Y * W + x, SCMP_ID(KIND_D, k, Y * W + x), d);
            for (int y = 0; y < H; y++) /* the column perimeter's owners */
                if (y != Y && row_after(y, k))
                    send_block(y * W + X, SCMP_ID(KIND_D, k, y * W + X), d);
        }
        if (owns_perimeter(k)) {
            if (need_d)
                take(SCMP_ID(KIND_D, k, node));
            divide(k, d);
            if (xk == X) /* each L_IK along the grid row */
                for (int bi = k + 1; bi < NB; bi++)
                    if (bi % H == Y)
                        for (int x = 0; x < W; x++)
                            if (x != X && col_after(x, k))
                                send_block(Y * W + x, SCMP_ID(KIND_L, k, (bi / H) << 4 | x),
                                           block(bi, k));
            if (yk == Y) /* each U_KJ down the grid column */
                for (int bj = k + 1; bj < NB; bj++)
                    if (bj % W == X)
                        for (int y = 0; y < H; y++)
                            if (y != Y && row_after(y, k))
                                send_block(y * W + X, SCMP_ID(KIND_U, k, (bj / W) << 4 | y),
                                           block(k, bj));
        }
        if (inner) {
            if (xk != X)
                for (int bi = k + 1; bi < NB; bi++)
                    if (bi % H == Y)
                        take(SCMP_ID(KIND_L, k, (bi / H) << 4 | X));
            if (yk != Y)
                for (int bj = k + 1; bj < NB; bj++)
                    if (bj % W == X)
                        take(SCMP_ID(KIND_U, k, (bj / W) << 4 | Y));
            for (int bj = k + 1; bj < NB; bj++) {
                if (bj % W != X)
                    continue;
                const double *u = yk == Y ? block(k, bj) : ubuf + (bj / W) * BB;
                for (int bi = k + 1; bi < NB; bi++)
                    if (bi % H == Y)
                        interior(block(bi, bj), xk == X ? block(bi, k) : lbuf + (bi / H) * BB,
                                 u);
            }
        }
        wait_sends();
    }
}

/* Untimed, in Rendezvous mode: node 0 takes the blocks in order, the
 * owners send theirs in the same order. */
static void gather(void) {
    SCMPSetMode(SCMP_MODE_RENDEZVOUS);
    for (int bj = 0; bj < NB; bj++)
        for (int bi = 0; bi < NB; bi++) {
            int o = owner(bi, bj), id = SCMP_ID(KIND_GATHER, bj, bi);
            if (node == 0) {
                double *dst = matrix + (bi + bj * NB) * BB;
                if (o == 0)
                    memcpy(dst, block(bi, bj), BB * sizeof(double));
                else {
                    SCMPReceive(id, dst, 1);
                    SCMPClearReceive(id);
                }
            } else if (o == node) {
                SCMPSend(0, id, (int *)block(bi, bj), 1, BLOCK_WORDS);
                SCMPClearSend(id);
            }
        }
}
#if LU_READY
#define VERSION "send-and-receive, Ready mode, C"
#else
#define VERSION "send-and-receive, Rendezvous mode, C"
#endif
#endif

static double element(int i, int j) {
    return matrix[(i / LU_B + (j / LU_B) * NB) * BB + i % LU_B + (j % LU_B) * LU_B];
}

static unsigned long long bits(double v) {
    unsigned long long b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Node 0: the checksum, the solve check and the printed results. */
static void report(void) {
    double sum = 0.0;
    for (int j = 0; j < LU_N; j++)
        for (int i = 0; i < LU_N; i++)
            sum += element(i, j);
    double *y = rhs;
    for (int j = 0; j < LU_N; j++) {
        y[j] /= element(j, j);
        for (int i = j + 1; i < LU_N; i++)
            y[i] -= element(i, j) * y[j];
    }
    for (int j = LU_N - 1; j >= 0; j--)
        for (int i = 0; i < j; i++)
            y[i] -= element(i, j) * y[j];
    double err = 0.0;
    for (int i = 0; i < LU_N; i++) {
        double e = y[i] > 1.0 ? y[i] - 1.0 : 1.0 - y[i];
        if (e > err || e != e)
            err = e;
    }
    printf("lu (" VERSION ") on %dx%d: n %d, B %d\n", W, H, LU_N, LU_B);
#if LU_PRINT_MATRIX
    for (int j = 0; j < LU_N; j++)
        for (int i = 0; i < LU_N; i += 8) {
            printf("matrix");
            for (int t = i; t < i + 8 && t < LU_N; t++)
                printf(" 0x%016llx", bits(element(t, j)));
            printf("\n");
        }
#endif
    printf("checksum 0x%016llx\n", bits(sum));
    printf("solve_error 0x%016llx\n", bits(err));
    printf("timed_cycles %u\n", lu_cycles);
}

int main(void) {
    setup();
#if defined(SCMP_MODEL_SR) && LU_READY
    SCMPSetMode(SCMP_MODE_READY);
#endif
    generate();
    SCMPBarrier();
    unsigned start = (unsigned)scmp_cycles(); /* the timed region */
    factor();
    SCMPBarrier();
    lu_cycles = (unsigned)scmp_cycles() - start;
    gather();
    if (node == 0)
        report();
    return 0;
}
