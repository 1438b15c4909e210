/* SPDX-License-Identifier: BSD-2-Clause */
/* msg: specs and side results onto TLV fields, a walk over the field lists of
 * model/fields.h (a field with id 0 is client-only and never carried); see msg.h. */
#include "ctl/msg.h"

#include "model/fields.h"

#include "util/err.h"
#include "util/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void put_fields(ws_tlv_writer *w, const ws_field *map, size_t n, const void *obj)
{
	const char *base = obj;
	for (size_t i = 0; i < n; i++) {
		const void *p = base + map[i].off;
		if (!map[i].id)
			continue;
		switch (map[i].kind) {
		case WS_FK_U32:
			ws_tlv_put_u64(w, map[i].id, *(const uint32_t *)p);
			break;
		case WS_FK_U16:
			ws_tlv_put_u64(w, map[i].id, *(const uint16_t *)p);
			break;
		case WS_FK_U64:
			ws_tlv_put_u64(w, map[i].id, *(const uint64_t *)p);
			break;
		case WS_FK_I64:
			ws_tlv_put_i64(w, map[i].id, *(const int64_t *)p);
			break;
		case WS_FK_INT:
			ws_tlv_put_i64(w, map[i].id, *(const int *)p);
			break;
		case WS_FK_ENUM:
			ws_tlv_put_i64(w, map[i].id, *(const int *)p);
			break;
		case WS_FK_F64:
			ws_tlv_put_f64(w, map[i].id, *(const double *)p);
			break;
		case WS_FK_BOOL:
			ws_tlv_put_u64(w, map[i].id, *(const bool *)p ? 1 : 0);
			break;
		case WS_FK_CHAR:
			ws_tlv_put_u64(w, map[i].id, (unsigned char)*(const char *)p);
			break;
		case WS_FK_STR:
			ws_tlv_put_str(w, map[i].id, (const char *)p);
			break;
		}
	}
}

/* Stores one field; values that do not fit the member are refused, not truncated. */
static int get_field(const ws_tlv_msg *m, const ws_field *f, void *p)
{
	uint64_t u;
	int64_t s;
	int rc;
	switch (f->kind) {
	case WS_FK_U32:
	case WS_FK_U16:
	case WS_FK_U64:
	case WS_FK_BOOL:
	case WS_FK_CHAR:
		if ((rc = ws_tlv_get_u64(m, f->id, &u)) != 0)
			return rc;
		if ((f->kind == WS_FK_U32 && u > UINT32_MAX) ||
		    (f->kind == WS_FK_U16 && u > UINT16_MAX) || (f->kind == WS_FK_BOOL && u > 1) ||
		    (f->kind == WS_FK_CHAR && u > 127))
			return -WS_E_PROTO;
		if (f->kind == WS_FK_U32)
			*(uint32_t *)p = (uint32_t)u;
		else if (f->kind == WS_FK_U16)
			*(uint16_t *)p = (uint16_t)u;
		else if (f->kind == WS_FK_U64)
			*(uint64_t *)p = u;
		else if (f->kind == WS_FK_BOOL)
			*(bool *)p = u != 0;
		else
			*(char *)p = (char)u;
		return 0;
	case WS_FK_I64:
		return ws_tlv_get_i64(m, f->id, (int64_t *)p);
	case WS_FK_INT:
	case WS_FK_ENUM:
		if ((rc = ws_tlv_get_i64(m, f->id, &s)) != 0)
			return rc;
		if (s < -2147483647LL || s > 2147483647LL)
			return -WS_E_PROTO;
		*(int *)p = (int)s;
		return 0;
	case WS_FK_F64: {
		double d;
		if ((rc = ws_tlv_get_f64(m, f->id, &d)) != 0)
			return rc;
		if (!isfinite(d)) /* never let NaN or inf from the wire reach a report */
			return -WS_E_PROTO;
		*(double *)p = d;
		return 0;
	}
	case WS_FK_STR:
		return ws_tlv_get_str(m, f->id, (char *)p, f->size);
	}
	return -WS_E_PROTO;
}

