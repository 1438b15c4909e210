/* SPDX-License-Identifier: BSD-2-Clause */
/* testopts: the handlers of netperf's test options (after --) for socket buffers, message
 * and request sizes, data ports, TCP_NODELAY, the first burst and UDP_RR's timeout; see
 * testopts.h. The letter table that maps options to them is options.c's. */
#include "cli/testopts.h"

#include "cli/harnessopts.h"
#include "cli/optvalue.h"

#include "model/testtype.h"

#include "util/clock.h"
#include "util/err.h"
#include "util/units.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

/* -s / -S send[,recv]: a single value sets both buffers, "x," only the send one and ",y"
 * only the receive one; a negative size leaves the default and 0 asks for the kernel's
 * minimum (ws_cli_parse_sockbuf). */
static int sockbufs(ws_side_spec *side, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	if (rc == 0 && ha)
		rc = ws_cli_parse_sockbuf(a, &side->sndbuf, err);
	if (rc == 0 && hb)
		rc = ws_cli_parse_sockbuf(b, &side->rcvbuf, err);
	return rc;
}

int ws_cli_topt_local_bufs(ws_cli_options *o, const char *val, ws_err *err)
{
	return sockbufs(&o->spec.local, val, err);
}

int ws_cli_topt_remote_bufs(ws_cli_options *o, const char *val, ws_err *err)
{
	return sockbufs(&o->spec.remote, val, err);
}

/* -m and -M with a comma are netperf's pairs (nettest_omni.c): "-m local,remote" are the
 * send sizes of the two ends, "-M remote,local" the receive sizes (the remote end first);
 * "x," sets only the first half, ",y" only the second. They are kept until the test is
 * known (ws_cli_topt_finalize). */
static int size_pair(const char *val, uint64_t min, uint32_t half[2], unsigned *has, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	if (rc == 0 && ha && (rc = ws_cli_parse_size32(a, min, &half[0], err)) == 0)
		*has |= 1u;
	if (rc == 0 && hb && (rc = ws_cli_parse_size32(b, min, &half[1], err)) == 0)
		*has |= 2u;
	return rc;
}

/* -m 0 is netperf's default send size (the send buffer's, 65507 for UDP), as not giving
 * -m: netperf 2.7.0 runs `-- -m 0` with 16384-byte sends on loopback. On the RR tests
 * netperf accepts -m and -M and sends and receives -r's sizes all the same; it only echoes
 * -m as LOCAL_SEND_SIZE (report/outputs_get.c). */
int ws_cli_topt_send_size(ws_cli_options *o, const char *val, ws_err *err)
{
	if (strchr(val, ','))
		return size_pair(val, 0, o->m_pair, &o->m_pair_has, err);
	return ws_cli_parse_size32(val, 0, &o->spec.send_size, err);
}

int ws_cli_topt_recv_size(ws_cli_options *o, const char *val, ws_err *err)
{
	if (strchr(val, ','))
		return size_pair(val, 1, o->M_pair, &o->M_pair_has, err);
	return ws_cli_parse_size32(val, 1, &o->spec.recv_size, err);
}

/* -n / -N: netperf's connected UDP socket on the local / remote end. warpspeed connects its
 * UDP sockets on both ends always, so both are what it does anyway (netperf accepts them on
 * every test). */
int ws_cli_topt_udp_connected(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)o;
	(void)val;
	(void)err;
	return 0;
}

int ws_cli_topt_nodelay(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->spec.nodelay = true;
	return 0;
}

int ws_cli_topt_data_ports(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	const char *parts[2] = {a, b};
	bool pair = strchr(val, ',') != NULL; /* name the whole value only when it has two */
	int have[2] = {ha, hb};
	uint16_t *port[2] = {&o->spec.local.data_port, &o->spec.remote.data_port};
	for (int i = 0; rc == 0 && i < 2; i++) {
		long long v;
		if (!have[i])
			continue;
		if (ws_units_parse_int(parts[i], 0, 65535, &v, NULL) < 0)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s'%s%s%s is not a port; expected lport[,rport] with "
					  "ports 0 to 65535 (0 = any)",
					  parts[i], pair ? " in '" : "", pair ? val : "",
					  pair ? "'" : "");
		*port[i] = (uint16_t)v;
	}
	return rc;
}

/* -r req[,rsp]: a single value sets both, as netperf 2.7 does (-r 64 is 64,64); ,rsp sets
 * only the response. UDP_RR's bound is checked in options.c's finalize(), against the
 * test's type. */
int ws_cli_topt_rr_sizes(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	const char *parts[2] = {a, b};
	int have[2] = {ha, hb};
	uint32_t *size[2] = {&o->spec.req_size, &o->spec.rsp_size};
	static const char *const what[2] = {"request", "response"};
	for (int i = 0; rc == 0 && i < 2; i++) {
		uint64_t v;
		if (!have[i])
			continue;
		if (ws_units_parse_size(parts[i], &v, NULL) < 0 || v < 1 || v > WS_CLI_MAX_SIZE)
			return ws_err_set(
				err, WS_E_INVAL,
				"'%s' is not a %s size; expected req[,rsp] with sizes from 1 to 1G "
				"bytes (at most %u for UDP_RR), e.g. 64 or 1K,64K",
				parts[i], what[i], WS_RR_MAX_UDP);
		*size[i] = (uint32_t)v;
	}
	return rc;
}

/* -R 0|1: netperf's "routing allowed". 0 sets SO_DONTROUTE on the data sockets of both
 * ends (any test); 1 clears UDP_STREAM's default SO_DONTROUTE (as --route). */
