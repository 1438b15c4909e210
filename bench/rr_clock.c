/* SPDX-License-Identifier: BSD-2-Clause */
/* rr_clock: what the RR engine's clock reads cost, against what one transaction costs.
 *
 * Issue 14 asks that the latency engine's timing (one monotonic clock read per send and
 * per receive, and one histogram record per round trip) cost under 2% of trans/s. This
 * measures it two ways, on the machine at hand:
 *  - the estimate: the cost of one ws_clock_ns() and of one ws_hist_record in tight loops,
 *    and the time of one TCP_RR transaction (a blocking 1-byte ping-pong between two
 *    threads over loopback TCP, as ws_rr_run does it), then (2 clock reads + 1 record) /
 *    transaction time as a percentage;
 *  - the measurement: the same ping-pong with and without the clock reads and the record,
 *    alternating in chunks of 1000 transactions, per round the time per transaction of
 *    each, and over rounds the medians of both and their difference. On a shared machine
 *    the run-to-run noise is usually larger than the effect, so the estimate is the
 *    verdict and the measured difference its sanity check.
 *
 *   build/bench/rr_clock [-n TRANSACTIONS] [-r ROUNDS]     (defaults 200000 and 5)
 * Prints four lines starting "rr_clock:"; exits 0 (1 on a socket error, 2 on bad usage). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "measure/hist.h"
#include "util/clock.h"

enum { MAX_ROUNDS = 101, CLOCK_CALLS = 10000000, CHUNK = 1000 };

static void die(const char *what)
{
	fprintf(stderr, "rr_clock: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The responder: echo each byte until EOF, as the daemon's TCP_RR engine does. */
static void *responder(void *arg)
{
	int fd = *(int *)arg;
	char b;
	for (;;) {
		ssize_t n = recv(fd, &b, 1, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || send(fd, &b, 1, 0) != 1)
			break;
	}
	return NULL;
}

/* A connected loopback TCP pair with TCP_NODELAY (a 1-byte ping-pong never waits for
 * Nagle anyway; this just rules it out). */
static void tcp_pair(int fd[2])
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof a;
	int one = 1, l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &len) < 0)
		die("loopback listener");
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[0], (struct sockaddr *)&a, sizeof a) < 0)
		die("connect to loopback");
	fd[1] = accept(l, NULL, NULL);
	if (fd[1] < 0)
		die("accept");
	close(l);
	for (int i = 0; i < 2; i++)
		if (setsockopt(fd[i], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) < 0)
			die("TCP_NODELAY");
}

static void xfer(int fd, char *b)
{
	if (send(fd, b, 1, 0) != 1)
		die("send");
	for (;;) {
		ssize_t n = recv(fd, b, 1, 0);
		if (n == 1)
			return;
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = ECONNRESET;
		die("recv");
	}
}

/* n transactions; with h, timed as the RR engine times them: a clock read before the
 * send, one after the response, the difference into h. Returns the ns it took. */
static int64_t pingpong(int fd, long n, ws_hist *h)
{
	char b = 'x';
	int64_t t0 = ws_clock_ns();
	if (h) {
		for (long i = 0; i < n; i++) {
			int64_t s = ws_clock_ns();
			xfer(fd, &b);
			ws_hist_record(h, (uint64_t)(ws_clock_ns() - s));
		}
	} else {
		for (long i = 0; i < n; i++)
			xfer(fd, &b);
	}
	return ws_clock_ns() - t0;
}

/* One round: n transactions each way, in alternating chunks of CHUNK (which goes first
 * alternates too), so that drift of a shared machine and the scheduler's moves hit both
 * variants alike. Sets the ns per transaction of each. */
