/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rr: the single-flow request/response engine (workload/rr.c), both roles, over a
 * Unix stream socketpair (TCP_RR's byte stream) and a loopback UDP pair, each role in its
 * own thread. Counts are exact: end_count transactions, bytes = count * size, one
 * histogram sample per transaction. Fake peers written here drop, delay or mis-size
 * datagrams to pin down loss, late replies and the wrong-size errors. */
#include "harness.h"

#include "measure/hist.h"
#include "model/result.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/rr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define TICK_NS (100 * WS_NS_PER_MS)

typedef struct role {
	ws_rr_params p;
	ws_side_result res;
	ws_err err;
	int rc;
	int fd;
} role;

static void role_init(role *r, const ws_test_spec *s, bool client, bool udp, int fd)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->p = (ws_rr_params){
		.spec = s,
		.is_client = client,
		.udp = udp,
		.fds = &r->fd,
		.nfds = 1,
		.threads = 1,
		.start_ns = ws_clock_ns(),
		.end_count = s->end == WS_END_TRANSACTIONS ? s->end_count : 0,
		.end_ns = s->end == WS_END_TIME ? ws_clock_ns() + (int64_t)(s->duration_s * WS_NS_PER_SEC) : 0,
		.stall_ns = 10 * WS_NS_PER_SEC,
		.listen_fd = -1,
		.wake_fd = -1,
	};
	ws_err_clear(&r->err);
	ws_sock_set_timeouts(fd, TICK_NS, NULL);
}

static void *role_thread(void *arg)
{
	role *r = arg;
	r->rc = ws_rr_run(&r->p, &r->res, &r->err);
	return NULL;
}

static void spec_rr(ws_test_spec *s, enum ws_test_type t, uint32_t req, uint32_t rsp, uint32_t burst,
		    uint64_t count)
{
	ws_test_spec_init(s);
	s->type = t;
	s->req_size = req;
	s->rsp_size = rsp;
	s->burst = burst;
	/* Far above any scheduling hiccup of a loaded machine, so that only the tests that
	 * set a shorter one ever see a loss. */
	s->rr_timeout_ns = 5 * WS_NS_PER_SEC;
	if (count) {
		s->end = WS_END_TRANSACTIONS;
		s->end_count = count;
	} else {
		s->duration_s = 0.3;
	}
}

