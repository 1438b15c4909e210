/* SPDX-License-Identifier: BSD-2-Clause */
/* npmsg: netperf 2.7's 656-byte control messages; see npmsg.h. Offsets are byte offsets
 * from the start of the message, as in docs/wire/netperf.md. */
#include "ctl/npmsg.h"

#include "util/bytes.h"
#include "util/err.h"
#include "util/text.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

_Static_assert(sizeof(float) == 4, "netperf's floats are IEEE-754 32-bit");
_Static_assert(sizeof(double) == 8, "the legacy results carry an IEEE-754 64-bit double");

static void put_u32(uint8_t *m, size_t off, uint32_t v) { ws_put_be32(m + off, v); }

static void put_i32(uint8_t *m, size_t off, int32_t v) { ws_put_be32(m + off, (uint32_t)v); }

static void put_f32(uint8_t *m, size_t off, float f)
{
	uint32_t v;
	memcpy(&v, &f, sizeof(v));
	ws_put_be32(m + off, v);
}

static uint32_t get_u32(const uint8_t *m, size_t off) { return ws_get_be32(m + off); }

static int32_t get_i32(const uint8_t *m, size_t off)
{
	uint32_t v = ws_get_be32(m + off);
	int32_t s;
	memcpy(&s, &v, sizeof(s)); /* two's complement without an out-of-range conversion */
	return s;
}

static float get_f32(const uint8_t *m, size_t off)
{
	uint32_t v = ws_get_be32(m + off);
	float f;
	memcpy(&f, &v, sizeof(f));
	return f;
}

static void put_u64(uint8_t *m, size_t off, uint64_t v)
{
	put_u32(m, off, (uint32_t)(v >> 32));
	put_u32(m, off + 4, (uint32_t)v);
}

static uint64_t get_u64(const uint8_t *m, size_t off)
{
	return (uint64_t)get_u32(m, off) << 32 | get_u32(m, off + 4);
}

/* A fixed char[size] field: the text and its NUL, truncated to size-1 characters. */
static void put_str(uint8_t *m, size_t off, size_t size, const char *s)
{
	size_t n = s ? strnlen(s, size - 1) : 0;
	memcpy(m + off, s ? s : "", n);
	memset(m + off + n, 0, size - n);
}

/* Copy a fixed char[size] field into out[size], always terminated: a field without a NUL
 * keeps its first size-1 characters (netperf's own fields are always terminated; a peer
 * that fills one to the brim gets truncated, never a read past the field). */
/* Every string of netperf's messages is the peer's: cleaned for printing (util/text.h). */
static void get_str(const uint8_t *m, size_t off, size_t size, char *out)
{
	size_t n = strnlen((const char *)m + off, size - 1);
	memcpy(out, m + off, n);
	memset(out + n, 0, size - n);
	ws_text_clean(out, true);
}

static void header(uint8_t *m, int32_t type, int32_t word1)
{
	memset(m, 0, WS_NP_MSG_LEN);
	put_i32(m, 0, type);
	put_i32(m, 4, word1);
}

int32_t ws_np_type(const uint8_t *msg) { return get_i32(msg, 0); }

int32_t ws_np_word1(const uint8_t *msg) { return get_i32(msg, 4); }

int ws_np_conv_words(int32_t type)
{
	switch (type) {
	case WS_NP_DO_OMNI:
		return 2 + 38;
	case WS_NP_OMNI_RESPONSE:
		return 2 + 18;
	case WS_NP_OMNI_RESULTS:
		return 2 + 27;
	case WS_NP_PASSPHRASE:
	case WS_NP_SYSINFO_RESPONSE:
		return 2;
	default: /* also every legacy message */
		return WS_NP_WORDS;
	}
}

