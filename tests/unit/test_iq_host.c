/* Unit tests of the IQ host transport against the in-process node emulator, directly and
 * through the impairment proxy of bench/iq_proxy.c (included, run in a thread, fixed
 * seeds): open and NODE_INFO, every sample format, write -> trigger -> read bit-exact,
 * loss of 1/5/20 %, duplication, reordering, forged answers, a node that goes quiet, an
 * unreachable node, NOT_READY, bad arguments, and two handles in two threads. */
#define IQ_PROXY_NO_MAIN
#include "../../bench/iq_proxy.c"

#include "harness.h"

#include <warpspeed/iq.h>

#include "iq/host.h"
#include "iq/node.h"
#include "iq/wire.h"
#include "util/clock.h"
#include "util/err.h"

#include <pthread.h>

typedef struct bed {
	ws_node *node;
	pthread_t nt, pt;
	px *proxy;
	int node_port, port;
	ws_iq_node *h;
} bed;

static void *node_thread(void *a)
{
	ws_node_run(a, NULL);
	return NULL;
}

static void *proxy_thread(void *a)
{
	px_run(a);
	return NULL;
}

/* Starts a node (1 Mi samples per buffer unless cfg says otherwise), an optional proxy,
 * and opens a host handle through it. Returns 0 or -1. */
