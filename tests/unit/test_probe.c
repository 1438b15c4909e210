/* SPDX-License-Identifier: BSD-2-Clause */
/* test_probe: telling a warpspeed daemon from a netserver (session/probe.h) against fake
 * peers on a socketpair, each scripted as one of the real behaviours: a daemon that answers
 * at once, a netserver (silent until 656 bytes, then error 998), a daemon that answers only
 * after the padding, a netserver with -Z (closes on the padding), and the hostile or broken
 * ones (a wrong error, half a reply, silence), which must end in an error naming them and
 * never in a hang. The padding must complete exactly one 656-byte message. */
#include "harness.h"

#include "ctl/npmsg.h"
#include "session/probe.h"
#include "util/clock.h"
#include "util/err.h"

#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#define HELLO_LEN 86
#define WAIT_NS (100 * WS_NS_PER_MS)

enum script { ANSWER_NOW, NETSERVER, LATE, CLOSE, WRONG_ERRNO, HALF_REPLY, SILENT };

struct peer {
	int fd;
	enum script s;
	size_t got; /* bytes the peer read before it answered */
};

static void *peer_main(void *arg)
{
	struct peer *p = arg;
	uint8_t buf[WS_NP_MSG_LEN], reply[WS_NP_MSG_LEN];
	if (p->s == ANSWER_NOW) {
		(void)!write(p->fd, "WSPD\x01\x02\0\0\0\0\0\0", 12);
		return NULL;
	}
	while (p->got < WS_NP_MSG_LEN) {
		ssize_t r = read(p->fd, buf, WS_NP_MSG_LEN - p->got);
		if (r <= 0)
			return NULL;
		p->got += (size_t)r;
	}
	switch (p->s) {
	case NETSERVER:
	case WRONG_ERRNO:
	case HALF_REPLY:
		ws_np_encode_error(0, p->s == WRONG_ERRNO ? 5 : WS_NP_ERRNO_UNKNOWN, reply);
		(void)!write(p->fd, reply, p->s == HALF_REPLY ? 100 : sizeof(reply));
		if (p->s == HALF_REPLY)
			shutdown(p->fd, SHUT_WR);
		break;
	case LATE:
		(void)!write(p->fd, "WSPD\x01\x02\0\0\0\0\0\0", 12);
		break;
	case CLOSE:
		shutdown(p->fd, SHUT_RDWR);
		break;
	default: /* SILENT: reads, never answers */
		break;
	}
	return NULL;
}

/* One probe against a scripted peer. */
struct outcome {
	int rc;
	enum ws_probe_found found;
	int64_t ms;
	size_t got; /* bytes the peer read */
	ws_err err;
};

static struct outcome run(enum script s, int64_t deadline_ms)
{
	struct outcome o = {.rc = -999};
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return o;
	struct peer p = {sv[1], s, 0};
	uint8_t hello[HELLO_LEN] = {'W', 'S', 'P', 'D', 1, 1};
	(void)!write(sv[0], hello, sizeof(hello));
	pthread_t t;
	pthread_create(&t, NULL, peer_main, &p);
	int64_t t0 = ws_clock_ns();
	o.rc = ws_probe_peer(sv[0], HELLO_LEN, WAIT_NS, t0 + deadline_ms * WS_NS_PER_MS, &o.found, &o.err);
	o.ms = (ws_clock_ns() - t0) / WS_NS_PER_MS;
	shutdown(sv[0], SHUT_RDWR); /* a silent peer's read ends */
	pthread_join(t, NULL);
	o.got = p.got;
	close(sv[0]);
	close(sv[1]);
	return o;
}

static void test_answers_at_once(void)
{
	struct outcome o = run(ANSWER_NOW, 2000);
	CHECK_INT("rc", o.rc, 0);
	CHECK_INT("found", o.found, WS_PROBE_WARPSPEED);
	CHECK("no wait", o.ms < 90);
}

static void test_netserver(void)
{
	struct outcome o = run(NETSERVER, 2000);
	CHECK_INT("rc", o.rc, 0);
	CHECK_INT("found", o.found, WS_PROBE_NETSERVER);
	CHECK_U64("one whole message", o.got, WS_NP_MSG_LEN);
	CHECK("waited the silence, not more", o.ms >= 95 && o.ms < 1000);
}

static void test_late_and_closed(void)
{
	struct outcome o = run(LATE, 2000);
	CHECK_INT("late rc", o.rc, 0);
	CHECK_INT("late", o.found, WS_PROBE_LATE);
	o = run(CLOSE, 2000);
	CHECK_INT("closed rc", o.rc, 0);
	CHECK_INT("closed", o.found, WS_PROBE_CLOSED);
}

static void test_broken_peers(void)
{
	struct outcome o = run(WRONG_ERRNO, 2000);
	CHECK_INT("wrong errno", o.rc, -WS_E_NOTWS);
	CHECK("named", strstr(o.err.msg, "error 5; a netserver 2.7 answers error 998") != NULL);
	o = run(HALF_REPLY, 2000);
	CHECK_INT("half a reply", o.rc, -WS_E_NOTWS);
	CHECK("named", strstr(o.err.msg, "cut short") && strstr(o.err.msg, "after 100 of 656 bytes"));
	o = run(SILENT, 400);
	CHECK_INT("silent", o.rc, -WS_E_TIMEDOUT);
	CHECK("named", strstr(o.err.msg, "answered neither warpspeed's HELLO nor") != NULL);
	CHECK("at the deadline", o.ms >= 390 && o.ms < 1500);
}

static void test_wait_bounds(void)
{
	CHECK_INT("loopback", ws_probe_wait_ns(50000), 100 * WS_NS_PER_MS);
	CHECK_INT("LAN", ws_probe_wait_ns(30 * WS_NS_PER_MS), 120 * WS_NS_PER_MS);
	CHECK_INT("WAN", ws_probe_wait_ns(WS_NS_PER_SEC), 200 * WS_NS_PER_MS);
	CHECK_INT("overflow-proof", ws_probe_wait_ns(INT64_MAX), 200 * WS_NS_PER_MS);
	CHECK_INT("clock step", ws_probe_wait_ns(-5), 200 * WS_NS_PER_MS);
}

int main(void)
{
	alarm(30); /* a hang fails the run */
	RUN(test_answers_at_once);
	RUN(test_netserver);
	RUN(test_late_and_closed);
	RUN(test_broken_peers);
	RUN(test_wait_bounds);
	TEST_MAIN_END();
}
