/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: what the responsiveness test (-t RPM) measured, and its figures described once.
 *
 * An RPM run is not one session but many (load flows, foreign probes), so its result is
 * not a ws_test_result: it is the handful of figures the draft asks for (idle and working
 * latency, RPM, goodput at saturation, the flows used) and the series behind them. The
 * field list WS_RPM_FIELDS names each figure's JSON member, its -o/-k output name and its
 * unit; the human block, the output names and the JSON writer (report/rpm.h) all walk it,
 * so a new figure is one member and one line. */
#ifndef WS_MODEL_RPM_H
#define WS_MODEL_RPM_H

#include "model/series.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which way the load flows go (--rpm-direction). */
enum ws_rpm_dir { WS_RPM_UP = 1, WS_RPM_DOWN = 2, WS_RPM_BOTH = 3 };

/* Bounds of the options (checked before any work by the CLI). */
#define WS_RPM_MAX_FLOWS 16 /* per direction: the draft's largest load */
#define WS_RPM_DEFAULT_FLOWS \
	4                           /* per direction (see docs/rpm.md: the daemon's per-address
                                  * session limit of 16 leaves room for the probes) */
#define WS_RPM_MAX_PROBE_RATE 100.0 /* probes/s */
#define WS_RPM_DEFAULT_RATE   20.0
#define WS_RPM_MIN_DURATION_S 2.0 /* an idle phase and 2 * MAD - 1 intervals of 0.1 s */
#define WS_RPM_IDLE_MIN       5   /* foreign probes the idle phase waits for (up to 3 x) */

typedef struct ws_rpm_result {
	enum ws_rpm_dir dir;
	double rpm;                   /* 60 s / working latency */
	double idle_latency_ms;       /* trimmed mean of the idle foreign probes (one round trip) */
	double working_latency_ms;    /* (foreign + self) / 2 over the last MAD intervals */
	double foreign_ms;            /* trimmed mean of the foreign probes in that window */
	double self_ms;               /* trimmed mean of the self probes (TCP_INFO) in it */
	double foreign_connect_rr_ms; /* the same foreign probes as timed: connect + 1 RR */
	uint64_t idle_probes;         /* foreign probes before the load */
	uint64_t foreign_probes;      /* under load, in the window */
	uint64_t self_probes;         /* in the window */
	uint64_t foreign_total, self_total; /* under load, all */
	double goodput_up_mbps;             /* moving average over the last MAD intervals */
	double goodput_down_mbps;
	uint32_t flows_up, flows_down; /* load flows at the end */
	bool saturated;                /* goodput met the stability rule (measure/rpm.h) */
	double saturated_at_s;         /* when, since the load started; -1 never */
	bool stable;                   /* working latency met it over the last intervals */
	uint32_t intervals;            /* load intervals measured */
	double interval_s;             /* their length */
	double idle_s, load_s;         /* the phases' lengths as run */
	double probe_rate;             /* probes/s asked */
	uint32_t max_flows;            /* per direction, asked */
	char probe_io_path[64];        /* the foreign probes' I/O path, here/daemon ("" none) */
	char error[512];               /* why the run ended early; "" = it ran to the end */
	char remote_host[256];
	/* Per interval goodput ("TCP upload sum", "TCP download sum", Mbit/s) and every
	 * probe ("foreign" probe "connect", "self" probe "tcp", ms for one round trip). */
	ws_series_set series;
} ws_rpm_result;

/* X(kind, member, json, output name, unit, what); kind: D double, U u64, W u32, B bool,
 * S string. In the order the JSON and `-o all`-like lists show them. */
