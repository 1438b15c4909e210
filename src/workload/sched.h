/* SPDX-License-Identifier: BSD-2-Clause */
/* sched: the timers of an epoll worker thread: a min-heap of due times, and a wait on the
 * epoll set with nanosecond resolution that does not spin.
 *
 * An open-loop flow must send at its intended time, not at the next millisecond
 * epoll_wait can express: epoll_pwait2 (Linux 5.11) takes a timespec; before it, a
 * timerfd armed at the absolute deadline joins the epoll set. Which one ran is decided
 * once per thread, by trying epoll_pwait2. */
#ifndef WS_WORKLOAD_SCHED_H
#define WS_WORKLOAD_SCHED_H

#include "util/err.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>

/* The epoll data of the fallback timerfd's event; ws_sched_wait consumes it. */
#define WS_SCHED_TIMER_TAG UINT32_MAX

typedef struct ws_sched_item {
	int64_t due;
	uint32_t id;
} ws_sched_item;

typedef struct ws_sched {
	int ep;  /* the thread's epoll set (not owned) */
	int tfd; /* fallback timer, -1 with epoll_pwait2 */
	bool pwait2;
	int64_t armed;
	ws_sched_item *heap; /* min-heap by due */
	uint32_t n, cap;
} ws_sched;

/* cap: the most items at once; pwait2: use epoll_pwait2 when the kernel has it (false
 * forces the timerfd, for tests). Returns 0 or an error (no memory, no timer). */
int ws_sched_init(ws_sched *s, int ep, uint32_t cap, bool pwait2, ws_err *err);
void ws_sched_free(ws_sched *s);

/* Items: push (the caller keeps each id in at most once, within cap), the earliest, pop. */
void ws_sched_push(ws_sched *s, int64_t due, uint32_t id);
static inline bool ws_sched_due(const ws_sched *s, int64_t now)
{
	return s->n > 0 && s->heap[0].due <= now;
}
static inline int64_t ws_sched_next(const ws_sched *s, int64_t otherwise)
{
	return s->n > 0 && s->heap[0].due < otherwise ? s->heap[0].due : otherwise;
}
uint32_t ws_sched_pop(ws_sched *s);

/* Wait for up to nev events until deadline (monotonic ns). Returns the count (the timer's
 * own event is removed), 0 at the deadline, or -1 with errno. */
int ws_sched_wait(ws_sched *s, struct epoll_event *ev, int nev, int64_t deadline);

#endif