static const struct {
	int32_t type;
	const char *name;
	/* clang-format off */
} type_names[] = {
	{WS_NP_DEBUG_ON, "DEBUG_ON"}, {WS_NP_DEBUG_OFF, "DEBUG_OFF"},
	{WS_NP_DEBUG_OK, "DEBUG_OK"}, {WS_NP_NODE_IDENTIFY, "NODE_IDENTIFY"},
	{WS_NP_CPU_CALIBRATE, "CPU_CALIBRATE"}, {WS_NP_PASSPHRASE, "PASSPHRASE"},
	{10, "DO_TCP_STREAM"}, {13, "DO_TCP_RR"}, {16, "DO_UDP_STREAM"}, {19, "DO_UDP_RR"},
	{34, "DO_TCP_CRR"}, {94, "DO_TCP_MAERTS"}, {300, "DO_TCP_CC"},
	{WS_NP_DO_OMNI, "DO_OMNI"}, {WS_NP_OMNI_RESPONSE, "OMNI_RESPONSE"},
	{WS_NP_OMNI_RESULTS, "OMNI_RESULTS"}, {WS_NP_DO_SYSINFO, "DO_SYSINFO"},
	{WS_NP_SYSINFO_RESPONSE, "SYSINFO_RESPONSE"},
};
/* clang-format on */

int ws_np_is_legacy_request(int32_t type)
{
	switch (type) {
	case 10:
	case 13:
	case 16:
	case 19:
	case 34:
	case 94:
	case 300:
		return 1;
	default:
		return 0;
	}
}

const char *ws_np_type_name(int32_t type)
{
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].type == type)
			return type_names[i].name;
	return "unknown";
}

static int check_port(uint32_t v, const char *what, ws_err *err)
{
	if (v <= 65535)
		return 0;
	return ws_err_set(err, WS_E_PROTO, "netperf %s %u is not a port; 0..65535 is accepted",
			  what, (unsigned)v);
}

static int check_type(const uint8_t *msg, int32_t want, ws_err *err)
{
	int32_t t = ws_np_type(msg);
	if (t == want)
		return 0;
	return ws_err_set(err, WS_E_PROTO,
			  "netperf message type %ld (%s) where %s (%ld) was expected", (long)t,
			  ws_np_type_name(t), ws_np_type_name(want), (long)want);
}

void ws_np_omni_req_defaults(ws_np_omni_req *r)
{
	memset(r, 0, sizeof(*r));
	r->cpu = -1;
	r->send_buf_size = r->recv_buf_size = -1;
	r->send_size = r->receive_size = 0xffffffffu;
	r->send_alignment = r->recv_alignment = 8;
	r->request_size = r->response_size = -1;
	r->send_dirty = r->recv_dirty = r->recv_clean = 0xffffffffu;
	r->socket_prio = r->socket_tos = -1;
}

/* --- the messages as field tables ----------------------------------------------------
 * Each message is a list of (wire offset, kind, struct member): one table serves both the
 * encoder and the decoder, so the two cannot disagree. Word 1 (the CPU in requests,
 * serv_errno in replies) is the first entry. */
enum kind { K_I32, K_U32, K_F32, K_U64, K_F64, K_STR };

typedef struct field {
	uint16_t wire;
	uint8_t kind;
	uint16_t mem, size; /* offset and size of the struct member */
} field;

#define FLD(kind, wire, type, member)                             \
	{                                                         \
		(wire), (kind), (uint16_t)offsetof(type, member), \
			(uint16_t)sizeof(((type *)0)->member)     \
	}
#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* Every 32-bit kind must sit in a 4-byte member, the 64-bit ones in 8 bytes: checked by
 * the tables' round trip in tests/unit/test_npmsg.c and the fuzzer. */
