/* SPDX-License-Identifier: BSD-2-Clause */
/* daemon_state: the daemon's private state, a session and the daemon itself, shared by
 * the files that make up `warpspeed serve` (session/daemon.c, admission.c, wsserve.c,
 * npserve.c, policy.c, slog.c, ctlwatch.c) and seen by nothing outside src/session.
 * A header of structs only: who calls whom among those files goes one way (daemon ->
 * admission -> wsserve, npserve -> policy), never through here. */
#ifndef WS_SESSION_DAEMON_STATE_H
#define WS_SESSION_DAEMON_STATE_H

#include "ctl/channel.h"
#include "net/addr.h"
#include "session/budget.h"
#include "session/daemon.h"
#include "session/fdbudget.h"
#include "session/prelude.h"
#include "util/psk.h"
#include "util/ratelog.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ws_session {
	struct ws_daemon *d;
	uint64_t id;
	ws_channel ch;
	ws_addr peer;
	char peer_text[80];
	char addr[64];      /* the peer's address alone: --max-sessions-per-addr counts by it */
	int64_t since_ns;   /* admitted at */
	int64_t idle_since; /* the last test ended (or the session began) at; 0 in a test */
	int64_t idle_spent; /* time outside tests before idle_since */
	const char *test;   /* the test running (guarded by d->mu), NULL between tests */
	bool authed;        /* the client proved the key: HELLO_ACK carries our proof */
	uint8_t proof[WS_SHA256_LEN];
	int *data_fds; /* guarded by d->mu so stop can shut them down */
	uint32_t ndata;
	/* The last test's log line, written once the client confirms with BYE (or says
	 * nothing and leaves): this side finishing is not the test succeeding. */
	char pending[192];
	bool netperf;  /* a stock netperf client: served by session/npserve.c */
	ws_ratelog rl; /* its log lines (session/slog.h), written by its thread only */
	uint8_t np_first[WS_NP_MSG_LEN]; /* its first request, read by the prelude */
	struct ws_session *next;
} ws_session;

struct ws_daemon {
	ws_daemon_config cfg;
	int lfd[2];
	int nlfd;
	int wake[2]; /* stop pipe: readable once stop was requested */
	uint16_t port;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	ws_budget budget;    /* the buffers of running tests, against cfg.max_memory */
	ws_fdbudget fds;     /* the descriptors of running tests, against what is left */
	unsigned threads;    /* live session threads */
	unsigned admitted;   /* sessions counted against max_sessions (threads and serve_fd) */
	ws_psk *psk;         /* the daemon's own copy, wiped on free; NULL without a key */
	char *np_passphrase; /* the same for netperf's -Z passphrase */
	unsigned long long np_bad; /* malformed netperf messages since start (under mu) */
	uint64_t next_id;
	ws_session *sessions;
	bool stopping;
	pthread_t bg;
	bool bg_running;
};

#endif
