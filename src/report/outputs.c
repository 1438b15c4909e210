/* SPDX-License-Identifier: BSD-2-Clause */
/* outputs: parsing netperf's output selections and printing them as CSV (-o), columns
 * (-O) and NAME=value lines (-k); see outputs.h. The table is outputs_table.c.
 *
 * The printers reproduce netperf 2.7.0's print_omni_csv/_human/_keyword byte for byte,
 * quirks included, because harnesses split these lines by position: a CSV field without
 * a value is written as "," followed by one blank that starts the next field; a -O column
 * is as wide as its longest header line or its value plus one, whichever is more, plus
 * one separating blank, and every line of a block is padded to the block's full width;
 * blocks after the first are preceded by an empty line. Selection parsing follows
 * netperf's parse_output_selection: "all" is netperf's four blocks, a value with ',' or
 * ';' (or one known name) is a list, anything else names a file. */
#include "report/outputs.h"

#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define VAL_MAX 1024 /* netperf's tmpval: the command line is the longest value */

static bool is_stats_name(int id)
{
	static const char *const names[] = {"MIN_LATENCY",    "MAX_LATENCY",   "P50_LATENCY",
					    "P90_LATENCY",    "P99_LATENCY",   "MEAN_LATENCY",
					    "STDDEV_LATENCY", "P99_9_LATENCY", "P99_99_LATENCY"};
	const ws_out_name *e = ws_out_at((size_t)id);
	for (size_t i = 0; e && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(e->name, names[i]))
			return true;
	return false;
}

static void add(ws_out_selection *sel, unsigned block, int id, bool from_list)
{
	if (block >= WS_OUT_MAX_BLOCKS || id < 0 || sel->n[block] >= WS_OUT_MAX_PER_BLOCK)
		return; /* netperf silently drops what does not fit */
	sel->ids[block][sel->n[block]++] = (uint16_t)id;
	if (from_list && is_stats_name(id))
		sel->want_stats = true;
}

/* netperf's set_output_list_all: four blocks by ranges of its list. */
static void select_all(ws_out_selection *sel)
{
	static const char *const ranges[WS_OUT_MAX_BLOCKS][2] = {
		{"SOCKET_TYPE", "RESPONSE_SIZE"},
		{"LOCAL_CPU_UTIL", "TRANSPORT_MSS"},
		{"LOCAL_SEND_THROUGHPUT", "REMOTE_CORK"},
		{"LOCAL_SYSNAME", "COMMAND_LINE"},
	};
	for (unsigned b = 0; b < WS_OUT_MAX_BLOCKS; b++)
		for (int i = ws_out_find(ranges[b][0]); i >= 0 && i <= ws_out_find(ranges[b][1]);
		     i++)
			add(sel, b, i, true);
}

/* A list: blocks separated by ';', names by ',' or blanks; unknown names are skipped. */
static void select_list(const char *spec, ws_out_selection *sel)
{
	unsigned block = 0;
	const char *p = spec;
	while (*p && block < WS_OUT_MAX_BLOCKS) {
		size_t len = strcspn(p, " ,;");
		if (len) {
			char name[96];
			if (len < sizeof(name)) {
				memcpy(name, p, len);
				name[len] = 0;
				add(sel, block, ws_out_find(name), true);
			}
			p += len;
		}
		if (*p == ';')
			block++;
		if (*p)
			p++;
	}
}

/* A selection file as netperf reads it: one block per line (at most four), entries
 * separated by ','; each entry is a name or a joined header, and one that matches neither
 * becomes OUTPUT_NONE (a blank column). Only printable characters count. */
static int select_file(const char *path, ws_out_selection *sel, ws_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ws_err_set(err, WS_E_INVAL,
				  "Could not open output selection file '%s' errno %d", path,
				  errno);
	char name[81];
	size_t len = 0;
	unsigned line = 0;
	int ch;
	while ((ch = fgetc(f)) != EOF && line < WS_OUT_MAX_BLOCKS) {
		if (ch == ',' || ch == '\n') {
			name[len] = 0;
			int id = ws_out_find_name_or_header(name);
			add(sel, line, id < 0 ? 0 : id, false);
			len = 0;
			if (ch == '\n')
				line++;
		} else if (isprint(ch)) {
			if (len == sizeof(name) - 1) {
				fclose(f);
				return ws_err_set(err, WS_E_INVAL,
						  "Output selection starting on line %u of '%s' is "
						  "too long (more than %zu characters)",
						  line + 1, path, sizeof(name) - 1);
			}
			name[len++] = (char)ch;
		}
	}
	if (ch == EOF && len > 0 && line < WS_OUT_MAX_BLOCKS) {
		name[len] = 0;
		int id = ws_out_find_name_or_header(name);
		add(sel, line, id < 0 ? 0 : id, false);
	}
	fclose(f);
	return 0;
}

