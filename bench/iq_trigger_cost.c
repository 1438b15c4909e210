/* SPDX-License-Identifier: BSD-2-Clause */
/* iq_trigger_cost: whether a node's trigger costs what changed or everything ever written
 * (issue 17 item 1c), measured the way a WARPLab user meets it.
 *
 * It runs the node emulator in a thread of its own on 127.0.0.1 (reply cap off: this
 * measures the node, not the cap; said on stderr), or uses a running node with --port P,
 * and times round trips of 2^15 samples on RF_A (Write IQ, trigger, Read IQ, compared bit
 * for bit) before and after one 2^24-sample write: the median of each as Mb/s of the round
 * trip (2^15 x 32 bits / its time), and for the in-process node its thread's CPU time per
 * round trip, which other load on the machine does not blur. At 5a0d583 every trigger
 * after the big write copied 64 MiB per interface and the round trip fell to about 1% of
 * its speed; a node whose trigger is O(chunks) keeps it.
 * Usage: iq_trigger_cost [--port P] [--rounds N] (21 rounds). Exit 1 when a round trip
 * failed or read stale data. */
#include "warpspeed/iq.h"

#include "iq/node/node.h"
#include "util/clock.h"
#include "util/err.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RT_SAMPLES  (1u << 15)
#define BIG_SAMPLES (1u << 24)
#define MAX_ROUNDS  101

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static clockid_t node_cpu; /* the in-process node's thread CPU clock, or none */
static int have_node_cpu;

static double cpu_us(void)
{
	struct timespec t;
	if (!have_node_cpu || clock_gettime(node_cpu, &t) < 0)
		return 0;
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static void *node_main(void *arg)
{
	ws_node_run(arg, NULL);
	return NULL;
}

/* Median Mb/s of k round trips, *cpu the node's median CPU us per round trip; -1 on a
 * failure or stale data (printed). */
static double round_trips(ws_iq_node *n, int k, double *cpu)
{
	double cu[MAX_ROUNDS];
	static uint32_t x[RT_SAMPLES], y[RT_SAMPLES];
	double v[MAX_ROUNDS];
	ws_iq_error e;
	void *dst[1] = {y};
	for (int r = 0; r < k; r++) {
		for (uint32_t i = 0; i < RT_SAMPLES; i++)
			x[i] = (uint32_t)r << 24 ^ i * 2654435761u;
		int64_t t0 = ws_clock_ns();
		double c0 = cpu_us();
		if (ws_iq_write(n, 1, 0, RT_SAMPLES, WS_IQ_FMT_BE32, x, &e) < 0 ||
		    ws_iq_trigger(n, 1, &e) < 0 ||
		    ws_iq_read(n, 1, 0, RT_SAMPLES, WS_IQ_FMT_BE32, dst, &e) < 0) {
			fprintf(stderr, "iq_trigger_cost: round trip %d: %s\n", r, e.msg);
			return -1;
		}
		v[r] = RT_SAMPLES * 32.0 / (double)(ws_clock_ns() - t0) * 1e3;
		cu[r] = cpu_us() - c0;
		if (memcmp(x, y, sizeof x) != 0) {
			fprintf(stderr, "iq_trigger_cost: round trip %d read stale data\n", r);
			return -1;
		}
	}
	qsort(v, (size_t)k, sizeof v[0], cmp_double);
	qsort(cu, (size_t)k, sizeof cu[0], cmp_double);
	*cpu = cu[k / 2];
	return v[k / 2];
}

int main(int argc, char **argv)
{
	int rounds = 21, port = 0;
	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && strcmp(argv[i], "--port") == 0)
			port = atoi(argv[++i]);
		else if (i + 1 < argc && strcmp(argv[i], "--rounds") == 0)
			rounds = atoi(argv[++i]);
		else
			port = -1;
	}
	if (port < 0 || port > 65535 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "usage: iq_trigger_cost [--port P (1..65535)] [--rounds 1..%d]\n",
			MAX_ROUNDS);
		return 2;
	}
	ws_node *node = NULL;
	pthread_t tid;
	if (!port) {
		ws_node_config nc;
		ws_node_config_default(&nc);
		nc.bind_addr = "127.0.0.1";
		nc.port = 0;
		nc.bcast_port = -1;
		nc.reply_rate_bps = 0;
		ws_err err;
		if (ws_node_create(&nc, &node, &err) < 0) {
			fprintf(stderr, "iq_trigger_cost: %s\n", err.msg);
			return 1;
		}
		ws_node_info in;
		ws_node_get_info(node, &in);
		port = in.port;
		pthread_create(&tid, NULL, node_main, node);
		have_node_cpu = pthread_getcpuclockid(tid, &node_cpu) == 0;
		fprintf(stderr, "iq_trigger_cost: in-process node on 127.0.0.1:%d, reply cap off\n",
			port);
	}
	ws_iq_config c;
	ws_iq_config_default(&c);
	c.addr = "127.0.0.1";
	c.port = port;
	ws_iq_node *n;
	ws_iq_error e;
	int rc = 1;
	double cb = 0, ca = 0, before = -1, after = -1, wms = 0;
	if (ws_iq_open(&c, &n, &e) < 0) {
		fprintf(stderr, "iq_trigger_cost: %s\n", e.msg);
		goto out;
	}
	before = round_trips(n, rounds, &cb);
	uint32_t *big = calloc(BIG_SAMPLES, 4);
	int64_t t0 = ws_clock_ns();
	int w = big ? ws_iq_write(n, 1, 0, BIG_SAMPLES, WS_IQ_FMT_BE32, big, &e) : -1;
	wms = (double)(ws_clock_ns() - t0) / 1e6;
	free(big);
	if (w == 0)
		after = round_trips(n, rounds, &ca);
	ws_iq_close(n);
	if (before < 0 || after < 0 || w < 0)
		goto out;
	printf("2^15 round trip (write, trigger, read), median of %d: %.0f Mb/s before, %.0f Mb/s "
	       "after one 2^24 write (%.1f ms)",
	       rounds, before, after, wms);
	if (have_node_cpu)
		printf("; node CPU per round trip %.1f us before, %.1f us after", cb, ca);
	printf("\n");
	rc = 0;
out:
	if (node) {
		ws_node_stop(node);
		pthread_join(tid, NULL);
		ws_node_destroy(node);
	}
	return rc;
}