static void encode(const field *f, size_t n, int32_t type, const void *st, uint8_t *msg)
{
	const char *b = st;
	memset(msg, 0, WS_NP_MSG_LEN);
	put_i32(msg, 0, type);
	for (size_t i = 0; i < n; i++) {
		const char *p = b + f[i].mem;
		uint32_t u;
		uint64_t v;
		switch (f[i].kind) {
		case K_STR:
			put_str(msg, f[i].wire, f[i].size, p);
			break;
		case K_U64:
		case K_F64: /* a double as its IEEE-754 bits, big-endian */
			memcpy(&v, p, sizeof(v));
			put_u64(msg, f[i].wire, v);
			break;
		default: /* i32, u32 and f32 all travel as their 32 bits */
			memcpy(&u, p, sizeof(u));
			put_u32(msg, f[i].wire, u);
		}
	}
}

static void decode(const field *f, size_t n, const uint8_t *msg, void *st)
{
	char *b = st;
	for (size_t i = 0; i < n; i++) {
		char *p = b + f[i].mem;
		uint32_t u;
		uint64_t v;
		switch (f[i].kind) {
		case K_STR:
			get_str(msg, f[i].wire, f[i].size, p);
			break;
		case K_U64:
		case K_F64:
			v = get_u64(msg, f[i].wire);
			memcpy(p, &v, sizeof(v));
			break;
		default:
			u = get_u32(msg, f[i].wire);
			memcpy(p, &u, sizeof(u));
		}
	}
}

/* DO_OMNI request: 2 + 38 words converted (bytes 0..159), strings raw from 160. */
#define R(kind, wire, member) FLD(kind, wire, ws_np_omni_req, member)
/* clang-format off */
static const field omni_req[] = {
	R(K_I32, 4, cpu), R(K_I32, 8, send_buf_size), R(K_U32, 12, send_size),
	R(K_U32, 16, send_alignment), R(K_U32, 20, send_offset), R(K_U32, 24, send_width),
	R(K_I32, 28, request_size), R(K_I32, 32, recv_buf_size), R(K_U32, 36, receive_size),
	R(K_U32, 40, recv_alignment), R(K_U32, 44, recv_offset), R(K_U32, 48, recv_width),
	R(K_I32, 52, response_size), R(K_U32, 56, flags), R(K_F32, 60, cpu_rate),
	R(K_I32, 64, test_length), R(K_U32, 68, so_rcvavoid), R(K_U32, 72, so_sndavoid),
	R(K_U32, 76, send_dirty), R(K_U32, 80, recv_dirty), R(K_U32, 84, recv_clean),
	R(K_U32, 88, data_port), R(K_U32, 92, ipfamily), R(K_U32, 96, socket_type),
	R(K_U32, 100, protocol), R(K_U32, 104, direction), R(K_U32, 108, netperf_port),
	R(K_U32, 112, interval_burst), R(K_U32, 116, interval_usecs),
	R(K_U32, 120, netperf_ip[0]), R(K_U32, 124, netperf_ip[1]), R(K_U32, 128, netperf_ip[2]),
	R(K_U32, 132, netperf_ip[3]), R(K_U32, 136, netserver_ip[0]),
	R(K_U32, 140, netserver_ip[1]), R(K_U32, 144, netserver_ip[2]),
	R(K_U32, 148, netserver_ip[3]), R(K_I32, 152, socket_prio), R(K_I32, 156, socket_tos),
	R(K_STR, 160, cong_control), R(K_STR, 176, fill_file),
};
/* clang-format on */
#undef R

/* OMNI response: 2 + 18 words converted (bytes 0..79), strings raw from 80. */
#define R(kind, wire, member) FLD(kind, wire, ws_np_omni_rsp, member)
/* clang-format off */
static const field omni_rsp[] = {
	R(K_I32, 4, serv_errno), R(K_I32, 8, recv_buf_size), R(K_I32, 12, receive_size),
	R(K_I32, 16, recv_width), R(K_I32, 20, send_buf_size), R(K_I32, 24, send_size),
	R(K_I32, 28, send_width), R(K_U32, 32, flags), R(K_F32, 36, cpu_rate),
	R(K_I32, 40, test_length), R(K_U32, 44, so_rcvavoid), R(K_U32, 48, so_sndavoid),
	R(K_U32, 52, data_port), R(K_U32, 56, interval_burst), R(K_U32, 60, interval_usecs),
	R(K_U32, 64, cpu_frequency), R(K_U32, 68, security_info), R(K_I32, 72, socket_prio),
	R(K_I32, 76, socket_tos), R(K_STR, 80, system_model), R(K_STR, 113, cpu_model),
	R(K_STR, 193, security_string),
};
/* clang-format on */
#undef R

