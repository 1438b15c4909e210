/* SPDX-License-Identifier: BSD-2-Clause */
/* test_workload: the engine-independent choices of workload/run, with exact values. */
#include "harness.h"
#include "tcp_pairs.h"

#include "model/result.h"
#include "net/sock.h"
#include "net/uring.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/multi.h"
#include "workload/run.h"
#include "workload/stream.h"
#include "workload/stream_uring.h"

#include <fcntl.h>
#include <linux/sock_diag.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A temporary file holding `len` bytes of `data`; returns an open fd (already unlinked). */
static int temp_file(const char *data, size_t len)
{
	char path[] = "/tmp/ws-test-fill.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	unlink(path);
	if (len && write(fd, data, len) != (ssize_t)len) {
		close(fd);
		return -1;
	}
	return fd;
}

static void test_fill_from_file(void)
{
	char buf[16];
	int fd = temp_file("abc", 3);
	CHECK("fill", fd >= 0);
	memset(buf, 0, sizeof(buf));
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 8, fd), 0);
	CHECK_MEM("fill", buf, "abcabcab\0", 9); /* repeated, and nothing past n */
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 1, fd), 0);
	CHECK_MEM("fill", buf, "a", 1);
	close(fd);
	fd = temp_file("0123456789abcdefXYZ", 19); /* longer than the buffer: its start */
	CHECK_INT("fill", ws_stream_fill_from_file(buf, 16, fd), 0);
	CHECK_MEM("fill", buf, "0123456789abcdef", 16);
	close(fd);
	fd = temp_file("", 0);
	CHECK_INT("fill_empty", ws_stream_fill_from_file(buf, 4, fd), -1);
	close(fd);
	CHECK_INT("fill_badfd", ws_stream_fill_from_file(buf, 4, -1), -1);
}

static void test_rcvlowat(void)
{
	/* Automatic: one receive size, at most 512 KiB. */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 131072), 131072);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1024), 1024);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 524288), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 524289), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 4u << 20), 524288); /* --skip-rx-copy's 4 MiB */
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1u << 30), 524288);
	CHECK_U64("auto", ws_workload_rcvlowat(0, 1), 1);
	/* Asked for: used as given, 1 being the kernel's own default. */
	CHECK_U64("asked", ws_workload_rcvlowat(1, 131072), 1);
	CHECK_U64("asked", ws_workload_rcvlowat(3u << 20, 1024), 3u << 20);
}

struct send_arg {
	ws_stream_params p;
	ws_stream_counts c;
	ws_err err;
	int rc;
};

static void *sender(void *v)
{
	struct send_arg *a = v;
	a->rc = ws_stream_send(&a->p, &a->c, &a->err);
	return NULL;
}

/* -F with TCP_STREAM: the bytes on the connection are the file's, repeated. */
static void test_send_fills_from_file(void)
{
	uint8_t file[1000];
	for (size_t i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)(i * 13 + 5);
	int ffd = temp_file((const char *)file, sizeof(file));
	int sv[2];
	CHECK("fill fd", ffd >= 0);
	CHECK_INT("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	struct send_arg a = {.p = {.fd = sv[0], .send_size = 4096, .end = WS_END_BYTES,
				   .byte_limit = 10000, .stall_ns = 5000000000LL, .tx = WS_TX_SEND,
				   .file_fd = ffd}};
	pthread_t t;
	pthread_create(&t, NULL, sender, &a);
	uint8_t got[10000];
	size_t n = 0;
	while (n < sizeof(got)) {
		ssize_t r = recv(sv[1], got + n, sizeof(got) - n, 0);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(sv[1]); /* the sender's drain sees EOF */
	pthread_join(t, NULL);
	CHECK_U64("bytes", n, 10000);
	/* Each 4096-byte send is the file from its start, repeated: offset i of a send is
	 * file[i % 1000]. */
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += got[i] != file[(i % 4096) % sizeof(file)];
	CHECK_U64("bytes not from the file", bad, 0);
	CHECK_INT("sender rc", a.rc, 0);
	CHECK_U64("sent", a.c.bytes_sent, 10000);
	close(sv[0]);
	close(ffd);
}

