/* admission: the daemon's private state, and the part of the daemon that decides who
 * becomes a session.
 *
 * daemon.c serves sessions and runs their tests; admission.c owns the listener's event
 * loop (ws_daemon_run), where every connection spends its pre-session phase
 * (session/prelude.h) without a thread, admits sessions against --max-sessions (a busy
 * refusal names who holds the daemon), and starts their threads; ws_daemon_serve_fd runs
 * the same phase for one socket in the caller's thread. Both files share the structs
 * below, which nothing outside src/session sees. */
#ifndef WS_SESSION_ADMISSION_H
#define WS_SESSION_ADMISSION_H

#include "ctl/channel.h"
#include "model/result.h"
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

/* admission.c: how long a session may stay without a test. The deadline of its current
 * gap between tests (--idle-timeout from the last test's end, and what is left of its
 * total outside tests); a test begins / ends. */
int64_t ws_session_idle_deadline(const ws_session *s);
void ws_session_test_begins(ws_session *s);
void ws_session_test_ends(ws_session *s);
/* The reason a session whose idle deadline passed is closed, into err (-WS_E_TIMEDOUT). */
int ws_session_idle_explain(const ws_session *s, struct ws_err *err);

/* daemon.c: HELLO_ACK, then the session's messages until BYE, a close or the idle
 * timeout; counts the session out of d->admitted at the end. */
void ws_daemon_session_serve(ws_session *s);
/* daemon.c: unlink s from d->sessions, close and free it; the caller holds d->mu. */
void ws_daemon_session_end(ws_daemon *d, ws_session *s);
/* daemon.c: a session thread's body (serve, end, count the thread out). */
void *ws_daemon_session_thread(void *arg);
/* daemon.c: charge a test's buffers (known from the sizes applied at setup) against the
 * daemon's memory budget; *charged is what to release after the test. */
int ws_daemon_charge_test(ws_daemon *d, const ws_test_spec *spec, const ws_side_result *setup,
			  uint64_t *charged, struct ws_err *err);
/* daemon.c: one log line through the daemon's log callback. */
void ws_daemon_log(ws_daemon *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* daemon.c: a UDP test's data address (client) must be the control connection's (or both
 * loopback): no datagram goes to an address that did not connect. asked names it. */
int ws_daemon_check_udp_peer(const ws_session *s, const ws_addr *client, const char *asked,
			     struct ws_err *err);

#endif
