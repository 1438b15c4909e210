/* SPDX-License-Identifier: BSD-2-Clause */
/* globalopts: the handlers of netperf's global options (before --); see globalopts.h.
 *
 * options.c holds the letter tables and the driver that walks them; the handlers of the
 * global section were most of its length, so they live here, beside the test options'
 * (testopts.c) and the harness options' (harnessopts.c), each reading one value into the
 * options record with a message that names the value and what is accepted. */
#include "cli/globalopts.h"

#include "cli/optvalue.h"
#include "cli/outopts.h"

#include "util/err.h"
#include "util/units.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_CPU        65535
#define MAX_DURATION_S 10000000LL

static int copy_host(char *dst, const char *src, ws_err *err)
{
	size_t n = strlen(src);
	if (n >= WS_HOST_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "host name of %zu characters is too long; expected at most %d", n,
				  WS_HOST_MAX - 1);
	memcpy(dst, src, n + 1);
	return 0;
}

/* -H host[,family] and -L host[,family] share this. */
static int host_family(const char *val, char *host, enum ws_family *fam, bool *host_given,
		       ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	if (rc == 0 && hb)
		rc = ws_cli_parse_family(b, fam, err);
	if (rc == 0 && ha)
		rc = copy_host(host, a, err);
	if (rc == 0 && ha && host_given)
		*host_given = true;
	return rc;
}

int ws_cli_gopt_remote_host(ws_cli_options *o, const char *val, ws_err *err)
{
	return host_family(val, o->remote_host, &o->remote_family, &o->remote_host_given, err);
}

int ws_cli_gopt_local_host(ws_cli_options *o, const char *val, ws_err *err)
{
	return host_family(val, o->local_host, &o->local_family, NULL, err);
}

int ws_cli_gopt_ctl_port(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	long long v;
	if (rc == 0 && ha) {
		rc = ws_cli_parse_ranged(a, 1, 65535, "a control port from 1 to 65535", &v, err);
		if (rc == 0)
			o->ctl_port = (uint16_t)v;
	}
	if (rc == 0 && hb) {
		rc = ws_cli_parse_ranged(b, 0, 65535, "a local control port from 0 to 65535", &v,
					 err);
		if (rc == 0)
			o->local_ctl_port = (uint16_t)v;
	}
	return rc;
}

int ws_cli_gopt_test(ws_cli_options *o, const char *val, ws_err *err)
{
	o->omni = ws_cli_is_omni(val);
	if (o->omni || ws_test_type_from_name(val, &o->spec.type) == 0)
		return 0;
	char names[256] = "";
	for (unsigned i = 0; ws_test_type_at(i); i++) {
		size_t n = strlen(names);
		snprintf(names + n, sizeof(names) - n, "%s%s", n ? ", " : "",
			 ws_test_type_at(i)->name);
	}
	return ws_err_set(err, WS_E_INVAL, "unknown test '%s'; expected one of %s or omni", val,
			  names);
}

/* The sign of -l decides the end kind, but -t may come later, so finalize() applies it. */
int ws_cli_gopt_length(ws_cli_options *o, const char *val, ws_err *err)
{
	static const char what[] =
		"expected a test length in seconds (>0) or a negative byte/transaction count";
	long long v;
	if (ws_units_parse_int(val, -(long long)INT64_MAX, MAX_DURATION_S, &v, NULL) < 0) {
		if (ws_units_parse_int(val, -(long long)INT64_MAX, (long long)INT64_MAX, &v,
				       NULL) == 0)
			return ws_err_set(err, WS_E_INVAL,
					  "%s seconds is too long; expected at most %lld seconds "
					  "or a negative byte/transaction count",
					  val, MAX_DURATION_S);
		return ws_err_set(err, WS_E_INVAL, "'%s' is not an integer; %s", val, what);
	}
	if (v == 0)
		return ws_err_set(err, WS_E_INVAL, "'%s' is not a test length; %s", val, what);
	if (v > 0) {
		o->spec.end = WS_END_TIME;
		o->spec.duration_s = (double)v;
		o->spec.end_count = 0;
	} else {
		o->spec.end = WS_END_BYTES; /* or transactions: decided in finalize() */
		o->spec.end_count = (uint64_t)(-v);
	}
	return 0;
}

/* netperf reads an optional CPU rate after -c / -C; Linux has no use for it. */
static int cpu_rate(const char *val, ws_err *err)
{
	double rate;
	if (val && ws_units_parse_double(val, 0, 1e12, &rate, NULL) < 0)
		return ws_err_set(
			err, WS_E_INVAL,
			"'%s' is not a CPU rate; expected a number (ignored on Linux) or nothing",
			val);
	return 0;
}

int ws_cli_gopt_local_cpu(ws_cli_options *o, const char *val, ws_err *err)
{
	o->spec.local.measure_cpu = true;
	return cpu_rate(val, err);
}

int ws_cli_gopt_remote_cpu(ws_cli_options *o, const char *val, ws_err *err)
{
	o->spec.remote.measure_cpu = true;
	return cpu_rate(val, err);
}

int ws_cli_gopt_headers(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 0, 1,
				     "0 (no banner or headers) or 1 (banner and headers)", &v, err);
	if (rc == 0)
		o->print_headers = (int)v;
	return rc;
}

int ws_cli_gopt_verbosity(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(
		val, 0, 2, "0 (figure of merit only), 1 (normal) or 2 (extra detail)", &v, err);
	if (rc == 0)
		o->verbosity = (int)v;
	return rc;
}

