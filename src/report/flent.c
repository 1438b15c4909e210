/* SPDX-License-Identifier: BSD-2-Clause */
/* flent: the Flent data file writer; see flent.h. */
#include "report/flent.h"

#include "report/json.h"
#include "report/series_grid.h"
#include "util/err.h"
#include "util/gzip.h"
#include "util/safefile.h"
#include "util/version.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FLENT_FORMAT  4       /* the "version" Flent 2.1.1 reads without conversion */
#define FLENT_VERSION "2.1.1" /* the Flent whose file layout this follows */

/* The series a Flent test computes from the measured ones (its "sum" and "average"
 * runners), in the order its definition lists them. */
enum computed {
	UP_AVG = 1 << 0,   /* "TCP upload avg": mean of the uploads at each step */
	UP_SUM = 1 << 1,   /* "TCP upload sum" */
	DOWN_AVG = 1 << 2, /* "TCP download avg" */
	DOWN_SUM = 1 << 3, /* "TCP download sum" */
	TOTALS = 1 << 4,   /* "TCP totals": every flow, both ways */
	PING_AVG = 1 << 5, /* "Ping (ms) avg": mean of the probes at each step */
};
#define BOTH (UP_AVG | UP_SUM | DOWN_AVG | DOWN_SUM)

/* The tests whose files this writer makes, from Flent 2.1.1's test definitions: what each
 * computes and the test parameter that carries its stream count. */
/* clang-format off */
static const struct flent_test {
	const char *name;
	unsigned computed;
	const char *streams_param; /* TEST_PARAMETERS key: number of flows; NULL: none */
	ws_series_kind streams_kind;
} tests[] = {
	{"rrul",                  BOTH | TOTALS | PING_AVG, NULL, WS_SERIES_UP},
	{"rrul_be",               BOTH | TOTALS | PING_AVG, NULL, WS_SERIES_UP},
	{"rrul_noclassification", BOTH | PING_AVG,          NULL, WS_SERIES_UP},
	{"tcp_nup",               UP_AVG | UP_SUM,          "upload_streams", WS_SERIES_UP},
	{"tcp_ndown",             DOWN_AVG | DOWN_SUM,      "download_streams", WS_SERIES_DOWN},
	{"tcp_bidirectional",     0,                        NULL, WS_SERIES_UP},
	{"tcp_1up",               0,                        NULL, WS_SERIES_UP},
	{"tcp_1down",             0,                        NULL, WS_SERIES_UP},
	{"ping",                  0,                        NULL, WS_SERIES_UP},
};
static const struct computed_def {
	unsigned bit;
	const char *name;
	bool sum;      /* else the mean */
	unsigned kinds; /* 1 << ws_series_kind of the series it is made from */
	const char *units;
} computed_defs[] = {
	{UP_AVG,   "TCP upload avg",   false, 1u << WS_SERIES_UP,    "Mbits/s"},
	{UP_SUM,   "TCP upload sum",   true,  1u << WS_SERIES_UP,    "Mbits/s"},
	{DOWN_AVG, "TCP download avg", false, 1u << WS_SERIES_DOWN,  "Mbits/s"},
	{DOWN_SUM, "TCP download sum", true,  1u << WS_SERIES_DOWN,  "Mbits/s"},
	{TOTALS,   "TCP totals",       true,  (1u << WS_SERIES_UP) | (1u << WS_SERIES_DOWN),
	 "Mbits/s"},
	{PING_AVG, "Ping (ms) avg",    false, 1u << WS_SERIES_PROBE, "ms"},
};
/* clang-format on */
#define NTESTS    (sizeof tests / sizeof tests[0])
#define NCOMPUTED (sizeof computed_defs / sizeof computed_defs[0])

static const struct flent_test *test_of(const char *name)
{
	for (size_t i = 0; name && i < NTESTS; i++)
		if (!strcmp(tests[i].name, name))
			return &tests[i];
	return NULL;
}

int ws_flent_check_name(const char *name, ws_err *err)
{
	if (test_of(name))
		return 0;
	char list[256];
	size_t len = 0;
	for (size_t i = 0; i < NTESTS && len < sizeof list; i++)
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
					tests[i].name);
	return ws_err_set(err, WS_E_INVAL,
			  "Flent test name '%s' is not one this file writer knows; "
			  "accepted: %s",
			  name ? name : "(none)", list);
}

