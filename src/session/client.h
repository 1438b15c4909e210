/* SPDX-License-Identifier: BSD-2-Clause */
/* client: one test from the client's side, from connecting the control channel to the
 * combined result.
 *
 * Connects (trying every address of the host), exchanges HELLO, sends the spec, builds
 * the data connection before the measured interval, passes the START barrier, runs the
 * local role and collects the daemon's half. A stock netserver is found by the probe of
 * session/probe.h (--peer auto) or named (--peer netserver), and the test then runs over
 * netperf's protocol (session/npclient.h); a peer that is neither is named as such
 * instead of hanging or printing garbage. */
#ifndef WS_SESSION_CLIENT_H
#define WS_SESSION_CLIENT_H

#include "model/result.h"
#include "net/addr.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;
struct ws_psk;
struct ws_lul_result;

/* Which protocol the peer on the control port speaks (--peer). AUTO tells them apart
 * from the first answer (session/probe.h). */
enum ws_peer { WS_PEER_AUTO = 0, WS_PEER_WARPSPEED, WS_PEER_NETSERVER };

typedef struct ws_client_config {
	const char *host;       /* -H, default "localhost" */
	int host_family;        /* 0, 4, 6 (from -4/-6 or "host,6") */
	const char *local_host; /* -L, may be NULL */
	int local_family;
	uint16_t port;       /* control port, default 12865 */
	uint16_t local_port; /* local control port, 0 = any */
	int64_t connect_timeout_ns;
	int64_t hello_timeout_ns;
	double start_wait_s;        /* -s: wait this long between setup and START (at most
	                         * WS_MAX_START_WAIT_S, which the daemon's START timeout allows) */
	const struct ws_psk *psk;   /* NULL: no key; else proven to a daemon that asks for it,
	                           * or sent to a netserver as netperf's -Z passphrase */
	bool allow_unauthenticated; /* with a key: run against a warpspeed daemon that does not
	                             * ask for it (else refused with -WS_E_AUTH) */
	enum ws_peer peer;          /* --peer, default WS_PEER_AUTO */
	/* Notes for people (NULL: none), e.g. that the daemon did not ask for the key. */
	void (*note)(void *ctx, const char *line);
	void *note_ctx;
	/* -D (NULL: none): interim results of the client's side (measure/interim.h), with
	 * a counter per flow (nflows >= spec->streams); see ws_workload_run_interim. */
	struct ws_interim *interim;
	/* Called once the data connections are up, right before START (NULL: none), with
	 * the result's identity filled (addresses, family, spec, data ports): what a banner
	 * printed before the test needs (-D prints its lines under the banner as they come). */
	void (*on_start)(void *ctx, const ws_test_result *r);
	void *start_ctx;
	/* RRUL (model/lul.h): the flows' sampling step (the -D interval; 0 = 0.2 s) and, for
	 * -D, a call after every step with the series so far (NULL: none). */
	double lul_step_s;
	void (*lul_tick)(void *ctx, const struct ws_lul_result *r);
	void *lul_ctx;
	/* The client's data sockets of a running test (NULL: none): called with open true
	 * right before START and with open false right before the session closes them, on
	 * the session's thread. Between the two calls another thread may read them (TCP_INFO)
	 * or shut them down to end the test early (session/rpm.h). */
	void (*on_data)(void *ctx, const int *fds, uint32_t n, bool open);
	void *data_ctx;
	/* What needs a warpspeed daemon (NULL: nothing), e.g. "-t RPM": a netserver found on
	 * the control port is refused with -WS_E_PEER naming it, before any test runs. */
	const char *needs_warpspeed;
} ws_client_config;

void ws_client_config_init(ws_client_config *c);

/* A client that runs tests in turn (-i iterations). A netserver's control connection is
 * kept between them (netperf sends every iteration's DO_OMNI on one connection); a
 * warpspeed daemon gets a session per test. What answered the first test is remembered,
 * so --peer auto probes once. */
typedef struct ws_client {
	const ws_client_config *cfg;
	int np_fd;          /* an open netserver control connection, or -1 */
	ws_addr np_peer;    /* its address */
	enum ws_peer found; /* what answered so far (WS_PEER_AUTO before the first test) */
} ws_client;

void ws_client_init(ws_client *cl, const ws_client_config *c);
/* One test, as ws_client_run_test; -WS_E_PEER (a usage error) when the peer is a netserver
 * and the spec asks for what only a warpspeed daemon does. */
int ws_client_test(ws_client *cl, const ws_test_spec *spec, ws_test_result *out,
		   struct ws_err *err);
/* Ends a kept netserver session (netperf's half-close); the client may be reused. */
void ws_client_close(ws_client *cl);

/* Run one test. On success *out holds both sides; call ws_test_result_free(out) after
 * it, whatever the outcome. Errors: -ECONNREFUSED when nothing
 * listens (the CLI may then start an in-process daemon), -WS_E_NOTWS when the peer is
 * neither a warpspeed daemon nor a netserver, -WS_E_LIMIT when the daemon refused,
 * -WS_E_AUTH when the key is missing or refused or the daemon failed to prove it,
 * -WS_E_PEER for what a netserver cannot do, others as named. */
int ws_client_run_test(const ws_client_config *c, const ws_test_spec *spec, ws_test_result *out,
		       struct ws_err *err);

#endif
