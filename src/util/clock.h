/* SPDX-License-Identifier: BSD-2-Clause */
/* clock: the one monotonic nanosecond clock every measurement uses.
 *
 * CLOCK_MONOTONIC never jumps under NTP, unlike gettimeofday, so elapsed times and
 * deadlines are taken from it everywhere. The wall clock is only for printing epochs. */
#ifndef WS_UTIL_CLOCK_H
#define WS_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

#define WS_NS_PER_SEC 1000000000LL
#define WS_NS_PER_MS  1000000LL
#define WS_NS_PER_US  1000LL

static inline int64_t ws_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
}

static inline int64_t ws_clock_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
}

/* Sleep for ns nanoseconds (restarts after signals); ns <= 0 returns at once. */
void ws_clock_sleep_ns(int64_t ns);

/* Busy-wait until the monotonic clock reaches deadline_ns: for pacing finer than a sleep. */
void ws_clock_spin_until(int64_t deadline_ns);

/* Milliseconds left until deadline_ns, clamped to [0, INT32_MAX]: for poll() timeouts. */
int ws_clock_ms_until(int64_t deadline_ns);

#endif
