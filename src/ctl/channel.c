/* SPDX-License-Identifier: BSD-2-Clause */
/* channel: framed control messages on a socket; see channel.h. */
#include "ctl/channel.h"

#include "ctl/framer.h"
#include "net/sock.h"
#include "util/err.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

void ws_channel_init(ws_channel *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
}

void ws_channel_close(ws_channel *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->rx);
	c->rx = NULL;
	c->rx_cap = 0;
	ws_tlv_writer_free(&c->tx);
}

int ws_channel_send(ws_channel *c, int64_t deadline_ns, ws_err *err)
{
	int rc = ws_tlv_finish(&c->tx, err);
	if (rc < 0)
		return rc;
	return ws_sock_write_all(c->fd, c->tx.buf, c->tx.len, deadline_ns, err);
}

int ws_channel_recv(ws_channel *c, ws_tlv_msg *m, int64_t deadline_ns, ws_err *err)
{
	uint8_t hdr[WS_TLV_HDR_LEN], magic[4];
	ws_put_be32(magic, WS_TLV_MAGIC);
	/* The magic byte by byte: a foreign peer that says "OK\n" and waits is named at once. */
	int rc = 0;
	size_t got = 0;
	while (rc == 0 && got < 4 &&
	       (rc = ws_sock_read_exact(c->fd, hdr + got, 1, deadline_ns, err)) == 0 &&
	       hdr[got] == magic[got])
		got++;
	if (rc == -ECONNRESET && got == 0)
		return ws_err_set(err, ECONNRESET, "the peer closed the connection");
	if (rc == 0 && got < 4) {
		/* Collect a little more of what the foreign peer says, without waiting long. */
		uint8_t more[60];
		memcpy(more, hdr, got + 1);
		ssize_t r = recv(c->fd, more + got + 1, sizeof(more) - got - 1, MSG_DONTWAIT);
		size_t n = got + 1 + (r > 0 ? (size_t)r : 0);
		char shown[80];
		ws_framer_describe(more, n, shown, sizeof(shown));
		return ws_err_set(err, WS_E_NOTWS,
				  "the peer is not speaking the warpspeed protocol (it sent '%s')",
				  shown);
	}
	if (rc == 0)
		rc = ws_sock_read_exact(c->fd, hdr + 4, WS_TLV_HDR_LEN - 4, deadline_ns, err);
	if (rc < 0)
		return rc;
	uint8_t type;
	uint32_t len;
	rc = ws_tlv_parse_header(hdr, &type, &len, err);
	if (rc < 0)
		return rc;
	if (len > c->rx_cap) {
		uint8_t *nb = realloc(c->rx, len);
		if (!nb)
			return ws_err_set(err, ENOMEM, "no memory for a %u-byte control message",
					  (unsigned)len);
		c->rx = nb;
		c->rx_cap = len;
	}
	if (len) {
		rc = ws_sock_read_exact(c->fd, c->rx, len, deadline_ns, err);
		if (rc < 0)
			return rc;
	}
	m->version = hdr[4];
	m->type = type;
	m->payload = c->rx;
	m->len = len;
	return ws_tlv_validate(m, err);
}
