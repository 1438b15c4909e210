/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs: netperf's omni output selectors (-- -o / -O / -k), as one table.
 *
 * Harnesses drive netperf through its output selectors: a CSV header and value line
 * (-o), aligned columns with netperf's four-line wrapped headers (-O), or NAME=value
 * lines (-k). They parse those by name, so the names, the human headers and the value
 * formats here are netperf 2.7.0's (goldens tcp_rr_o_all.txt, tcp_rr_O_all.txt and
 * tcp_rr_k_all.txt), in netperf's order (omni_O_names.txt), including the sentinel
 * values netperf prints for figures it does not know (-1, 0xffffffff, "Deprecated", ...).
 * warpspeed's own names (P99_9_LATENCY, P99_99_LATENCY, STREAMS, FAIRNESS, the I/O path,
 * per-thread CPU) follow netperf's list after OUTPUT_END, so that "all" and "?" are
 * exactly netperf's. Every printer (these three, JSON) reads a value through the same
 * getter, so no two outputs disagree on a figure.
 *
 * The table lives in outputs_table.c; the selection parser and the three printers in
 * outputs.c. Library code: nothing here prints except to the FILE it is given. */
#ifndef WS_REPORT_OUTPUTS_H
#define WS_REPORT_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "measure/confidence.h"
#include "measure/latency.h"
#include "model/result.h"

struct ws_err;

/* Everything a getter may read. Only r is required; the rest may be NULL/0. */
typedef struct ws_report_ctx {
	const ws_test_result *r;
	const ws_confidence *conf;            /* NULL: no -i/-I (netperf's "not asked" values) */
	const char *command_line;             /* NULL: "" (COMMAND_LINE) */
	const ws_latency_stats *lat;          /* NULL: computed from r->local.latency when needed */
	const char *brand;                    /* -B; NULL: RESULT_BRAND has no value, as netperf */
	const char *uuid;                     /* test UUID; NULL: "" */
	const char *local_cong, *remote_cong; /* TCP congestion control in use; NULL: "" */
	char fmt;                   /* -f letter; 0 = the test's default (m, or x for RR) */
	bool local_cpu, remote_cpu; /* -c / -C given */
	bool omni;                  /* -t omni (netperf reports its socket type as "Stream") */
	/* Latency statistics wanted: -j, or a latency name selected by a list or "all" (as
	 * netperf, which computes MIN_LATENCY .. STDDEV_LATENCY only then and prints -1
	 * otherwise, e.g. for names read from a selection file without -j). ws_out_print
	 * turns it on for a selection that wants them; JSON sets it. */
	bool want_stats;
} ws_report_ctx;

/* A value as the getter produced it. NONE is netperf's "no display value": -k skips the
 * name, -o leaves the field empty, -O leaves the column blank. */
enum ws_out_kind {
	WS_OUT_V_NONE,
	WS_OUT_V_INT,    /* i, printed with the entry's format ("%d", "0x%.2x", ...) */
	WS_OUT_V_UINT,   /* u */
	WS_OUT_V_DOUBLE, /* d */
	WS_OUT_V_STR,    /* s (never NULL) */
	WS_OUT_V_CHAR,   /* c: a single letter such as the CPU method */
};

typedef struct ws_out_value {
	enum ws_out_kind kind;
	int64_t i;
	uint64_t u;
	double d;
	const char *s;
	char c;
	char buf[64]; /* storage for s when the getter builds a string */
} ws_out_value;

typedef void (*ws_out_getter)(const ws_report_ctx *c, ws_out_value *v);

/* One output name. */
typedef struct ws_out_name {
	const char *name;    /* "THROUGHPUT" (matched case-insensitively) */
	const char *line[4]; /* the human header, netperf's four lines ("" when unused) */
	const char *unit;    /* the value's unit for machine readers ("" when none) */
	const char *format;  /* printf format of the value (netperf's) */
	ws_out_getter get;   /* NULL: never has a value (OUTPUT_NONE's " " is a string) */
	bool warpspeed;      /* a warpspeed addition, not in netperf 2.7 */
} ws_out_name;

