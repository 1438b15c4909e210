/* SPDX-License-Identifier: BSD-2-Clause */
/* outopts: the options that choose netperf's output forms and its general "omni" test:
 * test options -o/-O/-k [list|file|all|?], -d send|recv|rr and -T tcp|udp (with -t omni),
 * and the global -j. The letter tables in options.c point at these handlers; the lists
 * themselves are parsed by report/outputs.h when the client prints, so that a bad
 * selection is reported exactly as netperf does (its own message on stdout, exit 255). */
#ifndef WS_CLI_OUTOPTS_H
#define WS_CLI_OUTOPTS_H

#include "cli/options.h"

struct ws_err;

int ws_cli_topt_csv(ws_cli_options *o, const char *val, struct ws_err *err);       /* -o */
int ws_cli_topt_human(ws_cli_options *o, const char *val, struct ws_err *err);     /* -O */
int ws_cli_topt_keyval(ws_cli_options *o, const char *val, struct ws_err *err);    /* -k */
int ws_cli_topt_direction(ws_cli_options *o, const char *val, struct ws_err *err); /* -d */
int ws_cli_topt_uuid(ws_cli_options *o, const char *val, struct ws_err *err);      /* -u */
int ws_cli_topt_protocol(ws_cli_options *o, const char *val, struct ws_err *err);  /* -T */
int ws_cli_opt_histogram(ws_cli_options *o, const char *val, struct ws_err *err);  /* -j */

/* -t omni: true when name is "omni" (any case); the test is then chosen by -d and -T. */
bool ws_cli_is_omni(const char *name);

/* After all options: with -t omni, map -d/-T onto a warpspeed test (send: TCP_STREAM or
 * UDP_STREAM, recv: TCP_MAERTS, rr: TCP_RR or UDP_RR); -d or -T without -t omni is an
 * error. Returns 0 or -WS_E_INVAL naming the combination. */
int ws_cli_omni_finalize(ws_cli_options *o, struct ws_err *err);

#endif