/* The daemon's buffer cost of a request, before anything is allocated, with exact values. */
static void test_cost(void)
{
	ws_test_spec s;
	ws_test_spec_init(&s);
	ws_side_result setup;
	memset(&setup, 0, sizeof(setup));
	setup.sndbuf_set = 16384;
	setup.rcvbuf_set = 131072;
	ws_workload_cost c;
	char text[256];
	/* the request: 4 streams on 4 daemon threads, -M 1G */
	s.streams = 4;
	s.local_threads = 1;
	s.remote_threads = 4;
	s.recv_size = 1u << 30;
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("4x1G bytes", c.bytes, 4ull << 30);
	CHECK_INT("4x1G buffers", c.buffers, 4);
	ws_workload_cost_describe(&s, &c, text, sizeof(text));
	CHECK_STR("4x1G text", text,
		  "TCP_STREAM with 4 flows on 4 threads needs 4 GiB of buffers (4 receive buffers of 1 GiB)");
	/* a worker's flows share its buffer: 8 flows on 2 threads are 2 buffers */
	s.streams = 8;
	s.remote_threads = 2;
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("8 on 2", c.bytes, 2ull << 30);
	/* the client's side of the same request sends: one 16 KiB buffer on its one thread */
	ws_workload_cost_of(&s, true, &setup, &c);
	CHECK_U64("client", c.bytes, 16384);
	CHECK("client sends", !c.receive);
	/* one stream, no -M: the receive buffer's size, as netperf; --skip-rx-copy: 4 MiB */
	ws_test_spec_init(&s);
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("default", c.bytes, 131072);
	s.skip_rx_copy = true;
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("skip rx copy", c.bytes, 4u << 20);
	/* TCP_MAERTS: the daemon sends -m bytes per call */
	ws_test_spec_init(&s);
	s.type = WS_TEST_TCP_MAERTS;
	s.send_size = 1u << 20;
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("maerts", c.bytes, 1u << 20);
	ws_workload_cost_describe(&s, &c, text, sizeof(text));
	CHECK_STR("maerts text", text,
		  "TCP_MAERTS with 1 flow on 1 thread needs 1 MiB of buffers (1 send buffer of 1 MiB)");
	/* UDP: a thread and a batch of receive buffers per flow (32 of 65507 bytes) */
	ws_test_spec_init(&s);
	s.type = WS_TEST_UDP_STREAM;
	s.streams = s.local_threads = s.remote_threads = 3;
	ws_workload_cost_of(&s, false, &setup, &c);
	CHECK_U64("udp each", c.each, 32u * 65507u);
	CHECK_U64("udp", c.bytes, 3u * 32u * 65507u);
}

struct writer_arg {
	int fd;
	int64_t gap_ns, until_ns;
};

/* Writes 1 byte every gap_ns until until_ns: a trickling sender. */
static void *trickler(void *arg)
{
	struct writer_arg *w = arg;
	while (ws_clock_ns() < w->until_ns) {
		if (send(w->fd, "x", 1, MSG_NOSIGNAL) < 0)
			break;
		ws_clock_sleep_ns(w->gap_ns);
	}
	return NULL;
}

/* A receiver ends at its cap, and a timed one at its duration + the end-of-test stall
 * limit, however its sender trickles (the old receiver waited as long as bytes came). */
