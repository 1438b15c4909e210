/* SPDX-License-Identifier: BSD-2-Clause */
/* host: the IQ host transport's entry points behind include/warpspeed/iq.h.
 *
 * A WARPLab 7.7.1 node is driven over one connected UDP socket per handle (hostio.c).
 * This file is where every public call comes in: it takes the handle's mutex, checks the
 * arguments against what the node reported, runs the work of the module that owns it
 * (commands in hostcmd.c, Read IQ in iqread.c, Write IQ in iqwrite.c, triggers in
 * iqtrigger.c) and turns the internal error into the caller's ws_iq_error in one place.
 * It also opens a handle (PING, the payload size test, NODE_INFO) and closes it. No
 * globals: separate handles run in parallel in different threads. */
#include "iq/host/host.h"

#include "iq/host/iqread.h"
#include "iq/host/iqtrigger.h"
#include "iq/host/iqwrite.h"
#include "util/clock.h"
#include "util/err.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int to_public(int rc, const ws_err *e, ws_iq_error *out)
{
	if (out) {
		out->code = rc < 0 ? rc : 0;
		snprintf(out->msg, sizeof out->msg, "%s", rc < 0 ? e->msg : "");
	}
	return rc;
}

void ws_iq_config_default(ws_iq_config *c)
{
	*c = (ws_iq_config){
		.port = 9000,
		.host_id = WS_WIRE_HOST_ID_DEFAULT,
		.max_payload = 8964,
		.timeout_ms = 100,
		.cmd_tries = 20,
		.idle_ms = 10,
		.retries = 20,
		.rcvbuf = 64 << 20,
		.sndbuf = 512 << 10,
		.write_mode = WS_IQ_WRITE_AUTO,
		.budget_ms = WS_IQ_BUDGET_DEFAULT_MS,
		.stall_budget_ms = WS_IQ_STALL_BUDGET_DEFAULT_MS,
	};
}

static int check_config(const ws_iq_config *c, struct sockaddr_in *sa, ws_err *err)
{
	if (!c->addr || inet_pton(AF_INET, c->addr, &sa->sin_addr) != 1)
		return ws_err_set(err, WS_E_INVAL,
				  "iq: node address '%s' is not an IPv4 address "
				  "(a.b.c.d)",
				  c->addr ? c->addr : "(none)");
	if (c->port < 1 || c->port > 65535)
		return ws_err_set(err, WS_E_INVAL, "iq: node port %d is not 1..65535", c->port);
	if (c->trigger_port < 0 || c->trigger_port > 65535)
		return ws_err_set(err, WS_E_INVAL, "iq: trigger port %d is not 0..65535",
				  c->trigger_port);
	if (c->max_payload < 68 || c->max_payload > 65505)
		return ws_err_set(err, WS_E_INVAL, "iq: max payload %u is not 68..65505",
				  c->max_payload);
	if (c->timeout_ms < 1 || c->idle_ms < 1 || c->retries < 1 || c->cmd_tries < 1)
		return ws_err_set(err, WS_E_INVAL,
				  "iq: timeouts, retries and command tries must "
				  "be at least 1 (timeout %u ms, idle %u ms, retries %d, command "
				  "tries %d)",
				  c->timeout_ms, c->idle_ms, c->retries, c->cmd_tries);
	if (c->stall_budget_ms > WS_IQ_STALL_BUDGET_MAX_MS)
		return ws_err_set(err, WS_E_INVAL, "iq: stall budget %u ms is not 0..%u",
				  c->stall_budget_ms, WS_IQ_STALL_BUDGET_MAX_MS);
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)c->port);
	return 0;
}

/* The first PING, timed: the RTT in the windows' bounds. */
static int open_ping(ws_iq_node *n, ws_iq_reply *rep, ws_err *err)
{
	int64_t t = ws_clock_ns();
	int r = ws_iq_cmd(n, WS_WIRE_CMD_PING, NULL, 0, rep, err);
	n->rtt_ns = ws_clock_ns() - t;
	return r;
}

