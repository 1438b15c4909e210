/* iqread: the Read IQ engine behind ws_iq_read (see iqread.c for how it works).
 *
 * host.c owns the entry points and the lock and checks the arguments; this module only moves the
 * samples, so the public entry point, its locking and its error conversion stay in one
 * place for every call of the API. */
#ifndef WS_IQ_IQREAD_H
#define WS_IQ_IQREAD_H

#include "iq/hostio.h"

/* Reads samples [start, start + count) of every RX buffer in mask into dst[0], dst[1], ...
 * (one per set bit, lowest first) in format fmt. The caller holds n->lock and has checked
 * mask, range and format against the node (ws_iq_read does). Drops stale datagrams first,
 * then pipelines requests until every packet is placed. Returns 0, or a negative code with
 * err naming the node, the buffer and what was missing; the destinations are then
 * unspecified. */
int ws_iqread_run(ws_iq_node *n, unsigned mask, uint32_t start, uint32_t count,
		  ws_iq_format fmt, void *const *dst, ws_err *err);

#endif
