/* SPDX-License-Identifier: BSD-2-Clause */
/* testtype: the test-type table, one row per test warpspeed knows: its name, netperf's
 * names for it, the transport, the family, the role each side plays, and the outputs
 * that apply.
 *
 * Every question of the form "is this an RR test", "does it run over UDP", "does it make
 * a connection per transaction" is answered here, from the row, and nowhere else, so that
 * a new test type is one row here plus its engine in workload/ (which keys its own table
 * of engines by the same enum). Reports, measurement and the daemons ask these functions;
 * none of them re-derives a family from a list of test types. */
#ifndef WS_MODEL_TESTTYPE_H
#define WS_MODEL_TESTTYPE_H

#include <stdbool.h>

enum ws_test_type {
	WS_TEST_TCP_STREAM = 1,
	WS_TEST_TCP_MAERTS,
	WS_TEST_TCP_SENDFILE,
	WS_TEST_UDP_STREAM,
	WS_TEST_TCP_RR,
	WS_TEST_UDP_RR,
	WS_TEST_TCP_CRR,
	WS_TEST_TCP_MSS, /* netperf's TCP_MSS: connect, report the MSS, close; no data */
	WS_TEST_TCP_CC,  /* TCP_CRR without request or response: connect, close */
	WS_TEST_LOC_CPU, /* the local CPU rate and count; no connection at all */
	WS_TEST_REM_CPU, /* the same of the daemon */
	WS_TEST_RRUL,    /* latency under load: TCP flows both ways and probes (model/lul.h) */
	WS_TEST_RRUL_BE, /* the same, every flow and probe best effort */
	WS_TEST_RPM,     /* responsiveness: load flows and probes, each its own session */
};

/* What kind of exchange a test measures. */
enum ws_test_family {
	WS_TF_STREAM, /* one way, as fast as it goes */
	WS_TF_RR,     /* request/response on one connection per flow */
	WS_TF_CRR,    /* a connection per request/response */
	WS_TF_CC,     /* a connection per transaction, no request or response */
	WS_TF_MSS,    /* connect, read the MSS, close */
	WS_TF_CPU,    /* a CPU rate and count; no transfer */
	WS_TF_LUL,    /* latency under load: flows both ways and latency probes (RRUL) */
	WS_TF_RPM,    /* responsiveness under load (session/rpm.h), run by the client alone */
};

enum ws_test_proto { WS_PROTO_NONE, WS_PROTO_TCP, WS_PROTO_UDP };

/* The two roles of a test. In the request/response tests the sender is the requester
 * (the client, which times the transactions) and the receiver the responder. */
enum ws_role { WS_ROLE_SENDER, WS_ROLE_RECEIVER };

/* Outputs that apply to a test (ws_test_row.outputs). */
enum {
	WS_TO_DGRAMS = 1u << 0,   /* sequence-numbered datagrams: loss, reordering (UDP_STREAM) */
	WS_TO_REQUESTS = 1u << 1, /* request and response sizes, transactions (RR, CRR) */
	/* read from the data socket: the socket options read back and, over TCP, TCP_INFO
	 * and the congestion control; all but TCP_CRR, whose connections are gone by then */
	WS_TO_SOCKET = 1u << 2,
};

typedef struct ws_test_row {
	enum ws_test_type type;
	const char *name; /* -t name, netperf's ("TCP_STREAM") */
	enum ws_test_proto proto;
	enum ws_test_family family;
	enum ws_role client_role; /* the daemon plays the other one */
	unsigned outputs;         /* WS_TO_* that apply */
	/* netperf's names for it: the classic banner ("MIGRATED TCP STREAM TEST"; NULL =
	 * none, LOC_CPU and REM_CPU), the banner under -t omni ("OMNI Send TEST"), the -t omni
	 * -- -d direction that selects it ('s' send, 'r' recv, 'b' both;
	 * 0 = none) and
	 * the DIRECTION output ("Send|Recv") */
	const char *title, *omni_title;
	char omni_dir;
	const char *direction;
	/* defaults: -o/-O/-k without a list open the selection with these sizes */
	const char *default_outputs;
} ws_test_row;

/* The row of a test type, or NULL when there is none. */
const ws_test_row *ws_test_type_row(enum ws_test_type t);

/* The rows in the table's order: i = 0, 1, ... until NULL. */
const ws_test_row *ws_test_type_at(unsigned i);

/* The netperf name of a test ("TCP_STREAM"), or NULL. */
const char *ws_test_type_name(enum ws_test_type t);

/* Look up a test name, case-insensitive. Returns 0 or -1 when unknown. */
int ws_test_type_from_name(const char *name, enum ws_test_type *out);

/* The test -t omni runs for a direction ('s', 'r', 'b') over UDP or TCP. Returns 0, or -1
 * when no test matches. */
int ws_test_type_from_omni(char dir, bool udp, enum ws_test_type *out);

/* The family of a test; an unknown type reads as a stream test. */
enum ws_test_family ws_test_type_family(enum ws_test_type t);

/* Data over UDP (UDP_STREAM, UDP_RR). */
bool ws_test_type_udp(enum ws_test_type t);

/* One-way transfer tests (TCP_STREAM, TCP_MAERTS, TCP_SENDFILE, UDP_STREAM). */
bool ws_test_type_stream(enum ws_test_type t);

/* Request/response over one connection per flow (TCP_RR, UDP_RR). */
bool ws_test_type_rr(enum ws_test_type t);

/* Tests that count transactions: the RR, CRR and CC families (the requester/responder
 * engines). */
bool ws_test_type_transacts(enum ws_test_type t);

/* A connection per transaction (TCP_CRR, TCP_CC): the CRR engines, no data socket at setup. */
bool ws_test_type_connects(enum ws_test_type t);

/* A connection that carries no data (TCP_CC, TCP_MSS): netperf takes the size options
 * there and ignores them. */
bool ws_test_type_dataless(enum ws_test_type t);

/* A test that measures no transfer: TCP_MSS, LOC_CPU, REM_CPU (netperf's one-figure tests,
 * which ignore -i and print no throughput). */
bool ws_test_type_probe(enum ws_test_type t);

/* Latency under load (RRUL, RRUL_BE): a warpspeed daemon only, results as time series. */
bool ws_test_type_lul(enum ws_test_type t);

/* An output (WS_TO_*) applies to the test. */
bool ws_test_type_has(enum ws_test_type t, unsigned output);

/* Which role the client (is_client) or the daemon plays in a test type. */
enum ws_role ws_test_type_role(enum ws_test_type t, bool is_client);

#endif
