/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_load: the load half of a latency-under-load run (RRUL), the same at both ends.
 *
 * Each TCP connection of the run opens with a four-byte greeting that says what it
 * carries (an upload, a download or the TCP probe) and its mark, so that the daemon needs
 * no per-flow field in the test request: it sets the mark, reads it back with getsockopt
 * and answers with what the kernel kept, which the client reports (the check that the
 * marks reach the sockets at both ends). The flows then run as two multi-flow engines
 * (workload/multi.h) at once, one sending and one receiving, on threads of their own, and
 * their results are merged into one side. */
#ifndef WS_WORKLOAD_LUL_LOAD_H
#define WS_WORKLOAD_LUL_LOAD_H

#include "model/result.h"
#include "workload/multi.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ws_err;
struct ws_interim_counter;

/* What a connection carries, as the greeting's second byte names it. */
enum ws_lul_role { WS_LUL_ROLE_UP = 'U', WS_LUL_ROLE_DOWN = 'D', WS_LUL_ROLE_PROBE = 'P' };

#define WS_LUL_GREETING_LEN 4
#define WS_LUL_GREETING_NS  (10 * 1000000000LL)

/* Client: greet the daemon on fd with role, mark (set here first, read back into
 * *tos_local) and the idle time before the flows (delay_s, 0..255), and read the daemon's
 * answer: the mark its socket kept (*tos_remote, -1 = not read). Returns 0 or a negative
 * error. */
int ws_lul_greet(int fd, enum ws_lul_role role, int tos, uint32_t delay_s, int *tos_local,
		 int *tos_remote, struct ws_err *err);

/* Daemon: read a connection's greeting, apply its mark, answer with the mark read back;
 * *delay_s: the greeting's idle time. */
int ws_lul_answer(int fd, enum ws_lul_role *role, int *tos, uint32_t *delay_s, struct ws_err *err);

/* One direction's flows on a thread: the multi engine as sender or receiver. */
typedef struct ws_lul_load {
	ws_multi_params p;
	ws_side_result res;
	struct ws_err *err_box; /* owned */
	int rc;
	bool started;
	pthread_t thread;
} ws_lul_load;

/* Start n flows (fds) of one direction on a thread of its own; n = 0 starts nothing.
 * progress: a counter per flow (measure/interim.h) or NULL. cap_ns: the daemon's time cap,
 * 0 = none. Returns 0, or a negative error when the thread could not start. */
int ws_lul_load_start(ws_lul_load *l, const int *fds, uint32_t n, bool sender,
		      const ws_test_spec *spec, int64_t cap_ns, struct ws_interim_counter *progress,
		      struct ws_err *err);

/* Wait for it; returns its rc (0 when it ran nothing) and copies its error to err. */
int ws_lul_load_join(ws_lul_load *l, struct ws_err *err);

/* The two directions as one side: bytes, calls, the longer elapsed time, the flows (up
 * first) and threads. Frees what a and b held. Returns 0, or -1 when out of memory. */
int ws_lul_load_merge(ws_lul_load *up, ws_lul_load *down, ws_side_result *res);

/* The first failed flow of either direction, as "upload flow 2: why", or "" (up's flows
 * come first in res->flows). */
void ws_lul_first_failure(const ws_side_result *res, uint32_t nup, char *buf, size_t bufsz);

#endif
