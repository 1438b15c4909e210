/* SPDX-License-Identifier: BSD-2-Clause */
/* test_mptcp: what net/mptcp.c reads back from a real MPTCP connection over loopback, and
 * which of a sender's two records (before its half-close, after its drain) a result keeps.
 * Skipped, with the kernel's reason, where this kernel makes no MPTCP sockets. */
#include "harness.h"

#include "model/result.h"
#include "net/mptcp.h"
#include "util/clock.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/sockios.h>
#include <unistd.h>

/* An MPTCP connection over loopback: *cli talks to *srv. 0, or -1. */
static int mptcp_pair(int *cli, int *srv)
{
	int l = socket(AF_INET, SOCK_STREAM, ws_mptcp_proto(true));
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof a;
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 4) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &al) < 0)
		return -1;
	*cli = socket(AF_INET, SOCK_STREAM, ws_mptcp_proto(true));
	if (*cli < 0 || connect(*cli, (struct sockaddr *)&a, sizeof a) < 0)
		return -1;
	*srv = accept(l, NULL, NULL);
	close(l);
	return *srv < 0 ? -1 : 0;
}

/* Sends n bytes on c, reads them on s, and waits (up to 1 s) until all are acknowledged. */
static void move(int c, int s, size_t n)
{
	char buf[4096] = {0};
	for (size_t left = n; left > 0;) {
		ssize_t w = send(c, buf, left < sizeof(buf) ? left : sizeof(buf), 0);
		if (w <= 0)
			return;
		left -= (size_t)w;
		for (ssize_t got = 0; got < w;) {
			ssize_t r = recv(s, buf, sizeof(buf), 0);
			if (r <= 0)
				return;
			got += r;
		}
	}
	int64_t until = ws_clock_ns() + WS_NS_PER_SEC;
	int q = 1;
	while (ws_clock_ns() < until && ioctl(c, SIOCOUTQ, &q) == 0 && q > 0)
		ws_clock_sleep_ns(WS_NS_PER_MS);
}

static bool have_mptcp(void)
{
	ws_err err;
	if (ws_mptcp_check(&err) < 0) {
		printf("  (skipped: %s)\n", err.msg);
		return false;
	}
	return true;
}

/* Whether c's MPTCP state can be read here at all: qemu-user, for one, answers neither
 * TCP_IS_MPTCP nor SOL_MPTCP (a native kernel from 5.16 answers both). */
static bool readable(int c)
{
	int v = 0;
	socklen_t l = sizeof(v);
	const char *what = "TCP_IS_MPTCP";
	if (getsockopt(c, IPPROTO_TCP, 43 /* TCP_IS_MPTCP */, &v, &l) == 0) {
		uint8_t info[256];
		l = sizeof(info);
		what = "MPTCP_INFO";
		if (getsockopt(c, 284 /* SOL_MPTCP */, 1 /* MPTCP_INFO */, info, &l) == 0)
			return true;
	}
	printf("  (skipped: getsockopt %s: %s; nothing to read back here)\n", what,
	       strerror(errno));
	return false;
}

/* A readable MPTCP pair over loopback (else false, said why) with n bytes moved and
 * acknowledged, and the sender's record of it. */
static bool recorded(int *c, int *s, size_t n, ws_side_result *res)
{
	if (!have_mptcp())
		return false;
	CHECK_INT("pair", mptcp_pair(c, s), 0);
	if (!readable(*c)) {
		close(*c);
		close(*s);
		return false;
	}
	move(*c, *s, n);
	memset(res, 0, sizeof(*res));
	ws_mptcp_record(*c, res);
	return true;
}

/* One subflow, every byte sent on it acknowledged, addresses as connected. */
static void test_record(void)
{
	int c, s;
	ws_side_result res;
	if (!recorded(&c, &s, 100000, &res))
		return;
	CHECK_STR("state", res.mptcp_state, "mptcp");
	CHECK_U64("subflows", res.mptcp_subflows, 1);
	CHECK_U64("listed", res.mptcp_nsf, 1);
	CHECK("local", strncmp(res.mptcp_sf[0].local, "127.0.0.1:", 10) == 0);
	CHECK("remote", strncmp(res.mptcp_sf[0].remote, "127.0.0.1:", 10) == 0);
	CHECK_U64("acked (the SYN counts one)", res.mptcp_sf[0].bytes_acked, 100001);
	close(c);
	close(s);
}

/* A sender's record before its half-close, then ws_mptcp_update after more bytes: the
 * later record replaces it while whole; beside an earlier one with more subflows, the
 * earlier stands. */
