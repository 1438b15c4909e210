/* SPDX-License-Identifier: BSD-2-Clause */
/* classic: netperf's classic human output for the TCP STREAM family and UDP_STREAM, and
 * the entry point and shared pieces (banner, CPU columns) of the RR layouts (classic_rr.h).
 *
 * Scripts in the wild scrape netperf's tables by column position, so the layouts here
 * reproduce netperf's own exactly, trailing blanks included; the banner is
 * netperf 2.7.0's as Debian ships it (tests/goldens/netperf: "MIGRATED ...", " : demo"),
 * and the only deliberate difference is that its address parentheses are filled in. TCP_STREAM,
 * TCP_SENDFILE and TCP_MAERTS share one layout: the columns are defined by which side
 * sent and which received, so MAERTS is the same table with the roles swapped.
 * UDP_STREAM has netperf's two-row table: the local sender's row (socket size, message
 * size, elapsed, datagrams sent, errors, send rate) and the remote receiver's (socket size,
 * elapsed, datagrams received, receive rate), each over its own interval. The renderer
 * writes only to the FILE it is given. */
#ifndef WS_REPORT_CLASSIC_H
#define WS_REPORT_CLASSIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/result.h"

struct ws_err;
struct ws_confidence;

/* What the user asked for on the command line that shapes the output. */
typedef struct ws_classic_opts {
	bool print_headers; /* -P 1 (default): banner and column headers */
	int verbosity;      /* -v: 0 figure of merit only, 1 table (default), 2 table + detail */
	char fmt;           /* -f: G M K g m k; 0 means the default 'm' (RR: 'x' or 0 = trans/s) */
	bool local_cpu;     /* -c given */
	bool remote_cpu;    /* -C given */
	const char *brand;  /* -B, printed after the -v 0 figure; NULL = none */
	bool cpu_bind;      /* -T given: the banner ends " : cpu bind" */
	/* -i/-I (measure/confidence.h; NULL = not asked): the banner adds netperf's
	 * " : +/-W% @ L% conf. " (ws_classic_banner_conf) when conf->asked and more than one
	 * iteration may run. */
	const struct ws_confidence *conf;
	bool omni;        /* -t omni: OMNI banners, output selectors by default */
	bool banner_done; /* the banner went out before the test (-D): do not repeat it */
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

/* The banner line shared by every layout, as netperf 2.7.0 (Debian's build) prints it:
 * "<title> from <local> (<local>) port <lport> <AF> to <host> (<addr>) port <rport> <AF>"
 * then, in netperf's order: the confidence suffix (o->conf, ws_classic_banner_conf),
 * " : nodelay" (spec.nodelay), " : demo" (always: Debian's netperf is built with demo
 * support and prints it on every banner), suffix (NULL = none: the test's own decoration,
 * " : first burst N" for the migrated RR tests), " : cpu bind" (-T). The ports are the
 * data ports given with -- -P (0 when not given). The one difference from netperf: the
 * remote address inside the parentheses is filled in. */
void ws_classic_banner(const ws_test_result *r, const char *title, const char *suffix,
		       const ws_classic_opts *o, FILE *out);

/* The banner of r's own test (ws_classic_title, and " : first burst N" for the migrated
 * TCP_RR and UDP_RR), as the classic tables and the output selectors print it. */
void ws_classic_test_banner(const ws_test_result *r, const ws_classic_opts *o, FILE *out);

/* The confidence decoration netperf puts in the banner, " : +/-2.500% @ 99% conf. "
 * (half the -I width, the level), into buf; "" when conf is NULL, not asked, or at most
 * one iteration can run. Returns the length written. */
int ws_classic_banner_conf(const struct ws_confidence *conf, char *buf, size_t n);

/* The banner title of r's test as netperf prints it ("MIGRATED TCP STREAM TEST",
 * "TCP SENDFILE TEST", and with o->omni "OMNI Send TEST", "OMNI Receive TEST",
 * "OMNI Send|Recv TEST"); NULL for a test without one. */
const char *ws_classic_title(const ws_test_result *r, const ws_classic_opts *o);

/* One side's CPU columns: util and sd -1 for a side not requested or not measured, as
 * netperf prints them; method is the side's letter ('S' when unset). */
typedef struct ws_classic_cpu {
	double util, sd;
	char method;
} ws_classic_cpu;

/* The side's utilisation and its service demand over its own interval: CPU microseconds
 * per (units / unit_bytes), i.e. us/KB for bytes with 1024, us/Tr for transactions with 1. */
ws_classic_cpu ws_classic_side_cpu(const ws_side_result *side, bool requested, uint64_t units,
				   double unit_bytes);
/* The side whose units and interval a side's service demand is charged with: the local
 * side for a netserver's (sd_local_basis, netperf's rule), else the side itself. */
const ws_side_result *ws_classic_sd_basis(const ws_test_result *r, const ws_side_result *side);
/* ws_classic_side_cpu over another interval (the basis side's). */
ws_classic_cpu ws_classic_side_cpu_over(const ws_side_result *side, bool requested, uint64_t units,
					double unit_bytes, int64_t elapsed_ns);

/* Render r as netperf's TCP_STREAM/TCP_MAERTS/TCP_SENDFILE or UDP_STREAM output to out (o
 * NULL = the defaults). Verbosity 2 adds, for the TCP family, netperf's alignment/bytes
 * per call/MSS block (not its histogram), then for every test warpspeed's lines: the I/O
 * path each side ran (and why a requested one fell back), zerocopy counts, TCP_INFO per
 * side, and UDP's lost/reordered/duplicated/bad counts. Returns 0; -WS_E_INVAL with err
 * naming the problem for a test type without a layout here or an unknown fmt letter
 * (nothing is written then); or a negative errno when writing to out fails. TCP_RR,
 * UDP_RR and TCP_CRR are rendered by report/classic_rr.h (same contract). */
int ws_classic_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
		      struct ws_err *err);

/* The same into a heap string *text (NUL-terminated, caller frees) for tests and for
 * callers that post-process the text. On error *text is NULL. */
int ws_classic_render_string(const ws_test_result *r, const ws_classic_opts *o, char **text,
			     struct ws_err *err);

/* Warnings for people (the CLI prints them on stderr, never on stdout): a socket buffer
 * the kernel clamped below the request on either side (naming the sysctl to raise), and
 * for UDP_STREAM datagrams lost (with the reordered and duplicated counts) or ignored as
 * malformed; for the RR family classic_rr.h's warnings. One line each, starting
 * "PROG: warning: " (prog: the name the program was called by). Returns how many lines were
 * written (0 when all is well), or a negative errno when writing fails or r/out is NULL. */
int ws_classic_warnings(const ws_test_result *r, const char *prog, FILE *out);

#endif