static int bed_up(bed *b, const ws_node_config *nc, const px_cfg *pc, ws_iq_config *hc)
{
	memset(b, 0, sizeof *b);
	ws_node_config c;
	if (nc) {
		c = *nc;
	} else {
		ws_node_config_default(&c);
		c.tx_samples = c.rx_samples = 1u << 20;
	}
	c.bind_addr = "127.0.0.1";
	c.port = 0;
	c.bcast_port = -1;
	c.sock_buf = 8 << 20;
	ws_err e;
	if (ws_node_create(&c, &b->node, &e) < 0)
		return -1;
	ws_node_info ni;
	ws_node_get_info(b->node, &ni);
	b->node_port = b->port = ni.port;
	pthread_create(&b->nt, NULL, node_thread, b->node);
	if (pc) {
		px_cfg p = *pc;
		p.node = (struct sockaddr_in){.sin_family = AF_INET, .sin_port = htons((uint16_t)ni.port),
					      .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		b->proxy = malloc(sizeof *b->proxy);
		b->port = px_open(b->proxy, &p);
		pthread_create(&b->pt, NULL, proxy_thread, b->proxy);
	}
	ws_iq_config h;
	if (hc) {
		h = *hc;
	} else {
		ws_iq_config_default(&h);
	}
	h.addr = "127.0.0.1";
	h.port = b->port;
	if (h.trigger_port < 0) /* test convention: triggers straight to the node */
		h.trigger_port = b->node_port;
	ws_iq_error er;
	if (ws_iq_open(&h, &b->h, &er) < 0) {
		printf("  open: %s\n", er.msg);
		return -1;
	}
	return 0;
}

static void bed_down(bed *b)
{
	ws_iq_close(b->h);
	if (b->proxy) {
		b->proxy->stop = 1;
		pthread_join(b->pt, NULL);
		px_close(b->proxy);
		free(b->proxy);
	}
	ws_node_stop(b->node);
	pthread_join(b->nt, NULL);
	ws_node_destroy(b->node);
}

static void fill_ci16(int16_t *x, uint32_t n, uint32_t seed)
{
	uint32_t s = seed * 2654435761u + 1;
	for (uint32_t i = 0; i < 2 * n; i++) {
		s ^= s << 13;
		s ^= s >> 17;
		s ^= s << 5;
		x[i] = (int16_t)s;
	}
}

/* Write CI16 data to mask, trigger, read every buffer of mask back; 1 when bit-exact. */
static int roundtrip(ws_iq_node *h, unsigned mask, uint32_t n, uint32_t seed, ws_iq_error *er)
{
	int16_t *x = malloc((size_t)n * 4), *y = malloc((size_t)n * 4);
	fill_ci16(x, n, seed);
	int ok = ws_iq_write(h, mask, 0, n, WS_IQ_FMT_CI16, x, er) == 0 &&
		 ws_iq_trigger(h, 1, er) >= 0;
	for (unsigned bit = 1; ok && bit <= 8; bit <<= 1) {
		if (!(mask & bit))
			continue;
		memset(y, 0x55, (size_t)n * 4);
		void *d[1] = {y};
		ok = ws_iq_read(h, bit, 0, n, WS_IQ_FMT_CI16, d, er) == 0 &&
		     memcmp(x, y, (size_t)n * 4) == 0;
	}
	free(x);
	free(y);
	return ok;
}

static void test_open_info(void)
{
	bed b;
	CHECK("up", bed_up(&b, NULL, NULL, NULL) == 0);
	ws_iq_info in;
	ws_iq_get_info(b.h, &in);
	CHECK_INT("serial", in.serial, 6);
	CHECK_INT("hw", in.hw_version, 3);
	CHECK_INT("major", in.wl_major, 7);
	CHECK_INT("minor", in.wl_minor, 7);
	CHECK_INT("rev", in.wl_rev, 1);
	CHECK_INT("rf", in.num_rf, 2);
	CHECK_INT("max tx", in.max_tx_samples, 1u << 20);
	CHECK_INT("max rx", in.max_rx_samples, 1u << 20);
	CHECK_INT("payload", in.max_payload, 8964);
	CHECK_INT("spp", in.samples_per_packet, 2232);
	CHECK_INT("pkt", in.packet_size, 8962);
	CHECK_INT("mac0", in.mac[0], 0x40);
	CHECK_INT("mac1", in.mac[1], 0xD8);
	CHECK("window", in.window >= 8962);
	ws_iq_error er;
	CHECK("ping", ws_iq_ping(b.h, &er) > 0);
	CHECK_STR("no error", er.msg, "");
	bed_down(&b);
}

static void test_open_1500(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.tx_samples = c.rx_samples = 1u << 16;
	c.max_payload = 1468;
	ws_iq_config h;
	ws_iq_config_default(&h);
	h.timeout_ms = 30;
	bed b;
	CHECK("up", bed_up(&b, &c, NULL, &h) == 0);
	ws_iq_info in;
	ws_iq_get_info(b.h, &in);
	CHECK_INT("payload", in.max_payload, 1468);
	CHECK_INT("spp", in.samples_per_packet, 356);
	ws_iq_error er;
	CHECK("roundtrip 1500", roundtrip(b.h, WS_IQ_RF_A, 50000, 3, &er));
	bed_down(&b);
}

static void test_formats(void)
{
	bed b;
	CHECK("up", bed_up(&b, NULL, NULL, NULL) == 0);
	uint32_t n = 5000;
	int16_t *x = malloc(n * 4), *y = malloc(n * 4);
	float *f = malloc(n * 8), *g = malloc(n * 8);
	uint8_t *w = malloc(n * 4);
	fill_ci16(x, n, 9);
	for (uint32_t i = 0; i < 2 * n; i++)
		f[i] = (float)x[i] / 32768.0f;
	ws_iq_error er;
	/* cf32 written, read back as ci16, cf32 and the raw words. */
	CHECK("write cf32", ws_iq_write(b.h, WS_IQ_RF_B, 0, n, WS_IQ_FMT_CF32, f, &er) == 0);
	CHECK("trigger", ws_iq_trigger(b.h, 1, &er) >= 0);
	void *d[1] = {y};
	CHECK("read ci16", ws_iq_read(b.h, WS_IQ_RF_B, 0, n, WS_IQ_FMT_CI16, d, &er) == 0);
	CHECK_MEM("ci16", y, x, n * 4);
	d[0] = g;
	CHECK("read cf32", ws_iq_read(b.h, WS_IQ_RF_B, 0, n, WS_IQ_FMT_CF32, d, &er) == 0);
	CHECK_MEM("cf32", g, f, n * 8);
	d[0] = w;
	CHECK("read be32", ws_iq_read(b.h, WS_IQ_RF_B, 0, n, WS_IQ_FMT_BE32, d, &er) == 0);
	CHECK_U64("be32 word 7", ws_get_be32(w + 28), ws_wire_sample(x[14], x[15]));
	/* An offset read of part of the buffer. */
	d[0] = y;
	CHECK("read offset", ws_iq_read(b.h, WS_IQ_RF_B, 2500, 100, WS_IQ_FMT_CI16, d, &er) == 0);
	CHECK_MEM("offset", y, x + 5000, 400);
	free(x);
	free(y);
	free(f);
	free(g);
	free(w);
	bed_down(&b);
}

/* A fresh node's RX buffers hold the test signal; several buffers in one call. */
static void test_read_signal_multi(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.tx_samples = c.rx_samples = 1u << 18;
	c.rf = 4;
	bed b;
	CHECK("up", bed_up(&b, &c, NULL, NULL) == 0);
	uint32_t n = 1u << 18;
	uint8_t *buf[3];
	for (int i = 0; i < 3; i++)
		buf[i] = malloc((size_t)n * 4);
	void *d[3] = {buf[0], buf[1], buf[2]};
	ws_iq_error er;
	CHECK("read A|B|D", ws_iq_read(b.h, WS_IQ_RF_A | WS_IQ_RF_B | WS_IQ_RF_D, 0, n,
					WS_IQ_FMT_BE32, d, &er) == 0);
	int rfs[3] = {0, 1, 3}, bad = 0;
	for (int k = 0; k < 3; k++)
		for (uint32_t i = 0; i < n; i++)
			bad += ws_get_be32(buf[k] + 4 * i) != ws_node_test_sample(rfs[k], i);
	CHECK_INT("test signal mismatches", bad, 0);
	CHECK_U64("RF_B sample 5", ws_get_be32(buf[1] + 20), 0x040BFBF4u);
	for (int i = 0; i < 3; i++)
		free(buf[i]);
	bed_down(&b);
}

static void test_write_multi_and_mask(void)
{
	bed b;
	CHECK("up", bed_up(&b, NULL, NULL, NULL) == 0);
	uint32_t n = 20000;
	int16_t *x0 = malloc(n * 4), *x1 = malloc(n * 4), *y = malloc(n * 4);
	fill_ci16(x0, n, 1);
	fill_ci16(x1, n, 2);
	const void *src[2] = {x0, x1};
	ws_iq_error er;
	CHECK("multi", ws_iq_write_multi(b.h, WS_IQ_RF_A | WS_IQ_RF_B, 0, n, WS_IQ_FMT_CI16, src,
					 &er) == 0);
	CHECK("trigger", ws_iq_trigger(b.h, 1, &er) >= 0);
	void *d[1] = {y};
	CHECK("read A", ws_iq_read(b.h, WS_IQ_RF_A, 0, n, WS_IQ_FMT_CI16, d, &er) == 0);
	CHECK_MEM("A", y, x0, n * 4);
	CHECK("read B", ws_iq_read(b.h, WS_IQ_RF_B, 0, n, WS_IQ_FMT_CI16, d, &er) == 0);
	CHECK_MEM("B", y, x1, n * 4);
	CHECK("mask roundtrip", roundtrip(b.h, WS_IQ_RF_A | WS_IQ_RF_B, n, 4, &er));
	free(x0);
	free(x1);
	free(y);
	bed_down(&b);
}

/* Loss, duplication, reordering and forged answers through the proxy: every transfer
 * completes bit-exact (the seeds make the runs repeatable). */
static void impaired(const char *name, double loss, double dup, double reorder, double forge,
		     ws_iq_stats *st)
{
	memset(st, 0, sizeof *st);
	px_cfg p = {.up = 1, .down = 1, .seed = 42, .loss = loss, .dup = dup, .reorder = reorder,
		    .bad_seq = forge, .bad_id = forge};
	/* Triggers are never acknowledged (as in WARPLab): a lost or reordered one would leave
	 * the RX buffer as it was, so they go to the node directly, around the proxy. At 20 %
	 * loss each way a command needs more than three attempts now and then. */
	ws_iq_config h;
	ws_iq_config_default(&h);
	h.trigger_port = -1;
	h.cmd_tries = 10;
	bed b;
	int up = bed_up(&b, NULL, &p, &h) == 0;
	CHECK(name, up);
	if (!up)
		return;
	ws_iq_error er = {0};
	for (uint32_t k = 0; k < 3; k++) {
		int ok = roundtrip(b.h, WS_IQ_RF_A, (1u << 17) + 1000 * k, k + 1, &er);
		CHECK(name, ok);
		if (!ok)
			printf("  %s: %s\n", name, er.msg);
	}
	ws_iq_get_stats(b.h, st);
	bed_down(&b);
}

static void test_loss_1(void)
{
	ws_iq_stats s;
	impaired("loss 1%", 0.01, 0, 0, 0, &s);
	CHECK("re-requests", s.read_rerequests > 0 || s.write_resends > 0);
}

static void test_loss_5(void)
{
	ws_iq_stats s;
	impaired("loss 5%", 0.05, 0, 0, 0, &s);
	CHECK("re-requests", s.read_rerequests > 0);
	CHECK("fallback", s.write_fallbacks > 0);
}

static void test_loss_20(void)
{
	ws_iq_stats s;
	impaired("loss 20%", 0.20, 0, 0, 0, &s);
	CHECK("re-requests", s.read_rerequests > 0);
	CHECK("resends", s.write_resends > 0);
}

static void test_dup_reorder(void)
{
	ws_iq_stats s;
	impaired("dup+reorder", 0.0, 0.05, 0.05, 0, &s);
	CHECK("duplicates seen", s.read_dup_packets > 0);
}

static void test_forged(void)
{
	ws_iq_stats s;
	impaired("forged", 0.02, 0.02, 0.02, 0.05, &s);
	CHECK("wrong seq counted", s.wrong_seq > 0);
	CHECK("wrong node counted", s.wrong_node > 0);
}

/* The node goes quiet after 40 answers: Read IQ fails with a clear error, quickly. */
static void test_node_goes_quiet(void)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 1, .mute_after = 40};
	ws_iq_config h;
	ws_iq_config_default(&h);
	h.retries = 5;
	bed b;
	CHECK("up", bed_up(&b, NULL, &p, &h) == 0);
	uint32_t n = 1u << 18;
	uint8_t *y = malloc((size_t)n * 4);
	void *d[1] = {y};
	ws_iq_error er;
	int64_t t0 = ws_clock_ns();
	int r = ws_iq_read(b.h, WS_IQ_RF_A, 0, n, WS_IQ_FMT_BE32, d, &er);
	int64_t ms = (ws_clock_ns() - t0) / WS_NS_PER_MS;
	CHECK_INT("timed out", r, -WS_E_TIMEDOUT);
	CHECK("message", strstr(er.msg, "stopped answering") != NULL);
	CHECK("bounded time", ms < 1000);
	CHECK("write fails too", ws_iq_write(b.h, WS_IQ_RF_A, 0, 5000, WS_IQ_FMT_BE32, y, &er) < 0);
	free(y);
	bed_down(&b);
}

