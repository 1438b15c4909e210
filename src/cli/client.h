/* SPDX-License-Identifier: BSD-2-Clause */
/* client: the 'client' role of the warpspeed binary, and its two halves (run one command
 * line's test, print its result) for the sweep runner (cli/sweeprun.h), which runs them
 * once per point. */
#ifndef WS_CLI_CLIENT_H
#define WS_CLI_CLIENT_H

#include "cli/demo.h"
#include "cli/options.h"
#include "report/outputs.h"
#include "session/client.h"
#include "session/daemon.h"
#include "util/psk.h"

#include <stdbool.h>

struct ws_err;

/* Runs the role; argv[0] is the role name (or the program name for the client).
 * Returns the process exit status: 0 ok, 1 runtime failure, 2 bad usage. */
int ws_cli_client_main(int argc, char **argv);

/* The key from -Z, --psk-file or WARPSPEED_PSK_FILE (*k NULL when none); -Z's argument is
 * overwritten once read. ws_cli_key_free wipes and frees it (NULL is fine). */
int ws_cli_load_key(const ws_cli_options *o, ws_psk **k, struct ws_err *err);
void ws_cli_key_free(ws_psk *key);

/* The client's configuration from o's options (host, ports, --peer, the key, notes at
 * -v 2); the rest stays as ws_client_config_init leaves it. */
void ws_cli_client_config(const ws_cli_options *o, const ws_psk *key, ws_client_config *c);

/* A daemon in this process on 127.0.0.1, an ephemeral port (ws_daemon_port), serving on
 * its own thread: for a default host where nothing listens. NULL with err set. */
ws_daemon *ws_cli_local_daemon(struct ws_err *err);

/* Run o's test (with -i/-I, its iterations) against o's host, or an in-process daemon
 * when the default host has none (its notice printed once: *local_noted). On success *res
 * and *demo hold the result and -D's samples (free both); on failure nothing is left to
 * free and err says why (-WS_E_PEER: an option the netserver cannot honour). */
/* Nothing listens on the default host: serve the test from a daemon in this process, on
 * loopback (note: say so on stderr). As ws_client_run_test. */
struct ws_test_spec;
int ws_cli_run_with_local_daemon(const struct ws_client_config *cfg,
				 const struct ws_test_spec *spec, ws_test_result *res, bool note,
				 struct ws_err *err);

/* The session's configuration from the options: host, ports, key, --peer, notes at -v 2. */
struct ws_client_config;
void ws_cli_client_config(const ws_cli_options *o, const ws_psk *key, struct ws_client_config *cfg);

int ws_cli_client_run(ws_cli_options *o, const ws_psk *key, bool *local_noted, ws_test_result *res,
		      ws_cli_demo *demo, struct ws_err *err);

/* Print a result as o asks (classic table, selectors or --json) on stdout, and the notes
 * and warnings on stderr. headers false drops the banner and the column headers (a sweep's
 * later rows). Returns the exit status (0, or 1 when writing failed). */
int ws_cli_client_report(const ws_cli_options *o, const ws_out_selection *sel,
			 const ws_test_result *res, const ws_cli_demo *demo, bool headers, int argc,
			 char **argv);

/* The notes and warnings about a result on stderr (the last part of the report, which a
 * sweep's --json also wants); reported false: only those that hold when the printing failed. */
void ws_cli_client_warn(const ws_cli_options *o, const ws_test_result *res, bool reported);

#endif
