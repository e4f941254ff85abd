/* One function per scmp.h instruction wrapper, for tests/c_programs.rs:
 * each must assemble (GNU as and scmp asm) to the instruction its name says. */
#include <scmp.h>

void t_sendh_thread(int n, void *h) { scmp_sendh_thread(n, h); }
void t_sendh_ready(int n, int id) { scmp_sendh_ready(n, id); }
void t_sendh_rdv(int n, int id) { scmp_sendh_rdv(n, id); }
void t_sendh_macro(int n, int id) { scmp_sendh(n, SCMP_MSG_RDV, id); }
void t_sendh_data(int n, void *a, int s) { scmp_sendh_data(n, a, s); }
void t_send(int w) { scmp_send(w); }
void t_sende(int w) { scmp_sende(w); }
void t_send2(int a, int b) { scmp_send2(a, b); }
void t_send2e(int a, int b) { scmp_send2e(a, b); }
void t_sendm(const void *a, int s, int c) { scmp_sendm(a, s, c); }
void t_sendme(const void *a, int s, int c) { scmp_sendme(a, s, c); }
int t_ldss(int id) { return scmp_ldss(id); }
int t_ldsr(int id) { return scmp_ldsr(id); }
void t_str(int id, void *a, int s) { scmp_str(id, a, s); }
void t_rms(int id) { scmp_rms(id); }
void t_rmr(int id) { scmp_rmr(id); }
void t_waits(int id) { scmp_waits(id); }
void t_waitr(int id) { scmp_waitr(id); }
void t_endt(void) { scmp_endt(); }
void t_yield(void) { scmp_yield(); }
int t_nodeid(void) { return scmp_node_id(); }
int t_ctxid(void) { return scmp_context_id(); }
int t_meshw(void) { return scmp_mesh_width(); }
int t_meshh(void) { return scmp_mesh_height(); }
int t_ntiles(void) { return scmp_num_nodes(); }
int t_nctx(void) { return scmp_num_contexts(); }