static void test_unreachable(void)
{
	/* A bound but unread port answers nothing; a closed port is refused. */
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t sl = sizeof a;
	bind(fd, (struct sockaddr *)&a, sizeof a);
	getsockname(fd, (struct sockaddr *)&a, &sl);
	ws_iq_config c;
	ws_iq_config_default(&c);
	c.addr = "127.0.0.1";
	c.port = ntohs(a.sin_port);
	c.timeout_ms = 20;
	ws_iq_node *h = (ws_iq_node *)&c;
	ws_iq_error er;
	CHECK_INT("silent", ws_iq_open(&c, &h, &er), -WS_E_TIMEDOUT);
	CHECK("null handle", h == NULL);
	CHECK("says PING", strstr(er.msg, "did not answer PING") != NULL);
	close(fd);
	CHECK_INT("refused", ws_iq_open(&c, &h, &er), -WS_E_REFUSED);
	CHECK("says refused", strstr(er.msg, "refused") != NULL);
	c.addr = "10.0.0.300";
	CHECK_INT("bad addr", ws_iq_open(&c, &h, &er), -WS_E_INVAL);
	CHECK_STR("bad addr msg", er.msg,
		  "iq: node address '10.0.0.300' is not an IPv4 address (a.b.c.d)");
}

static void test_bad_arguments(void)
{
	bed b;
	CHECK("up", bed_up(&b, NULL, NULL, NULL) == 0);
	uint8_t x[64] = {0};
	void *d[1] = {x};
	ws_iq_error er;
	CHECK_INT("beyond", ws_iq_read(b.h, WS_IQ_RF_A, 0, (1u << 20) + 1, WS_IQ_FMT_BE32, d, &er),
		  -WS_E_INVAL);
	CHECK_STR("beyond msg", er.msg, "Read IQ: samples [0, 0 + 1048577) are beyond the node's "
		  "RX buffer of 1048576 samples");
	CHECK_INT("rf C", ws_iq_write(b.h, WS_IQ_RF_C, 0, 4, WS_IQ_FMT_BE32, x, &er), -WS_E_INVAL);
	CHECK("rf C msg", strstr(er.msg, "lacks") != NULL);
	CHECK_INT("zero", ws_iq_write(b.h, WS_IQ_RF_A, 0, 0, WS_IQ_FMT_BE32, x, &er), -WS_E_INVAL);
	CHECK_INT("format", ws_iq_read(b.h, WS_IQ_RF_A, 0, 4, (ws_iq_format)7, d, &er), -WS_E_INVAL);
	bed_down(&b);
}

