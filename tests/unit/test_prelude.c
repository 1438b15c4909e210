/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prelude: the daemon's pre-session phase without a daemon: connections on
 * socketpairs with made-up source addresses, so that the choice of whom to close for the
 * per-source and total caps, the deadline, admission and the summary log line can be
 * checked exactly. */
#include "harness.h"

#include "ctl/channel.h"
#include "ctl/msg.h"
#include "ctl/npmsg.h"
#include "net/addr.h"
#include "session/prelude.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

struct seen {
	int admitted;
	int netperf;          /* admitted netperf clients */
	int32_t first_type;   /* the last one's first request */
	uint64_t ids;
	int lines;
	char log[4][1536];
};

static int on_admit(void *ctx, const ws_prelude_conn *c, char *why, size_t n)
{
	(void)why;
	(void)n;
	struct seen *s = ctx;
	s->admitted++;
	if (c->netperf) {
		s->netperf++;
		s->first_type = ws_np_type(c->np_first);
	}
	close(c->fd);
	return 0;
}

static uint64_t on_id(void *ctx)
{
	return ++((struct seen *)ctx)->ids;
}

static void on_log(void *ctx, const char *line)
{
	struct seen *s = ctx;
	if (s->lines < 4)
		snprintf(s->log[s->lines], sizeof(s->log[0]), "%s", line);
	s->lines++;
}

/* A pending connection from host:port; returns the client's end. */
static int add(ws_prelude *p, const char *host, uint16_t port)
{
	int sv[2];
	ws_addr a;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 || ws_addr_resolve(host, port, 4, 1, &a, NULL) != 0)
		abort();
	ws_prelude_add(p, sv[1], &a);
	return sv[0];
}

/* The ERROR text the daemon side sent on client end fd, or "" (closed without one). */
static void error_text(int fd, char *text, size_t n)
{
	ws_channel ch;
	ws_channel_init(&ch, fd);
	ws_tlv_msg m;
	text[0] = '\0';
	if (ws_channel_recv(&ch, &m, ws_clock_ns() + WS_NS_PER_SEC, NULL) == 0 && m.type == WS_MSG_ERROR)
		ws_tlv_get_str(&m, WS_F_ERR_MSG, text, n);
	ws_channel_close(&ch);
}

static void step(ws_prelude *p)
{
	struct pollfd pfd[8];
	size_t n = ws_prelude_fill(p, pfd, 8);
	poll(pfd, n, 0);
	ws_prelude_step(p, pfd, n);
}

static void test_caps_deadline_and_log(void)
{
	const char *t = "caps_deadline_and_log";
	struct seen s = {0};
	ws_prelude_config c = {.hello_timeout_ns = 300 * WS_NS_PER_MS, .max_pending = 4,
			       .max_pending_per_source = 2, .admit = on_admit, .new_id = on_id,
			       .log = on_log, .ctx = &s};
	ws_prelude *p = ws_prelude_new(&c, NULL);
	char text[512];
	int a1 = add(p, "10.0.0.1", 1001);
	CHECK_INT(t, write(a1, "WSPD\x01\x01", 6), 6); /* part of a HELLO, then nothing */
	int a2 = add(p, "10.0.0.1", 1002);              /* nothing yet */
	step(p);
	/* A third from 10.0.0.1 closes the one that stalled mid-frame, not the older silent one. */
	int a3 = add(p, "10.0.0.1", 1003);
	CHECK_INT(t, ws_prelude_pending(p), 2);
	error_text(a1, text, sizeof(text));
	CHECK_STR(t, text, "the daemon closed this connection: 3 connections from 10.0.0.1 were waiting to start a "
			   "session, past this daemon's limit per address (warpspeed serve --max-pending-per-source 2), "
			   "and this one had stalled longest");
	/* Young silent connections are spared by the per-source cap... */
	int a4 = add(p, "10.0.0.1", 1004);
	CHECK_INT(t, ws_prelude_pending(p), 3);
	int b1 = add(p, "10.0.0.2", 2001);
	CHECK_INT(t, ws_prelude_pending(p), 4);
	/* ...but not by the total cap: the oldest goes. */
	int b2 = add(p, "10.0.0.2", 2002);
	CHECK_INT(t, ws_prelude_pending(p), 4);
	error_text(a2, text, sizeof(text));
	CHECK_STR(t, text, "the daemon closed this connection: 5 connections were waiting to start a session, past "
			   "this daemon's limit (warpspeed serve --max-pending 4), and this was the oldest");
	/* A whole HELLO is admitted. */
	ws_tlv_writer w = {0};
	ws_tlv_begin(&w, WS_MSG_HELLO);
	ws_tlv_put_u64(&w, WS_F_PROTO, WARPSPEED_CTL_PROTOCOL);
	ws_tlv_finish(&w, NULL);
	CHECK_INT(t, write(a3, w.buf, w.len), (long long)w.len);
	ws_tlv_writer_free(&w);
	step(p);
	CHECK_INT(t, s.admitted, 1);
	CHECK_INT(t, ws_prelude_pending(p), 3);
	/* The rest time out, each told so. */
	ws_clock_sleep_ns(310 * WS_NS_PER_MS);
	step(p);
	CHECK_INT(t, ws_prelude_pending(p), 0);
	error_text(b1, text, sizeof(text));
	CHECK_STR(t, text, "HELLO not complete within 0.3 s (warpspeed serve --hello-timeout)");
	/* The two closures went out in one line at the next step; the timeouts, within 2 s of
	 * it, wait for the next summary (here: the one ws_prelude_free writes). */
	ws_prelude_free(p);
	CHECK_INT(t, s.lines, 2);
	CHECK(t, strstr(s.log[0], "pre-session: closed the oldest pending connection from 10.0.0.1:1001: 3 connections") == s.log[0]);
	CHECK(t, strstr(s.log[0], "; closed the oldest pending connection from 10.0.0.1:1002: 5 connections were waiting") != NULL);
	CHECK_STR(t, s.log[1], "pre-session: timed out from 10.0.0.1:1004: HELLO not complete within 0.3 s (warpspeed serve --hello-timeout) (and 2 more like it)");
	close(a3);
	close(a4);
	close(b2);
}

