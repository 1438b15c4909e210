/* SPDX-License-Identifier: BSD-2-Clause */
/* globalopts: netperf's global options (before --): the control connection (-H -L -p -4
 * -6 -Z), the test and its length (-t -l), CPU measurement and binding (-c -C -T -n), the
 * output (-P -v -f -B), the fill file (-F), interim results (-D) and confidence intervals
 * (-i -I -r). Each handler reads one value into the options record with a message naming
 * the value and what is accepted; options.c's tables map the letters to them (test
 * options: testopts.h, harness options: harnessopts.h). */
#ifndef WS_CLI_GLOBALOPTS_H
#define WS_CLI_GLOBALOPTS_H

#include "cli/options.h"

struct ws_err;

int ws_cli_gopt_remote_host(ws_cli_options *o, const char *val, struct ws_err *err); /* -H */
int ws_cli_gopt_local_host(ws_cli_options *o, const char *val, struct ws_err *err);  /* -L */
int ws_cli_gopt_ctl_port(ws_cli_options *o, const char *val, struct ws_err *err);    /* -p */
int ws_cli_gopt_test(ws_cli_options *o, const char *val, struct ws_err *err);        /* -t */
int ws_cli_gopt_length(ws_cli_options *o, const char *val, struct ws_err *err);      /* -l */
int ws_cli_gopt_local_cpu(ws_cli_options *o, const char *val, struct ws_err *err);   /* -c */
int ws_cli_gopt_remote_cpu(ws_cli_options *o, const char *val, struct ws_err *err);  /* -C */
int ws_cli_gopt_headers(ws_cli_options *o, const char *val, struct ws_err *err);     /* -P */
int ws_cli_gopt_verbosity(ws_cli_options *o, const char *val, struct ws_err *err);   /* -v */
int ws_cli_gopt_format(ws_cli_options *o, const char *val, struct ws_err *err);      /* -f */
int ws_cli_gopt_cpu_bind(ws_cli_options *o, const char *val, struct ws_err *err);    /* -T */
int ws_cli_gopt_inet4(ws_cli_options *o, const char *val, struct ws_err *err);       /* -4 */
int ws_cli_gopt_inet6(ws_cli_options *o, const char *val, struct ws_err *err);       /* -6 */
int ws_cli_gopt_passphrase(ws_cli_options *o, const char *val, struct ws_err *err);  /* -Z */
int ws_cli_gopt_brand(ws_cli_options *o, const char *val, struct ws_err *err);       /* -B */
int ws_cli_gopt_fill_file(ws_cli_options *o, const char *val, struct ws_err *err);   /* -F */
int ws_cli_gopt_ncpus(ws_cli_options *o, const char *val, struct ws_err *err);       /* -n */
int ws_cli_gopt_demo(ws_cli_options *o, const char *val, struct ws_err *err);        /* -D */
int ws_cli_gopt_iterations(ws_cli_options *o, const char *val, struct ws_err *err);  /* -i */
int ws_cli_gopt_conf_level(ws_cli_options *o, const char *val, struct ws_err *err);  /* -I */
int ws_cli_gopt_result_only(ws_cli_options *o, const char *val, struct ws_err *err); /* -r */

#endif
