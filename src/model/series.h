/* SPDX-License-Identifier: BSD-2-Clause */
/* series: a run seen as named time series, the shape latency-under-load tests (RRUL, RPM)
 * produce and the Flent data file, the "all" chart and the JSON samples consume.
 *
 * A series is one flow's goodput over time (Mbit/s, per interval) or one probe's round
 * trips (ms, one sample per probe). Samples carry their time in seconds since the run's
 * common start; a probe that was lost is a sample whose value is NaN, so that a consumer
 * can count it and leave a gap without the series stalling. Names are Flent's ("TCP upload
 * BE", "Ping (ms) UDP EF") so a writer needs no mapping table of its own. */
#ifndef WS_MODEL_SERIES_H
#define WS_MODEL_SERIES_H

#include <stddef.h>
#include <stdint.h>

typedef enum ws_series_kind {
	WS_SERIES_UP,    /* goodput from client to server, Mbit/s */
	WS_SERIES_DOWN,  /* goodput from server to client, Mbit/s */
	WS_SERIES_PROBE, /* round trip of a latency probe, ms (NaN: lost) */
} ws_series_kind;

typedef struct ws_series {
	char name[48]; /* Flent's series name, e.g. "TCP upload BE" */
	char probe[8]; /* probes: "udp", "tcp", "icmp" or "connect"; "" for flows */
	ws_series_kind kind;
	int tos; /* IP_TOS byte the flow or probe used (0 = BE) */
	size_t n, cap;
	double *t;     /* seconds since the common start */
	double *v;     /* Mbit/s or ms; NaN = no value (lost probe) */
	uint64_t lost; /* probes that got no answer in time */
} ws_series;

typedef struct ws_series_set {
	ws_series *s;
	size_t n, cap;
	double step_s;         /* sampling step the flows were reported at (the -D interval) */
	double length_s;       /* the run's planned length */
	int64_t start_unix_ns; /* wall clock of the common start */
} ws_series_set;

/* Adds an empty series; returns its index, or -1 with errno set (ENOMEM, EINVAL for a
 * name that does not fit). The set owns every series' samples. */
int ws_series_add(ws_series_set *set, const char *name, ws_series_kind kind, const char *probe,
		  int tos);
/* Appends one sample; 0, or -1 with errno = ENOMEM. */
int ws_series_push(ws_series_set *set, int idx, double t_s, double v);
/* The index of the series called name, or -1. */
int ws_series_find(const ws_series_set *set, const char *name);
void ws_series_free(ws_series_set *set);

/* Figures of one series over its non-NaN samples (0 when there are none). */
typedef struct ws_series_stats {
	size_t samples, lost;
	double mean, median, p99, min, max;
} ws_series_stats;
void ws_series_stats_of(const ws_series *s, ws_series_stats *out);

#endif
