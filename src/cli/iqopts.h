/* SPDX-License-Identifier: BSD-2-Clause */
/* iqopts: the command line of `warpspeed iq`, parsed into one options record.
 *
 * The IQ role's commands (cli/iq.c) only open nodes, move samples and print; what a
 * command line means, every value's check and the usage text live here, so each can be
 * read on its own. Bad values are printed here as one line naming the option, the value
 * and what is accepted. */
#ifndef WS_CLI_IQOPTS_H
#define WS_CLI_IQOPTS_H

#include <warpspeed/iq.h>

#include "cli/words.h"
#include "iq/host/iqfile.h"

#include <stddef.h>
#include <stdint.h>

#define WS_CLI_IQ_MAX_SIZES 64

typedef struct ws_cli_iq_opts {
	ws_iq_config cfg;
	char addr[64]; /* the first NODE's address (cfg.addr, cfg.port) */
	int have_node;
	size_t nnodes; /* NODE,NODE,...: read, write and bench take several */
	char node_addr[WS_IQ_MANY_MAX][64];
	int node_port[WS_IQ_MANY_MAX];
	const char *format; /* --format as given ("raw" only for bench) */
	unsigned rf;
	uint32_t samples, start;
	int have_samples;
	const char *out, *in, *bcast, *json_file;
	const char *svg;       /* bench --svg FILE: the chart (report/charts.h) */
	int reference_warplab; /* bench --reference warplab */
	double link_mbps;      /* bench --link MBPS: the ceiling line; 0 = --write-rate's */
	ws_iqfile_kind kind;
	int sigmf_cf32;
	int trials, json, count, verbose;
	int quiet; /* --quiet: no progress line (cli/progress.h) */
	uint32_t sizes[WS_CLI_IQ_MAX_SIZES];
	size_t nsizes;
	uint32_t ids;
	unsigned tx_en, rx_en;
} ws_cli_iq_opts;

/* argv (argv[0] is the command: info, read, ...) into *o: 0, 2 after a usage error
 * printed on stderr, or 3 for -h. */
int ws_cli_iq_parse(int argc, char **argv, ws_cli_iq_opts *o);

/* The usage text of `warpspeed iq -h` (every command). */
const char *ws_cli_iq_usage(void);

/* The text of `warpspeed iq CMD -h` (NULL for an unknown CMD); the transport options every
 * command takes follow it (ws_cli_iq_transport_usage). */
const char *ws_cli_iq_usage_of(const char *cmd);
const char *ws_cli_iq_transport_usage(void);

/* The i-th command's name (info, ping, ...; NULL past the last), and the option words of
 * command cmd (those its help names), for completion (cli/words.h). */
const char *ws_cli_iq_command(size_t i);
void ws_cli_iq_words(const char *cmd, ws_cli_word_fn fn, void *ctx);

/* "warpspeed iq" and the command once ws_cli_iq_parse has seen it ("warpspeed iq bench"):
 * the prefix of the role's messages. */
const char *ws_cli_iq_prog(void);

/* Prints "warpspeed iq[ CMD]: WHAT 'VAL' is not valid (ACCEPTED)" on stderr; returns 2. */
int ws_cli_iq_bad(const char *what, const char *val, const char *accepted);

#endif