/* Omni results: 2 + 27 words converted (bytes 0..115), strings raw from 116. */
#define R(kind, wire, member) FLD(kind, wire, ws_np_omni_results, member)
/* clang-format off */
static const field omni_results[] = {
	R(K_I32, 4, serv_errno), R(K_U64, 8, bytes_received), R(K_U32, 16, recv_calls),
	R(K_I32, 20, recv_buf_size), R(K_U64, 24, bytes_sent), R(K_U32, 32, send_calls),
	R(K_I32, 36, send_buf_size), R(K_U32, 40, failed_sends), R(K_U32, 44, trans_received),
	R(K_F32, 48, elapsed_time), R(K_F32, 52, cpu_util), R(K_F32, 56, cpu_user),
	R(K_F32, 60, cpu_system), R(K_F32, 64, cpu_iowait), R(K_F32, 68, cpu_irq),
	R(K_F32, 72, cpu_softirq), R(K_F32, 76, serv_dem), R(K_U32, 80, cpu_method),
	R(K_U32, 84, num_cpus), R(K_I32, 88, peak_cpu_id), R(K_F32, 92, peak_cpu_util),
	R(K_I32, 96, pci_vendor), R(K_I32, 100, pci_device), R(K_I32, 104, pci_subvendor),
	R(K_I32, 108, pci_subdevice), R(K_I32, 112, transport_retrans), R(K_STR, 116, ifname),
	R(K_STR, 132, driver), R(K_STR, 164, version), R(K_STR, 196, firmware),
	R(K_STR, 228, bus), R(K_STR, 260, ifslot), R(K_STR, 276, cong_control),
};
/* clang-format on */
#undef R

/* The legacy DO_TCP_STREAM exchange: every word converted. */
#define R(kind, wire, member) FLD(kind, wire, ws_np_stream_req, member)
/* clang-format off */
static const field stream_req[] = {
	R(K_I32, 4, cpu), R(K_I32, 8, send_buf_size), R(K_I32, 12, recv_buf_size),
	R(K_I32, 16, receive_size), R(K_I32, 20, recv_alignment), R(K_I32, 24, recv_offset),
	R(K_I32, 28, no_delay), R(K_I32, 32, measure_cpu), R(K_F32, 36, cpu_rate),
	R(K_I32, 40, test_length), R(K_I32, 44, so_rcvavoid), R(K_I32, 48, so_sndavoid),
	R(K_I32, 52, dirty_count), R(K_I32, 56, clean_count), R(K_U32, 60, data_port),
	R(K_U32, 64, ipfamily),
};
/* clang-format on */
#undef R
#define R(kind, wire, member) FLD(kind, wire, ws_np_stream_rsp, member)
/* clang-format off */
static const field stream_rsp[] = {
	R(K_I32, 4, serv_errno), R(K_I32, 8, recv_buf_size), R(K_I32, 12, receive_size),
	R(K_I32, 16, no_delay), R(K_I32, 20, measure_cpu), R(K_I32, 24, test_length),
	R(K_I32, 28, send_buf_size), R(K_U32, 32, data_port), R(K_F32, 36, cpu_rate),
	R(K_I32, 40, so_rcvavoid), R(K_I32, 44, so_sndavoid),
};
/* clang-format on */
#undef R
#define R(kind, wire, member) FLD(kind, wire, ws_np_stream_results, member)
/* clang-format off */
static const field stream_results[] = {
	R(K_I32, 4, serv_errno), R(K_F64, 8, bytes_received), R(K_U32, 16, recv_calls),
	R(K_F32, 20, elapsed_time), R(K_F32, 24, cpu_util), R(K_F32, 28, serv_dem),
	R(K_U32, 32, cpu_method), R(K_U32, 36, num_cpus), R(K_I32, 40, recv_buf_size),
	R(K_I32, 44, send_buf_size),
};
/* clang-format on */
#undef R

