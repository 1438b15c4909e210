/* SPDX-License-Identifier: BSD-2-Clause */
/* json_read: a bounded JSON reader for documents warpspeed wrote earlier and users hand
 * back (`warpspeed plot RESULT.json`).
 *
 * A saved file is outside input: it may be truncated, edited, huge or hostile. The reader
 * parses RFC 8259 JSON without recursion (an explicit stack, so nesting cannot exhaust
 * the C stack), stops at configurable limits on size, depth and value count, checks every
 * index against the length it was given (the text needs no NUL), and builds one flat array
 * of values plus one string pool: two allocations that grow, freed together. Strings are
 * unescaped to UTF-8 (\u0000 and lone surrogates become U+FFFD, so every string is a C
 * string); numbers are read in the C locale's form whatever LC_NUMERIC says. Errors name
 * the line, the column and what was expected. */
#ifndef WS_UTIL_JSON_READ_H
#define WS_UTIL_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ws_err;

enum ws_jtype { WS_J_NULL, WS_J_FALSE, WS_J_TRUE, WS_J_NUM, WS_J_STR, WS_J_ARR, WS_J_OBJ };

/* One value. Children of an array or object are linked through next (0: the last); the
 * root is value 0 and never anyone's sibling. */
typedef struct ws_jval {
	uint8_t type;   /* enum ws_jtype */
	uint32_t key;   /* member name in the pool (members of an object); UINT32_MAX: none */
	uint32_t str;   /* string value in the pool */
	uint32_t n;     /* string length in bytes, or number of children */
	uint32_t first; /* first child; 0: none */
	uint32_t next;  /* next sibling; 0: none */
	double num;
} ws_jval;

typedef struct ws_jdoc {
	ws_jval *v;
	size_t nv, cap;
	char *pool;
	size_t plen, pcap;
} ws_jdoc;

typedef struct ws_jlimits {
	size_t max_bytes;  /* 0: 64 MiB */
	size_t max_depth;  /* 0: 64 (at most 1024) */
	size_t max_values; /* 0: 4 Mi */
} ws_jlimits;

/* Parse text[0..len) into doc (lim NULL: the defaults). Returns 0, or -WS_E_INVAL with err
 * naming the line and column ("line 3, column 14: expected ',' or '}' after a member"), or
 * -ENOMEM / -E2BIG (a limit) with err saying which. doc is empty after an error. */
int ws_json_read(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc,
		 struct ws_err *err);
/* ws_json_read for a file format that must be exactly JSON (SigMF metadata): a member
 * name given twice in one object is an error too, and a syntax error is reported as
 * "<what> at byte N" (N counted from 0, the byte where the reader stopped) instead of by
 * line and column. */
int ws_json_read_strict(const char *text, size_t len, const ws_jlimits *lim, ws_jdoc *doc,
			struct ws_err *err);
void ws_jdoc_free(ws_jdoc *doc);

const ws_jval *ws_jroot(const ws_jdoc *d);
/* The member key of object o (the first with that name), or NULL (also when o is NULL or
 * not an object). */
const ws_jval *ws_jget(const ws_jdoc *d, const ws_jval *o, const char *key);
/* Members by a dotted path ("throughput.value"), from o; NULL when any step is missing. */
const ws_jval *ws_jpath(const ws_jdoc *d, const ws_jval *o, const char *path);
/* Children of an array or object in order: first, then next until NULL. */
const ws_jval *ws_jfirst(const ws_jdoc *d, const ws_jval *v);
const ws_jval *ws_jnext(const ws_jdoc *d, const ws_jval *v);
/* The number, or dflt when v is NULL or not a number. */
double ws_jnum(const ws_jval *v, double dflt);
/* The string, or NULL when v is NULL or not a string. */
const char *ws_jstr(const ws_jdoc *d, const ws_jval *v);
/* The member name of v, or NULL. */
const char *ws_jkey(const ws_jdoc *d, const ws_jval *v);

#endif
