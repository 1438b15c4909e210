/* SPDX-License-Identifier: BSD-2-Clause */
/* node_log: per-cause log bounds of the node emulator; see node_log.h.
 *
 * A group is found by its format string's address (the same call site, the same cause);
 * when all WS_NODE_LOG_KEYS groups are taken the last one is shared, so the bound holds
 * whatever the number of causes. */
#include "iq/node/node_log.h"

#include <stdio.h>
#include <string.h>

static void summary(ws_node_loglimit *l, ws_node_log_group *g, int64_t now, ws_node_log_out out,
		    void *ctx)
{
	char line[WS_NODE_LOG_TEXT + 64];
	snprintf(line, sizeof line, "... %llu more like this in %.1f s: %s",
		 (unsigned long long)g->left_out, (double)(now - g->start) / 1e9, g->last);
	g->left_out = 0;
	l->pending--;
	out(ctx, g->level, line);
}

static ws_node_log_group *group_of(ws_node_loglimit *l, const char *key)
{
	for (unsigned i = 0; i < WS_NODE_LOG_KEYS; i++) {
		ws_node_log_group *g = &l->g[i];
		if (g->key == key || !g->key || i == WS_NODE_LOG_KEYS - 1) {
			g->key = g->key ? g->key : key;
			return g;
		}
	}
	return NULL;
}

int ws_node_loglimit_admit(ws_node_loglimit *l, const char *key, int level, const char *msg,
			   int64_t now, ws_node_log_out out, void *ctx)
{
	ws_node_log_group *g = group_of(l, key);
	if (now - g->start >= WS_NODE_LOG_WINDOW_NS || g->start == 0) {
		if (g->left_out)
			summary(l, g, now, out, ctx);
		g->start = now;
		g->lines = 0;
	}
	if (g->lines < WS_NODE_LOG_PER_WINDOW) {
		g->lines++;
		return 1;
	}
	if (!g->left_out++)
		l->pending++;
	g->level = level;
	snprintf(g->last, sizeof g->last, "%s", msg);
	return 0;
}

void ws_node_loglimit_flush(ws_node_loglimit *l, int64_t now, ws_node_log_out out, void *ctx)
{
	for (unsigned i = 0; l->pending && i < WS_NODE_LOG_KEYS; i++) {
		ws_node_log_group *g = &l->g[i];
		if (g->left_out && now - g->start >= WS_NODE_LOG_WINDOW_NS) {
			summary(l, g, now, out, ctx);
			g->start = now;
			g->lines = 0;
		}
	}
}
