/* SPDX-License-Identifier: BSD-2-Clause */
/* conntest: netperf's test option -c, "this is a connection test". netperf 2.7.0 takes it
 * on its migrated TCP tests and then opens a connection per message or transaction: TCP_RR
 * becomes TCP_CRR under TCP_RR's banner, TCP_STREAM sends one message per connection and
 * TCP_MAERTS receives one, and -t omni without -d becomes TCP_CC ("OMNI Connection TEST").
 * warpspeed runs all of these on its TCP_CRR engines: the CLI keeps the test the user
 * named in its options (the banner, the headers, the output lists), runs the TCP_CRR spec
 * made here (a stream's message is the request or the response, the other half empty),
 * and turns the result back into the named test before anything is printed. */
#ifndef WS_CLI_CONNTEST_H
#define WS_CLI_CONNTEST_H

#include "cli/options.h"

struct ws_err;

/* Test option -c: recorded as given (ws_cli_given); the work is done below. */
int ws_cli_topt_conntest(ws_cli_options *o, const char *val, struct ws_err *err);

/* After -t omni's mapping: -c on a test netperf cannot run as a connection test (UDP, the
 * unmigrated TCP_SENDFILE and TCP_MSS) is refused naming the tests it applies to. */
int ws_cli_conn_finalize(const ws_cli_options *o, struct ws_err *err);

/* The spec to run: o->spec, or with -c on TCP_RR, TCP_STREAM or TCP_MAERTS its TCP_CRR
 * form. Returns true when it differs from o->spec. */
bool ws_cli_conn_spec(const ws_cli_options *o, ws_test_spec *run);

/* A result of the spec ws_cli_conn_spec made, as the test the user named. */
void ws_cli_conn_view(const ws_cli_options *o, ws_test_result *r);

#endif