int ws_out_parse_selection(const char *spec, ws_out_selection *sel, ws_err *err)
{
	memset(sel, 0, sizeof(*sel));
	if (!spec || !spec[0])
		return 0;
	if (!strcmp(spec, "?")) {
		sel->list_names = true;
		return 0;
	}
	if (!strcasecmp(spec, "all")) {
		select_all(sel);
		return 0;
	}
	if (strchr(spec, ',') || strchr(spec, ';') || ws_out_find(spec) >= 0) {
		select_list(spec, sel);
		return 0;
	}
	return select_file(spec, sel, err);
}

void ws_out_select_default(const ws_test_spec *s, bool cpu, ws_out_selection *sel)
{
	static const char *const cpu_names =
		"LOCAL_CPU_UTIL,LOCAL_CPU_PERCENT_USER,LOCAL_CPU_PERCENT_SYSTEM,"
		"LOCAL_CPU_PERCENT_IOWAIT,LOCAL_CPU_PERCENT_IRQ,LOCAL_CPU_PERCENT_SWINTR,"
		"LOCAL_CPU_METHOD,REMOTE_CPU_UTIL,REMOTE_CPU_PERCENT_USER,REMOTE_CPU_PERCENT_"
		"SYSTEM,"
		"REMOTE_CPU_PERCENT_IOWAIT,REMOTE_CPU_PERCENT_IRQ,REMOTE_CPU_PERCENT_SWINTR,"
		"REMOTE_CPU_METHOD,LOCAL_SD,REMOTE_SD,SD_UNITS";
	const ws_test_row *row = ws_test_type_row(s->type);
	if (!row) /* validated specs have one; anything else gets TCP_STREAM's */
		row = ws_test_type_row(WS_TEST_TCP_STREAM);
	const char *head = row->default_outputs;
	char list[1024];
	snprintf(list, sizeof(list), "%s,ELAPSED_TIME,THROUGHPUT,THROUGHPUT_UNITS%s%s", head,
		 cpu ? "," : "", cpu ? cpu_names : "");
	memset(sel, 0, sizeof(*sel));
	select_list(list, sel);
}

/* ---- printers ---------------------------------------------------------------------------- */

/* One selected entry's text; false when it has no value. */
static bool value_text(const ws_out_name *e, const ws_report_ctx *c, char *buf, size_t n)
{
	ws_out_value v;
	ws_out_value_of(e, c, &v);
	ws_out_format_value(e, &v, buf, n);
	return v.kind != WS_OUT_V_NONE;
}

static int print_keyval(const ws_out_selection *sel, const ws_report_ctx *c, FILE *out)
{
	char val[VAL_MAX];
	for (unsigned b = 0; b < WS_OUT_MAX_BLOCKS; b++)
		for (unsigned j = 0; j < sel->n[b]; j++) {
			const ws_out_name *e = ws_out_at(sel->ids[b][j]);
			if (e && value_text(e, c, val, sizeof(val)))
				fprintf(out, "%s=%s\n", e->name, val);
		}
	return 0;
}

/* A growable line. */
struct line {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct line *l, const char *s, size_t n)
{
	if (l->oom)
		return;
	if (l->len + n + 1 > l->cap) {
		size_t cap = (l->cap ? l->cap * 2 : 256) + n;
		char *p = realloc(l->s, cap);
		if (!p) {
			l->oom = true;
			return;
		}
		l->s = p;
		l->cap = cap;
	}
	memcpy(l->s + l->len, s, n);
	l->len += n;
	l->s[l->len] = 0;
}

static void puts_str(struct line *l, const char *s) { put(l, s, strlen(s)); }

static void pad(struct line *l, size_t n)
{
	while (n--)
		put(l, " ", 1);
}

static int print_csv(const ws_out_selection *sel, bool headers, const ws_report_ctx *c, FILE *out)
{
	struct line h = {0}, v = {0};
	char val[VAL_MAX];
	for (unsigned b = 0; b < WS_OUT_MAX_BLOCKS; b++)
		for (unsigned j = 0; j < sel->n[b]; j++) {
			const ws_out_name *e = ws_out_at(sel->ids[b][j]);
			for (int k = 0; k < 4 && e->line[k][0]; k++) {
				if (k)
					puts_str(&h, " ");
				puts_str(&h, e->line[k]);
			}
			puts_str(&h, ",");
			if (value_text(e, c, val, sizeof(val))) {
				puts_str(&v, val);
				puts_str(&v, ",");
			} else {
				puts_str(&v, ", "); /* netperf skips one column after the comma */
			}
		}
	int rc = 0;
	if (h.oom || v.oom) {
		rc = -ENOMEM;
	} else if (sel->n[0]) { /* netperf prints nothing when the first block is empty */
		h.s[--h.len] = 0;
		v.s[--v.len] = 0;
		if (headers)
			fprintf(out, "%s\n", h.s);
		fprintf(out, "%s\n", v.s);
	}
	free(h.s);
	free(v.s);
	return rc;
}

