/* SPDX-License-Identifier: BSD-2-Clause */
/* harnessopts: handlers of the options harnesses pass; see harnessopts.h. */
#include "cli/harnessopts.h"

#include "cli/optvalue.h"
#include "cli/personality.h"
#include "net/sockopt.h"
#include "util/err.h"
#include "util/units.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WAIT_S WS_MAX_START_WAIT_S

void ws_cli_add_note(ws_cli_options *o, const char *fmt, ...)
{
	size_t n = strlen(o->notes);
	if (n + 2 >= sizeof(o->notes))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->notes + n, sizeof(o->notes) - n - 1, fmt, ap);
	va_end(ap);
	n = strlen(o->notes);
	o->notes[n] = '\n';
	o->notes[n + 1] = '\0';
}

void ws_cli_print_notes(const ws_cli_options *o, FILE *out)
{
	for (const char *p = o->notes; *p;) {
		size_t n = strcspn(p, "\n");
		fprintf(out, "%s: note: %.*s\n", ws_cli_prog(), (int)n, p);
		p += n + (p[n] == '\n');
	}
}

/* Two values x[,y] where a single one sets both (netperf's break_args). */
typedef int (*one_fn)(const char *v, int *out, ws_err *err);

static int pair(const char *val, one_fn fn, int *local, int *remote, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	if (rc == 0 && ha)
		rc = fn(a, local, err);
	if (rc == 0 && hb)
		rc = fn(b, remote, err);
	return rc;
}

static int one_tos(const char *v, int *out, ws_err *err)
{
	int t = ws_sockopt_parse_tos(v);
	if (t < 0)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not an IP_TOS value; expected a number from 0 to 255 "
				  "(0x10, 020 or 16) or a name: af11..af43, cs0..cs7, ef, "
				  "lowdelay, throughput, reliability",
				  v);
	*out = t;
	return 0;
}

int ws_cli_opt_tos(ws_cli_options *o, const char *val, ws_err *err)
{
	return pair(val, one_tos, &o->spec.local.tos, &o->spec.remote.tos, err);
}

static int one_priority(const char *v, int *out, ws_err *err)
{
	long long p;
	int rc = ws_cli_parse_ranged(
		v, 0, WS_MAX_PRIORITY,
		"an SO_PRIORITY from 0 to 2147483647 (above 6 needs CAP_NET_ADMIN)", &p, err);
	if (rc == 0)
		*out = (int)p;
	return rc;
}

int ws_cli_opt_priority(ws_cli_options *o, const char *val, ws_err *err)
{
	return pair(val, one_priority, &o->spec.local.priority, &o->spec.remote.priority, err);
}

int ws_cli_opt_wait(ws_cli_options *o, const char *val, ws_err *err)
{
	double s;
	if (ws_units_parse_double(val, 0, MAX_WAIT_S, &s, NULL) < 0)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a wait; expected seconds from 0 to %d", val,
				  MAX_WAIT_S);
	o->start_wait_s = s;
	return 0;
}

int ws_cli_opt_keepalive(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->spec.keepalive = true;
	return 0;
}

/* One whole number up to 2^30; with sizes, also with netperf's suffixes (convert(): 4K is
 * 4096, 4k 4000), as -a/-A/-o/-O read them. */
static int check_count(const char *s, bool sizes, const char *what, ws_err *err)
{
	long long v;
	uint64_t u;
	if (!sizes)
		return ws_cli_parse_ranged(s, 0, 1LL << 30, what, &v, err);
	if (ws_units_parse_size(s, &u, NULL) < 0 || u > (1ULL << 30))
		return ws_err_set(err, WS_E_INVAL, "'%s' is not valid; expected %s", s, what);
	return 0;
}

/* A pair of whole numbers, checked and then left unused: the options below are accepted
 * so that harness command lines run, with a note saying why they change nothing. */
static int check_counts(const char *val, bool sizes, const char *what, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	if (rc == 0 && ha)
		rc = check_count(a, sizes, what, err);
	if (rc == 0 && hb)
		rc = check_count(b, sizes, what, err);
	return rc;
}

