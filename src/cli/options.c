/* SPDX-License-Identifier: BSD-2-Clause */
/* options: netperf command-line parsing; see options.h.
 *
 * getopt is not used: glibc's permutes arguments and prints its own messages, and netperf's
 * optional values (-c [rate], -D [secs]) do not fit it. Instead each section (global, test)
 * is one table of letter, value kind and handler, so adding netperf's remaining options
 * later is one row and one small function each (the handlers: globalopts.c, testopts.c,
 * harnessopts.c). Options netperf has but warpspeed does not implement yet sit in the
 * tables without a handler and are refused by name. */
#include "cli/options.h"
#include "model/rpm.h"

#include "cli/conntest.h"
#include "cli/globalopts.h"
#include "cli/harnessopts.h"
#include "cli/testhelp.h"
#include "cli/applies.h"
#include "cli/longopts.h"
#include "cli/lul.h"
#include "cli/optvalue.h"
#include "cli/outopts.h"
#include "cli/personality.h"
#include "cli/sweep.h"
#include "cli/testopts.h"

#include "util/err.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

enum opt_kind {
	OPT_FLAG,    /* no value; more letters may follow in the same word (-cC) */
	OPT_VALUE,   /* a value, attached (-l10) or in the next word (-l 10) */
	OPT_OPTVAL,  /* a value only when the rest looks like a number, as netperf's -c [rate] */
	OPT_OPTWORD, /* a value attached, or the next word unless it starts with '-' (-o [list]) */
};

struct opt_def;

struct opt_def {
	char letter;
	enum opt_kind kind;
	bool dash_ok;     /* a separate value may start with '-' (-l -1000); on an OPT_OPTVAL,
	                     * the value may be a signed number (-D -0.5) */
	opt_fn fn;        /* NULL: a netperf option not supported yet */
	const char *form; /* what the value looks like, for messages */
};

/* What to use instead of an unsupported option whose letter means something else in the
 * other table. (netperf's global -b, packets per -w interval, is now accepted with a note
 * that points at the test option -b, the first burst: cli/harnessopts.c.) */
static const struct {
	bool test;
	char letter;
	const char *hint;
} unsupported_hints[] = {
	{false, 'b',
	 " (netperf's packets per -w interval; the first burst of TCP_RR and UDP_RR is the test "
	 "option -b, after --)"},
};

static const char *unsupported_hint(bool test, char letter)
{
	for (size_t i = 0; i < sizeof(unsupported_hints) / sizeof(unsupported_hints[0]); i++)
		if (unsupported_hints[i].test == test && unsupported_hints[i].letter == letter)
			return unsupported_hints[i].hint;
	return "";
}

/* ---- tables --------------------------------------------------------------------------- */

