/* Ping-pong, active-messages model: the counter travels as a data message
 * straight into the other node's `box`, with the round number beside it so
 * the receiver knows it is new; each side polls (yielding) for it. The
 * other nodes return at once.
 *
 *   scmp cc --model am examples/c/pingpong_am.c -O2 -o pingpong_am.elf
 *   scmp run pingpong_am.elf --mesh 2x1 --boot all --niu original
 */
#include <scmp.h>
#include <stdio.h>

#define ROUNDS 20

/* value, round + 1 (0: nothing yet); one message carries both words, and
 * a message's words are stored in order, so the round is written last. */
static volatile int box[2];

static void send_box(int node, int value, int round) {
    int words[2] = {value, round + 1};
    sendDataBlock(node, (int *)box, 1, words, 1, 2);
}

static int wait_box(int round) {
    while (box[1] != round + 1)
        scmp_yield();
    return box[0];
}

int main(void) {
    int me = scmp_node_id();
    if (me > 1)
        return 0;
    int other = 1 - me, value = 0;
    unsigned long long start = scmp_cycles();
    for (int round = 0; round < ROUNDS; round++) {
        if (me == 0) {
            send_box(other, value, round);
            value = wait_box(round);
        } else {
            value = wait_box(round);
            send_box(other, value + 1, round);
        }
    }
    if (me == 0) {
        unsigned long long cycles = scmp_cycles() - start;
        printf("%d round trips, counter %d, %llu cycles per round trip\n", ROUNDS, value,
               cycles / ROUNDS);
        return value == ROUNDS ? 0 : 1;
    }
    return 0;
}
