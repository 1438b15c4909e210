/* SPDX-License-Identifier: BSD-2-Clause */
/* iqtrigger: triggers of the IQ host transport, confirmed where the node can tell.
 *
 * WARPLab triggers are one datagram nobody answers: a lost one left the RX buffer as it
 * was and the next Read IQ returned stale samples without a word. `warpspeed node` keeps
 * a counter of the triggers it acted on (WS_IQ_CMD_TRIGGER_COUNTER in iq.h); this module
 * reads it before and after a trigger, sends the trigger again while it stands still, and
 * says plainly when a node cannot confirm. host.c holds the lock and converts errors. */
#ifndef WS_IQ_IQTRIGGER_H
#define WS_IQ_IQTRIGGER_H

#include "iq/host/hostio.h"

/* ws_iq_trigger_ex's work (the caller holds n->lock): fills *res (not NULL) and returns
 * WS_IQ_TRIGGER_CONFIRMED, WS_IQ_TRIGGER_UNCONFIRMED or a negative code. */
int ws_iqtrigger_run(ws_iq_node *n, uint32_t ids, ws_iq_trigger_result *res, ws_err *err);

/* One trigger datagram from host_id with seq into buf; its length or -WS_E_INVAL. */
int ws_iqtrigger_packet(uint8_t *buf, size_t cap, uint16_t host_id, uint16_t seq, uint32_t ids);

/* ws_iq_trigger_broadcast's work: addr:port checked, one datagram from its own socket. */
int ws_iqtrigger_broadcast(const char *addr, int port, uint16_t host_id, uint32_t ids, ws_err *err);

#endif