int ws_cli_topt_routing(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, INT_MIN, INT_MAX,
				     "an integer: 0 (no routing: SO_DONTROUTE, UDP_STREAM's "
				     "default) or any other (routing allowed)",
				     &v, err);
	if (rc == 0) { /* netperf: routing_allowed = atoi(optarg), any nonzero allows */
		o->spec.udp_route = v != 0;
		o->spec.dontroute = v == 0;
	}
	return rc;
}

/* -b N: netperf's first burst, N requests in flight beyond the first. */
int ws_cli_topt_burst(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	char what[64];
	snprintf(what, sizeof(what), "a first burst from 0 to %u", WS_RR_MAX_BURST);
	int rc = ws_cli_parse_ranged(val, 0, WS_RR_MAX_BURST, what, &v, err);
	if (rc == 0)
		o->spec.burst = (uint32_t)v;
	return rc;
}

/* -e secs: how long UDP_RR waits for a response before it counts the transaction lost. */
int ws_cli_topt_rr_timeout(ws_cli_options *o, const char *val, ws_err *err)
{
	double secs;
	double max = (double)WS_RR_MAX_TIMEOUT_NS / (double)WS_NS_PER_SEC;
	if (ws_units_parse_double(val, 1e-6, max, &secs, NULL) < 0)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a receive timeout; expected seconds from 0.000001 "
				  "to %.0f (fractions allowed, e.g. 0.05)",
				  val, max);
	o->spec.rr_timeout_ns = (int64_t)(secs * (double)WS_NS_PER_SEC + 0.5);
	return 0;
}

/* -t stream|dgram: netperf's socket type (the words its parse_socket_type finds). Every
 * warpspeed test has one socket type, so the option only confirms it; netperf hangs on a
 * mismatch (a UDP test on a stream socket), warpspeed refuses it in ws_cli_topt_finalize. */
int ws_cli_topt_socktype(ws_cli_options *o, const char *val, ws_err *err)
{
	if (!strcmp(val, "stream") || !strcmp(val, "dgram")) {
		o->sock_type = val[0];
		return 0;
	}
	return ws_err_set(err, WS_E_INVAL, "'%s' is not a socket type; expected stream or dgram",
			  val);
}

/* -p min[,max]: netperf's local port range of the connection tests (client_port_min/max,
 * default 5000..65535): TCP_CRR's and TCP_CC's connections bind the ports from min up in
 * turn, wrapping after max (netperf starts at a random port of the range; warpspeed at
 * min, so that a run is repeatable). The other tests make one connection and netperf does
 * not look at the range; applies.c notes that. A single value sets min only. */
int ws_cli_topt_port_range(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	const char *parts[2] = {a, b};
	int have[2] = {ha, hb};
	for (int i = 0; rc == 0 && i < 2; i++) {
		long long v;
		if (have[i] &&
		    (rc = ws_cli_parse_ranged(parts[i], 1, 65535,
					      "a local port range min[,max] of ports 1 to 65535",
					      &v, err)) == 0)
			o->port_range[i] = (uint16_t)v;
	}
	return rc;
}

/* The halves of a -m/-M pair: the one naming the end that moves the data in this test sets
 * the size; the other changes nothing (netperf only echoes it in -k/-o/-O), with a note.
 * On the RR tests the local half is -m's/-M's single value (echoed, as before). */
static void resolve_pair(ws_cli_options *o, char letter, const uint32_t half[2], unsigned has,
			 uint32_t *size)
{
	enum ws_test_type t = o->spec.type;
	/* TCP_CC and TCP_MSS move no data: noted by applies.c */
	if (!has || ws_test_type_dataless(t))
		return;
	bool maerts = t == WS_TEST_TCP_MAERTS;
	bool rr = ws_test_type_transacts(t);
	/* which half is the data's: -m local,remote sends; -M remote,local receives */
	int data = letter == 'm' ? (maerts ? 1 : 0) : (maerts || rr ? 1 : 0);
	static const char *const ends[2][2] = {{"local", "remote"}, {"remote", "local"}};
	const char *test = ws_test_type_name(t);
	for (int i = 0; i < 2; i++) {
		if (!(has & (1u << i)))
			continue;
		if (i == data)
			*size = half[i];
		else
			ws_cli_add_note(
				o,
				"-%c's %s half (%u) has no effect on %s: that end does not %s "
				"(netperf only echoes it in its outputs)",
				letter, ends[letter == 'M'][i], (unsigned)half[i],
				test ? test : "this test", letter == 'm' ? "send" : "receive");
	}
}

int ws_cli_topt_finalize(ws_cli_options *o, ws_err *err)
{
	enum ws_test_type t = o->spec.type;
	const char *test = ws_test_type_name(t);
	if (o->sock_type && (o->sock_type == 'd') != ws_test_type_udp(t))
		return ws_err_set(err, WS_E_INVAL,
				  "test option -t %s does not match %s; expected -t %s (netperf "
				  "hangs on the mismatch)",
				  o->sock_type == 'd' ? "dgram" : "stream",
				  test ? test : "this test",
				  ws_test_type_udp(t) ? "dgram" : "stream");
	bool conn = ws_test_type_connects(t) || ws_cli_given(o, true, 'c');
	if (conn && (o->port_range[0] || o->port_range[1]) && !o->spec.local.data_port) {
		o->spec.local.data_port =
			o->port_range[0] ? o->port_range[0] : 5000; /* netperf's min */
		/* a max below min leaves netperf on min for every connection: so here */
		o->spec.local_port_max = o->port_range[1] ? o->port_range[1] : 65535;
		if (o->spec.local_port_max < o->spec.local.data_port)
			o->spec.local_port_max = o->spec.local.data_port;
	}
	resolve_pair(o, 'm', o->m_pair, o->m_pair_has, &o->spec.send_size);
	resolve_pair(o, 'M', o->M_pair, o->M_pair_has, &o->spec.recv_size);
	return 0;
}