int ws_iq_open(const ws_iq_config *c, ws_iq_node **out, ws_iq_error *perr)
{
	ws_err e = {0}, *err = &e;
	struct sockaddr_in sa = {0};
	*out = NULL;
	int r = check_config(c, &sa, err);
	if (r < 0)
		return to_public(r, err, perr);
	ws_iq_node *n = calloc(1, sizeof *n);
	if (!n)
		return to_public(ws_err_set(err, ENOMEM, "iq: out of memory"), err, perr);
	n->cfg = *c;
	n->cfg.addr = NULL; /* not kept: the caller owns the string */
	n->peer = sa;
	n->fd = -1;
	n->seq = (uint16_t)(ws_clock_ns() >> 10); /* a fresh start per handle */
	n->sticky = WS_IQWRITE_STICKY;
	snprintf(n->name, sizeof n->name, "%s:%d", c->addr, c->port);
	pthread_mutex_init(&n->lock, NULL);
	ws_iq_reply rep;
	if ((r = ws_iq_host_alloc(n, err)) < 0 || (r = ws_iq_host_open_socket(n, err)) < 0 ||
	    (r = open_ping(n, &rep, err)) < 0 || (r = ws_iq_cmd_payload_test(n, err)) < 0 ||
	    (r = ws_iq_cmd_node_info(n, err)) < 0) {
		ws_iq_close(n);
		return to_public(r, err, perr);
	}
	ws_iq_host_bounds(n);
	*out = n;
	return to_public(0, err, perr);
}

/* A handle for a caller that already knows the node's packet geometry (WARPLab's MEX
 * transport is given it with every call): the socket, no handshake. The node is assumed to
 * have four interfaces and 2^27-sample buffers; it refuses what it lacks with IQ_ERROR. */
int ws_iq_open_raw(const ws_iq_config *c, uint32_t spp, ws_iq_node **out, ws_iq_error *perr)
{
	ws_err e = {0}, *err = &e;
	struct sockaddr_in sa = {0};
	ws_iq_config cc = *c;
	*out = NULL;
	if (spp < 1 || spp > WS_IQ_RAW_MAX_SPP)
		return to_public(ws_err_set(err, WS_E_INVAL,
					    "iq: %u samples per packet is not "
					    "1..%u",
					    spp, WS_IQ_RAW_MAX_SPP),
				 err, perr);
	cc.max_payload = WS_WIRE_SAMPLE_PKT_HDR - 2 + 4 * spp;
	int r = check_config(&cc, &sa, err);
	if (r < 0)
		return to_public(r, err, perr);
	ws_iq_node *n = calloc(1, sizeof *n);
	if (!n)
		return to_public(ws_err_set(err, ENOMEM, "iq: out of memory"), err, perr);
	n->cfg = cc;
	n->cfg.addr = NULL;
	n->peer = sa;
	n->fd = -1;
	n->sticky = WS_IQWRITE_STICKY;
	n->last_iq_id = -1;
	snprintf(n->name, sizeof n->name, "%s:%d", c->addr, c->port);
	pthread_mutex_init(&n->lock, NULL);
	n->info = (ws_iq_info){.hw_version = 3,
			       .num_rf = 4,
			       .max_tx_samples = 1u << 27,
			       .max_rx_samples = 1u << 27,
			       .max_payload = cc.max_payload,
			       .samples_per_packet = spp,
			       .packet_size = WS_WIRE_SAMPLE_PKT_HDR + 4 * spp};
	if ((r = ws_iq_host_alloc(n, err)) < 0 || (r = ws_iq_host_open_socket(n, err)) < 0) {
		ws_iq_close(n);
		return to_public(r, err, perr);
	}
	ws_iq_host_bounds(n);
	*out = n;
	return to_public(0, err, perr);
}

void ws_iq_close(ws_iq_node *n)
{
	if (!n)
		return;
	ws_iq_host_release(n);
	pthread_mutex_destroy(&n->lock);
	free(n);
}

void ws_iq_get_info(ws_iq_node *n, ws_iq_info *out)
{
	pthread_mutex_lock(&n->lock);
	*out = n->info;
	pthread_mutex_unlock(&n->lock);
}

