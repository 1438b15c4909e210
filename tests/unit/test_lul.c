/* SPDX-License-Identifier: BSD-2-Clause */
/* test_lul: RRUL's plan names and marks its flows and probes as Flent does (rrul.conf,
 * rrul_be.conf, tcp_nup.conf, tcp_bidirectional.conf), refuses bad values, parses
 * --probes, derives Flent's aggregates exactly, and reads ping_group_range's rule right. */
#include "harness.h"
#include "lul_bed.h"

#include "model/lul.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/lul_probe.h"

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void plan_of(enum ws_test_type t, ws_test_spec *s)
{
	ws_test_spec_init(s);
	s->type = t;
}

static void rrul_names(void)
{
	const char *n = "rrul_names";
	ws_test_spec s;
	ws_lul_plan p;
	ws_err e;
	plan_of(WS_TEST_RRUL, &s);
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), 0);
	static const char *const want[] = {
		"TCP upload BE",    "TCP upload BK",    "TCP upload CS5",   "TCP upload EF",
		"TCP download BE",  "TCP download BK",  "TCP download CS5", "TCP download EF",
		"Ping (ms) UDP BE", "Ping (ms) UDP BK", "Ping (ms) UDP EF", "Ping (ms) TCP BE",
	};
	static const int tos[] = {0, 0x20, 0xa0, 0xb8, 0, 0x20, 0xa0, 0xb8, 0, 0x20, 0xb8, 0};
	CHECK_INT(n, (int)(p.nup + p.ndown + p.nprobes), 12);
	for (int i = 0; i < 12; i++) {
		CHECK_STR(n, p.item[i].name, want[i]);
		CHECK_INT(n, p.item[i].tos, tos[i]);
	}
	CHECK_INT(n, p.item[0].kind, WS_SERIES_UP);
	CHECK_INT(n, p.item[4].kind, WS_SERIES_DOWN);
	CHECK_STR(n, p.item[10].probe, "udp");
	CHECK_STR(n, p.item[11].probe, "tcp");
	CHECK_DBL(n, p.interval_s, 0.2, 0);
	CHECK_DBL(n, p.step_s, 0.2, 0);
	CHECK_INT(n, (int)ws_lul_connections(&p), 9);
	s.lul_probes = WS_LUL_ICMP;
	s.lul_interval_s = 0.05;
	CHECK_INT(n, ws_lul_plan_make(&s, 0.5, &p, &e), 0);
	CHECK_INT(n, (int)p.nprobes, 1);
	CHECK_STR(n, p.item[8].name, "Ping (ms) ICMP");
	CHECK_DBL(n, p.interval_s, 0.05, 0);
	CHECK_DBL(n, p.step_s, 0.5, 0);
}

static void be_and_counts(void)
{
	const char *n = "be_and_counts";
	ws_test_spec s;
	ws_lul_plan p;
	ws_err e;
	plan_of(WS_TEST_RRUL_BE, &s);
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), 0);
	CHECK_STR(n, p.item[0].name, "TCP upload BE");
	CHECK_STR(n, p.item[1].name, "TCP upload BE2");
	CHECK_STR(n, p.item[7].name, "TCP download BE4");
	CHECK_STR(n, p.item[8].name, "Ping (ms) UDP BE1");
	CHECK_STR(n, p.item[10].name, "Ping (ms) UDP BE3");
	for (int i = 0; i < 12; i++)
		CHECK_INT(n, p.item[i].tos, 0);
	plan_of(WS_TEST_RRUL, &s);
	s.lul_counts = true;
	s.lul_up = 3;
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), 0);
	CHECK_INT(n, (int)p.nup, 3);
	CHECK_INT(n, (int)p.ndown, 0);
	CHECK_STR(n, p.item[2].name, "TCP upload::3");
	CHECK_INT(n, p.item[2].tos, 0);
	CHECK_INT(n, (int)ws_lul_connections(&p), 4);
	s.lul_up = 1;
	s.lul_down = 1; /* tcp_bidirectional */
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), 0);
	CHECK_STR(n, p.item[0].name, "TCP upload");
	CHECK_STR(n, p.item[1].name, "TCP download");
}

