/* SPDX-License-Identifier: BSD-2-Clause */
/* iqnode: the nodes of a `warpspeed iq` command: the NODE check, opening and closing one or
 * all of them, and -v's transport counters; see iqnode.c. */
#ifndef WS_CLI_IQNODE_H
#define WS_CLI_IQNODE_H

#include "cli/iqopts.h"

#include <warpspeed/iq.h>

#include <stddef.h>

/* Opens the first NODE (o->cfg) into *n: 0, or 1 after the message. */
int ws_cli_iq_open_node(const ws_cli_iq_opts *o, ws_iq_node **n);

/* 0 when cmd has the NODEs it takes (one, or several for read, write and bench), else 2
 * after the message. */
int ws_cli_iq_need_node(const ws_cli_iq_opts *o, const char *cmd);

/* Opens every NODE of the list into n[0..nnodes): 0, or 1 after the message with none left
 * open. */
int ws_cli_iq_open_nodes(const ws_cli_iq_opts *o, ws_iq_node **n);

void ws_cli_iq_close_nodes(ws_iq_node **n, size_t nn);

/* -v: the transport's counters, junk and duplicates included, on stderr. */
void ws_cli_iq_print_stats(ws_iq_node *n);

/* -v 2: the handle's windows over time and what their bounds cost, on stderr. */
void ws_cli_iq_print_windows(ws_iq_node *n);

#endif
