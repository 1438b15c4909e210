/* SPDX-License-Identifier: BSD-2-Clause */
/* node_thread: a node emulator serving from its own thread, for callers that need a node
 * beside them rather than in front of them.
 *
 * `warpspeed iq bench` without a NODE benchmarks a built-in node on loopback, and so do
 * tests and benchmarks; each used to carry its own create / thread / stop / join code.
 * This module owns that life cycle, so the CLI only parses and prints. It never prints. */
#ifndef WS_IQ_NODE_THREAD_H
#define WS_IQ_NODE_THREAD_H

#include "iq/node/node.h"

#include <stdint.h>

struct ws_err;
typedef struct ws_node_thread ws_node_thread;

/* The built-in node of `iq bench`: the defaults with 127.0.0.1 and an ephemeral port, no
 * broadcast socket, rf RF interfaces (2 or 4), max_payload bytes per datagram, and no reply
 * cap, because it benchmarks this host rather than a board's 1 Gb/s Ethernet. */
void ws_node_builtin_config(ws_node_config *c, int rf, uint32_t max_payload);

/* Create a node from c and run it in a new thread. On error nothing is left running and
 * err names the problem. */
int ws_node_thread_start(const ws_node_config *c, ws_node_thread **out, struct ws_err *err);

/* The running node, for ws_node_get_info / ws_node_get_counters. */
ws_node *ws_node_thread_node(const ws_node_thread *t);

/* Stop the node, join its thread and release everything. Returns what ws_node_run
 * returned (0 after a stop), with its message in err. NULL is ignored (returns 0). */
int ws_node_thread_stop(ws_node_thread *t, struct ws_err *err);

#endif
