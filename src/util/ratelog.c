/* SPDX-License-Identifier: BSD-2-Clause */
/* ratelog: a token bucket for log lines and the summary of those held back; see
 * ratelog.h. */
#include "util/ratelog.h"

#include <stdio.h>

void ws_ratelog_init(ws_ratelog *r, unsigned burst, double per_sec, int64_t now_ns)
{
	r->burst = burst ? burst : 1;
	r->tokens = r->burst;
	r->per_sec = per_sec > 0 ? per_sec : 1;
	r->last_ns = now_ns;
	r->held = 0;
	r->total = 0;
}

bool ws_ratelog_take(ws_ratelog *r, int64_t now_ns, unsigned long long *held)
{
	if (now_ns > r->last_ns) {
		r->tokens += (double)(now_ns - r->last_ns) * 1e-9 * r->per_sec;
		if (r->tokens > r->burst)
			r->tokens = r->burst;
		r->last_ns = now_ns;
	}
	*held = 0;
	if (r->tokens < 1) {
		r->held++;
		r->total++;
		return false;
	}
	r->tokens -= 1;
	*held = r->held;
	r->held = 0;
	return true;
}

unsigned long long ws_ratelog_drain(ws_ratelog *r)
{
	unsigned long long n = r->held;
	r->held = 0;
	return n;
}

/* n with a comma every three digits: 12,345. */
static void grouped(unsigned long long n, char *buf, size_t sz)
{
	char digits[32];
	int len = snprintf(digits, sizeof(digits), "%llu", n);
	size_t o = 0;
	for (int i = 0; i < len && o + 1 < sz; i++) {
		if (i > 0 && (len - i) % 3 == 0 && o + 2 < sz)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	if (sz)
		buf[o < sz ? o : sz - 1] = '\0';
}

void ws_ratelog_summary(const ws_ratelog *r, unsigned long long held, char *buf, size_t n)
{
	char num[40];
	grouped(held, num, sizeof(num));
	snprintf(
		buf, n,
		"... %s more like this (held back: at most %.0f lines at once, then %g per second)",
		num, r->burst, r->per_sec);
}
