/* SPDX-License-Identifier: BSD-2-Clause */
/* outprint: the client's output-selector printing (-o/-O/-k, -t omni): check the selection
 * before the test runs, then print the banner and the selected values after it. */
#ifndef WS_CLI_OUTPRINT_H
#define WS_CLI_OUTPRINT_H

#include "cli/options.h"
#include "report/outputs.h"

#include <stdbool.h>
#include <stdio.h>

/* Before the test. Returns false when the client is done already (*status is its exit
 * status): "?" lists the names (exit 1, as netperf's -O ?), and a selection netperf would
 * refuse prints netperf's message on stdout (exit 255). true: run the test; *sel holds the
 * selection (mode 0 when the classic table is wanted). */
bool ws_cli_output_prepare(const ws_cli_options *o, ws_out_selection *sel, int *status);

/* After the test: the banner (unless -P 0) and the selected values on stdout. argv is the
 * command line for COMMAND_LINE. Returns 0 or 1 (writing failed, reported on stderr). */
int ws_cli_output_print(const ws_cli_options *o, const ws_out_selection *sel,
			const ws_test_result *res, int argc, char **argv);

/* After the test with --json or --json-lines: the JSON document (or the summary line) on
 * stdout, nothing else. Returns 0 or 1 (writing failed, reported on stderr). */
struct ws_json_interim;
int ws_cli_json_print(const ws_cli_options *o, const ws_test_result *res, int argc, char **argv,
		      const struct ws_json_interim *interim, size_t ninterim);

/* argv joined by spaces into buf (n bytes), cut short to fit: the command line that JSON
 * documents and COMMAND_LINE report. */
void ws_cli_join_argv(int argc, char **argv, char *buf, size_t n);

/* An output file written the one safe way (util/safefile.h: a temporary file beside it,
 * renamed over it on success): fn writes the body to f and returns 0, or a negative code
 * with err set. On any failure nothing replaces path and "OPTION PATH: reason" goes to
 * stderr. Returns 0 or 1 (an exit status). */
typedef int (*ws_cli_write_fn)(FILE *f, const void *ctx, struct ws_err *err);
int ws_cli_write_file(const char *option, const char *path, ws_cli_write_fn fn, const void *ctx);
/* The same without the report, for a caller with its own words ("warpspeed plot: ..."):
 * 0, or a negative code with err saying why (nothing replaced path). */
int ws_cli_file_put(const char *path, ws_cli_write_fn fn, const void *ctx, struct ws_err *err);

/* With --json-file: the --json document into o->json_file (util/safefile.h), whatever
 * stdout shows. Returns 0 or 1 (the file and the reason on stderr). */
int ws_cli_json_file_write(const ws_cli_options *o, const ws_test_result *res, int argc,
			   char **argv, const struct ws_json_interim *interim, size_t ninterim);

/* The same document to f (summary: the one-line "summary" form); 0 or a negative errno.
 * --svg draws from it (cli/svgout.h). */
int ws_cli_json_write(FILE *f, const ws_cli_options *o, const ws_test_result *res, int argc,
		      char **argv, const struct ws_json_interim *interim, size_t ninterim,
		      bool summary);

/* The mode the client prints in: -o/-O/-k, or -O's for -t omni without one; 0 = classic. */
int ws_cli_output_mode(const ws_cli_options *o);

/* --openmetrics FILE's own rule, before any test (its file is checked by cli/outfiles.h):
 * refused with --sweep. 0, or -WS_E_INVAL with err naming the problem. */
int ws_cli_openmetrics_rule(const ws_cli_options *o, struct ws_err *err);
/* The results res[0..n) (n > 1: --repeat's runs) as node_exporter textfile metrics
 * (report/result_om.h) into o->openmetrics, replaced atomically. Returns 0 or 1 after
 * saying why on stderr. */
int ws_cli_openmetrics_write(const ws_cli_options *o, const ws_test_result *res, size_t n, int argc,
			     char **argv);

#endif