/* What the daemon side sent a netperf client: "eof" (closed without a reply), or the
 * reply's "type,serv_errno". */
static void np_reply(int fd, char *out, size_t n)
{
	uint8_t m[WS_NP_MSG_LEN];
	size_t got = 0;
	struct pollfd p = {.fd = fd, .events = POLLIN};
	while (got < sizeof(m) && poll(&p, 1, 1000) > 0) {
		ssize_t r = read(fd, m + got, sizeof(m) - got);
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	if (got == sizeof(m))
		snprintf(out, n, "%ld,%ld", (long)ws_np_type(m), (long)ws_np_word1(m));
	else
		snprintf(out, n, got ? "short" : "eof");
}

/* A stock netperf on the same port: told apart by its first byte, its passphrase checked
 * as netserver does (a wrong or missing one: closed without a reply), its first request
 * handed to the admission; a netperf connection stalled mid-message is the one the
 * per-source cap closes, with a 656-byte EBUSY reply, and the deadline's reply is
 * ETIMEDOUT. */
static void test_netperf(void)
{
	const char *t = "netperf";
	struct seen s = {0};
	ws_prelude_config c = {.hello_timeout_ns = 300 * WS_NS_PER_MS, .max_pending = 8,
			       .max_pending_per_source = 2, .np_passphrase = "sesame", .admit = on_admit,
			       .new_id = on_id, .log = on_log, .ctx = &s};
	ws_prelude *p = ws_prelude_new(&c, NULL);
	uint8_t pass[WS_NP_MSG_LEN], wrong[WS_NP_MSG_LEN], omni[WS_NP_MSG_LEN];
	char got[64];
	ws_np_omni_req r;
	ws_np_omni_req_defaults(&r);
	ws_np_encode_omni_req(&r, omni);
	ws_np_encode_passphrase("sesame", pass, NULL);
	ws_np_encode_passphrase("sesamf", wrong, NULL);
	/* The passphrase, then DO_OMNI in two pieces: admitted as netperf with its request. */
	int n1 = add(p, "10.0.0.1", 1001);
	CHECK_INT(t, write(n1, pass, sizeof(pass)), WS_NP_MSG_LEN);
	CHECK_INT(t, write(n1, omni, 100), 100);
	step(p);
	CHECK_INT(t, s.admitted, 0);
	CHECK_INT(t, write(n1, omni + 100, sizeof(omni) - 100), WS_NP_MSG_LEN - 100);
	step(p);
	CHECK_INT(t, s.admitted, 1);
	CHECK_INT(t, s.netperf, 1);
	CHECK_INT(t, s.first_type, WS_NP_DO_OMNI);
	/* A wrong passphrase, and a request without one: closed, no reply. */
	int n2 = add(p, "10.0.0.2", 2001);
	CHECK_INT(t, write(n2, wrong, sizeof(wrong)), WS_NP_MSG_LEN);
	int n3 = add(p, "10.0.0.3", 3001);
	CHECK_INT(t, write(n3, omni, sizeof(omni)), WS_NP_MSG_LEN);
	step(p);
	np_reply(n2, got, sizeof(got));
	CHECK_STR(t, got, "eof");
	np_reply(n3, got, sizeof(got));
	CHECK_STR(t, got, "eof");
	CHECK_INT(t, s.admitted, 1);
	/* Stalled mid-message, then two more from that address: the stalled one goes. */
	int n4 = add(p, "10.0.0.4", 4001);
	CHECK_INT(t, write(n4, pass, 300), 300);
	step(p);
	int n5 = add(p, "10.0.0.4", 4002);
	int n6 = add(p, "10.0.0.4", 4003);
	np_reply(n4, got, sizeof(got));
	char want[32];
	snprintf(want, sizeof(want), "0,%d", EBUSY);
	CHECK_STR(t, got, want);
	CHECK_INT(t, ws_prelude_pending(p), 2);
	/* n5 began as netperf and stops; past the deadline it is told ETIMEDOUT. */
	CHECK_INT(t, write(n5, "\0\0", 2), 2);
	step(p);
	ws_clock_sleep_ns(310 * WS_NS_PER_MS);
	step(p);
	np_reply(n5, got, sizeof(got));
	snprintf(want, sizeof(want), "0,%d", ETIMEDOUT);
	CHECK_STR(t, got, want);
	CHECK_INT(t, ws_prelude_pending(p), 0);
	ws_prelude_free(p);
	CHECK(t, s.lines >= 1 && strstr(s.log[0], "authentication failed from 10.0.0.") != NULL);
	close(n1);
	close(n2);
	close(n3);
	close(n4);
	close(n5);
	close(n6);
}

int main(void)
{
	RUN(test_caps_deadline_and_log);
	RUN(test_netperf);
	TEST_MAIN_END();
}
