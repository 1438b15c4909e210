/* msg: table-driven mapping of specs and side results onto TLV fields; see msg.h. */
#include "ctl/msg.h"

#include "util/err.h"
#include "util/text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

enum kind { K_U32, K_U64, K_I64, K_INT, K_F64, K_BOOL, K_CHAR, K_ENUM, K_U16, K_STR };

struct field_map {
	uint16_t id;
	enum kind kind;
	size_t off;
	size_t size; /* for K_STR: buffer size */
};

#define F(id, kind, type, member)                                             \
	{                                                                     \
		id, kind, offsetof(type, member), sizeof(((type *)0)->member) \
	}

/* clang-format off */
static const struct field_map spec_fields[] = {
	F(100, K_ENUM, ws_test_spec, type),
	F(101, K_ENUM, ws_test_spec, end),
	F(102, K_F64, ws_test_spec, duration_s),
	F(103, K_U64, ws_test_spec, end_count),
	F(104, K_U32, ws_test_spec, send_size),
	F(105, K_U32, ws_test_spec, recv_size),
	F(106, K_BOOL, ws_test_spec, nodelay),
	F(107, K_ENUM, ws_test_spec, family),
	F(108, K_BOOL, ws_test_spec, zerocopy),
	F(109, K_BOOL, ws_test_spec, skip_rx_copy),
	F(110, K_BOOL, ws_test_spec, splice),
	F(111, K_BOOL, ws_test_spec, gso),
	F(112, K_BOOL, ws_test_spec, gro),
	F(113, K_BOOL, ws_test_spec, no_batch),
	F(114, K_BOOL, ws_test_spec, udp_route),
	F(115, K_U32, ws_test_spec, streams),
	F(116, K_U32, ws_test_spec, local_threads),
	F(117, K_U32, ws_test_spec, remote_threads),
	F(118, K_STR, ws_test_spec, local_cpus),
	F(119, K_STR, ws_test_spec, remote_cpus),
	F(120, K_U32, ws_test_spec, local.sndbuf),
	F(121, K_U32, ws_test_spec, local.rcvbuf),
	F(122, K_INT, ws_test_spec, local.cpu),
	F(123, K_BOOL, ws_test_spec, local.measure_cpu),
	F(124, K_U16, ws_test_spec, local.data_port),
	F(125, K_U32, ws_test_spec, rcvlowat),
	F(126, K_U32, ws_test_spec, req_size),
	F(127, K_U32, ws_test_spec, rsp_size),
	F(128, K_U32, ws_test_spec, burst),
	F(129, K_I64, ws_test_spec, rr_timeout_ns),
	F(130, K_F64, ws_test_spec, rate),
	/* Options harnesses pass; the client-only ones (local.*, maxseg) are not carried. */
	F(131, K_INT, ws_test_spec, remote.tos),
	F(132, K_INT, ws_test_spec, remote.priority),
	F(133, K_STR, ws_test_spec, remote.cong),
	F(134, K_BOOL, ws_test_spec, cork),
	F(135, K_BOOL, ws_test_spec, keepalive),
	F(136, K_BOOL, ws_test_spec, udp_flow_control),
	F(137, K_F64, ws_test_spec, udp_pace_bps),
	F(138, K_STR, ws_test_spec, data_host),
	F(139, K_STR, ws_test_spec, data_local),
	F(140, K_U32, ws_test_spec, remote.sndbuf),
	F(141, K_U32, ws_test_spec, remote.rcvbuf),
	F(142, K_INT, ws_test_spec, remote.cpu),
	F(143, K_BOOL, ws_test_spec, remote.measure_cpu),
	F(144, K_U16, ws_test_spec, remote.data_port),
	F(151, K_BOOL, ws_test_spec, dontroute),
};
/* clang-format on */

