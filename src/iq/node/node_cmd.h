/* SPDX-License-Identifier: BSD-2-Clause */
/* node_cmd: what the node emulator does with one datagram (node_cmd.c).
 *
 * The loop in node.c receives, checks the source against the allow list and holds a
 * datagram back while its source's stream runs; everything after that, from parsing to
 * the answer, is here. */
#ifndef WS_IQ_NODE_CMD_H
#define WS_IQ_NODE_CMD_H

#include "iq/node/node_state.h"

/* Parses and answers one datagram from p (allowed, not held back); arrival is its kernel
 * receive time (wall clock ns) or 0. Every rejection is counted; nothing here fails. */
void ws_node_handle(ws_node *n, const ws_node_peer *p, const uint8_t *pkt, size_t len,
		    int64_t arrival);

/* NODE_INITIALIZE's state: TX/RX lengths back to 2^15 (within the buffers), capture
 * enables cleared, no NOT_READY window. */
void ws_node_reset(ws_node *n);

#endif
