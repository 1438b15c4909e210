/* SPDX-License-Identifier: BSD-2-Clause */
/* sweep: the --sweep table, list parser and point command lines; see sweep.h.
 *
 * A value is checked here with the same readers the options use (so a bad one is named
 * before any test runs) and turned into x; whatever depends on the rest of the command
 * line (UDP_STREAM's message bounds, which tests an option applies to, a netserver's
 * limits) is left to the normal parse of each point's command line. */
#include "cli/sweep.h"

#include "cli/longopts.h"
#include "cli/optvalue.h"
#include "model/testtype.h"
#include "util/err.h"
#include "util/units.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One half of a value: 0 and its x, or a negative code (the caller words the message). */
typedef int (*half_fn)(const char *v, double *x);

static int half_size1(const char *v, double *x)
{
	uint32_t n;
	if (ws_cli_parse_size32(v, 1, &n, NULL) < 0)
		return -WS_E_INVAL;
	*x = n;
	return 0;
}

static int half_size0(const char *v, double *x)
{
	uint32_t n;
	if (ws_cli_parse_size32(v, 0, &n, NULL) < 0)
		return -WS_E_INVAL;
	*x = n;
	return 0;
}

static int half_count(const char *v, double *x)
{
	long long n;
	if (ws_cli_parse_ranged(v, 1, WS_MAX_STREAMS, "", &n, NULL) < 0)
		return -WS_E_INVAL;
	*x = (double)n;
	return 0;
}

static int half_rate(const char *v, double *x) { return ws_cli_parse_rate(v, x, NULL); }

struct ws_cli_sweep_def {
	const char *name; /* after --sweep */
	char letter;      /* typed as test option -letter after --; 0: as --opt */
	const char *opt;  /* the long option's name when letter is 0 */
	bool pair;        /* "a:b" allowed, typed "a,b"; x is a's */
	half_fn half;
	const char *what;     /* what the option sets, for the both-given message */
	const char *accepted; /* the accepted values, for messages */
};

/* clang-format off */
static const struct ws_cli_sweep_def defs[] = {
	{"m", 'm', NULL, false, half_size1, "the send size",
	 "send sizes from 1 to 1G bytes (K, M, G suffixes), e.g. m=64,1K,64K"},
	{"M", 'M', NULL, false, half_size1, "the receive size",
	 "receive sizes from 1 to 1G bytes (K, M, G suffixes), e.g. M=1K,64K"},
	{"r", 'r', NULL, true, half_size1, "the request and response sizes",
	 "req[:rsp] with sizes from 1 to 1G bytes (K, M, G suffixes), e.g. r=1:1,64:64,1K:16K (64 alone is 64:64)"},
	{"s", 's', NULL, true, half_size0, "the local socket buffers",
	 "send[:recv] socket buffer sizes from 0 to 1G bytes, e.g. s=64K,256K or s=64K:128K"},
	{"S", 'S', NULL, true, half_size0, "the remote socket buffers",
	 "send[:recv] socket buffer sizes from 0 to 1G bytes, e.g. S=64K,256K or S=64K:128K"},
	{"streams", 0, "streams", false, half_count, "the number of streams",
	 "stream counts from 1 to 10000, e.g. streams=1,2,4,8"},
	{"threads", 0, "threads", true, half_count, "the number of threads",
	 "T[:remoteT] thread counts from 1 to 10000, e.g. threads=1,2,4"},
	{"rate", 0, "rate", false, half_rate, "the open-loop rate",
	 "transactions/s per flow above 0 and at most 1e9, optionally with k or m, e.g. rate=1k,10k,100k"},
};
/* clang-format on */
#define NDEFS (sizeof(defs) / sizeof(defs[0]))

const char *ws_cli_sweep_names(void) { return "m, M, r, s, S, streams, threads, rate"; }

static const struct ws_cli_sweep_def *find_def(const char *name, size_t n)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (strlen(defs[i].name) == n && strncmp(defs[i].name, name, n) == 0)
			return &defs[i];
	return NULL;
}

/* One value of the list (NUL-terminated in v): its typed form and x. */
static int parse_value(const struct ws_cli_sweep_def *d, const char *v, char *typed, double *x,
		       ws_err *err)
{
	char a[WS_CLI_SWEEP_VALUE_MAX];
	const char *colon = strchr(v, ':');
	size_t an = colon ? (size_t)(colon - v) : strlen(v);
	double ignored;
	memcpy(a, v, an);
	a[an] = '\0';
	if ((colon && !d->pair) || (colon && (!an || !colon[1] || strchr(colon + 1, ':'))) ||
	    d->half(a, x) < 0 || (colon && d->half(colon + 1, &ignored) < 0))
		return ws_err_set(err, WS_E_INVAL, "%s value '%s' is not valid; expected %s",
				  d->name, v, d->accepted);
	memcpy(typed, v, strlen(v) + 1);
	if (colon)
		typed[an] = ','; /* netperf's own separator, for the typed option */
	return 0;
}