static void test_not_ready(void)
{
	ws_node_config c;
	ws_node_config_default(&c);
	c.tx_samples = c.rx_samples = 1u << 16;
	c.not_ready = 1;
	c.not_ready_us = 3000;
	bed b;
	CHECK("up", bed_up(&b, &c, NULL, NULL) == 0);
	ws_iq_error er;
	CHECK("roundtrip", roundtrip(b.h, WS_IQ_RF_A, 1u << 16, 5, &er));
	/* A write right after a trigger meets NOT_READY too. */
	CHECK("trigger", ws_iq_trigger(b.h, 1, &er) >= 0);
	CHECK("roundtrip 2", roundtrip(b.h, WS_IQ_RF_A, 1u << 15, 6, &er));
	ws_iq_stats s;
	ws_iq_get_stats(b.h, &s);
	CHECK("not ready honoured", s.not_ready >= 2);
	bed_down(&b);
}

static void test_acked_mode_and_pacing(void)
{
	ws_iq_config h;
	ws_iq_config_default(&h);
	h.write_mode = WS_IQ_WRITE_ACKED;
	h.pace_ns = 20000;
	bed b;
	CHECK("up", bed_up(&b, NULL, NULL, &h) == 0);
	ws_iq_error er;
	int64_t t0 = ws_clock_ns();
	CHECK("roundtrip", roundtrip(b.h, WS_IQ_RF_B, 40 * 2232, 8, &er));
	int64_t us = (ws_clock_ns() - t0) / 1000;
	CHECK("paced: 40 packets take >= 39 gaps of 20 us", us >= 780);
	ws_iq_stats s;
	ws_iq_get_stats(b.h, &s);
	CHECK_INT("no fallback", s.write_fallbacks, 0);
	CHECK_INT("packets", s.write_packets, 40);
	bed_down(&b);
}

