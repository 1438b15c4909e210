/* SPDX-License-Identifier: BSD-2-Clause */
/* bench: WARPLab's wl_benchmark for the warpspeed IQ host transport, and its table.
 *
 * wl_benchmark times each whole write_IQ / read_IQ call, drops the first 5 trials and
 * prints one table row per size; `warpspeed iq bench` must print the same columns so the
 * figures can be set beside WARPLab's published ones, and also give what WARPLab does not
 * (min / median / max, host CPU per MB, JSON). Running is separate from rendering, so the
 * renderers are tested with fixed rows; rendering goes to a caller's FILE *. */
#ifndef WS_IQ_BENCH_H
#define WS_IQ_BENCH_H

#include <warpspeed/iq.h>

#include "iq/host/iqwin.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct ws_err;

#define WS_IQ_BENCH_DROP       5 /* first trials dropped, as wl_benchmark does */
#define WS_IQ_BENCH_MAX_TRIALS 100000
#define WS_IQ_BENCH_RATE       40e6 /* TX/RX time = samples / 40 MHz */
/* A trial is disturbed when the thread serving a node waited longer than this for a CPU
 * (run-queue wait), or, where that wait is unknown, was switched out involuntarily at all.
 * 1 ms: an undisturbed wakeup on a loaded host waits tens of microseconds, and the kernel's
 * own time slices are 0.75-3 ms, so 1 ms means another task held the CPU for a slice or
 * more; at 1 Gb/s that is 125 KB the link could have carried, at 10 Gb/s 1.25 MB, more
 * than a default socket buffer, enough to leave the link idle. Short preemptions by
 * wakeups (a few per trial on loopback) stay below it. */
#define WS_IQ_BENCH_DISTURB_NS 1000000

/* One trial of one node and direction: the node's call time, and whether the host kept
 * the thread serving that node off the CPU meanwhile. */
typedef struct ws_iq_bench_trial {
	int64_t ns;
	uint64_t retries; /* Read IQ re-requests, Write IQ resends of the call */
	int win_used;     /* the call ran a congestion window (reads; acknowledged writes): */
	uint32_t win_start, win_least, win_most, win_end; /* its packets */
	uint64_t win_cuts;
	int64_t nivcsw;  /* involuntary context switches; -1 unknown */
	int64_t wait_ns; /* run-queue wait, ns; -1 unknown (no /proc/thread-self/schedstat) */
	int disturbed;   /* ws_iq_bench_disturbed(nivcsw, wait_ns) */
} ws_iq_bench_trial;

/* The disturbed trials of a run: how many of how many, the longest run-queue wait of
 * any trial, the involuntary switches of all. */
typedef struct ws_iq_bench_disturb {
	long trials, disturbed;
	int64_t max_wait_ns; /* -1 when no trial's wait is known */
	int64_t nivcsw;
} ws_iq_bench_disturb;

typedef struct ws_iq_bench_config {
	int trials;            /* per size and direction, > WS_IQ_BENCH_DROP */
	const uint32_t *sizes; /* samples per buffer, one row each */
	size_t nsizes;
	unsigned rf_mask; /* buffers per call (write: different data to each) */
	uint32_t seed;    /* write data pattern */
	ws_iq_format fmt; /* caller memory measured; WS_IQ_FMT_BE32 is "raw" */
	/* After every trial (NULL: none), on the calling thread, with the whole call's time:
	 * what the CLI's progress line is drawn from (library code never prints). */
	void (*on_trial)(void *ctx, uint32_t samples, int write, int trial, int64_t ns);
	void *ctx;
	/* NULL, or nsizes * nodes * 2 * trials entries filled per trial:
	 * trial_out[((size * nodes + node) * 2 + (0 write, 1 read)) * trials + trial]. */
	ws_iq_bench_trial *trial_out;
} ws_iq_bench_config;

/* ws_iq_bench_stat and ws_iq_bench_row (the figures of one size) are in <warpspeed/iq.h>,
 * for ws_iq_bench. */

/* What the table's first columns show. */
typedef struct ws_iq_bench_head {
	unsigned id;
	char wlver[16];            /* "7.7.1" */
	char serial[16];           /* "W3-a-00006" */
	const char *transport;     /* "warpspeed UDP", "warpspeed UDP cf32" */
	const char *format;        /* "raw", "ci16", "cf32" */
	uint32_t pkt_size;         /* 8962 */
	uint64_t junk, duplicates; /* the node's junk datagrams and duplicate sample
				       packets over the whole bench (JSON "junk", "duplicates") */
	int have_win;              /* win below is filled (ws_iq_bench_head_windows) */
	ws_iq_win win;             /* the windows' bounds and memory (JSON "transport") */
} ws_iq_bench_head;