int ws_cli_sweep_parse(const char *arg, ws_cli_sweep *sw, ws_err *err)
{
	memset(sw, 0, sizeof(*sw));
	const char *eq = strchr(arg, '=');
	if (!eq)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a sweep; expected NAME=V1,V2,... with NAME one of "
				  "%s (e.g. m=64,1K,64K)",
				  arg, ws_cli_sweep_names());
	sw->def = find_def(arg, (size_t)(eq - arg));
	if (!sw->def)
		return ws_err_set(err, WS_E_INVAL,
				  "'%.*s' is not a sweep parameter; expected one of %s",
				  (int)(eq - arg), arg, ws_cli_sweep_names());
	sw->name = sw->def->name;
	const char *p = eq + 1;
	if (!*p)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' has no values; expected %s=V1,V2,... with %s", arg,
				  sw->name, sw->def->accepted);
	for (;;) {
		size_t n = strcspn(p, ",");
		if (n == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' has an empty value; expected values separated by "
					  "single commas",
					  arg);
		if (sw->n == WS_CLI_SWEEP_MAX_POINTS)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' has more than %d values; expected at most %d", arg,
					  WS_CLI_SWEEP_MAX_POINTS, WS_CLI_SWEEP_MAX_POINTS);
		if (n >= WS_CLI_SWEEP_VALUE_MAX)
			return ws_err_set(
				err, WS_E_INVAL,
				"%s value '%.*s' is too long; expected at most %d characters",
				sw->name, (int)n, p, WS_CLI_SWEEP_VALUE_MAX - 1);
		char *v = sw->value[sw->n];
		memcpy(v, p, n);
		v[n] = '\0';
		int rc = parse_value(sw->def, v, sw->typed[sw->n], &sw->x[sw->n], err);
		if (rc < 0)
			return rc;
		sw->n++;
		if (!p[n])
			return 0;
		p += n + 1;
		if (!*p)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' has an empty value; expected values separated by "
					  "single commas",
					  arg);
	}
}

int ws_cli_sweep_check(const ws_cli_options *o, ws_err *err)
{
	ws_cli_sweep *sw = malloc(sizeof(*sw));
	if (!sw)
		return ws_err_set(err, -ENOMEM, "no memory for the sweep");
	int rc = ws_cli_sweep_parse(o->sweep, sw, err);
	const struct ws_cli_sweep_def *d = sw->def;
	free(sw);
	if (rc < 0) {
		ws_err_prefix(err, "option --sweep");
		return rc;
	}
	if (d->letter ? ws_cli_given(o, true, d->letter) : ws_cli_long_given(o, d->opt)) {
		char opt[32];
		if (d->letter)
			snprintf(opt, sizeof(opt), "test option -%c", d->letter);
		else
			snprintf(opt, sizeof(opt), "option --%s", d->opt);
		return ws_err_set(err, WS_E_INVAL,
				  "option --sweep %s and %s both set %s; expected one of them (the "
				  "sweep gives each point its value)",
				  d->name, opt, d->what);
	}
	if (o->json == 2)
		return ws_err_set(err, WS_E_INVAL,
				  "option --sweep and --json-lines: a sweep is one document; "
				  "expected --json");
	/* netperf accepts -m and -M on the RR tests, where they change nothing: no curve */
	if (d->letter && strchr("mM", d->letter) && ws_test_type_transacts(o->spec.type))
		return ws_err_set(
			err, WS_E_INVAL,
			"option --sweep %s does not apply to %s: test option -%c changes nothing "
			"there (-r sizes the requests and responses); expected --sweep r=...",
			d->name, ws_test_type_name(o->spec.type), d->letter);
	return 0;
}

int ws_cli_sweep_point_argv(const ws_cli_sweep *sw, size_t i, int argc, char **argv,
			    const char *o_sweep, char buf[WS_CLI_SWEEP_BUF], int *pargc,
			    char ***pargv)
{
	char **v = malloc(((size_t)argc + 4) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	int n = 0;
	bool separator = false;
	for (int k = 0; k < argc; k++) {
		if (k > 0 && argv[k] == o_sweep) {
			n--; /* "--sweep" "VALUE": drop the option word already copied */
			continue;
		}
		if (o_sweep && argv[k] + 8 == o_sweep && strncmp(argv[k], "--sweep=", 8) == 0)
			continue;
		separator |= k > 0 && strcmp(argv[k], "--") == 0;
		v[n++] = argv[k];
	}
	const struct ws_cli_sweep_def *d = sw->def;
	if (d->letter) {
		/* Test options go after the one "--"; appended last, nothing reads them as a
		 * value. buf holds "--", "-m" and the value, each NUL-terminated. */
		memcpy(buf, "--\0-", 4);
		buf[4] = d->letter;
		buf[5] = '\0';
		snprintf(buf + 6, WS_CLI_SWEEP_BUF - 6, "%s", sw->typed[i]);
		if (!separator)
			v[n++] = buf;
		v[n++] = buf + 3;
		v[n++] = buf + 6;
	} else {
		snprintf(buf, WS_CLI_SWEEP_BUF, "--%s=%s", d->opt, sw->typed[i]);
		v[n++] = buf;
	}
	v[n] = NULL;
	*pargc = n;
	*pargv = v;
	return 0;
}
