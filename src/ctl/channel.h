/* SPDX-License-Identifier: BSD-2-Clause */
/* channel: control frames over a connected socket, with deadlines.
 *
 * Reads the 12-byte header, checks it, then reads exactly the announced payload into a
 * buffer owned by the channel, so a message is never parsed from a partial read. A peer
 * that answers with something that is not a frame is named as "not a warpspeed daemon"
 * (or client), with the first bytes it sent shown printable. */
#ifndef WS_CTL_CHANNEL_H
#define WS_CTL_CHANNEL_H

#include "ctl/tlv.h"

#include <stdint.h>

struct ws_err;

typedef struct ws_channel {
	int fd;
	uint8_t *rx; /* payload of the last message received */
	size_t rx_cap;
	ws_tlv_writer tx; /* reusable frame builder */
} ws_channel;

void ws_channel_init(ws_channel *c, int fd);
/* Frees the buffers and closes the socket. */
void ws_channel_close(ws_channel *c);

/* Finish and send the frame being built in c->tx before deadline_ns. */
int ws_channel_send(ws_channel *c, int64_t deadline_ns, struct ws_err *err);

/* Receive one frame before deadline_ns into *m (valid until the next receive).
 * Errors: WS_E_NOTWS when the bytes are not a warpspeed frame, WS_E_TIMEDOUT,
 * ECONNRESET when the peer closed, WS_E_PROTO for a malformed frame. */
int ws_channel_recv(ws_channel *c, ws_tlv_msg *m, int64_t deadline_ns, struct ws_err *err);

#endif
