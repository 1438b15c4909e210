/* test_prelude: the daemon's pre-session phase without a daemon: connections on
 * socketpairs with made-up source addresses, so that the choice of whom to close for the
 * per-source and total caps, the deadline, admission and the summary log line can be
 * checked exactly. */
#include "harness.h"

#include "ctl/channel.h"
#include "ctl/msg.h"
#include "net/addr.h"
#include "session/prelude.h"
#include "util/clock.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

struct seen {
	int admitted;
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

int main(void)
{
	RUN(test_caps_deadline_and_log);
	TEST_MAIN_END();
}
