/* SPDX-License-Identifier: BSD-2-Clause */
/* test_sendfile_span: how much of the file TCP_SENDFILE sends before it wraps
 * (ws_tcpio_sendfile_span, net/tcpio.h): netperf 2.7's ring of send-size pieces, as many as
 * the send socket buffer holds plus one, at least two, at most the file. The 16 KiB case is
 * what strace shows netperf doing with a 10 MB file on loopback: offsets 0, 16384, 0, ... */
#include "harness.h"

#include "net/tcpio.h"

static void span(void)
{
	const char *n = "span";
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(10000000, 16384, 16384), 32768);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(10000000, 16384, 4096), 5 * 4096);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(10000000, 16384, 100000), 200000);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(10000000, 131072, 16384), 9 * 16384);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(300001, 1 << 20, 100000), 300001);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(20000, 16384, 16384), 20000);
	CHECK_INT(n, (int)ws_tcpio_sendfile_span(20000, 16384, 0), 20000);
}

int main(void)
{
	RUN(span);
	TEST_MAIN_END();
}
