/* SPDX-License-Identifier: BSD-2-Clause */
/* svg: the SVG writer; see svg.h.
 *
 * Kept apart from the charts so that what makes a document valid XML (escaping, UTF-8,
 * numbers) is written and tested once. */
#include "report/svg.h"

#include "report/json.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

static void put(ws_svg *s, const char *t)
{
	size_t n = strlen(t);
	if (!s->error && n && fwrite(t, 1, n, s->out) != n)
		s->error = -EIO;
}

int ws_svg_num(double v, char *buf, size_t n)
{
	if (n < 32) {
		if (n)
			buf[0] = 0;
		return 0;
	}
	if (!isfinite(v) || fabs(v) > 1e15)
		v = 0;
	int64_t c = (int64_t)llround(v * 100.0);
	const char *sign = c < 0 ? "-" : "";
	uint64_t a = c < 0 ? (uint64_t)(-(c + 1)) + 1 : (uint64_t)c;
	uint64_t ip = a / 100, fr = a % 100;
	if (fr == 0)
		return snprintf(buf, n, "%s%" PRIu64, sign, ip);
	if (fr % 10 == 0)
		return snprintf(buf, n, "%s%" PRIu64 ".%" PRIu64, sign, ip, fr / 10);
	return snprintf(buf, n, "%s%" PRIu64 ".%02" PRIu64, sign, ip, fr);
}

size_t ws_svg_escape(const char *src, char *buf, size_t n)
{
	const unsigned char *p = (const unsigned char *)(src ? src : "");
	size_t len = 0;
	if (!n)
		return 0;
	while (*p) {
		const char *rep = NULL;
		size_t k = 1;
		switch (*p) {
		case '&':
			rep = "&amp;";
			break;
		case '<':
			rep = "&lt;";
			break;
		case '>':
			rep = "&gt;";
			break;
		case '"':
			rep = "&quot;";
			break;
		case '\'':
			rep = "&apos;";
			break;
		default:
			break;
		}
		if (!rep && *p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
			p++; /* XML 1.0 has no way to write these at all */
			continue;
		}
		if (!rep && *p >= 0x80 && (k = ws_json_utf8_len(p)) == 0) {
			rep = "\xef\xbf\xbd"; /* U+FFFD for each byte that starts no valid sequence */
			k = 1;
		}
		const char *from = rep ? rep : (const char *)p;
		size_t m = rep ? strlen(rep) : k;
		if (len + m >= n)
			break;
		memcpy(buf + len, from, m);
		len += m;
		p += k;
	}
	buf[len] = 0;
	return len;
}

/* Text content or an attribute value, escaped, in pieces of any length. */
static void put_esc(ws_svg *s, const char *t)
{
	char buf[1024];
	const unsigned char *p = (const unsigned char *)(t ? t : "");
	while (*p) {
		/* Escape at most 200 input bytes at once: 6x growth fits the buffer, and a cut
		 * is moved back to a character boundary. */
		size_t take = strnlen((const char *)p, 200);
		while (take < strlen((const char *)p) && take > 0 && (p[take] & 0xc0) == 0x80)
			take--;
		if (take == 0)
			take = 1;
		char part[208];
		memcpy(part, p, take);
		part[take] = 0;
		ws_svg_escape(part, buf, sizeof buf);
		put(s, buf);
		p += take;
	}
}

static void num(ws_svg *s, double v)
{
	char b[40];
	ws_svg_num(v, b, sizeof b);
	put(s, b);
}

/* name="number" with a leading blank. */
static void attr_num(ws_svg *s, const char *name, double v)
{
	put(s, " ");
	put(s, name);
	put(s, "=\"");
	num(s, v);
	put(s, "\"");
}

static void attr_str(ws_svg *s, const char *name, const char *v)
{
	put(s, " ");
	put(s, name);
	put(s, "=\"");
	put_esc(s, v);
	put(s, "\"");
}

static void style(ws_svg *s, const ws_svg_style *st)
{
	attr_str(s, "fill", st && st->fill ? st->fill : "none");
	if (st && st->opacity > 0 && st->opacity < 1)
		attr_num(s, "fill-opacity", st->opacity);
	if (!st || !st->stroke)
		return;
	attr_str(s, "stroke", st->stroke);
	if (st->width > 0 && st->width != 1)
		attr_num(s, "stroke-width", st->width);
	if (st->dash)
		attr_str(s, "stroke-dasharray", st->dash);
}

