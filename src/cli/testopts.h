/* SPDX-License-Identifier: BSD-2-Clause */
/* testopts: netperf's test options (after --) that size and shape a test: -s/-S socket
 * buffers, -m/-M message sizes, -P data ports, -D TCP_NODELAY, -r request and response
 * sizes, -b the first burst, -e UDP_RR's receive timeout, -t the socket type. Each handler reads one value
 * into the spec with a message naming the value and what is accepted; options.c's test
 * table maps the letters to them (harness options: harnessopts.h). */
#ifndef WS_CLI_TESTOPTS_H
#define WS_CLI_TESTOPTS_H

#include "cli/options.h"

struct ws_err;

int ws_cli_topt_local_bufs(ws_cli_options *o, const char *val, struct ws_err *err);    /* -s */
int ws_cli_topt_remote_bufs(ws_cli_options *o, const char *val, struct ws_err *err);   /* -S */
int ws_cli_topt_send_size(ws_cli_options *o, const char *val, struct ws_err *err);     /* -m */
int ws_cli_topt_recv_size(ws_cli_options *o, const char *val, struct ws_err *err);     /* -M */
int ws_cli_topt_udp_connected(ws_cli_options *o, const char *val, struct ws_err *err); /* -n, -N */
int ws_cli_topt_nodelay(ws_cli_options *o, const char *val, struct ws_err *err);       /* -D */
int ws_cli_topt_data_ports(ws_cli_options *o, const char *val, struct ws_err *err);    /* -P */
int ws_cli_topt_rr_sizes(ws_cli_options *o, const char *val, struct ws_err *err);      /* -r */
int ws_cli_topt_routing(ws_cli_options *o, const char *val, struct ws_err *err);       /* -R */
int ws_cli_topt_burst(ws_cli_options *o, const char *val, struct ws_err *err);         /* -b */
int ws_cli_topt_rr_timeout(ws_cli_options *o, const char *val, struct ws_err *err);    /* -e */
int ws_cli_topt_socktype(ws_cli_options *o, const char *val, struct ws_err *err);      /* -t */
int ws_cli_topt_port_range(ws_cli_options *o, const char *val, struct ws_err *err);    /* -p */

/* Once the test is known (after -t omni's -d/-T): -t stream|dgram must name the test's
 * socket type, -p's range goes to TCP_CRR/TCP_CC's connections, and -m/-M pairs set the size of the end that sends (receives), with a note
 * for a half that names the other end. 0 or -WS_E_INVAL naming the value. */
int ws_cli_topt_finalize(ws_cli_options *o, struct ws_err *err);

#endif