static void test_helpers(void)
{
	uint32_t w[6] = {1, 100, 32768, 1, 200, 32768 + 16000};
	/* RX remaining 48568 samples (more than TX's 32668) = 194272 bytes -> 1214.2 + 100 us. */
	CHECK_INT("not ready wait", ws_iq_host_not_ready_wait_ns(w, 6), 1314200);
	CHECK_INT("no words", ws_iq_host_not_ready_wait_ns(w, 0), 100000);
	float f[8] = {1.0f, -1.0f, 0.5f, -0.25f, 2.0f, -3.0f, NAN, 1.0f / 65536};
	uint8_t out[16];
	ws_iqconv_to_wire(out, WS_IQ_FMT_CF32, f, 0, 4);
	CHECK_U64("sat +1", ws_get_be32(out), 0x7FFF8000u);
	CHECK_U64("halves", ws_get_be32(out + 4), 0x4000E000u);
	CHECK_U64("clip", ws_get_be32(out + 8), 0x7FFF8000u);
	CHECK_U64("nan, round half to even", ws_get_be32(out + 12), 0x00000000u);
	int16_t c[4] = {-2, 3, 32767, -32768};
	ws_iqconv_to_wire(out, WS_IQ_FMT_CI16, c, 0, 2);
	CHECK_U64("ci16", ws_get_be32(out), 0xFFFE0003u);
	CHECK_U64("ci16 ext", ws_get_be32(out + 4), 0x7FFF8000u);
	float g[4];
	ws_iqconv_from_wire(g, WS_IQ_FMT_CF32, 0, out, 2);
	CHECK_DBL("f0", g[0], -2.0 / 32768, 0);
	CHECK_DBL("f3", g[3], -1.0, 0);
	CHECK_INT("sizes", ws_iq_format_size(WS_IQ_FMT_CF32), 8);
}

