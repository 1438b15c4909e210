/* SPDX-License-Identifier: BSD-2-Clause */
/* test_httpreq: the metrics endpoint's request parser (net/httpreq.h): what is served,
 * what is refused and with which status, what waits for more bytes. */
#include "harness.h"

#include "net/httpreq.h"

/* Parse s whole; returns the status, or 0 when the parser wants more. */
static int status_of(const char *s, ws_httpreq *r)
{
	return ws_httpreq_parse(s, strlen(s), r) ? r->status : 0;
}

static void test_served(void)
{
	ws_httpreq r;
	CHECK_INT("GET 1.1", status_of("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", &r), 200);
	CHECK("not head", !r.head);
	CHECK("prometheus text by default", !r.openmetrics);
	CHECK_INT("GET 1.0 without Host", status_of("GET /metrics HTTP/1.0\r\n\r\n", &r), 200);
	CHECK_INT("bare LF", status_of("GET /metrics HTTP/1.0\nUser-Agent: a\n\n", &r), 200);
	CHECK_INT("a query", status_of("GET /metrics?x=1 HTTP/1.0\r\n\r\n", &r), 200);
	CHECK_INT("leading blank line", status_of("\r\nGET /metrics HTTP/1.0\r\n\r\n", &r), 200);
	CHECK_INT("HEAD", status_of("HEAD /metrics HTTP/1.1\r\nhost: x\r\n\r\n", &r), 200);
	CHECK("head", r.head);
}

static void test_accept(void)
{
	const struct {
		const char *accept;
		bool om;
	} c[] = {
		/* Prometheus 2.42's scrape header */
		{"application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
		 "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		 true},
		{"application/openmetrics-text", true},
		{"Application/OpenMetrics-Text; version=0.0.1", true},
		{"text/plain;version=0.0.4;q=1, application/openmetrics-text;q=0.5", false},
		{"application/openmetrics-text;q=0", false},
		{"application/openmetrics-text;version=2.0.0", false},
		{"application/openmetrics-text;q=bogus", false},
		{"*/*", false},
		{"text/html, text/plain", false},
		{"text/plain;q=0.5, application/openmetrics-text;q=0.5", true},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char req[512];
		snprintf(req, sizeof(req), "GET /metrics HTTP/1.1\r\nHost: h\r\nAccept: %s\r\n\r\n",
			 c[i].accept);
		ws_httpreq r;
		CHECK_INT(c[i].accept, status_of(req, &r), 200);
		CHECK_INT(c[i].accept, r.openmetrics, c[i].om);
	}
}

static void test_refused(void)
{
	const struct {
		const char *req;
		int status;
	} c[] = {
		{"POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 405},
		{"DELETE /metrics HTTP/1.0\r\n\r\n", 405},
		{"GET / HTTP/1.0\r\n\r\n", 404},
		{"GET /metrics/ HTTP/1.0\r\n\r\n", 404},
		{"GET /metricsx HTTP/1.0\r\n\r\n", 404},
		{"GET /metrics HTTP/2.0\r\n\r\n", 505},
		{"GET /metrics HTTP/1.1\r\n\r\n", 400},                      /* no Host */
		{"GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400}, /* two */
		{"GET /metrics HTTP/1.0\r\n folded\r\n\r\n", 400},
		{"GET /metrics HTTP/1.0\r\nNo colon\r\n\r\n", 400},
		{"GET /metrics HTTP/1.0\r\n: empty name\r\n\r\n", 400},
		{"GET /metrics HTTP/1.0\r\nBad Name: x\r\n\r\n", 400},
		{"GET  /metrics HTTP/1.0\r\n\r\n", 400},
		{"GET /metrics\r\n\r\n", 400},
		{"G(T /metrics HTTP/1.0\r\n\r\n", 400},
		{"GET /metrics HTTP/1.0\r\nX: a\x01\r\n\r\n", 400},
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ws_httpreq r;
		CHECK_INT(c[i].req, status_of(c[i].req, &r), c[i].status);
		CHECK(c[i].req, r.why && *r.why);
	}
	ws_httpreq r;
	CHECK_STR("reason 405", ws_httpreq_reason(405), "Method Not Allowed");
	CHECK_STR("reason 431", ws_httpreq_reason(431), "Request Header Fields Too Large");
	/* NUL bytes, which a C string cannot show */
	CHECK_INT("NUL", ws_httpreq_parse("GET /\0", 6, &r), 1);
	CHECK_INT("NUL status", r.status, 400);
}

/* Junk is refused on its first bytes; a good request waits for its blank line; a head
 * past the limit is 431 when it reaches the limit, not later. */
static void test_early(void)
{
	ws_httpreq r;
	CHECK_INT("one byte of a method", status_of("G", &r), 0);
	CHECK_INT("junk first byte", status_of("\x16\x03\x01", &r), 400);
	CHECK_INT("a TLS hello is junk", r.status, 400);
	CHECK_INT("bare CR", status_of("GET\rX", &r), 400);
	CHECK_INT("CR at the end waits", status_of("GET /metrics HTTP/1.0\r", &r), 0);
	CHECK_INT("a bad request line at its LF", status_of("GET /metrics FOO\r\n", &r), 400);
	CHECK_INT("a good line waits", status_of("GET /metrics HTTP/1.1\r\nHost: x\r\n", &r), 0);
	CHECK_INT("404 waits for the head", status_of("GET /x HTTP/1.1\r\n", &r), 0);
	static char big[WS_HTTPREQ_MAX + 10];
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /metrics HTTP/1.0\r\nX: ", 26);
	CHECK_INT("one short of the limit", ws_httpreq_parse(big, WS_HTTPREQ_MAX - 1, &r), 0);
	CHECK_INT("at the limit", ws_httpreq_parse(big, WS_HTTPREQ_MAX, &r), 1);
	CHECK_INT("431", r.status, 431);
	CHECK_INT("past the limit", ws_httpreq_parse(big, sizeof(big), &r), 1);
	CHECK_INT("still 431", r.status, 431);
}

int main(void)
{
	RUN(test_served);
	RUN(test_accept);
	RUN(test_refused);
	RUN(test_early);
	TEST_MAIN_END();
}
