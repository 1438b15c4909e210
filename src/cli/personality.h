/* SPDX-License-Identifier: BSD-2-Clause */
/* personality: warpspeed invoked as `netperf` or `netserver` (a symlink, installed by
 * `make install` unless NETPERF_LINKS=0) behaves as that program, so that harnesses which
 * run those names work with warpspeed installed in their place. `netperf` is the client
 * (the default role anyway); `netserver` takes netserver 2.7's options and, unless -D is
 * given, daemonizes as netserver does. */
#ifndef WS_CLI_PERSONALITY_H
#define WS_CLI_PERSONALITY_H

#include "cli/words.h"

#include <stdbool.h>

/* The personality argv[0] names: "netperf", "netserver" or NULL (warpspeed's own). Only
 * the basename counts, so /usr/local/bin/netserver and ./netserver are the same. */
const char *ws_cli_personality(const char *argv0);

/* The name the program was called by, for its messages: "warpspeed" until main sets
 * "netperf" or "netserver" (ws_cli_set_prog). */
void ws_cli_set_prog(const char *name);
const char *ws_cli_prog(void);
/* The daemon's name in its messages: "netserver" under that personality, else
 * "warpspeed serve". */
const char *ws_cli_serve_prog(void);
/* "<prog>: " and the message on stderr: every CLI error, warning and note. */
void ws_cli_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* netserver's command line turned into `warpspeed serve`'s: -p port, -4, -6, -L
 * name[,family], -Z passphrase carried over; -D sets *foreground; -f, -N, -d and -v n are
 * accepted (warpspeed serves each session on its own thread, never forks, and logs each
 * session whatever the debug level). out must hold argc * 2 + 2 pointers; returns the new
 * argc, 0 after -h/-V (printed, *exit_status set), or -1 after a message on stderr. */
int ws_cli_netserver_args(int argc, char **argv, char **out, bool *foreground, int *exit_status);

/* The `netserver` role: parse, daemonize unless -D, serve. Returns the exit status. */
int ws_cli_netserver_main(int argc, char **argv);

/* netserver's option words, for completion (cli/words.h). */
void ws_cli_netserver_words(ws_cli_word_fn fn, void *ctx);

#endif
