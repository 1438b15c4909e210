/* SPDX-License-Identifier: BSD-2-Clause */
/* json: the streaming JSON writer; see json.h.
 *
 * Kept apart from the result mapping (json_result.c) so the rules that make a document
 * parse everywhere (escaping, UTF-8, numbers, null for NaN) are written and tested once. */
#include "report/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ws_json_init(ws_json *j, FILE *out, int indent)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->indent = indent > 0 ? indent : 0;
	j->empty[0] = true;
}

static void put(ws_json *j, const char *s, size_t n)
{
	if (j->error)
		return;
	if (n && fwrite(s, 1, n, j->out) != n)
		j->error = -EIO;
}

static void puts_(ws_json *j, const char *s) { put(j, s, strlen(s)); }

static bool pretty(const ws_json *j) { return j->indent > 0 && j->inline_depth == 0; }

static void newline(ws_json *j, int depth)
{
	if (!pretty(j))
		return;
	put(j, "\n", 1);
	for (int i = 0; i < depth * j->indent; i++)
		put(j, " ", 1);
}

/* ---- strings ------------------------------------------------------------------------------ */

size_t ws_json_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the terminating NUL */
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void string(ws_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	put(j, "\"", 1);
	while (*p) {
		unsigned char c = *p;
		const char *esc = NULL;
		char u[7];
		switch (c) {
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		default:
			break;
		}
		if (!esc && c < 0x20) {
			memcpy(u, "\\u00", 4);
			u[4] = hex[c >> 4];
			u[5] = hex[c & 15];
			u[6] = 0;
			esc = u;
		}
		if (esc) {
			puts_(j, esc);
			p++;
			continue;
		}
		size_t n = ws_json_utf8_len(p);
		if (n == 0) {
			puts_(j,
			      "\\ufffd"); /* one replacement per byte that starts no valid sequence */
			p++;
			continue;
		}
		put(j, (const char *)p, n);
		p += n;
	}
	put(j, "\"", 1);
}

/* ---- structure ---------------------------------------------------------------------------- */

/* Before any value or container: the comma, the line break, the key. */
static bool lead(ws_json *j, const char *key)
{
	if (j->error)
		return false;
	if (j->depth == 0 && !j->empty[0]) {
		j->error = -EINVAL; /* a second top-level value */
		return false;
	}
	if (!j->empty[j->depth])
		put(j, ",", 1);
	j->empty[j->depth] = false;
	if (j->depth > 0)
		newline(j, j->depth);
	if (key) {
		string(j, key);
		put(j, pretty(j) ? ": " : ":", pretty(j) ? 2 : 1);
	}
	return true;
}

static void open_(ws_json *j, const char *key, const char *brace, bool inl)
{
	if (!lead(j, key))
		return;
	if (j->depth + 1 >= WS_JSON_MAX_DEPTH) {
		j->error = -EINVAL;
		return;
	}
	puts_(j, brace);
	j->depth++;
	j->empty[j->depth] = true;
	if (inl && !j->inline_depth)
		j->inline_depth = j->depth;
}

static void close_(ws_json *j, const char *brace)
{
	if (j->error)
		return;
	if (j->depth == 0) {
		j->error = -EINVAL;
		return;
	}
	bool was_empty = j->empty[j->depth];
	int d = j->depth--;
	if (!was_empty)
		newline(j, j->depth);
	puts_(j, brace);
	if (j->inline_depth == d)
		j->inline_depth = 0;
}

void ws_json_object_begin(ws_json *j, const char *key) { open_(j, key, "{", false); }
void ws_json_object_end(ws_json *j) { close_(j, "}"); }
void ws_json_array_begin(ws_json *j, const char *key) { open_(j, key, "[", false); }
void ws_json_array_inline_begin(ws_json *j, const char *key) { open_(j, key, "[", true); }
void ws_json_array_end(ws_json *j) { close_(j, "]"); }

/* ---- values ------------------------------------------------------------------------------- */

/* A value already in its JSON text. */
static void raw(ws_json *j, const char *key, const char *text)
{
	if (lead(j, key))
		puts_(j, text);
}

void ws_json_document(ws_json *j, const char *key, const char *text)
{
	size_t n = text ? strlen(text) : 0;
	while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
		n--; /* the document's final newline */
	if (!n) {
		raw(j, key, "null");
		return;
	}
	if (!lead(j, key))
		return;
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n' && pretty(j))
			newline(j, j->depth); /* a string holds no raw newline: each is layout */
		else if (text[i] != '\n')
			put(j, text + i, 1);
	}
}

void ws_json_str(ws_json *j, const char *key, const char *s)
{
	if (!s)
		raw(j, key, "null");
	else if (lead(j, key))
		string(j, s);
}

void ws_json_int(ws_json *j, const char *key, int64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRId64, v);
	raw(j, key, b);
}

void ws_json_uint(ws_json *j, const char *key, uint64_t v)
{
	char b[32];
	snprintf(b, sizeof(b), "%" PRIu64, v);
	raw(j, key, b);
}

int ws_json_format_double(double v, char *buf, size_t n)
{
	if (n < 32) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	if (!isfinite(v))
		return snprintf(buf, n, "null");
	int len = 0;
	for (int prec = 15; prec <= 17; prec++) {
		len = snprintf(buf, n, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* A locale with a decimal comma: JSON's point, whatever LC_NUMERIC says. */
	for (char *c = buf; *c; c++)
		if (*c == ',')
			*c = '.';
	return len;
}

void ws_json_double(ws_json *j, const char *key, double v)
{
	char b[40];
	ws_json_format_double(v, b, sizeof(b));
	raw(j, key, b);
}

void ws_json_bool(ws_json *j, const char *key, bool v) { raw(j, key, v ? "true" : "false"); }

void ws_json_null(ws_json *j, const char *key) { raw(j, key, "null"); }

int ws_json_finish(ws_json *j)
{
	if (!j->error && (j->depth != 0 || j->empty[0]))
		j->error = -EINVAL; /* an open container, or no document at all */
	put(j, "\n", 1);
	if (fflush(j->out) != 0 && !j->error)
		j->error = -EIO;
	return j->error;
}
