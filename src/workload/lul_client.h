/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_client: one latency-under-load run (RRUL), the client's half (the daemon's is
 * workload/lul_serve.h).
 *
 * The client greets every TCP connection (workload/lul_load.h), starts the two load
 * directions and the probes (workload/lul_probe.h) at one instant, and samples each flow's
 * byte counter every step into the run's series (Mbit/s over the step just ended), while
 * the probes add theirs. The daemon answers the greetings, runs the opposite directions
 * and echoes the probes, each UDP probe on an echo socket and thread of its own:
 * datagrams back to their sender with the mark they arrived with (and that mark written
 * into the reply, so the client learns what reached the daemon), and the TCP probe's
 * bytes back on its connection; the echo ends when the client closes that connection. A failed flow, a probe that shows the daemon gone and the
 * daemon's limits end the run early; what was measured up to then stays in the series. */
#ifndef WS_WORKLOAD_LUL_CLIENT_H
#define WS_WORKLOAD_LUL_CLIENT_H

#include "model/lul.h"
#include "model/result.h"
#include "net/addr.h"
#include "workload/lul_probe.h"

#include <stdint.h>

struct ws_err;

typedef struct ws_lul_client_params {
	const ws_test_spec *spec;
	const int *fds;   /* ws_lul_connections(&out->plan): the plan's flows, then the TCP probe */
	ws_lul_echo echo; /* the daemon's UDP echo (its address also gets the ICMP probes) */
	/* -D (NULL: none): called after every sampling step with the result so far, under
	 * the lock that keeps the probes from pushing meanwhile. */
	void (*tick)(void *ctx, const ws_lul_result *r);
	void *tick_ctx;
} ws_lul_client_params;

/* Run the client's half; out->plan must be made (ws_lul_plan_make). Fills out's series and
 * marks and res (this side: bytes, flows, threads, elapsed time). On an early end returns
 * the error and leaves what was measured in out (out->stopped says why). */
int ws_lul_client_run(const ws_lul_client_params *p, ws_lul_result *out, ws_side_result *res,
		      struct ws_err *err);

#endif