void ws_svg_begin(ws_svg *s, FILE *out, double w, double h, const char *title, const char *desc)
{
	memset(s, 0, sizeof *s);
	s->out = out;
	put(s,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "
	    "xmlns=\"http://www.w3.org/2000/svg\"");
	attr_num(s, "width", w);
	attr_num(s, "height", h);
	put(s, " viewBox=\"0 0 ");
	num(s, w);
	put(s, " ");
	num(s, h);
	put(s,
	    "\" role=\"img\" aria-labelledby=\"title desc\" font-family=\"sans-serif\">\n<title "
	    "id=\"title\">");
	put_esc(s, title);
	put(s, "</title>\n<desc id=\"desc\">");
	put_esc(s, desc);
	put(s, "</desc>\n");
	ws_svg_rect(s, 0, 0, w, h, &(ws_svg_style){.fill = "#ffffff"});
}

int ws_svg_end(ws_svg *s)
{
	while (s->depth > 0)
		ws_svg_group_end(s);
	put(s, "</svg>\n");
	if (fflush(s->out) != 0 && !s->error)
		s->error = -EIO;
	return s->error;
}

void ws_svg_group(ws_svg *s, const char *cls)
{
	put(s, "<g");
	if (cls)
		attr_str(s, "class", cls);
	put(s, ">\n");
	s->depth++;
}

void ws_svg_group_end(ws_svg *s)
{
	if (s->depth <= 0)
		return;
	s->depth--;
	put(s, "</g>\n");
}

void ws_svg_tooltip(ws_svg *s, const char *text)
{
	put(s, "<title>");
	put_esc(s, text);
	put(s, "</title>\n");
}

void ws_svg_line(ws_svg *s, double x1, double y1, double x2, double y2, const ws_svg_style *st)
{
	put(s, "<line");
	attr_num(s, "x1", x1);
	attr_num(s, "y1", y1);
	attr_num(s, "x2", x2);
	attr_num(s, "y2", y2);
	style(s, st);
	put(s, "/>\n");
}

void ws_svg_rect(ws_svg *s, double x, double y, double w, double h, const ws_svg_style *st)
{
	put(s, "<rect");
	attr_num(s, "x", x);
	attr_num(s, "y", y);
	attr_num(s, "width", w > 0 ? w : 0);
	attr_num(s, "height", h > 0 ? h : 0);
	style(s, st);
	put(s, "/>\n");
}

void ws_svg_polyline(ws_svg *s, const double *xy, size_t n, const ws_svg_style *st)
{
	put(s, "<polyline points=\"");
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(s, " ");
		num(s, xy[2 * i]);
		put(s, ",");
		num(s, xy[2 * i + 1]);
	}
	put(s, "\"");
	style(s, st);
	put(s, " stroke-linejoin=\"round\"/>\n");
}

/* A closed path through n points given as offsets (in units of r) from (x, y). */
static void shape(ws_svg *s, double x, double y, double r, const double *d, size_t n,
		  const ws_svg_style *st)
{
	put(s, "<path d=\"");
	for (size_t i = 0; i < n; i++) {
		put(s, i ? " L" : "M");
		num(s, x + d[2 * i] * r);
		put(s, ",");
		num(s, y + d[2 * i + 1] * r);
	}
	put(s, " Z\"");
	style(s, st);
	put(s, "/>\n");
}

