/* SPDX-License-Identifier: BSD-2-Clause */
/* httpreq: the bounded request-head parser of the metrics endpoint; see httpreq.h. */
#include "net/httpreq.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PATH "/metrics"

/* RFC 9110 tchar. */
static bool is_tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		(c && strchr("!#$%&'*+-.^_`|~", c));
}

static int done(ws_httpreq *r, int status, const char *why)
{
	r->status = status;
	r->why = why;
	return 1;
}

/* One line of the head: [s, e) without its CR LF / LF. */
typedef struct line {
	const char *s, *e;
} line;

/* The end of the head (the byte after the blank line), or NULL while it is incomplete. */
static const char *head_end(const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] == '\n' &&
		    ((i >= 1 && b[i - 1] == '\n') ||
		     (i >= 2 && b[i - 1] == '\r' && b[i - 2] == '\n')))
			return b + i + 1;
	return NULL;
}

static line next_line(const char **p, const char *end)
{
	line l = {*p, *p};
	while (l.e < end && *l.e != '\n')
		l.e++;
	*p = l.e < end ? l.e + 1 : end;
	if (l.e > l.s && l.e[-1] == '\r')
		l.e--;
	return l;
}

static bool eq(line l, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(l.e - l.s) == n && memcmp(l.s, s, n) == 0;
}

/* A q value "0", "0.5", "1.000" as thousandths; -1 when it is not one. */
static int qvalue(const char *s, const char *e)
{
	if (s >= e || (*s != '0' && *s != '1'))
		return -1;
	int q = (*s - '0') * 1000, scale = 100;
	s++;
	if (s < e && *s == '.')
		for (s++; s < e && scale > 0 && *s >= '0' && *s <= '9'; s++, scale /= 10)
			q += (*s - '0') * scale;
	return s == e && q <= 1000 ? q : -1;
}

static const char *skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static const char *trim_end(const char *s, const char *e)
{
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e;
}

/* The first c in [s, e), or NULL. */
static const char *find(const char *s, const char *e, char c)
{
	return s < e ? memchr(s, c, (size_t)(e - s)) : NULL;
}

static bool word_is(const char *s, const char *e, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(e - s) == n && strncasecmp(s, w, n) == 0;
}

/* One media range of Accept, [s, e): updates the best q of each format. */
static void media_range(const char *s, const char *e, int *q_om, int *q_text)
{
	const char *semi = find(s, e, ';');
	const char *te = trim_end(s, semi ? semi : e);
	enum {
		OTHER,
		OM,
		TEXT
	} kind = word_is(s, te, "application/openmetrics-text") ? OM
		: word_is(s, te, "text/plain")                  ? TEXT
								: OTHER;
	if (kind == OTHER)
		return;
	int q = 1000;
	bool version_ok = true;
	for (const char *p = semi; p && p < e;) {
		const char *ps = skip_ws(p + 1, e);
		const char *pe = find(ps, e, ';');
		p = pe;
		pe = trim_end(ps, pe ? pe : e);
		const char *eqs = find(ps, pe, '=');
		if (!eqs)
			continue;
		const char *ke = trim_end(ps, eqs), *vs = skip_ws(eqs + 1, pe);
		if (word_is(ps, ke, "q"))
			q = qvalue(vs, pe);
		else if (word_is(ps, ke, "version"))
			version_ok = kind == OM
				? word_is(vs, pe, "1.0.0") || word_is(vs, pe, "0.0.1")
				: word_is(vs, pe, "0.0.4");
	}
	int *best = kind == OM ? q_om : q_text;
	if (version_ok && q > *best)
		*best = q;
}

static bool wants_openmetrics(const char *s, const char *e)
{
	int q_om = 0, q_text = 0;
	while (s < e) {
		const char *c = find(s, e, ',');
		media_range(skip_ws(s, c ? c : e), c ? c : e, &q_om, &q_text);
		s = c ? c + 1 : e;
	}
	return q_om > 0 && q_om >= q_text;
}

