/* SPDX-License-Identifier: BSD-2-Clause */
/* test_udp_stream: the UDP_STREAM receiver's accounting fed crafted datagram sequences
 * (in order, loss, reordering, duplicates, wrong tag, truncation, a lost END marker, the
 * edge of the bitmap window) with exact expected counts, the header's byte layout, the
 * message-size rule, and both roles end to end over a reliable AF_UNIX datagram pair and
 * over loopback UDP (batched, plain, and GSO+GRO). */
#include "harness.h"

#include "model/result.h"
#include "net/uring.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/threadsched.h"
#include "workload/udp_stream.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#define TAG 0xC0FFEE01u
#define LEN 100

static uint8_t dgram[LEN];

/* Feed one datagram of kind with seq (LEN bytes) and return what feed returned. */
static int feed(ws_udp_acct *a, uint8_t kind, uint64_t seq, uint32_t tag)
{
	ws_udp_hdr h = {seq, tag, kind};
	memset(dgram, 0xAB, sizeof(dgram));
	ws_udp_hdr_encode(dgram, &h);
	return ws_udp_acct_feed(a, dgram, LEN);
}

static void feed_seqs(ws_udp_acct *a, const uint64_t *seqs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		feed(a, WS_UDP_DATA, seqs[i], TAG);
}

#define COUNTS(name, a, uniq, lost, reord, dupl, badc)                                   \
	do {                                                                              \
		CHECK_U64(name " unique", (a)->unique, uniq);                             \
		CHECK_U64(name " lost", ws_udp_acct_lost(a), lost);                      \
		CHECK_U64(name " reordered", (a)->reordered, reord);                      \
		CHECK_U64(name " dup", (a)->dup, dupl);                                   \
		CHECK_U64(name " bad", (a)->bad, badc);                                   \
	} while (0)

static void test_header_layout(void)
{
	uint8_t b[WS_UDP_HDR_LEN];
	ws_udp_hdr h = {0x0102030405060708ULL, 0xA1B2C3D4u, WS_UDP_END}, g;
	ws_udp_hdr_encode(b, &h);
	const uint8_t want[14] = {1, 2, 3, 4, 5, 6, 7, 8, 0xA1, 0xB2, 0xC3, 0xD4, WS_UDP_END, 1};
	CHECK_MEM("big-endian seq, tag, kind, version", b, want, sizeof(want));
	CHECK_INT("decodes", ws_udp_hdr_decode(b, sizeof(b), 0xA1B2C3D4u, &g), 0);
	CHECK_U64("seq", g.seq, 0x0102030405060708ULL);
	CHECK_INT("kind", g.kind, WS_UDP_END);
	CHECK_INT("wrong tag", ws_udp_hdr_decode(b, sizeof(b), 0xA1B2C3D5u, &g), -1);
	CHECK_INT("short", ws_udp_hdr_decode(b, WS_UDP_HDR_LEN - 1, 0xA1B2C3D4u, &g), -1);
	b[3] ^= 0x10; /* one flipped bit in the sequence number */
	CHECK_INT("check", ws_udp_hdr_decode(b, sizeof(b), 0xA1B2C3D4u, &g), -1);
	b[3] ^= 0x10;
	b[12] = 9; /* an unknown kind */
	CHECK_INT("kind", ws_udp_hdr_decode(b, sizeof(b), 0xA1B2C3D4u, &g), -1);
	/* The tag is the same on both ends and differs with either port. */
	CHECK("tag symmetric input", ws_udp_tag(4000, 5000) == ws_udp_tag(4000, 5000));
	CHECK("tag port order", ws_udp_tag(4000, 5000) != ws_udp_tag(5000, 4000));
	CHECK("tag port", ws_udp_tag(4000, 5000) != ws_udp_tag(4001, 5000));
}