/* clang-format off */
static const struct opt_def global_opts[] = {
	{'4', OPT_FLAG, false, ws_cli_gopt_inet4, NULL},
	{'6', OPT_FLAG, false, ws_cli_gopt_inet6, NULL},
	{'B', OPT_VALUE, true, ws_cli_gopt_brand, "brand"},
	{'c', OPT_OPTVAL, false, ws_cli_gopt_local_cpu, "[rate]"},
	{'C', OPT_OPTVAL, false, ws_cli_gopt_remote_cpu, "[rate]"},
	{'D', OPT_OPTVAL, true, ws_cli_gopt_demo, "[[+|-]secs[,units]]"},
	{'f', OPT_VALUE, false, ws_cli_gopt_format, "G|M|K|g|m|k|x"},
	{'F', OPT_VALUE, false, ws_cli_gopt_fill_file, "file[,remotefile]"},
	{'h', OPT_FLAG, false, ws_cli_opt_help, NULL},
	{'H', OPT_VALUE, false, ws_cli_gopt_remote_host, "host[,family]"},
	{'i', OPT_VALUE, false, ws_cli_gopt_iterations, "max[,min]"},
	{'I', OPT_VALUE, false, ws_cli_gopt_conf_level, "level[,width]"},
	{'l', OPT_VALUE, true, ws_cli_gopt_length, "secs or -count"},
	{'L', OPT_VALUE, false, ws_cli_gopt_local_host, "host[,family]"},
	{'n', OPT_VALUE, false, ws_cli_gopt_ncpus, "ncpus"},
	{'p', OPT_VALUE, false, ws_cli_gopt_ctl_port, "port[,localport]"},
	{'P', OPT_VALUE, false, ws_cli_gopt_headers, "0|1"},
	{'r', OPT_FLAG, false, ws_cli_gopt_result_only, NULL},
	{'t', OPT_VALUE, false, ws_cli_gopt_test, "testname"},
	{'T', OPT_VALUE, false, ws_cli_gopt_cpu_bind, "lcpu[,rcpu]"},
	{'v', OPT_VALUE, false, ws_cli_gopt_verbosity, "0|1|2"},
	{'V', OPT_FLAG, false, ws_cli_opt_version, NULL},
	{'Z', OPT_VALUE, false, ws_cli_gopt_passphrase, "passphrase"},
	/* Options harnesses pass (cli/harnessopts.c). */
	{'a', OPT_VALUE, false, ws_cli_opt_align, "sendalign[,recvalign]"},
	{'A', OPT_VALUE, false, ws_cli_opt_align, "sendalign[,recvalign]"},
	{'b', OPT_VALUE, false, ws_cli_opt_burst, "burst[,remoteburst]"},
	{'d', OPT_FLAG, false, ws_cli_opt_debug, NULL},
	{'k', OPT_VALUE, false, ws_cli_opt_dirty, "dirty[,clean]"},
	{'K', OPT_VALUE, false, ws_cli_opt_dirty, "dirty[,clean]"},
	{'o', OPT_VALUE, false, ws_cli_opt_offset, "sendoffset[,recvoffset]"},
	{'O', OPT_VALUE, false, ws_cli_opt_offset, "sendoffset[,recvoffset]"},
	{'s', OPT_VALUE, false, ws_cli_opt_wait, "secs"},
	{'S', OPT_FLAG, false, ws_cli_opt_keepalive, NULL},
	{'w', OPT_VALUE, false, ws_cli_opt_interval, "interval[,remoteinterval]"},
	{'W', OPT_VALUE, false, ws_cli_opt_width, "send[,recv]"},
	{'y', OPT_VALUE, false, ws_cli_opt_priority, "local[,remote]"},
	{'Y', OPT_VALUE, false, ws_cli_opt_tos, "local[,remote]"},
	/* netperf options not supported yet: refused by name. */
	{'j', OPT_FLAG, false, ws_cli_opt_histogram, NULL},
	{'N', OPT_FLAG, false, NULL, NULL},
	{0, OPT_FLAG, false, NULL, NULL},
};
/* clang-format on */