static void refusals(void)
{
	const char *n = "refusals";
	ws_test_spec s;
	ws_lul_plan p;
	ws_err e;
	plan_of(WS_TEST_RRUL, &s);
	s.lul_counts = true;
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), -WS_E_INVAL);
	CHECK(n, strstr(e.msg, "--up 0 --down 0") != NULL);
	s.lul_up = 65;
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), -WS_E_INVAL);
	CHECK(n, strstr(e.msg, "expected 0 to 64") != NULL);
	plan_of(WS_TEST_RRUL, &s);
	s.lul_interval_s = 11;
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), -WS_E_INVAL);
	CHECK(n, strstr(e.msg, "--probe-interval 11") != NULL);
	plan_of(WS_TEST_TCP_STREAM, &s);
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &p, &e), -WS_E_INVAL);
	unsigned m = 0;
	CHECK_INT(n, ws_lul_parse_probes("icmp,udp", &m, &e), 0);
	CHECK_INT(n, (int)m, WS_LUL_ICMP | WS_LUL_UDP);
	CHECK_INT(n, ws_lul_parse_probes("udp,,tcp", &m, &e), -WS_E_INVAL);
	CHECK_INT(n, ws_lul_parse_probes("udp,ping", &m, &e), -WS_E_INVAL);
	CHECK(n, strstr(e.msg, "'ping' in 'udp,ping' is not a probe") != NULL);
	CHECK_INT(n, ws_lul_parse_probes("", &m, &e), -WS_E_INVAL);
}

static void aggregates(void)
{
	const char *n = "aggregates";
	ws_series_set in = {0}, out = {0};
	int u1 = ws_series_add(&in, "TCP upload BE", WS_SERIES_UP, NULL, 0);
	int u2 = ws_series_add(&in, "TCP upload EF", WS_SERIES_UP, NULL, 0xb8);
	int d1 = ws_series_add(&in, "TCP download BE", WS_SERIES_DOWN, NULL, 0);
	int p1 = ws_series_add(&in, "Ping (ms) UDP BE", WS_SERIES_PROBE, "udp", 0);
	int p2 = ws_series_add(&in, "Ping (ms) TCP BE", WS_SERIES_PROBE, "tcp", 0);
	for (int k = 1; k <= 3; k++) {
		ws_series_push(&in, u1, k * 0.2, 10.0 * k);
		ws_series_push(&in, u2, k * 0.2, 30.0);
		ws_series_push(&in, d1, k * 0.2, 5.0);
	}
	ws_series_push(&in, p1, 0.0, 2.0);
	ws_series_push(&in, p1, 0.2, NAN); /* lost: not in round 1's average */
	ws_series_push(&in, p2, 0.0, 4.0);
	ws_series_push(&in, p2, 0.2, 6.0);
	CHECK_INT(n, ws_lul_aggregates(&in, 0.2, &out), 0);
	int us = ws_series_find(&out, "TCP upload sum"), ua = ws_series_find(&out, "TCP upload avg");
	int ds = ws_series_find(&out, "TCP download sum"), tt = ws_series_find(&out, "TCP totals");
	int pa = ws_series_find(&out, "Ping (ms) avg");
	CHECK(n, us >= 0 && ua >= 0 && ds >= 0 && tt >= 0 && pa >= 0);
	if (us < 0 || ua < 0 || ds < 0 || tt < 0 || pa < 0)
		return;
	CHECK_INT(n, (int)out.s[us].n, 3);
	CHECK_DBL(n, out.s[us].v[2], 60.0, 1e-12);
	CHECK_DBL(n, out.s[us].t[2], 0.6, 1e-12);
	CHECK_DBL(n, out.s[ua].v[0], 20.0, 1e-12);
	CHECK_DBL(n, out.s[ds].v[1], 5.0, 0);
	CHECK_DBL(n, out.s[tt].v[0], 45.0, 1e-12);
	CHECK_INT(n, (int)out.s[pa].n, 2);
	CHECK_DBL(n, out.s[pa].v[0], 3.0, 1e-12);
	CHECK_DBL(n, out.s[pa].v[1], 6.0, 1e-12);
	CHECK_INT(n, ws_series_find(&out, "TCP download avg") >= 0, 1);
	ws_series_free(&in);
	ws_series_free(&out);
}