/* The options accepted without effect: what their values are, and why they change nothing. */
enum noted_opt { N_ALIGN, N_BURST, N_WIDTH, N_OFFSET, N_DIRTY };
static const struct {
	const char *name, *what, *why;
	/* clang-format off */
} noted_opts[] = {
	[N_ALIGN] = {"-a/-A", "an alignment in bytes (K, M suffixes allowed)",
		     "warpspeed's data buffers are page-aligned (4096 bytes), which satisfies any alignment up to a page; the option is accepted and changes nothing"},
	[N_BURST] = {"-b", "a burst size",
		     "packet burst size is not compiled in, as in Debian's netperf 2.7.0 (built without --enable-intervals); ignored (netperf's packets per -w interval; the first burst of TCP_RR and UDP_RR is the test option -b, after --). For paced UDP_STREAM use --pace RATE"},
	[N_WIDTH] = {"-W", "a number of buffers",
		     "warpspeed sends from one buffer per thread (no ring to cycle through the cache); accepted and ignored"},
	[N_OFFSET] = {"-o/-O", "an offset in bytes (K, M suffixes allowed)",
		      "buffer offsets are not applied (warpspeed's buffers stay page-aligned); accepted and ignored"},
	[N_DIRTY] = {"-k/-K", "a count",
		     "dirty/clean buffer counts exist only in netperf builds with --enable-dirty (Debian's netperf says \"I don't know how to get dirty.\"); ignored"},
};
/* clang-format on */

static int noted(ws_cli_options *o, const char *val, enum noted_opt which, ws_err *err)
{
	int rc = check_counts(val, which == N_ALIGN || which == N_OFFSET, noted_opts[which].what,
			      err);
	if (rc == 0)
		ws_cli_add_note(o, "%s %s: %s", noted_opts[which].name, val, noted_opts[which].why);
	return rc;
}

int ws_cli_opt_align(ws_cli_options *o, const char *val, ws_err *err)
{
	return noted(o, val, N_ALIGN, err);
}

int ws_cli_opt_burst(ws_cli_options *o, const char *val, ws_err *err)
{
	return noted(o, val, N_BURST, err);
}

int ws_cli_opt_interval(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	double v;
	if (rc == 0 &&
	    ((ha && ws_units_parse_double(a, 0, 1e9, &v, NULL) < 0) ||
	     (hb && ws_units_parse_double(b, 0, 1e9, &v, NULL) < 0)))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not an interval; expected a number of milliseconds",
				  val);
	if (rc == 0)
		ws_cli_add_note(o,
				"-w %s: packet rate control is not compiled in, as in Debian's "
				"netperf 2.7.0 "
				"(built without --enable-intervals); ignored. For paced UDP_STREAM "
				"use --pace RATE",
				val);
	return rc;
}

int ws_cli_opt_width(ws_cli_options *o, const char *val, ws_err *err)
{
	return noted(o, val, N_WIDTH, err);
}

int ws_cli_opt_offset(ws_cli_options *o, const char *val, ws_err *err)
{
	return noted(o, val, N_OFFSET, err);
}

int ws_cli_opt_dirty(ws_cli_options *o, const char *val, ws_err *err)
{
	return noted(o, val, N_DIRTY, err);
}

int ws_cli_opt_debug(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	if (!strstr(o->notes, "-d:"))
		ws_cli_add_note(o,
				"-d: netperf's debug output has no counterpart; use -v 2 for "
				"warpspeed's detail");
	return 0;
}

/* ---- test options ------------------------------------------------------------------ */

static int copy_cong(char *dst, size_t dsz, const char *v, ws_err *err)
{
	size_t n = strlen(v);
	bool ok = n > 0 && n < dsz;
	for (size_t i = 0; ok && i < n; i++)
		ok = isalnum((unsigned char)v[i]) || v[i] == '_' || v[i] == '-';
	if (!ok)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a congestion control name; expected a name like "
				  "cubic or reno (letters, digits, '_', '-'; at most %zu)",
				  v, dsz - 1);
	memcpy(dst, v, n + 1);
	return 0;
}

int ws_cli_topt_cong(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	if (rc == 0 && ha)
		rc = copy_cong(o->spec.local.cong, sizeof(o->spec.local.cong), a, err);
	if (rc == 0 && hb)
		rc = copy_cong(o->spec.remote.cong, sizeof(o->spec.remote.cong), b, err);
	return rc;
}

