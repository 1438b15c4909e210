/* SPDX-License-Identifier: BSD-2-Clause */
/* test_limits: the per-test rules a daemon applies to a request beyond its spec's own
 * consistency: which data ports a client may make it listen on, and the wall-clock cap
 * from START that ends every test whatever its length says (--max-duration).
 *
 * Kept apart from the daemon's session handling so that each rule is one function with
 * its message, and the daemon only calls them. */
#ifndef WS_SESSION_TEST_LIMITS_H
#define WS_SESSION_TEST_LIMITS_H

#include "model/spec.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* Past START + max-duration a test gets this long to finish its end (a test that asked
 * for exactly the limit still drains and exchanges its END markers). */
#define WS_CAP_END_NS (500 * 1000000LL)

/* The remote data ports a request names (-P ,PORT: PORT for TCP's one listener; PORT +
 * flow index for each UDP flow) must lie within 1..65535, and not below 1024 unless
 * allow_privileged (serve --allow-privileged-ports). Returns 0 or -WS_E_LIMIT (-WS_E_INVAL
 * for a range past 65535) with a message naming the port, the rule and the option. */
int ws_limits_check_ports(const ws_test_spec *spec, bool udp, bool allow_privileged,
			  struct ws_err *err);

/* The monotonic time at which a test that passed START at start_ns ends:
 * start + max_duration_s + WS_CAP_END_NS. */
int64_t ws_limits_cap_ns(double max_duration_s, int64_t start_ns);

/* Turn an engine's "stopped by the time cap ..." (-WS_E_LIMIT) into the message the client
 * prints: the limit, the option, and how far the test got. */
void ws_limits_explain_cap(double max_duration_s, struct ws_err *err);

#endif