/* The legacy DO_TCP_CC exchange: every word converted. */
#define R(kind, wire, member) FLD(kind, wire, ws_np_cc_req, member)
/* clang-format off */
static const field cc_req[] = {
	R(K_I32, 4, cpu), R(K_I32, 8, recv_buf_size), R(K_I32, 12, send_buf_size),
	R(K_I32, 16, recv_alignment), R(K_I32, 20, recv_offset), R(K_I32, 24, send_alignment),
	R(K_I32, 28, send_offset), R(K_I32, 32, request_size), R(K_I32, 36, response_size),
	R(K_I32, 40, no_delay), R(K_I32, 44, measure_cpu), R(K_F32, 48, cpu_rate),
	R(K_I32, 52, test_length), R(K_I32, 56, so_rcvavoid), R(K_I32, 60, so_sndavoid),
	R(K_U32, 64, data_port), R(K_U32, 68, ipfamily),
};
/* clang-format on */
#undef R
#define R(kind, wire, member) FLD(kind, wire, ws_np_cc_rsp, member)
/* clang-format off */
static const field cc_rsp[] = {
	R(K_I32, 4, serv_errno), R(K_I32, 8, recv_buf_size), R(K_I32, 12, no_delay),
	R(K_I32, 16, measure_cpu), R(K_I32, 20, test_length), R(K_I32, 24, send_buf_size),
	R(K_U32, 28, data_port), R(K_F32, 32, cpu_rate), R(K_I32, 36, so_rcvavoid),
	R(K_I32, 40, so_sndavoid),
};
/* clang-format on */
#undef R
#define R(kind, wire, member) FLD(kind, wire, ws_np_cc_results, member)
/* clang-format off */
static const field cc_results[] = {
	R(K_I32, 4, serv_errno), R(K_U32, 8, bytes_received), R(K_U32, 12, recv_calls),
	R(K_U32, 16, trans_received), R(K_F32, 20, elapsed_time), R(K_F32, 24, cpu_util),
	R(K_F32, 28, serv_dem), R(K_U32, 32, cpu_method), R(K_U32, 36, num_cpus),
};
/* clang-format on */
#undef R

/* What both request kinds refuse: a CPU rate that is not a finite rate of 0 or more, the
 * test length INT32_MIN (its count has no positive value), a family outside families. */
static int check_request(float rate, int32_t length, uint32_t family, uint32_t max_family,
			 ws_err *err)
{
	if (!isfinite(rate) || rate < 0.0f)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)rate);
	if (length == INT32_MIN)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf test length %ld; -2147483647..2147483647 is accepted",
				  (long)length);
	if (family != 0 && family != 4 && family != 6 && family != max_family)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf address family %u; 0 (any), 4%s is accepted",
				  (unsigned)family, max_family == 7 ? ", 6 or 7 (RDS)" : " or 6");
	return 0;
}

void ws_np_encode_omni_req(const ws_np_omni_req *r, uint8_t *msg)
{
	encode(omni_req, NFIELDS(omni_req), WS_NP_DO_OMNI, r, msg);
}

int ws_np_decode_omni_req(const uint8_t *msg, ws_np_omni_req *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = check_type(msg, WS_NP_DO_OMNI, err);
	if (rc < 0)
		return rc;
	decode(omni_req, NFIELDS(omni_req), msg, r);
	if ((rc = check_port(r->data_port, "data port", err)) < 0 ||
	    (rc = check_port(r->netperf_port, "client data port", err)) < 0 ||
	    (rc = check_request(r->cpu_rate, r->test_length, r->ipfamily, 7, err)) < 0)
		return rc;
	if (r->direction == 0 || (r->direction & ~(uint32_t)(WS_NP_DIR_SEND | WS_NP_DIR_RECV)))
		return ws_err_set(
			err, WS_E_PROTO,
			"netperf direction 0x%x; 0x2 (send), 0x4 (receive) or 0x6 is accepted",
			(unsigned)r->direction);
	return 0;
}