/* The head for a node opened as info with node ID id (format raw). */
void ws_iq_bench_head_from(ws_iq_bench_head *h, const ws_iq_info *info, unsigned id);

/* The head's junk and duplicates from the handle's counters (ws_iq_get_stats). */
void ws_iq_bench_head_stats(ws_iq_bench_head *h, const ws_iq_stats *s);

/* The head's windows' bounds and memory from the handle (iqwin.h). */
void ws_iq_bench_head_windows(ws_iq_bench_head *h, ws_iq_node *n);

/* --format's names: "raw" (WS_IQ_FMT_BE32), "ci16", "cf32"; -WS_E_INVAL for others. */
int ws_iq_bench_format_parse(const char *name, ws_iq_format *out);

/* The head's format name and transport cell for fmt ("warpspeed UDP" for raw, else with
 * the format's name, so a table says which path it measured). */
void ws_iq_bench_head_format(ws_iq_bench_head *h, ws_iq_format fmt);

/* Compute one direction's figures from per-call times (ns) and CPU times (ns) of all
 * trials, dropping the first WS_IQ_BENCH_DROP. trials must exceed the drop count. */
void ws_iq_bench_stat_of(ws_iq_bench_stat *s, const int64_t *ns, const int64_t *cpu_ns, int trials,
			 uint32_t samples, int buffers);

/* 1 when a trial with these figures is disturbed (see WS_IQ_BENCH_DISTURB_NS). */
int ws_iq_bench_disturbed(int64_t nivcsw, int64_t wait_ns);

/* The summary of n trials (every trial counts, the dropped first ones too). */
void ws_iq_bench_disturb_of(ws_iq_bench_disturb *d, const ws_iq_bench_trial *t, size_t n);

/* The note line under the table: "disturbed trials: 2 of 20 (off CPU up to 4.10 ms, ...)". */
void ws_iq_bench_disturb_note(FILE *f, const ws_iq_bench_disturb *d);

/* Run the benchmark: per size, `trials` writes then `trials` reads of every buffer in
 * rf_mask, each whole call timed; every read must return the same samples as the first
 * read of that size (a changed sample fails the run). rows must hold c->nsizes rows.
 * Validates the config (trials, sizes within the node's buffers). */
int ws_iq_bench_run(ws_iq_node *n, const ws_iq_bench_config *c, ws_iq_bench_row *rows,
		    struct ws_err *err);

/* The same on nn nodes at once (1..WS_IQ_MANY_MAX, ws_iq_write_many / ws_iq_read_many per
 * trial): rows holds nsizes * nn rows, size-major (rows[size * nn + node]), each node's
 * own call time; agg (nsizes rows, may be NULL) times the whole many-node call, Mb/s of
 * all nodes' payload, ms per buffer as the node rows, CPU of all the nodes' threads. */
int ws_iq_bench_run_many(ws_iq_node *const *nodes, size_t nn, const ws_iq_bench_config *c,
			 ws_iq_bench_row *rows, ws_iq_bench_row *agg, struct ws_err *err);

/* WARPLab's table: a header line with exactly the reference's twelve columns, a rule,
 * one line per row. */
void ws_iq_bench_table(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows, size_t n);

/* The same rows as one JSON object with min / median / max and CPU per MB as well; with
 * trials (NULL: none; as trial_out of a run, one node) each row also carries every trial's
 * time and host disturbance ("per_trial") and their summary ("disturbed"). */
void ws_iq_bench_json(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows, size_t n,
		      const ws_iq_bench_trial *trials);

/* The table of nn nodes (heads h[0..nn), rows as ws_iq_bench_run_many): per size one row
 * per node, then with nn > 1 and agg an aggregate row (ID "all", Serial "N nodes",
 * Transport "aggregate"). */
void ws_iq_bench_table_many(FILE *f, const ws_iq_bench_head *h, size_t nn,
			    const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, size_t nsizes);

/* The JSON of nn nodes: "rows" (each with "node": 1..nn and "format"), and with agg an
 * "aggregate" object beside them: nodes, samples, format, "write" and "read" figures of
 * the first size, and "by_size" with the same for every size; trials as ws_iq_bench_json,
 * laid out as trial_out of ws_iq_bench_run_many. */
void ws_iq_bench_json_many(FILE *f, const ws_iq_bench_head *h, size_t nn,
			   const ws_iq_bench_row *rows, const ws_iq_bench_row *agg, size_t nsizes,
			   const ws_iq_bench_trial *trials);

#endif
