/* SPDX-License-Identifier: BSD-2-Clause */
/* policy: the daemon's rules that both of its protocol front ends apply, warpspeed's
 * (session/wsserve.c) and netperf's (session/npserve.c), written once: which test is
 * admitted (its spec valid, its length, flows, threads, ports and CPUs within this
 * daemon's limits), what its buffers charge against the memory budget, where a UDP
 * test's datagrams may go, and how long a session may stay without a test. It calls
 * neither front end nor the listener (session/admission.c). */
#ifndef WS_SESSION_POLICY_H
#define WS_SESSION_POLICY_H

#include "model/result.h"
#include "session/daemon_state.h"

struct ws_err;

/* Admit a test's spec: valid, supported, within --max-duration, --max-streams and
 * --max-threads, on allowed data ports and existing CPUs; the calling thread is pinned to
 * the spec's remote CPU when it names one. */
int ws_daemon_check_test(ws_daemon *d, const ws_test_spec *spec, struct ws_err *err);

/* Charge a test's buffers (known from the sizes applied at setup) against the daemon's
 * memory budget; *charged is what to release after the test. */
int ws_daemon_charge_test(ws_daemon *d, const ws_test_spec *spec, const ws_side_result *setup,
			  uint64_t *charged, struct ws_err *err);

/* A UDP test's data address (client) must be the control connection's (or both
 * loopback): no datagram goes to an address that did not connect. asked names it. */
int ws_daemon_check_udp_peer(const ws_session *s, const ws_addr *client, const char *asked,
			     struct ws_err *err);

/* How long a session may stay without a test. The deadline of its current gap between
 * tests (--idle-timeout from the last test's end, and what is left of its total outside
 * tests); a test begins / ends. */
int64_t ws_session_idle_deadline(const ws_session *s);
void ws_session_test_begins(ws_session *s);
void ws_session_test_ends(ws_session *s);
/* The reason a session whose idle deadline passed is closed, into err (-WS_E_TIMEDOUT). */
int ws_session_idle_explain(const ws_session *s, struct ws_err *err);

#endif