static void test_in_order(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	for (uint64_t s = 0; s < 10; s++)
		CHECK_INT("data kind", feed(&a, WS_UDP_DATA, s, TAG), WS_UDP_DATA);
	CHECK_INT("end kind", feed(&a, WS_UDP_END, 10, TAG), WS_UDP_END);
	COUNTS("in order", &a, 10, 0, 0, 0, 0);
	CHECK_U64("bytes", a.bytes, 10 * LEN);
	CHECK("end seen", a.end_seen);
	CHECK_U64("end total", a.end_total, 10);
	CHECK_U64("head", a.head, 10);
}

static void test_loss(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	const uint64_t s[] = {0, 1, 2, 5, 6};
	feed_seqs(&a, s, 5);
	/* Without END: the gap 3-4 is lost; what the sender sent after 6 is unknown. */
	COUNTS("gap", &a, 5, 2, 0, 0, 0);
	/* END says 10 were sent: 7, 8 and 9 are lost too. */
	feed(&a, WS_UDP_END, 10, TAG);
	COUNTS("gap + tail", &a, 5, 5, 0, 0, 0);
	CHECK_U64("bytes", a.bytes, 5 * LEN);
	/* Everything lost: 100%, never more. */
	ws_udp_acct_init(&a, TAG);
	feed(&a, WS_UDP_END, 1000, TAG);
	COUNTS("all lost", &a, 0, 1000, 0, 0, 0);
	/* An END that claims fewer than arrived never makes loss negative. */
	ws_udp_acct_init(&a, TAG);
	feed_seqs(&a, s, 5);
	feed(&a, WS_UDP_END, 3, TAG);
	COUNTS("end below", &a, 5, 0, 0, 0, 0);
}

static void test_reorder_and_dup(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	const uint64_t s[] = {0, 2, 1, 3, 5, 4, 6};
	feed_seqs(&a, s, 7);
	COUNTS("reordered", &a, 7, 0, 2, 0, 0);
	ws_udp_acct_init(&a, TAG);
	const uint64_t d[] = {0, 1, 1, 2, 0, 2, 2};
	feed_seqs(&a, d, 7);
	COUNTS("duplicates", &a, 3, 0, 0, 4, 0);
	CHECK_U64("dup bytes not counted", a.bytes, 3 * LEN);
	/* A late datagram fills its gap (no longer lost); its copy is then a duplicate. */
	ws_udp_acct_init(&a, TAG);
	const uint64_t m[] = {0, 1, 3, 4, 2, 2};
	feed_seqs(&a, m, 6);
	feed(&a, WS_UDP_END, 5, TAG);
	COUNTS("late then dup", &a, 5, 0, 1, 1, 0);
}

static void test_bad(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	feed(&a, WS_UDP_DATA, 0, TAG);
	CHECK_INT("wrong tag", feed(&a, WS_UDP_DATA, 1, TAG + 1), -1);
	/* A valid header cut short (a truncated datagram) and a zero-length one. */
	ws_udp_hdr h = {1, TAG, WS_UDP_DATA};
	uint8_t b[LEN];
	ws_udp_hdr_encode(b, &h);
	CHECK_INT("truncated", ws_udp_acct_feed(&a, b, WS_UDP_HDR_LEN - 2), -1);
	CHECK_INT("empty", ws_udp_acct_feed(&a, b, 0), -1);
	/* Not ours at all: random bytes. */
	uint8_t junk[40];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	CHECK_INT("junk", ws_udp_acct_feed(&a, junk, sizeof(junk)), -1);
	/* An END with the wrong tag must not end the test. */
	CHECK_INT("foreign end", feed(&a, WS_UDP_END, 99, TAG ^ 0x100), -1);
	CHECK("no end", !a.end_seen);
	feed(&a, WS_UDP_DATA, 1, TAG);
	COUNTS("bad", &a, 2, 0, 0, 0, 5);
	/* Reports meant for the sender are ours but not data: neither counted nor bad. */
	CHECK_INT("ack kind", feed(&a, WS_UDP_ACK, 7, TAG), WS_UDP_ACK);
	COUNTS("ack ignored", &a, 2, 0, 0, 0, 5);
}

