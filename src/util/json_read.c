/* SPDX-License-Identifier: BSD-2-Clause */
/* json_read: the bounded, non-recursive JSON reader; see json_read.h. */
#include "util/json_read.h"

#include "util/err.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE       UINT32_MAX
#define DEPTH_HARD 1024

struct level {
	uint32_t node, last;
	bool obj;
};

struct parser {
	const char *t;
	size_t len, pos;
	ws_jdoc *d;
	size_t max_values;
	ws_err *err;
	bool strict;   /* ws_json_read_strict: byte offsets, unique member names */
	uint32_t *kat; /* strict: byte offset of each value's member name, by value index */
	size_t kcap;
};

static int fail(struct parser *p, const char *what)
{
	if (p->strict)
		return ws_err_set(p->err, WS_E_INVAL, "%s at byte %zu", what, p->pos);
	size_t line = 1, col = 1;
	for (size_t i = 0; i < p->pos && i < p->len; i++) {
		if (p->t[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	return ws_err_set(p->err, WS_E_INVAL, "line %zu, column %zu: %s", line, col, what);
}

static void ws(struct parser *p)
{
	while (p->pos < p->len &&
	       (p->t[p->pos] == ' ' || p->t[p->pos] == '\t' || p->t[p->pos] == '\n' ||
		p->t[p->pos] == '\r'))
		p->pos++;
}

static int peek(const struct parser *p)
{
	return p->pos < p->len ? (unsigned char)p->t[p->pos] : -1;
}

static int new_value(struct parser *p, enum ws_jtype type, uint32_t *out)
{
	ws_jdoc *d = p->d;
	if (d->nv >= p->max_values)
		return ws_err_set(p->err, E2BIG, "more than %zu values (the reader's limit)",
				  p->max_values);
	if (d->nv == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		ws_jval *v = realloc(d->v, cap * sizeof *v);
		if (!v)
			return ws_err_set(p->err, ENOMEM, "no memory for %zu JSON values", cap);
		d->v = v;
		d->cap = cap;
	}
	*out = (uint32_t)d->nv;
	d->v[d->nv++] = (ws_jval){.type = (uint8_t)type, .key = NONE};
	return 0;
}

static int pool_put(struct parser *p, const char *s, size_t n)
{
	ws_jdoc *d = p->d;
	if (d->plen + n + 1 > d->pcap) {
		size_t cap = d->pcap ? d->pcap : 1024;
		while (cap < d->plen + n + 1)
			cap *= 2;
		char *np = realloc(d->pool, cap);
		if (!np)
			return ws_err_set(p->err, ENOMEM, "no memory for %zu bytes of JSON strings",
					  cap);
		d->pool = np;
		d->pcap = cap;
	}
	memcpy(d->pool + d->plen, s, n);
	d->plen += n;
	return 0;
}

static int hex4(struct parser *p, uint32_t *cp)
{
	*cp = 0;
	if (p->len - p->pos < 4)
		return fail(p, "a \\u escape needs four hex digits");
	for (int i = 0; i < 4; i++) {
		char c = p->t[p->pos++];
		int v = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (v < 0)
			return fail(p, "a \\u escape needs four hex digits");
		*cp = *cp << 4 | (uint32_t)v;
	}
	return 0;
}

static int put_cp(struct parser *p, uint32_t cp)
{
	char b[4];
	size_t n;
	if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
		cp = 0xfffd;
	if (cp < 0x80) {
		b[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6);
		b[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12);
		b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18);
		b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return pool_put(p, b, n);
}

/* A string at p->pos (the opening quote) into the pool; its offset and length out. */
static int string(struct parser *p, uint32_t *off, uint32_t *n)
{
	size_t start = p->d->plen;
	int rc;
	p->pos++;
	for (;;) {
		size_t run = p->pos;
		while (run < p->len && p->t[run] != '"' && p->t[run] != '\\' &&
		       (unsigned char)p->t[run] >= 0x20)
			run++;
		if ((rc = pool_put(p, p->t + p->pos, run - p->pos)) < 0)
			return rc;
		p->pos = run;
		if (p->pos >= p->len)
			return fail(p, "a string has no closing quote");
		char c = p->t[p->pos];
		if (c == '"') {
			p->pos++;
			break;
		}
		if (c != '\\')
			return fail(p, "a control character inside a string (write it as \\u00XX)");
		if (++p->pos >= p->len)
			return fail(p, "a string ends inside an escape");
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *e = strchr(from, p->t[p->pos]);
		if (e && p->t[p->pos]) {
			p->pos++;
			rc = pool_put(p, &to[e - from], 1);
		} else if (p->t[p->pos] == 'u') {
			uint32_t cp, lo;
			p->pos++;
			if ((rc = hex4(p, &cp)) < 0)
				return rc;
			if (cp >= 0xd800 && cp <= 0xdbff && p->len - p->pos >= 6 &&
			    p->t[p->pos] == '\\' && p->t[p->pos + 1] == 'u') {
				size_t save = p->pos;
				p->pos += 2;
				if ((rc = hex4(p, &lo)) < 0)
					return rc;
				if (lo >= 0xdc00 && lo <= 0xdfff)
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				else
					p->pos =
						save; /* a lone high surrogate; the next escape stands alone */
			}
			rc = put_cp(p, cp);
		} else {
			return fail(p,
				    "an unknown escape in a string (expected \\\" \\\\ \\/ \\b \\f "
				    "\\n \\r \\t or \\uXXXX)");
		}
		if (rc < 0)
			return rc;
	}
	size_t n_ = p->d->plen - start;
	if (n_ >= NONE || (rc = pool_put(p, "", 1)) < 0)
		return rc < 0 ? rc : ws_err_set(p->err, E2BIG, "a string of 4 GiB or more");
	*off = (uint32_t)start;
	*n = (uint32_t)n_;
	return 0;
}

static size_t digits(const struct parser *p, size_t i)
{
	while (i < p->len && p->t[i] >= '0' && p->t[i] <= '9')
		i++;
	return i;
}

static int number(struct parser *p, double *out)
{
	size_t i = p->pos, d;
	if (i < p->len && p->t[i] == '-')
		i++;
	if (i < p->len && p->t[i] == '0')
		i++;
	else if ((d = digits(p, i)) > i)
		i = d;
	else
		return fail(p, "expected a digit in a number");
	if (i < p->len && p->t[i] == '.') {
		if ((d = digits(p, i + 1)) == i + 1)
			return fail(p, "expected a digit after the decimal point");
		i = d;
	}
	if (i < p->len && (p->t[i] == 'e' || p->t[i] == 'E')) {
		i++;
		if (i < p->len && (p->t[i] == '+' || p->t[i] == '-'))
			i++;
		if ((d = digits(p, i)) == i)
			return fail(p, "expected a digit in an exponent");
		i = d;
	}
	char buf[128];
	if (i - p->pos >= sizeof buf)
		return fail(p, "a number longer than 127 characters");
	memcpy(buf, p->t + p->pos, i - p->pos);
	buf[i - p->pos] = 0;
	/* strtod reads the locale's decimal point; give it that one. */
	const char *dp = localeconv()->decimal_point;
	char *dot = strchr(buf, '.');
	if (dot && dp && dp[0] && !dp[1])
		*dot = dp[0];
	double v = strtod(buf, NULL);
	if (!isfinite(v))
		return fail(p, "a number too large for a double");
	p->pos = i;
	*out = v;
	return 0;
}

static int literal(struct parser *p, const char *word)
{
	size_t n = strlen(word);
	if (p->len - p->pos < n || memcmp(p->t + p->pos, word, n) != 0)
		return fail(
			p,
			"expected a value (an object, array, string, number, true, false or null)");
	p->pos += n;
	return 0;
}

/* One value's start at p->pos: a scalar whole, or a container opened (*opened). */
static int value(struct parser *p, uint32_t *idx, bool *opened)
{
	int c = peek(p), rc;
	*opened = false;
	ws_jval tmp = {0};
	enum ws_jtype t;
	switch (c) {
	case '{':
		t = WS_J_OBJ;
		p->pos++;
		*opened = true;
		break;
	case '[':
		t = WS_J_ARR;
		p->pos++;
		*opened = true;
		break;
	case '"':
		t = WS_J_STR;
		rc = string(p, &tmp.str, &tmp.n);
		if (rc < 0)
			return rc;
		break;
	case 't':
		t = WS_J_TRUE;
		if ((rc = literal(p, "true")) < 0)
			return rc;
		break;
	case 'f':
		t = WS_J_FALSE;
		if ((rc = literal(p, "false")) < 0)
			return rc;
		break;
	case 'n':
		t = WS_J_NULL;
		if ((rc = literal(p, "null")) < 0)
			return rc;
		break;
	default:
		if (c == '-' || (c >= '0' && c <= '9')) {
			t = WS_J_NUM;
			if ((rc = number(p, &tmp.num)) < 0)
				return rc;
			break;
		}
		return fail(p,
			    c < 0 ? "the document ends where a value was expected"
				  : "expected a value (an object, array, string, number, true, "
				    "false or null)");
	}
	if ((rc = new_value(p, t, idx)) < 0)
		return rc;
	ws_jval *v = &p->d->v[*idx];
	v->str = tmp.str;
	v->n = t == WS_J_STR ? tmp.n : 0;
	v->num = tmp.num;
	return 0;
}

/* Strict mode: remembers where value idx's member name starts. */
static int note_key(struct parser *p, uint32_t idx, size_t at)
{
	if (idx >= p->kcap) {
		size_t cap = p->kcap ? p->kcap * 2 : 256;
		while (cap <= idx)
			cap *= 2;
		uint32_t *k = realloc(p->kat, cap * sizeof *k);
		if (!k)
			return ws_err_set(p->err, ENOMEM, "no memory for %zu member names", cap);
		p->kat = k;
		p->kcap = cap;
	}
	p->kat[idx] = (uint32_t)at;
	return 0;
}

struct named {
	const char *name;
	uint32_t idx;
};

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Strict mode, when object o closes: a member name given twice is an error at the second
 * one (sorted, so a large object costs n log n, not n^2). */
static int unique_members(struct parser *p, uint32_t o)
{
	const ws_jdoc *d = p->d;
	size_t n = d->v[o].n;
	if (n < 2)
		return 0;
	struct named *m = malloc(n * sizeof *m);
	if (!m)
		return ws_err_set(p->err, ENOMEM, "no memory to check %zu member names", n);
	size_t k = 0;
	for (uint32_t c = d->v[o].first; c && k < n; c = d->v[c].next)
		m[k++] = (struct named){d->pool + d->v[c].key, c};
	qsort(m, k, sizeof *m, by_name);
	uint32_t dup = 0;
	for (size_t i = 1; i < k; i++)
		if (!strcmp(m[i - 1].name, m[i].name) && (!dup || p->kat[m[i].idx] < p->kat[dup]))
			dup = m[i].idx;
	int rc = 0;
	if (dup) {
		p->pos = p->kat[dup];
		char what[128];
		snprintf(what, sizeof what, "member name \"%.60s\" given twice in one object",
			 d->pool + d->v[dup].key);
		rc = fail(p, what);
	}
	free(m);
	return rc;
}

static int parse(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc, bool strict,
		 ws_err *err);

int ws_json_read(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc, ws_err *err)
{
	return parse(text, len, lim, doc, false, err);
}

int ws_json_read_strict(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc,
			ws_err *err)
{
	return parse(text, len, lim, doc, true, err);
}

static int parse(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc, bool strict,
		 ws_err *err)
{
	size_t max_bytes = lim && lim->max_bytes ? lim->max_bytes : (size_t)64 << 20;
	size_t max_depth = lim && lim->max_depth ? lim->max_depth : 64;
	if (max_bytes > (size_t)1 << 30)
		max_bytes = (size_t)1 << 30; /* pool offsets are 32-bit: at most twice the text */
	if (max_depth > DEPTH_HARD)
		max_depth = DEPTH_HARD;
	memset(doc, 0, sizeof *doc);
	if (len > max_bytes)
		return ws_err_set(err, E2BIG, "%zu bytes, more than the %zu the reader takes", len,
				  max_bytes);
	struct parser p = {
		text, len,    0,    doc, lim && lim->max_values ? lim->max_values : (size_t)4 << 20,
		err,  strict, NULL, 0};
	if (p.max_values > NONE - 1)
		p.max_values = NONE - 1;
	struct level *st = malloc((max_depth + 1) * sizeof *st);
	if (!st)
		return ws_err_set(err, ENOMEM, "no memory for the reader's stack");
	size_t depth = 0;
	int rc = 0;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		p.pos = 3; /* a UTF-8 byte order mark, as some editors write */
	uint32_t key = NONE;
	size_t key_at = 0;
	bool need_value = true;
	for (;;) {
		ws(&p);
		if (need_value) {
			if (depth > 0 && st[depth - 1].obj && key == NONE) {
				uint32_t klen;
				if (peek(&p) != '"') {
					rc = fail(&p, "expected a member name in double quotes");
					break;
				}
				key_at = p.pos;
				if ((rc = string(&p, &key, &klen)) < 0)
					break;
				ws(&p);
				if (peek(&p) != ':') {
					rc = fail(&p, "expected ':' after a member name");
					break;
				}
				p.pos++;
				continue;
			}
			uint32_t idx = 0;
			bool opened = false;
			if ((rc = value(&p, &idx, &opened)) < 0)
				break;
			if (depth > 0) {
				struct level *l = &st[depth - 1];
				ws_jval *parent = &doc->v[l->node];
				if (l->last == 0)
					parent->first = idx;
				else
					doc->v[l->last].next = idx;
				l->last = idx;
				parent->n++;
				doc->v[idx].key = key;
				if (strict && key != NONE && (rc = note_key(&p, idx, key_at)) < 0)
					break;
				key = NONE;
			}
			need_value = false;
			if (opened) {
				if (depth == max_depth) {
					rc = ws_err_set(
						err, E2BIG,
						"nesting deeper than %zu (the reader's limit)",
						max_depth);
					break;
				}
				st[depth++] = (struct level){idx, 0, doc->v[idx].type == WS_J_OBJ};
				ws(&p);
				int close = st[depth - 1].obj ? '}' : ']';
				if (peek(&p) == close) {
					p.pos++;
					depth--;
				} else {
					need_value = true;
				}
			}
			if (depth == 0 && !need_value)
				break;
			continue;
		}
		int c = peek(&p);
		bool obj = st[depth - 1].obj;
		if (c == ',') {
			p.pos++;
			need_value = true;
		} else if (c == (obj ? '}' : ']')) {
			if (strict && obj && (rc = unique_members(&p, st[depth - 1].node)) < 0)
				break;
			p.pos++;
			if (--depth == 0)
				break;
		} else {
			rc = fail(&p,
				  obj ? "expected ',' or '}' after a member"
				      : "expected ',' or ']' after an element");
			break;
		}
	}
	free(st);
	free(p.kat);
	if (rc == 0) {
		ws(&p);
		if (p.pos != p.len)
			rc = fail(&p, "text after the end of the document");
	}
	if (rc < 0)
		ws_jdoc_free(doc);
	return rc;
}

void ws_jdoc_free(ws_jdoc *doc)
{
	free(doc->v);
	free(doc->pool);
	memset(doc, 0, sizeof *doc);
}

const ws_jval *ws_jroot(const ws_jdoc *d) { return d && d->nv ? &d->v[0] : NULL; }

const ws_jval *ws_jfirst(const ws_jdoc *d, const ws_jval *v)
{
	return v && (v->type == WS_J_ARR || v->type == WS_J_OBJ) && v->first ? &d->v[v->first]
									     : NULL;
}

const ws_jval *ws_jnext(const ws_jdoc *d, const ws_jval *v)
{
	return v && v->next ? &d->v[v->next] : NULL;
}

const ws_jval *ws_jget(const ws_jdoc *d, const ws_jval *o, const char *key)
{
	if (!o || o->type != WS_J_OBJ)
		return NULL;
	for (const ws_jval *c = ws_jfirst(d, o); c; c = ws_jnext(d, c))
		if (c->key != NONE && strcmp(d->pool + c->key, key) == 0)
			return c;
	return NULL;
}

const ws_jval *ws_jpath(const ws_jdoc *d, const ws_jval *o, const char *path)
{
	char part[128];
	while (o && *path) {
		size_t n = strcspn(path, ".");
		if (n >= sizeof part)
			return NULL;
		memcpy(part, path, n);
		part[n] = 0;
		o = ws_jget(d, o, part);
		path += n + (path[n] == '.');
	}
	return o;
}

double ws_jnum(const ws_jval *v, double dflt) { return v && v->type == WS_J_NUM ? v->num : dflt; }

const char *ws_jstr(const ws_jdoc *d, const ws_jval *v)
{
	return v && v->type == WS_J_STR ? d->pool + v->str : NULL;
}

const char *ws_jkey(const ws_jdoc *d, const ws_jval *v)
{
	return v && v->key != NONE ? d->pool + v->key : NULL;
}
