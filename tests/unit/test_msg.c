/* SPDX-License-Identifier: BSD-2-Clause */
/* test_msg: specs and side results through their field tables and back. Each struct is
 * filled with a distinct non-default value in every member and compared whole after the
 * round trip, so a member missing from a table, or mapped to the wrong kind, fails here.
 * Hand-built messages check that absent fields keep their defaults, that values which do
 * not fit their member are refused, and that ERROR messages keep their code and text. */
#include "harness.h"
#include "tlv_frame.h"

#include "ctl/msg.h"
#include "model/result.h"
#include "util/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void full_spec(ws_test_spec *s)
{
	memset(s, 0, sizeof(*s)); /* zero padding, so memcmp compares members only */
	s->type = WS_TEST_UDP_RR;
	s->end = WS_END_TRANSACTIONS;
	s->duration_s = 2.625;
	s->end_count = 0x0123456789abcdefULL;
	s->send_size = 4000000001u;
	s->recv_size = 65537;
	s->nodelay = true;
	s->rcvlowat = 1048577;
	s->family = WS_FAMILY_INET6;
	s->local.sndbuf = 131072;
	s->local.rcvbuf = 262145;
	s->local.cpu = 3;
	s->local.measure_cpu = true;
	s->local.data_port = 65535;
	s->remote.sndbuf = 4294967295u;
	s->remote.rcvbuf = 7;
	s->remote.cpu = 65535;
	s->remote.measure_cpu = true;
	s->remote.data_port = 12866;
	s->remote.tos = 0xb8;
	s->remote.priority = 2147483647;
	snprintf(s->remote.cong, sizeof(s->remote.cong), "%s", "fifteen-chars-x");
	s->cork = true;
	s->keepalive = true;
	s->udp_flow_control = true;
	s->udp_pace_bps = 2.5e9;
	snprintf(s->data_host, sizeof(s->data_host), "%s", "192.0.2.1");
	snprintf(s->data_local, sizeof(s->data_local), "%s", "2001:db8::ffff:ffff:ffff:ffff:ffff:ffff");
}

/* The harness options travel under spec ids 131-139 with these exact values, and the
 * client-only ones (the local -Y -y -K values, -G) do not travel at all. */
static void test_harness_fields(void)
{
	const char *t = "harness_fields";
	ws_test_spec in, out;
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	full_spec(&in);
	in.local.tos = 0x10;
	in.local.priority = 3;
	snprintf(in.local.cong, sizeof(in.local.cong), "%s", "reno");
	in.maxseg = 1000;
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&w, &in);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	int64_t i;
	uint64_t u;
	double d;
	char str[80];
	CHECK(t, ws_tlv_get_i64(&m, 131, &i) == 0 && i == 0xb8);
	CHECK(t, ws_tlv_get_i64(&m, 132, &i) == 0 && i == 2147483647);
	CHECK(t, ws_tlv_get_str(&m, 133, str, sizeof(str)) == 0 && strcmp(str, "fifteen-chars-x") == 0);
	CHECK(t, ws_tlv_get_u64(&m, 134, &u) == 0 && u == 1);
	CHECK(t, ws_tlv_get_u64(&m, 135, &u) == 0 && u == 1);
	CHECK(t, ws_tlv_get_u64(&m, 136, &u) == 0 && u == 1);
	CHECK(t, ws_tlv_get_f64(&m, 137, &d) == 0 && d == 2.5e9);
	CHECK(t, ws_tlv_get_str(&m, 138, str, sizeof(str)) == 0 && strcmp(str, "192.0.2.1") == 0);
	CHECK(t, ws_tlv_get_str(&m, 139, str, sizeof(str)) == 0 &&
		       strcmp(str, "2001:db8::ffff:ffff:ffff:ffff:ffff:ffff") == 0);
	CHECK_INT(t, ws_msg_get_spec(&m, &out, &err), 0);
	ws_tlv_writer_free(&w);
	CHECK_INT(t, out.local.tos, 0);
	CHECK_INT(t, out.local.priority, 0);
	CHECK_STR(t, out.local.cong, "");
	CHECK_INT(t, out.maxseg, 0);
	CHECK_INT(t, out.remote.tos, 0xb8);
	CHECK_STR(t, out.remote.cong, "fifteen-chars-x");
	/* a congestion control name the daemon must never hand the kernel */
	ws_test_spec_init(&in);
	snprintf(in.remote.cong, sizeof(in.remote.cong), "%s", "../x");
	CHECK(t, ws_test_spec_validate(&in, &err) < 0);
	CHECK(t, strstr(err.msg, "remote congestion control name is invalid") != NULL);
	in.remote.cong[0] = '\0';
	in.remote.tos = 256;
	CHECK(t, ws_test_spec_validate(&in, &err) < 0);
	CHECK(t, strstr(err.msg, "remote IP_TOS 256 is invalid; expected 0 to 255") != NULL);
	in.remote.tos = 0;
	in.maxseg = 87;
	CHECK(t, ws_test_spec_validate(&in, &err) < 0);
	CHECK(t, strstr(err.msg, "TCP_MAXSEG 87 is invalid; expected 88 to 65535 bytes") != NULL);
	in.maxseg = 0;
	in.udp_pace_bps = -1;
	CHECK(t, ws_test_spec_validate(&in, &err) < 0);
	CHECK(t, strstr(err.msg, "a pace of -1 bits/s is invalid") != NULL);
	in.udp_pace_bps = 0;
	/* the run a session is a part of (RPM's flows): a known test type or 0, nothing else */
	in.run_type = (enum ws_test_type)9999;
	CHECK(t, ws_test_spec_validate(&in, &err) < 0);
	CHECK(t, strstr(err.msg, "unknown run type 9999 (the run this session is a part of); "
				 "expected 0 or a test type") != NULL);
	in.run_type = WS_TEST_RPM;
	CHECK(t, ws_test_spec_validate(&in, &err) == 0);
}