/* clang-format off */
#define WS_RPM_FIELDS(X) \
	X(D, rpm,                "rpm",                "RPM",                   "",       "round trips per minute under working conditions") \
	X(D, idle_latency_ms,    "idle_latency_ms",    "RPM_IDLE_LATENCY",      "ms",     "idle latency") \
	X(D, working_latency_ms, "working_latency_ms", "RPM_WORKING_LATENCY",   "ms",     "working latency") \
	X(D, foreign_ms,         "foreign_ms",         "RPM_FOREIGN_LATENCY",   "ms",     "foreign probes") \
	X(D, self_ms,            "self_ms",            "RPM_SELF_LATENCY",      "ms",     "self probes") \
	X(D, foreign_connect_rr_ms, "foreign_connect_rr_ms", "RPM_FOREIGN_CONNECT_RR", "ms", "foreign probe, connect + 1 transaction") \
	X(U, idle_probes,        "idle_probes",        "RPM_IDLE_PROBES",       "",       "idle probes") \
	X(U, foreign_probes,     "foreign_probes",     "RPM_FOREIGN_PROBES",    "",       "foreign probes in the window") \
	X(U, self_probes,        "self_probes",        "RPM_SELF_PROBES",       "",       "self probes in the window") \
	X(U, foreign_total,      "foreign_total",      "RPM_FOREIGN_TOTAL",     "",       "foreign probes under load") \
	X(U, self_total,         "self_total",         "RPM_SELF_TOTAL",        "",       "self probes under load") \
	X(D, goodput_up_mbps,    "goodput_up_mbps",    "RPM_GOODPUT_UP",        "Mbit/s", "goodput up") \
	X(D, goodput_down_mbps,  "goodput_down_mbps",  "RPM_GOODPUT_DOWN",      "Mbit/s", "goodput down") \
	X(W, flows_up,           "flows_up",           "RPM_FLOWS_UP",          "",       "load flows up") \
	X(W, flows_down,         "flows_down",         "RPM_FLOWS_DOWN",        "",       "load flows down") \
	X(B, saturated,          "saturated",          "RPM_SATURATED",         "",       "goodput saturated") \
	X(D, saturated_at_s,     "saturated_at_s",     "RPM_SATURATED_AT",      "s",      "saturated after") \
	X(B, stable,             "stable",             "RPM_STABLE",            "",       "working latency stable") \
	X(W, intervals,          "intervals",          "RPM_INTERVALS",         "",       "intervals") \
	X(D, interval_s,         "interval_s",         "RPM_INTERVAL",          "s",      "interval") \
	X(D, idle_s,             "idle_s",             "RPM_IDLE_TIME",         "s",      "idle phase") \
	X(D, load_s,             "load_s",             "RPM_LOAD_TIME",         "s",      "load phase") \
	X(D, probe_rate,         "probe_rate",         "RPM_PROBE_RATE",        "1/s",    "probe rate") \
	X(W, max_flows,          "max_flows",          "RPM_MAX_FLOWS",         "",       "most load flows per direction") \
	X(S, probe_io_path,      "probe_io_path",      "RPM_PROBE_IO_PATH",     "",       "the foreign probes' I/O path, here/daemon") \
	X(S, error,              "error",              "RPM_ERROR",             "",       "ended early")
/* clang-format on */

enum ws_rpm_fkind { WS_RPM_FD, WS_RPM_FU, WS_RPM_FW, WS_RPM_FB, WS_RPM_FS };

typedef struct ws_rpm_field {
	enum ws_rpm_fkind kind;
	size_t off;
	const char *json, *out, *unit, *what;
} ws_rpm_field;

extern const ws_rpm_field ws_rpm_fields[];
extern const size_t ws_rpm_nfields;

/* The field whose output name is name (case-insensitive), or NULL. */
const ws_rpm_field *ws_rpm_field_by_output(const char *name);

/* A field's value as text ("%.3f" for doubles, "" for an empty string); "NaN"-free: a
 * double that is not finite prints as -1. */
void ws_rpm_field_format(const ws_rpm_field *f, const ws_rpm_result *r, char *buf, size_t n);

/* "up", "down", "both". */
const char *ws_rpm_dir_name(enum ws_rpm_dir d);

void ws_rpm_result_free(ws_rpm_result *r);

#endif