/* The table, in netperf's order (OUTPUT_NONE first, netperf's names, OUTPUT_END), then
 * warpspeed's additions after OUTPUT_END (so "all" and "?" stay netperf's). */
size_t ws_out_count(void);
const ws_out_name *ws_out_at(size_t i); /* NULL when i >= ws_out_count() */
/* Index of a name (case-insensitive), or -1. */
int ws_out_find(const char *name);
/* Index of a name, or of a human header joined with single spaces ("Throughput Units"),
 * as netperf matches the names in a selection file; -1 when neither. */
int ws_out_find_name_or_header(const char *text);

/* The value of entry e for c (v->kind NONE when it has none), and its text in the
 * entry's format into buf (returns the length; buf is "" for NONE). */
void ws_out_value_of(const ws_out_name *e, const ws_report_ctx *c, ws_out_value *v);
int ws_out_format_value(const ws_out_name *e, const ws_out_value *v, char *buf, size_t n);
/* The value of the entry named name for c as a number; NAN when it has none or is text. */
double ws_out_number(const ws_report_ctx *c, const char *name);

/* ---- selections ----------------------------------------------------------------------- */

#define WS_OUT_MAX_BLOCKS    4 /* netperf's output blocks (lines of a -O table) */
#define WS_OUT_MAX_PER_BLOCK 256

typedef enum ws_out_mode {
	WS_OUT_MODE_NONE = 0, /* classic tables */
	WS_OUT_MODE_CSV,      /* -o */
	WS_OUT_MODE_HUMAN,    /* -O */
	WS_OUT_MODE_KEYVAL,   /* -k */
} ws_out_mode;

typedef struct ws_out_selection {
	uint16_t ids[WS_OUT_MAX_BLOCKS][WS_OUT_MAX_PER_BLOCK]; /* indexes into the table */
	uint16_t n[WS_OUT_MAX_BLOCKS];
	bool list_names; /* "?": print the names (ws_out_print_names) and exit */
	bool want_stats; /* a latency name came from a list or "all" (see want_stats) */
} ws_out_selection;

/* Parse a selector as netperf does: "all"; "?"; a list of names separated by ',' (or
 * blanks), blocks separated by ';'; a single name; otherwise the path of a file holding
 * names or headers separated by ',' with one block per line (at most 4 lines). Unknown
 * names in a list are skipped, as netperf does. spec NULL or "" selects nothing (the
 * caller then uses ws_out_select_default). Errors: a file that cannot be opened gives
 * -WS_E_INVAL with err reading exactly netperf's "Could not open output selection file
 * 'X' errno N", and the caller prints it on stdout and exits 255 as netperf does. */
int ws_out_parse_selection(const char *spec, ws_out_selection *sel, struct ws_err *err);

/* netperf's selection when -o/-O/-k is given without a list: by direction (send, recv,
 * request/response) and with the CPU names when -c or -C was given. */
void ws_out_select_default(const ws_test_spec *s, bool cpu, ws_out_selection *sel);

/* Print the selected values in mode (CSV, HUMAN or KEYVAL). headers false (-P 0) drops
 * the header line(s) of CSV and HUMAN. Returns 0 or a negative errno when writing fails. */
int ws_out_print(const ws_out_selection *sel, ws_out_mode mode, bool headers,
		 const ws_report_ctx *c, FILE *out);

/* "?": every netperf name, one per line, OUTPUT_NONE to OUTPUT_END, exactly netperf's
 * `-O ?` (omni_O_names.txt) on out; warpspeed's additions go to extra (NULL = not at all),
 * one per line after a heading, so that out stays identical to netperf's list. */
int ws_out_print_names(FILE *out, FILE *extra);

#endif