int ws_cli_topt_cork(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->spec.cork = true;
	return 0;
}

int ws_cli_topt_maxseg(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, WS_MIN_MAXSEG, WS_MAX_MAXSEG,
				     "an MSS from 88 to 65535 bytes", &v, err);
	if (rc == 0)
		o->spec.maxseg = (uint32_t)v;
	return rc;
}

/* host[,family]; a single value sets only the host, as netperf's -H and -L. */
static int data_addr(ws_cli_options *o, const char *val, char *dst, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	if (rc == 0 && hb)
		rc = ws_cli_parse_family(b, &o->data_family, err);
	if (rc == 0 && ha) {
		size_t n = strlen(a);
		if (n >= WS_DATA_ADDR_MAX)
			return ws_err_set(
				err, WS_E_INVAL,
				"a data address of %zu characters is too long; expected at most %d",
				n, WS_DATA_ADDR_MAX - 1);
		memcpy(dst, a, n + 1);
	}
	return rc;
}

int ws_cli_topt_data_host(ws_cli_options *o, const char *val, ws_err *err)
{
	return data_addr(o, val, o->spec.data_host, err);
}

int ws_cli_topt_data_local(ws_cli_options *o, const char *val, ws_err *err)
{
	return data_addr(o, val, o->spec.data_local, err);
}

/* ---- long options ------------------------------------------------------------------ */

int ws_cli_parse_bitrate(const char *s, double *bps, ws_err *err)
{
	static const struct {
		char suffix;
		double mult;
	} units[] = {{'k', 1e3}, {'m', 1e6}, {'g', 1e9}, {'t', 1e12}};
	char num[64];
	size_t n = strlen(s);
	double mult = 1;
	if (n == 0 || n >= sizeof(num))
		goto bad;
	memcpy(num, s, n + 1);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (tolower((unsigned char)num[n - 1]) == units[i].suffix) {
			mult = units[i].mult;
			num[--n] = '\0';
			break;
		}
	double v;
	if (n == 0 || ws_units_parse_double(num, 0, WS_MAX_PACE_BPS, &v, NULL) < 0 ||
	    v * mult <= 0 || v * mult > WS_MAX_PACE_BPS)
		goto bad;
	*bps = v * mult;
	return 0;
bad:
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not a rate; expected bits/s above 0 with an optional k, m, g or "
			  "t (10^3 to 10^12), e.g. 900m, up to 10t",
			  s);
}

int ws_cli_lopt_pace(ws_cli_options *o, const char *val, ws_err *err)
{
	return ws_cli_parse_bitrate(val, &o->spec.udp_pace_bps, err);
}

int ws_cli_lopt_flow_control(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->spec.udp_flow_control = true;
	return 0;
}

int ws_cli_harness_finalize(ws_cli_options *o, ws_err *err)
{
	ws_test_spec *s = &o->spec;
	/* netperf (netsh.c) resets 'x' silently to 'm' for a test that is not RR. */
	if (o->format == 'x' && ws_test_type_stream(s->type))
		o->format = 'm';
	/* The data go in the control connection's family (-H, -L, -4, -6 before --). */
	enum ws_family ctl = o->remote_family != WS_FAMILY_ANY ? o->remote_family : o->local_family;
	if (o->data_family != WS_FAMILY_ANY && ctl != WS_FAMILY_ANY && o->data_family != ctl)
		return ws_err_set(err, WS_E_INVAL,
				  "test options -H/-L ask for IPv%d data but the control "
				  "connection is IPv%d; expected one address family",
				  (int)o->data_family, (int)ctl);
	if (o->data_family != WS_FAMILY_ANY && ctl == WS_FAMILY_ANY)
		o->remote_family = o->data_family;
	/* --pace, --flow-control, -C, -G and -K on a test they do not apply to: cli/applies.c */
	bool tcp = !ws_test_type_udp(s->type);
	if (!tcp && s->keepalive)
		ws_cli_add_note(o,
				"-S: SO_KEEPALIVE is a TCP option; %s has no connection to keep "
				"alive, so it is not set",
				ws_test_type_name(s->type));
	return 0;
}