static void ping_range(void)
{
	const char *n = "ping_range";
	unsigned g[] = {1000, 27};
	CHECK(n, !ws_lul_groups_in_range(g, 2, 1, 0)); /* the kernel's default: off */
	CHECK(n, ws_lul_groups_in_range(g, 2, 0, 2147483647));
	CHECK(n, ws_lul_groups_in_range(g, 2, 27, 27));
	CHECK(n, !ws_lul_groups_in_range(g, 2, 28, 999));
	CHECK(n, !ws_lul_groups_in_range(g, 0, 0, 2147483647));
}

/* A UDP echo on loopback that drops every round k with k % 3 == 1 and marks its replies
 * with 0x77 where the daemon writes the mark it saw. */
struct lossy {
	int fd;
	atomic_bool stop;
};

static void *lossy_echo(void *arg)
{
	struct lossy *l = arg;
	while (!atomic_load(&l->stop)) {
		struct pollfd pf = {.fd = l->fd, .events = POLLIN};
		if (poll(&pf, 1, 20) <= 0)
			continue;
		unsigned char b[64];
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		ssize_t r = recvfrom(l->fd, b, sizeof(b), 0, (struct sockaddr *)&from, &fl);
		if (r < 12)
			continue;
		uint32_t k;
		memcpy(&k, b + 4, 4);
		if (ntohl(k) % 3 == 1)
			continue;
		b[9] = 0x77;
		sendto(l->fd, b, (size_t)r, 0, (struct sockaddr *)&from, fl);
	}
	return NULL;
}

/* Lost probes are NaN samples in their place, counted, and the series goes on: 15 rounds
 * of 20 ms, every third lost, end within the last loss's 1 s timeout. */
static void lost_probes(void)
{
	const char *n = "lost_probes";
	struct lossy l = {.fd = socket(AF_INET, SOCK_DGRAM, 0)};
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof(a);
	CHECK_INT(n, bind(l.fd, (struct sockaddr *)&a, sizeof(a)), 0);
	getsockname(l.fd, (struct sockaddr *)&a, &al);
	pthread_t t;
	pthread_create(&t, NULL, lossy_echo, &l);
	ws_test_spec s;
	plan_of(WS_TEST_RRUL, &s);
	s.lul_probes = WS_LUL_UDP;
	s.lul_interval_s = 0.02;
	static ws_lul_result out;
	ws_err e;
	CHECK_INT(n, ws_lul_plan_make(&s, 0, &out.plan, &e), 0);
	uint32_t first = out.plan.nup + out.plan.ndown;
	lul_bed_series(&out);
	ws_lul_echo echo = {.n = 1}; /* one echo for the three probes, as an older daemon */
	memcpy(&echo.addr.ss, &a, sizeof(a));
	echo.addr.len = sizeof(a);
	echo.port[0] = ws_addr_port(&echo.addr);
	ws_lul_probes ps;
	CHECK_INT(n, ws_lul_probes_open(&ps, &out.plan, &out, -1, &echo, &e), 0);
	CHECK_INT(n, out.echo_sockets, 1);
	double took = lul_bed_run(&ps, 300 * WS_NS_PER_MS);
	atomic_store(&l.stop, true);
	pthread_join(t, NULL);
	close(l.fd);
	CHECK_STR(n, ps.why, "");
	CHECK(n, took >= 1.2 && took < 1.6); /* round 13 at 0.26 s + 1 s timeout */
	for (uint32_t i = first; i < first + 3; i++) {
		const ws_series *sr = &out.set.s[i];
		CHECK_INT(n, (int)sr->n, 15);
		CHECK_INT(n, (int)sr->lost, 5);
		for (size_t k = 0; k < sr->n && k < 15; k++) {
			CHECK_DBL(n, sr->t[k], 0.02 * (double)k, 1e-9);
			CHECK(n, isnan(sr->v[k]) == (k % 3 == 1));
		}
		CHECK_INT(n, out.tos_remote[i], 0x77);
	}
	ws_series_free(&out.set);
}

int main(void)
{
	RUN(lost_probes);
	RUN(rrul_names);
	RUN(be_and_counts);
	RUN(refusals);
	RUN(aggregates);
	RUN(ping_range);
	TEST_MAIN_END();
}
