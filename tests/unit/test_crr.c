/* SPDX-License-Identifier: BSD-2-Clause */
/* test_crr: TCP_CRR, both roles in one process over loopback, with exact counts. */
#include "harness.h"

#include "measure/hist.h"
#include "net/addr.h"
#include "net/sock.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/rr.h"
#include "workload/run.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

struct side {
	ws_test_spec spec;
	ws_rr_params ep;
	ws_side_result res;
	ws_err err;
	int rc;
	pthread_t t;
};

static void *serve_main(void *v)
{
	struct side *s = v;
	s->rc = ws_workload_run_crr(&s->spec, false, &s->ep, 0, &s->res, &s->err);
	return NULL;
}

static void spec_for(ws_test_spec *spec, uint32_t req, uint32_t rsp, uint64_t count, uint32_t streams,
		     uint32_t threads)
{
	ws_test_spec_init(spec);
	spec->type = WS_TEST_TCP_CRR;
	spec->req_size = req;
	spec->rsp_size = rsp;
	if (count) {
		spec->end = WS_END_TRANSACTIONS;
		spec->end_count = count;
	} else {
		spec->duration_s = 0.3;
	}
	spec->streams = streams;
	spec->local_threads = spec->remote_threads = threads;
}

/* A listener on 127.0.0.1 and the daemon's role serving it in a thread. */
static int start_server(struct side *srv, const ws_test_spec *spec, ws_addr *data)
{
	memset(srv, 0, sizeof(*srv));
	srv->spec = *spec;
	ws_addr a;
	if (ws_addr_resolve("127.0.0.1", 0, 4, 1, &a, NULL) < 0)
		return -1;
	int lfd = ws_sock_listen(&a, -1, 0, 0, 1024, NULL);
	if (lfd < 0)
		return -1;
	ws_sock_local_addr(lfd, data);
	srv->ep.listen_fd = lfd;
	srv->ep.wake_fd = -1;
	ws_addr_resolve("127.0.0.1", 0, 4, 1, &srv->ep.expect_peer, NULL);
	return pthread_create(&srv->t, NULL, serve_main, srv) == 0 ? 0 : -1;
}

static void stop_server(struct side *srv)
{
	pthread_join(srv->t, NULL);
	close(srv->ep.listen_fd);
}

static int run_client(struct side *cli, const ws_test_spec *spec, const ws_addr *data)
{
	memset(cli, 0, sizeof(*cli));
	cli->spec = *spec;
	cli->ep.listen_fd = cli->ep.wake_fd = -1;
	cli->ep.remote = *data;
	cli->rc = ws_workload_run_crr(&cli->spec, true, &cli->ep, 0, &cli->res, &cli->err);
	return cli->rc;
}

