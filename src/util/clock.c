/* SPDX-License-Identifier: BSD-2-Clause */
/* clock: sleeping and spinning on the monotonic clock; see clock.h. */
#include "util/clock.h"

#include <errno.h>

void ws_clock_sleep_ns(int64_t ns)
{
	if (ns <= 0)
		return;
	struct timespec ts = {.tv_sec = ns / WS_NS_PER_SEC, .tv_nsec = ns % WS_NS_PER_SEC};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void ws_clock_spin_until(int64_t deadline_ns)
{
	while (ws_clock_ns() < deadline_ns)
		;
}

int ws_clock_ms_until(int64_t deadline_ns)
{
	int64_t left = deadline_ns - ws_clock_ns();
	if (left <= 0)
		return 0;
	int64_t ms = (left + WS_NS_PER_MS - 1) / WS_NS_PER_MS;
	return ms > 0x7fffffff ? 0x7fffffff : (int)ms;
}