/* clang-format off */
static const struct opt_def test_opts[] = {
	{'4', OPT_FLAG, false, ws_cli_gopt_inet4, NULL},
	{'6', OPT_FLAG, false, ws_cli_gopt_inet6, NULL},
	{'d', OPT_VALUE, false, ws_cli_topt_direction, "send|recv|rr"},
	{'D', OPT_FLAG, false, ws_cli_topt_nodelay, NULL},
	{'n', OPT_FLAG, false, ws_cli_topt_udp_connected, NULL},
	{'N', OPT_FLAG, false, ws_cli_topt_udp_connected, NULL},
	{'k', OPT_OPTWORD, false, ws_cli_topt_keyval, "[list|file|all|?]"},
	{'m', OPT_VALUE, false, ws_cli_topt_send_size, "bytes[,remote]"},
	{'M', OPT_VALUE, false, ws_cli_topt_recv_size, "bytes|remote,local"},
	{'o', OPT_OPTWORD, false, ws_cli_topt_csv, "[list|file|all|?]"},
	{'O', OPT_OPTWORD, false, ws_cli_topt_human, "[list|file|all|?]"},
	{'P', OPT_VALUE, false, ws_cli_topt_data_ports, "lport[,rport]"},
	{'s', OPT_VALUE, true, ws_cli_topt_local_bufs, "send[,recv]"},
	{'S', OPT_VALUE, true, ws_cli_topt_remote_bufs, "send[,recv]"},
	{'T', OPT_VALUE, false, ws_cli_topt_protocol, "tcp|udp"},
	{'u', OPT_VALUE, false, ws_cli_topt_uuid, "uuid"},
	{'t', OPT_VALUE, false, ws_cli_topt_socktype, "stream|dgram"},
	{'p', OPT_VALUE, false, ws_cli_topt_port_range, "min[,max]"},
	{'r', OPT_VALUE, false, ws_cli_topt_rr_sizes, "req[,rsp]"},
	{'R', OPT_VALUE, false, ws_cli_topt_routing, "0|1"},
	{'b', OPT_VALUE, true, ws_cli_topt_burst, "burst"},
	{'e', OPT_VALUE, false, ws_cli_topt_rr_timeout, "secs"},
	/* Options harnesses pass (cli/harnessopts.c). */
	{'C', OPT_FLAG, false, ws_cli_topt_cork, NULL},
	{'G', OPT_VALUE, false, ws_cli_topt_maxseg, "mss"},
	{'H', OPT_VALUE, false, ws_cli_topt_data_host, "host[,family]"},
	{'K', OPT_VALUE, false, ws_cli_topt_cong, "cc[,remotecc]"},
	{'L', OPT_VALUE, false, ws_cli_topt_data_local, "host[,family]"},
	{'c', OPT_FLAG, false, ws_cli_topt_conntest, NULL},
	{'h', OPT_FLAG, false, ws_cli_topt_help, NULL},
	{0, OPT_FLAG, false, NULL, NULL},
};
/* clang-format on */

void ws_cli_option_words(bool test, ws_cli_word_fn fn, void *ctx)
{
	for (const struct opt_def *d = test ? test_opts : global_opts; d->letter; d++)
		if (d->fn) /* not the ones refused by name */
			fn(ctx, (char[3]){'-', d->letter, 0}, d->kind == OPT_FLAG ? NULL : d->form);
}

/* ---- driver --------------------------------------------------------------------------- */

static const struct opt_def *find_opt(const struct opt_def *table, char letter)
{
	for (; table->letter; table++)
		if (table->letter == letter)
			return table;
	return NULL;
}

static int given_bit(char letter)
{
	if (letter >= '0' && letter <= '9')
		return letter - '0';
	if (letter >= 'A' && letter <= 'Z')
		return 10 + letter - 'A';
	if (letter >= 'a' && letter <= 'z')
		return 36 + letter - 'a';
	return -1;
}

bool ws_cli_given(const ws_cli_options *o, bool test_option, char letter)
{
	int bit = given_bit(letter);
	uint64_t mask = test_option ? o->test_given : o->global_given;
	return bit >= 0 && (mask >> bit) & 1;
}

/* Run one option's handler and name the option in any error it reports. */
static int apply(ws_cli_options *o, const struct opt_def *d, bool test, const char *val,
		 ws_err *err)
{
	const char *sect = test ? "test option" : "option";
	if (!d->fn)
		return ws_err_set(
			err, WS_E_INVAL,
			"%s -%c is a netperf option that warpspeed does not support yet%s", sect,
			d->letter, unsupported_hint(test, d->letter));
	int rc = d->fn(o, val, err);
	if (rc < 0) {
		ws_err_prefix(err, "%s -%c", sect, d->letter);
		return rc;
	}
	uint64_t bit = 1ULL << given_bit(d->letter);
	if (test)
		o->test_given |= bit;
	else
		o->global_given |= bit;
	return 0;
}

/* An optional value is taken only when it looks like one, as netperf checks for a digit;
 * ',' and '.' also count so that -D ,units and -c .5 work. */
static bool starts_value(const char *s)
{
	return isdigit((unsigned char)s[0]) || s[0] == ',' || s[0] == '.';
}

/* An optional value that may carry a sign (dash_ok on an OPT_OPTVAL: -D -0.5). */
static bool starts_optval(const struct opt_def *d, const char *s)
{
	return starts_value(s) ||
		(d->dash_ok && (s[0] == '-' || s[0] == '+') && starts_value(s + 1));
}

/* One word starting with '-': a letter, possibly followed by more flags or by the value.
 * Advances *i past the word and past a separate value if one is consumed. */
