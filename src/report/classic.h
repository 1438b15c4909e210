/* classic: netperf's classic human output for the TCP STREAM family, byte for byte.
 *
 * Scripts in the wild scrape netperf's tables by column position, so the layouts here
 * reproduce reference/netperf-outputs.md exactly, trailing blanks included; the only
 * deliberate differences are that the banner's address parentheses are filled in and the
 * "MIGRATED" / " : histogram : interval : demo" decorations are gone. TCP_STREAM,
 * TCP_SENDFILE and TCP_MAERTS share one layout: the columns are defined by which side
 * sent and which received, so MAERTS is the same table with the roles swapped. The
 * renderer writes only to the FILE it is given. */
#ifndef WS_REPORT_CLASSIC_H
#define WS_REPORT_CLASSIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ctl/spec.h"

struct ws_err;

/* What the user asked for on the command line that shapes the output. */
typedef struct ws_classic_opts {
	bool print_headers; /* -P 1 (default): banner and column headers */
	int verbosity;      /* -v: 0 figure of merit only, 1 table (default), 2 table + detail */
	char fmt;           /* -f: G M K g m k; 0 means the default 'm' */
	bool local_cpu;     /* -c given */
	bool remote_cpu;    /* -C given */
	const char *brand;  /* -B, printed after the -v 0 figure; NULL = none */
	bool cpu_bind;      /* -T given: the banner ends " : cpu bind" */
} ws_classic_opts;

/* netperf's defaults: headers on, verbosity 1, 'm', no CPU, no brand, no binding. */
void ws_classic_opts_init(ws_classic_opts *o);

/* Throughput of bytes moved in elapsed_ns in the unit of -f letter fmt (0 = 'm'):
 * g/m/k are 10^9/10^6/10^3 bits per second, G/M/K are 2^30/2^20/2^10 bytes per second.
 * Returns 0 when elapsed_ns <= 0 or fmt is not one of those letters. */
double ws_classic_throughput(uint64_t bytes, int64_t elapsed_ns, char fmt);

/* The unit name netperf prints for fmt, without the per-time suffix: "10^9bits",
 * "10^6bits", "10^3bits", "GBytes", "MBytes", "KBytes" (callers append "/s" or "/sec" as
 * their layout does). fmt 0 means 'm'. Returns NULL for any other letter. */
const char *ws_classic_units_label(char fmt);

/* Render r as netperf's TCP_STREAM/TCP_MAERTS/TCP_SENDFILE output to out (o NULL = the
 * defaults). Returns 0; -WS_E_INVAL with err naming the problem for a test type outside
 * the stream family or an unknown fmt letter (nothing is written then); or a negative
 * errno when writing to out fails. */
int ws_classic_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
		      struct ws_err *err);

/* The same into a heap string *text (NUL-terminated, caller frees) for tests and for
 * callers that post-process the text. On error *text is NULL. */
int ws_classic_render_string(const ws_test_result *r, const ws_classic_opts *o, char **text,
			     struct ws_err *err);

#endif