/* A column's width without its separating blank: the longest header line, or the value's
 * length plus one, over every place the name is selected (netperf keeps one width per name). */
static size_t column_width(const ws_out_selection *sel, uint16_t id, const ws_report_ctx *c)
{
	const ws_out_name *e = ws_out_at(id);
	size_t w = 0;
	char val[VAL_MAX];
	for (int k = 0; k < 4; k++)
		if (strlen(e->line[k]) > w)
			w = strlen(e->line[k]);
	for (unsigned b = 0; b < WS_OUT_MAX_BLOCKS; b++)
		for (unsigned j = 0; j < sel->n[b]; j++)
			if (sel->ids[b][j] == id && value_text(e, c, val, sizeof(val)) &&
			    strlen(val) + 1 > w)
				w = strlen(val) + 1;
	return w;
}

static int print_human(const ws_out_selection *sel, bool headers, const ws_report_ctx *c, FILE *out)
{
	char val[VAL_MAX];
	bool first = true;
	int rc = 0;
	for (unsigned b = 0; b < WS_OUT_MAX_BLOCKS && rc == 0; b++) {
		if (!sel->n[b])
			continue;
		struct line l[5] = {{0}};
		for (unsigned j = 0; j < sel->n[b]; j++) {
			const ws_out_name *e = ws_out_at(sel->ids[b][j]);
			size_t w = column_width(sel, sel->ids[b][j], c) + 1;
			for (int k = 0; k < 4; k++) {
				puts_str(&l[k], e->line[k]);
				pad(&l[k], w - strlen(e->line[k]));
			}
			size_t n = value_text(e, c, val, sizeof(val)) ? strlen(val) : 0;
			put(&l[4], val, n);
			pad(&l[4], w - n);
		}
		for (int k = 0; k < 5; k++)
			if (l[k].oom)
				rc = -ENOMEM;
		if (rc == 0) {
			if (!first)
				fputc('\n', out);
			for (int k = headers ? 0 : 4; k < 5; k++)
				fprintf(out, "%s\n", l[k].s);
		}
		first = false;
		for (int k = 0; k < 5; k++)
			free(l[k].s);
	}
	return rc;
}

int ws_out_print(const ws_out_selection *sel, ws_out_mode mode, bool headers,
		 const ws_report_ctx *c, FILE *out)
{
	if (!sel || !c || !c->r || !out)
		return -EINVAL;
	ws_report_ctx cc = *c;
	cc.want_stats = c->want_stats || sel->want_stats;
	int rc;
	switch (mode) {
	case WS_OUT_MODE_CSV:
		rc = print_csv(sel, headers, &cc, out);
		break;
	case WS_OUT_MODE_HUMAN:
		rc = print_human(sel, headers, &cc, out);
		break;
	case WS_OUT_MODE_KEYVAL:
		rc = print_keyval(sel, &cc, out);
		break;
	default:
		return -EINVAL;
	}
	if (rc == 0 && (fflush(out) != 0 || ferror(out)))
		rc = -EIO;
	return rc;
}

int ws_out_print_names(FILE *out, FILE *extra)
{
	bool after_end = false;
	for (size_t i = 0; i < ws_out_count(); i++) {
		const ws_out_name *e = ws_out_at(i);
		if (!after_end)
			fprintf(out, "%s\n", e->name);
		else if (extra)
			fprintf(extra, "%s\n", e->name);
		if (!after_end && !strcmp(e->name, "OUTPUT_END")) {
			after_end = true;
			if (extra)
				fprintf(extra, "warpspeed's additional output names:\n");
		}
	}
	return fflush(out) != 0 || ferror(out) ? -EIO : 0;
}

double ws_out_number(const ws_report_ctx *c, const char *name)
{
	int i = ws_out_find(name);
	ws_out_value v;
	ws_out_value_of(i < 0 ? NULL : ws_out_at((size_t)i), c, &v);
	switch (v.kind) {
	case WS_OUT_V_INT:
		return (double)v.i;
	case WS_OUT_V_UINT:
		return (double)v.u;
	case WS_OUT_V_DOUBLE:
		return v.d;
	default:
		return NAN;
	}
}
