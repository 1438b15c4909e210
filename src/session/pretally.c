/* SPDX-License-Identifier: BSD-2-Clause */
/* pretally: the pre-session phase's refusals and drops, counted; see pretally.h. */
#include "session/pretally.h"

#include "session/prelude.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const cat_what[WS_PC_N] = {
	[WS_PC_TIMEOUT] = "timed out",
	[WS_PC_FOREIGN] = "refused a foreign protocol",
	[WS_PC_BAD] = "refused a bad HELLO",
	[WS_PC_NPBAD] = "refused a bad netperf message",
	[WS_PC_AUTH] = "authentication failed",
	[WS_PC_BUSY] = "refused (busy)",
	[WS_PC_EVICT_SRC] = "closed the oldest pending connection",
	[WS_PC_EVICT_ALL] = "closed the oldest pending connection",
	[WS_PC_NOFD] = "closed at once (out of file descriptors)",
	[WS_PC_LEFT] = "closed by the peer",
};

const char *ws_pretally_what(enum ws_pretally_cat k) { return cat_what[k]; }

void ws_pretally_count(ws_pretally *p, enum ws_pretally_cat k, const char *peer, const char *fmt,
		       ...)
{
	struct ws_pretally_counter *c = &p->c[k];
	c->n++;
	snprintf(c->peer, sizeof(c->peer), "%s", peer);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	p->dirty = true;
}

void ws_pretally_flush(ws_pretally *p, int64_t now, bool force,
		       void (*log)(void *ctx, const char *line), void *ctx)
{
	if (!p->dirty || (!force && now - p->last_log_ns < WS_PRELUDE_LOG_EVERY_NS))
		return;
	char line[1536];
	size_t len = (size_t)snprintf(line, sizeof(line), "pre-session:");
	for (int k = 0; k < WS_PC_N; k++) {
		struct ws_pretally_counter *c = &p->c[k];
		if (!c->n)
			continue;
		if (len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%s %s from %s: %s",
						len > 12 ? ";" : "", cat_what[k], c->peer,
						c->detail);
		if (c->n > 1 && len < sizeof(line))
			len += (size_t)snprintf(line + len, sizeof(line) - len,
						" (and %llu more like it)", c->n - 1);
		c->n = 0;
	}
	if (log)
		log(ctx, line);
	p->dirty = false;
	p->last_log_ns = now;
}