/* clang-format off */
static const struct field_map side_fields[] = {
	F(200, K_U32, ws_side_result, sndbuf_req),
	F(201, K_U32, ws_side_result, rcvbuf_req),
	F(202, K_U32, ws_side_result, sndbuf_set),
	F(203, K_U32, ws_side_result, rcvbuf_set),
	F(204, K_U32, ws_side_result, sndbuf_end),
	F(205, K_U32, ws_side_result, rcvbuf_end),
	F(206, K_U32, ws_side_result, send_size),
	F(207, K_U32, ws_side_result, recv_size),
	F(208, K_U64, ws_side_result, bytes_sent),
	F(209, K_U64, ws_side_result, bytes_recv),
	F(210, K_U64, ws_side_result, send_calls),
	F(211, K_U64, ws_side_result, recv_calls),
	F(270, K_U64, ws_side_result, send_syscalls),
	F(271, K_U64, ws_side_result, recv_syscalls),
	F(212, K_I64, ws_side_result, elapsed_ns),
	F(213, K_BOOL, ws_side_result, cpu_measured),
	F(214, K_F64, ws_side_result, cpu_util),
	F(215, K_F64, ws_side_result, cpu_user),
	F(216, K_F64, ws_side_result, cpu_system),
	F(217, K_F64, ws_side_result, cpu_softirq),
	F(218, K_CHAR, ws_side_result, cpu_method),
	F(219, K_U32, ws_side_result, ncpus),
	F(220, K_I64, ws_side_result, thread_user_ns),
	F(221, K_I64, ws_side_result, thread_sys_ns),
	F(222, K_INT, ws_side_result, cpu_bound_to),
	F(223, K_STR, ws_side_result, hostname),
	F(224, K_STR, ws_side_result, boot_id),
	F(225, K_STR, ws_side_result, io_path),
	F(226, K_STR, ws_side_result, io_note),
	F(227, K_U64, ws_side_result, zc_sends),
	F(228, K_U64, ws_side_result, zc_copied),
	F(229, K_U64, ws_side_result, dgrams_sent),
	F(230, K_U64, ws_side_result, dgrams_recv),
	F(231, K_U64, ws_side_result, dgrams_lost),
	F(232, K_U64, ws_side_result, dgrams_reordered),
	F(233, K_U64, ws_side_result, dgrams_dup),
	F(234, K_U64, ws_side_result, send_errors),
	F(235, K_U64, ws_side_result, bad_dgrams),
	F(236, K_BOOL, ws_side_result, tcp_info_valid),
	F(237, K_U32, ws_side_result, tcp_mss),
	F(238, K_U32, ws_side_result, tcp_rtt_us),
	F(239, K_U32, ws_side_result, tcp_rttvar_us),
	F(240, K_U32, ws_side_result, tcp_snd_cwnd),
	F(241, K_U64, ws_side_result, tcp_retrans),
	F(242, K_U32, ws_side_result, rcvlowat),
	F(243, K_U64, ws_side_result, dgrams_jumps),
	F(244, K_U64, ws_side_result, transactions),
	F(245, K_U64, ws_side_result, trans_lost),
	F(246, K_U64, ws_side_result, late_replies),
	F(247, K_U64, ws_side_result, trans_scheduled),
	F(248, K_I64, ws_side_result, max_lag_ns),
	F(249, K_U64, ws_side_result, connects),
	F(250, K_U64, ws_side_result, connect_errors),
	F(251, K_F64, ws_side_result, cpu_rate),
};
/* clang-format on */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void put_fields(ws_tlv_writer *w, const struct field_map *map, size_t n, const void *obj)
{
	const char *base = obj;
	for (size_t i = 0; i < n; i++) {
		const void *p = base + map[i].off;
		switch (map[i].kind) {
		case K_U32:
			ws_tlv_put_u64(w, map[i].id, *(const uint32_t *)p);
			break;
		case K_U16:
			ws_tlv_put_u64(w, map[i].id, *(const uint16_t *)p);
			break;
		case K_U64:
			ws_tlv_put_u64(w, map[i].id, *(const uint64_t *)p);
			break;
		case K_I64:
			ws_tlv_put_i64(w, map[i].id, *(const int64_t *)p);
			break;
		case K_INT:
			ws_tlv_put_i64(w, map[i].id, *(const int *)p);
			break;
		case K_ENUM:
			ws_tlv_put_i64(w, map[i].id, *(const int *)p);
			break;
		case K_F64:
			ws_tlv_put_f64(w, map[i].id, *(const double *)p);
			break;
		case K_BOOL:
			ws_tlv_put_u64(w, map[i].id, *(const bool *)p ? 1 : 0);
			break;
		case K_CHAR:
			ws_tlv_put_u64(w, map[i].id, (unsigned char)*(const char *)p);
			break;
		case K_STR:
			ws_tlv_put_str(w, map[i].id, (const char *)p);
			break;
		}
	}
}

