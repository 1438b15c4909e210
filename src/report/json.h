/* SPDX-License-Identifier: BSD-2-Clause */
/* json: a small streaming JSON writer for machine-readable results (--json, --json-lines).
 *
 * Programs read warpspeed's JSON, so every document must parse with any strict parser:
 * strings are escaped and always valid UTF-8 (an invalid byte becomes U+FFFD), numbers are
 * printed with the fewest digits (15 to 17) that read back to the same double, with '.'
 * whatever the locale, and a value JSON cannot hold (NaN, +-Infinity) is written as null.
 * The writer keeps the comma and indentation state, so callers only name keys and values;
 * it writes to the FILE it is given and remembers the first write error. With indent 0 the
 * document is one line (JSON Lines); otherwise it is pretty-printed, except for "inline"
 * arrays (short tuples such as a histogram bucket) which stay on one line. */
#ifndef WS_REPORT_JSON_H
#define WS_REPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WS_JSON_MAX_DEPTH 32

typedef struct ws_json {
	FILE *out;
	int indent;                    /* spaces per level; 0 = one line */
	int depth;                     /* open containers */
	int inline_depth;              /* depth at which an inline array was opened; 0 = none */
	bool empty[WS_JSON_MAX_DEPTH]; /* nothing written yet in the container at this depth */
	int error;                     /* first failure: -EIO (write), -EINVAL (misuse) */
} ws_json;

void ws_json_init(ws_json *j, FILE *out, int indent);

/* Containers. key is the member name inside an object and NULL elsewhere (the top level,
 * inside arrays). Deeper than WS_JSON_MAX_DEPTH, or an end that does not match, records
 * -EINVAL and writes nothing. */
void ws_json_object_begin(ws_json *j, const char *key);
void ws_json_object_end(ws_json *j);
void ws_json_array_begin(ws_json *j, const char *key);
void ws_json_array_inline_begin(ws_json *j, const char *key); /* kept on one line */
void ws_json_array_end(ws_json *j);

/* Values (key as above). ws_json_str writes null for s NULL; ws_json_double writes null for
 * a non-finite v. */
void ws_json_str(ws_json *j, const char *key, const char *s);
void ws_json_int(ws_json *j, const char *key, int64_t v);
void ws_json_uint(ws_json *j, const char *key, uint64_t v);
void ws_json_double(ws_json *j, const char *key, double v);
void ws_json_bool(ws_json *j, const char *key, bool v);
void ws_json_null(ws_json *j, const char *key);
/* A whole document this writer produced (text, e.g. a --json result captured in memory)
 * as one value, re-indented to its place (its newlines are layout: a JSON string holds
 * none raw); its final newline is dropped. NULL or empty text writes null. The text is
 * trusted to be one valid JSON value. */
void ws_json_document(ws_json *j, const char *key, const char *text);

/* End the document: checks that every container was closed, writes the final newline and
 * flushes. Returns 0 or the first error (negative). */
int ws_json_finish(ws_json *j);

/* The text of a number as the writer prints it into buf (at least 32 bytes): "null" for a
 * non-finite v, else the shortest of %.15g .. %.17g that reads back exactly. Returns the
 * length. */
int ws_json_format_double(double v, char *buf, size_t n);

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes there are not one
 * (bad lead, missing continuation, overlong form, surrogate, above U+10FFFF). s is
 * NUL-terminated; a NUL ends a sequence early (0). Shared with the SVG writer (svg.h). */
size_t ws_json_utf8_len(const unsigned char *s);

#endif
