/* SPDX-License-Identifier: BSD-2-Clause */
/* units: size, integer and two-value parsing; see units.h. */
#include "util/units.h"

#include "util/err.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ws_unit_suffix {
	char suffix;
	uint64_t scale;
};

/* Binary family first so that formatting prefers K/M/G. */
static const struct ws_unit_suffix size_suffixes[] = {
	{'G', 1ULL << 30},    {'M', 1ULL << 20}, {'K', 1ULL << 10},
	{'g', 1000000000ULL}, {'m', 1000000ULL}, {'k', 1000ULL},
};

#define SIZE_FORMS                                                                               \
	"a whole number of bytes with an optional suffix K, M, G (2^10, 2^20, 2^30) or k, m, g " \
	"(10^3, 10^6, 10^9), e.g. 131072 or 128K"

int ws_units_parse_size(const char *s, uint64_t *out, ws_err *err)
{
	if (!s || !*s)
		return ws_err_set(err, WS_E_INVAL, "empty size; expected %s", SIZE_FORMS);
	if (!isdigit((unsigned char)s[0]))
		return ws_err_set(err, WS_E_INVAL, "'%s' is not a size; expected %s", s,
				  SIZE_FORMS);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return ws_err_set(err, WS_E_INVAL, "'%s' is too large", s);
	uint64_t scale = 1;
	if (*end) {
		size_t i;
		for (i = 0; i < sizeof(size_suffixes) / sizeof(size_suffixes[0]); i++)
			if (size_suffixes[i].suffix == *end)
				break;
		if (i == sizeof(size_suffixes) / sizeof(size_suffixes[0]) || end[1] != '\0')
			return ws_err_set(err, WS_E_INVAL,
					  "'%s' has an unknown suffix '%s'; expected %s", s, end,
					  SIZE_FORMS);
		scale = size_suffixes[i].scale;
	}
	if (v > UINT64_MAX / scale)
		return ws_err_set(err, WS_E_INVAL, "'%s' is too large", s);
	*out = (uint64_t)v * scale;
	return 0;
}

int ws_units_parse_int(const char *s, long long min, long long max, long long *out, ws_err *err)
{
	if (!s || !*s)
		return ws_err_set(err, WS_E_INVAL,
				  "empty value; expected an integer from %lld to %lld", min, max);
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, 10);
	if (*end || end == s || isspace((unsigned char)s[0]))
		return ws_err_set(err, WS_E_INVAL, "'%s' is not an integer; expected %lld to %lld",
				  s, min, max);
	if (errno == ERANGE || v < min || v > max)
		return ws_err_set(err, WS_E_INVAL, "%s is out of range; expected %lld to %lld", s,
				  min, max);
	*out = v;
	return 0;
}

int ws_units_parse_double(const char *s, double min, double max, double *out, ws_err *err)
{
	if (!s || !*s)
		return ws_err_set(err, WS_E_INVAL, "empty value; expected a number from %g to %g",
				  min, max);
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (*end || end == s || isspace((unsigned char)s[0]) || !isfinite(v))
		return ws_err_set(err, WS_E_INVAL, "'%s' is not a number; expected %g to %g", s,
				  min, max);
	if (errno == ERANGE || v < min || v > max)
		return ws_err_set(err, WS_E_INVAL, "%s is out of range; expected %g to %g", s, min,
				  max);
	*out = v;
	return 0;
}

static void copy_part(char *dst, size_t dsz, const char *src, size_t n)
{
	if (!dsz)
		return;
	if (n >= dsz)
		n = dsz - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

int ws_units_split_pair(const char *s, char *a, size_t asz, char *b, size_t bsz, int *have_a,
			int *have_b, int *single, ws_err *err)
{
	*have_a = *have_b = *single = 0;
	copy_part(a, asz, "", 0);
	copy_part(b, bsz, "", 0);
	if (!s || !*s)
		return ws_err_set(err, WS_E_INVAL, "empty value; expected x, x,y, x, or ,y");
	const char *comma = strchr(s, ',');
	if (!comma) {
		copy_part(a, asz, s, strlen(s));
		*have_a = *single = 1;
		return 0;
	}
	if (strchr(comma + 1, ','))
		return ws_err_set(err, WS_E_INVAL,
				  "'%s' has more than two values; expected x, x,y, x, or ,y", s);
	if (comma == s && comma[1] == '\0')
		return ws_err_set(err, WS_E_INVAL, "',' has no value; expected x, x,y, x, or ,y");
	if (comma > s) {
		copy_part(a, asz, s, (size_t)(comma - s));
		*have_a = 1;
	}
	if (comma[1]) {
		copy_part(b, bsz, comma + 1, strlen(comma + 1));
		*have_b = 1;
	}
	return 0;
}

void ws_units_format_size(uint64_t bytes, char *buf, size_t bufsz)
{
	for (size_t i = 0; i < 3; i++) {
		uint64_t sc = size_suffixes[i].scale;
		if (bytes >= sc && bytes % sc == 0) {
			snprintf(buf, bufsz, "%llu%c", (unsigned long long)(bytes / sc),
				 size_suffixes[i].suffix);
			return;
		}
	}
	snprintf(buf, bufsz, "%llu", (unsigned long long)bytes);
}

void ws_units_format_iec(uint64_t bytes, char *buf, size_t bufsz)
{
	static const char *const names[] = {"GiB", "MiB", "KiB"};
	for (size_t i = 0; i < 3; i++) {
		uint64_t sc = size_suffixes[i].scale;
		if (bytes < sc)
			continue;
		if (bytes % sc == 0)
			snprintf(buf, bufsz, "%llu %s", (unsigned long long)(bytes / sc), names[i]);
		else
			snprintf(buf, bufsz, "%.1f %s", (double)bytes / (double)sc, names[i]);
		return;
	}
	snprintf(buf, bufsz, "%llu B", (unsigned long long)bytes);
}