static void round_pair(int fd, long n, ws_hist *h, double *with, double *without)
{
	int64_t tw = 0, to = 0;
	long k = 0;
	for (long done = 0; done < n; done += CHUNK, k++) {
		long c = n - done < CHUNK ? n - done : CHUNK;
		if (k % 2) {
			tw += pingpong(fd, c, h);
			to += pingpong(fd, c, NULL);
		} else {
			to += pingpong(fd, c, NULL);
			tw += pingpong(fd, c, h);
		}
	}
	*with = (double)tw / (double)n;
	*without = (double)to / (double)n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static long arg_long(const char *opt, const char *s, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "rr_clock: %s '%s': expected an integer from %ld to %ld\n", opt, s,
			lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long n = 200000, rounds = 5;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "-n") == 0)
			n = arg_long("-n", argv[++i], 1000, 100000000);
		else if (i + 1 < argc && strcmp(argv[i], "-r") == 0)
			rounds = arg_long("-r", argv[++i], 1, MAX_ROUNDS);
		else {
			fprintf(stderr,
				"usage: rr_clock [-n TRANSACTIONS (1000..10^8)] [-r ROUNDS "
				"(1..%d)]\n",
				MAX_ROUNDS);
			return 2;
		}
	}
	ws_hist *h = malloc(sizeof *h);
	if (!h)
		die("malloc");
	ws_hist_init(h);

	/* One clock read, and one record of values like round trips (16..33 us). */
	uint64_t sink = 0; /* wraps by design: it only keeps the loops from being optimised away */
	int64_t t0 = ws_clock_ns();
	for (int i = 0; i < CLOCK_CALLS; i++)
		sink += (uint64_t)ws_clock_ns();
	double clock_ns = (double)(ws_clock_ns() - t0) / CLOCK_CALLS;
	uint64_t x = 88172645463325252ull;
	t0 = ws_clock_ns();
	for (int i = 0; i < CLOCK_CALLS; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		ws_hist_record(h, 16384 + (x >> 50));
	}
	double rec_rng = (double)(ws_clock_ns() - t0) / CLOCK_CALLS;
	t0 = ws_clock_ns();
	for (int i = 0; i < CLOCK_CALLS; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		sink += 16384 + (x >> 50);
	}
	double rng = (double)(ws_clock_ns() - t0) / CLOCK_CALLS;
	double record_ns = rec_rng > rng ? rec_rng - rng : 0;
	printf("rr_clock: one ws_clock_ns %.2f ns, one ws_hist_record %.2f ns (%d calls each)%s\n",
	       clock_ns, record_ns, CLOCK_CALLS, sink == 1 ? " " : "");

	int fd[2];
	pthread_t th;
	tcp_pair(fd);
	if ((errno = pthread_create(&th, NULL, responder, &fd[1])) != 0)
		die("pthread_create");
	(void)pingpong(fd[0], n / 10 + 1, NULL); /* warm up: caches, the scheduler's placement */
	double with[MAX_ROUNDS], without[MAX_ROUNDS];
	ws_hist_init(h);
	for (long r = 0; r < rounds; r++)
		round_pair(fd[0], n, h, &with[r], &without[r]);
	shutdown(fd[0], SHUT_WR);
	pthread_join(th, NULL);
	close(fd[0]);
	close(fd[1]);

	double wo = median(without, (int)rounds), wi = median(with, (int)rounds);
	double est = 100 * (2 * clock_ns + record_ns) / wo;
	printf("rr_clock: TCP_RR 1-byte ping-pong over loopback TCP, %ld transactions x %ld rounds "
	       "each way, "
	       "alternating by %d: without timing median %.3f us/tr (%.0f tr/s), with 2 clock "
	       "reads + 1 record "
	       "median %.3f us/tr (%.0f tr/s); histogram p50 %.3f us, %llu samples\n",
	       n, rounds, CHUNK, wo / 1e3, 1e9 / wo, wi / 1e3, 1e9 / wi,
	       (double)ws_hist_percentile(h, 50) / 1e3, (unsigned long long)ws_hist_count(h));
	printf("rr_clock: estimated cost (2 x %.2f + %.2f ns) / %.3f us = %.3f%% of a transaction "
	       "(goal < 2%%): %s\n",
	       clock_ns, record_ns, wo / 1e3, est, est < 2 ? "PASS" : "MISS");
	printf("rr_clock: measured difference with - without = %+.3f%% of the untimed transaction "
	       "time "
	       "(medians; noise on a shared machine can exceed the effect)\n",
	       100 * (wi - wo) / wo);
	free(h);
	return 0;
}
