/* SPDX-License-Identifier: BSD-2-Clause */
/* applies: the option-to-tests table; see applies.h. */
#include "cli/applies.h"

#include "cli/harnessopts.h"
#include "net/mptcp.h"

#include "util/err.h"

#define T(x) (1u << (x))

/* The tests of a kind, as a mask over test types, read from the test-type table. */
static unsigned tests_where(bool (*is)(const ws_test_row *r))
{
	unsigned m = 0;
	const ws_test_row *r;
	for (unsigned i = 0; (r = ws_test_type_at(i)) != NULL; i++)
		if ((unsigned)r->type < 32 && is(r))
			m |= T(r->type);
	return m;
}

static bool tcp_stream(const ws_test_row *r)
{
	return ws_test_type_stream(r->type) && !ws_test_type_udp(r->type);
}
static bool udp_stream(const ws_test_row *r)
{
	return ws_test_type_stream(r->type) && ws_test_type_udp(r->type);
}
static bool transacts(const ws_test_row *r) { return ws_test_type_transacts(r->type); }
static bool rr_loop(const ws_test_row *r) { return ws_test_type_rr(r->type); }
static bool connects(const ws_test_row *r) { return ws_test_type_connects(r->type); }
static bool no_data(const ws_test_row *r) { return ws_test_type_dataless(r->type); }
static bool tcp_data(const ws_test_row *r)
{
	return r->proto == WS_PROTO_TCP && r->family != WS_TF_CPU;
}

#define TESTS_TCP_RECV tests_where(tcp_stream)
/* sendfile never copies */
#define TESTS_TCP_SEND (TESTS_TCP_RECV & ~T(WS_TEST_TCP_SENDFILE))
#define TESTS_UDP      tests_where(udp_stream)
#define TESTS_RR_ALL   tests_where(transacts)
#define TESTS_RR_LOOP  tests_where(rr_loop)
#define TESTS_PROBE_CC tests_where(no_data)
#define TESTS_TCP      tests_where(tcp_data)

int ws_cli_check_applies(const ws_cli_options *o, ws_err *err)
{
	const ws_test_spec *s = &o->spec;
	const struct {
		bool on;
		const char *name;
		unsigned tests;
		const char *accepted;
		/* clang-format off */
	} rows[] = {
		{s->zerocopy, "--zerocopy", TESTS_TCP_SEND, "TCP_STREAM and TCP_MAERTS (sendfile never copies)"},
		{s->skip_rx_copy, "--skip-rx-copy", TESTS_TCP_RECV, "the TCP stream tests"},
		{s->splice, "--splice", TESTS_TCP_RECV, "the TCP stream tests"},
		{s->rcvlowat != 0, "--rcvlowat", TESTS_TCP_RECV, "the TCP stream tests"},
		{s->gso, "--gso", TESTS_UDP, "UDP_STREAM"},
		{s->gro, "--gro", TESTS_UDP, "UDP_STREAM"},
		{s->no_batch, "--no-mmsg", TESTS_UDP, "UDP_STREAM"},
		{s->udp_route && !ws_cli_given(o, true, 'R'), "--route", TESTS_UDP, "UDP_STREAM"},
		{ws_cli_given(o, true, 'r'), "test option -r", TESTS_RR_ALL | T(WS_TEST_TCP_MSS),
		 "TCP_RR, UDP_RR, TCP_CRR and TCP_CC (TCP_MSS takes it and ignores it, as netperf)"},
		{ws_cli_given(o, true, 'b'), "test option -b", TESTS_RR_LOOP | TESTS_PROBE_CC,
		 "TCP_RR and UDP_RR (TCP_CC and TCP_MSS take it and ignore it, as netperf)"},
		{ws_cli_given(o, true, 'e'), "test option -e", T(WS_TEST_UDP_RR), "UDP_RR"},
		{s->rate != 0, "--rate", TESTS_RR_LOOP, "TCP_RR and UDP_RR"},
		{s->udp_flow_control, "--flow-control", TESTS_UDP, "UDP_STREAM"},
		{s->udp_pace_bps > 0, "--pace", TESTS_UDP, "UDP_STREAM"},
		{ws_cli_given(o, true, 'C'), "test option -C", TESTS_TCP, "the TCP tests"},
		{ws_cli_given(o, true, 'G'), "test option -G", TESTS_TCP, "the TCP tests"},
		{ws_cli_given(o, true, 'K'), "test option -K", TESTS_TCP, "the TCP tests"},
		{s->mptcp, "--mptcp", TESTS_TCP, "the TCP tests"},
		{s->busy_poll, "--busy-poll", TESTS_RR_LOOP, "TCP_RR and UDP_RR"},
	};
	/* clang-format on */
	const char *test = ws_test_type_name(s->type);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].on && ((unsigned)s->type >= 32 || !(rows[i].tests & (1u << s->type))))
			return ws_err_set(err, WS_E_INVAL,
					  "%s does not apply to %s; it applies to %s", rows[i].name,
					  test ? test : "this test", rows[i].accepted);
	if (s->skip_rx_copy && s->splice)
		return ws_err_set(err, WS_E_INVAL,
				  "--skip-rx-copy and --splice are two ways to receive; expected "
				  "one of them");
	/* --mptcp on a kernel without MPTCP: said before any connection, not by the first
	 * socket() of the test */
	if (s->mptcp && ws_mptcp_check(err) < 0) {
		ws_err_prefix(err, "--mptcp");
		return -WS_E_INVAL;
	}
	return 0;
}

/* Options netperf 2.7.0 takes on these tests without using them: its TCP_CC moves no data
 * and has no first burst, its TCP_MSS only connects and reads TCP_MAXSEG. (-r stays
 * meaningful on TCP_CC: both print it in the Request and Resp. columns.) */
void ws_cli_note_ignored(ws_cli_options *o)
{
	const struct {
		char letter;
		unsigned tests;
	} rows[] = {
		{'b', TESTS_PROBE_CC},
		{'m', TESTS_PROBE_CC},
		{'M', TESTS_PROBE_CC},
		{'r', T(WS_TEST_TCP_MSS)},
		/* -p's port range is for the connection tests only */
		{'p', ~tests_where(connects)},
	};
	enum ws_test_type t = o->spec.type;
	const char *test = ws_test_type_name(t);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if ((unsigned)t < 32 && (rows[i].tests & T(t)) &&
		    ws_cli_given(o, true, rows[i].letter) &&
		    !(rows[i].letter == 'p' && ws_cli_given(o, true, 'c'))) /* conntest.h */
			ws_cli_add_note(o, "-%c has no effect on %s (netperf ignores it too)",
					rows[i].letter, test ? test : "this test");
}
