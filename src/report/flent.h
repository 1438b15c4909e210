/* SPDX-License-Identifier: BSD-2-Clause */
/* flent: a latency-under-load run (a ws_series_set) as a Flent data file (.flent.gz), so
 * that a Flent user can open warpspeed's run in flent-gui or `flent -i FILE -p all_scaled`
 * and compare it with Flent's own runs of netperf.
 *
 * The file is what Flent 2.1.1 reads back (format version 4): a gzip member around one
 * JSON object with "metadata" (the test's Flent name, which selects the plots Flent
 * offers; host, times, length and step; SERIES_META with each series' units), "x_values"
 * (the grid, every STEP_SIZE seconds from the common start), "results" (one list per
 * series aligned to the grid, null where there is no value) and "raw_values" (every
 * sample as measured, with its wall-clock time, which Flent's summary uses for mean,
 * median and 99th percentile). The series Flent's test definition computes from the
 * others (the sums and averages per direction, "TCP totals", "Ping (ms) avg") are written
 * too, as a Flent run writes them; which exist depends on the test (a table in flent.c).
 * Samples are put on the grid by linear interpolation between the two neighbouring
 * samples, as Flent's aggregator does; a lost probe (NaN) is null in the results and a
 * {"t", "lost": true} entry in raw_values. The file is written through util/safefile.c
 * and gzip'd with stored blocks (util/gzip.h), as the run time has no zlib. */
#ifndef WS_REPORT_FLENT_H
#define WS_REPORT_FLENT_H

#include "model/series.h"

#include <stddef.h>
#include <stdio.h>

struct ws_err;

/* What the file says about the run beyond its series. */
typedef struct ws_flent_meta {
	const char *name;       /* Flent's test name: "rrul", "rrul_be", "tcp_nup", ... */
	const char *title;      /* TITLE (-t of flent); NULL or "": none */
	const char *note;       /* NOTE; NULL: none */
	const char *host;       /* the server, as the user named it */
	const char *local_host; /* this host's name; NULL: none */
	int ip_version;         /* 4 or 6; 0: 4 */
} ws_flent_meta;

/* Whether name is a Flent test this writer knows ("rrul", ...). 0, or -WS_E_INVAL with err
 * naming the value and listing the names accepted. */
int ws_flent_check_name(const char *name, struct ws_err *err);

/* Everything ws_flent_write would refuse before a run starts: the test name and whether
 * path can be written (util/safefile.h's ws_safefile_check: not a symbolic link, a
 * directory, ...). 0, or a negative code with err naming the value and what is accepted;
 * nothing is left on disk. For a command line that checks before any work. path NULL:
 * the test name and host alone (the caller checks the file with its other outputs). */
int ws_flent_check(const ws_flent_meta *m, const char *path, struct ws_err *err);

/* The file's JSON text (not compressed) to out: for tests and for a reader that wants it
 * plain. 0, or a negative code with err set (an unknown test name, an empty set, a step
 * that is not positive, a write error). */
int ws_flent_json(FILE *out, const ws_series_set *set, const ws_flent_meta *m,
		  const char *data_filename, struct ws_err *err);

/* Writes the .flent.gz file at path (through util/safefile.c: atomically, never through a
 * link). 0, or a negative code with err naming the path or the problem; on error nothing
 * is left under path. */
int ws_flent_write(const ws_series_set *set, const ws_flent_meta *m, const char *path,
		   struct ws_err *err);

#endif
