/* SPDX-License-Identifier: BSD-2-Clause */
/* test_engine: --engine's names and values, the tests the io_uring engine runs and where
 * auto takes it (model/engine.h), and one side's choice (workload/engines.h) with the
 * run-time probe made to fail by the tests' switch, WS_TEST_NO_IO_URING. */
#include "harness.h"

#include "model/engine.h"
#include "model/spec.h"
#include "net/uring.h"
#include "util/err.h"
#include "workload/engines.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void names(void)
{
	const char *n = "names";
	ws_err err;
	enum ws_engine e = WS_ENGINE_EPOLL;
	CHECK_INT(n, ws_engine_parse("io_uring", &e, &err), 0);
	CHECK_INT(n, (int)e, WS_ENGINE_IO_URING);
	CHECK_INT(n, ws_engine_parse("auto", &e, &err), 0);
	CHECK_INT(n, (int)e, WS_ENGINE_AUTO);
	CHECK_INT(n, ws_engine_parse("epoll", &e, &err), 0);
	CHECK_INT(n, (int)e, WS_ENGINE_EPOLL);
	CHECK_INT(n, ws_engine_parse("IO_URING", &e, &err), -WS_E_INVAL);
	CHECK_STR(n, err.msg, "'IO_URING' is not an engine; expected auto, epoll or io_uring");
	CHECK_STR(n, ws_engine_name(WS_ENGINE_IO_URING), "io_uring");
	CHECK(n, ws_engine_name((enum ws_engine)3) == NULL);
	/* an unknown engine on the wire is refused by the spec's validation */
	ws_test_spec s;
	ws_test_spec_init(&s);
	CHECK_INT(n, (int)s.engine, WS_ENGINE_AUTO);
	s.engine = (enum ws_engine)7;
	CHECK_INT(n, ws_test_spec_validate(&s, &err), -WS_E_INVAL);
	CHECK_STR(n, err.msg, "unknown engine 7");
}

static void what_io_uring_runs(void)
{
	const char *n = "what_io_uring_runs";
	ws_test_spec s;
	char why[400];
	ws_test_spec_init(&s);
	enum ws_test_type yes[] = {WS_TEST_TCP_STREAM, WS_TEST_TCP_MAERTS, WS_TEST_TCP_RR,
				   WS_TEST_TCP_CRR,    WS_TEST_TCP_CC,     WS_TEST_UDP_STREAM,
				   WS_TEST_UDP_RR,     WS_TEST_TCP_SENDFILE};
	enum ws_test_type no[] = {WS_TEST_TCP_MSS, WS_TEST_LOC_CPU};
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		s.type = yes[i];
		CHECK(n, ws_engine_uring_runs(&s, why, sizeof(why)));
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		s.type = no[i];
		CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	}
	/* the tests that move no data have nothing for an engine to run ... */
	s.type = WS_TEST_TCP_MSS;
	ws_engine_uring_runs(&s, why, sizeof(why));
	CHECK_STR(n, why,
		  "TCP_MSS moves no data, so there is nothing for an I/O engine to run; the "
		  "io_uring engine runs TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, TCP_RR (closed "
		  "loop), TCP_CRR, TCP_CC, UDP_STREAM (without --gso, --gro and --no-mmsg) and "
		  "UDP_RR (closed loop)");
	s.type = WS_TEST_REM_CPU;
	CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	CHECK(n, strncmp(why, "REM_CPU moves no data, so there is nothing", 42) == 0);
	/* ... the others that it does not run, not yet */
	s.type = WS_TEST_RRUL;
	CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	CHECK(n, strncmp(why, "the io_uring engine does not run RRUL yet; it runs TCP_STREAM,",
			 62) == 0);
	/* UDP_STREAM's offloads and its one-call-per-datagram path are epoll's */
	s.type = WS_TEST_UDP_STREAM;
	for (int k = 0; k < 3; k++) {
		s.gso = k == 0;
		s.gro = k == 1;
		s.no_batch = k == 2;
		CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
		CHECK_STR(n, why,
			  "the io_uring engine batches its own UDP_STREAM datagrams (no UDP_SEGMENT, "
			  "no UDP_GRO, no one-call-per-datagram path); drop --gso, --gro and "
			  "--no-mmsg, or use --engine epoll");
	}
	s.no_batch = false;
	s.type = WS_TEST_UDP_RR;
	s.rate = 100;
	CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	/* auto keeps epoll for both UDP tests (docs/engines.md) */
	s.rate = 0;
	s.streams = 8;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.type = WS_TEST_UDP_STREAM;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.streams = 1;
	s.type = WS_TEST_TCP_RR;
	s.rate = 100;
	CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	s.rate = 0;
	s.zerocopy = true;
	s.type = WS_TEST_TCP_STREAM;
	CHECK(n, !ws_engine_uring_runs(&s, why, sizeof(why)));
	/* auto takes io_uring only for several closed-loop TCP_RR flows ... */
	s.zerocopy = false;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.type = WS_TEST_TCP_RR;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.streams = 64;
	CHECK(n, ws_engine_uring_pays(&s));
	/* ... and for TCP_CRR (both ends; measured in docs/engines.md), not TCP_CC */
	s.streams = 1;
	s.type = WS_TEST_TCP_CRR;
	CHECK(n, ws_engine_uring_pays(&s));
	/* ... with their own local ports too (-P lport, -p min,max) ... */
	s.local.data_port = 45000;
	CHECK(n, ws_engine_uring_pays(&s));
	s.local_port_max = 45999;
	CHECK(n, ws_engine_uring_pays(&s));
	/* ... but not on one local port (-p 45000,40000 keeps netperf on 45000) */
	s.local_port_max = 45000;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.local.data_port = 65535;
	s.local_port_max = 0;
	CHECK(n, !ws_engine_uring_pays(&s));
	s.local.data_port = 0;
	s.type = WS_TEST_TCP_CC;
	CHECK(n, !ws_engine_uring_pays(&s));
}

