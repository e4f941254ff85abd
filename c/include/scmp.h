/* scmp.h: the SCMP programming model in C (Lewis 2004, chapters 3-4).
 *
 * - scmp_<mnemonic>(): one inline function per messaging and thread
 *   instruction, written with `.insn` so that GNU as and `scmp asm` both
 *   assemble it (the encodings are the isa-spec table's; tests/c_header.rs
 *   checks every function against our disassembler).
 * - The SCMP CSRs: scmp_node_id(), scmp_num_nodes(), ...
 * - The messaging libraries' prototypes with the thesis's C signatures
 *   (Tables 3.2-3.3: active messages, stressmarks/lib/am.s, original NIU;
 *   Tables 4.1-4.3: send and receive, stressmarks/lib/sr.s, modified NIU),
 *   the barrier and the reductions. A program uses one library: `scmp cc
 *   --model am` defines SCMP_MODEL_AM, `--model sr` (the default)
 *   SCMP_MODEL_SR.
 *
 * docs/libraries.md describes every routine. Build with `scmp cc`, or
 * with the gcc line `scmp cc -v` prints. */
#ifndef SCMP_H
#define SCMP_H

#if !defined(SCMP_MODEL_AM) && !defined(SCMP_MODEL_SR)
#define SCMP_MODEL_SR 1
#endif
#if defined(SCMP_MODEL_AM) && defined(SCMP_MODEL_SR)
#error "scmp.h: define one of SCMP_MODEL_AM and SCMP_MODEL_SR (one library per program)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- constants */

/* Message types of sendh (the instruction's type field). */
#define SCMP_MSG_THREAD 0 /* thread message: starts handler on the node */
#define SCMP_MSG_READY 1  /* send-and-receive data, Ready mode */
#define SCMP_MSG_RDV 2    /* send-and-receive data, Rendezvous mode */

/* Send-table states (scmp_ldss, SCMPPollSend), thesis Table 5.1. */
#define SCMP_SEND_EMPTY 0
#define SCMP_SEND_IN_USE 1
#define SCMP_SEND_IN_PROGRESS 2
#define SCMP_SEND_COMPLETE 3
/* Receive-table states (scmp_ldsr, SCMPPollReceive), thesis Table 5.2. */
#define SCMP_RECEIVE_EMPTY 0
#define SCMP_RECEIVE_IN_USE 1
#define SCMP_RECEIVE_IN_PROGRESS 2
#define SCMP_RECEIVE_RTS_RECEIVED 3
#define SCMP_RECEIVE_COMPLETE 7

/* Send modes (SCMPSetMode). */
#define SCMP_MODE_RENDEZVOUS 0
#define SCMP_MODE_READY 1

/* Message ids: kind in bits 31..28, step in 27..12, index in 11..0, so
 * that receives posted at the same time never share an id. Kind 0xF
 * belongs to the libraries (the collectives). */
#define SCMP_ID_KIND_SHIFT 28
#define SCMP_ID_STEP_SHIFT 12
#define SCMP_ID_INDEX_MASK 0xFFF
#define SCMP_ID_KIND_LIBRARY 0xF
#define SCMP_ID(kind, step, index)                                                         \
    ((int)(((unsigned)(kind) << SCMP_ID_KIND_SHIFT) | ((unsigned)(step) << SCMP_ID_STEP_SHIFT) | \
           ((unsigned)(index) & SCMP_ID_INDEX_MASK)))

/* The SCMP CSRs (read-only). */
#define SCMP_CSR_NODEID 0xcc0 /* this tile's node id, y * width + x */
#define SCMP_CSR_CTXID 0xcc1  /* this thread's hardware context */
#define SCMP_CSR_MESHW 0xcc2  /* mesh width in tiles */
#define SCMP_CSR_MESHH 0xcc3  /* mesh height in tiles */
#define SCMP_CSR_NTILES 0xcc4 /* number of tiles */
#define SCMP_CSR_NCTX 0xcc5   /* hardware thread contexts per tile */

#define SCMP_STR_(x) #x
#define SCMP_STR(x) SCMP_STR_(x)
#define SCMP_CSR_READ(csr)                                                                  \
    ({                                                                                      \
        int scmp_v_;                                                                        \
        __asm__ volatile("csrr %0, " SCMP_STR(csr) : "=r"(scmp_v_));                       \
        scmp_v_;                                                                            \
    })