static void test_end_lost(void)
{
	/* The END marker never arrives: loss is what the highest number shows. */
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	const uint64_t s[] = {0, 1, 2, 3, 7, 8, 9};
	feed_seqs(&a, s, 7);
	CHECK("no end", !a.end_seen);
	COUNTS("end lost", &a, 7, 3, 0, 0, 0);
	/* Several END markers (the sender repeats them): the first one counts, no change. */
	feed(&a, WS_UDP_END, 12, TAG);
	feed(&a, WS_UDP_END, 12, TAG);
	COUNTS("repeated end", &a, 7, 5, 0, 0, 0);
}

static void test_window_edge(void)
{
	ws_udp_acct a;
	ws_udp_acct_init(&a, TAG);
	/* 0 .. W+5 except 100, then 100 late (still inside the window), then 100 again. */
	for (uint64_t s = 0; s < WS_UDP_WINDOW + 6; s++)
		if (s != 100)
			feed(&a, WS_UDP_DATA, s, TAG);
	COUNTS("gap at 100", &a, WS_UDP_WINDOW + 5, 1, 0, 0, 0);
	feed(&a, WS_UDP_DATA, 100, TAG);
	COUNTS("late inside window", &a, WS_UDP_WINDOW + 6, 0, 1, 0, 0);
	feed(&a, WS_UDP_DATA, 100, TAG);
	COUNTS("dup inside window", &a, WS_UDP_WINDOW + 6, 0, 1, 1, 0);
	/* Older than the window: cannot be told from a duplicate; counted as late. */
	feed(&a, WS_UDP_DATA, 3, TAG);
	COUNTS("older than window", &a, WS_UDP_WINDOW + 7, 0, 2, 1, 0);
	/* A jump past the whole window clears it: 5 below the new head is a gap, not a dup. */
	ws_udp_acct_init(&a, TAG);
	feed(&a, WS_UDP_DATA, 0, TAG);
	feed(&a, WS_UDP_DATA, 3 * WS_UDP_WINDOW, TAG);
	feed(&a, WS_UDP_DATA, 3 * WS_UDP_WINDOW - 5, TAG);
	COUNTS("jump", &a, 3, 3 * WS_UDP_WINDOW + 1 - 3, 1, 0, 0);
}

static void test_msg_size(void)
{
	ws_test_spec s;
	ws_test_spec_init(&s);
	s.type = WS_TEST_UDP_STREAM;
	uint32_t size = 0;
	ws_err err = {0};
	CHECK_INT("default big buffer", ws_udp_msg_size(&s, 2097152, &size, &err), 0);
	CHECK_INT("capped at 65507", size, 65507);
	CHECK_INT("default small buffer", ws_udp_msg_size(&s, 8192, &size, &err), 0);
	CHECK_INT("sndbuf", size, 8192);
	s.send_size = 1472;
	CHECK_INT("-m 1472", ws_udp_msg_size(&s, 8192, &size, &err), 0);
	CHECK_INT("1472", size, 1472);
	s.send_size = 16;
	CHECK_INT("-m 16", ws_udp_msg_size(&s, 0, &size, &err), 0);
	s.send_size = 15;
	CHECK_INT("-m 15", ws_udp_msg_size(&s, 0, &size, &err), -WS_E_INVAL);
	CHECK("names value and range", strstr(err.msg, "15") && strstr(err.msg, "16 to 65507"));
	s.send_size = 65508;
	CHECK_INT("-m 65508", ws_udp_msg_size(&s, 0, &size, &err), -WS_E_INVAL);
}

/* ---- both roles end to end ---------------------------------------------------------- */

struct role_arg {
	const ws_test_spec *spec;
	bool sender;
	int fd;
	ws_side_result res;
	ws_err err;
	int rc;
	int64_t wait_ns; /* run-queue wait of the role's thread during the role; 0: unknown */
};

