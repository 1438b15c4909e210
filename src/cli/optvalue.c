/* SPDX-License-Identifier: BSD-2-Clause */
/* optvalue: the value forms shared by the option tables; see optvalue.h. */
#include "cli/optvalue.h"

#include "cli/options.h"
#include "util/err.h"
#include "util/units.h"

#include <string.h>
#include <strings.h>

/* netperf's two-value syntax. `both` makes a single value set both halves; without it (the
 * -D -F -H -L -p rule) it sets only the first. a and b must hold WS_CLI_PATH_MAX bytes. */
int ws_cli_split2(const char *val, bool both, char *a, char *b, int *have_a, int *have_b,
		  ws_err *err)
{
	if (strlen(val) >= WS_CLI_PATH_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "value of %zu characters is too long; expected at most %d",
				  strlen(val), WS_CLI_PATH_MAX - 1);
	int single;
	int rc = ws_units_split_pair(val, a, WS_CLI_PATH_MAX, b, WS_CLI_PATH_MAX, have_a, have_b,
				     &single, err);
	if (rc < 0)
		return rc;
	if (single && both) {
		memcpy(b, a, WS_CLI_PATH_MAX);
		*have_b = 1;
	}
	return 0;
}

/* A whole number in [min, max] with the option's own wording of what is accepted. */
int ws_cli_parse_ranged(const char *s, long long min, long long max, const char *what,
			long long *out, ws_err *err)
{
	if (ws_units_parse_int(s, min, max, out, NULL) < 0)
		return ws_err_set(err, WS_E_INVAL, "'%s' is not valid; expected %s", s, what);
	return 0;
}

/* A size with K/M/G or k/m/g suffix in [min, 2^30]. */
int ws_cli_parse_size32(const char *s, uint64_t min, uint32_t *out, ws_err *err)
{
	uint64_t v;
	int rc = ws_units_parse_size(s, &v, err);
	if (rc < 0)
		return rc;
	if (v < min)
		return ws_err_set(err, WS_E_INVAL, "'%s' is too small: must be at least %llu", s,
				  (unsigned long long)min);
	if (v > WS_CLI_MAX_SIZE)
		return ws_err_set(err, WS_E_INVAL, "'%s' is too large: must be at most %llu (1G)",
				  s, WS_CLI_MAX_SIZE);
	*out = (uint32_t)v;
	return 0;
}

int ws_cli_parse_sockbuf(const char *s, uint32_t *out, ws_err *err)
{
	uint64_t v;
	bool neg = s[0] == '-';
	if (ws_units_parse_size(s + neg, &v, NULL) < 0 || v > WS_CLI_MAX_SIZE)
		return ws_err_set(
			err, WS_E_INVAL,
			"'%s' is not a socket buffer size; expected bytes from 0 to 1G with an "
			"optional K/M/G (2^10..) or k/m/g (10^3..) suffix, 0 for the kernel's "
			"minimum or a negative size (-1) for the system default",
			s);
	*out = neg ? 0 : v == 0 ? WS_SOCKBUF_ZERO : (uint32_t)v;
	return 0;
}

int ws_cli_parse_rate(const char *val, double *out, ws_err *err)
{
	static const struct {
		char suffix;
		double scale;
	} scales[] = {{'k', 1e3}, {'K', 1e3}, {'m', 1e6}, {'M', 1e6}};
	char num[64];
	size_t n = strlen(val);
	double scale = 1, v;
	for (size_t i = 0; n > 1 && i < sizeof(scales) / sizeof(scales[0]); i++)
		if (val[n - 1] == scales[i].suffix) {
			scale = scales[i].scale;
			n--;
		}
	if (n < sizeof(num)) {
		memcpy(num, val, n);
		num[n] = '\0';
	}
	if (n >= sizeof(num) || ws_units_parse_double(num, 0, 1e300, &v, NULL) < 0 ||
	    !(v * scale > 0) || v * scale > WS_RR_MAX_RATE)
		return ws_err_set(
			err, WS_E_INVAL,
			"'%s' is not a rate; expected transactions/s per flow above 0 and at most "
			"%g, optionally with k or m (10^3, 10^6), e.g. 10000 or 10k",
			val, WS_RR_MAX_RATE);
	*out = v * scale;
	return 0;
}

int ws_cli_parse_family(const char *s, enum ws_family *out, ws_err *err)
{
	static const struct {
		const char *name;
		enum ws_family fam;
		/* clang-format off */
	} names[] = {
		{"4", WS_FAMILY_INET}, {"inet", WS_FAMILY_INET}, {"af_inet", WS_FAMILY_INET},
		{"6", WS_FAMILY_INET6}, {"inet6", WS_FAMILY_INET6}, {"af_inet6", WS_FAMILY_INET6},
		{"0", WS_FAMILY_ANY}, {"unspec", WS_FAMILY_ANY}, {"af_unspec", WS_FAMILY_ANY},
	};
	/* clang-format on */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcasecmp(s, names[i].name) == 0) {
			*out = names[i].fam;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not an address family; expected 4, 6, inet, inet6 or unspec", s);
}
