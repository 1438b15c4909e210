/* SPDX-License-Identifier: BSD-2-Clause */
/* policy: what both protocol front ends of the daemon apply; see policy.h. */
#include "session/policy.h"

#include "session/test_limits.h"
#include "util/affinity.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/engines.h"
#include "workload/run.h"

#include <stdio.h>
#include <string.h>

/* --- a test's admission ------------------------------------------------------------ */

int ws_daemon_check_test(ws_daemon *d, const ws_test_spec *spec, ws_err *err)
{
	if (ws_test_spec_validate(spec, err) < 0)
		return err ? err->code : -WS_E_INVAL;
	if (!ws_workload_supported(spec->type))
		return ws_err_set(err, WS_E_INVAL, "test %s is not supported by this daemon",
				  ws_test_type_name(spec->type));
	if (spec->end == WS_END_TIME && spec->duration_s > d->cfg.max_duration_s)
		return ws_err_set(err, WS_E_LIMIT,
				  "a %.0f s test exceeds this daemon's limit of %.0f s (warpspeed "
				  "serve --max-duration)",
				  spec->duration_s, d->cfg.max_duration_s);
	if (spec->streams > d->cfg.max_streams)
		return ws_err_set(err, WS_E_LIMIT,
				  "%u streams exceed this daemon's limit of %u (warpspeed serve "
				  "--max-streams)",
				  spec->streams, d->cfg.max_streams);
	/* UDP_STREAM runs a thread per flow; TCP and the RR tests the threads asked for. */
	uint32_t threads = ws_test_type_udp(spec->type) && !ws_test_type_transacts(spec->type) &&
			spec->streams > 1
		? spec->streams
		: spec->remote_threads;
	if (threads > d->cfg.max_threads)
		return ws_err_set(err, WS_E_LIMIT,
				  "%u worker threads exceed this daemon's limit of %u (warpspeed "
				  "serve --max-threads)",
				  threads, d->cfg.max_threads);
	int rc = ws_limits_check_ports(spec, ws_test_type_udp(spec->type),
				       d->cfg.allow_privileged_ports, err);
	if (rc == 0)
		rc = ws_workload_check_cpus(spec, false, err);
	enum ws_engine engine; /* the client's --engine, as this host can run it */
	if (rc == 0)
		rc = ws_engine_resolve_side(spec, false, &engine, err);
	if (rc == 0 && spec->remote.cpu >= 0)
		rc = ws_affinity_pin_self(spec->remote.cpu, err);
	return rc;
}

/* Charge the test's buffers (known once the sockets report their sizes, before any buffer
 * is allocated) against the daemon's budget; *charged is what to release. */
int ws_daemon_charge_test(ws_daemon *d, const ws_test_spec *spec, const ws_side_result *setup,
			  uint64_t *charged, ws_err *err)
{
	ws_workload_cost cost;
	ws_workload_cost_of(spec, false, setup, &cost);
	char what[WS_ERR_MSG_MAX];
	ws_workload_cost_describe(spec, &cost, what, sizeof(what));
	int rc = ws_budget_charge(&d->budget, cost.bytes, what, err);
	*charged = rc == 0 ? cost.bytes : 0;
	return rc;
}

/* UDP has no handshake: a daemon that sent datagrams (UDP_RR responses of up to 64 KiB to
 * 1-byte requests, which anyone can forge) to whatever address a client named would be an
 * amplifier toward an address that never asked. So a UDP test's data address (test option
 * -L) must be the control connection's own address, which TCP's handshake proved; two
 * loopback addresses are one host and are allowed. TCP data connections carry the
 * session's cookie and need no such rule. */
int ws_daemon_check_udp_peer(const ws_session *s, const ws_addr *client, const char *asked,
			     ws_err *err)
{
	if (ws_addr_same_host(client, &s->peer))
		return 0;
	char b[64];
	ws_addr_format(&s->peer, b, sizeof(b));
	return ws_err_set(err, WS_E_LIMIT,
			  "test option -L %s: a UDP test's data must come from the control "
			  "connection's address %s (this daemon sends no datagrams to an address "
			  "that did not connect to it)",
			  asked, b);
}

/* --- time without a test ---------------------------------------------------------- */

/* A peer that sends a harmless message (netperf's DO_SYSINFO, CPU_CALIBRATE) just inside
 * the idle timeout could hold its sessions forever: 64 of them locked every other client
 * out. So only a test renews the deadline, and a session's gaps together are bounded. */
static int64_t idle_total_ns(const ws_session *s)
{
	return s->d->cfg.idle_timeout_ns * WS_IDLE_TOTAL_FACTOR;
}

int64_t ws_session_idle_deadline(const ws_session *s)
{
	int64_t gap = s->idle_since + s->d->cfg.idle_timeout_ns;
	int64_t total = s->idle_since + (idle_total_ns(s) - s->idle_spent);
	return gap < total ? gap : total;
}

void ws_session_test_begins(ws_session *s)
{
	if (s->idle_since)
		s->idle_spent += ws_clock_ns() - s->idle_since;
	s->idle_since = 0;
}

void ws_session_test_ends(ws_session *s) { s->idle_since = ws_clock_ns(); }

int ws_session_idle_explain(const ws_session *s, ws_err *err)
{
	double idle = (double)s->d->cfg.idle_timeout_ns / WS_NS_PER_SEC;
	if (s->idle_since + s->d->cfg.idle_timeout_ns <= ws_session_idle_deadline(s))
		return ws_err_set(err, WS_E_TIMEDOUT,
				  "no test for %.3g s (warpspeed serve --idle-timeout); messages "
				  "that are not "
				  "tests do not count",
				  idle);
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "%.3g s outside tests in all, this daemon's limit per session (%d x "
			  "warpspeed serve "
			  "--idle-timeout %.3g)",
			  (double)idle_total_ns(s) / WS_NS_PER_SEC, WS_IDLE_TOTAL_FACTOR, idle);
}
