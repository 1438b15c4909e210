/* applies: the option-to-tests table; see applies.h. */
#include "cli/applies.h"

#include "cli/harnessopts.h"

#include "util/err.h"

#define T(x)           (1u << (x))
#define TESTS_TCP_SEND (T(WS_TEST_TCP_STREAM) | T(WS_TEST_TCP_MAERTS))
#define TESTS_TCP_RECV (TESTS_TCP_SEND | T(WS_TEST_TCP_SENDFILE))
#define TESTS_STREAM   (TESTS_TCP_RECV | T(WS_TEST_UDP_STREAM))
#define TESTS_UDP      T(WS_TEST_UDP_STREAM)
#define TESTS_RR_ALL \
	(T(WS_TEST_TCP_RR) | T(WS_TEST_UDP_RR) | T(WS_TEST_TCP_CRR) | T(WS_TEST_TCP_CC))
#define TESTS_RR_LOOP  (T(WS_TEST_TCP_RR) | T(WS_TEST_UDP_RR))
#define TESTS_PROBE_CC (T(WS_TEST_TCP_CC) | T(WS_TEST_TCP_MSS))
#define TESTS_TCP                                                                      \
	(TESTS_TCP_RECV | T(WS_TEST_TCP_RR) | T(WS_TEST_TCP_CRR) | T(WS_TEST_TCP_CC) | \
	 T(WS_TEST_TCP_MSS))

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
	return 0;
}

/* Options netperf 2.7.0 takes on these tests without using them: its TCP_CC moves no data
 * and has no first burst, its TCP_MSS only connects and reads TCP_MAXSEG. (-r stays
 * meaningful on TCP_CC: both print it in the Request and Resp. columns.) */
void ws_cli_note_ignored(ws_cli_options *o)
{
	static const struct {
		char letter;
		unsigned tests;
	} rows[] = {
		{'b', TESTS_PROBE_CC},
		{'m', TESTS_PROBE_CC},
		{'M', TESTS_PROBE_CC},
		{'r', T(WS_TEST_TCP_MSS)},
		/* -p's port range is for the connection tests only */
		{'p', ~(T(WS_TEST_TCP_CRR) | T(WS_TEST_TCP_CC))},
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
