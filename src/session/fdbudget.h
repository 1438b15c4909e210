/* SPDX-License-Identifier: BSD-2-Clause */
/* fdbudget: the daemon's file descriptors, shared by the data sockets of all running
 * tests.
 *
 * Every flow of a test is a descriptor on the daemon, and a client chooses how many:
 * six clients asking for --streams 4096 took a daemon to 19,915 of its 20,000
 * descriptors, and then every new connection and every accept failed (clients saw resets,
 * a stock netperf got a warpspeed ERROR frame it could not read). So the descriptors left
 * once the pending connections (--max-pending, at most half of RLIMIT_NOFILE), the
 * sessions' control connections (--max-sessions) and a fixed reserve are taken from a
 * budget, like --max-memory's: a test's descriptors are charged before anything is
 * opened and released when it ends, and a test that would pass the budget is refused up
 * front with its cost, in the client's own protocol. Thread-safe. */
#ifndef WS_SESSION_FDBUDGET_H
#define WS_SESSION_FDBUDGET_H

#include "model/spec.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* Descriptors kept back for listeners, the wake pipe, logs and /proc reads. */
#define WS_FD_RESERVE 32

typedef struct ws_fdbudget {
	pthread_mutex_t mu;
	uint64_t limit;
	uint64_t held;
	uint64_t nofile; /* RLIMIT_NOFILE when the budget was set (for the message) */
} ws_fdbudget;

/* The budget of a daemon with these caps: RLIMIT_NOFILE - pending (max_pending, at most
 * half of RLIMIT_NOFILE, as session/prelude.h caps it) - sessions - reserve (at least 0). */
void ws_fdbudget_init(ws_fdbudget *b, unsigned max_pending, unsigned max_sessions);
void ws_fdbudget_destroy(ws_fdbudget *b);

/* The descriptors one test costs the daemon: one per flow, the TCP listener, the
 * control watch's pipe (session/ctlwatch.h); TCP_CRR and TCP_CC a connection per worker at a
 * time. netperf's tests have one flow. */
uint64_t ws_fdbudget_cost(const ws_test_spec *spec, bool netperf);

/* Charge n for the test named by spec. Returns 0, or -WS_E_LIMIT with err saying
 * "TCP_STREAM with 4096 flows needs 4099 file descriptors, over this daemon's budget of
 * 951 (20 held by other tests; ulimit -n 1024 less its pending connections, sessions and
 * reserve) (raise warpspeed serve's ulimit -n, or lower --max-pending or --max-sessions)". */
int ws_fdbudget_charge(ws_fdbudget *b, const ws_test_spec *spec, uint64_t n, struct ws_err *err);
void ws_fdbudget_release(ws_fdbudget *b, uint64_t n);

#endif
