/* SPDX-License-Identifier: BSD-2-Clause */
/* optvalue: how option values are read, shared by the netperf letter tables (options.c)
 * and warpspeed's long options (longopts.c): netperf's "x,y" two-value syntax, ranged
 * whole numbers and sizes with K/M/G suffixes, each with a message that names the value
 * and what is accepted. */
#ifndef WS_CLI_OPTVALUE_H
#define WS_CLI_OPTVALUE_H

#include "model/spec.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* Larger than any kernel grants, and what ws_test_spec_validate accepts. */
#define WS_CLI_MAX_SIZE (1ULL << 30)

/* netperf's two-value syntax. `both` makes a single value set both halves; without it (the
 * -D -F -H -L -p rule) it sets only the first. a and b must hold WS_CLI_PATH_MAX bytes. */
int ws_cli_split2(const char *val, bool both, char *a, char *b, int *have_a, int *have_b,
		  struct ws_err *err);
/* A whole number in [min, max]; what says what is accepted. */
int ws_cli_parse_ranged(const char *s, long long min, long long max, const char *what,
			long long *out, struct ws_err *err);
/* An address family as netperf names it: 4, 6, 0 or inet, inet6, unspec (af_ prefix
 * allowed, any case). */
int ws_cli_parse_family(const char *s, enum ws_family *out, struct ws_err *err);
/* A size with K/M/G or k/m/g suffix in [min, 2^30]. */
int ws_cli_parse_size32(const char *s, uint64_t min, uint32_t *out, struct ws_err *err);
/* A socket buffer size as netperf's -s / -S take it: a size with K/M/G or k/m/g suffix up to
 * 2^30; 0 becomes WS_SOCKBUF_ZERO (set 0: the kernel's minimum) and any negative size 0 (the
 * system default, netperf's -1). */
int ws_cli_parse_sockbuf(const char *s, uint32_t *out, struct ws_err *err);
/* --rate's value: transactions/s per flow above 0 and at most WS_RR_MAX_RATE, a decimal
 * number with an optional k or m (10^3, 10^6; K and M mean the same, as a rate is a count,
 * not a size). */
int ws_cli_parse_rate(const char *s, double *out, struct ws_err *err);

#endif
