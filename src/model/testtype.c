/* SPDX-License-Identifier: BSD-2-Clause */
/* testtype: the test-type table and the questions answered from it; see testtype.h. */
#include "model/testtype.h"

#include <stddef.h>
#include <strings.h>

#define STREAM_OUT "LSS_SIZE_END,RSR_SIZE_END,LOCAL_SEND_SIZE"
#define MAERTS_OUT "RSS_SIZE_END,LSR_SIZE_END,REMOTE_SEND_SIZE"
#define RR_OUT     "LSS_SIZE_END,LSR_SIZE_END,RSR_SIZE_END,RSS_SIZE_END,REQUEST_SIZE,RESPONSE_SIZE"
#define S          WS_ROLE_SENDER
#define R          WS_ROLE_RECEIVER

/* WS_TO_SOCKET is on LOC_CPU too, which has no socket, as the outputs read back nothing
 * there either way.
 * TCP_MSS, LOC_CPU and REM_CPU were never migrated to omni in netperf 2.7.0: their omni
 * banner is the classic one; TCP_CC's is "OMNI Connection TEST", what -t omni -- -c prints. TCP_MSS and REM_CPU make a data connection that carries
 * nothing (the client reads its MSS; the daemon's CPU count comes back in its result);
 * LOC_CPU makes none. RPM is warpspeed's own (no netperf names): the client composes it from
 * TCP_STREAM, TCP_MAERTS and TCP_CRR sessions (session/rpm.h). */
/* clang-format off */
static const ws_test_row rows[] = {
	{WS_TEST_TCP_STREAM, "TCP_STREAM", WS_PROTO_TCP, WS_TF_STREAM, S, WS_TO_SOCKET,
	 "MIGRATED TCP STREAM TEST", "OMNI Send TEST", 's', "Send", STREAM_OUT},
	{WS_TEST_TCP_MAERTS, "TCP_MAERTS", WS_PROTO_TCP, WS_TF_STREAM, R, WS_TO_SOCKET,
	 "MIGRATED TCP MAERTS TEST", "OMNI Receive TEST", 'r', "Receive", MAERTS_OUT},
	{WS_TEST_TCP_SENDFILE, "TCP_SENDFILE", WS_PROTO_TCP, WS_TF_STREAM, S, WS_TO_SOCKET,
	 "TCP SENDFILE TEST", "TCP SENDFILE TEST", 0, "Send", STREAM_OUT},
	{WS_TEST_UDP_STREAM, "UDP_STREAM", WS_PROTO_UDP, WS_TF_STREAM, S, WS_TO_SOCKET | WS_TO_DGRAMS,
	 "MIGRATED UDP STREAM TEST", "OMNI Send TEST", 's', "Send", STREAM_OUT},
	{WS_TEST_TCP_RR, "TCP_RR", WS_PROTO_TCP, WS_TF_RR, S, WS_TO_SOCKET | WS_TO_REQUESTS,
	 "MIGRATED TCP REQUEST/RESPONSE TEST", "OMNI Send|Recv TEST", 'b', "Send|Recv", RR_OUT},
	{WS_TEST_UDP_RR, "UDP_RR", WS_PROTO_UDP, WS_TF_RR, S, WS_TO_SOCKET | WS_TO_REQUESTS,
	 "MIGRATED UDP REQUEST/RESPONSE TEST", "OMNI Send|Recv TEST", 'b', "Send|Recv", RR_OUT},
	{WS_TEST_TCP_CRR, "TCP_CRR", WS_PROTO_TCP, WS_TF_CRR, S, WS_TO_REQUESTS,
	 "MIGRATED TCP Connect/Request/Response TEST", "OMNI Connect|Send|Recv TEST", 0,
	 "Connect|Send|Recv", RR_OUT},
	{WS_TEST_TCP_MSS, "TCP_MSS", WS_PROTO_TCP, WS_TF_MSS, S, WS_TO_SOCKET,
	 "TCP MSS TEST", "TCP MSS TEST", 0, "Send", STREAM_OUT},
	{WS_TEST_TCP_CC, "TCP_CC", WS_PROTO_TCP, WS_TF_CC, S, WS_TO_SOCKET,
	 "TCP Connect/Close TEST", "OMNI Connection TEST", 0, "Connection", RR_OUT},
	{WS_TEST_LOC_CPU, "LOC_CPU", WS_PROTO_NONE, WS_TF_CPU, S, WS_TO_SOCKET,
	 NULL, NULL, 0, "Send", STREAM_OUT},
	{WS_TEST_REM_CPU, "REM_CPU", WS_PROTO_TCP, WS_TF_CPU, S, WS_TO_SOCKET,
	 NULL, NULL, 0, "Send", STREAM_OUT},
	{WS_TEST_RRUL, "RRUL", WS_PROTO_TCP, WS_TF_LUL, S, 0,
	 "REALTIME RESPONSE UNDER LOAD TEST", NULL, 0, "Send|Recv", STREAM_OUT},
	{WS_TEST_RRUL_BE, "RRUL_BE", WS_PROTO_TCP, WS_TF_LUL, S, 0,
	 "REALTIME RESPONSE UNDER LOAD TEST (BEST EFFORT)", NULL, 0, "Send|Recv", STREAM_OUT},
	{WS_TEST_RPM, "RPM", WS_PROTO_TCP, WS_TF_RPM, S, 0,
	 NULL, NULL, 0, "Send|Recv", ""},
};
/* clang-format on */
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

