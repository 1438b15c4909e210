/* SPDX-License-Identifier: BSD-2-Clause */
/* svg: a small SVG (XML) writer for warpspeed's charts.
 *
 * Charts are read in browsers, printed and parsed by scripts, so every document must be
 * well-formed XML whatever the data: text and attribute values are escaped (& < > " '),
 * invalid UTF-8 becomes U+FFFD and the control characters XML 1.0 forbids are dropped.
 * Numbers are written by integer arithmetic (two decimals at most, trailing zeros cut),
 * so the output is the same in every locale and byte-exact in tests. The writer emits
 * nothing but elements: no scripts, no external references, fonts by generic family
 * only. It writes to the FILE it is given and remembers the first write error. */
#ifndef WS_REPORT_SVG_H
#define WS_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct ws_svg {
	FILE *out;
	int depth; /* open <g> groups */
	int error; /* first failure: -EIO */
} ws_svg;

/* How a shape is drawn. NULL strings leave the attribute out (stroke NULL: none). */
typedef struct ws_svg_style {
	const char *stroke; /* "#0072b2" */
	const char *fill;   /* NULL: "none" */
	double width;       /* stroke width; 0: 1 */
	const char *dash;   /* stroke-dasharray ("6 3"); NULL: solid */
	double opacity;     /* fill-opacity; 0: 1 (opaque) */
} ws_svg_style;

enum ws_svg_anchor { WS_SVG_START, WS_SVG_MIDDLE, WS_SVG_END };

/* Marker shapes, so series differ without colour. */
enum ws_svg_marker {
	WS_MARK_CIRCLE,
	WS_MARK_SQUARE,
	WS_MARK_TRIANGLE,
	WS_MARK_DIAMOND,
	WS_MARK_CROSS,
	WS_MARK_TRIANGLE_DOWN,
	WS_MARK_PLUS,
	WS_MARK_STAR,
	WS_MARK_COUNT
};

/* The number as the writer prints it: rounded to 2 decimals, no trailing zeros, '.'
 * whatever the locale, "0" for -0 and for a non-finite v. buf holds at least 32 bytes.
 * Returns the length. */
int ws_svg_num(double v, char *buf, size_t n);

/* s escaped for XML text and attribute values into buf (always NUL-terminated, cut at a
 * character boundary when it does not fit). Returns the length written. */
size_t ws_svg_escape(const char *s, char *buf, size_t n);

/* The XML declaration, <svg> with a viewBox of w x h, a generic font family, and the
 * <title> and <desc> every chart carries. */
void ws_svg_begin(ws_svg *s, FILE *out, double w, double h, const char *title, const char *desc);
/* Closes what is open; returns 0 or the first error (negative). */
int ws_svg_end(ws_svg *s);

/* A group; cls (may be NULL) becomes class="...". */
void ws_svg_group(ws_svg *s, const char *cls);
void ws_svg_group_end(ws_svg *s);
/* <title> inside the current group: a tooltip for what the group draws. */
void ws_svg_tooltip(ws_svg *s, const char *text);

void ws_svg_line(ws_svg *s, double x1, double y1, double x2, double y2, const ws_svg_style *st);
void ws_svg_rect(ws_svg *s, double x, double y, double w, double h, const ws_svg_style *st);
/* An open polyline through n points (xy: x0, y0, x1, y1, ...). */
void ws_svg_polyline(ws_svg *s, const double *xy, size_t n, const ws_svg_style *st);
void ws_svg_marker(ws_svg *s, enum ws_svg_marker m, double x, double y, double r,
		   const ws_svg_style *st);

/* Text at (x, y) (baseline), size in px, bold or not, rotated by rot degrees about (x, y).
 * A '^' in text raises what follows it as a superscript ("2^15"). */
void ws_svg_text(ws_svg *s, double x, double y, enum ws_svg_anchor a, double size, bool bold,
		 double rot, const char *text);

/* Raw markup the caller wrote itself (a <defs> pattern); must be well-formed. */
void ws_svg_raw(ws_svg *s, const char *markup);

#endif