void ws_svg_marker(ws_svg *s, enum ws_svg_marker m, double x, double y, double r,
		   const ws_svg_style *st)
{
	static const double square[] = {-0.85, -0.85, 0.85, -0.85, 0.85, 0.85, -0.85, 0.85};
	static const double tri[] = {0, -1.15, 1.05, 0.75, -1.05, 0.75};
	static const double tri_down[] = {0, 1.15, 1.05, -0.75, -1.05, -0.75};
	static const double diamond[] = {0, -1.2, 1.0, 0, 0, 1.2, -1.0, 0};
	static const double star[] = {0, -1.25, 0.3,   -0.4, 1.2,  -0.4, 0.5,  0.15, 0.75, 1.0,
				      0, 0.5,   -0.75, 1.0,  -0.5, 0.15, -1.2, -0.4, -0.3, -0.4};
	ws_svg_style open = st ? *st : (ws_svg_style){0};
	switch (m) {
	case WS_MARK_SQUARE:
		shape(s, x, y, r, square, 4, st);
		break;
	case WS_MARK_TRIANGLE:
		shape(s, x, y, r, tri, 3, st);
		break;
	case WS_MARK_TRIANGLE_DOWN:
		shape(s, x, y, r, tri_down, 3, st);
		break;
	case WS_MARK_DIAMOND:
		shape(s, x, y, r, diamond, 4, st);
		break;
	case WS_MARK_STAR:
		shape(s, x, y, r, star, 10, st);
		break;
	case WS_MARK_CROSS: /* an x, drawn with the fill colour as its stroke */
	case WS_MARK_PLUS:
		open.stroke = st && st->fill ? st->fill : st ? st->stroke : "#000000";
		open.fill = NULL;
		open.width = 2;
		open.dash = NULL;
		if (m == WS_MARK_CROSS) {
			ws_svg_line(s, x - r, y - r, x + r, y + r, &open);
			ws_svg_line(s, x - r, y + r, x + r, y - r, &open);
		} else {
			ws_svg_line(s, x - r * 1.2, y, x + r * 1.2, y, &open);
			ws_svg_line(s, x, y - r * 1.2, x, y + r * 1.2, &open);
		}
		break;
	default:
		put(s, "<circle");
		attr_num(s, "cx", x);
		attr_num(s, "cy", y);
		attr_num(s, "r", r);
		style(s, st);
		put(s, "/>\n");
	}
}

void ws_svg_text(ws_svg *s, double x, double y, enum ws_svg_anchor a, double size, bool bold,
		 double rot, const char *text)
{
	static const char *const anchors[] = {"start", "middle", "end"};
	put(s, "<text");
	attr_num(s, "x", x);
	attr_num(s, "y", y);
	attr_num(s, "font-size", size);
	put(s, " text-anchor=\"");
	put(s, anchors[(unsigned)a < 3 ? a : 0]);
	put(s, "\" fill=\"#000000\"");
	if (bold)
		put(s, " font-weight=\"bold\"");
	if (rot != 0) {
		put(s, " transform=\"rotate(");
		num(s, rot);
		put(s, " ");
		num(s, x);
		put(s, " ");
		num(s, y);
		put(s, ")\"");
	}
	put(s, ">");
	/* "2^15", "10^6bits/s": the digits after each '^' raised, the rest back on the line
	 * (in a tspan of its own: dy moves the first character it holds). */
	const char *p = text ? text : "";
	char part[256];
	bool raised = false;
	while (*p) {
		const char *caret = strchr(p, '^');
		size_t k = caret ? (size_t)(caret - p) : strlen(p);
		if (raised && k) {
			put(s, "<tspan dy=\"");
			num(s, size * 0.4);
			put(s, "\">");
		}
		for (size_t off = 0; off < k; off += sizeof part - 1) {
			size_t m = k - off < sizeof part - 1 ? k - off : sizeof part - 1;
			memcpy(part, p + off, m);
			part[m] = 0;
			put_esc(s, part);
		}
		if (raised && k)
			put(s, "</tspan>");
		raised = false;
		if (!caret)
			break;
		p = caret + 1;
		size_t e = (*p == '-') ? 1 : 0;
		while (p[e] >= '0' && p[e] <= '9' && e < sizeof part - 1)
			e++;
		memcpy(part, p, e);
		part[e] = 0;
		put(s, "<tspan dy=\"");
		num(s, -size * 0.4);
		put(s, "\" font-size=\"");
		num(s, size * 0.75);
		put(s, "\">");
		put_esc(s, part);
		put(s, "</tspan>");
		p += e;
		raised = true;
	}
	put(s, "</text>\n");
}

void ws_svg_raw(ws_svg *s, const char *markup) { put(s, markup); }