const ws_test_row *ws_test_type_row(enum ws_test_type t)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (rows[i].type == t)
			return &rows[i];
	return NULL;
}

const ws_test_row *ws_test_type_at(unsigned i) { return i < N_ROWS ? &rows[i] : NULL; }

const char *ws_test_type_name(enum ws_test_type t)
{
	const ws_test_row *r = ws_test_type_row(t);
	return r ? r->name : NULL;
}

int ws_test_type_from_name(const char *name, enum ws_test_type *out)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (strcasecmp(rows[i].name, name) == 0) {
			*out = rows[i].type;
			return 0;
		}
	return -1;
}

int ws_test_type_from_omni(char dir, bool udp, enum ws_test_type *out)
{
	for (size_t i = 0; i < N_ROWS; i++)
		if (rows[i].omni_dir && rows[i].omni_dir == dir &&
		    (rows[i].proto == WS_PROTO_UDP) == udp) {
			*out = rows[i].type;
			return 0;
		}
	return -1;
}

enum ws_test_family ws_test_type_family(enum ws_test_type t)
{
	const ws_test_row *r = ws_test_type_row(t);
	return r ? r->family : WS_TF_STREAM;
}

bool ws_test_type_udp(enum ws_test_type t)
{
	const ws_test_row *r = ws_test_type_row(t);
	return r && r->proto == WS_PROTO_UDP;
}

static bool known(enum ws_test_type t) { return ws_test_type_row(t) != NULL; }

bool ws_test_type_stream(enum ws_test_type t)
{
	return known(t) && ws_test_type_family(t) == WS_TF_STREAM;
}

bool ws_test_type_rr(enum ws_test_type t) { return ws_test_type_family(t) == WS_TF_RR; }

bool ws_test_type_connects(enum ws_test_type t)
{
	enum ws_test_family f = ws_test_type_family(t);
	return f == WS_TF_CRR || f == WS_TF_CC;
}

bool ws_test_type_transacts(enum ws_test_type t)
{
	return ws_test_type_rr(t) || ws_test_type_connects(t);
}

bool ws_test_type_dataless(enum ws_test_type t)
{
	enum ws_test_family f = ws_test_type_family(t);
	return f == WS_TF_CC || f == WS_TF_MSS;
}

bool ws_test_type_probe(enum ws_test_type t)
{
	enum ws_test_family f = ws_test_type_family(t);
	return f == WS_TF_MSS || f == WS_TF_CPU;
}

bool ws_test_type_lul(enum ws_test_type t) { return ws_test_type_family(t) == WS_TF_LUL; }

bool ws_test_type_has(enum ws_test_type t, unsigned output)
{
	const ws_test_row *r = ws_test_type_row(t);
	return r && (r->outputs & output) == output;
}

enum ws_role ws_test_type_role(enum ws_test_type t, bool is_client)
{
	const ws_test_row *r = ws_test_type_row(t);
	enum ws_role role = r ? r->client_role : WS_ROLE_SENDER;
	if (is_client)
		return role;
	return role == WS_ROLE_SENDER ? WS_ROLE_RECEIVER : WS_ROLE_SENDER;
}
