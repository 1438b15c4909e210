/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rr_multi: the epoll request/response engine (workload/rr_multi.c), both roles in
 * one process over loopback: exact counts, exact UDP loss, the open-loop schedule, and
 * coordinated omission against a responder that stalls. */
#include "harness.h"
#include "tcp_pairs.h"

#include "measure/flowhist.h"
#include "measure/hist.h"
#include "net/uring.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/rr.h"
#include "workload/sched.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAXF 1000

/* n UDP pairs, each socket connected to the other. */
static int udp_pairs(uint32_t n, int *cli, int *srv)
{
	for (uint32_t i = 0; i < n; i++) {
		struct sockaddr_in a[2];
		int fd[2];
		for (int k = 0; k < 2; k++) {
			socklen_t al = sizeof a[k];
			a[k] = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
			fd[k] = socket(AF_INET, SOCK_DGRAM, 0);
			if (fd[k] < 0 || bind(fd[k], (struct sockaddr *)&a[k], sizeof a[k]) < 0 ||
			    getsockname(fd[k], (struct sockaddr *)&a[k], &al) < 0)
				return -1;
		}
		if (connect(fd[0], (struct sockaddr *)&a[1], sizeof a[1]) < 0 ||
		    connect(fd[1], (struct sockaddr *)&a[0], sizeof a[0]) < 0)
			return -1;
		cli[i] = fd[0];
		srv[i] = fd[1];
	}
	return 0;
}

static void close_all(uint32_t n, int *a, int *b)
{
	for (uint32_t i = 0; i < n; i++) {
		close(a[i]);
		close(b[i]);
	}
}

static ws_test_spec rr_spec(bool udp, uint32_t req, uint32_t rsp, uint32_t burst)
{
	ws_test_spec s;
	ws_test_spec_init(&s);
	s.type = udp ? WS_TEST_UDP_RR : WS_TEST_TCP_RR;
	s.req_size = req;
	s.rsp_size = rsp;
	s.burst = burst;
	return s;
}

/* The engine the tests below run (the io_uring variants set it; see main). */
static enum ws_engine engine = WS_ENGINE_EPOLL;

static ws_rr_params rr_params(const ws_test_spec *s, bool client, const int *fds, uint32_t n, uint32_t threads)
{
	int64_t now = ws_clock_ns();
	return (ws_rr_params){.spec = s, .is_client = client, .udp = s->type == WS_TEST_UDP_RR, .fds = fds,
			      .engine = engine,
			      .nfds = n, .threads = threads, .start_ns = now,
			      .end_ns = s->end == WS_END_TIME ? now + (int64_t)(s->duration_s * 1e9) : 0,
			      .end_count = s->end == WS_END_TRANSACTIONS ? s->end_count : 0,
			      .stall_ns = 10 * WS_NS_PER_SEC, .listen_fd = -1, .wake_fd = -1};
}

struct side {
	ws_rr_params p;
	ws_side_result res;
	ws_err err;
	int rc;
	pthread_t th;
};

static void *side_main(void *arg)
{
	struct side *s = arg;
	s->rc = ws_rr_multi_run(&s->p, &s->res, &s->err);
	return NULL;
}

/* Both roles with the engine: the responder in a thread, the requester here. */
static void run_both(const ws_test_spec *spec, uint32_t n, uint32_t threads, struct side *cli, struct side *srv)
{
	int c[MAXF], s[MAXF];
	bool udp = spec->type == WS_TEST_UDP_RR;
	CHECK_INT("pairs", udp ? udp_pairs(n, c, s) : tcp_pairs(n, c, s), 0);
	*srv = (struct side){.p = rr_params(spec, false, s, n, threads)};
	*cli = (struct side){.p = rr_params(spec, true, c, n, threads)};
	pthread_create(&srv->th, NULL, side_main, srv);
	side_main(cli);
	pthread_join(srv->th, NULL);
	close_all(n, c, s);
}

