/* SPDX-License-Identifier: BSD-2-Clause */
/* httpreq: one HTTP/1.x request head, parsed for a read-only /metrics endpoint.
 *
 * The metrics endpoint faces whatever reaches its port, so the parser is a pure function
 * over the bytes received so far, bounded by WS_HTTPREQ_MAX, that never reads past them
 * and decides as early as it can: a byte that no request head may hold is a 400 at once,
 * not after the peer has sent its maximum. It takes GET and HEAD of /metrics (a query is
 * ignored) in HTTP/1.0 or 1.1; HTTP/1.1 needs exactly one Host header (RFC 9112 3.2).
 * Header lines end in CRLF or a bare LF; a folded line (obs-fold), a header name that is
 * not a token, a control byte in a value or a bare CR is a 400. The Accept header chooses
 * the format: OpenMetrics 1.0 when application/openmetrics-text (version 1.0.0, 0.0.1 or
 * none) has a q above 0 and at least that of the Prometheus text (text/plain, version
 * 0.0.4 or none); else Prometheus text 0.0.4, which is also what a client without Accept
 * (curl, a browser) gets. */
#ifndef WS_NET_HTTPREQ_H
#define WS_NET_HTTPREQ_H

#include <stdbool.h>
#include <stddef.h>

#define WS_HTTPREQ_MAX 4096 /* bytes of request head accepted */

typedef struct ws_httpreq {
	int status;       /* 200 (serve), 400, 404, 405, 431 or 505 */
	bool head;        /* HEAD: the headers without the body */
	bool http11;      /* the request said HTTP/1.1 */
	bool openmetrics; /* serve OpenMetrics 1.0 rather than Prometheus text 0.0.4 */
	const char *why;  /* for a refusal: a short reason, for the body and the tests */
} ws_httpreq;

/* The head in buf[0..len): 0 when more bytes are needed (len < WS_HTTPREQ_MAX and nothing
 * refused yet), else 1 with r filled (status 200 or the error to answer). */
int ws_httpreq_parse(const char *buf, size_t len, ws_httpreq *r);

/* The reason phrase of a status this module returns ("Not Found"). */
const char *ws_httpreq_reason(int status);

#endif