void ws_iq_get_stats(ws_iq_node *n, ws_iq_stats *out)
{
	pthread_mutex_lock(&n->lock);
	*out = n->st;
	pthread_mutex_unlock(&n->lock);
}

int64_t ws_iq_ping(ws_iq_node *n, ws_iq_error *perr)
{
	ws_err e = {0};
	ws_iq_reply rep;
	pthread_mutex_lock(&n->lock);
	int r = ws_iq_host_drain_stale(n, &e);
	if (r >= 0)
		r = ws_iq_cmd(n, WS_WIRE_CMD_PING, NULL, 0, &rep, &e);
	pthread_mutex_unlock(&n->lock);
	if (r < 0)
		return to_public(r, &e, perr);
	to_public(0, &e, perr);
	return rep.rtt_ns > 0 ? rep.rtt_ns : 1;
}

int ws_iq_node_info(ws_iq_node *n, ws_iq_info *out, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = ws_iq_host_drain_stale(n, &e);
	if (r >= 0)
		r = ws_iq_cmd_node_info(n, &e);
	if (r >= 0 && out)
		*out = n->info;
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

/* ---- argument checks ---------------------------------------------------------------------- */

/* What check_range checks for: one row per kind of transfer. An RSSI buffer holds one
 * 10-bit value per RX sample at most, two to a word: (RX samples + 1) / 2 words. */
enum { CHECK_READ, CHECK_WRITE, CHECK_RSSI };
static const struct {
	const char *what, *buffer, *unit;
} check_ops[] = {
	[CHECK_READ] = {"Read IQ", "RX", "samples"},
	[CHECK_WRITE] = {"Write IQ", "TX", "samples"},
	[CHECK_RSSI] = {"Read RSSI", "RSSI", "words"},
};

static int check_range(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		       ws_iq_format fmt, int op, ws_err *err)
{
	unsigned have = n->info.num_rf >= 4 ? 0xFu : 0x3u;
	uint32_t max = op == CHECK_WRITE ? n->info.max_tx_samples
		: op == CHECK_READ       ? n->info.max_rx_samples
					 : (uint32_t)(((uint64_t)n->info.max_rx_samples + 1) / 2);
	const char *what = check_ops[op].what;
	if (mask == 0 || (mask & ~have))
		return ws_err_set(err, WS_E_INVAL,
				  "%s: buffer mask 0x%x names interfaces the node "
				  "lacks (it has %u: mask within 0x%x)",
				  what, mask, n->info.num_rf, have);
	if (ws_iq_format_size(fmt) == 0)
		return ws_err_set(err, WS_E_INVAL, "%s: unknown sample format %d", what, (int)fmt);
	if (count == 0 || start > max || count > max - start)
		return ws_err_set(err, WS_E_INVAL,
				  "%s: %s [%u, %u + %u) are beyond the "
				  "node's %s buffer of %u %s",
				  what, check_ops[op].unit, start, start, count,
				  check_ops[op].buffer, max, check_ops[op].unit);
	return 0;
}

/* ---- Read IQ and Write IQ (the engines are iqread.c and iqwrite.c) ------------------------ */

int ws_iq_read_rssi(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
		    uint16_t *const *dst, ws_iq_error *perr)
{
	ws_err e = {0};
	unsigned nb = (unsigned)__builtin_popcount(rf_mask & WS_IQ_RF_ALL);
	uint8_t *words = nb && count ? malloc((size_t)nb * count * 4) : NULL;
	void *bufs[4];
	if (nb && count && !words)
		return to_public(ws_err_set(&e, ENOMEM,
					    "iq: Read RSSI: out of memory for %u "
					    "words",
					    count),
				 &e, perr);
	for (unsigned b = 0; b < nb; b++)
		bufs[b] = words + (size_t)b * count * 4;
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, WS_IQ_FMT_BE32, CHECK_RSSI, &e);
	if (r == 0) {
		n->read_cmd = WS_WIRE_CMD_READ_RSSI;
		r = ws_iqread_run(n, rf_mask, start, count, WS_IQ_FMT_BE32, bufs, &e);
		n->read_cmd = 0;
	}
	pthread_mutex_unlock(&n->lock);
	for (unsigned b = 0; r == 0 && b < nb; b++) {
		for (uint32_t i = 0; i < count; i++) {
			const uint8_t *w = words + ((size_t)b * count + i) * 4;
			dst[b][2 * (size_t)i] = (uint16_t)((w[0] << 8 | w[1]) & 0x3FF);
			dst[b][2 * (size_t)i + 1] = (uint16_t)((w[2] << 8 | w[3]) & 0x3FF);
		}
	}
	free(words);
	return to_public(r, &e, perr);
}