static void test_flowhist(void)
{
	ws_flowhist h;
	ws_flowhist_init(&h);
	CHECK_U64("empty", ws_flowhist_percentile(&h, 50), 0);
	for (uint64_t v = 1; v <= 1000; v++)
		ws_flowhist_record(&h, v * 1000);
	CHECK_U64("min", ws_flowhist_percentile(&h, 0), 1000);
	CHECK_U64("max", ws_flowhist_percentile(&h, 100), 1000000);
	uint64_t p50 = ws_flowhist_percentile(&h, 50), p99 = ws_flowhist_percentile(&h, 99);
	CHECK("p50 within 1/16", p50 >= 500000 && p50 < 500000 + 500000 / 16);
	CHECK("p99 within 1/16", p99 >= 990000 && p99 < 990000 + 990000 / 16);
	ws_flowhist_record(&h, 500ull * WS_NS_PER_SEC); /* above the range: top bucket, exact max */
	CHECK_U64("max over range", ws_flowhist_percentile(&h, 100), 500ull * WS_NS_PER_SEC);
	CHECK("size bounded", sizeof(ws_flowhist) <= 2300);
}

/* 8 flows on 2 threads, a transaction count: each flow's share is exact, and so are the
 * bytes on both sides. */
static void counted(bool udp)
{
	const char *name = udp ? "udp counted" : "tcp counted";
	ws_test_spec spec = rr_spec(udp, 10, 20, udp ? 0 : 3);
	spec.end = WS_END_TRANSACTIONS;
	spec.end_count = 8003;
	spec.rr_timeout_ns = 5 * WS_NS_PER_SEC; /* no reply is late on a loaded machine: exact counts */
	struct side cli, srv;
	run_both(&spec, 8, 2, &cli, &srv);
	CHECK_INT(name, cli.rc, 0);
	CHECK_INT(name, srv.rc, 0);
	if (cli.rc || srv.rc)
		printf("  %s / %s\n", cli.err.msg, srv.err.msg);
	CHECK_U64(name, cli.res.transactions, 8003);
	CHECK_U64(name, srv.res.transactions, 8003);
	CHECK_U64(name, cli.res.bytes_sent, 8003 * 10);
	CHECK_U64(name, cli.res.bytes_recv, 8003 * 20);
	CHECK_U64(name, srv.res.bytes_recv, 8003 * 10);
	CHECK_U64(name, srv.res.bytes_sent, 8003 * 20);
	CHECK_U64(name, cli.res.trans_lost, 0);
	CHECK_INT(name, cli.res.nflows, 8);
	CHECK_INT(name, cli.res.nthreads, 2);
	for (uint32_t i = 0; i < 8 && cli.res.flows; i++) {
		CHECK_U64(name, cli.res.flows[i].transactions, i < 3 ? 1001 : 1000);
		CHECK_INT(name, cli.res.flows[i].thread, i % 2);
		CHECK_INT(name, cli.res.flows[i].error, 0);
		CHECK(name, cli.res.flows[i].lat_p50_ns > 0 && cli.res.flows[i].lat_p50_ns <= cli.res.flows[i].lat_p99_ns);
	}
	CHECK_U64(name, cli.res.latency ? ws_hist_count(cli.res.latency) : 0, 8003);
	CHECK_INT(name, cli.res.threads ? cli.res.threads[1].flows : 0, 4);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

static void test_tcp_counted(void)
{
	counted(false);
}

static void test_udp_counted(void)
{
	counted(true);
}

/* A UDP responder that drops the first drop[i] requests of flow i and answers the rest,
 * echoing the tag; it may also answer one flow with the wrong size. */
struct lossy {
	int fds[MAXF];
	uint32_t n;
	uint32_t drop[MAXF];
	int wrong_flow; /* this flow's responses are one byte long; -1 = none */
	int late_flow;  /* this flow's first reply is held until its fourth request, which the
	                 * requester can only send once the first timed out: a late reply */
	uint32_t rsp;
	uint32_t stall_after; /* TCP (1 flow): sleep stall_ms once after this many requests */
	int stall_ms;
	pthread_t th;
};

static void *lossy_main(void *arg)
{
	struct lossy *l = arg;
	struct pollfd pf[MAXF];
	uint32_t seen[MAXF] = {0}, ended = 0;
	char buf[2048] = {0}, held[2048];
	for (uint32_t i = 0; i < l->n; i++)
		pf[i] = (struct pollfd){.fd = l->fds[i], .events = POLLIN};
	while (ended < l->n && poll(pf, l->n, 5000) > 0) {
		for (uint32_t i = 0; i < l->n; i++) {
			if (!(pf[i].revents & POLLIN))
				continue;
			ssize_t r = recv(pf[i].fd, buf, sizeof buf, 0);
			if (r == 0) {
				pf[i].fd = -1;
				ended++;
				continue;
			}
			if (r < 0 || seen[i]++ < l->drop[i])
				continue;
			if ((int)i == l->late_flow && seen[i] == 1) {
				memcpy(held, buf, sizeof held);
				continue;
			}
			if ((int)i == l->late_flow && seen[i] == 4)
				send(pf[i].fd, held, l->rsp, 0);
			send(pf[i].fd, buf, (int)i == l->wrong_flow ? 1 : l->rsp, 0);
		}
	}
	return NULL;
}

/* The engine's requester against one of the responders above, run in a thread. */
static void against(struct lossy *l, void *(*responder)(void *), const ws_test_spec *spec, uint32_t threads,
		    struct side *cli)
{
	int c[MAXF];
	bool udp = spec->type == WS_TEST_UDP_RR;
	CHECK_INT("pairs", udp ? udp_pairs(l->n, c, l->fds) : tcp_pairs(l->n, c, l->fds), 0);
	pthread_create(&l->th, NULL, responder, l);
	*cli = (struct side){.p = rr_params(spec, true, c, l->n, threads)};
	side_main(cli);
	pthread_join(l->th, NULL);
	close_all(l->n, c, l->fds);
}

static void test_udp_loss(void)
{
	ws_test_spec spec = rr_spec(true, 16, 16, 1);
	spec.end = WS_END_TRANSACTIONS;
	spec.end_count = 8 * 40;
	/* long enough that a loaded machine does not time out a reply that comes */
	spec.rr_timeout_ns = 250 * WS_NS_PER_MS;
	struct lossy l = {.n = 8, .wrong_flow = 5, .late_flow = 0, .rsp = 16};
	for (uint32_t i = 0; i < 8; i++)
		l.drop[i] = i;
	struct side cli;
	against(&l, lossy_main, &spec, 2, &cli);
	CHECK_INT("loss rc", cli.rc, 0);
	for (uint32_t i = 0; i < 8 && cli.res.flows; i++) {
		const ws_flow_result *f = &cli.res.flows[i];
		if (i == 5) { /* the wrong size fails this flow alone, with both sizes named */
			CHECK("wrong size", f->error != 0 && strstr(f->why, "a response of 1 bytes; expected 16"));
			continue;
		}
		CHECK_U64("lost", f->trans_lost, i == 0 ? 1 : i);
		CHECK_U64("done", f->transactions, 40);
		CHECK_INT("error", f->error, 0);
	}
	CHECK_U64("lost total", cli.res.trans_lost, 1 + 1 + 2 + 3 + 4 + 6 + 7 + cli.res.flows[5].trans_lost);
	CHECK_U64("late", cli.res.late_replies, 1);
	ws_side_result_free(&cli.res);
}

/* Open loop, 4 flows at 2000/s each for 1 s: the schedule and what was achieved. */
static void test_open_loop_rate(void)
{
	for (int udp = 0; udp < 2; udp++) {
		ws_test_spec spec = rr_spec(udp, 8, 8, 0);
		spec.duration_s = 1;
		spec.rate = 2000;
		struct side cli, srv;
		run_both(&spec, 4, 2, &cli, &srv);
		CHECK_INT("open rc", cli.rc, 0);
		CHECK_INT("open srv rc", srv.rc, 0);
		double sched = (double)cli.res.trans_scheduled / 4;
		CHECK("scheduled within 1% of 2000 per flow", sched >= 1980 && sched <= 2020);
		for (uint32_t i = 0; i < 4 && cli.res.flows; i++)
			CHECK("achieved >= 90%", cli.res.flows[i].transactions >= 1800);
		CHECK("no more than scheduled", cli.res.transactions <= cli.res.trans_scheduled);
		printf("  open loop %s: scheduled %llu, done %llu, max lag %lld us, p50 %llu ns\n", udp ? "UDP" : "TCP",
		       (unsigned long long)cli.res.trans_scheduled, (unsigned long long)cli.res.transactions,
		       (long long)(cli.res.max_lag_ns / 1000),
		       (unsigned long long)(cli.res.latency ? ws_hist_percentile(cli.res.latency, 50) : 0));
		ws_side_result_free(&cli.res);
		ws_side_result_free(&srv.res);
	}
}

/* A blocking TCP responder for one flow that stalls once. */
static void *staller_main(void *arg)
{
	struct lossy *l = arg;
	char b[64];
	uint32_t seen = 0;
	ssize_t r;
	while ((r = recv(l->fds[0], b, sizeof b, 0)) > 0) {
		for (ssize_t k = 0; k < r; k++) {
			if (++seen == l->stall_after)
				usleep((useconds_t)l->stall_ms * 1000);
			send(l->fds[0], b, 1, MSG_NOSIGNAL);
		}
	}
	shutdown(l->fds[0], SHUT_WR);
	return NULL;
}

/* A blocking TCP responder for one flow that answers each request with rsp + extra bytes,
 * one byte per send (the requester must reassemble them). */
static void *dribbler_main(void *arg)
{
	struct lossy *l = arg;
	char b[64];
	ssize_t r;
	uint32_t have = 0;
	while ((r = recv(l->fds[0], b, sizeof b, 0)) > 0) {
		for (have += (uint32_t)r; have >= 5; have -= 5)
			for (uint32_t k = 0; k < l->rsp + l->drop[0]; k++) {
				send(l->fds[0], b, 1, MSG_NOSIGNAL);
				usleep(50);
			}
	}
	shutdown(l->fds[0], SHUT_WR);
	return NULL;
}

/* Responses that come a byte at a time are reassembled; a responder that sends more than
 * the response size fails the flow, with the size named. */
static void test_tcp_partial_responses(void)
{
	for (uint32_t extra = 0; extra < 2; extra++) {
		ws_test_spec spec = rr_spec(false, 5, 7, 1);
		spec.end = WS_END_TRANSACTIONS;
		spec.end_count = 20;
		struct lossy l = {.n = 1, .rsp = 7, .drop = {extra}, .late_flow = -1, .wrong_flow = -1};
		struct side cli;
		against(&l, dribbler_main, &spec, 1, &cli);
		if (!extra) {
			CHECK_INT("dribble rc", cli.rc, 0);
			CHECK_U64("dribble done", cli.res.transactions, 20);
			CHECK_U64("dribble bytes", cli.res.bytes_recv, 140);
			CHECK("reassembled", cli.res.recv_calls > 20);
		} else {
			CHECK("extra bytes fail", cli.rc < 0 && strstr(cli.err.msg, "beyond the 7-byte responses"));
		}
		ws_side_result_free(&cli.res);
	}
}

/* The daemon's time cap ends a responder whose requester never ends, with the cap's error. */
static void test_cap(void)
{
	for (int udp = 0; udp < 2; udp++) {
		ws_test_spec spec = rr_spec(udp, 1, 1, 0);
		int c[2], s[2];
		CHECK_INT("pairs", udp ? udp_pairs(2, c, s) : tcp_pairs(2, c, s), 0);
		struct side srv = {.p = rr_params(&spec, false, s, 2, 1)};
		srv.p.cap_ns = ws_clock_ns() + 300 * WS_NS_PER_MS;
		int64_t t0 = ws_clock_ns();
		side_main(&srv);
		int64_t took = ws_clock_ns() - t0;
		close_all(2, c, s);
		CHECK_INT("capped", srv.rc, -WS_E_LIMIT);
		CHECK("cap message", strstr(srv.err.msg, "time cap") != NULL);
		CHECK("cap on time", took >= 300 * WS_NS_PER_MS && took < 2 * WS_NS_PER_SEC);
		ws_side_result_free(&srv.res);
	}
}

static uint64_t count_at_least(const ws_hist *h, uint64_t ns)
{
	uint64_t n = ws_hist_overflow(h);
	for (unsigned i = 0; i < WS_HIST_BUCKETS; i++)
		if (ws_hist_bucket_low(i) >= ns)
			n += h->bucket[i];
	return n;
}

static void stalled(double rate, ws_side_result *res)
{
	ws_test_spec spec = rr_spec(false, 1, 1, 0);
	spec.duration_s = 1;
	spec.rate = rate;
	struct lossy l = {.n = 1, .stall_after = 300, .stall_ms = 200, .late_flow = -1};
	struct side cli;
	against(&l, staller_main, &spec, 1, &cli);
	CHECK_INT("stall rc", cli.rc, 0);
	*res = cli.res;
}

/* Coordinated omission: the 200 ms stall delays every request intended during it, so open
 * loop records about rate x (0.2 s - L) samples of at least L (L = 100 ms: 0.1 x rate; the
 * check allows 10% less), and its schedule shows the lag; closed loop sends nothing while
 * it waits and records the one stalled transaction only. */
static void test_coordinated_omission(void)
{
	const double rate = 2000;
	ws_side_result open, closed;
	stalled(rate, &open);
	stalled(0, &closed);
	uint64_t o100 = open.latency ? count_at_least(open.latency, 100 * WS_NS_PER_MS) : 0;
	uint64_t o10 = open.latency ? count_at_least(open.latency, 10 * WS_NS_PER_MS) : 0;
	uint64_t c100 = closed.latency ? count_at_least(closed.latency, 100 * WS_NS_PER_MS) : 0;
	printf("  open: %llu >= 100 ms, %llu >= 10 ms, max lag %lld ms; closed: %llu >= 100 ms of %llu\n",
	       (unsigned long long)o100, (unsigned long long)o10, (long long)(open.max_lag_ns / WS_NS_PER_MS),
	       (unsigned long long)c100, (unsigned long long)closed.transactions);
	CHECK("open >= 100 ms", o100 >= (uint64_t)(0.09 * rate));
	CHECK("open >= 10 ms", o10 >= (uint64_t)(0.18 * rate));
	CHECK("lag shows the stall", open.max_lag_ns >= 100 * WS_NS_PER_MS);
	CHECK("closed hides it", c100 >= 1 && c100 <= 2);
	CHECK_INT("closed has no schedule", closed.trans_scheduled, 0);
	ws_side_result_free(&open);
	ws_side_result_free(&closed);
}

/* Timed, closed loop, 8 flows on 2 threads with a burst: every request the requester
 * counted was answered by the responder, and the end handshake completes every flow. */
static void test_tcp_timed(void)
{
	ws_test_spec spec = rr_spec(false, 100, 200, 2);
	spec.duration_s = 0.5;
	struct side cli, srv;
	int64_t t0 = ws_clock_ns();
	run_both(&spec, 8, 2, &cli, &srv);
	int64_t took = ws_clock_ns() - t0;
	CHECK_INT("timed rc", cli.rc, 0);
	CHECK_INT("timed srv rc", srv.rc, 0);
	CHECK("some transactions", cli.res.transactions > 100);
	CHECK_U64("both sides agree", srv.res.transactions, cli.res.transactions);
	CHECK_U64("bytes", cli.res.bytes_recv, cli.res.transactions * 200);
	CHECK_U64("bytes", srv.res.bytes_recv, cli.res.transactions * 100);
	CHECK_U64("closed loop, nothing scheduled", cli.res.trans_scheduled, 0);
	CHECK("ends promptly", took < 3 * WS_NS_PER_SEC);
	for (uint32_t i = 0; i < 8 && cli.res.flows && srv.res.flows; i++) {
		CHECK_INT("flow ok", cli.res.flows[i].error, 0);
		CHECK_INT("flow ok", srv.res.flows[i].error, 0);
		CHECK_U64("per flow", srv.res.flows[i].transactions, cli.res.flows[i].transactions);
	}
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

/* A requester that stops 3 bytes into a 10-byte request fails its flow alone, the message
 * naming the sizes; the other flow is answered and ends at its EOF. */
static void test_tcp_partial_request(void)
{
	ws_test_spec spec = rr_spec(false, 10, 4, 0);
	spec.end = WS_END_TRANSACTIONS;
	int c[2], s[2];
	CHECK_INT("pairs", tcp_pairs(2, c, s), 0);
	struct side srv = {.p = rr_params(&spec, false, s, 2, 2)};
	pthread_create(&srv.th, NULL, side_main, &srv);
	char req[20] = {0}, rsp[16];
	CHECK_INT("partial", send(c[0], req, 3, 0), 3);
	CHECK_INT("two requests", send(c[1], req, 20, 0), 20);
	shutdown(c[0], SHUT_WR);
	shutdown(c[1], SHUT_WR);
	ssize_t got = 0, r;
	while ((r = recv(c[1], rsp + got, sizeof rsp - (size_t)got, 0)) > 0)
		got += r;
	CHECK_INT("two responses then EOF", got, 8);
	pthread_join(srv.th, NULL);
	close_all(2, c, s);
	CHECK_INT("one flow completed", srv.rc, 0);
	if (srv.res.flows) {
		CHECK("flow 0 failed", srv.res.flows[0].error != 0 &&
		      strstr(srv.res.flows[0].why, "3 bytes into a 10-byte request"));
		CHECK_INT("flow 1 ok", srv.res.flows[1].error, 0);
		CHECK_U64("flow 1 answered", srv.res.flows[1].transactions, 2);
	}
	ws_side_result_free(&srv.res);
}

/* 1000 flows on 2 threads, counted, open loop at 50/s each: shares exact, the schedule is
 * the count. */
static void test_many_flows_open(void)
{
	ws_test_spec spec = rr_spec(false, 1, 1, 0);
	spec.end = WS_END_TRANSACTIONS;
	spec.end_count = 10007;
	spec.rate = 50;
	struct side cli, srv;
	run_both(&spec, 1000, 2, &cli, &srv);
	CHECK_INT("many rc", cli.rc, 0);
	CHECK_INT("many srv rc", srv.rc, 0);
	CHECK_U64("many total", cli.res.transactions, 10007);
	CHECK_U64("many srv total", srv.res.transactions, 10007);
	CHECK_U64("many scheduled", cli.res.trans_scheduled, 10007);
	for (uint32_t i = 0; i < 1000 && cli.res.flows; i++)
		if (cli.res.flows[i].transactions != (i < 7 ? 11u : 10u))
			CHECK_U64("many share", cli.res.flows[i].transactions, i < 7 ? 11 : 10);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

/* The due heap pops in time order, and both waits (epoll_pwait2 and the timerfd) sleep
 * until the deadline, not past it by a millisecond's rounding, and not short of it. */
static void test_sched(void)
{
	for (int pw = 0; pw < 2; pw++) {
		int ep = epoll_create1(0);
		ws_sched s;
		ws_err e;
		CHECK_INT("sched init", ws_sched_init(&s, ep, 8, pw, &e), 0);
		CHECK("timerfd when asked", pw || s.tfd >= 0);
		const int64_t due[] = {50, 10, 40, 20, 30, 10};
		for (uint32_t k = 0; k < 6; k++)
			ws_sched_push(&s, due[k], k);
		int64_t last = 0;
		for (uint32_t k = 0; k < 6; k++) {
			uint32_t id = ws_sched_pop(&s);
			CHECK("heap order", due[id] >= last);
			last = due[id];
		}
		CHECK_INT("heap empty", s.n, 0);
		for (int k = 0; k < 3; k++) {
			struct epoll_event ev[4];
			int64_t t0 = ws_clock_ns(), deadline = t0 + 1500 * WS_NS_PER_US;
			CHECK_INT("wait", ws_sched_wait(&s, ev, 4, deadline), 0);
			int64_t t1 = ws_clock_ns();
			CHECK("not short", t1 >= deadline);
			CHECK("not long (generous)", t1 - deadline < 50 * WS_NS_PER_MS);
		}
		ws_sched_free(&s);
		close(ep);
	}
}

int main(void)
{
	RUN(test_flowhist);
	RUN(test_sched);
	RUN(test_tcp_counted);
	RUN(test_udp_counted);
	RUN(test_tcp_timed);
	RUN(test_tcp_partial_request);
	RUN(test_many_flows_open);
	RUN(test_udp_loss);
	RUN(test_tcp_partial_responses);
	RUN(test_cap);
	RUN(test_open_loop_rate);
	RUN(test_coordinated_omission);
	/* UDP_RR on the io_uring engine: the same counts and the same losses */
	char why[160];
	if (ws_uring_probe(why, sizeof(why)) == 0) {
		engine = WS_ENGINE_IO_URING;
		RUN(test_udp_counted);
		RUN(test_udp_loss);
		RUN(test_tcp_counted);
		engine = WS_ENGINE_EPOLL;
	} else {
		printf("# io_uring variants skipped: %s\n", why);
	}
	TEST_MAIN_END();
}