static int get_fields(const ws_tlv_msg *m, const ws_field *map, size_t n, void *obj,
		      const char *what, ws_err *err)
{
	for (size_t i = 0; i < n; i++) {
		if (!map[i].id)
			continue;
		int rc = get_field(m, &map[i], (char *)obj + map[i].off);
		if (rc < 0)
			return ws_err_set(err, WS_E_PROTO,
					  "%s field %u has the wrong type or value", what,
					  map[i].id);
	}
	return 0;
}

void ws_msg_put_spec(ws_tlv_writer *w, const ws_test_spec *s)
{
	put_fields(w, ws_spec_fields, ws_spec_nfields, s);
}

int ws_msg_get_spec(const ws_tlv_msg *m, ws_test_spec *s, ws_err *err)
{
	ws_test_spec_init(s);
	return get_fields(m, ws_spec_fields, ws_spec_nfields, s, "test spec", err);
}

/* Per-flow and per-thread records: one BYTES field each, repeated, fixed layout. */
#define F_FLOW     300
#define F_THREAD   301
#define FLOW_REC   32 /* u64 bytes, u64 calls, i64 elapsed, u32 thread, i32 error; then why */
#define THREAD_REC 24 /* i64 user, i64 sys, i32 cpu, u32 flows */

void ws_msg_put_side(ws_tlv_writer *w, const ws_side_result *r)
{
	put_fields(w, ws_side_fields, ws_side_nfields, r);
	for (uint32_t i = 0; i < r->nflows; i++) {
		const ws_flow_result *f = &r->flows[i];
		uint8_t rec[FLOW_REC + sizeof(f->why)];
		size_t why = strnlen(f->why, sizeof(f->why) - 1);
		ws_put_be64(rec, f->bytes);
		ws_put_be64(rec + 8, f->calls);
		ws_put_be64(rec + 16, (uint64_t)f->elapsed_ns);
		ws_put_be32(rec + 24, f->thread);
		ws_put_be32(rec + 28, (uint32_t)f->error);
		memcpy(rec + FLOW_REC, f->why, why);
		ws_tlv_put_bytes(w, F_FLOW, rec, FLOW_REC + why);
	}
	for (uint32_t i = 0; i < r->nthreads; i++) {
		const ws_thread_result *t = &r->threads[i];
		uint8_t rec[THREAD_REC];
		ws_put_be64(rec, (uint64_t)t->user_ns);
		ws_put_be64(rec + 8, (uint64_t)t->sys_ns);
		ws_put_be32(rec + 16, (uint32_t)t->cpu);
		ws_put_be32(rec + 20, t->flows);
		ws_tlv_put_bytes(w, F_THREAD, rec, THREAD_REC);
	}
}

/* Count the records first, so the arrays are allocated once and exactly. */
static int get_records(const ws_tlv_msg *m, ws_side_result *r, ws_err *err)
{
	size_t off = 0;
	uint16_t id, len;
	uint8_t type;
	const uint8_t *v;
	uint32_t nf = 0, nt = 0;
	int rc;
	while ((rc = ws_tlv_next(m, &off, &id, &type, &v, &len)) > 0) {
		nf += id == F_FLOW;
		nt += id == F_THREAD;
	}
	if (rc < 0 || nf > WS_MAX_STREAMS || nt > WS_MAX_STREAMS)
		return ws_err_set(err, WS_E_PROTO,
				  "result has malformed or too many flow/thread records");
	r->flows = nf ? calloc(nf, sizeof(*r->flows)) : NULL;
	r->threads = nt ? calloc(nt, sizeof(*r->threads)) : NULL;
	if ((nf && !r->flows) || (nt && !r->threads)) {
		ws_side_result_free(r);
		return ws_err_set(err, ENOMEM, "no memory for %u flow records", nf);
	}
	off = 0;
	while (ws_tlv_next(m, &off, &id, &type, &v, &len) > 0) {
		if (id == F_FLOW) {
			if (type != WS_TLV_BYTES || len < FLOW_REC ||
			    len >= FLOW_REC + sizeof(r->flows[0].why))
				goto bad;
			ws_flow_result *f = &r->flows[r->nflows++];
			f->bytes = ws_get_be64(v);
			f->calls = ws_get_be64(v + 8);
			f->elapsed_ns = (int64_t)ws_get_be64(v + 16);
			f->thread = ws_get_be32(v + 24);
			f->error = (int32_t)ws_get_be32(v + 28);
			memcpy(f->why, v + FLOW_REC, len - FLOW_REC);
			if (memchr(f->why, 0, len - FLOW_REC))
				goto bad;
		} else if (id == F_THREAD) {
			if (type != WS_TLV_BYTES || len != THREAD_REC)
				goto bad;
			ws_thread_result *t = &r->threads[r->nthreads++];
			t->user_ns = (int64_t)ws_get_be64(v);
			t->sys_ns = (int64_t)ws_get_be64(v + 8);
			t->cpu = (int32_t)ws_get_be32(v + 16);
			t->flows = ws_get_be32(v + 20);
		}
	}
	return 0;
bad:
	ws_side_result_free(r);
	return ws_err_set(err, WS_E_PROTO, "result has a malformed flow or thread record");
}