static void *role_thread(void *p)
{
	struct role_arg *a = p;
	ws_thread_sched before, after;
	ws_thread_sched_now(&before);
	a->rc = ws_udp_run_role(a->spec, a->sender, a->fd, -1, 0, &a->res, &a->err);
	ws_thread_sched_now(&after);
	ws_thread_sched d = ws_thread_sched_delta(&before, &after);
	a->wait_ns = d.wait_ns > 0 ? d.wait_ns : 0;
	return NULL;
}

static void run_pair(const ws_test_spec *spec, int sfd, int rfd, struct role_arg *snd,
		     struct role_arg *rcv)
{
	*snd = (struct role_arg){.spec = spec, .sender = true, .fd = sfd};
	*rcv = (struct role_arg){.spec = spec, .sender = false, .fd = rfd};
	snd->res.sndbuf_set = 212992;
	rcv->res.rcvbuf_set = 4194304;
	pthread_t rt, st;
	pthread_create(&rt, NULL, role_thread, rcv);
	pthread_create(&st, NULL, role_thread, snd);
	pthread_join(st, NULL);
	pthread_join(rt, NULL);
	WS_T_REPORT(snd->rc == 0, "sender", "rc %d: %s", snd->rc, snd->err.msg);
	WS_T_REPORT(rcv->rc == 0, "receiver", "rc %d: %s", rcv->rc, rcv->err.msg);
}

