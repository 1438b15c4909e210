/* SPDX-License-Identifier: BSD-2-Clause */
/* units: parsing of the numbers users type on netperf-style command lines.
 *
 * Sizes take netperf's suffixes: K M G are powers of 2^10, k m g powers of 10^3. Each
 * family is one table of suffix and scale, used for parsing and for formatting, and an
 * unknown suffix is refused with the accepted forms, never silently ignored. The caller
 * prefixes the option name onto the message. */
#ifndef WS_UTIL_UNITS_H
#define WS_UTIL_UNITS_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;

/* Parse a non-negative size like "131072", "128K", "10m". Fills *out; on error *out is
 * unchanged and err names the value and the accepted forms. */
int ws_units_parse_size(const char *s, uint64_t *out, struct ws_err *err);

/* Parse a signed decimal integer within [min, max], no suffix. */
int ws_units_parse_int(const char *s, long long min, long long max, long long *out,
		       struct ws_err *err);

/* Parse a decimal floating-point number within [min, max]. */
int ws_units_parse_double(const char *s, double min, double max, double *out, struct ws_err *err);

/* netperf's two-value syntax: "x", "x,y", "x," or ",y". Copies each half into a and b
 * (NUL-terminated, truncated to the buffer sizes) and sets *have_a / *have_b. "x" alone
 * sets only a and *single = 1; the caller decides whether it also means b.
 * Returns 0, or an error for an empty string, ",", or more than one comma. */
int ws_units_split_pair(const char *s, char *a, size_t asz, char *b, size_t bsz, int *have_a,
			int *have_b, int *single, struct ws_err *err);

/* Format bytes with the largest binary suffix that divides it exactly ("128K"). */
void ws_units_format_size(uint64_t bytes, char *buf, size_t bufsz);

/* Format bytes for people: "1 GiB", "1.5 MiB", "512 B" (whole numbers where exact, else
 * one decimal of the largest binary unit it reaches). */
void ws_units_format_iec(uint64_t bytes, char *buf, size_t bufsz);

#endif
