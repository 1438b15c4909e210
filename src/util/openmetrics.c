/* SPDX-License-Identifier: BSD-2-Clause */
/* openmetrics: the two text formats from one description of each family; see openmetrics.h. */
#include "util/openmetrics.h"

#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
	[WS_OM_COUNTER] = "counter",
	[WS_OM_GAUGE] = "gauge",
	[WS_OM_HISTOGRAM] = "histogram",
	[WS_OM_INFO] = "info",
};

void ws_om_init(ws_om *w, enum ws_om_format fmt)
{
	memset(w, 0, sizeof(*w));
	w->fmt = fmt;
}

void ws_om_free(ws_om *w)
{
	free(w->buf);
	w->buf = NULL;
	w->len = w->cap = 0;
}

const char *ws_om_content_type(enum ws_om_format fmt)
{
	return fmt == WS_OM_OPENMETRICS
		? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		: "text/plain; version=0.0.4; charset=utf-8";
}

static void fail(ws_om *w, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(ws_om *w, int code, const char *fmt, ...)
{
	if (w->rc)
		return;
	w->rc = -code;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
}

static void put(ws_om *w, const char *s, size_t n)
{
	if (w->rc)
		return;
	if (w->len + n + 1 > w->cap) {
		size_t cap = w->cap ? w->cap : 4096;
		while (cap < w->len + n + 1)
			cap *= 2;
		char *b = cap <= WS_OM_TEXT_MAX ? realloc(w->buf, cap) : NULL;
		if (!b) {
			fail(w, ENOMEM, "the metrics text would pass %u bytes", WS_OM_TEXT_MAX);
			return;
		}
		w->buf = b;
		w->cap = cap;
	}
	memcpy(w->buf + w->len, s, n);
	w->len += n;
	w->buf[w->len] = '\0';
}

static void puts_(ws_om *w, const char *s) { put(w, s, strlen(s)); }

/* HELP text and label values: '\\' and newline escaped in both formats, '"' in label
 * values and in OpenMetrics' HELP. Other control bytes and bytes past ASCII become '?':
 * what is written is then valid UTF-8 whatever a peer put in a host name. */
static void put_escaped(ws_om *w, const char *s, bool quote)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			puts_(w, "\\\\");
		else if (c == '\n')
			puts_(w, "\\n");
		else if (c == '"' && quote)
			puts_(w, "\\\"");
		else
			put(w, c < 0x20 || c >= 0x7f ? "?" : (const char *)s, 1);
	}
}

static bool name_ok(const char *s, bool label)
{
	if (!s || !*s || strlen(s) >= WS_OM_NAME_MAX || (label && s[0] == '_' && s[1] == '_'))
		return false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			(c == ':' && !label);
		if (!alpha && !(p > s && c >= '0' && c <= '9'))
			return false;
	}
	return true;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

void ws_om_number(double v, bool le, char *buf, size_t n)
{
	if (isnan(v)) {
		snprintf(buf, n, "NaN");
	} else if (isinf(v)) {
		snprintf(buf, n, v > 0 ? "+Inf" : "-Inf");
	} else if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, n, le ? "%.1f" : "%.0f", v);
	} else {
		snprintf(buf, n, "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, n, "%.17g", v);
	}
}

/* The sample name of the current family: the family's, or with a suffix. */
static void put_name(ws_om *w, const char *suffix)
{
	puts_(w, w->family);
	puts_(w, suffix);
}

static void put_labels(ws_om *w, const ws_om_label *l, size_t nl, const char *le)
{
	if (!nl && !le)
		return;
	puts_(w, "{");
	for (size_t i = 0; i < nl; i++) {
		if (!name_ok(l[i].name, true) || !l[i].value ||
		    (w->type == WS_OM_HISTOGRAM && strcmp(l[i].name, "le") == 0)) {
			fail(w, WS_E_INVAL, "family %s: '%s' is not a label name (or has no value)",
			     w->family, l[i].name ? l[i].name : "(null)");
			return;
		}
		for (size_t j = 0; j < i; j++)
			if (strcmp(l[i].name, l[j].name) == 0)
				fail(w, WS_E_INVAL, "family %s: label %s given twice", w->family,
				     l[i].name);
		if (i)
			puts_(w, ",");
		puts_(w, l[i].name);
		puts_(w, "=\"");
		put_escaped(w, l[i].value, true);
		puts_(w, "\"");
	}
	if (le) {
		puts_(w, nl ? ",le=\"" : "le=\"");
		puts_(w, le);
		puts_(w, "\"");
	}
	puts_(w, "}");
}