static void test_receiver_limits(void)
{
	for (int capped = 1; capped >= 0; capped--) {
		int sv[2];
		CHECK_INT("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
		ws_sock_set_timeouts(sv[0], 100 * WS_NS_PER_MS, NULL);
		int64_t t0 = ws_clock_ns();
		struct writer_arg w = {sv[1], 100 * WS_NS_PER_MS, t0 + 6 * WS_NS_PER_SEC};
		pthread_t t;
		pthread_create(&t, NULL, trickler, &w);
		ws_stream_params p = {.fd = sv[0], .recv_size = 4096, .end = WS_END_TIME,
				      .duration_ns = 200 * WS_NS_PER_MS, .stall_ns = 10 * WS_NS_PER_SEC,
				      .rx = WS_RX_RECV, .cap_ns = capped ? t0 + 300 * WS_NS_PER_MS : 0};
		ws_stream_counts c;
		ws_err err;
		int rc = ws_stream_recv(&p, &c, &err);
		int64_t took = ws_clock_ns() - t0;
		close(sv[0]); /* the trickler's next send fails */
		pthread_join(t, NULL);
		close(sv[1]);
		if (capped) {
			CHECK_INT("capped rc", rc, -WS_E_LIMIT);
			CHECK("capped message", strstr(err.msg, "stopped by the time cap after") != NULL);
			CHECK("capped in time", took < 600 * WS_NS_PER_MS);
		} else {
			CHECK_INT("overrun rc", rc, -WS_E_TIMEDOUT);
			CHECK("overrun message", strstr(err.msg, "after the test's end (the end-of-test stall limit)") != NULL);
			CHECK("overrun in time", took >= 3200 * WS_NS_PER_MS && took < 4500 * WS_NS_PER_MS);
		}
	}
}

/* The sender's hook before its half-close (run.c reads MPTCP's subflows there): once per
 * flow, with the connection still established, on each engine that sends a stream. */
#define HOOK_FLOWS 2
struct hook_log {
	int fd[HOOK_FLOWS];
	int calls[HOOK_FLOWS];
	int established[HOOK_FLOWS]; /* calls that found the connection still ESTABLISHED */
	int unreadable;              /* calls where TCP_INFO could not be read (qemu-user) */
};

static void hook_seen(void *arg, int fd)
{
	struct hook_log *h = arg;
	for (int i = 0; i < HOOK_FLOWS; i++) {
		if (h->fd[i] != fd)
			continue;
		struct tcp_info ti;
		socklen_t len = sizeof(ti);
		memset(&ti, 0, sizeof(ti));
		h->calls[i]++;
		/* qemu-user passes TCP_INFO as one int: too short to hold tcpi_state's place */
		if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0 || len < 8)
			h->unreadable++;
		else if (ti.tcpi_state == TCP_ESTABLISHED)
			h->established[i]++;
	}
}

/* The sending engines these tests drive, in order; io_uring only where the probe
 * passes (otherwise the count is 2 and why says so). */
static const char *const engine_names[] = {"blocking", "epoll", "io_uring"};

static int engines_here(char *why, size_t n) { return ws_uring_probe(why, n) == 0 ? 3 : 2; }

/* Sends io's stream over flows fds[0..n) with engine e (0: ws_stream_send on fds[0], 1:
 * ws_multi_run on one thread, 2: ws_stream_uring_run with one flow's result shape). */
static int send_with(int e, ws_stream_params io, int *fds, uint32_t n, ws_err *err)
{
	if (e == 0) {
		ws_stream_counts c;
		io.fd = fds[0];
		return ws_stream_send(&io, &c, err);
	}
	ws_side_result res;
	memset(&res, 0, sizeof(res));
	io.fd = -1;
	ws_multi_params p = {.fds = fds, .nflows = n, .nthreads = 1, .sender = true, .io = io};
	int rc = e == 1 ? ws_multi_run(&p, &res, err) : ws_stream_uring_run(&p, false, &res, err);
	ws_side_result_free(&res);
	return rc;
}

/* A reader: one connection to EOF, then closed (the sender's drain ends); with gap_ns, 4 KiB
 * per gap, so that a sender's buffer keeps draining and refilling. */
struct reader {
	int fd;
	int64_t gap_ns;
};

static void *reader_main(void *v)
{
	struct reader *r = v;
	char buf[65536];
	size_t n = r->gap_ns ? 4096 : sizeof(buf);
	while (recv(r->fd, buf, n, 0) > 0)
		if (r->gap_ns)
			ws_clock_sleep_ns(r->gap_ns);
	close(r->fd);
	return NULL;
}

