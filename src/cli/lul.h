/* SPDX-License-Identifier: BSD-2-Clause */
/* lul: the client's RRUL run (-t RRUL, -t RRUL_BE; --up, --down, --probes,
 * --probe-interval, --delay): checks its options before any work, runs it against a warpspeed
 * daemon, prints the -D lines as the series grow and then the Flent-style summary or the
 * JSON document, also when the run ended early (what was measured, and why it stopped). */
#ifndef WS_CLI_LUL_H
#define WS_CLI_LUL_H

#include "cli/options.h"

struct ws_flent_meta;

/* The whole run; returns the exit status (2 for a bad option, 1 for a failed run). */
int ws_cli_lul_main(ws_cli_options *o, int argc, char **argv);

/* The long options' handlers (cli/longopts.c's table). */
struct ws_err;
int ws_cli_lopt_up(ws_cli_options *o, const char *val, struct ws_err *err);
int ws_cli_lopt_down(ws_cli_options *o, const char *val, struct ws_err *err);
int ws_cli_lopt_probes(ws_cli_options *o, const char *val, struct ws_err *err);
int ws_cli_lopt_probe_interval(ws_cli_options *o, const char *val, struct ws_err *err);
int ws_cli_lopt_delay(ws_cli_options *o, const char *val, struct ws_err *err);
/* --flent FILE: the run as a Flent data file (report/flent.h), checked before any work. */
/* Shared with cli/rpm.c. Before the run: o->flent's metadata under Flent's test name can be
 * written (its path is cli/outfiles.h's); 0, or a negative code with err naming --flent. */
struct ws_series_set;
int ws_cli_flent_check(const ws_cli_options *o, const char *name, struct ws_err *err);
/* After the run: set as o->flent under Flent's test name, with the file's title and note
 * (NULL: none); 0, or -1 with the reason printed. */
int ws_cli_flent_write(const ws_cli_options *o, const char *name, const struct ws_series_set *set,
		       const char *title, const char *note);
int ws_cli_lopt_flent(ws_cli_options *o, const char *val, struct ws_err *err);

/* In the final checks: --up/--down/--probes/--probe-interval/--delay belong to RRUL, and RRUL
 * takes no -i, --streams, --sweep or --repeat. 0 or -WS_E_INVAL naming the option. */
int ws_cli_lul_check(const ws_cli_options *o, struct ws_err *err);

#endif
