/* SPDX-License-Identifier: BSD-2-Clause */
/* applies: which options apply to which tests, as one table that one function walks.
 *
 * An option the chosen test would silently ignore (an I/O path switch with TCP_RR, -r with
 * TCP_STREAM) is an error instead, so that a result never looks as if it measured
 * something that did not run. Kept apart from the parser because the rule depends on
 * options given in any order, before or after `--`, and is checked once at the end. A few
 * options netperf takes on a test and ignores there (-b on TCP_CC) are accepted the same
 * way, so that a netperf command line runs, each with one note on stderr saying so. */
#ifndef WS_CLI_APPLIES_H
#define WS_CLI_APPLIES_H

#include "cli/options.h"

struct ws_err;

/* 0, or -WS_E_INVAL naming the first option given that does not apply to o->spec.type,
 * the test, and the tests it applies to. */
int ws_cli_check_applies(const ws_cli_options *o, struct ws_err *err);

/* Add one note (ws_cli_add_note) per option given that netperf accepts on o->spec.type and
 * ignores there, as warpspeed does: "-b has no effect on TCP_MSS (netperf ignores it too)". */
void ws_cli_note_ignored(ws_cli_options *o);

#endif
