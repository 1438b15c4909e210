/* SPDX-License-Identifier: BSD-2-Clause */
/* npreader: the framing of netperf's control connection. Its messages have no length
 * field: each is WS_NP_MSG_LEN bytes (ctl/npmsg.h), so a reader only counts bytes. The
 * daemon's pre-session loop and its netperf sessions read them through this, a byte
 * count at a time, so that a peer that stalls mid-message holds no thread. */
#ifndef WS_CTL_NPREADER_H
#define WS_CTL_NPREADER_H

#include "ctl/npmsg.h"

#include <stddef.h>
#include <stdint.h>

struct ws_err;

/* Incremental reading of one 656-byte message from a non-blocking socket, for an event
 * loop: a connection that stalls mid-message costs 656 bytes and no thread. */
typedef struct ws_np_reader {
	uint8_t buf[WS_NP_MSG_LEN];
	size_t got;
	int full; /* buf holds a whole message that the caller has been given */
} ws_np_reader;

void ws_np_reader_init(ws_np_reader *rd);
/* Start the reader with bytes already taken off the socket (at most WS_NP_MSG_LEN). A
 * whole message is taken as one already returned: rd->buf holds it until the next read,
 * which starts the next message. */
void ws_np_reader_prime(ws_np_reader *rd, const uint8_t *p, size_t n);
/* Returns 1 when a whole message is in rd->buf (the next call starts a new one), 0 when
 * more bytes are needed, -ECONNRESET when the peer closed (the message names how many
 * bytes of a message had arrived), or another negative code for a receive error. */
int ws_np_reader_read(ws_np_reader *rd, int fd, struct ws_err *err);

#endif
