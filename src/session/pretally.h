/* SPDX-License-Identifier: BSD-2-Clause */
/* pretally: what the daemon's pre-session phase (session/prelude.h) refused or dropped,
 * counted by kind, and the one summary line that says so at most every
 * WS_PRELUDE_LOG_EVERY_NS: each kind once with its last peer and detail, and how many
 * more like it. A flood of refusals costs the log a line every two seconds. */
#ifndef WS_SESSION_PRETALLY_H
#define WS_SESSION_PRETALLY_H

#include <stdbool.h>
#include <stdint.h>

/* What the summary line counts: the refusals and drops of the pre-session phase. */
enum ws_pretally_cat {
	WS_PC_TIMEOUT,
	WS_PC_FOREIGN,
	WS_PC_BAD,
	WS_PC_NPBAD,
	WS_PC_AUTH,
	WS_PC_BUSY,
	WS_PC_EVICT_SRC,
	WS_PC_EVICT_ALL,
	WS_PC_NOFD,
	WS_PC_LEFT,
	WS_PC_N
};

struct ws_pretally_counter {
	unsigned long long n;
	char peer[80];
	char detail[240];
};

typedef struct ws_pretally {
	struct ws_pretally_counter c[WS_PC_N];
	bool dirty;          /* counted since the last line */
	int64_t last_log_ns; /* that line's time */
} ws_pretally;

/* What a kind says in the line ("refused (busy)"). */
const char *ws_pretally_what(enum ws_pretally_cat k);

/* Count one refusal or drop of kind k from peer, with its detail. */
void ws_pretally_count(ws_pretally *p, enum ws_pretally_cat k, const char *peer, const char *fmt,
		       ...) __attribute__((format(printf, 4, 5)));

/* The summary line through log(ctx, line), when something was counted and the last line
 * is WS_PRELUDE_LOG_EVERY_NS old (or force); the counts start again. */
void ws_pretally_flush(ws_pretally *p, int64_t now, bool force,
		       void (*log)(void *ctx, const char *line), void *ctx);

#endif