static inline int scmp_node_id(void) { return SCMP_CSR_READ(SCMP_CSR_NODEID); }
static inline int scmp_context_id(void) { return SCMP_CSR_READ(SCMP_CSR_CTXID); }
static inline int scmp_mesh_width(void) { return SCMP_CSR_READ(SCMP_CSR_MESHW); }
static inline int scmp_mesh_height(void) { return SCMP_CSR_READ(SCMP_CSR_MESHH); }
static inline int scmp_num_nodes(void) { return SCMP_CSR_READ(SCMP_CSR_NTILES); }
static inline int scmp_num_contexts(void) { return SCMP_CSR_READ(SCMP_CSR_NCTX); }
/* The tile's cycle counter (64 bits, read consistently). */
static inline unsigned long long scmp_cycles(void) {
    unsigned hi, lo, again;
    do {
        __asm__ volatile("rdcycleh %0" : "=r"(hi));
        __asm__ volatile("rdcycle %0" : "=r"(lo));
        __asm__ volatile("rdcycleh %0" : "=r"(again));
    } while (hi != again);
    return ((unsigned long long)hi << 32) | lo;
}

/* ------------------------------------------------------------- instructions */
/* Opcodes: custom-0 (0x0b) sends, custom-1 (0x2b) tables, custom-2 (0x5b)
 * threads. Every one may read or write memory (the NIU's DMA) or switch
 * threads, so each is a compiler barrier ("memory"). */

/* sendh node, thread, handler: thread-message header to `node`. */
static inline void scmp_sendh_thread(int node, const void *handler) {
    __asm__ volatile(".insn r 0x0b, 0, 0, x0, %0, %1" ::"r"(node), "r"(handler) : "memory");
}
/* sendh node, ready, id: send-and-receive data header, Ready mode. */
static inline void scmp_sendh_ready(int node, int id) {
    __asm__ volatile(".insn r 0x0b, 0, 1, x0, %0, %1" ::"r"(node), "r"(id) : "memory");
}
/* sendh node, rdv, id: send-and-receive data header, Rendezvous mode. */
static inline void scmp_sendh_rdv(int node, int id) {
    __asm__ volatile(".insn r 0x0b, 0, 2, x0, %0, %1" ::"r"(node), "r"(id) : "memory");
}
/* sendh node, data, address, stride: active-message data header (original
 * NIU): the words go to `address` on `node`, every `stride` words. */
static inline void scmp_sendh_data(int node, void *address, int stride) {
    __asm__ volatile(".insn r4 0x0b, 1, 0, x0, %0, %1, %2" ::"r"(node), "r"(address),
                     "r"(stride)
                     : "memory");
}
/* sendh with the type as a constant (SCMP_MSG_THREAD, _READY, _RDV). */
#define scmp_sendh(node, type, word)                                                        \
    __asm__ volatile(".insn r 0x0b, 0, %2, x0, %0, %1" ::"r"(node), "r"(word), "i"(type)   \
                     : "memory")
/* send / sende: one body / tail flit. */
static inline void scmp_send(int word) {
    __asm__ volatile(".insn r 0x0b, 2, 0, x0, %0, x0" ::"r"(word) : "memory");
}
static inline void scmp_sende(int word) {
    __asm__ volatile(".insn r 0x0b, 2, 1, x0, %0, x0" ::"r"(word) : "memory");
}
/* send2 / send2e: two body flits / a body and the tail flit. */
static inline void scmp_send2(int a, int b) {
    __asm__ volatile(".insn r 0x0b, 3, 0, x0, %0, %1" ::"r"(a), "r"(b) : "memory");
}
static inline void scmp_send2e(int a, int b) {
    __asm__ volatile(".insn r 0x0b, 3, 1, x0, %0, %1" ::"r"(a), "r"(b) : "memory");
}
/* sendm / sendme: `count` (1..65535) words from `address`, every `stride`
 * words (0..65535); sendme's last word ends the message. */