int ws_iq_read(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count, ws_iq_format fmt,
	       void *const *dst, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, CHECK_READ, &e);
	if (r == 0)
		r = ws_iqread_run(n, rf_mask, start, count, fmt, dst, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r, &e, perr);
}

int ws_iq_write(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count, ws_iq_format fmt,
		const void *src, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, CHECK_WRITE, &e);
	if (r == 0)
		r = ws_iqwrite_run(n, rf_mask, start, count, fmt, src, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

int ws_iq_write_multi(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
		      ws_iq_format fmt, const void *const *src, ws_iq_error *perr)
{
	ws_err e = {0};
	pthread_mutex_lock(&n->lock);
	int r = check_range(n, rf_mask, start, count, fmt, CHECK_WRITE, &e), i = 0;
	for (unsigned bit = 1; r == 0 && bit <= 8; bit <<= 1)
		if (rf_mask & bit) {
			r = ws_iqwrite_run(n, bit, start, count, fmt, src[i++], &e);
			if (r < 0)
				ws_err_prefix(&e, "%s", ws_iq_host_rf_name(bit));
		}
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

/* ---- buffers and triggers (iqtrigger.c) ----------------------------------------------------------------- */

int ws_iq_enable(ws_iq_node *n, unsigned tx_mask, unsigned rx_mask, ws_iq_error *perr)
{
	ws_err e = {0};
	ws_iq_reply rep;
	int r = 0;
	pthread_mutex_lock(&n->lock);
	unsigned have = n->info.num_rf >= 4 ? 0xFu : 0x3u;
	if ((tx_mask | rx_mask) & ~have)
		r = ws_err_set(&e, WS_E_INVAL,
			       "enable: mask 0x%x names interfaces the node lacks "
			       "(within 0x%x)",
			       (tx_mask | rx_mask) & ~have, have);
	if (r == 0)
		r = ws_iq_host_drain_stale(n, &e);
	uint32_t tx = tx_mask, rx = rx_mask;
	if (r >= 0 && tx_mask)
		r = ws_iq_cmd(n, WS_WIRE_CMD_TX_BUFF_EN, &tx, 1, &rep, &e);
	if (r >= 0 && rx_mask)
		r = ws_iq_cmd(n, WS_WIRE_CMD_RX_BUFF_EN, &rx, 1, &rep, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r < 0 ? r : 0, &e, perr);
}

int ws_iq_trigger_ex(ws_iq_node *n, uint32_t ids, ws_iq_trigger_result *res, ws_iq_error *perr)
{
	ws_err e = {0};
	ws_iq_trigger_result mine;
	pthread_mutex_lock(&n->lock);
	int r = ws_iqtrigger_run(n, ids, res ? res : &mine, &e);
	pthread_mutex_unlock(&n->lock);
	return to_public(r, &e, perr);
}

int ws_iq_trigger(ws_iq_node *n, uint32_t ids, ws_iq_error *perr)
{
	return ws_iq_trigger_ex(n, ids, NULL, perr);
}

int ws_iq_trigger_broadcast(const char *addr, int port, uint16_t host_id, uint32_t ids,
			    ws_iq_error *perr)
{
	ws_err e = {0};
	return to_public(ws_iqtrigger_broadcast(addr, port, host_id, ids, &e), &e, perr);
}
