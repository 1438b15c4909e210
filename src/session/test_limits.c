/* SPDX-License-Identifier: BSD-2-Clause */
/* test_limits: data-port and time-cap rules of one test; see test_limits.h. */
#include "session/test_limits.h"

#include "util/clock.h"
#include "util/err.h"

#define FIRST_UNPRIVILEGED 1024u

int ws_limits_check_ports(const ws_test_spec *spec, bool udp, bool allow_privileged, ws_err *err)
{
	uint32_t first = spec->remote.data_port;
	if (first == 0) /* ephemeral: the kernel picks an unprivileged port */
		return 0;
	uint32_t n = udp ? spec->streams : 1;
	uint32_t last = first + n - 1; /* streams <= WS_MAX_STREAMS: no wrap */
	if (last > 65535)
		return ws_err_set(err, WS_E_INVAL,
				  "remote data ports %u to %u (-P ,%u with %u UDP flows, one port "
				  "each) run past "
				  "65535; expected a first port of at most %u",
				  first, last, first, n, 65536 - n);
	if (first >= FIRST_UNPRIVILEGED || allow_privileged)
		return 0;
	uint32_t last_priv = last < FIRST_UNPRIVILEGED ? last : FIRST_UNPRIVILEGED - 1;
	if (last_priv == first)
		return ws_err_set(
			err, WS_E_LIMIT,
			"remote data port %u is privileged (below %u), which this daemon refuses; "
			"expected 0 (any) or %u to 65535 (warpspeed serve "
			"--allow-privileged-ports)",
			first, FIRST_UNPRIVILEGED, FIRST_UNPRIVILEGED);
	return ws_err_set(
		err, WS_E_LIMIT,
		"remote data ports %u to %u are privileged (below %u), which this daemon refuses; "
		"expected 0 (any) or %u to 65535 (warpspeed serve --allow-privileged-ports)",
		first, last_priv, FIRST_UNPRIVILEGED, FIRST_UNPRIVILEGED);
}

int64_t ws_limits_cap_ns(double max_duration_s, int64_t start_ns)
{
	return start_ns + (int64_t)(max_duration_s * WS_NS_PER_SEC) + WS_CAP_END_NS;
}

void ws_limits_explain_cap(double max_duration_s, ws_err *err)
{
	ws_err_prefix(err,
		      "the test ran into this daemon's limit of %g s per test, counted from START "
		      "(warpspeed serve --max-duration)",
		      max_duration_s);
}