/* Two loopback UDP sockets connected to each other. */
static int udp_pair(int sv[2])
{
	struct sockaddr_in a[2];
	for (int i = 0; i < 2; i++) {
		sv[i] = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		memset(&a[i], 0, sizeof(a[i]));
		a[i].sin_family = AF_INET;
		a[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		socklen_t n = sizeof(a[i]);
		if (sv[i] < 0 || bind(sv[i], (struct sockaddr *)&a[i], sizeof(a[i])) < 0 ||
		    getsockname(sv[i], (struct sockaddr *)&a[i], &n) < 0)
			return -1;
	}
	int big = 4 << 20;
	for (int i = 0; i < 2; i++) {
		setsockopt(sv[i], SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		if (connect(sv[i], (struct sockaddr *)&a[1 - i], sizeof(a[1 - i])) < 0)
			return -1;
	}
	return 0;
}

/* Run both roles of one test on a pair; sv[0] is the requester's. */
static void run_pair(const ws_test_spec *s, bool udp, role *cli, role *srv)
{
	int sv[2];
	int rc = udp ? udp_pair(sv) : socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	CHECK_INT("pair", rc, 0);
	role_init(cli, s, true, udp, sv[0]);
	role_init(srv, s, false, udp, sv[1]);
	pthread_t t;
	pthread_create(&t, NULL, role_thread, srv);
	role_thread(cli);
	if (!udp)
		close(sv[0]); /* as the session does, after its role: ends nothing here (EOF came first) */
	pthread_join(t, NULL);
	if (udp)
		close(sv[0]);
	close(sv[1]);
}

/* Both roles succeed with exactly n transactions and the byte counts that make. */
static void check_exact(const char *name, const ws_test_spec *s, role *cli, role *srv, uint64_t n)
{
	WS_T_REPORT(cli->rc == 0, name, "requester: %d %s", cli->rc, cli->err.msg);
	WS_T_REPORT(srv->rc == 0, name, "responder: %d %s", srv->rc, srv->err.msg);
	CHECK_U64(name, cli->res.transactions, n);
	CHECK_U64(name, srv->res.transactions, n);
	CHECK_U64(name, cli->res.bytes_sent, n * s->req_size);
	CHECK_U64(name, cli->res.bytes_recv, n * s->rsp_size);
	CHECK_U64(name, srv->res.bytes_recv, n * s->req_size);
	CHECK_U64(name, srv->res.bytes_sent, n * s->rsp_size);
	CHECK_INT(name, cli->res.send_size, s->req_size);
	CHECK_INT(name, cli->res.recv_size, s->rsp_size);
	CHECK_INT(name, srv->res.send_size, s->rsp_size);
	CHECK_INT(name, srv->res.recv_size, s->req_size);
	CHECK(name, cli->res.latency != NULL && srv->res.latency == NULL);
	if (cli->res.latency)
		CHECK_U64(name, ws_hist_count(cli->res.latency), n);
	CHECK_U64(name, cli->res.trans_lost, 0);
	CHECK_U64(name, cli->res.late_replies, 0);
	CHECK(name, cli->res.elapsed_ns > 0 && srv->res.elapsed_ns > 0);
}

static void exact_case(const char *name, enum ws_test_type t, uint32_t req, uint32_t rsp, uint32_t burst,
		       uint64_t n)
{
	ws_test_spec s;
	spec_rr(&s, t, req, rsp, burst, n);
	role cli, srv;
	run_pair(&s, t == WS_TEST_UDP_RR, &cli, &srv);
	check_exact(name, &s, &cli, &srv, n);
	if (t == WS_TEST_UDP_RR) /* the requests, plus nothing: no loss on loopback */
		CHECK_U64(name, cli.res.send_calls, n);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

static void test_tcp_exact(void)
{
	exact_case("tcp 1,1", WS_TEST_TCP_RR, 1, 1, 0, 1000);
	exact_case("tcp 64,1024 burst 4", WS_TEST_TCP_RR, 64, 1024, 4, 1000);
	exact_case("tcp burst above count", WS_TEST_TCP_RR, 8, 8, 16, 5);
	exact_case("tcp 64K", WS_TEST_TCP_RR, 65536, 65536, 0, 100);
	exact_case("tcp 64K,1 burst 2", WS_TEST_TCP_RR, 65536, 1, 2, 100);
}

static void test_udp_exact(void)
{
	exact_case("udp 1,1", WS_TEST_UDP_RR, 1, 1, 0, 1000);
	exact_case("udp 64,1024 burst 4", WS_TEST_UDP_RR, 64, 1024, 4, 1000);
	exact_case("udp 65507", WS_TEST_UDP_RR, 65507, 65507, 0, 100);
	exact_case("udp 3,100 burst 7", WS_TEST_UDP_RR, 3, 100, 7, 500);
}

/* A timed test: both sides count the same transactions, which end near the deadline. */
static void test_timed(void)
{
	for (int udp = 0; udp < 2; udp++) {
		const char *name = udp ? "udp timed" : "tcp timed";
		ws_test_spec s;
		spec_rr(&s, udp ? WS_TEST_UDP_RR : WS_TEST_TCP_RR, 16, 16, 1, 0);
		role cli, srv;
		int64_t t0 = ws_clock_ns();
		run_pair(&s, udp, &cli, &srv);
		WS_T_REPORT(cli.rc == 0 && srv.rc == 0, name, "%s / %s", cli.err.msg, srv.err.msg);
		CHECK(name, cli.res.transactions > 0);
		CHECK_U64(name, srv.res.transactions, cli.res.transactions);
		CHECK_U64(name, ws_hist_count(cli.res.latency), cli.res.transactions);
		int64_t took = ws_clock_ns() - t0;
		WS_T_REPORT(took >= 300 * WS_NS_PER_MS && took < 3 * WS_NS_PER_SEC, name, "took %lld ns", (long long)took);
		ws_side_result_free(&cli.res);
		ws_side_result_free(&srv.res);
	}
}

/* ---- fake UDP responders ----------------------------------------------------------- */

enum fake_kind { FAKE_DROP_10TH, FAKE_LATE_5TH, FAKE_WRONG_SIZE };

typedef struct fake {
	int fd;
	enum fake_kind kind;
	uint32_t rsp_size;
	uint64_t requests; /* received, excluding the end markers */
	int markers;
} fake;

/* Answers like the real responder (the tag copied), but drops every 10th request, or
 * answers the 5th only after 300 ms, or answers with one byte too many; ends at the first
 * end marker, or after 2 s of silence. */
static void *fake_thread(void *arg)
{
	fake *f = arg;
	unsigned char buf[2048], out[2048];
	ws_sock_set_timeouts(f->fd, 2 * WS_NS_PER_SEC, NULL);
	for (;;) {
		ssize_t k = recv(f->fd, buf, sizeof(buf), 0);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			f->markers += k == 0;
			return NULL;
		}
		f->requests++;
		if (f->kind == FAKE_DROP_10TH && f->requests % 10 == 0)
			continue;
		if (f->kind == FAKE_LATE_5TH && f->requests == 5)
			ws_clock_sleep_ns(300 * WS_NS_PER_MS);
		memset(out, 0x5a, sizeof(out));
		size_t tag = (size_t)k < f->rsp_size ? (size_t)k : f->rsp_size;
		memcpy(out, buf, tag < 8 ? tag : 8);
		size_t n = f->rsp_size + (f->kind == FAKE_WRONG_SIZE ? 1 : 0);
		(void)send(f->fd, out, n, 0);
	}
}

static void run_fake(const ws_test_spec *s, enum fake_kind kind, role *cli, fake *f)
{
	int sv[2];
	CHECK_INT("udp pair", udp_pair(sv), 0);
	*f = (fake){.fd = sv[1], .kind = kind, .rsp_size = s->rsp_size};
	role_init(cli, s, true, true, sv[0]);
	pthread_t t;
	pthread_create(&t, NULL, fake_thread, f);
	role_thread(cli);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
}

/* Every 10th request is dropped: 100 transactions take 111 requests, 11 of them lost and
 * retried; the losses are not in the histogram, and nothing stalls. With a burst, the
 * other slots go on while a lost one waits for its own deadline. */
static void udp_loss_case(const char *name, uint32_t burst)
{
	ws_test_spec s;
	spec_rr(&s, WS_TEST_UDP_RR, 32, 32, burst, 100);
	s.rr_timeout_ns = 200 * WS_NS_PER_MS;
	role cli;
	fake f;
	int64_t t0 = ws_clock_ns();
	run_fake(&s, FAKE_DROP_10TH, &cli, &f);
	WS_T_REPORT(cli.rc == 0, name, "%d %s", cli.rc, cli.err.msg);
	CHECK_U64(name, cli.res.transactions, 100);
	CHECK_U64(name, cli.res.trans_lost, 11);
	CHECK_U64(name, cli.res.late_replies, 0);
	CHECK_U64(name, f.requests, 111);
	CHECK_U64(name, cli.res.send_calls, 111);
	CHECK_U64(name, ws_hist_count(cli.res.latency), 100);
	CHECK_INT(name, f.markers, 1);
	/* 11 timeouts of 0.2 s, not a stall of seconds */
	int64_t took = ws_clock_ns() - t0;
	WS_T_REPORT(took >= (burst ? 200 : 2200) * WS_NS_PER_MS && took < 6 * WS_NS_PER_SEC, name, "took %lld ns",
		    (long long)took);
	ws_side_result_free(&cli.res);
}

static void test_udp_loss(void)
{
	udp_loss_case("udp loss", 0);
	udp_loss_case("udp loss burst 3", 3);
}

/* A timed UDP_RR responder whose end markers never come ends on the silence after the
 * test's end (WS_STREAM_END_STALL_NS), successfully, with what it answered. */
static void test_udp_responder_silence(void)
{
	const char *name = "udp responder silence";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_UDP_RR, 4, 4, 0, 0);
	s.duration_s = 0.01;
	int sv[2];
	CHECK_INT(name, udp_pair(sv), 0);
	role srv;
	role_init(&srv, &s, false, true, sv[1]);
	CHECK_INT(name, send(sv[0], "abcd", 4, 0), 4);
	int64_t t0 = ws_clock_ns();
	role_thread(&srv);
	int64_t took = ws_clock_ns() - t0;
	WS_T_REPORT(srv.rc == 0, name, "%d %s", srv.rc, srv.err.msg);
	CHECK_U64(name, srv.res.transactions, 1);
	char b[8];
	CHECK_INT(name, recv(sv[0], b, sizeof(b), MSG_DONTWAIT), 4);
	CHECK_MEM(name, b, "abcd", 4); /* the tag (all 4 bytes) copied back */
	WS_T_REPORT(took >= 3 * WS_NS_PER_SEC && took < 5 * WS_NS_PER_SEC, name, "took %lld ns", (long long)took);
	close(sv[0]);
	close(sv[1]);
}

/* The 5th reply comes after 300 ms (timeout 200 ms): one loss, one late reply discarded,
 * and the retry (with a new tag, answered at once after the late one) completes the
 * transaction. */
static void test_udp_late(void)
{
	const char *name = "udp late";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_UDP_RR, 8, 8, 0, 20);
	s.rr_timeout_ns = 200 * WS_NS_PER_MS;
	role cli;
	fake f;
	run_fake(&s, FAKE_LATE_5TH, &cli, &f);
	WS_T_REPORT(cli.rc == 0, name, "%d %s", cli.rc, cli.err.msg);
	CHECK_U64(name, cli.res.transactions, 20);
	CHECK_U64(name, cli.res.trans_lost, 1);
	CHECK_U64(name, cli.res.late_replies, 1);
	CHECK_U64(name, f.requests, 21);
	CHECK_U64(name, ws_hist_count(cli.res.latency), 20);
	/* the late reply is not a sample: every sample is under the timeout */
	CHECK(name, ws_hist_max(cli.res.latency) < 200 * WS_NS_PER_MS);
	ws_side_result_free(&cli.res);
}