static void resolve_without_io_uring(void)
{
	const char *n = "resolve_without_io_uring";
	ws_test_spec s;
	ws_err err;
	char note[160];
	enum ws_engine e;
	ws_test_spec_init(&s);
	s.type = WS_TEST_TCP_RR;
	s.streams = 64;
	setenv(WS_URING_TEST_OFF_ENV, "1", 1);
	char why[160];
	CHECK_INT(n, ws_uring_probe(why, sizeof(why)), -ENOSYS);
	CHECK_STR(n, why, "io_uring is switched off for this test (WS_TEST_NO_IO_URING=1)");
	s.engine = WS_ENGINE_IO_URING;
	CHECK_INT(n, ws_engine_resolve(&s, &e, note, sizeof(note), &err), -ENOSYS);
	CHECK_STR(n, err.msg,
		  "--engine io_uring cannot run here: io_uring is switched off for this test "
		  "(WS_TEST_NO_IO_URING=1); use --engine epoll or auto");
	s.engine = WS_ENGINE_AUTO;
	CHECK_INT(n, ws_engine_resolve(&s, &e, note, sizeof(note), &err), 0);
	CHECK_INT(n, (int)e, WS_ENGINE_EPOLL);
	CHECK_STR(n, note,
		  "engine auto: epoll, as io_uring is switched off for this test "
		  "(WS_TEST_NO_IO_URING=1)");
	/* where io_uring would not pay, auto says nothing */
	s.streams = 1;
	CHECK_INT(n, ws_engine_resolve(&s, &e, note, sizeof(note), &err), 0);
	CHECK_STR(n, note, "");
	/* a test io_uring does not run is refused before the probe */
	s.type = WS_TEST_TCP_MSS;
	s.engine = WS_ENGINE_IO_URING;
	CHECK_INT(n, ws_engine_resolve(&s, &e, note, sizeof(note), &err), -WS_E_INVAL);
	s.engine = WS_ENGINE_EPOLL;
	CHECK_INT(n, ws_engine_resolve(&s, &e, note, sizeof(note), &err), 0);
	CHECK_INT(n, (int)e, WS_ENGINE_EPOLL);
	unsetenv(WS_URING_TEST_OFF_ENV);
}

int main(void)
{
	RUN(names);
	RUN(what_io_uring_runs);
	RUN(resolve_without_io_uring);
	TEST_MAIN_END();
}
