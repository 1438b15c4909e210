/* SPDX-License-Identifier: BSD-2-Clause */
/* engine: names of the I/O engines and the tests the io_uring engine runs; see engine.h. */
#include "model/engine.h"

#include "model/spec.h"
#include "model/testtype.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {"auto", "epoll", "io_uring"};

const char *ws_engine_name(enum ws_engine e)
{
	return (unsigned)e < sizeof(names) / sizeof(names[0]) ? names[e] : NULL;
}

int ws_engine_parse(const char *s, enum ws_engine *e, ws_err *err)
{
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*e = (enum ws_engine)i;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not an engine; expected auto, epoll or io_uring", s);
}

/* The tests the io_uring engine runs; one row each (what it does not run of them is in
 * ws_engine_uring_runs). */
static const enum ws_test_type uring_tests[] = {
	WS_TEST_TCP_STREAM, WS_TEST_TCP_MAERTS, WS_TEST_TCP_SENDFILE, WS_TEST_TCP_RR,
	WS_TEST_TCP_CRR,    WS_TEST_TCP_CC,     WS_TEST_UDP_STREAM,   WS_TEST_UDP_RR};
#define URING_TESTS_TEXT                                                                \
	"TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, TCP_RR (closed loop), TCP_CRR, TCP_CC, " \
	"UDP_STREAM (without --gso, --gro and --no-mmsg) and UDP_RR (closed loop)"

bool ws_engine_uring_runs(const ws_test_spec *s, char *why, size_t whysz)
{
	bool listed = false;
	for (size_t i = 0; i < sizeof(uring_tests) / sizeof(uring_tests[0]); i++)
		listed |= uring_tests[i] == s->type;
	const char *name = ws_test_type_name(s->type);
	if (!listed && ws_test_type_probe(s->type)) {
		snprintf(why, whysz,
			 "%s moves no data, so there is nothing for an I/O engine to run; the "
			 "io_uring engine runs " URING_TESTS_TEXT,
			 name);
		return false;
	}
	if (!listed) {
		snprintf(why, whysz,
			 "the io_uring engine does not run %s yet; it runs " URING_TESTS_TEXT,
			 name ? name : "this test");
		return false;
	}
	if (s->rate > 0) {
		snprintf(why, whysz,
			 "the io_uring engine does not run an open-loop %s (--rate) yet; it "
			 "runs " URING_TESTS_TEXT,
			 name);
		return false;
	}
	if (s->busy_poll) {
		snprintf(why, whysz,
			 "the io_uring engine waits in the kernel and does not spin; drop "
			 "--busy-poll or use --engine epoll");
		return false;
	}
	if (s->zerocopy || s->skip_rx_copy || s->splice || s->call_latency) {
		snprintf(why, whysz,
			 "the io_uring engine has its own I/O path; drop --zerocopy, "
			 "--skip-rx-copy, --splice and latency outputs of a stream test, or use "
			 "--engine epoll");
		return false;
	}
	if (s->type == WS_TEST_UDP_STREAM && (s->gso || s->gro || s->no_batch)) {
		snprintf(
			why, whysz,
			"the io_uring engine batches its own UDP_STREAM datagrams (no UDP_SEGMENT, "
			"no UDP_GRO, no one-call-per-datagram path); drop --gso, --gro and "
			"--no-mmsg, or use --engine epoll");
		return false;
	}
	why[0] = '\0';
	return true;
}

/* TCP_CRR's connections all bind one local port (-P lport with -p max at or below it, or
 * lport 65535): each reuses the 4-tuple of the one before. */
static bool one_local_port(const ws_test_spec *s)
{
	uint32_t first = s->local.data_port;
	return first != 0 && ws_local_port_last(first, s->local_port_max) == first;
}

bool ws_engine_uring_pays(const ws_test_spec *s)
{
	/* decided by bench/engines.sh; see docs/engines.md. TCP_CRR on one local port stays
	 * on epoll: there the io_uring client's connects wait out a 1 s SYN retransmission
	 * far more often than the epoll client's (10 of 22 rounds against 1 of 22). */
	return (s->type == WS_TEST_TCP_RR && s->streams > 1 && s->rate <= 0) ||
		(s->type == WS_TEST_TCP_CRR && !one_local_port(s));
}