/* The request line: method, target, version. 0 when it is good, else the status. */
static int request_line(line l, ws_httpreq *r)
{
	const char *sp1 = memchr(l.s, ' ', (size_t)(l.e - l.s));
	const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(l.e - sp1 - 1)) : NULL;
	if (!sp1 || !sp2 || sp1 == l.s || sp2 == sp1 + 1) {
		r->why = "the request line is not METHOD TARGET VERSION";
		return 400;
	}
	for (const char *p = l.s; p < sp1; p++)
		if (!is_tchar((unsigned char)*p)) {
			r->why = "the method is not a token";
			return 400;
		}
	for (const char *p = sp1 + 1; p < sp2; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f) {
			r->why = "the target holds a byte a URI may not";
			return 400;
		}
	line v = {sp2 + 1, l.e};
	if (!eq(v, "HTTP/1.1") && !eq(v, "HTTP/1.0")) {
		bool http = v.e - v.s == 8 && memcmp(v.s, "HTTP/", 5) == 0 && v.s[5] >= '0' &&
			v.s[5] <= '9' && v.s[6] == '.' && v.s[7] >= '0' && v.s[7] <= '9';
		r->why = http ? "only HTTP/1.0 and HTTP/1.1 are served" : "no HTTP version";
		return http ? 505 : 400;
	}
	r->http11 = eq(v, "HTTP/1.1");
	line m = {l.s, sp1};
	r->head = eq(m, "HEAD");
	if (!eq(m, "GET") && !r->head) {
		r->why = "the endpoint is read-only: GET or HEAD";
		return 405;
	}
	const char *q = memchr(sp1 + 1, '?', (size_t)(sp2 - sp1 - 1));
	line path = {sp1 + 1, q ? q : sp2};
	if (!eq(path, PATH)) {
		r->why = "the only resource is /metrics";
		return 404;
	}
	return 0;
}

/* Bytes that no request head may hold; found as they arrive. */
static bool bad_byte(unsigned char c)
{
	return (c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c == 0x7f;
}

int ws_httpreq_parse(const char *buf, size_t len, ws_httpreq *r)
{
	memset(r, 0, sizeof(*r));
	if (len > WS_HTTPREQ_MAX)
		len = WS_HTTPREQ_MAX;
	for (size_t i = 0; i < len; i++)
		if (bad_byte((unsigned char)buf[i]) ||
		    (buf[i] == '\r' && i + 1 < len && buf[i + 1] != '\n'))
			return done(r, 400, "a control byte or a bare CR in the request head");
	/* Leading blank lines before the request line are allowed (RFC 9112 2.2). */
	const char *p = buf, *end = buf + len;
	while (p < end && (*p == '\r' || *p == '\n'))
		p++;
	const char *he = head_end(p, (size_t)(end - p));
	if (!he) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		if (nl) { /* judge the request line early: junk does not wait for more */
			const char *q = p;
			int st = request_line(next_line(&q, end), r);
			if (st == 400 || st == 505)
				return done(r, st, r->why);
		} else if (p < end && !is_tchar((unsigned char)*p)) {
			return done(r, 400, "the request does not begin with a method");
		}
		return len >= WS_HTTPREQ_MAX ? done(r, 431, "the request head is too long") : 0;
	}
	int status = request_line(next_line(&p, he), r);
	int hosts = 0;
	for (;;) {
		line l = next_line(&p, he);
		if (l.s == l.e)
			break;
		if (*l.s == ' ' || *l.s == '\t')
			return done(r, 400, "a folded header line");
		const char *colon = memchr(l.s, ':', (size_t)(l.e - l.s));
		if (!colon || colon == l.s)
			return done(r, 400, "a header line without a name");
		for (const char *c = l.s; c < colon; c++)
			if (!is_tchar((unsigned char)*c))
				return done(r, 400, "a header name is not a token");
		const char *vs = skip_ws(colon + 1, l.e), *ve = trim_end(vs, l.e);
		if (word_is(l.s, colon, "host"))
			hosts++;
		else if (word_is(l.s, colon, "accept"))
			r->openmetrics = wants_openmetrics(vs, ve);
	}
	if (status == 0 && r->http11 && hosts != 1)
		return done(r, 400, "an HTTP/1.1 request needs exactly one Host header");
	if (status)
		return done(r, status, r->why);
	return done(r, 200, NULL);
}

const char *ws_httpreq_reason(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 431:
		return "Request Header Fields Too Large";
	case 505:
		return "HTTP Version Not Supported";
	default:
		return "Service Unavailable";
	}
}