static void test_update(void)
{
	int c, s;
	ws_side_result res;
	if (!recorded(&c, &s, 5000, &res))
		return;
	CHECK_U64("earlier", res.mptcp_sf[0].bytes_acked, 5001);
	move(c, s, 7000);
	ws_mptcp_update(c, &res);
	CHECK_U64("whole later record kept", res.mptcp_sf[0].bytes_acked, 12001);

	/* an earlier record with a second subflow, which the later one has lost */
	res.mptcp_sf[1] = res.mptcp_sf[0];
	snprintf(res.mptcp_sf[1].remote, sizeof(res.mptcp_sf[1].remote), "198.18.1.2:12865");
	res.mptcp_nsf = res.mptcp_subflows = 2;
	move(c, s, 1000);
	ws_mptcp_update(c, &res);
	CHECK_U64("fewer: earlier kept", res.mptcp_nsf, 2);
	CHECK_U64("fewer: earlier count", res.mptcp_subflows, 2);
	CHECK_U64("fewer: earlier bytes", res.mptcp_sf[0].bytes_acked, 12001);
	CHECK_STR("fewer: earlier subflow", res.mptcp_sf[1].remote, "198.18.1.2:12865");
	close(c);
	close(s);
}

/* The choice itself, on the records seen in CI (a two-path run read after the drain: one
 * subflow left, disconnected) and its neighbours. */
static void test_whole(void)
{
	ws_side_result e, l;
	memset(&e, 0, sizeof(e));
	snprintf(e.mptcp_state, sizeof(e.mptcp_state), "mptcp");
	e.mptcp_subflows = e.mptcp_nsf = 2;
	snprintf(e.mptcp_sf[0].local, sizeof(e.mptcp_sf[0].local), "198.18.0.1:34274");
	snprintf(e.mptcp_sf[0].remote, sizeof(e.mptcp_sf[0].remote), "198.18.0.2:12866");
	snprintf(e.mptcp_sf[1].local, sizeof(e.mptcp_sf[1].local), "198.18.1.1:40001");
	snprintf(e.mptcp_sf[1].remote, sizeof(e.mptcp_sf[1].remote), "198.18.1.2:12866");
	l = e;
	CHECK("the same, later", ws_mptcp_whole(&e, &l));
	l.mptcp_subflows = l.mptcp_nsf = 1;
	snprintf(l.mptcp_sf[0].local, sizeof(l.mptcp_sf[0].local), "0.0.0.0:34274");
	snprintf(l.mptcp_sf[0].remote, sizeof(l.mptcp_sf[0].remote), "198.18.0.2:0");
	CHECK("CI's torn-down record", !ws_mptcp_whole(&e, &l));
	l = e;
	l.mptcp_nsf = 1;
	CHECK("one subflow fewer listed", !ws_mptcp_whole(&e, &l));
	l = e;
	l.mptcp_subflows = 1;
	CHECK("one subflow fewer counted", !ws_mptcp_whole(&e, &l));
	l = e;
	snprintf(l.mptcp_sf[1].remote, sizeof(l.mptcp_sf[1].remote), "198.18.1.2:0");
	CHECK("second disconnected", !ws_mptcp_whole(&e, &l));
	snprintf(l.mptcp_sf[1].remote, sizeof(l.mptcp_sf[1].remote), "198.18.1.2:10");
	CHECK("port 10 is connected", ws_mptcp_whole(&e, &l));
	snprintf(l.mptcp_sf[1].remote, sizeof(l.mptcp_sf[1].remote), "[::1]:0");
	CHECK("IPv6, disconnected", !ws_mptcp_whole(&e, &l));
	snprintf(l.mptcp_sf[1].remote, sizeof(l.mptcp_sf[1].remote), "-");
	CHECK("not an address", !ws_mptcp_whole(&e, &l));
	l = e;
	l.mptcp_subflows = l.mptcp_nsf = 3;
	snprintf(l.mptcp_sf[2].remote, sizeof(l.mptcp_sf[2].remote), "198.18.1.2:12866");
	CHECK("one more", ws_mptcp_whole(&e, &l));
	l = e;
	snprintf(l.mptcp_state, sizeof(l.mptcp_state), "fallback");
	CHECK("state changed", !ws_mptcp_whole(&e, &l));
}

int main(void)
{
	RUN(test_record);
	RUN(test_update);
	RUN(test_whole);
	TEST_MAIN_END();
}
