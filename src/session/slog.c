/* SPDX-License-Identifier: BSD-2-Clause */
/* slog: a session's log lines through its rate limiter; see slog.h. */
#include "session/slog.h"

#include "session/daemon_state.h"
#include "util/clock.h"

#include <stdarg.h>
#include <stdio.h>

void ws_daemon_log(ws_daemon *d, const char *fmt, ...)
{
	if (!d->cfg.log)
		return;
	char line[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	d->cfg.log(d->cfg.log_ctx, line);
}

void ws_slog_init(ws_session *s)
{
	ws_ratelog_init(&s->rl, WS_RATELOG_BURST, WS_RATELOG_PER_SEC, ws_clock_ns());
}

static void summarise(ws_session *s, unsigned long long held)
{
	char t[160];
	ws_ratelog_summary(&s->rl, held, t, sizeof(t));
	ws_daemon_log(s->d, "session %llu from %s%s: %s", (unsigned long long)s->id, s->peer_text,
		      s->netperf ? " (netperf)" : "", t);
}

void ws_slog(ws_session *s, const char *fmt, ...)
{
	unsigned long long held;
	if (!s->d->cfg.log || !ws_ratelog_take(&s->rl, ws_clock_ns(), &held))
		return;
	if (held)
		summarise(s, held);
	char line[640];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ws_daemon_log(s->d, "session %llu from %s%s: %s", (unsigned long long)s->id, s->peer_text,
		      s->netperf ? " (netperf)" : "", line);
}

void ws_slog_end(ws_session *s)
{
	unsigned long long held = ws_ratelog_drain(&s->rl);
	if (held && s->d->cfg.log)
		summarise(s, held);
}
