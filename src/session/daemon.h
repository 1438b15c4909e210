/* SPDX-License-Identifier: BSD-2-Clause */
/* daemon: `warpspeed serve`, the netserver replacement, as a library object.
 *
 * One thread per admitted control session, so no client can block another; before that
 * a connection costs no thread (its HELLO and authentication run in the listener's
 * event loop, session/prelude.h); an admission limit on concurrent sessions and on test
 * length, refused with an ERROR that the client prints; a timeout on every state
 * (hello, idle, data connect, test). The same object
 * runs in the foreground for `warpspeed serve` and in a background thread when the
 * client starts an in-process daemon. It never prints: one line per session goes to
 * the log callback. */
#ifndef WS_SESSION_DAEMON_H
#define WS_SESSION_DAEMON_H

#include <stdbool.h>
#include <stdint.h>

struct ws_err;
struct ws_psk;
struct ws_dmetrics;

/* A session spends at most this many idle timeouts outside tests in all. */
#define WS_IDLE_TOTAL_FACTOR 4
struct ws_addr;

typedef struct ws_daemon_config {
	const char *bind_host;          /* NULL = all addresses, IPv4 and IPv6 */
	uint16_t port;                  /* 0 = ephemeral (see ws_daemon_port) */
	int family;                     /* 0 any, 4, 6 */
	unsigned max_sessions;          /* concurrent control sessions admitted */
	unsigned max_sessions_per_addr; /* the same from one client address */
	unsigned max_streams;           /* flows one test may open */
	unsigned max_threads;           /* worker threads one test may start on the daemon */
	double max_duration_s; /* longest timed test accepted; every test ends at START + this
	                           * (+ WS_CAP_END_NS), whatever its length says */
	uint64_t max_memory;   /* buffer bytes all running tests may hold (session/budget.h) */
	bool allow_privileged_ports; /* let clients name remote data ports below 1024 */
	int64_t hello_timeout_ns;    /* connect → HELLO and authentication done */
	int64_t idle_timeout_ns;     /* between tests: each gap, from the last test's end (messages
	                           * that are not tests do not renew it); all gaps of a session
	                           * together get WS_IDLE_TOTAL_FACTOR times as long */
	unsigned max_pending;        /* connections before their session, in total */
	unsigned max_pending_per_source; /* the same, per source address */
	const struct ws_psk *psk;        /* NULL: no authentication; copied by ws_daemon_new */
	const char *np_passphrase;       /* netperf -Z: what a stock netperf client must send first
	                            * (NULL: none); copied by ws_daemon_new */
	bool no_listen;                  /* no listener: only ws_daemon_serve_fd (tests, fuzzers) */
	struct ws_dmetrics *metrics;     /* NULL: none; else counted there (session/dmetrics.h),
					  * owned by the caller, outliving the daemon */
	void (*log)(void *ctx, const char *line);
	void *log_ctx;
} ws_daemon_config;

typedef struct ws_daemon ws_daemon;

/* Defaults: port 12865, 64 sessions (16 per client address), 4096 streams, 64 threads, 3600 s, 512 MiB of buffers,
 * no privileged data ports, 2 s hello, 60 s idle, 512 pending connections, 8 per source
 * address, no key, no log. */
void ws_daemon_config_init(ws_daemon_config *c);

/* Bind and listen. Returns NULL with err filled on failure. */
ws_daemon *ws_daemon_new(const ws_daemon_config *c, struct ws_err *err);

/* The port actually bound (useful with port 0). */
uint16_t ws_daemon_port(const ws_daemon *d);

/* Serve until ws_daemon_stop; then stop accepting, shut down live sessions and wait up
 * to 2 s for them. Returns 0. */
int ws_daemon_run(ws_daemon *d);

/* Serve one connected socket in the calling thread, as the listener would serve an
 * accepted one: the pre-session phase (HELLO, authentication, admission) and then the
 * session, until it ends. peer NULL: the socket's peer address. Closes fd. Returns 0
 * when a session ran, or a negative code when the connection was refused or dropped
 * before (the log says why). */
int ws_daemon_serve_fd(ws_daemon *d, int fd, const struct ws_addr *peer);

/* Ask ws_daemon_run to return. Async-signal-safe (one write to a pipe). */
void ws_daemon_stop(ws_daemon *d);

/* Run ws_daemon_run in a background thread; ws_daemon_free stops and joins it. */
int ws_daemon_start_thread(ws_daemon *d, struct ws_err *err);

void ws_daemon_free(ws_daemon *d);

#endif
