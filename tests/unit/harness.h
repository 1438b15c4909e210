/* SPDX-License-Identifier: BSD-2-Clause */
/* harness: the smallest unit-test harness that does the job, header-only.
 *
 * Each test function prints one "PASS fn" or "FAIL fn" line, each failed check an indented
 * line with file:line and the values, and the program exits non-zero when anything failed. tests/run-all counts these lines, so
 * a test binary that crashes before printing is caught by its exit status. */
#ifndef WS_TEST_HARNESS_H
#define WS_TEST_HARNESS_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ws_t_failed, ws_t_passed;

#define WS_T_REPORT(ok, name, ...)                                                     \
	do {                                                                           \
		if (ok) {                                                              \
			ws_t_passed++;                                                 \
		} else {                                                               \
			ws_t_failed++;                                                 \
			printf("  check failed in %s (%s:%d): ", (name), __FILE__, __LINE__);       \
			printf(__VA_ARGS__);                                           \
			printf("\n");                                                  \
		}                                                                      \
	} while (0)

#define CHECK(name, cond) WS_T_REPORT((cond), (name), "%s is false", #cond)
#define CHECK_INT(name, got, want)                                                     \
	do {                                                                           \
		long long g_ = (long long)(got), w_ = (long long)(want);               \
		WS_T_REPORT(g_ == w_, (name), "%s = %lld, want %lld", #got, g_, w_);   \
	} while (0)
#define CHECK_U64(name, got, want)                                                     \
	do {                                                                           \
		unsigned long long g_ = (unsigned long long)(got),                     \
				   w_ = (unsigned long long)(want);                    \
		WS_T_REPORT(g_ == w_, (name), "%s = %llu (0x%llx), want %llu (0x%llx)", #got, \
			    g_, g_, w_, w_);                                           \
	} while (0)
#define CHECK_DBL(name, got, want, tol)                                                \
	do {                                                                           \
		double g_ = (got), w_ = (want);                                        \
		WS_T_REPORT(fabs(g_ - w_) <= (tol), (name), "%s = %.9g, want %.9g", #got, g_, \
			    w_);                                                       \
	} while (0)
#define CHECK_STR(name, got, want)                                                     \
	do {                                                                           \
		const char *g_ = (got), *w_ = (want);                                  \
		WS_T_REPORT(g_ && w_ && strcmp(g_, w_) == 0, (name),                   \
			    "%s =\n[%s]\nwant\n[%s]", #got, g_ ? g_ : "(null)",        \
			    w_ ? w_ : "(null)");                                       \
	} while (0)
#define CHECK_MEM(name, got, want, n)                                                  \
	WS_T_REPORT(memcmp((got), (want), (n)) == 0, (name), "%s differs from %s over %zu bytes", \
		    #got, #want, (size_t)(n))

/* One PASS line per test function keeps the output short; failures are itemised. */
#define RUN(fn)                                                                        \
	do {                                                                           \
		int before_ = ws_t_failed;                                             \
		fn();                                                                  \
		if (ws_t_failed == before_)                                            \
			printf("PASS %s\n", #fn);                                      \
		else                                                                   \
			printf("FAIL %s\n", #fn);                                      \
	} while (0)

#define TEST_MAIN_END() return ws_t_failed ? 1 : 0

/* A golden file, tests/goldens/netperf/<name>.txt below $WS_ROOT (or the working
 * directory), read whole into a heap buffer with `spare` bytes free after its end for
 * in-place substitutions; NULL when it cannot be read. The caller frees it. */
static inline char *ws_t_golden(const char *name, size_t spare)
{
	const char *root = getenv("WS_ROOT");
	char path[1024];
	snprintf(path, sizeof(path), "%s%stests/goldens/netperf/%s.txt", root ? root : "",
		 root ? "/" : "", name);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = (1 << 16) + spare;
	char *buf = calloc(1, cap + 1);
	size_t n = buf ? fread(buf, 1, cap - spare, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

#endif