static void test_udp_wrong_size(void)
{
	const char *name = "udp wrong size";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_UDP_RR, 64, 64, 0, 10);
	role cli;
	fake f;
	run_fake(&s, FAKE_WRONG_SIZE, &cli, &f);
	CHECK_INT(name, cli.rc, -WS_E_PROTO);
	CHECK_STR(name, cli.err.msg, "UDP_RR: a response of 65 bytes; expected 64 (-r 64,64)");
	CHECK_U64(name, cli.res.transactions, 0);
	ws_side_result_free(&cli.res);
}

/* The UDP responder refuses a request of the wrong size, naming both. */
static void test_udp_bad_request(void)
{
	const char *name = "udp bad request";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_UDP_RR, 10, 10, 0, 10);
	int sv[2];
	CHECK_INT(name, udp_pair(sv), 0);
	role srv;
	role_init(&srv, &s, false, true, sv[1]);
	char b[11] = {0};
	CHECK_INT(name, send(sv[0], b, sizeof(b), 0), 11);
	role_thread(&srv);
	CHECK_INT(name, srv.rc, -WS_E_PROTO);
	CHECK_STR(name, srv.err.msg, "UDP_RR: a request of 11 bytes; expected 10 (-r 10,10)");
	close(sv[0]);
	close(sv[1]);
}

