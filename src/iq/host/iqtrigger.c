/* SPDX-License-Identifier: BSD-2-Clause */
/* iqtrigger: a trigger, then the node's trigger counter until it moved; see iqtrigger.h.
 *
 * The counter is read on the handle's socket. A unicast trigger on that socket is served
 * before a later query, so the first poll usually settles it; a trigger to another port
 * (the broadcast port, served from another socket on the node) can be served after the
 * query, so the counter is polled a few more times (1, 2, 4 ... ms apart) within the wait
 * of that trigger before it is sent again. The waits are the command backoff of the
 * handle, and the whole confirmation stays within budget_ms. Counters are compared for
 * equality only, so a peer's value near 2^64 cannot wrap a comparison. */
#include "iq/host/iqtrigger.h"

#include "iq/host/hostcmd.h"
#include "util/clock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

int ws_iqtrigger_packet(uint8_t *buf, size_t cap, uint16_t host_id, uint16_t seq, uint32_t ids)
{
	ws_wire_transport t = {.dest_id = WS_WIRE_ID_BROADCAST,
			       .src_id = host_id,
			       .pkt_type = WS_WIRE_PKT_TRIGGER,
			       .length = 4,
			       .seq = seq};
	return ws_wire_build(buf, cap, &t, NULL, &ids, 1);
}

static int send_trigger(ws_iq_node *n, const uint8_t *buf, size_t len, ws_err *err)
{
	n->st.triggers++;
	if (!n->cfg.trigger_port || n->cfg.trigger_port == n->cfg.port)
		return ws_iq_host_send_one(n, buf, len, err);
	struct sockaddr_in to = n->peer;
	to.sin_port = htons((uint16_t)n->cfg.trigger_port);
	if (sendto(n->fd, buf, len, 0, (const struct sockaddr *)&to, sizeof to) < 0)
		return ws_err_errno(err, "trigger: send to port %d of %s", n->cfg.trigger_port,
				    n->name);
	return 0;
}

/* The counter on schedule b: 1 with *count, 0 when the node answered something else or
 * did not answer, or an error other than a timeout. */
static int read_counter(ws_iq_node *n, const ws_iq_backoff *b, uint64_t *count, ws_err *err)
{
	ws_iq_reply rep;
	ws_err e = {0};
	int r = ws_iq_cmd_sched(n, WS_IQ_CMD_TRIGGER_COUNTER, NULL, 0, b, &rep, &e);
	if (r == -WS_E_TIMEDOUT)
		return 0;
	if (r < 0) {
		if (err)
			*err = e;
		return r;
	}
	return ws_iq_cmd_trigger_count_of(&rep, count);
}

/* Polls the counter until it differs from before or until deadline (ns). 1 when it moved
 * (*now_count set), 0 when not, or an error. */
static int poll_counter(ws_iq_node *n, uint64_t before, int64_t deadline, uint64_t *now_count,
			ws_err *err)
{
	int64_t gap = WS_NS_PER_MS;
	for (;;) {
		int64_t left = deadline - ws_clock_ns();
		if (left <= 0)
			return 0;
		uint32_t left_ms = (uint32_t)((left + WS_NS_PER_MS - 1) / WS_NS_PER_MS);
		ws_iq_backoff b;
		ws_iq_backoff_plan(n->cfg.timeout_ms < left_ms ? n->cfg.timeout_ms : left_ms,
				   n->cfg.cmd_tries, left_ms, &b);
		uint64_t c = before;
		int r = read_counter(n, &b, &c, err);
		if (r < 0)
			return r;
		if (r > 0)
			*now_count = c;
		if (r > 0 && c != before)
			return 1;
		left = deadline - ws_clock_ns();
		if (left > 0)
			ws_clock_sleep_ns(gap < left ? gap : left);
		gap *= 2;
	}
}

/* A trigger to a node with the counter: sent again on the handle's backoff until the
 * counter moved or the budget is spent. */
static int confirm(ws_iq_node *n, const uint8_t *buf, size_t len, ws_iq_trigger_result *res,
		   ws_err *err)
{
	ws_iq_backoff b;
	ws_iq_backoff_of(n, &b);
	res->after = res->before;
	for (int k = 0; k < b.n; k++) {
		int r = send_trigger(n, buf, len, err);
		if (r < 0)
			return r;
		res->sent++;
		if (k)
			n->st.trigger_resends++;
		r = poll_counter(n, res->before,
				 ws_clock_ns() + (int64_t)b.wait_ms[k] * WS_NS_PER_MS, &res->after,
				 err);
		if (r < 0)
			return r;
		if (r > 0)
			return WS_IQ_TRIGGER_CONFIRMED;
	}
	char waits[WS_IQ_BACKOFF_MAX * 8];
	ws_iq_backoff_text(&b, waits, sizeof waits);
	return ws_err_set(err, WS_E_TIMEDOUT,
			  "node %s did not see the trigger: its trigger "
			  "counter stayed at %llu after %d trigger%s over %.1f s (%s) "
			  "(--timeout-ms, --retries, --budget-ms)",
			  n->name, (unsigned long long)res->after, res->sent,
			  res->sent == 1 ? "" : "s", b.total_ms / 1e3, waits);
}

int ws_iqtrigger_run(ws_iq_node *n, uint32_t ids, ws_iq_trigger_result *res, ws_err *err)
{
	uint8_t buf[32];
	int64_t t0 = ws_clock_ns();
	memset(res, 0, sizeof *res);
	int len = ws_iqtrigger_packet(buf, sizeof buf, n->cfg.host_id, ws_iq_host_next_seq(n), ids);
	int r = ws_iq_host_drain_stale(n, err);
	if (r >= 0 && n->trig_query != WS_IQ_TRIGQ_NO) {
		ws_iq_backoff b;
		ws_iq_backoff_of(n, &b);
		r = read_counter(n, &b, &res->before, err);
		if (r >= 0)
			n->trig_query = r > 0 ? WS_IQ_TRIGQ_YES : WS_IQ_TRIGQ_NO;
	}
	if (r > 0) {
		r = confirm(n, buf, (size_t)len, res, err);
	} else if (r == 0) {
		/* No counter: WARPLab's behaviour, one datagram, and the caller is told. */
		res->status = WS_IQ_TRIGGER_UNCONFIRMED;
		n->st.triggers_unconfirmed++;
		r = send_trigger(n, buf, (size_t)len, err);
		if (r == 0) {
			res->sent = 1;
			r = WS_IQ_TRIGGER_UNCONFIRMED;
		}
	}
	res->elapsed_ns = ws_clock_ns() - t0;
	return r;
}

int ws_iqtrigger_broadcast(const char *addr, int port, uint16_t host_id, uint32_t ids, ws_err *err)
{
	struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	if (!addr || inet_pton(AF_INET, addr, &to.sin_addr) != 1 || port < 1 || port > 65535)
		return ws_err_set(err, WS_E_INVAL,
				  "trigger: '%s' port %d is not an IPv4 address "
				  "a.b.c.d with a port 1..65535",
				  addr ? addr : "(none)", port);
	uint8_t buf[32];
	int len = ws_iqtrigger_packet(buf, sizeof buf, host_id, 0, ids);
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), one = 1, r = 0;
	if (fd < 0)
		return ws_err_errno(err, "trigger: socket");
	setsockopt(fd, SOL_SOCKET, SO_BROADCAST, &one, sizeof one);
	if (sendto(fd, buf, (size_t)len, 0, (const struct sockaddr *)&to, sizeof to) < 0)
		r = ws_err_errno(err, "trigger: send to %s:%d", addr, port);
	close(fd);
	return r;
}