int ws_cli_gopt_format(ws_cli_options *o, const char *val, ws_err *err)
{
	if (strlen(val) != 1 || !strchr("GMKgmkx", val[0]))
		return ws_err_set(
			err, WS_E_INVAL,
			"'%s' is not a unit; expected G, M, K (2^30, 2^20, 2^10 bytes/s), g, m, k "
			"(10^9, 10^6, 10^3 bits/s) or x (transactions/s)",
			val);
	o->format = val[0];
	o->format_given = true;
	return 0;
}

int ws_cli_gopt_cpu_bind(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, true, a, b, &ha, &hb, err);
	const char *parts[2] = {a, b};
	bool pair = strchr(val, ',') != NULL; /* name the whole value only when it has two */
	int have[2] = {ha, hb}, *cpu[2] = {&o->spec.local.cpu, &o->spec.remote.cpu};
	for (int i = 0; rc == 0 && i < 2; i++) {
		long long v;
		if (!have[i])
			continue;
		if (ws_units_parse_int(parts[i], 0, MAX_CPU, &v, NULL) < 0)
			return ws_err_set(err, WS_E_INVAL,
					  "'%s'%s%s%s is not a CPU number; expected lcpu[,rcpu] "
					  "with CPUs 0 to %d",
					  parts[i], pair ? " in '" : "", pair ? val : "",
					  pair ? "'" : "", MAX_CPU);
		*cpu[i] = (int)v;
	}
	if (rc == 0)
		o->cpu_bind_given = true;
	return rc;
}

int ws_cli_gopt_inet4(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->remote_family = o->local_family = WS_FAMILY_INET;
	return 0;
}

int ws_cli_gopt_inet6(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->remote_family = o->local_family = WS_FAMILY_INET6;
	return 0;
}

/* -Z: netperf's passphrase, here the pre-shared key. A cleartext secret: the process
 * list shows it, and the CLI overwrites it once the key is built. */
int ws_cli_gopt_passphrase(ws_cli_options *o, const char *val, ws_err *err)
{
	if (!*val)
		return ws_err_set(
			err, WS_E_INVAL,
			"an empty passphrase; expected -Z passphrase (or --psk-file FILE)");
	o->psk_pass = val;
	return 0;
}

int ws_cli_gopt_brand(ws_cli_options *o, const char *val, ws_err *err)
{
	size_t n = strlen(val);
	if (n >= WS_CLI_BRAND_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "brand of %zu characters is too long; expected at most %d", n,
				  WS_CLI_BRAND_MAX - 1);
	memcpy(o->brand, val, n + 1);
	return 0;
}

int ws_cli_gopt_fill_file(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	if (rc < 0)
		return rc;
	if (ha)
		memcpy(o->fill_file, a, WS_CLI_PATH_MAX);
	if (hb)
		memcpy(o->remote_fill_file, b, WS_CLI_PATH_MAX);
	return 0;
}

int ws_cli_gopt_ncpus(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 1, 65536, "a CPU count from 1 to 65536", &v, err);
	if (rc == 0)
		o->ncpus = (int)v;
	return rc;
}

/* -D [+|-][secs[,units]]: without a value, netperf reports every second; a negative
 * interval is netperf's "precise timing" (kept in demo_precise). */
int ws_cli_gopt_demo(ws_cli_options *o, const char *val, ws_err *err)
{
	o->demo_interval_s = 1.0;
	if (!val)
		return 0;
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	const char *secs = a + (a[0] == '-' || a[0] == '+');
	o->demo_precise = rc == 0 && ha && a[0] == '-';
	if (rc == 0 && ha &&
	    (ws_units_parse_double(secs, 0.001, 86400, &o->demo_interval_s, NULL) < 0))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not an interval; expected [+|-]secs[,units] with secs "
				  "from 0.001 to 86400",
				  a);
	if (rc == 0 && hb)
		rc = ws_units_parse_size(b, &o->demo_units, err);
	return rc;
}

/* -i max[,min]: whole-test iterations; the clamping to 3..30 is measure/confidence's. */
int ws_cli_gopt_iterations(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	long long v;
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	o->conf_args.i_given = true;
	if (rc == 0 && ha &&
	    (rc = ws_cli_parse_ranged(a, 1, 1000000, "max iterations", &v, err)) == 0)
		o->conf_args.max = (int)v;
	if (rc == 0 && hb &&
	    (rc = ws_cli_parse_ranged(b, 1, 1000000, "min iterations", &v, err)) == 0)
		o->conf_args.min = (int)v;
	return rc;
}

/* -I level[,width]: checked at once so that the message names -I. */
int ws_cli_gopt_conf_level(ws_cli_options *o, const char *val, ws_err *err)
{
	char a[WS_CLI_PATH_MAX], b[WS_CLI_PATH_MAX];
	long long v;
	int ha, hb, rc = ws_cli_split2(val, false, a, b, &ha, &hb, err);
	o->conf_args.I_given = true;
	if (rc == 0 && ha &&
	    (rc = ws_cli_parse_ranged(a, 1, 100, "confidence level (95 or 99)", &v, err)) == 0)
		o->conf_args.level = (int)v;
	if (rc == 0 && hb && ws_units_parse_double(b, 1e-9, 100, &o->conf_args.width, NULL) < 0)
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' is not a confidence width; expected a full width in %% of "
				  "the mean, more than 0 and at most 100 (5 = +/-2.5%%)",
				  b);
	ws_confidence_args only = {
		.I_given = true, .level = o->conf_args.level, .width = o->conf_args.width};
	ws_confidence check;
	return rc ? rc : ws_confidence_setup(&check, &only, err);
}

/* -r: netperf judges the throughput alone, not the CPU figures. */
int ws_cli_gopt_result_only(ws_cli_options *o, const char *val, ws_err *err)
{
	(void)val;
	(void)err;
	o->conf_args.throughput_only = true;
	return 0;
}