/* One whole test of `count` transactions; checks the counts both sides must agree on. */
static void exact_run(const char *name, uint32_t req, uint32_t rsp, uint64_t count, uint32_t streams,
		      uint32_t threads)
{
	ws_test_spec spec;
	spec_for(&spec, req, rsp, count, streams, threads);
	struct side srv, cli;
	ws_addr data;
	CHECK(name, start_server(&srv, &spec, &data) == 0);
	run_client(&cli, &spec, &data);
	stop_server(&srv);
	CHECK_INT(name, cli.rc, 0);
	CHECK_INT(name, srv.rc, 0);
	if (cli.rc || srv.rc)
		printf("  client: %s\n  server: %s\n", cli.err.msg, srv.err.msg);
	CHECK_U64(name, cli.res.transactions, count);
	CHECK_U64(name, cli.res.connects, count);
	CHECK_U64(name, cli.res.connect_errors, 0);
	CHECK_U64(name, cli.res.bytes_sent, count * req);
	CHECK_U64(name, cli.res.bytes_recv, count * rsp);
	CHECK_U64(name, cli.res.send_size, req);
	CHECK_U64(name, cli.res.recv_size, rsp);
	CHECK(name, cli.res.latency != NULL);
	if (cli.res.latency) {
		CHECK_U64(name, ws_hist_count(cli.res.latency), count);
		CHECK(name, ws_hist_min(cli.res.latency) > 0);
	}
	CHECK_U64(name, srv.res.transactions, count);
	CHECK_U64(name, srv.res.connects, count); /* the end marker is not a transaction */
	CHECK_U64(name, srv.res.connect_errors, 0);
	CHECK_U64(name, srv.res.bytes_recv, count * req);
	CHECK_U64(name, srv.res.bytes_sent, count * rsp);
	CHECK(name, srv.res.latency == NULL);
	CHECK(name, cli.res.elapsed_ns > 0 && srv.res.elapsed_ns > 0);
	if (streams > 1) {
		CHECK_U64(name, cli.res.nflows, streams);
		uint64_t sum = 0;
		for (uint32_t i = 0; i < cli.res.nflows; i++) {
			sum += cli.res.flows[i].transactions;
			CHECK_INT(name, cli.res.flows[i].error, 0);
			CHECK_U64(name, cli.res.flows[i].thread, i % threads);
		}
		CHECK_U64(name, sum, count);
		CHECK_U64(name, cli.res.nthreads, threads);
		CHECK_U64(name, srv.res.nthreads, threads);
	}
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

static void test_exact_small(void)
{
	exact_run("1,1 x500", 1, 1, 500, 1, 1);
}

static void test_exact_64k(void)
{
	exact_run("64K,64K x40", 65536, 65536, 40, 1, 1);
	exact_run("1,64K x40", 1, 65536, 40, 1, 1);
	exact_run("64K,1 x40", 65536, 1, 40, 1, 1);
}

static void test_many_flows(void)
{
	exact_run("4 flows 2 threads x203", 64, 1024, 203, 4, 2);
	exact_run("5 flows 1 thread x7", 1, 1, 7, 5, 1); /* fewer transactions than ... flows */
}

static void test_timed(void)
{
	ws_test_spec spec;
	spec_for(&spec, 1, 1, 0, 1, 1);
	struct side srv, cli;
	ws_addr data;
	CHECK("timed", start_server(&srv, &spec, &data) == 0);
	int64_t t0 = ws_clock_ns();
	run_client(&cli, &spec, &data);
	int64_t took = ws_clock_ns() - t0;
	stop_server(&srv);
	CHECK_INT("timed", cli.rc, 0);
	CHECK_INT("timed", srv.rc, 0);
	CHECK("timed", cli.res.transactions > 0);
	CHECK_U64("timed", srv.res.transactions, cli.res.transactions);
	CHECK_U64("timed", cli.res.connects, cli.res.transactions);
	CHECK("timed", took >= 300 * WS_NS_PER_MS && took < 5 * WS_NS_PER_SEC);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

/* -P lport: each connection binds the next port; 300 of them in a row all connect. */
static void test_fixed_port(void)
{
	ws_test_spec spec;
	spec_for(&spec, 1, 1, 300, 1, 1);
	struct side srv, cli;
	ws_addr data;
	CHECK("lport", start_server(&srv, &spec, &data) == 0);
	memset(&cli, 0, sizeof(cli));
	cli.spec = spec;
	cli.ep.listen_fd = cli.ep.wake_fd = -1;
	cli.ep.remote = data;
	cli.ep.bind_local = true;
	ws_addr_resolve("127.0.0.1", 41000, 4, 1, &cli.ep.local, NULL);
	cli.rc = ws_workload_run_crr(&cli.spec, true, &cli.ep, 0, &cli.res, &cli.err);
	stop_server(&srv);
	CHECK_INT("lport", cli.rc, 0);
	if (cli.rc)
		printf("  %s\n", cli.err.msg);
	CHECK_U64("lport", cli.res.transactions, 300);
	CHECK_U64("lport", srv.res.transactions, 300);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

/* A connection from another address (127.0.0.2) is closed unserved and counted. */
static void test_stranger(void)
{
	ws_test_spec spec;
	spec_for(&spec, 1, 1, 20, 1, 1);
	struct side srv, cli;
	ws_addr data, from;
	CHECK("stranger", start_server(&srv, &spec, &data) == 0);
	ws_addr_resolve("127.0.0.2", 0, 4, 1, &from, NULL);
	ws_err e;
	int sfd = ws_sock_connect(&data, &from, 0, 0, NULL, NULL, ws_clock_ns() + WS_NS_PER_SEC, &e);
	CHECK("stranger", sfd >= 0);
	char byte = 'q', got;
	CHECK_INT("stranger", ws_sock_write_all(sfd, &byte, 1, ws_clock_ns() + WS_NS_PER_SEC, NULL), 0);
	/* refused: the daemon closes it without an answer */
	int rrc = ws_sock_read_exact(sfd, &got, 1, ws_clock_ns() + 3 * WS_NS_PER_SEC, &e);
	CHECK("stranger", rrc < 0 && rrc != -WS_E_TIMEDOUT);
	close(sfd);
	run_client(&cli, &spec, &data);
	stop_server(&srv);
	CHECK_INT("stranger", cli.rc, 0);
	CHECK_INT("stranger", srv.rc, 0);
	CHECK_U64("stranger", srv.res.connect_errors, 1);
	CHECK_U64("stranger", srv.res.transactions, 20);
	CHECK_U64("stranger", srv.res.connects, 20);
	CHECK_U64("stranger", srv.res.bytes_recv, 20);
	ws_side_result_free(&cli.res);
	ws_side_result_free(&srv.res);
}

/* The daemon's rules without a client: the stall rule and the wake fd end it. */
static void test_server_ends(void)
{
	ws_test_spec spec;
	spec_for(&spec, 1, 1, 10, 1, 1);
	ws_addr a, data;
	ws_addr_resolve("127.0.0.1", 0, 4, 1, &a, NULL);
	int lfd = ws_sock_listen(&a, -1, 0, 0, 16, NULL);
	ws_sock_local_addr(lfd, &data);
	ws_rr_params p = {.spec = &spec, .threads = 1, .listen_fd = lfd, .wake_fd = -1,
			  .stall_ns = 300 * WS_NS_PER_MS, .start_ns = ws_clock_ns()};
	ws_addr_resolve("127.0.0.1", 0, 4, 1, &p.expect_peer, NULL);
	ws_side_result res;
	memset(&res, 0, sizeof(res));
	ws_err err;
	ws_err_clear(&err);
	int64_t t0 = ws_clock_ns();
	int rc = ws_crr_run(&p, &res, &err);
	int64_t took = ws_clock_ns() - t0;
	CHECK_INT("stall", rc, -WS_E_TIMEDOUT);
	CHECK("stall", strstr(err.msg, "no TCP_CRR connection from the client (127.0.0.1)") != NULL);
	CHECK("stall", took < 3 * WS_NS_PER_SEC);
	int pfd[2];
	CHECK("wake", pipe(pfd) == 0);
	CHECK("wake", write(pfd[1], "x", 1) == 1);
	p.wake_fd = pfd[0];
	p.stall_ns = 10 * WS_NS_PER_SEC;
	p.start_ns = ws_clock_ns();
	ws_err_clear(&err);
	rc = ws_crr_run(&p, &res, &err);
	CHECK_INT("wake", rc, -ECANCELED);
	CHECK_STR("wake", err.msg, "the daemon is stopping");
	close(pfd[0]);
	close(pfd[1]);
	close(lfd);
}

/* A responder that answers with the wrong size and closes: the client names the sizes,
 * no hang. */
struct fake {
	int lfd;
	size_t answer;
};

static void *short_responder(void *v)
{
	struct fake *f = v;
	int fd = ws_sock_accept(f->lfd, NULL, ws_clock_ns() + 5 * WS_NS_PER_SEC, -1, NULL);
	if (fd < 0)
		return NULL;
	char buf[200];
	memset(buf, 'r', sizeof(buf));
	ws_sock_read_exact(fd, buf, 8, ws_clock_ns() + 5 * WS_NS_PER_SEC, NULL);
	ws_sock_write_all(fd, buf, f->answer, ws_clock_ns() + WS_NS_PER_SEC, NULL);
	close(fd);
	return NULL;
}

static void wrong_size(const char *name, size_t answer, int want_rc, const char *want_msg)
{
	ws_test_spec spec;
	spec_for(&spec, 8, 100, 5, 1, 1);
	ws_addr a, data;
	ws_addr_resolve("127.0.0.1", 0, 4, 1, &a, NULL);
	struct fake f = {.lfd = ws_sock_listen(&a, -1, 0, 0, 16, NULL), .answer = answer};
	ws_sock_local_addr(f.lfd, &data);
	pthread_t t;
	pthread_create(&t, NULL, short_responder, &f);
	struct side cli;
	run_client(&cli, &spec, &data);
	pthread_join(t, NULL);
	close(f.lfd);
	CHECK_INT(name, cli.rc, want_rc);
	CHECK_STR(name, cli.err.msg, want_msg);
	CHECK_U64(name, cli.res.transactions, 0);
	ws_side_result_free(&cli.res);
}

static void test_wrong_response(void)
{
	wrong_size("short", 3, -WS_E_PROTO,
		   "the daemon closed the connection after 3 of 100 response bytes (request 8 bytes)");
	wrong_size("long", 101, -WS_E_PROTO,
		   "the daemon sent more than the 100-byte response (request 8 bytes) before closing the connection");
}

int main(void)
{
	RUN(test_exact_small);
	RUN(test_exact_64k);
	RUN(test_many_flows);
	RUN(test_timed);
	RUN(test_fixed_port);
	RUN(test_stranger);
	RUN(test_server_ends);
	RUN(test_wrong_response);
	TEST_MAIN_END();
}