static inline void scmp_sendm(const void *address, int stride, int count) {
    int operand = (stride << 16) | (count & 0xffff);
    __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, %1" ::"r"(address), "r"(operand) : "memory");
}
static inline void scmp_sendme(const void *address, int stride, int count) {
    int operand = (stride << 16) | (count & 0xffff);
    __asm__ volatile(".insn r 0x0b, 4, 1, x0, %0, %1" ::"r"(address), "r"(operand) : "memory");
}
/* ldss / ldsr: the state of the send / receive table entry of `id`. */
static inline int scmp_ldss(int id) {
    int state;
    __asm__ volatile(".insn r 0x2b, 0, 0, %0, %1, x0" : "=r"(state) : "r"(id) : "memory");
    return state;
}
static inline int scmp_ldsr(int id) {
    int state;
    __asm__ volatile(".insn r 0x2b, 1, 0, %0, %1, x0" : "=r"(state) : "r"(id) : "memory");
    return state;
}
/* str id, address, stride: post a receive. */
static inline void scmp_str(int id, void *address, int stride) {
    __asm__ volatile(".insn r4 0x2b, 2, 0, x0, %0, %1, %2" ::"r"(id), "r"(address), "r"(stride)
                     : "memory");
}
/* rms / rmr: remove the send / receive table entry of `id`. */
static inline void scmp_rms(int id) {
    __asm__ volatile(".insn r 0x2b, 3, 0, x0, %0, x0" ::"r"(id) : "memory");
}
static inline void scmp_rmr(int id) {
    __asm__ volatile(".insn r 0x2b, 4, 0, x0, %0, x0" ::"r"(id) : "memory");
}
/* waits / waitr: suspend until the send / receive of `id` is Complete. */
static inline void scmp_waits(int id) {
    __asm__ volatile(".insn r 0x5b, 2, 0, x0, %0, x0" ::"r"(id) : "memory");
}
static inline void scmp_waitr(int id) {
    __asm__ volatile(".insn r 0x5b, 3, 0, x0, %0, x0" ::"r"(id) : "memory");
}
/* endt: end this thread and free its context. */
static inline __attribute__((noreturn)) void scmp_endt(void) {
    __asm__ volatile(".insn 0x0000005b" ::: "memory");
    __builtin_unreachable();
}
/* yield: give the pipeline to the next ready context. */
static inline void scmp_yield(void) { __asm__ volatile(".insn 0x0000105b" ::: "memory"); }

/* SCMP_THREAD_TLS(): the first statement of a C function that a thread
 * message starts directly (scmp_sendh_thread(node, f)): gives the thread
 * its own thread-local storage (errno, __thread variables) in the
 * function's frame, which lives until the thread ends (such a function
 * ends with scmp_endt(): it has no caller to return to). Without it tp is
 * 0 there and errno is shared. Threads that createThread and parExecute
 * start have their own already (the libraries' stub sets it up). */
#define SCMP_THREAD_TLS()                                                                  \
    extern char __tls_size[], __tls_align[];                                               \
    extern void _init_tls(void *);                                                         \
    unsigned long scmp_tls_align_ = (unsigned long)__tls_align > 16 ? (unsigned long)__tls_align : 16; \
    char scmp_tls_raw_[(unsigned long)__tls_size + scmp_tls_align_];                       \
    void *scmp_tls_ = (void *)(((unsigned long)scmp_tls_raw_ + scmp_tls_align_ - 1) &     \
                               ~(scmp_tls_align_ - 1));                                   \
    _init_tls(scmp_tls_);                                                                  \
    __asm__ volatile("mv tp, %0" ::"r"(scmp_tls_) : "memory")

/* ---------------------------------------------------------------- libraries */
/* A thread routine takes up to five int-sized arguments (registers a0..a4)
 * and may return a value (to createThread's callback). */
typedef int (*scmp_thread_fn)();
typedef void (*scmp_callback_fn)(int result);

/* Tables 3.2 / 4.1, both libraries (stressmarks/lib/scmp_common.s). */
/* A thread on dst_node runs addr(args...) (up to five int arguments); if
 * callback is not 0, its result comes back: a thread here runs
 * callback(result). */
void createThread(int dst_node, scmp_thread_fn addr, scmp_callback_fn callback, ...);
/* createThread(node, addr, 0, args...) on nodes 0..num_nodes-1. */
void parExecute(int num_nodes, scmp_thread_fn addr, ...);

/* Collectives: one thread per node takes part; every node makes the same
 * sequence of calls. The reductions return the result on every node. */
void SCMPBarrier(void);
int SCMPReduceSumInt(int value);
int SCMPReduceMinInt(int value);
int SCMPReduceMaxInt(int value);
double SCMPReduceSumDouble(double value);
double SCMPReduceMinDouble(double value);
double SCMPReduceMaxDouble(double value);

#ifdef SCMP_MODEL_AM
/* Table 3.2 (stressmarks/lib/am.s, original NIU). getBlock: a thread on
 * node_id sends num_words words from *src_addr + src_offset (bytes) here,
 * then raises *flag; flag == 0: waits for its own flag before returning
 * (the thesis's form), else returns at once (wait with amWaitFlag). */
void getBlock(unsigned int node_id, void *dst_addr, unsigned int dst_stride, char **src_addr,
              unsigned int src_offset, unsigned int src_stride, unsigned int num_words,
              volatile int *flag);
