/* SPDX-License-Identifier: BSD-2-Clause */
/* tlv: encoder and bounds-checked decoder of control frames; see tlv.h. */
#include "ctl/tlv.h"

#include "util/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(ws_tlv_writer *w, size_t more)
{
	if (w->overflow)
		return false;
	if (w->len + more > WS_TLV_HDR_LEN + WS_TLV_MAX_PAYLOAD) {
		w->overflow = true;
		return false;
	}
	if (w->len + more <= w->cap)
		return true;
	size_t cap = w->cap ? w->cap : 512;
	while (cap < w->len + more)
		cap *= 2;
	uint8_t *nb = realloc(w->buf, cap);
	if (!nb) {
		w->overflow = true;
		return false;
	}
	w->buf = nb;
	w->cap = cap;
	return true;
}

void ws_tlv_begin(ws_tlv_writer *w, uint8_t msg_type)
{
	w->len = 0;
	w->overflow = false;
	if (!reserve(w, WS_TLV_HDR_LEN))
		return;
	ws_put_be32(w->buf, WS_TLV_MAGIC);
	w->buf[4] = WS_TLV_VERSION;
	w->buf[5] = msg_type;
	ws_put_be16(w->buf + 6, 0);
	ws_put_be32(w->buf + 8, 0);
	w->len = WS_TLV_HDR_LEN;
}

static uint8_t *put_field(ws_tlv_writer *w, uint16_t id, uint8_t type, size_t n)
{
	if (n > 0xffff) {
		w->overflow = true;
		return NULL;
	}
	if (!reserve(w, WS_TLV_FIELD_HDR_LEN + n))
		return NULL;
	uint8_t *p = w->buf + w->len;
	ws_put_be16(p, id);
	p[2] = type;
	p[3] = 0;
	ws_put_be16(p + 4, (uint16_t)n);
	w->len += WS_TLV_FIELD_HDR_LEN + n;
	return p + WS_TLV_FIELD_HDR_LEN;
}

void ws_tlv_put_u64(ws_tlv_writer *w, uint16_t id, uint64_t v)
{
	uint8_t *p = put_field(w, id, WS_TLV_U64, 8);
	if (p)
		ws_put_be64(p, v);
}

void ws_tlv_put_i64(ws_tlv_writer *w, uint16_t id, int64_t v)
{
	uint8_t *p = put_field(w, id, WS_TLV_I64, 8);
	if (p)
		ws_put_be64(p, (uint64_t)v);
}

void ws_tlv_put_f64(ws_tlv_writer *w, uint16_t id, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	uint8_t *p = put_field(w, id, WS_TLV_F64, 8);
	if (p)
		ws_put_be64(p, bits);
}

void ws_tlv_put_str(ws_tlv_writer *w, uint16_t id, const char *s)
{
	size_t n = strlen(s);
	uint8_t *p = put_field(w, id, WS_TLV_STR, n);
	if (p && n)
		memcpy(p, s, n);
}

void ws_tlv_put_bytes(ws_tlv_writer *w, uint16_t id, const void *src, size_t n)
{
	uint8_t *p = put_field(w, id, WS_TLV_BYTES, n);
	if (p && n)
		memcpy(p, src, n);
}

int ws_tlv_finish(ws_tlv_writer *w, ws_err *err)
{
	if (w->overflow || w->len < WS_TLV_HDR_LEN)
		return ws_err_set(err, EMSGSIZE,
				  "control message exceeds %u bytes or memory ran out",
				  WS_TLV_MAX_PAYLOAD);
	ws_put_be32(w->buf + 8, (uint32_t)(w->len - WS_TLV_HDR_LEN));
	return 0;
}

