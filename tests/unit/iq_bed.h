/* SPDX-License-Identifier: BSD-2-Clause */
/* iq_bed: the IQ host tests' bed, shared by test_iq_host.c and test_iq_trigger.c.
 *
 * A node emulator in a thread, optionally bench/iq_proxy.c (included, in a thread, fixed
 * seeds) in front of it, and a host handle opened through both; plus the write -> trigger
 * -> read roundtrip every impairment test runs. Header-only: static functions for the
 * test programs that include it. */
#ifndef WS_TEST_IQ_BED_H
#define WS_TEST_IQ_BED_H

#define IQ_PROXY_NO_MAIN
#include "../../bench/iq_proxy.c"

#include <warpspeed/iq.h>

#include "iq/host/host.h"
#include "iq/node/node.h"
#include "iq/wire/wire.h"
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
__attribute__((unused)) static int roundtrip(ws_iq_node *h, unsigned mask, uint32_t n, uint32_t seed, ws_iq_error *er)
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

#endif