static int parse_word(ws_cli_options *o, const struct opt_def *table, bool test, int argc,
		      char **argv, int *i, ws_err *err)
{
	const char *word = argv[(*i)++], *p = word + 1;
	const char *sect = test ? "test option" : "option";
	while (*p) {
		const struct opt_def *d = find_opt(table, *p);
		if (!d)
			return ws_err_set(
				err, WS_E_INVAL,
				"unknown %s -%c%s%s%s; run '%s -h' for the accepted options%s",
				sect, *p, p > word + 1 ? " in '" : "", p > word + 1 ? word : "",
				p > word + 1 ? "'" : "", ws_cli_prog(),
				test ? " (after --, only test options are accepted)" : "");
		if (!d->fn)
			return apply(o, d, test, NULL, err);
		const char *rest = p + 1, *next = *i < argc ? argv[*i] : NULL;
		if (next && strcmp(next, "--") == 0)
			next = NULL; /* the separator is never a value */
		if (d->kind == OPT_FLAG ||
		    (d->kind == OPT_OPTVAL && *rest && !starts_optval(d, rest))) {
			int rc = apply(o, d, test, NULL, err);
			if (rc < 0 || o->help || o->version)
				return rc;
			p = rest;
			continue;
		}
		if (d->kind == OPT_OPTWORD) {
			if (!*rest && next && next[0] != '-')
				rest = argv[(*i)++];
			return apply(o, d, test, *rest ? rest : NULL, err);
		}
		if (d->kind == OPT_OPTVAL) {
			if (!*rest && next && starts_optval(d, next))
				rest = argv[(*i)++];
			return apply(o, d, test, *rest ? rest : NULL, err);
		}
		if (*rest)
			return apply(o, d, test, rest, err);
		if (!next)
			return ws_err_set(err, WS_E_INVAL, "%s -%c needs a value; expected -%c %s",
					  sect, d->letter, d->letter, d->form);
		if (next[0] == '-' && next[1] && !d->dash_ok)
			return ws_err_set(
				err, WS_E_INVAL,
				"%s -%c needs a value but is followed by '%s'; expected -%c %s",
				sect, d->letter, next, d->letter, d->form);
		(*i)++;
		return apply(o, d, test, next, err);
	}
	return 0;
}

