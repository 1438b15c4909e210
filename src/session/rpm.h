/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the responsiveness test (-t RPM), after draft-ietf-ippm-responsiveness, run by the
 * client against `warpspeed serve`.
 *
 * The test is composed of warpspeed's own sessions, one process at the client's end:
 * every load flow is a TCP_STREAM (up) or TCP_MAERTS (down) session of its own, so flows
 * can be added while the others run; every foreign probe is a TCP_CRR session of one
 * transaction (a new connection, connect + one request/response, timed by the CRR
 * engine); the self probes are the kernel's RTT estimates (TCP_INFO) of the load flows'
 * own sockets, read while they carry the load. First an idle phase measures foreign probes
 * alone; then the load phase adds a flow per direction each interval until goodput meets
 * the stability rule (measure/rpm.h), and probes throughout. The figures come from the
 * last MAD intervals. docs/rpm.md gives the method and each deviation from the draft.
 *
 * A load flow that fails, a probe that cannot connect or a daemon that refuses a session
 * ends the run: the others are shut down, and the result holds what was measured so far
 * with the reason in its error (the call returns the error too). */
#ifndef WS_SESSION_RPM_H
#define WS_SESSION_RPM_H

#include "model/rpm.h"
#include "model/spec.h"
#include "session/client.h"

struct ws_err;

typedef struct ws_rpm_config {
	const ws_client_config *client; /* where and how to connect; copied per session */
	const ws_test_spec *base;       /* sizes and socket options of the load flows */
	enum ws_rpm_dir dir;
	uint32_t max_flows; /* per direction, 1..WS_RPM_MAX_FLOWS */
	double probe_rate;  /* foreign probes per second, and self samples per second */
	double duration_s;  /* idle and load phases together */
} ws_rpm_config;

/* The phases' lengths for a run of duration_s: the idle phase (a tenth), the load phase
 * (the rest) and its interval (load / 15, from 0.1 to 1 s). */
void ws_rpm_plan(double duration_s, double *idle_s, double *load_s, double *interval_s);

/* Run the test. 0 and *out filled, or a negative error with err set and *out holding
 * what was measured so far (out->error says why it ended). Call ws_rpm_result_free(out)
 * either way. */
int ws_rpm_run(const ws_rpm_config *c, ws_rpm_result *out, struct ws_err *err);

#endif
