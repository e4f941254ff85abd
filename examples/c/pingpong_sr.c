/* Ping-pong, send-and-receive model: node 0 sends a counter to node 1,
 * which sends it back incremented, ROUNDS times; node 0 reports the
 * cycles per round trip. The other nodes return at once.
 *
 *   scmp cc examples/c/pingpong_sr.c -O2 -o pingpong_sr.elf
 *   scmp run pingpong_sr.elf --mesh 2x1 --boot all --niu modified
 */
#include <scmp.h>
#include <stdio.h>

#define ROUNDS 20
#define KIND_PING 1
#define KIND_PONG 2

int main(void) {
    int me = scmp_node_id();
    if (me > 1)
        return 0;
    int other = 1 - me, value = 0;
    unsigned long long start = scmp_cycles();
    for (int round = 0; round < ROUNDS; round++) {
        int ping = SCMP_ID(KIND_PING, round, 0), pong = SCMP_ID(KIND_PONG, round, 0);
        int in = me == 0 ? pong : ping, out = me == 0 ? ping : pong;
        if (me == 0) {
            SCMPReceiveNB(in, &value, 1); /* posted before the ping goes */
            SCMPSendInt(other, out, value);
            SCMPWaitReceive(in);
        } else {
            SCMPReceive(in, &value, 1);
            SCMPSendInt(other, out, value + 1);
        }
        SCMPClearReceive(in);
        SCMPWaitSend(out);
        SCMPClearSend(out);
    }
    if (me == 0) {
        unsigned long long cycles = scmp_cycles() - start;
        printf("%d round trips, counter %d, %llu cycles per round trip\n", ROUNDS, value,
               cycles / ROUNDS);
        return value == ROUNDS ? 0 : 1;
    }
    return 0;
}