void ws_tlv_writer_free(ws_tlv_writer *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

int ws_tlv_parse_header(const uint8_t hdr[WS_TLV_HDR_LEN], uint8_t *type, uint32_t *payload_len,
			ws_err *err)
{
	if (ws_get_be32(hdr) != WS_TLV_MAGIC)
		return ws_err_set(err, WS_E_NOTWS, "bad magic 0x%08x", (unsigned)ws_get_be32(hdr));
	if (hdr[4] != WS_TLV_VERSION)
		return ws_err_set(
			err, WS_E_PROTO,
			"control protocol version %u is not supported; this side speaks version %u",
			hdr[4], WS_TLV_VERSION);
	uint32_t len = ws_get_be32(hdr + 8);
	if (len > WS_TLV_MAX_PAYLOAD)
		return ws_err_set(err, WS_E_PROTO,
				  "control message of %u bytes exceeds the limit of %u",
				  (unsigned)len, WS_TLV_MAX_PAYLOAD);
	*type = hdr[5];
	*payload_len = len;
	return 0;
}

static int fixed_size(uint8_t type)
{
	return (type == WS_TLV_U64 || type == WS_TLV_I64 || type == WS_TLV_F64) ? 8 : -1;
}

int ws_tlv_validate(const ws_tlv_msg *m, ws_err *err)
{
	size_t off = 0;
	while (off < m->len) {
		if (m->len - off < WS_TLV_FIELD_HDR_LEN)
			return ws_err_set(err, WS_E_PROTO, "truncated field header at offset %zu",
					  off);
		const uint8_t *f = m->payload + off;
		uint16_t n = ws_get_be16(f + 4);
		if (m->len - off - WS_TLV_FIELD_HDR_LEN < n)
			return ws_err_set(err, WS_E_PROTO,
					  "field %u claims %u bytes but only %zu remain",
					  ws_get_be16(f), n, m->len - off - WS_TLV_FIELD_HDR_LEN);
		int fs = fixed_size(f[2]);
		if (fs > 0 && n != fs)
			return ws_err_set(err, WS_E_PROTO,
					  "field %u of a fixed-size type has %u bytes",
					  ws_get_be16(f), n);
		off += WS_TLV_FIELD_HDR_LEN + n;
	}
	return 0;
}

/* Finds the first field with this id; 0 found, 1 absent, -WS_E_PROTO on a bad shape. */
static int find(const ws_tlv_msg *m, uint16_t id, uint8_t type, const uint8_t **val, uint16_t *n)
{
	size_t off = 0;
	while (m->len - off >= WS_TLV_FIELD_HDR_LEN) {
		const uint8_t *f = m->payload + off;
		uint16_t len = ws_get_be16(f + 4);
		if (m->len - off - WS_TLV_FIELD_HDR_LEN < len)
			return -WS_E_PROTO;
		if (ws_get_be16(f) == id) {
			int fs = fixed_size(type);
			if (f[2] != type || (fs > 0 && len != fs))
				return -WS_E_PROTO;
			*val = f + WS_TLV_FIELD_HDR_LEN;
			*n = len;
			return 0;
		}
		off += WS_TLV_FIELD_HDR_LEN + len;
	}
	return 1;
}

int ws_tlv_get_u64(const ws_tlv_msg *m, uint16_t id, uint64_t *v)
{
	const uint8_t *p;
	uint16_t n;
	int rc = find(m, id, WS_TLV_U64, &p, &n);
	if (rc == 0)
		*v = ws_get_be64(p);
	return rc;
}

int ws_tlv_get_i64(const ws_tlv_msg *m, uint16_t id, int64_t *v)
{
	const uint8_t *p;
	uint16_t n;
	int rc = find(m, id, WS_TLV_I64, &p, &n);
	if (rc == 0)
		*v = (int64_t)ws_get_be64(p);
	return rc;
}

int ws_tlv_get_f64(const ws_tlv_msg *m, uint16_t id, double *v)
{
	const uint8_t *p;
	uint16_t n;
	int rc = find(m, id, WS_TLV_F64, &p, &n);
	if (rc == 0) {
		uint64_t bits = ws_get_be64(p);
		memcpy(v, &bits, sizeof(*v));
	}
	return rc;
}

int ws_tlv_get_str(const ws_tlv_msg *m, uint16_t id, char *buf, size_t bufsz)
{
	const uint8_t *p;
	uint16_t n;
	int rc = find(m, id, WS_TLV_STR, &p, &n);
	if (rc != 0)
		return rc;
	if (n >= bufsz || memchr(p, 0, n))
		return -WS_E_PROTO;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return 0;
}

int ws_tlv_get_bytes(const ws_tlv_msg *m, uint16_t id, const uint8_t **p, uint16_t *n)
{
	return find(m, id, WS_TLV_BYTES, p, n);
}

int ws_tlv_next(const ws_tlv_msg *m, size_t *off, uint16_t *id, uint8_t *type, const uint8_t **val,
		uint16_t *len)
{
	if (*off >= m->len)
		return 0;
	if (m->len - *off < WS_TLV_FIELD_HDR_LEN)
		return -WS_E_PROTO;
	const uint8_t *f = m->payload + *off;
	uint16_t n = ws_get_be16(f + 4);
	if (m->len - *off - WS_TLV_FIELD_HDR_LEN < n)
		return -WS_E_PROTO;
	*id = ws_get_be16(f);
	*type = f[2];
	*val = f + WS_TLV_FIELD_HDR_LEN;
	*len = n;
	*off += WS_TLV_FIELD_HDR_LEN + n;
	return 1;
}
