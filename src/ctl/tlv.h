/* SPDX-License-Identifier: BSD-2-Clause */
/* tlv: the framed, versioned type-length-value codec of the control protocol.
 *
 * netperf puts C structs on the wire and trusts one read() to return a whole message;
 * this codec exists so that we never do. A frame is a 12-byte header (magic "WSPD",
 * version, message type, reserved, payload length) and a payload of fields
 * {u16 id, u8 type, u8 reserved, u16 length, value}, all big-endian. Every length is
 * checked before use, unknown field ids are skipped, and the total size is bounded.
 * The codec is pure (no I/O) so that it can be fuzzed; see channel.h for the socket side.
 *
 * Frame header:  0 u32 magic 0x57535044 | 4 u8 version | 5 u8 type | 6 u16 0 | 8 u32 length
 * Field:         0 u16 id | 2 u8 type | 3 u8 0 | 4 u16 length | 6 value[length]
 * Value types:   U64/I64 (8 bytes, two's complement), F64 (IEEE-754 bits as u64), STR
 *                (UTF-8, no NUL), BYTES. */
#ifndef WS_CTL_TLV_H
#define WS_CTL_TLV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/bytes.h"

struct ws_err;

#define WS_TLV_MAGIC         0x57535044u
#define WS_TLV_VERSION       1
#define WS_TLV_HDR_LEN       12
#define WS_TLV_FIELD_HDR_LEN 6
#define WS_TLV_MAX_PAYLOAD   (1u << 20) /* hard limit per message */

enum ws_tlv_type {
	WS_TLV_U64 = 1,
	WS_TLV_I64 = 2,
	WS_TLV_F64 = 3,
	WS_TLV_STR = 4,
	WS_TLV_BYTES = 5
};

/* A message being built. The buffer grows on demand up to the hard limit; a field that
 * would pass it sets `overflow`, which ws_tlv_finish reports. */
typedef struct ws_tlv_writer {
	uint8_t *buf;
	size_t len, cap;
	bool overflow;
} ws_tlv_writer;

/* Start a message of the given type; any previous content is discarded. */
void ws_tlv_begin(ws_tlv_writer *w, uint8_t msg_type);
void ws_tlv_put_u64(ws_tlv_writer *w, uint16_t id, uint64_t v);
void ws_tlv_put_i64(ws_tlv_writer *w, uint16_t id, int64_t v);
void ws_tlv_put_f64(ws_tlv_writer *w, uint16_t id, double v);
void ws_tlv_put_str(ws_tlv_writer *w, uint16_t id, const char *s);
void ws_tlv_put_bytes(ws_tlv_writer *w, uint16_t id, const void *p, size_t n);
/* Write the payload length into the header. Returns 0, or an error when the message
 * outgrew the limit or memory ran out; the frame is then w->buf[0..w->len). */
int ws_tlv_finish(ws_tlv_writer *w, struct ws_err *err);
void ws_tlv_writer_free(ws_tlv_writer *w);

/* A received message: header fields and the payload (not owned). */
typedef struct ws_tlv_msg {
	uint8_t version, type;
	const uint8_t *payload;
	uint32_t len;
} ws_tlv_msg;

/* Check a 12-byte header: magic, version, length within the limit. On success fills
 * *type and *payload_len. Errors: WS_E_NOTWS for a wrong magic, WS_E_PROTO otherwise. */
int ws_tlv_parse_header(const uint8_t hdr[WS_TLV_HDR_LEN], uint8_t *type, uint32_t *payload_len,
			struct ws_err *err);

/* Walk every field of a payload checking lengths and fixed-size types. Call once on
 * receipt; the getters below re-check bounds anyway, so they are safe on any input. */
int ws_tlv_validate(const ws_tlv_msg *m, struct ws_err *err);

/* Getters: 0 when found (value stored), 1 when the field is absent (value untouched),
 * negative when present with the wrong type or length. The first occurrence wins. */
int ws_tlv_get_u64(const ws_tlv_msg *m, uint16_t id, uint64_t *v);
int ws_tlv_get_i64(const ws_tlv_msg *m, uint16_t id, int64_t *v);
int ws_tlv_get_f64(const ws_tlv_msg *m, uint16_t id, double *v);
/* Copies into buf (NUL-terminated); a string longer than bufsz-1 is an error. */
int ws_tlv_get_str(const ws_tlv_msg *m, uint16_t id, char *buf, size_t bufsz);
int ws_tlv_get_bytes(const ws_tlv_msg *m, uint16_t id, const uint8_t **p, uint16_t *n);

/* Walk the fields in order, repeated ids included: start with *off = 0; returns 1 and
 * fills id/type/value for the next field, 0 at the end, negative on a malformed field. */
int ws_tlv_next(const ws_tlv_msg *m, size_t *off, uint16_t *id, uint8_t *type, const uint8_t **val,
		uint16_t *len);

#endif