static void test_unix_pair(void)
{
	/* AF_UNIX datagrams are reliable and ordered: every count is exact. */
	int sv[2];
	CHECK_INT("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.end = WS_END_BYTES;
	spec.end_count = 1000 * 1000; /* 1000 messages of 1000 bytes */
	spec.send_size = 1000;
	spec.gso = spec.gro = true; /* refused on AF_UNIX: the fallback is recorded */
	struct role_arg s, r;
	run_pair(&spec, sv[0], sv[1], &s, &r);
	CHECK_U64("sent", s.res.dgrams_sent, 1000);
	CHECK_U64("bytes sent", s.res.bytes_sent, 1000000);
	CHECK_U64("received", r.res.dgrams_recv, 1000);
	CHECK_U64("bytes received", r.res.bytes_recv, 1000000);
	CHECK_U64("lost", r.res.dgrams_lost, 0);
	CHECK_U64("reordered", r.res.dgrams_reordered, 0);
	CHECK_U64("dup", r.res.dgrams_dup, 0);
	CHECK_U64("bad", r.res.bad_dgrams, 0);
	CHECK_INT("send size", s.res.send_size, 1000);
	CHECK_STR("sender path", s.res.io_path, "sendmmsg");
	CHECK("sender note", strstr(s.res.io_note, "UDP_SEGMENT refused") != NULL);
	CHECK_STR("receiver path", r.res.io_path, "recvmmsg");
	CHECK("receiver note", strstr(r.res.io_note, "UDP_GRO refused") != NULL);
	CHECK("sender batched", s.res.send_syscalls > 0 && s.res.send_syscalls < 1000);
	/* the calls netperf counts are the datagrams, whatever the batching */
	CHECK_U64("send calls", s.res.send_calls, 1000);
	CHECK_U64("recv calls", r.res.recv_calls, 1000);
	CHECK("receiver batched", r.res.recv_syscalls > 0 && r.res.recv_syscalls <= 1000);
	close(sv[0]);
	close(sv[1]);
}

struct fill_arg {
	const ws_test_spec *spec;
	int fd, fill_fd;
	ws_side_result res;
	ws_err err;
	int rc;
};

static void *fill_sender(void *p)
{
	struct fill_arg *a = p;
	a->rc = ws_udp_run_role(a->spec, true, a->fd, a->fill_fd, 0, &a->res, &a->err);
	return NULL;
}

/* -F: every datagram after its header carries the file's bytes at the same offsets, the
 * file repeated where it is shorter than the message. The other end reads raw datagrams
 * and then closes, which ends the sender's END phase at once (ECONNREFUSED). */
static void test_fill_file(void)
{
	char path[] = "/tmp/ws-test-udpfill.XXXXXX";
	int ffd = mkstemp(path);
	CHECK("mkstemp", ffd >= 0);
	unlink(path);
	uint8_t file[300];
	for (size_t i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)(i * 7 + 3);
	CHECK_INT("write", (int)write(ffd, file, sizeof(file)), (int)sizeof(file));
	int sv[2];
	CHECK_INT("socketpair", socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.end = WS_END_BYTES;
	spec.end_count = 20 * 1000;
	spec.send_size = 1000;
	struct fill_arg a = {.spec = &spec, .fd = sv[0], .fill_fd = ffd};
	a.res.sndbuf_set = 212992;
	pthread_t t;
	pthread_create(&t, NULL, fill_sender, &a);
	uint8_t d[2000];
	int good = 0;
	for (int k = 0; k < 20; k++) {
		ssize_t n = recv(sv[1], d, sizeof(d), 0);
		if (n != 1000)
			break;
		bool same = true;
		for (size_t i = WS_UDP_HDR_LEN; i < 1000; i++)
			same = same && d[i] == file[i % sizeof(file)];
		good += same;
	}
	close(sv[1]);
	pthread_join(t, NULL);
	CHECK_INT("datagrams carrying the file", good, 20);
	WS_T_REPORT(a.rc == 0, "fill sender", "rc %d: %s", a.rc, a.err.msg);
	CHECK_U64("fill sent", a.res.dgrams_sent, 20);
	close(sv[0]);
	close(ffd);
}

/* Two UDP sockets on 127.0.0.1 connected to each other, as the session builds them. */
static int udp_pair(int fds[2])
{
	struct sockaddr_in a[2];
	for (int i = 0; i < 2; i++) {
		fds[i] = socket(AF_INET, SOCK_DGRAM, 0);
		a[i] = (struct sockaddr_in){.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		int big = 4 << 20;
		setsockopt(fds[i], SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
		socklen_t l = sizeof(a[i]);
		if (fds[i] < 0 || bind(fds[i], (struct sockaddr *)&a[i], sizeof(a[i])) < 0 ||
		    getsockname(fds[i], (struct sockaddr *)&a[i], &l) < 0)
			return -1;
	}
	if (connect(fds[0], (struct sockaddr *)&a[1], sizeof(a[1])) < 0 ||
	    connect(fds[1], (struct sockaddr *)&a[0], sizeof(a[0])) < 0)
		return -1;
	return 0;
}

static void check_udp_run(const char *name, bool no_batch, bool gso_gro, const char *spath,
			  const char *rpath)
{
	int fds[2];
	CHECK_INT(name, udp_pair(fds), 0);
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.duration_s = 0.3;
	spec.send_size = 1472;
	spec.no_batch = no_batch;
	spec.gso = spec.gro = gso_gro;
	struct role_arg s, r;
	run_pair(&spec, fds[0], fds[1], &s, &r);
	CHECK_STR(name, s.res.io_path, spath);
	CHECK_STR(name, r.res.io_path, rpath);
	CHECK_STR(name, s.res.io_note, "");
	CHECK(name, s.res.dgrams_sent > 1000);
	/* Every datagram sent is either received or lost, and the END marker arrived. */
	CHECK_U64(name, r.res.dgrams_recv + r.res.dgrams_lost, s.res.dgrams_sent);
	CHECK(name, r.res.dgrams_recv <= s.res.dgrams_sent);
	CHECK_U64(name, r.res.bytes_recv, r.res.dgrams_recv * 1472);
	CHECK_U64(name, r.res.bad_dgrams, 0);
	/* Elapsed: about the 0.3 s asked for on both ends. The receiver's runs from its
	 * first datagram, which a loaded machine (a sanitized build at load 20) delayed by
	 * 100 ms once. A loaded host stretches either end by the time it kept the two
	 * threads runnable but off a CPU (their run-queue wait, measured during this very
	 * run; 0 on an idle host or where schedstat is unreadable), so the window widens by
	 * that and no more: a sender that ignored its 0.3 s or counted its END phase still
	 * fails. */
	int64_t wait = s.wait_ns + r.wait_ns;
	WS_T_REPORT(s.res.elapsed_ns > 250000000 && s.res.elapsed_ns < 450000000 + wait, name,
		    "sender elapsed %lld ns (threads waited %lld ns for a CPU)",
		    (long long)s.res.elapsed_ns, (long long)wait);
	WS_T_REPORT(r.res.elapsed_ns > 150000000 - wait && r.res.elapsed_ns < 450000000 + wait,
		    name, "receiver elapsed %lld ns (threads waited %lld ns for a CPU)",
		    (long long)r.res.elapsed_ns, (long long)wait);
	close(fds[0]);
	close(fds[1]);
}

static void test_loopback(void)
{
	check_udp_run("batched", false, false, "sendmmsg", "recvmmsg");
	check_udp_run("plain", true, false, "send", "recv");
	check_udp_run("gso+gro", false, true, "sendmsg+UDP_SEGMENT", "recvmmsg+UDP_GRO");
}

/* A receiver that is gone (its daemon's time cap ended the test and every END_ACK was
 * lost): a sender with a count it will never reach stops once the receiver's port has
 * refused its datagrams for a second with no report, instead of sending forever. */
static void receiver_gone(enum ws_engine engine)
{
	int fds[2];
	CHECK_INT("gone", udp_pair(fds), 0);
	close(fds[1]); /* the port now answers with ICMP port unreachable */
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.end = WS_END_BYTES;
	spec.end_count = UINT64_MAX / 2;
	spec.send_size = 1472;
	spec.engine = engine; /* io_uring: the refusals come back as the writes' completions */
	ws_side_result res;
	memset(&res, 0, sizeof(res));
	ws_err err = {0};
	int64_t t0 = ws_clock_ns();
	int rc = ws_udp_run_role(&spec, true, fds[0], -1, 0, &res, &err);
	int64_t took = ws_clock_ns() - t0;
	CHECK_INT("gone", rc, 0);
	WS_T_REPORT(took >= 1000000000 && took < 5000000000, "gone", "stopped after %lld ns", (long long)took);
	CHECK(res.io_note, strstr(res.io_note, "refused datagrams for 1 s with no report: it is gone") != NULL);
	CHECK("gone", res.send_errors > 0);
	close(fds[0]);
}

static void test_receiver_gone(void)
{
	receiver_gone(WS_ENGINE_EPOLL);
}

/* --engine io_uring: the same roles and counts over io_uring's batched writes and multishot
 * receive. AF_UNIX first (every count exact, also with flow control), then loopback UDP. */
static void test_uring_unix_pair(void)
{
	for (int fc = 0; fc < 2; fc++) {
		const char *n = fc ? "uring unix, flow control" : "uring unix";
		int sv[2];
		CHECK_INT(n, socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
		ws_test_spec spec;
		ws_test_spec_init(&spec);
		spec.type = WS_TEST_UDP_STREAM;
		spec.engine = WS_ENGINE_IO_URING;
		spec.end = WS_END_BYTES;
		spec.end_count = 3000 * 100 + 1; /* 3001 messages of 100 bytes, the last rounded up */
		spec.send_size = 100;
		spec.udp_flow_control = fc;
		struct role_arg s, r;
		run_pair(&spec, sv[0], sv[1], &s, &r);
		CHECK_U64(n, s.res.dgrams_sent, 3001);
		CHECK_U64(n, s.res.bytes_sent, 300100);
		CHECK_U64(n, r.res.dgrams_recv, 3001);
		CHECK_U64(n, r.res.bytes_recv, 300100);
		CHECK_U64(n, r.res.dgrams_lost, 0);
		CHECK_U64(n, r.res.dgrams_reordered, 0);
		CHECK_U64(n, r.res.dgrams_dup, 0);
		CHECK_U64(n, r.res.bad_dgrams, 0);
		CHECK_U64(n, s.res.send_errors, 0);
		CHECK_STR(n, s.res.io_path, "io_uring");
		CHECK_STR(n, r.res.io_path, "io_uring");
		CHECK_STR(n, s.res.io_note, "");
		/* a batch per io_uring_enter; the calls netperf counts are the datagrams */
		WS_T_REPORT(s.res.send_syscalls > 0 && s.res.send_syscalls <= 3001 / 16 + 1, n,
			    "%llu sender calls", (unsigned long long)s.res.send_syscalls);
		CHECK_U64(n, s.res.send_calls, 3001);
		CHECK_U64(n, r.res.recv_calls, 3001);
		CHECK(n, r.res.recv_syscalls > 0 && r.res.recv_syscalls <= 3001);
		close(sv[0]);
		close(sv[1]);
	}
}

/* The daemon's memory budget counts io_uring's provided buffers: a power of 2 of them (16 to
 * 1024), each a byte longer than a datagram, within 2 MiB. */
static void test_uring_buffer_bytes(void)
{
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.engine = WS_ENGINE_IO_URING;
	spec.send_size = 64;
	CHECK_U64("uring 64", ws_udp_buffer_bytes(&spec, false, 0), 1024 * 65);
	spec.send_size = 1472;
	CHECK_U64("uring 1472", ws_udp_buffer_bytes(&spec, false, 0), 1024 * 1473);
	spec.send_size = 0; /* the largest datagram */
	CHECK_U64("uring max", ws_udp_buffer_bytes(&spec, false, 0), 32 * 65508);
}

static void test_uring_loopback(void)
{
	int fds[2];
	const char *n = "uring loopback";
	CHECK_INT(n, udp_pair(fds), 0);
	ws_test_spec spec;
	ws_test_spec_init(&spec);
	spec.type = WS_TEST_UDP_STREAM;
	spec.engine = WS_ENGINE_IO_URING;
	spec.duration_s = 0.3;
	spec.send_size = 1472;
	struct role_arg s, r;
	run_pair(&spec, fds[0], fds[1], &s, &r);
	CHECK_STR(n, s.res.io_path, "io_uring");
	CHECK_STR(n, r.res.io_path, "io_uring");
	CHECK(n, s.res.dgrams_sent > 1000);
	CHECK_U64(n, r.res.dgrams_recv + r.res.dgrams_lost, s.res.dgrams_sent);
	CHECK_U64(n, r.res.bytes_recv, r.res.dgrams_recv * 1472);
	CHECK_U64(n, r.res.bad_dgrams, 0);
	WS_T_REPORT(s.res.elapsed_ns > 250000000 && s.res.elapsed_ns < 450000000, n,
		    "sender elapsed %lld ns", (long long)s.res.elapsed_ns);
	close(fds[0]);
	close(fds[1]);
	receiver_gone(WS_ENGINE_IO_URING);
}

int main(void)
{
	RUN(test_header_layout);
	RUN(test_in_order);
	RUN(test_loss);
	RUN(test_reorder_and_dup);
	RUN(test_bad);
	RUN(test_end_lost);
	RUN(test_window_edge);
	RUN(test_msg_size);
	RUN(test_unix_pair);
	RUN(test_fill_file);
	RUN(test_loopback);
	RUN(test_receiver_gone);
	char why[160];
	if (ws_uring_probe(why, sizeof(why)) == 0) {
		RUN(test_uring_buffer_bytes);
		RUN(test_uring_unix_pair);
		RUN(test_uring_loopback);
	} else {
		printf("# io_uring variants skipped: %s\n", why);
	}
	TEST_MAIN_END();
}