typedef struct thr_arg {
	bed *b;
	int ok;
} thr_arg;

static void *thr_main(void *a)
{
	thr_arg *t = a;
	ws_iq_error er;
	t->ok = 1;
	for (int i = 0; i < 3; i++)
		t->ok &= roundtrip(t->b->h, WS_IQ_RF_A, 30000, (uint32_t)i + 20, &er);
	return NULL;
}

static void test_two_threads(void)
{
	bed b1, b2;
	CHECK("up 1", bed_up(&b1, NULL, NULL, NULL) == 0);
	CHECK("up 2", bed_up(&b2, NULL, NULL, NULL) == 0);
	thr_arg a1 = {&b1, 0}, a2 = {&b2, 0};
	pthread_t t1, t2;
	pthread_create(&t1, NULL, thr_main, &a1);
	pthread_create(&t2, NULL, thr_main, &a2);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	CHECK("thread 1", a1.ok);
	CHECK("thread 2", a2.ok);
	bed_down(&b1);
	bed_down(&b2);
}

int main(void)
{
	RUN(test_helpers);
	RUN(test_open_info);
	RUN(test_open_1500);
	RUN(test_formats);
	RUN(test_read_signal_multi);
	RUN(test_write_multi_and_mask);
	RUN(test_loss_1);
	RUN(test_loss_5);
	RUN(test_loss_20);
	RUN(test_dup_reorder);
	RUN(test_forged);
	RUN(test_node_goes_quiet);
	RUN(test_unreachable);
	RUN(test_bad_arguments);
	RUN(test_not_ready);
	RUN(test_acked_mode_and_pacing);
	RUN(test_two_threads);
	TEST_MAIN_END();
}