/* Stores one field; values that do not fit the member are refused, not truncated. */
static int get_field(const ws_tlv_msg *m, const struct field_map *f, void *p)
{
	uint64_t u;
	int64_t s;
	int rc;
	switch (f->kind) {
	case K_U32:
	case K_U16:
	case K_U64:
	case K_BOOL:
	case K_CHAR:
		if ((rc = ws_tlv_get_u64(m, f->id, &u)) != 0)
			return rc;
		if ((f->kind == K_U32 && u > UINT32_MAX) || (f->kind == K_U16 && u > UINT16_MAX) ||
		    (f->kind == K_BOOL && u > 1) || (f->kind == K_CHAR && u > 127))
			return -WS_E_PROTO;
		if (f->kind == K_U32)
			*(uint32_t *)p = (uint32_t)u;
		else if (f->kind == K_U16)
			*(uint16_t *)p = (uint16_t)u;
		else if (f->kind == K_U64)
			*(uint64_t *)p = u;
		else if (f->kind == K_BOOL)
			*(bool *)p = u != 0;
		else
			*(char *)p = (char)u;
		return 0;
	case K_I64:
		return ws_tlv_get_i64(m, f->id, (int64_t *)p);
	case K_INT:
	case K_ENUM:
		if ((rc = ws_tlv_get_i64(m, f->id, &s)) != 0)
			return rc;
		if (s < -2147483647LL || s > 2147483647LL)
			return -WS_E_PROTO;
		*(int *)p = (int)s;
		return 0;
	case K_F64: {
		double d;
		if ((rc = ws_tlv_get_f64(m, f->id, &d)) != 0)
			return rc;
		if (!isfinite(d)) /* never let NaN or inf from the wire reach a report */
			return -WS_E_PROTO;
		*(double *)p = d;
		return 0;
	}
	case K_STR:
		return ws_tlv_get_str(m, f->id, (char *)p, f->size);
	}
	return -WS_E_PROTO;
}

static int get_fields(const ws_tlv_msg *m, const struct field_map *map, size_t n, void *obj,
		      const char *what, ws_err *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = get_field(m, &map[i], (char *)obj + map[i].off);
		if (rc < 0)
			return ws_err_set(err, WS_E_PROTO,
					  "%s field %u has the wrong type or value", what,
					  map[i].id);
	}
	return 0;
}

/* Enums travel as int: the spec's enum members must be int-sized for K_ENUM. */
_Static_assert(sizeof(enum ws_test_type) == sizeof(int), "enum size");

void ws_msg_put_spec(ws_tlv_writer *w, const ws_test_spec *s)
{
	put_fields(w, spec_fields, COUNT(spec_fields), s);
}

int ws_msg_get_spec(const ws_tlv_msg *m, ws_test_spec *s, ws_err *err)
{
	ws_test_spec_init(s);
	return get_fields(m, spec_fields, COUNT(spec_fields), s, "test spec", err);
}

/* Per-flow and per-thread records: one BYTES field each, repeated, fixed layout. */
#define F_FLOW     300
#define F_THREAD   301
#define FLOW_REC   32 /* u64 bytes, u64 calls, i64 elapsed, u32 thread, i32 error; then why */
#define THREAD_REC 24 /* i64 user, i64 sys, i32 cpu, u32 flows */

void ws_msg_put_side(ws_tlv_writer *w, const ws_side_result *r)
{
	put_fields(w, side_fields, COUNT(side_fields), r);
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
	int rc = get_fields(m, side_fields, COUNT(side_fields), r, "result", err);
	if (rc >= 0)
		rc = get_records(m, r, err);
	/* the peer's strings, cleaned for printing (util/text.h) */
	ws_text_clean(r->io_path, true);
	ws_text_clean(r->io_note, true);
	ws_text_clean(r->cong_set, true);
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