static void full_side(ws_side_result *r)
{
	memset(r, 0, sizeof(*r));
	r->sndbuf_req = 1;
	r->rcvbuf_req = 2;
	r->sndbuf_set = 3;
	r->rcvbuf_set = 4;
	r->sndbuf_end = 5;
	r->rcvbuf_end = 4294967295u;
	r->send_size = 7;
	r->recv_size = 8;
	r->rcvlowat = 524289;
	r->bytes_sent = 10733393750ULL;
	r->bytes_recv = UINT64_MAX;
	r->send_calls = 11;
	r->recv_calls = 12;
	r->elapsed_ns = -13;
	r->cpu_measured = true;
	r->cpu_util = 99.5;
	r->cpu_user = 1e-300;
	r->cpu_system = -0.0;
	r->cpu_softirq = 12.125;
	r->cpu_method = 'S';
	r->ncpus = 14;
	r->thread_user_ns = INT64_MIN;
	r->thread_sys_ns = INT64_MAX;
	r->cpu_bound_to = 15;
	snprintf(r->hostname, sizeof(r->hostname), "%s",
		 "a-host-name-of-sixty-three-characters.example.org.xxxxxxxxxxxxx");
	snprintf(r->boot_id, sizeof(r->boot_id), "%s", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
}

static void test_spec_round_trip(void)
{
	const char *t = "spec_round_trip";
	ws_test_spec in, out;
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	full_spec(&in);
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&w, &in);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, m.type, WS_MSG_TEST_REQ);
	memset(&out, 0xa5, sizeof(out));
	CHECK_INT(t, ws_msg_get_spec(&m, &out, &err), 0);
	CHECK_MEM(t, &out, &in, sizeof(in));
	CHECK_INT(t, out.type, WS_TEST_UDP_RR);
	CHECK_INT(t, out.end, WS_END_TRANSACTIONS);
	CHECK(t, out.duration_s == 2.625);
	CHECK_U64(t, out.end_count, 0x0123456789abcdefULL);
	CHECK_U64(t, out.send_size, 4000000001u);
	CHECK_INT(t, out.local.cpu, 3);
	CHECK_INT(t, out.remote.data_port, 12866);
	CHECK_U64(t, out.remote.sndbuf, 4294967295u);

	/* Field ids are part of the wire contract: spot-check a few. */
	uint64_t u = 0;
	int64_t s = 0;
	CHECK_INT(t, ws_tlv_get_i64(&m, 100, &s), 0);
	CHECK_INT(t, s, WS_TEST_UDP_RR);
	CHECK_INT(t, ws_tlv_get_u64(&m, 104, &u), 0);
	CHECK_U64(t, u, 4000000001u);
	CHECK_INT(t, ws_tlv_get_u64(&m, 124, &u), 0);
	CHECK_U64(t, u, 65535);
	CHECK_INT(t, ws_tlv_get_i64(&m, 142, &s), 0);
	CHECK_INT(t, s, 65535);

	/* Negative ints (cpu -1) survive too. */
	ws_test_spec_init(&in);
	in.local.cpu = -1;
	in.remote.cpu = -7;
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_msg_put_spec(&w, &in);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_spec(&m, &out, &err), 0);
	CHECK_INT(t, out.local.cpu, -1);
	CHECK_INT(t, out.remote.cpu, -7);
	ws_tlv_writer_free(&w);
}