/* ---- fake TCP peers ---------------------------------------------------------------- */

typedef struct tcp_fake {
	int fd;
	size_t reply; /* bytes sent per byte of request received */
} tcp_fake;

/* Answers every 1-byte request with `reply` bytes until EOF, then closes. */
static void *tcp_fake_thread(void *arg)
{
	tcp_fake *f = arg;
	unsigned char b[1], out[16] = {0};
	while (recv(f->fd, b, 1, 0) == 1)
		if (f->reply)
			(void)send(f->fd, out, f->reply, MSG_NOSIGNAL);
	shutdown(f->fd, SHUT_RDWR);
	return NULL;
}

/* Responses of 2 bytes for -r 1,1: the stream does not end on a response boundary. */
static void test_tcp_wrong_size(void)
{
	const char *name = "tcp long responses";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_TCP_RR, 1, 1, 0, 10);
	int sv[2];
	CHECK_INT(name, socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	tcp_fake f = {.fd = sv[1], .reply = 2};
	role cli;
	role_init(&cli, &s, true, false, sv[0]);
	pthread_t t;
	pthread_create(&t, NULL, tcp_fake_thread, &f);
	role_thread(&cli);
	pthread_join(t, NULL);
	CHECK_INT(name, cli.rc, -WS_E_PROTO);
	CHECK_STR(name, cli.err.msg,
		  "the responder sent 10 bytes more than 10 responses of 1 bytes (-r 1,1): its responses are not 1 bytes long");
	ws_side_result_free(&cli.res);
	close(sv[0]);
	close(sv[1]);
}

/* A responder that never answers: the requester gives up after the stall time, naming
 * what was outstanding. */
