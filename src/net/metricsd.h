/* SPDX-License-Identifier: BSD-2-Clause */
/* metricsd: the read-only HTTP endpoint that serves GET /metrics, in its own thread.
 *
 * `warpspeed serve --metrics` and `warpspeed node --metrics` expose counters to Prometheus
 * without putting anything of the scrape in the way of their real work: the endpoint runs
 * one thread with one poll loop, so a scrape never holds a lock the daemon or the node
 * needs longer than the render callback takes (which reads counters and writes text), and
 * a slow or hostile client costs one slot, never a thread. Bounds: at most max_conns
 * connections (a new one closes the oldest when all are taken: a scrape finishes in
 * milliseconds, so the oldest is the one that stalls), a request head of at most
 * WS_HTTPREQ_MAX bytes (net/httpreq.h), and one deadline per connection from accept to
 * close (conn_timeout_ns), whatever the client trickles: a peer that sends a byte a second
 * is closed when it passes. Every answer carries Content-Length and Connection: close; the
 * connection is then half-closed and drained until the peer closes or the deadline, so
 * the answer is never cut by a reset. */
#ifndef WS_NET_METRICSD_H
#define WS_NET_METRICSD_H

#include "net/addr.h"
#include "util/openmetrics.h"

#include <stdint.h>

struct ws_err;

#define WS_METRICSD_DEFAULT_CONNS   16
#define WS_METRICSD_DEFAULT_TIMEOUT (5 * 1000000000LL)

/* Fill w (initialised with the negotiated format) with the metrics; ws_om_finish is
 * called by the server. Runs in the server's thread. */
typedef void (*ws_metricsd_render_fn)(void *ctx, ws_om *w);

typedef struct ws_metricsd_config {
	ws_addr addr;            /* from ws_metricsd_parse_addr */
	unsigned max_conns;      /* 0: WS_METRICSD_DEFAULT_CONNS */
	int64_t conn_timeout_ns; /* 0: WS_METRICSD_DEFAULT_TIMEOUT */
	ws_metricsd_render_fn render;
	void *ctx;
} ws_metricsd_config;

typedef struct ws_metricsd ws_metricsd;

/* --metrics' value: "PORT" (on 127.0.0.1), "ADDR:PORT" or "[IPV6]:PORT"; port 0 takes a
 * free one. Resolved here, so that a bad value is an error before any work; err names
 * the value and the accepted forms. */
int ws_metricsd_parse_addr(const char *text, ws_addr *out, struct ws_err *err);

/* Bind, listen and start the thread. NULL with err filled when the address cannot be
 * bound. */
ws_metricsd *ws_metricsd_start(const ws_metricsd_config *c, struct ws_err *err);

/* The address bound ("127.0.0.1:9100", "[::1]:9100"), with the port actually taken. */
void ws_metricsd_describe(const ws_metricsd *m, char *buf, size_t n);

/* Stop the thread, close every connection and free m. NULL is ignored. */
void ws_metricsd_stop(ws_metricsd *m);

#endif
