/* SPDX-License-Identifier: BSD-2-Clause */
/* outopts: -o/-O/-k, -d/-T for -t omni, and -j; see outopts.h. */
#include "cli/outopts.h"

#include "report/outputs.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int set_output(ws_cli_options *o, int mode, const char *val)
{
	o->out_mode = mode;
	o->out_spec = val; /* NULL: the test's default list (netperf's set_output_list_by_test) */
	return 0;
}

int ws_cli_topt_csv(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)err;
	return set_output(o, WS_OUT_MODE_CSV, val);
}

int ws_cli_topt_human(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)err;
	return set_output(o, WS_OUT_MODE_HUMAN, val);
}

int ws_cli_topt_keyval(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)err;
	return set_output(o, WS_OUT_MODE_KEYVAL, val);
}

int ws_cli_opt_histogram(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->histogram = true;
	return 0;
}

bool ws_cli_is_omni(const char *name) { return name && !strcasecmp(name, "omni"); }

/* netperf's direction words (nettest_omni.c's parse_direction), case-insensitive. */
static const struct {
	const char *word;
	char dir; /* 's' send, 'r' receive, 'b' both: request/response */
		  /* clang-format off */
} directions[] = {
	{"send", 's'}, {"xmit", 's'}, {"transmit", 's'}, {"stream", 's'},
	{"recv", 'r'}, {"receive", 'r'}, {"maerts", 'r'},
	{"rr", 'b'}, {"send|recv", 'b'}, {"recv|send", 'b'},
};
/* clang-format on */

int ws_cli_topt_direction(ws_cli_options *o, const char *val, ws_err *err)
{
	for (size_t i = 0; i < sizeof(directions) / sizeof(directions[0]); i++)
		if (!strcasecmp(val, directions[i].word)) {
			o->omni_dir = directions[i].dir;
			return 0;
		}
	/* netperf's help offers the bits too: 0x2 transmit, 0x4 receive, 0x6 both (2, 4, 6 in
	 * any base strtol reads). Its other numbers (0, 8: a connection test) run something
	 * else than asked for, so they are refused with the rest. */
	char *end;
	long bits = strtol(val, &end, 0);
	if (end != val && *end == '\0' && (bits == 2 || bits == 4 || bits == 6)) {
		o->omni_dir = bits == 2 ? 's' : bits == 4 ? 'r' : 'b';
		return 0;
	}
	return ws_err_set(
		err, WS_E_INVAL,
		"'%s' is not a direction; expected send, recv or rr (or netperf's xmit, "
		"stream, receive, maerts, send|recv, or the bits 0x2 send, 0x4 recv, 0x6 both)",
		val);
}

/* -u uuid: the test's UUID in the outputs (UUID, -k/-o/-O, JSON) instead of a fresh one, so
 * that a harness can tie results to its own records. netperf copies any string of up to
 * 36 characters (a UUID's length) and cuts longer ones; warpspeed refuses those. */
int ws_cli_topt_uuid(ws_cli_options *o, const char *val, ws_err *err)
{
	size_t n = strlen(val);
	if (n == 0 || n > 36)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a test UUID; expected 1 to 36 characters, e.g. "
				  "12345678-1234-1234-1234-123456789abc",
				  val);
	o->uuid = val;
	return 0;
}

int ws_cli_topt_protocol(ws_cli_options *o, const char *val, ws_err *err)
{
	/* mptcp: TCP tests on IPPROTO_MPTCP sockets (--mptcp); netperf 2.7.0 takes the word
	 * and runs plain TCP, as it does for any name it does not know. */
	if (!strcasecmp(val, "tcp") || !strcasecmp(val, "udp") || !strcasecmp(val, "mptcp")) {
		o->omni_udp = !strcasecmp(val, "udp");
		o->spec.mptcp = o->spec.mptcp || !strcasecmp(val, "mptcp");
		o->omni_proto_given = true;
		return 0;
	}
	return ws_err_set(
		err, WS_E_INVAL,
		"'%s' is not a protocol warpspeed runs; expected tcp, udp or mptcp (netperf's "
		"sctp, dccp and udplite are not supported)",
		val);
}

int ws_cli_omni_finalize(ws_cli_options *o, ws_err *err)
{
	if (!o->omni) {
		if (o->omni_dir || o->omni_proto_given)
			return ws_err_set(
				err, WS_E_INVAL,
				"test option -%c applies to -t omni only; with -t %s drop it, or "
				"use -t omni -- -d send|recv|rr -T tcp|udp",
				o->omni_dir ? 'd' : 'T', ws_test_type_name(o->spec.type));
		return 0;
	}
	/* netperf's omni default is send; a connection test (-c) without -d moves no data */
	if (!o->omni_dir && !o->omni_udp && ws_cli_given(o, true, 'c')) {
		o->spec.type = WS_TEST_TCP_CC;
		return 0;
	}
	char dir = o->omni_dir ? o->omni_dir : 's';
	if (dir == 'r' && o->omni_udp)
		return ws_err_set(
			err, WS_E_INVAL,
			"-t omni -- -d recv -T udp has no warpspeed test (UDP is measured "
			"from the client's sends); expected -d send or -d rr with -T udp");
	if (ws_test_type_from_omni(dir, o->omni_udp, &o->spec.type) < 0)
		return ws_err_set(err, WS_E_INVAL, "-t omni -- -d %c -T %s has no warpspeed test",
				  dir, o->omni_udp ? "udp" : "tcp");
	/* -d rr -c: "OMNI Connect|Send|Recv", netperf's TCP_CRR */
	if (o->spec.type == WS_TEST_TCP_RR && ws_cli_given(o, true, 'c'))
		o->spec.type = WS_TEST_TCP_CRR;
	return 0;
}