static void test_tcp_silent(void)
{
	const char *name = "tcp silent responder";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_TCP_RR, 1, 4, 2, 10);
	int sv[2];
	CHECK_INT(name, socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	tcp_fake f = {.fd = sv[1], .reply = 0};
	role cli;
	role_init(&cli, &s, true, false, sv[0]);
	cli.p.stall_ns = 400 * WS_NS_PER_MS;
	pthread_t t;
	pthread_create(&t, NULL, tcp_fake_thread, &f);
	int64_t t0 = ws_clock_ns();
	role_thread(&cli);
	int64_t took = ws_clock_ns() - t0;
	shutdown(sv[0], SHUT_RDWR);
	pthread_join(t, NULL);
	CHECK_INT(name, cli.rc, -WS_E_TIMEDOUT);
	/* the quiet time is measured at a wake-up: 0.4 s and up to a tick more */
	CHECK(name, strncmp(cli.err.msg, "waiting for a response of 4 bytes (-r 1,4), 0 received, 3 requests outstanding: nothing for 0.",
			    strlen("waiting for a response of 4 bytes (-r 1,4), 0 received, 3 requests outstanding: nothing for 0.")) == 0);
	WS_T_REPORT(took < 2 * WS_NS_PER_SEC, name, "took %lld ns", (long long)took);
	ws_side_result_free(&cli.res);
	close(sv[0]);
	close(sv[1]);
}

/* A request cut short by EOF is an error naming the sizes; EOF on a boundary is the end. */
static void test_tcp_partial_request(void)
{
	const char *name = "tcp partial request";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_TCP_RR, 4, 4, 0, 10);
	int sv[2];
	CHECK_INT(name, socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	role srv;
	role_init(&srv, &s, false, false, sv[1]);
	CHECK_INT(name, send(sv[0], "abcdefg", 7, 0), 7);
	shutdown(sv[0], SHUT_WR);
	role_thread(&srv);
	CHECK_INT(name, srv.rc, -WS_E_PROTO);
	CHECK_STR(name, srv.err.msg,
		  "the requester closed the data connection in the middle of a request: 3 of 4 bytes received (-r 4,4)");
	CHECK_U64(name, srv.res.transactions, 1);
	CHECK_U64(name, srv.res.bytes_sent, 4);
	close(sv[0]);
	close(sv[1]);
}

/* A request that trickles in (a byte every 150 ms, stall time 1 s) is progress, not a
 * stall; a request that stops half-way is a stall, even though the receive call that
 * waits for its rest had already read part of it. */
static void test_tcp_trickle(void)
{
	const char *name = "tcp trickle";
	ws_test_spec s;
	spec_rr(&s, WS_TEST_TCP_RR, 6, 1, 0, 1);
	for (int stop = 0; stop < 2; stop++) {
		int sv[2];
		CHECK_INT(name, socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		role srv;
		role_init(&srv, &s, false, false, sv[1]);
		srv.p.stall_ns = WS_NS_PER_SEC;
		pthread_t t;
		pthread_create(&t, NULL, role_thread, &srv);
		for (int i = 0; i < (stop ? 3 : 6); i++) {
			ws_clock_sleep_ns(150 * WS_NS_PER_MS);
			CHECK_INT(name, send(sv[0], "r", 1, 0), 1);
		}
		if (!stop) {
			char b;
			CHECK_INT(name, recv(sv[0], &b, 1, 0), 1);
			shutdown(sv[0], SHUT_WR);
		}
		pthread_join(t, NULL);
		if (stop) {
			CHECK_INT(name, srv.rc, -WS_E_TIMEDOUT);
			CHECK(name, strstr(srv.err.msg, "waiting for a request of 6 bytes (-r 6,1) after 0 transactions: nothing for 1.") != NULL);
		} else {
			WS_T_REPORT(srv.rc == 0, name, "%d %s", srv.rc, srv.err.msg);
			CHECK_U64(name, srv.res.transactions, 1);
		}
		close(sv[0]);
		close(sv[1]);
	}
}

int main(void)
{
	RUN(test_tcp_exact);
	RUN(test_udp_exact);
	RUN(test_timed);
	RUN(test_udp_loss);
	RUN(test_udp_responder_silence);
	RUN(test_udp_late);
	RUN(test_udp_wrong_size);
	RUN(test_udp_bad_request);
	RUN(test_tcp_wrong_size);
	RUN(test_tcp_silent);
	RUN(test_tcp_partial_request);
	RUN(test_tcp_trickle);
	TEST_MAIN_END();
}
