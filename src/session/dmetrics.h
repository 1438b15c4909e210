/* SPDX-License-Identifier: BSD-2-Clause */
/* dmetrics: what the daemon counts for `warpspeed serve --metrics`, and its exposition.
 *
 * Operators of a shared daemon want to see it work and to alert on abuse: sessions and
 * tests by type and outcome, bytes moved, what is running now, refusals by reason and
 * authentication failures, and how long tests take. The daemon's threads (sessions, the
 * listener's pre-session loop) count here with relaxed atomic adds, never a lock, so
 * counting costs a test nothing; the metrics endpoint's thread (net/metricsd.h) reads
 * each counter atomically when it renders. A histogram's _count is the sum of the bucket
 * counts read, so the +Inf bucket always equals it even during an update. The families,
 * their names, labels and help are the table in dmetrics.c (docs/metrics.md lists them).
 * Every function takes a NULL object and does nothing: a daemon without --metrics. */
#ifndef WS_SESSION_DMETRICS_H
#define WS_SESSION_DMETRICS_H

#include "model/result.h"
#include "model/spec.h"
#include "util/openmetrics.h"

#include <stdbool.h>

/* Why a connection or a test was refused (label reason). */
enum ws_dm_refusal {
	WS_DM_LIMITS,      /* a test over a daemon limit (duration, streams, memory, ...) */
	WS_DM_AUTH,        /* authentication failed (also counted as an auth failure) */
	WS_DM_BUSY,        /* --max-sessions or --max-sessions-per-addr reached */
	WS_DM_PROTOCOL,    /* not warpspeed's or netperf's protocol, or a malformed HELLO */
	WS_DM_TIMEOUT,     /* HELLO (and authentication) not done in --hello-timeout */
	WS_DM_EVICTED,     /* pending connections over --max-pending(-per-source) */
	WS_DM_DESCRIPTORS, /* out of file descriptors */
	WS_DM_REFUSALS
};

typedef struct ws_dmetrics ws_dmetrics;

ws_dmetrics *ws_dmetrics_new(void);
void ws_dmetrics_free(ws_dmetrics *m);

/* A session was admitted (delta +1) or ended (-1); netperf: served with netperf's
 * protocol. */
void ws_dmetrics_session(ws_dmetrics *m, bool netperf, int delta);

/* A test ended: rc 0 ok, -WS_E_LIMIT refused by a limit (also a refusal "limits"), any
 * other failed; res (NULL: none) gives the bytes and, when ok, the duration. */
void ws_dmetrics_test(ws_dmetrics *m, enum ws_test_type t, int rc, const ws_side_result *res);

/* A connection refused before it became a session. */
void ws_dmetrics_refused(ws_dmetrics *m, enum ws_dm_refusal why);

/* The exposition (a ws_metricsd_render_fn; ctx is the ws_dmetrics). */
void ws_dmetrics_render(void *ctx, ws_om *w);

#endif