/* A reply with serv_errno set is an error reply whatever its type (netperf checks only
 * serv_errno): 1 with only that filled in, else 0 after checking the type. */
static int error_reply(const uint8_t *msg, int32_t type, int32_t *serv_errno, ws_err *err)
{
	*serv_errno = ws_np_word1(msg);
	if (*serv_errno != 0)
		return 1;
	return check_type(msg, type, err);
}

void ws_np_encode_omni_rsp(const ws_np_omni_rsp *r, uint8_t *msg)
{
	encode(omni_rsp, NFIELDS(omni_rsp), WS_NP_OMNI_RESPONSE, r, msg);
}

int ws_np_decode_omni_rsp(const uint8_t *msg, ws_np_omni_rsp *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = error_reply(msg, WS_NP_OMNI_RESPONSE, &r->serv_errno, err);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	decode(omni_rsp, NFIELDS(omni_rsp), msg, r);
	if ((rc = check_port(r->data_port, "data port", err)) < 0)
		return rc;
	if ((r->flags & WS_NP_F_MEASURE_CPU) && (!isfinite(r->cpu_rate) || r->cpu_rate < 0.0f))
		return ws_err_set(err, WS_E_PROTO,
				  "netserver CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r->cpu_rate);
	return 0;
}

void ws_np_encode_omni_results(const ws_np_omni_results *r, uint8_t *msg)
{
	encode(omni_results, NFIELDS(omni_results), WS_NP_OMNI_RESPONSE, r, msg);
}

int ws_np_decode_omni_results(const uint8_t *msg, ws_np_omni_results *r, ws_err *err)
{
	(void)err; /* every bit pattern decodes; see ws_np_results_check_cpu */
	memset(r, 0, sizeof(*r));
	decode(omni_results, NFIELDS(omni_results), msg, r);
	return 0;
}

static int check_pct(float v, const char *what, ws_err *err)
{
	if (isfinite(v) && v >= 0.0f && v <= 100.5f)
		return 0;
	return ws_err_set(err, WS_E_PROTO, "netserver %s %g%%; 0..100%% is accepted", what,
			  (double)v);
}

int ws_np_results_check_cpu(const ws_np_omni_results *r, ws_err *err)
{
	int rc;
	if ((rc = check_pct(r->cpu_util, "CPU utilisation", err)) < 0 ||
	    (rc = check_pct(r->cpu_user, "user CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_system, "system CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_iowait, "iowait CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_irq, "irq CPU", err)) < 0 ||
	    (rc = check_pct(r->cpu_softirq, "softirq CPU", err)) < 0)
		return rc;
	if (r->num_cpus < 1 || r->num_cpus > 65536)
		return ws_err_set(err, WS_E_PROTO, "netserver CPU count %u; 1..65536 is accepted",
				  (unsigned)r->num_cpus);
	return 0;
}

void ws_np_encode_stream_req(const ws_np_stream_req *r, uint8_t *msg)
{
	encode(stream_req, NFIELDS(stream_req), WS_NP_DO_TCP_STREAM, r, msg);
}

int ws_np_decode_stream_req(const uint8_t *msg, ws_np_stream_req *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = check_type(msg, WS_NP_DO_TCP_STREAM, err);
	if (rc < 0)
		return rc;
	decode(stream_req, NFIELDS(stream_req), msg, r);
	if ((rc = check_port(r->data_port, "data port", err)) < 0)
		return rc;
	return check_request(r->cpu_rate, r->test_length, r->ipfamily, 6, err);
}

void ws_np_encode_stream_rsp(const ws_np_stream_rsp *r, uint8_t *msg)
{
	encode(stream_rsp, NFIELDS(stream_rsp), WS_NP_TCP_STREAM_RESPONSE, r, msg);
}

int ws_np_decode_stream_rsp(const uint8_t *msg, ws_np_stream_rsp *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = error_reply(msg, WS_NP_TCP_STREAM_RESPONSE, &r->serv_errno, err);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	decode(stream_rsp, NFIELDS(stream_rsp), msg, r);
	return check_port(r->data_port, "data port", err);
}

void ws_np_encode_stream_results(const ws_np_stream_results *r, uint8_t *msg)
{
	encode(stream_results, NFIELDS(stream_results), WS_NP_TCP_STREAM_RESPONSE, r, msg);
}

int ws_np_decode_stream_results(const uint8_t *msg, ws_np_stream_results *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	decode(stream_results, NFIELDS(stream_results), msg, r);
	if (!isfinite(r->bytes_received) || r->bytes_received < 0)
		return ws_err_set(
			err, WS_E_PROTO,
			"netserver byte count %g; a finite count of 0 or more is accepted",
			r->bytes_received);
	return 0;
}

int ws_np_encode_passphrase(const char *text, uint8_t *msg, ws_err *err)
{
	size_t n = strlen(text);
	if (n > WS_NP_PASSPHRASE_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "passphrase of %zu characters; at most %d are accepted", n,
				  WS_NP_PASSPHRASE_MAX);
	header(msg, WS_NP_PASSPHRASE, -1); /* netperf sends word 1 as -1 */
	memcpy(msg + 8, text, n);
	return 0;
}

/* Text from byte 8 into out[outsz]: -WS_E_PROTO when the 648 bytes hold no NUL or the
 * text does not fit out. */
static int get_text(const uint8_t *msg, char *out, size_t outsz, const char *what, ws_err *err)
{
	size_t n = strnlen((const char *)msg + 8, WS_NP_MSG_LEN - 8);
	if (outsz)
		out[0] = '\0';
	if (n == WS_NP_MSG_LEN - 8)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf %s text is not terminated; at most %d characters and a "
				  "NUL are accepted",
				  what, WS_NP_MSG_LEN - 9);
	if (n >= outsz)
		return ws_err_set(err, WS_E_PROTO,
				  "netperf %s text of %zu characters; at most %zu are accepted",
				  what, n, outsz ? outsz - 1 : 0);
	memcpy(out, msg + 8, n);
	out[n] = '\0';
	return 0;
}

int ws_np_decode_passphrase(const uint8_t *msg, char *out, size_t outsz, ws_err *err)
{
	int rc = check_type(msg, WS_NP_PASSPHRASE, err);
	if (rc < 0) {
		if (outsz)
			out[0] = '\0';
		return rc;
	}
	return get_text(msg, out, outsz, "passphrase", err);
}

void ws_np_encode_calibrate_reply(float rate, int32_t ncpus, uint8_t *msg)
{
	header(msg, WS_NP_CPU_CALIBRATE, 0);
	put_f32(msg, 8, rate);
	put_i32(msg, 12, ncpus);
}

int ws_np_decode_calibrate_reply(const uint8_t *msg, float *rate, int32_t *ncpus, ws_err *err)
{
	*rate = 0.0f;
	*ncpus = 0;
	int32_t e = ws_np_word1(msg);
	if (e != 0)
		return ws_err_set(err, WS_E_REMOTE,
				  "netserver refused CPU_CALIBRATE: remote error %ld", (long)e);
	int rc = check_type(msg, WS_NP_CPU_CALIBRATE, err);
	if (rc < 0)
		return rc;
	float r = get_f32(msg, 8);
	int32_t n = get_i32(msg, 12);
	if (!isfinite(r) || r < 0.0f)
		return ws_err_set(err, WS_E_PROTO,
				  "netserver CPU rate %g; a finite rate of 0 or more is accepted",
				  (double)r);
	if (n < 1 || n > 65536)
		return ws_err_set(err, WS_E_PROTO, "netserver CPU count %ld; 1..65536 is accepted",
				  (long)n);
	*rate = r;
	*ncpus = n;
	return 0;
}

void ws_np_encode_sysinfo_reply(int32_t serv_errno, const char *text, uint8_t *msg)
{
	header(msg, WS_NP_SYSINFO_RESPONSE, serv_errno);
	put_str(msg, 8, WS_NP_MSG_LEN - 8, text);
}

int ws_np_decode_sysinfo_reply(const uint8_t *msg, char *out, size_t outsz, ws_err *err)
{
	int rc = check_type(msg, WS_NP_SYSINFO_RESPONSE, err);
	if (rc < 0) {
		if (outsz)
			out[0] = '\0';
		return rc;
	}
	return get_text(msg, out, outsz, "SYSINFO", err);
}

void ws_np_encode_error(int32_t type, int32_t serv_errno, uint8_t *msg)
{
	header(msg, type, serv_errno);
}

int32_t ws_np_errno(int code)
{
	if (code < 0)
		code = -code;
	switch (code) {
	case WS_E_LIMIT:
		return EBUSY;
	case WS_E_TIMEDOUT:
		return ETIMEDOUT;
	case WS_E_PROTO:
		return EPROTO;
	default:
		return code > 0 && code < 4000 ? code : EINVAL;
	}
}

/* The in4 word is the address as a host integer: its bytes in network order. */
void ws_np_addr_from_in4(const uint8_t a[4], uint32_t w[4])
{
	w[0] = ws_get_be32(a);
	w[1] = w[2] = w[3] = 0;
}

void ws_np_addr_to_in4(const uint32_t w[4], uint8_t a[4]) { ws_put_be32(a, w[0]); }

/* The in6 words are the address bytes read as native words (memcpy, not shifts). */
void ws_np_addr_from_in6(const uint8_t a[16], uint32_t w[4]) { memcpy(w, a, 16); }

void ws_np_addr_to_in6(const uint32_t w[4], uint8_t a[16]) { memcpy(a, w, 16); }

void ws_np_encode_cc_req(const ws_np_cc_req *r, uint8_t *msg)
{
	encode(cc_req, NFIELDS(cc_req), WS_NP_DO_TCP_CC, r, msg);
}

int ws_np_decode_cc_req(const uint8_t *msg, ws_np_cc_req *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = check_type(msg, WS_NP_DO_TCP_CC, err);
	if (rc < 0)
		return rc;
	decode(cc_req, NFIELDS(cc_req), msg, r);
	if ((rc = check_port(r->data_port, "data port", err)) < 0)
		return rc;
	return check_request(r->cpu_rate, r->test_length, r->ipfamily, 6, err);
}

void ws_np_encode_cc_rsp(const ws_np_cc_rsp *r, uint8_t *msg)
{
	encode(cc_rsp, NFIELDS(cc_rsp), WS_NP_TCP_CC_RESPONSE, r, msg);
}

int ws_np_decode_cc_rsp(const uint8_t *msg, ws_np_cc_rsp *r, ws_err *err)
{
	memset(r, 0, sizeof(*r));
	int rc = error_reply(msg, WS_NP_TCP_CC_RESPONSE, &r->serv_errno, err);
	if (rc != 0)
		return rc < 0 ? rc : 0;
	decode(cc_rsp, NFIELDS(cc_rsp), msg, r);
	return check_port(r->data_port, "data port", err);
}

void ws_np_encode_cc_results(const ws_np_cc_results *r, uint8_t *msg)
{
	encode(cc_results, NFIELDS(cc_results), WS_NP_TCP_CC_RESPONSE, r, msg);
}

void ws_np_decode_cc_results(const uint8_t *msg, ws_np_cc_results *r)
{
	memset(r, 0, sizeof(*r));
	decode(cc_results, NFIELDS(cc_results), msg, r);
}