int ws_flent_check(const ws_flent_meta *m, const char *path, ws_err *err)
{
	int rc = ws_flent_check_name(m->name, err);
	if (rc < 0)
		return rc;
	if (!m->host || !*m->host)
		return ws_err_set(err, WS_E_INVAL, "a Flent file needs the server's host name");
	return path ? ws_safefile_check(path, 0, err) : 0;
}

static const char *units_of(const ws_series *s)
{
	return s->kind == WS_SERIES_PROBE ? "ms" : "Mbits/s";
}

/* "2026-12-06T11:36:08.123456Z", the UTC form Flent writes and reads. */
static void iso_time(int64_t unix_ns, char *buf, size_t n)
{
	time_t sec = (time_t)(unix_ns / 1000000000);
	long us = (long)(unix_ns % 1000000000) / 1000;
	if (us < 0) {
		sec--;
		us += 1000000;
	}
	struct tm tm;
	gmtime_r(&sec, &tm);
	size_t len = strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + len, n - len, ".%06ldZ", us);
}

static bool is_computed_name(const char *name)
{
	for (size_t c = 0; c < NCOMPUTED; c++)
		if (!strcmp(computed_defs[c].name, name))
			return true;
	return false;
}

static void write_metadata(ws_json *j, const ws_series_set *set, const ws_flent_meta *m,
			   const struct flent_test *t, const char *data_filename,
			   const unsigned present)
{
	char when[48];
	iso_time(set->start_unix_ns, when, sizeof when);
	ws_json_object_begin(j, "metadata");
	ws_json_str(j, "NAME", t->name);
	ws_json_str(j, "TITLE", m->title ? m->title : "");
	ws_json_str(j, "NOTE", m->note ? m->note : "");
	ws_json_str(j, "HOST", m->host);
	ws_json_array_inline_begin(j, "HOSTS");
	ws_json_str(j, NULL, m->host);
	ws_json_array_end(j);
	ws_json_str(j, "LOCAL_HOST", m->local_host ? m->local_host : "");
	ws_json_int(j, "IP_VERSION", m->ip_version ? m->ip_version : 4);
	ws_json_str(j, "TIME", when);
	ws_json_str(j, "T0", when);
	ws_json_double(j, "LENGTH", set->length_s - 2 * set->delay_s); /* the flows' */
	ws_json_double(j, "TOTAL_LENGTH", set->length_s);
	ws_json_double(j, "STEP_SIZE", set->step_s);
	ws_json_str(j, "FLENT_VERSION", FLENT_VERSION);
	ws_json_str(j, "WRITER", ws_version_software()); /* who wrote it really */
	ws_json_str(j, "DATA_FILENAME", data_filename);
	ws_json_object_begin(j, "TEST_PARAMETERS");
	if (t->streams_param) {
		char cnt[24];
		size_t c = 0;
		for (size_t i = 0; i < set->n; i++)
			c += set->s[i].kind == t->streams_kind;
		snprintf(cnt, sizeof cnt, "%zu", c);
		ws_json_str(j, t->streams_param, cnt);
	}
	ws_json_object_end(j);
	ws_json_array_inline_begin(j, "FAILED_RUNNERS");
	ws_json_array_end(j);
	ws_json_object_begin(j, "SERIES_META");
	for (size_t i = 0; i < set->n; i++) {
		ws_json_object_begin(j, set->s[i].name);
		ws_json_str(j, "UNITS", units_of(&set->s[i]));
		ws_json_str(j, "RUNNER", "warpspeed");
		ws_json_int(j, "IDX", (int64_t)i);
		ws_json_int(j, "MARKING", set->s[i].tos);
		if (set->s[i].kind == WS_SERIES_PROBE) {
			ws_json_str(j, "PROBE", set->s[i].probe);
			ws_json_uint(j, "LOST", set->s[i].lost);
		}
		ws_json_object_end(j);
	}
	for (size_t c = 0; c < NCOMPUTED; c++) {
		if (!(present & computed_defs[c].bit))
			continue;
		ws_json_object_begin(j, computed_defs[c].name);
		ws_json_str(j, "UNITS", computed_defs[c].units);
		ws_json_str(j, "RUNNER", computed_defs[c].sum ? "SumRunner" : "AverageRunner");
		/* As in a file of Flent's own run: present (false) on the series computed while
		 * the test ran; its summary shows no median or 99th percentile for them. */
		ws_json_bool(j, "COMPUTED_LATE", false);
		ws_json_object_end(j);
	}
	ws_json_object_end(j);
	ws_json_object_end(j);
}

