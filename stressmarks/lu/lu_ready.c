/* lu_ready.c: the LU stressmark in C with send-and-receive in Ready mode
 * (the sweep's lu-ready-c row): lu.c with LU_READY, a barrier between
 * posting an iteration's receives and its first send (thesis 6.3.1). */
#define LU_READY 1
#include "lu.c"