static void test_before_half_close(void)
{
	char why[256];
	int engines = engines_here(why, sizeof(why));
	if (engines < 3)
		printf("  (io_uring engine not checked: %s)\n", why);
	for (int e = 0; e < engines; e++) {
		const char *name = engine_names[e];
		uint32_t n = e == 1 ? HOOK_FLOWS : 1; /* epoll: two flows on one thread */
		int c[HOOK_FLOWS], s[HOOK_FLOWS];
		CHECK_INT("pairs", tcp_pairs(n, c, s), 0);
		pthread_t th[HOOK_FLOWS];
		struct reader r[HOOK_FLOWS];
		for (uint32_t i = 0; i < n; i++) {
			r[i] = (struct reader){.fd = s[i]};
			pthread_create(&th[i], NULL, reader_main, &r[i]);
		}
		struct hook_log h = {.fd = {c[0], n > 1 ? c[1] : -1}};
		ws_stream_params io = {.send_size = 4096, .end = WS_END_BYTES,
				       .byte_limit = 1u << 20, .stall_ns = 5 * WS_NS_PER_SEC,
				       .tx = WS_TX_SEND, .file_fd = -1, .rx = WS_RX_RECV,
				       .before_half_close = hook_seen, .before_half_close_arg = &h};
		ws_err err;
		int rc = send_with(e, io, c, n, &err);
		for (uint32_t i = 0; i < n; i++) {
			pthread_join(th[i], NULL);
			close(c[i]);
		}
		WS_T_REPORT(rc == 0, name, "rc %d (%s)", rc, rc ? err.msg : "");
		if (h.unreadable)
			printf("  (%s: the state at the hook not checked: TCP_INFO unreadable here)\n",
			       name);
		for (uint32_t i = 0; i < n; i++) {
			WS_T_REPORT(h.calls[i] == 1, name, "flow %u: %d calls, want 1", i,
				    h.calls[i]);
			WS_T_REPORT(h.unreadable || h.established[i] == 1, name,
				    "flow %u: %d calls on an established connection, want 1", i,
				    h.established[i]);
		}
	}
}

struct fill_arg {
	int engine; /* engine_names' index */
	int fd;
	int rc;
};

static void *fill_sender(void *v)
{
	struct fill_arg *a = v;
	ws_stream_params io = {.send_size = 1024, .end = WS_END_TIME,
			       .duration_ns = 500 * WS_NS_PER_MS, .stall_ns = 5 * WS_NS_PER_SEC,
			       .tx = WS_TX_SEND, .file_fd = -1, .rx = WS_RX_RECV};
	ws_err err;
	a->rc = send_with(a->engine, io, &a->fd, 1, &err);
	return NULL;
}

/* Every sending engine fills its buffer as a blocking sender does (netperf, the
 * one-flow engine). The kernel reports EPOLLOUT only below 2/3 of the buffer, and the epoll
 * engine used to wait for it after each turn of CALLS_PER_WAKE sends that left room: with
 * 1 KiB sends the buffer then never rose past about 73% (RRUL's flows kept 3.15 MB of
 * their 4 MB in flight and never filled gige-bloat's queue, where netperf's did). */
static void test_senders_fill_sndbuf(void)
{
	char why[256];
	int engines = engines_here(why, sizeof(why));
	for (int e = 0; e < engines; e++) {
		const char *name = engine_names[e];
		int c, s, sz = 131072;
		CHECK_INT("pair", tcp_pairs(1, &c, &s), 0);
		setsockopt(c, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz)); /* the kernel doubles it */
		pthread_t rt, st;
		struct fill_arg a = {.engine = e, .fd = c};
		struct reader r = {.fd = s, .gap_ns = 100 * WS_NS_PER_US}; /* about 40 MB/s */
		pthread_create(&rt, NULL, reader_main, &r);
		pthread_create(&st, NULL, fill_sender, &a);
		double most = 0;
		bool readable = true;
		for (int k = 0; k < 150 && readable; k++) {
			ws_clock_sleep_ns(2 * WS_NS_PER_MS);
			uint32_t mi[SK_MEMINFO_VARS];
			socklen_t len = sizeof(mi);
			readable = getsockopt(c, SOL_SOCKET, SO_MEMINFO, mi, &len) == 0 &&
				   len > SK_MEMINFO_WMEM_QUEUED * sizeof(uint32_t);
			double fill = readable ? (double)mi[SK_MEMINFO_WMEM_QUEUED] /
							 mi[SK_MEMINFO_SNDBUF]
					       : 0;
			if (fill > most)
				most = fill;
		}
		pthread_join(st, NULL);
		pthread_join(rt, NULL);
		close(c);
		WS_T_REPORT(a.rc == 0, name, "rc %d", a.rc);
		if (!readable) {
			printf("  (%s: SO_MEMINFO unreadable here; the fill not checked)\n", name);
			continue;
		}
		WS_T_REPORT(most >= 0.9, name,
			    "the send buffer held at most %.0f%% of its size (want >= 90%%)",
			    100 * most);
	}
}

int main(void)
{
	RUN(test_cost);
	RUN(test_receiver_limits);
	RUN(test_rcvlowat);
	RUN(test_fill_from_file);
	RUN(test_send_fills_from_file);
	RUN(test_before_half_close);
	RUN(test_senders_fill_sndbuf);
	TEST_MAIN_END();
}