static void test_side_round_trip(void)
{
	const char *t = "side_round_trip";
	ws_side_result in, out;
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	full_side(&in);
	CHECK_INT(t, strlen(in.hostname), 63);
	ws_tlv_begin(&w, WS_MSG_RESULT);
	ws_msg_put_side(&w, &in);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	memset(&out, 0x5a, sizeof(out));
	CHECK_INT(t, ws_msg_get_side(&m, &out, &err), 0);
	CHECK_MEM(t, &out, &in, sizeof(in));
	CHECK_STR(t, out.hostname, in.hostname);
	CHECK_STR(t, out.boot_id, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");
	CHECK_INT(t, out.cpu_method, 'S');
	CHECK(t, out.cpu_user == 1e-300);
	CHECK(t, out.cpu_system == 0.0 && signbit(out.cpu_system));
	CHECK(t, out.thread_user_ns == INT64_MIN);
	CHECK_INT(t, out.elapsed_ns, -13);
	CHECK_U64(t, out.bytes_recv, UINT64_MAX);
	CHECK_INT(t, out.cpu_bound_to, 15);
	ws_tlv_writer_free(&w);
}

/* Per-flow and per-thread records travel as repeated fields and come back exactly. */
static void test_flow_records(void)
{
	const char *t = "flow_records";
	ws_side_result in, out;
	memset(&in, 0, sizeof(in));
	ws_flow_result flows[2] = {
		{.bytes = 123456789012ULL, .calls = 7, .elapsed_ns = 1000000001, .thread = 1},
		{.bytes = 5, .calls = 1, .elapsed_ns = 42, .thread = 0, .error = -104, .why = "recv: reset"},
	};
	ws_thread_result threads[1] = {{.user_ns = 11, .sys_ns = -3, .cpu = -1, .flows = 2}};
	in.flows = flows;
	in.nflows = 2;
	in.threads = threads;
	in.nthreads = 1;
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	ws_tlv_begin(&w, WS_MSG_RESULT);
	ws_msg_put_side(&w, &in);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_side(&m, &out, &err), 0);
	CHECK_INT(t, out.nflows, 2);
	CHECK_INT(t, out.nthreads, 1);
	CHECK_MEM(t, out.flows, flows, sizeof(flows));
	CHECK_MEM(t, out.threads, threads, sizeof(threads));
	CHECK_STR(t, out.flows[1].why, "recv: reset");
	ws_side_result_free(&out);
	CHECK(t, out.flows == NULL && out.nflows == 0);
	/* A flow record too short for its fixed part is refused and nothing stays allocated. */
	uint8_t shortrec[31] = {0};
	ws_tlv_begin(&w, WS_MSG_RESULT);
	ws_tlv_put_bytes(&w, 300, shortrec, sizeof(shortrec));
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_side(&m, &out, &err), -WS_E_PROTO);
	CHECK(t, out.flows == NULL && out.threads == NULL);
	ws_tlv_writer_free(&w);
}

