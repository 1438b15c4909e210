/* SPDX-License-Identifier: BSD-2-Clause */
/* framer: one control frame read incrementally from a non-blocking socket.
 *
 * The daemon's pre-session phase serves every connection that has not finished HELLO
 * from one event loop, so it cannot block on a read the way ws_channel_recv does. A
 * framer keeps what arrived so far (header first, then the payload into a buffer the
 * caller owns and sizes, so a pending connection costs a small fixed amount) and says
 * when a whole frame is there. The magic is checked byte by byte, so a foreign peer is
 * named as soon as it sends one wrong byte. */
#ifndef WS_CTL_FRAMER_H
#define WS_CTL_FRAMER_H

#include "ctl/tlv.h"

#include <stddef.h>
#include <stdint.h>

struct ws_err;

typedef struct ws_framer {
	uint8_t hdr[WS_TLV_HDR_LEN];
	size_t hgot;   /* header bytes so far */
	uint8_t *buf;  /* payload buffer (caller's) */
	uint32_t cap;  /* its size: the largest payload accepted */
	uint32_t plen; /* announced payload length, once the header is complete */
	uint32_t pgot; /* payload bytes so far */
} ws_framer;

void ws_framer_init(ws_framer *f, uint8_t *buf, uint32_t cap);

/* Read what the socket has. Returns 1 with *m filled (valid until the next call) when a
 * whole, validated frame is there, 0 when more bytes are needed, or a negative code:
 * ECONNRESET when the peer closed, WS_E_NOTWS when the bytes are not a warpspeed frame,
 * WS_E_PROTO for a malformed frame or a payload over cap (the message names the
 * announced size and the limit). Never blocks: the socket must be non-blocking. */
int ws_framer_read(ws_framer *f, int fd, ws_tlv_msg *m, struct ws_err *err);

/* Show what a foreign peer sent: printable ASCII up to the first line end, else up to
 * 8 bytes in hex. */
void ws_framer_describe(const uint8_t *p, size_t n, char *out, size_t outsz);

#endif
