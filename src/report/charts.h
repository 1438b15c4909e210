/* SPDX-License-Identifier: BSD-2-Clause */
/* charts: warpspeed's results as pictures: which chart fits a document, and the data of
 * each chart taken from it.
 *
 * Six charts: (1) throughput against a swept value (a sweep document; log x for sizes);
 * (2) the latency percentile spectrum on HdrHistogram's nines axis, and the latency
 * histogram, from an RR result's latency.histogram; (3) throughput over time from -D's
 * interim samples; (4) per-stream bars with Jain's fairness index (--streams); (5) IQ
 * Write and Read Mb/s against samples (iq bench), with the link ceiling and WARPLab's
 * published series; (6) a heatmap of a mesh's rank-to-rank matrix. Several documents of
 * one kind are overlaid, one series each (a mesh draws one). `warpspeed plot` reads saved
 * documents (util/json_read.h); `--svg` on a run writes its --json document to memory
 * and draws it the same way, so a saved file and a live run give the same picture; the
 * sweep and mesh code can also call ws_chart_sweep / ws_chart_mesh with plain arrays.
 * Everything writes to the caller's FILE; errors come back in ws_err, never printed. */
#ifndef WS_REPORT_CHARTS_H
#define WS_REPORT_CHARTS_H

#include "util/json_read.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ws_err;

enum ws_chart_kind {
	WS_CHART_AUTO,      /* the one the documents fit */
	WS_CHART_SPECTRUM,  /* RR result: latency percentiles on the nines axis */
	WS_CHART_HISTOGRAM, /* RR result: latency histogram */
	WS_CHART_INTERIM,   /* result with -D samples: throughput over time */
	WS_CHART_STREAMS,   /* result with --streams: per-stream bars, fairness */
	WS_CHART_SWEEP,     /* sweep document: throughput against the swept value */
	WS_CHART_IQ,        /* iq bench document: Write / Read Mb/s against samples */
	WS_CHART_MESH,      /* mesh document: rank-to-rank heatmap */
};

/* "spectrum", "histogram", "interim", "streams", "sweep", "iq", "mesh", "auto". */
const char *ws_chart_kind_name(enum ws_chart_kind k);
/* The kind of a name; -WS_E_INVAL with err listing the names. */
int ws_chart_kind_parse(const char *name, enum ws_chart_kind *k, struct ws_err *err);

typedef struct ws_chart_opts {
	const char *title;       /* NULL: one that says what is drawn */
	enum ws_chart_kind kind; /* AUTO: from the documents */
	bool reference_warplab;  /* IQ: WARPLab 7.5.0's MEX and Java series (warplab_ref.h) */
	double link_mbps;        /* IQ: the link's rate, 10^6 bits/s of frames; 0: unknown, no
	                           * ceiling line (with reference_warplab: WARPLab's GbE) */
} ws_chart_opts;

/* One parsed document and the label of its series (a file name, --label). */
typedef struct ws_chart_input {
	const ws_jdoc *doc;
	const char *label;
} ws_chart_input;

/* The chart of n (1..16) documents of one kind, by their "type" member: "result" or
 * "summary" (a --json document; spectrum, histogram, interim or streams), "sweep",
 * "mesh", or an iq bench document (no "type"; its "rows"). With o->kind AUTO a result
 * gets: interim samples -> over time; more than one stream -> bars; RR latency ->
 * spectrum; otherwise -WS_E_INVAL with err naming what can be drawn. */
int ws_chart_docs(FILE *out, const ws_chart_input *in, size_t n, const ws_chart_opts *o,
		  struct ws_err *err);

/* The kind AUTO picks for one document, or -WS_E_INVAL with err saying why none. */
int ws_chart_kind_of(const ws_jdoc *doc, enum ws_chart_kind *k, struct ws_err *err);

/* ---- direct entry points (no JSON) ---------------------------------------------------- */

/* One sweep: throughput y[i] (in units) at the swept value x[i] (bytes for m/M/s/S, the
 * request size for r, the count for streams/threads, per second for rate). */
typedef struct ws_chart_sweep_series {
	const char *label;     /* legend; NULL: "throughput" */
	const char *parameter; /* "m", "M", "r", "s", "S", "streams", "threads", "rate" */
	const char *units;     /* "10^6bits/s", "Trans/s", ... */
	const char *test;      /* "TCP_STREAM" (subtitle); may be NULL */
	const double *x, *y;
	size_t n;
} ws_chart_sweep_series;

/* Throughput against the swept value, one line per series (1..16, one parameter): log2
 * x with 64, 1K, 64K labels when every x of a size parameter is a power of two, log10
 * for other sizes and for counts and rates spanning more than 16x, else linear. */
int ws_chart_sweep(FILE *out, const ws_chart_sweep_series *s, size_t n, const ws_chart_opts *o,
		   struct ws_err *err);

typedef struct ws_chart_mesh_cell {
	int src, dst;      /* ranks, 0 .. ranks-1 */
	double throughput; /* in the mesh's units; NaN when not measured */
	const char *error; /* NULL, or why the pair failed */
} ws_chart_mesh_cell;

typedef struct ws_chart_mesh_data {
	const char *test;         /* "TCP_STREAM" */
	const char *schedule;     /* "all", ... (subtitle); may be NULL */
	int ranks;                /* 1..256 */
	const char *const *hosts; /* ranks host names, or NULL */
	const char *units;
	const ws_chart_mesh_cell *cells;
	size_t ncells;
} ws_chart_mesh_data;

/* The heatmap: rows = src rank, columns = dst rank; cells outside 0..ranks-1 are
 * refused (-WS_E_INVAL). */
int ws_chart_mesh(FILE *out, const ws_chart_mesh_data *m, const ws_chart_opts *o,
		  struct ws_err *err);

/* One node's (or file's) iq bench figures: mean Mb/s per size. */
typedef struct ws_chart_iq_series {
	const char *label; /* "warpspeed" */
	const double *samples, *write_mbps, *read_mbps;
	size_t n;
} ws_chart_iq_series;

/* Write and Read Mb/s against samples (log2 x, 2^15 .. 2^25 and whatever else was run),
 * the ceiling link_mbps x (pkt_size - 34) / (pkt_size + 66) (IQ bytes per packet over its
 * Ethernet wire slot) when o->link_mbps is set, and WARPLab's series with
 * o->reference_warplab. */
int ws_chart_iq(FILE *out, const ws_chart_iq_series *s, size_t n, uint32_t pkt_size,
		const ws_chart_opts *o, struct ws_err *err);

/* The IQ payload ceiling of a link: 0 when either is 0. */
double ws_chart_iq_ceiling(double link_mbps, uint32_t pkt_size);

/* ---- the result charts (charts_result.c), with the document's data ------------------- */

int ws_chart_result(FILE *out, enum ws_chart_kind k, const ws_chart_input *in, size_t n,
		    const ws_chart_opts *o, struct ws_err *err);

/* bits/s per unit of a throughput unit ("10^6bits/s" 1e6, "MBytes/s" 8 x 2^20, "Trans/s"
 * -1: a count, not bits), 0 when unknown. */
double ws_chart_unit_bits(const char *units);

#endif