static void write_list(ws_json *j, const char *key, const double *v, size_t n)
{
	ws_json_array_inline_begin(j, key);
	for (size_t k = 0; k < n; k++)
		ws_json_double(j, NULL, v[k]); /* NaN: null */
	ws_json_array_end(j);
}

int ws_flent_json(FILE *out, const ws_series_set *set, const ws_flent_meta *m,
		  const char *data_filename, ws_err *err)
{
	const struct flent_test *t = test_of(m->name);
	if (!t)
		return ws_flent_check_name(m->name, err);
	if (!m->host)
		return ws_err_set(err, WS_E_INVAL, "a Flent file needs the server's host name");
	ws_series_grid g;
	int rc = ws_series_grid_build(&g, set, err);
	if (rc < 0)
		return rc;
	size_t nx = g.nx;
	double *comp = malloc(NCOMPUTED * nx * sizeof *comp + set->n * sizeof(bool));
	if (!comp) {
		ws_series_grid_free(&g);
		return ws_err_set(err, ENOMEM, "no memory for %zu steps", nx);
	}
	bool *use = (bool *)(comp + NCOMPUTED * nx);
	unsigned present = 0;
	for (size_t c = 0; c < NCOMPUTED; c++) {
		const struct computed_def *d = &computed_defs[c];
		if (!(t->computed & d->bit) || ws_series_find(set, d->name) >= 0)
			continue;
		bool any = false;
		for (size_t i = 0; i < set->n; i++) {
			use[i] = (d->kinds & (1u << set->s[i].kind)) &&
				!is_computed_name(set->s[i].name);
			any |= use[i];
		}
		if (any) {
			present |= d->bit;
			ws_series_grid_combine(&g, use, d->sum, comp + c * nx);
		}
	}

	ws_json j;
	ws_json_init(&j, out, 2);
	ws_json_object_begin(&j, NULL);
	write_metadata(&j, set, m, t, data_filename, present);
	ws_json_int(&j, "version", FLENT_FORMAT);
	write_list(&j, "x_values", g.x, nx);
	ws_json_object_begin(&j, "results");
	for (size_t i = 0; i < set->n; i++)
		write_list(&j, set->s[i].name, g.v + i * nx, nx);
	for (size_t c = 0; c < NCOMPUTED; c++)
		if (present & computed_defs[c].bit)
			write_list(&j, computed_defs[c].name, comp + c * nx, nx);
	ws_json_object_end(&j);
	/* whole seconds and the fraction apart: 1.5e18 ns does not fit a double exactly */
	double t0 = (double)(set->start_unix_ns / 1000000000) +
		(double)(set->start_unix_ns % 1000000000) / 1e9;
	ws_json_object_begin(&j, "raw_values");
	for (size_t i = 0; i < set->n; i++) {
		const ws_series *s = &set->s[i];
		ws_json_array_begin(&j, s->name);
		for (size_t k = 0; k < s->n; k++) {
			ws_json_object_begin(&j, NULL);
			ws_json_double(&j, "t", t0 + s->t[k]);
			if (isfinite(s->v[k]))
				ws_json_double(&j, "val", s->v[k]);
			else
				ws_json_bool(&j, "lost", true);
			ws_json_object_end(&j);
		}
		ws_json_array_end(&j);
	}
	ws_json_object_end(&j);
	ws_json_object_end(&j);
	free(comp);
	ws_series_grid_free(&g);
	rc = ws_json_finish(&j);
	if (rc < 0)
		return ws_err_set(err, -rc, "writing the Flent file's JSON failed");
	return 0;
}

int ws_flent_write(const ws_series_set *set, const ws_flent_meta *m, const char *path, ws_err *err)
{
	if (ws_flent_check_name(m->name, err) < 0)
		return -WS_E_INVAL;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		return ws_err_errno(err, "Flent file '%s': no memory for its text", path);
	const char *base = strrchr(path, '/');
	int rc = ws_flent_json(mem, set, m, base ? base + 1 : path, err);
	if (fclose(mem) != 0 && rc == 0)
		rc = ws_err_errno(err, "Flent file '%s': building its text", path);
	if (rc < 0) {
		free(text);
		return rc;
	}
	ws_safefile sf;
	rc = ws_safefile_open(&sf, path, 0, err);
	if (rc == 0) {
		if (ws_gzip_stored(sf.f, text, len) < 0) {
			ws_safefile_abort(&sf);
			rc = ws_err_set(err, EIO, "Flent file '%s': write failed", path);
		} else {
			rc = ws_safefile_commit(&sf, err);
		}
	}
	free(text);
	return rc;
}
