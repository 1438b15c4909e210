/* SPDX-License-Identifier: BSD-2-Clause */
/* framer: incremental, non-blocking reading of one control frame; see framer.h. */
#include "ctl/framer.h"

#include "ctl/msg.h"
#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

void ws_framer_init(ws_framer *f, uint8_t *buf, uint32_t cap)
{
	memset(f, 0, sizeof(*f));
	f->buf = buf;
	f->cap = cap;
}

void ws_framer_describe(const uint8_t *p, size_t n, char *out, size_t outsz)
{
	size_t j = 0;
	int printable = 1;
	for (size_t i = 0; i < n && j + 1 < outsz; i++) {
		if (p[i] == '\r' || p[i] == '\n')
			break;
		if (!isprint(p[i])) {
			printable = 0;
			break;
		}
		out[j++] = (char)p[i];
	}
	out[j] = '\0';
	if (!printable || j == 0) {
		j = 0;
		for (size_t i = 0; i < n && i < 8 && j + 4 < outsz; i++)
			j += (size_t)snprintf(out + j, outsz - j, "%s%02x", i ? " " : "", p[i]);
	}
}

/* One recv; 1 with bytes, 0 for nothing yet, negative for a close or an error. */
static int take(int fd, uint8_t *p, size_t n, size_t *got, ws_err *err)
{
	ssize_t r = recv(fd, p, n, MSG_DONTWAIT);
	if (r > 0) {
		*got = (size_t)r;
		return 1;
	}
	if (r == 0)
		return ws_err_set(err, ECONNRESET, "the peer closed the connection");
	if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
		return 0;
	return ws_err_errno(err, "receive");
}

static int foreign(ws_framer *f, int fd, ws_err *err)
{
	uint8_t more[60];
	memcpy(more, f->hdr, f->hgot);
	ssize_t r = recv(fd, more + f->hgot, sizeof(more) - f->hgot, MSG_DONTWAIT);
	char shown[80];
	ws_framer_describe(more, f->hgot + (r > 0 ? (size_t)r : 0), shown, sizeof(shown));
	return ws_err_set(err, WS_E_NOTWS,
			  "the peer is not speaking the warpspeed protocol (it sent '%s')", shown);
}

int ws_framer_read(ws_framer *f, int fd, ws_tlv_msg *m, ws_err *err)
{
	uint8_t magic[4];
	ws_put_be32(magic, WS_TLV_MAGIC);
	while (f->hgot < WS_TLV_HDR_LEN) {
		/* The magic one byte at a time, so that a foreign byte is seen before more is read. */
		size_t want = f->hgot < 4 ? 1 : WS_TLV_HDR_LEN - f->hgot, got = 0;
		int rc = take(fd, f->hdr + f->hgot, want, &got, err);
		if (rc <= 0)
			return rc;
		if (f->hgot < 4 && f->hdr[f->hgot] != magic[f->hgot]) {
			f->hgot++;
			return foreign(f, fd, err);
		}
		f->hgot += got;
		if (f->hgot == WS_TLV_HDR_LEN) {
			uint8_t type;
			if ((rc = ws_tlv_parse_header(f->hdr, &type, &f->plen, err)) < 0)
				return rc;
			if (f->plen > f->cap)
				return ws_err_set(err, WS_E_PROTO,
						  "a %u-byte %s message before the session "
						  "started; at most %u bytes are accepted there",
						  (unsigned)f->plen, ws_msg_type_name(type),
						  (unsigned)f->cap);
		}
	}
	while (f->pgot < f->plen) {
		size_t got = 0;
		int rc = take(fd, f->buf + f->pgot, f->plen - f->pgot, &got, err);
		if (rc <= 0)
			return rc;
		f->pgot += (uint32_t)got;
	}
	m->version = f->hdr[4];
	m->type = f->hdr[5];
	m->payload = f->buf;
	m->len = f->plen;
	f->hgot = 0; /* the next call starts a new frame */
	f->pgot = f->plen = 0;
	int rc = ws_tlv_validate(m, err);
	return rc < 0 ? rc : 1;
}