/* Repeated port fields come back in order; a bad one or one too many is refused. */
static void test_ports(void)
{
	const char *t = "ports";
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	uint16_t ports[3];
	ws_tlv_begin(&w, WS_MSG_TEST_ACK);
	ws_tlv_put_u64(&w, WS_F_DATA_PORT, 5001);
	ws_tlv_put_u64(&w, WS_F_COOKIE + 100, 7); /* an unknown field in between is skipped */
	ws_tlv_put_u64(&w, WS_F_DATA_PORT, 5002);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_ports(&m, WS_F_DATA_PORT, ports, 3), 2);
	CHECK_INT(t, ports[0], 5001);
	CHECK_INT(t, ports[1], 5002);
	CHECK_INT(t, ws_msg_get_ports(&m, WS_F_DATA_PORT, ports, 1), -WS_E_PROTO);
	CHECK_INT(t, ws_msg_get_ports(&m, WS_F_CLIENT_PORT, ports, 3), 0);
	ws_tlv_begin(&w, WS_MSG_TEST_ACK);
	ws_tlv_put_u64(&w, WS_F_DATA_PORT, 70000);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_ports(&m, WS_F_DATA_PORT, ports, 3), -WS_E_PROTO);
	ws_tlv_writer_free(&w);
}

static void test_missing_fields(void)
{
	const char *t = "missing_fields";
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	ws_test_spec out, want;

	/* Only the send size and the remote CPU: everything else is ws_test_spec_init's. */
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_tlv_put_u64(&w, 104, 16384);
	ws_tlv_put_i64(&w, 142, 1);
	ws_tlv_put_str(&w, 999, "a field from a newer client");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	memset(&out, 0xee, sizeof(out));
	CHECK_INT(t, ws_msg_get_spec(&m, &out, &err), 0);
	ws_test_spec_init(&want);
	want.send_size = 16384;
	want.remote.cpu = 1;
	CHECK_MEM(t, &out, &want, sizeof(want));
	CHECK_INT(t, out.type, WS_TEST_TCP_STREAM);
	CHECK(t, out.duration_s == 10.0);
	CHECK_INT(t, out.local.cpu, -1);
	CHECK_INT(t, out.end, WS_END_TIME);
	CHECK_INT(t, out.family, WS_FAMILY_ANY);

	/* An empty message: exactly the defaults. */
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_spec(&m, &out, &err), 0);
	ws_test_spec_init(&want);
	CHECK_MEM(t, &out, &want, sizeof(want));

	/* An empty result: zeros, and cpu_bound_to -1 (not pinned). */
	ws_side_result r, rz;
	memset(&r, 0x77, sizeof(r));
	CHECK_INT(t, ws_msg_get_side(&m, &r, &err), 0);
	memset(&rz, 0, sizeof(rz));
	rz.cpu_bound_to = -1;
	CHECK_MEM(t, &r, &rz, sizeof(rz));
	ws_tlv_writer_free(&w);
}

/* One bad field in an otherwise empty message must make get_spec / get_side fail with
 * WS_E_PROTO and a message naming the field id. */
static void expect_refused(const char *t, int side, uint16_t id, int kind, uint64_t u, double d)
{
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	ws_tlv_begin(&w, side ? WS_MSG_RESULT : WS_MSG_TEST_REQ);
	if (kind == WS_TLV_U64)
		ws_tlv_put_u64(&w, id, u);
	else if (kind == WS_TLV_I64)
		ws_tlv_put_i64(&w, id, (int64_t)u);
	else if (kind == WS_TLV_F64)
		ws_tlv_put_f64(&w, id, d);
	else
		ws_tlv_put_str(&w, id, "text");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	int rc;
	if (side) {
		ws_side_result r;
		rc = ws_msg_get_side(&m, &r, &err);
	} else {
		ws_test_spec s;
		rc = ws_msg_get_spec(&m, &s, &err);
	}
	char idtext[16];
	snprintf(idtext, sizeof(idtext), "field %u ", id);
	if (rc != -WS_E_PROTO || err.code != -WS_E_PROTO || !strstr(err.msg, idtext))
		printf("  field %u (kind %d, value %llu / %g): rc %d, msg [%s]\n", id, kind,
		       (unsigned long long)u, d, rc, err.msg);
	CHECK_INT(t, rc, -WS_E_PROTO);
	CHECK(t, strstr(err.msg, idtext) != NULL);
	ws_tlv_writer_free(&w);
}