/* Checks and defaults that depend on more than one option, whatever their order. */
static int finalize(ws_cli_options *o, ws_err *err)
{
	ws_test_spec *s = &o->spec;
	if (o->psk_file && o->psk_pass)
		return ws_err_set(
			err, WS_E_INVAL,
			"option -Z and option --psk-file both give a key; expected one of them");
	int orc = ws_cli_omni_finalize(o, err);
	if (orc == 0)
		orc = ws_cli_conn_finalize(o, err);
	if (orc == 0)
		orc = ws_cli_topt_finalize(o, err);
	if (orc < 0)
		return orc;
	if (o->json && o->out_mode)
		return ws_err_set(err, WS_E_INVAL,
				  "option --json%s and the output selectors (-o/-O/-k) both "
				  "choose the output; expected one of them",
				  o->json == 2 ? "-lines" : "");
	if (o->sweep && (orc = ws_cli_sweep_check(o, err)) < 0)
		return orc;
	if ((orc = ws_cli_lul_check(o, err)) < 0) /* RRUL's options, before any work */
		return orc;
	int prc = ws_cli_check_applies(o, err);
	if (prc == 0)
		prc = ws_cli_harness_finalize(o, err);
	if (prc == 0)
		ws_cli_note_ignored(o);
	if (prc < 0)
		return prc;
	if ((prc = ws_confidence_setup(&o->conf, &o->conf_args, err)) < 0)
		return prc;
	if (s->end != WS_END_TIME && !ws_test_type_stream(s->type))
		s->end = WS_END_TRANSACTIONS;
	if (s->type == WS_TEST_UDP_RR &&
	    (s->req_size > WS_RR_MAX_UDP || s->rsp_size > WS_RR_MAX_UDP))
		return ws_err_set(err, WS_E_INVAL,
				  "test option -r: %u,%u is too large for UDP_RR; expected request "
				  "and response sizes from 1 to %u bytes (the largest UDP payload)",
				  s->req_size, s->rsp_size, WS_RR_MAX_UDP);
	if (s->type == WS_TEST_UDP_STREAM && s->send_size &&
	    (s->send_size > WS_CLI_UDP_MAX_MSG || s->send_size < WS_CLI_UDP_MIN_MSG))
		return ws_err_set(
			err, WS_E_INVAL,
			"test option -m: %u is not a UDP_STREAM message size; expected %d to %d "
			"bytes (a sequence header, up to the largest UDP payload)",
			s->send_size, WS_CLI_UDP_MIN_MSG, WS_CLI_UDP_MAX_MSG);
	if (o->remote_family != WS_FAMILY_ANY && o->local_family != WS_FAMILY_ANY &&
	    o->remote_family != o->local_family)
		return ws_err_set(err, WS_E_INVAL,
				  "the remote host (-H, -4, -6) is IPv%d but the local address "
				  "(-L) is IPv%d; expected one address family",
				  (int)o->remote_family, (int)o->local_family);
	s->family = o->remote_family != WS_FAMILY_ANY ? o->remote_family : o->local_family;
	if (!o->remote_host_given && s->family == WS_FAMILY_INET6)
		memcpy(o->remote_host, WS_CLI_DEFAULT_HOST6, sizeof(WS_CLI_DEFAULT_HOST6));
	if (!o->format_given && !ws_test_type_stream(s->type))
		o->format = 'x';
	size_t flen = strlen(o->fill_file);
	if (flen >= sizeof(s->fill_file))
		return ws_err_set(
			err, WS_E_INVAL,
			"option -F: a path of %zu characters is too long; expected at most %zu",
			flen, sizeof(s->fill_file) - 1);
	memcpy(s->fill_file, o->fill_file, flen + 1);
	int rc = ws_test_spec_validate(s, err);
	if (rc < 0)
		ws_err_prefix(err, "inconsistent options");
	return rc;
}

void ws_cli_options_init(ws_cli_options *o)
{
	memset(o, 0, sizeof(*o));
	ws_test_spec_init(&o->spec);
	o->rpm.dir = WS_RPM_BOTH;
	o->rpm.max_flows = WS_RPM_DEFAULT_FLOWS;
	o->rpm.probe_rate = WS_RPM_DEFAULT_RATE;
	memcpy(o->remote_host, WS_CLI_DEFAULT_HOST, sizeof(WS_CLI_DEFAULT_HOST));
	o->ctl_port = WS_DEFAULT_CTL_PORT;
	o->print_headers = 1;
	o->verbosity = 1;
	o->format = 'm';
}

int ws_cli_parse(int argc, char **argv, ws_cli_options *o, ws_err *err)
{
	ws_cli_options_init(o);
	bool test = false;
	int i = 1;
	while (i < argc) {
		const char *a = argv[i];
		int rc;
		if (!test && strcmp(a, "--") == 0) {
			test = true;
			i++;
			continue;
		}
		if (a[0] == '-' && a[1] == '-' && a[2]) {
			rc = ws_cli_parse_long(o, argc, argv, &i, err);
		} else if (a[0] == '-' && a[1] && a[1] != '-') {
			rc = parse_word(o, test ? test_opts : global_opts, test, argc, argv, &i,
					err);
		} else if (i > 1 &&
			   (!strcmp(argv[i - 1], "--json") ||
			    !strcmp(argv[i - 1], "--json-lines"))) {
			/* --json FILE, as iq bench's and mesh's file options read */
			return ws_err_set(err, WS_E_INVAL,
					  "unexpected argument '%s' after %s, which writes to "
					  "standard output; expected --json-file %s for a file",
					  a, argv[i - 1], a);
		} else {
			return ws_err_set(
				err, WS_E_INVAL, "unexpected argument '%s'; expected %s", a,
				test ? "test options such as -m 64K"
				     : "options such as -H host, and test options after --");
		}
		if (rc < 0)
			return rc;
		if (o->help || o->version)
			return 0;
	}
	return finalize(o, err);
}