void ws_om_family(ws_om *w, const char *name, enum ws_om_type t, const char *unit, const char *help)
{
	if (w->rc)
		return;
	if (!name_ok(name, false)) {
		fail(w, WS_E_INVAL, "'%s' is not a metric name", name ? name : "(null)");
		return;
	}
	if ((t == WS_OM_COUNTER && ends_with(name, "_total")) ||
	    (t == WS_OM_INFO && ends_with(name, "_info"))) {
		fail(w, WS_E_INVAL, "family %s: give a counter's or info's name without its suffix",
		     name);
		return;
	}
	if (unit &&
	    (!name_ok(unit, false) || strlen(name) <= strlen(unit) + 1 || !ends_with(name, unit) ||
	     name[strlen(name) - strlen(unit) - 1] != '_')) {
		fail(w, WS_E_INVAL, "family %s: its name must end in _%s", name, unit);
		return;
	}
	if (strcmp(name, w->family) == 0) {
		fail(w, WS_E_INVAL, "family %s given twice in a row", name);
		return;
	}
	snprintf(w->family, sizeof(w->family), "%s", name);
	w->type = t;
	bool om = w->fmt == WS_OM_OPENMETRICS;
	/* 0.0.4 names the family after its samples and has no info type. */
	const char *suffix = om      ? ""
		: t == WS_OM_COUNTER ? "_total"
		: t == WS_OM_INFO    ? "_info"
				     : "";
	const char *type = !om && t == WS_OM_INFO ? "gauge" : type_names[t];
	puts_(w, "# HELP ");
	put_name(w, suffix);
	puts_(w, " ");
	put_escaped(w, help ? help : "", om);
	puts_(w, "\n# TYPE ");
	put_name(w, suffix);
	puts_(w, " ");
	puts_(w, type);
	puts_(w, "\n");
	if (om && unit) {
		puts_(w, "# UNIT ");
		put_name(w, "");
		puts_(w, " ");
		puts_(w, unit);
		puts_(w, "\n");
	}
}

static bool sample_ok(ws_om *w, bool hist)
{
	if (w->rc)
		return false;
	if (!w->family[0] || (w->type == WS_OM_HISTOGRAM) != hist) {
		fail(w, WS_E_INVAL, "a %s sample in family '%s' of another type",
		     hist ? "histogram" : "plain", w->family);
		return false;
	}
	return true;
}

static void sample_text(ws_om *w, const ws_om_label *l, size_t nl, const char *v)
{
	if (!sample_ok(w, false))
		return;
	put_name(w, w->type == WS_OM_COUNTER ? "_total" : w->type == WS_OM_INFO ? "_info" : "");
	put_labels(w, l, nl, NULL);
	puts_(w, " ");
	puts_(w, v);
	puts_(w, "\n");
}

void ws_om_sample(ws_om *w, const ws_om_label *l, size_t nl, double v)
{
	char num[40];
	if (w->type == WS_OM_COUNTER && !(v >= 0)) {
		fail(w, WS_E_INVAL, "counter %s: %g is not a count", w->family, v);
		return;
	}
	ws_om_number(w->type == WS_OM_INFO ? 1 : v, false, num, sizeof(num));
	sample_text(w, l, nl, num);
}

void ws_om_sample_u64(ws_om *w, const ws_om_label *l, size_t nl, uint64_t v)
{
	char num[24];
	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	sample_text(w, l, nl, num);
}

void ws_om_histogram(ws_om *w, const ws_om_label *l, size_t nl, const double *le, size_t nb,
		     const uint64_t *count, double sum)
{
	if (!sample_ok(w, true))
		return;
	uint64_t cum = 0;
	char num[40], bound[40];
	for (size_t i = 0; i <= nb; i++) {
		if (i < nb && (!isfinite(le[i]) || (i && le[i] <= le[i - 1]))) {
			fail(w, WS_E_INVAL, "histogram %s: bounds must be finite and rise",
			     w->family);
			return;
		}
		cum += count[i];
		ws_om_number(i < nb ? le[i] : INFINITY, true, bound, sizeof(bound));
		put_name(w, "_bucket");
		put_labels(w, l, nl, bound);
		snprintf(num, sizeof(num), " %llu\n", (unsigned long long)cum);
		puts_(w, num);
	}
	put_name(w, "_count");
	put_labels(w, l, nl, NULL);
	snprintf(num, sizeof(num), " %llu\n", (unsigned long long)cum);
	puts_(w, num);
	put_name(w, "_sum");
	put_labels(w, l, nl, NULL);
	ws_om_number(sum, false, bound, sizeof(bound));
	puts_(w, " ");
	puts_(w, bound);
	puts_(w, "\n");
}

int ws_om_finish(ws_om *w, ws_err *err)
{
	if (w->fmt == WS_OM_OPENMETRICS)
		puts_(w, "# EOF\n");
	else if (!w->rc && !w->buf)
		put(w, "", 0); /* an empty exposition is still a text */
	if (w->rc)
		return ws_err_set(err, -w->rc, "metrics: %s", w->why);
	return 0;
}
