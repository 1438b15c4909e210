/* SPDX-License-Identifier: BSD-2-Clause */
/* test_budget: the daemon's memory budget and the per-test rules (data ports, time cap),
 * with the exact messages a refused client prints. */
#include "harness.h"

#include "session/budget.h"
#include "session/test_limits.h"
#include "util/clock.h"
#include "util/err.h"

static void test_charge_release(void)
{
	ws_budget b;
	ws_budget_init(&b, 512ull << 20);
	ws_err err;
	CHECK_INT("4 GiB refused", ws_budget_charge(&b, 4ull << 30, "REQ", &err), -WS_E_LIMIT);
	CHECK_STR("message", err.msg,
		  "REQ, over this daemon's memory budget of 512 MiB (0 B held by other tests) "
		  "(warpspeed serve --max-memory)");
	CHECK_INT("300M", ws_budget_charge(&b, 300u << 20, "A", &err), 0);
	CHECK_INT("second 300M refused", ws_budget_charge(&b, 300u << 20, "B", &err), -WS_E_LIMIT);
	CHECK_STR("held by others", err.msg,
		  "B, over this daemon's memory budget of 512 MiB (300 MiB held by other tests) "
		  "(warpspeed serve --max-memory)");
	CHECK_INT("exactly the rest", ws_budget_charge(&b, 212u << 20, "C", &err), 0);
	CHECK_U64("held", ws_budget_held(&b), 512ull << 20);
	CHECK_INT("1 byte more", ws_budget_charge(&b, 1, "D", &err), -WS_E_LIMIT);
	ws_budget_release(&b, 300u << 20);
	ws_budget_release(&b, 212u << 20);
	CHECK_U64("free again", ws_budget_held(&b), 0);
	CHECK_INT("UINT64_MAX refused", ws_budget_charge(&b, UINT64_MAX, "E", &err), -WS_E_LIMIT);
	ws_budget_release(&b, 5); /* more than held never wraps */
	CHECK_U64("never below 0", ws_budget_held(&b), 0);
	ws_budget_destroy(&b);
}

static void test_ports(void)
{
	ws_test_spec s;
	ws_test_spec_init(&s);
	ws_err err;
	CHECK_INT("ephemeral", ws_limits_check_ports(&s, false, false, &err), 0);
	s.remote.data_port = 80;
	CHECK_INT("80 tcp", ws_limits_check_ports(&s, false, false, &err), -WS_E_LIMIT);
	CHECK_STR("80 text", err.msg,
		  "remote data port 80 is privileged (below 1024), which this daemon refuses; expected 0 "
		  "(any) or 1024 to 65535 (warpspeed serve --allow-privileged-ports)");
	CHECK_INT("80 allowed", ws_limits_check_ports(&s, false, true, &err), 0);
	s.remote.data_port = 1023;
	s.streams = 2;
	CHECK_INT("1023 tcp, 2 streams: one listener", ws_limits_check_ports(&s, false, false, &err), -WS_E_LIMIT);
	CHECK_INT("1023 udp, 2 flows", ws_limits_check_ports(&s, true, false, &err), -WS_E_LIMIT);
	CHECK_STR("1023 udp text", err.msg,
		  "remote data port 1023 is privileged (below 1024), which this daemon refuses; expected 0 "
		  "(any) or 1024 to 65535 (warpspeed serve --allow-privileged-ports)");
	s.remote.data_port = 1024;
	CHECK_INT("1024", ws_limits_check_ports(&s, true, false, &err), 0);
	s.remote.data_port = 65535;
	CHECK_INT("65535 tcp", ws_limits_check_ports(&s, false, false, &err), 0);
	CHECK_INT("65535 udp x2", ws_limits_check_ports(&s, true, true, &err), -WS_E_INVAL);
	CHECK_STR("past 65535", err.msg,
		  "remote data ports 65535 to 65536 (-P ,65535 with 2 UDP flows, one port each) run past "
		  "65535; expected a first port of at most 65534");
}

static void test_cap(void)
{
	CHECK_U64("cap", ws_limits_cap_ns(2, 1000), 1000 + 2 * WS_NS_PER_SEC + WS_CAP_END_NS);
	ws_err err;
	ws_err_set(&err, WS_E_LIMIT, "stopped by the time cap after 2.5 s, 7 bytes received");
	ws_limits_explain_cap(2, &err);
	CHECK_STR("explained", err.msg,
		  "the test ran into this daemon's limit of 2 s per test, counted from START (warpspeed "
		  "serve --max-duration): stopped by the time cap after 2.5 s, 7 bytes received");
}

int main(void)
{
	RUN(test_charge_release);
	RUN(test_ports);
	RUN(test_cap);
	TEST_MAIN_END();
}