int ws_msg_get_side(const ws_tlv_msg *m, ws_side_result *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	r->cpu_bound_to = -1;
	int rc = get_fields(m, ws_side_fields, ws_side_nfields, r, "result", err);
	if (rc >= 0)
		rc = get_records(m, r, err);
	/* the peer's strings, cleaned for printing (util/text.h) */
	ws_text_clean(r->io_path, true);
	ws_text_clean(r->io_note, true);
	ws_text_clean(r->cong_set, true);
	ws_text_clean(r->mptcp_state, true);
	ws_text_clean(r->hostname, true);
	ws_text_clean(r->boot_id, true);
	for (uint32_t i = 0; i < r->nflows; i++)
		ws_text_clean(r->flows[i].why, true);
	return rc;
}

int ws_msg_get_ports(const ws_tlv_msg *m, uint16_t id, uint16_t *ports, uint32_t max)
{
	size_t off = 0;
	uint16_t fid, len;
	uint8_t type;
	const uint8_t *v;
	uint32_t n = 0;
	int rc;
	while ((rc = ws_tlv_next(m, &off, &fid, &type, &v, &len)) > 0) {
		if (fid != id)
			continue;
		uint64_t port = type == WS_TLV_U64 && len == 8 ? ws_get_be64(v) : 0;
		if (port == 0 || port > 65535 || n == max)
			return -WS_E_PROTO;
		ports[n++] = (uint16_t)port;
	}
	return rc < 0 ? rc : (int)n;
}

void ws_msg_put_error(ws_tlv_writer *w, int code, const char *text)
{
	ws_tlv_begin(w, WS_MSG_ERROR);
	ws_tlv_put_i64(w, WS_F_ERR_CODE,
		       code < 0 ? -(int64_t)code : code); /* positive on the wire */
	ws_tlv_put_str(w, WS_F_ERR_MSG, text);
}

int ws_msg_error_to_err(const ws_tlv_msg *m, const char *who, ws_err *err)
{
	char text[WS_ERR_MSG_MAX] = "(no reason given)";
	int64_t code = WS_E_REMOTE;
	ws_tlv_get_str(m, WS_F_ERR_MSG, text, sizeof(text));
	ws_text_clean(text, false); /* printed on the user's terminal */
	ws_tlv_get_i64(m, WS_F_ERR_CODE, &code);
	/* A limit (a caller may retry later) and an authentication failure keep their
	 * identity; the rest is remote. */
	int64_t mag = code < 0 && code >= -WS_E_AUTH ? -code : code; /* no negation of INT64_MIN */
	code = mag == WS_E_LIMIT || mag == WS_E_AUTH ? mag : WS_E_REMOTE;
	return ws_err_set(err, (int)code, "%s: %s", who, text);
}

const char *ws_msg_type_name(uint8_t type)
{
	static const char *names[] = {"?",        "HELLO",    "HELLO_ACK", "ERROR",
				      "TEST_REQ", "TEST_ACK", "START",     "STARTED",
				      "RESULT",   "BYE",      "CHALLENGE", "AUTH"};
	return type < COUNT(names) ? names[type] : "unknown";
}
