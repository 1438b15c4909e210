/* SPDX-License-Identifier: BSD-2-Clause */
/* harnessopts: the netperf options that benchmark harnesses pass and that warpspeed once
 * refused: global -Y -y -s -S -a -A -b -w (and the ones that mean nothing on Linux: -W,
 * offsets -o/-O, dirty counts -k/-K, -d), test options -K -C -G -H -L, and warpspeed's
 * UDP_STREAM sending modes --pace and --flow-control. The handlers fill the spec (the
 * workload and the daemon apply it) or, for an option that is accepted without effect,
 * record a note that the CLI prints on stderr: harnesses keep running, people are told. */
#ifndef WS_CLI_HARNESSOPTS_H
#define WS_CLI_HARNESSOPTS_H

#include "cli/options.h"

#include <stdio.h>

struct ws_err;

/* Global options. */
int ws_cli_opt_tos(ws_cli_options *o, const char *val, struct ws_err *err);       /* -Y */
int ws_cli_opt_priority(ws_cli_options *o, const char *val, struct ws_err *err);  /* -y */
int ws_cli_opt_wait(ws_cli_options *o, const char *val, struct ws_err *err);      /* -s */
int ws_cli_opt_keepalive(ws_cli_options *o, const char *val, struct ws_err *err); /* -S */
int ws_cli_opt_align(ws_cli_options *o, const char *val, struct ws_err *err);     /* -a -A */
int ws_cli_opt_burst(ws_cli_options *o, const char *val, struct ws_err *err);     /* -b */
int ws_cli_opt_interval(ws_cli_options *o, const char *val, struct ws_err *err);  /* -w */
int ws_cli_opt_width(ws_cli_options *o, const char *val, struct ws_err *err);     /* -W */
int ws_cli_opt_offset(ws_cli_options *o, const char *val, struct ws_err *err);    /* -o -O */
int ws_cli_opt_dirty(ws_cli_options *o, const char *val, struct ws_err *err);     /* -k -K */
int ws_cli_opt_debug(ws_cli_options *o, const char *val, struct ws_err *err);     /* -d */

/* Test options (after --). */
int ws_cli_topt_cong(ws_cli_options *o, const char *val, struct ws_err *err);       /* -K */
int ws_cli_topt_cork(ws_cli_options *o, const char *val, struct ws_err *err);       /* -C */
int ws_cli_topt_maxseg(ws_cli_options *o, const char *val, struct ws_err *err);     /* -G */
int ws_cli_topt_data_host(ws_cli_options *o, const char *val, struct ws_err *err);  /* -H */
int ws_cli_topt_data_local(ws_cli_options *o, const char *val, struct ws_err *err); /* -L */

/* warpspeed's long options. */
int ws_cli_lopt_pace(ws_cli_options *o, const char *val, struct ws_err *err); /* --pace */
int ws_cli_lopt_flow_control(ws_cli_options *o, const char *val,
			     struct ws_err *err); /* --flow-control */

/* Parse a rate in bits/s: a number with an optional k, m, g or t (10^3 .. 10^12, either
 * case), e.g. "900m", "2.5g". Returns 0 or an error naming the value. */
int ws_cli_parse_bitrate(const char *s, double *bps, struct ws_err *err);

/* Checks that need the whole line (called by finalize, after cli/applies.c's table): -f x
 * on a stream test falls back to 10^6bits/s as netperf's does; the data addresses' family
 * agrees with -4/-6; -S on a UDP test gets a note. */
int ws_cli_harness_finalize(ws_cli_options *o, struct ws_err *err);

/* Append one note (a line without "warpspeed: note: ") for the CLI to print. */
void ws_cli_add_note(ws_cli_options *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print the notes, one "warpspeed: note: ..." line each. */
void ws_cli_print_notes(const ws_cli_options *o, FILE *out);

#endif