/* Polls (yielding) until *flag is not 0. */
void amWaitFlag(volatile int *flag);
/* Table 3.3. */
void sendDataIntValue(int dst_node, int *dst_addr, int value);
void sendDataFloatValue(int dst_node, double *dst_addr, double value);
void sendDataBlock(int dst_node, int *dst_addr, int dst_stride, int *src_addr, int src_stride,
                   int count);
void sendDataBlockNB(int dst_node, int *dst_addr, int dst_stride, int *src_addr, int src_stride,
                     int count);
#endif

#ifdef SCMP_MODEL_SR
/* Table 4.1 (stressmarks/lib/sr.s, modified NIU). getBlock posts the
 * receive of message_id and has a thread on node_id send the words; wait
 * with SCMPWaitReceive(message_id), then SCMPClearReceive. */
void getBlock(unsigned int node_id, int *dst_addr, unsigned int dst_stride, char **src_addr,
              unsigned int src_offset, unsigned int src_stride, int message_id,
              unsigned int num_words);
/* Table 4.2. SCMPSend and SCMPSendNB both take (address, stride): the
 * thesis lists SCMPSend's as (stride, address). */
void SCMPSendInt(int dst_node, int message_id, int value);
void SCMPSendFloat(int dst_node, int message_id, double value);
void SCMPSend(int dst_node, int message_id, int *address, int stride, int count);
void SCMPSendNB(int dst_node, int message_id, int *address, int stride, int count);
int SCMPPollSend(int message_id);
void SCMPWaitSend(int message_id);
void SCMPClearSend(int message_id);
/* Table 4.3. */
void SCMPReceive(int message_id, void *address, int stride);
void SCMPReceiveNB(int message_id, void *address, int stride);
int SCMPPollReceive(int message_id);
void SCMPWaitReceive(int message_id);
void SCMPClearReceive(int message_id);
/* The node's send mode: SCMP_MODE_RENDEZVOUS (default) or SCMP_MODE_READY. */
void SCMPSetMode(int mode);
#endif

/* The other model's routines, declared so that a call names the flag at
 * compile time (instead of "implicit declaration" and then "undefined
 * reference" at link time). getBlock is in both, with each model's
 * arguments. */
#if defined(__GNUC__) && !defined(SCMP_NO_MODEL_CHECK)
#define SCMP_OTHER_MODEL_(routine, model, niu)                                                \
    __attribute__((error(routine " is a routine of the " model " model: compile with `scmp cc " \
                         "--model " model "` (and run with --niu " niu ")")))
#ifdef SCMP_MODEL_AM
#define SCMP_IN_SR_(r) SCMP_OTHER_MODEL_(#r, "sr", "modified")
void SCMPSendInt(int, int, int) SCMP_IN_SR_(SCMPSendInt);
void SCMPSendFloat(int, int, double) SCMP_IN_SR_(SCMPSendFloat);
void SCMPSend(int, int, int *, int, int) SCMP_IN_SR_(SCMPSend);
void SCMPSendNB(int, int, int *, int, int) SCMP_IN_SR_(SCMPSendNB);
int SCMPPollSend(int) SCMP_IN_SR_(SCMPPollSend);
void SCMPWaitSend(int) SCMP_IN_SR_(SCMPWaitSend);
void SCMPClearSend(int) SCMP_IN_SR_(SCMPClearSend);
void SCMPReceive(int, void *, int) SCMP_IN_SR_(SCMPReceive);
void SCMPReceiveNB(int, void *, int) SCMP_IN_SR_(SCMPReceiveNB);
int SCMPPollReceive(int) SCMP_IN_SR_(SCMPPollReceive);
void SCMPWaitReceive(int) SCMP_IN_SR_(SCMPWaitReceive);
void SCMPClearReceive(int) SCMP_IN_SR_(SCMPClearReceive);
void SCMPSetMode(int) SCMP_IN_SR_(SCMPSetMode);
#else
#define SCMP_IN_AM_(r) SCMP_OTHER_MODEL_(#r, "am", "original")
void amWaitFlag(volatile int *) SCMP_IN_AM_(amWaitFlag);
void sendDataIntValue(int, int *, int) SCMP_IN_AM_(sendDataIntValue);
void sendDataFloatValue(int, double *, double) SCMP_IN_AM_(sendDataFloatValue);
void sendDataBlock(int, int *, int, int *, int, int) SCMP_IN_AM_(sendDataBlock);
void sendDataBlockNB(int, int *, int, int *, int, int) SCMP_IN_AM_(sendDataBlockNB);
#endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* SCMP_H */