static void test_out_of_range(void)
{
	const char *t = "out_of_range";
	expect_refused(t, 0, 104, WS_TLV_U64, 1ULL << 32, 0);  /* send_size u32 */
	expect_refused(t, 0, 120, WS_TLV_U64, 1ULL << 32, 0);  /* local.sndbuf u32 */
	expect_refused(t, 0, 106, WS_TLV_U64, 2, 0);           /* nodelay bool */
	expect_refused(t, 0, 143, WS_TLV_U64, 2, 0);           /* remote.measure_cpu bool */
	expect_refused(t, 0, 124, WS_TLV_U64, 65536, 0);       /* local.data_port u16 */
	expect_refused(t, 0, 122, WS_TLV_I64, 1ULL << 31, 0);  /* local.cpu int */
	expect_refused(t, 0, 100, WS_TLV_I64, (uint64_t)-(1LL << 32), 0); /* enum */
	expect_refused(t, 0, 102, WS_TLV_F64, 0, NAN);         /* duration NaN */
	expect_refused(t, 0, 102, WS_TLV_F64, 0, INFINITY);
	expect_refused(t, 0, 102, WS_TLV_F64, 0, -INFINITY);
	expect_refused(t, 0, 104, WS_TLV_I64, 5, 0);           /* right value, wrong type */
	expect_refused(t, 0, 102, WS_TLV_STR, 0, 0);
	expect_refused(t, 1, 219, WS_TLV_U64, 1ULL << 32, 0);  /* ncpus u32 */
	expect_refused(t, 1, 213, WS_TLV_U64, 2, 0);           /* cpu_measured bool */
	expect_refused(t, 1, 214, WS_TLV_F64, 0, NAN);         /* cpu_util */
	expect_refused(t, 1, 217, WS_TLV_F64, 0, INFINITY);
	expect_refused(t, 1, 218, WS_TLV_U64, 200, 0);         /* cpu_method char */
	expect_refused(t, 1, 208, WS_TLV_F64, 0, 1.0);         /* u64 sent as f64 */

	/* The largest values that fit are accepted. */
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;
	ws_test_spec s;
	ws_tlv_begin(&w, WS_MSG_TEST_REQ);
	ws_tlv_put_u64(&w, 104, UINT32_MAX);
	ws_tlv_put_u64(&w, 124, UINT16_MAX);
	ws_tlv_put_u64(&w, 106, 1);
	ws_tlv_put_i64(&w, 122, 2147483647);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_spec(&m, &s, &err), 0);
	CHECK_U64(t, s.send_size, UINT32_MAX);
	CHECK_INT(t, s.local.data_port, 65535);
	CHECK(t, s.nodelay);
	CHECK_INT(t, s.local.cpu, 2147483647);

	/* A string that does not fit hostname[64] is refused, not truncated. */
	char longname[80];
	memset(longname, 'h', 64);
	longname[64] = '\0';
	ws_side_result r;
	ws_tlv_begin(&w, WS_MSG_RESULT);
	ws_tlv_put_str(&w, 223, longname);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_get_side(&m, &r, &err), -WS_E_PROTO);
	CHECK(t, strstr(err.msg, "field 223") != NULL);
	ws_tlv_writer_free(&w);
}

