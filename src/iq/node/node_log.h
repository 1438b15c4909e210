/* SPDX-License-Identifier: BSD-2-Clause */
/* node_log: a bound on how many log lines the node emulator writes for one cause.
 *
 * Some causes repeat once per packet (a Write IQ refused because sample memory is full, a
 * stream abandoned), and a host, hostile or only unlucky, sends hundreds of thousands of
 * packets a second: one line each would fill a disk and bury everything else. Lines are
 * grouped by their format string: at most WS_NODE_LOG_PER_WINDOW of a group are written
 * per WS_NODE_LOG_WINDOW_NS, the rest are counted, and once the window has passed one
 * summary line says how many were left out and the last of them. The module only
 * decides; the node writes through its log callback. The daemon's limiter
 * (util/ratelog.c) is a token bucket per session with no grouping by cause and no last
 * line in its summary; the two should become one, which changes what either logs. */
#ifndef WS_IQ_NODE_LOG_H
#define WS_IQ_NODE_LOG_H

#include <stdint.h>

#define WS_NODE_LOG_KEYS       16
#define WS_NODE_LOG_PER_WINDOW 3
#define WS_NODE_LOG_WINDOW_NS  1000000000ll
#define WS_NODE_LOG_TEXT       200

typedef struct ws_node_log_group {
	const char *key; /* the format string; NULL: unused */
	int level;
	int64_t start;               /* monotonic ns the window began */
	unsigned lines;              /* written in this window */
	uint64_t left_out;           /* counted since the last summary */
	char last[WS_NODE_LOG_TEXT]; /* the last line left out */
} ws_node_log_group;

typedef struct ws_node_loglimit {
	ws_node_log_group g[WS_NODE_LOG_KEYS];
	unsigned pending; /* groups with lines left out */
} ws_node_loglimit;

/* Called with a summary: "... N more like this in S s: <last line>". */
typedef void (*ws_node_log_out)(void *ctx, int level, const char *msg);

/* Whether msg of group key may be written at monotonic time now: 1 (write it), or 0 (it
 * was counted). A summary due for the group is written through out first. */
int ws_node_loglimit_admit(ws_node_loglimit *l, const char *key, int level, const char *msg,
			   int64_t now, ws_node_log_out out, void *ctx);

/* Writes the summaries of groups whose window has passed; cheap when none is pending. */
void ws_node_loglimit_flush(ws_node_loglimit *l, int64_t now, ws_node_log_out out, void *ctx);

#endif