static void test_error_message(void)
{
	const char *t = "error_message";
	ws_tlv_writer w = {0};
	ws_err err = {0};
	ws_tlv_msg m;

	/* A limit refusal keeps its code, so the client can tell "busy" from "broken". */
	ws_msg_put_error(&w, -WS_E_LIMIT, "the daemon is busy: 4 sessions are running");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, m.type, WS_MSG_ERROR);
	CHECK_INT(t, ws_msg_error_to_err(&m, "the daemon refused the session", &err), -WS_E_LIMIT);
	CHECK_INT(t, err.code, -WS_E_LIMIT);
	CHECK_STR(t, err.msg, "the daemon refused the session: the daemon is busy: 4 sessions are running");

	/* The code travels positive, whichever sign the sender used. */
	int64_t wire = 0;
	CHECK_INT(t, ws_tlv_get_i64(&m, WS_F_ERR_CODE, &wire), 0);
	CHECK_INT(t, wire, WS_E_LIMIT);
	ws_msg_put_error(&w, WS_E_LIMIT, "too many sessions");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	wire = 0;
	CHECK_INT(t, ws_tlv_get_i64(&m, WS_F_ERR_CODE, &wire), 0);
	CHECK_INT(t, wire, WS_E_LIMIT);
	CHECK_INT(t, ws_msg_error_to_err(&m, "refused", &err), -WS_E_LIMIT);
	CHECK_STR(t, err.msg, "refused: too many sessions");

	/* A peer that puts the negated code on the wire is understood the same way. */
	ws_tlv_begin(&w, WS_MSG_ERROR);
	ws_tlv_put_i64(&w, WS_F_ERR_CODE, -WS_E_LIMIT);
	ws_tlv_put_str(&w, WS_F_ERR_MSG, "busy");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_error_to_err(&m, "refused", &err), -WS_E_LIMIT);
	CHECK_STR(t, err.msg, "refused: busy");

	/* An authentication refusal keeps its code too; INT64_MIN is not negated. */
	ws_msg_put_error(&w, -WS_E_AUTH, "authentication failed");
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_error_to_err(&m, "refused", &err), -WS_E_AUTH);
	ws_tlv_begin(&w, WS_MSG_ERROR);
	ws_tlv_put_i64(&w, WS_F_ERR_CODE, INT64_MIN);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_error_to_err(&m, "refused", &err), -WS_E_REMOTE);

	/* Every other code becomes WS_E_REMOTE; the text is kept. */
	static const int others[] = {-WS_E_PROTO, -WS_E_INVAL, -ENOMEM, 0, 17, -WS_E_NOTWS};
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		ws_msg_put_error(&w, others[i], "test TCP_CRR is not supported by this daemon");
		CHECK_INT(t, as_msg(&w, &m, &err), 0);
		CHECK_INT(t, ws_msg_error_to_err(&m, "the daemon reported", &err), -WS_E_REMOTE);
		CHECK_INT(t, err.code, -WS_E_REMOTE);
		CHECK_STR(t, err.msg,
			  "the daemon reported: test TCP_CRR is not supported by this daemon");
	}

	/* An ERROR without fields still yields a sentence. */
	ws_tlv_begin(&w, WS_MSG_ERROR);
	CHECK_INT(t, as_msg(&w, &m, &err), 0);
	CHECK_INT(t, ws_msg_error_to_err(&m, "the daemon reported", &err), -WS_E_REMOTE);
	CHECK_STR(t, err.msg, "the daemon reported: (no reason given)");
	CHECK_INT(t, ws_msg_error_to_err(&m, "x", NULL), -WS_E_REMOTE);
	ws_tlv_writer_free(&w);
}

static void test_type_names(void)
{
	const char *t = "type_names";
	CHECK_STR(t, ws_msg_type_name(WS_MSG_HELLO), "HELLO");
	CHECK_STR(t, ws_msg_type_name(WS_MSG_ERROR), "ERROR");
	CHECK_STR(t, ws_msg_type_name(WS_MSG_BYE), "BYE");
	CHECK_STR(t, ws_msg_type_name(0), "?");
	CHECK_STR(t, ws_msg_type_name(WS_MSG_CHALLENGE), "CHALLENGE");
	CHECK_STR(t, ws_msg_type_name(WS_MSG_AUTH), "AUTH");
	CHECK_STR(t, ws_msg_type_name(12), "unknown");
	CHECK_STR(t, ws_msg_type_name(255), "unknown");
}

int main(void)
{
	RUN(test_spec_round_trip);
	RUN(test_harness_fields);
	RUN(test_side_round_trip);
	RUN(test_flow_records);
	RUN(test_ports);
	RUN(test_missing_fields);
	RUN(test_out_of_range);
	RUN(test_error_message);
	RUN(test_type_names);
	TEST_MAIN_END();
}
