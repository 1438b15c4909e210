/* SPDX-License-Identifier: BSD-2-Clause */
/* sched: a due-time heap and an ns-resolution epoll wait; see sched.h. */
#include "workload/sched.h"

#include "util/clock.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

int ws_sched_init(ws_sched *s, int ep, uint32_t cap, bool pwait2, ws_err *err)
{
	*s = (ws_sched){.ep = ep, .tfd = -1, .cap = cap};
	s->heap = calloc(cap ? cap : 1, sizeof(*s->heap));
	if (!s->heap)
		return ws_err_set(err, ENOMEM, "no memory for %u timers", cap);
#ifdef SYS_epoll_pwait2
	struct epoll_event ev;
	struct timespec zero = {0, 0};
	if (pwait2 && syscall(SYS_epoll_pwait2, ep, &ev, 1, &zero, NULL, 0) >= 0) {
		s->pwait2 = true;
		return 0;
	}
#endif
	s->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event tev = {.events = EPOLLIN, .data.u32 = WS_SCHED_TIMER_TAG};
	if (s->tfd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, s->tfd, &tev) < 0)
		return ws_err_errno(err, "no timer for the epoll loop (timerfd)");
	return 0;
}

void ws_sched_free(ws_sched *s)
{
	if (s->tfd >= 0)
		close(s->tfd);
	free(s->heap);
	s->heap = NULL;
	s->tfd = -1;
}

void ws_sched_push(ws_sched *s, int64_t due, uint32_t id)
{
	uint32_t k = s->n++;
	while (k > 0 && s->heap[(k - 1) / 2].due > due) {
		s->heap[k] = s->heap[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	s->heap[k] = (ws_sched_item){.due = due, .id = id};
}

uint32_t ws_sched_pop(ws_sched *s)
{
	uint32_t top = s->heap[0].id, k = 0;
	ws_sched_item last = s->heap[--s->n];
	for (;;) {
		uint32_t ch = 2 * k + 1;
		if (ch >= s->n)
			break;
		if (ch + 1 < s->n && s->heap[ch + 1].due < s->heap[ch].due)
			ch++;
		if (s->heap[ch].due >= last.due)
			break;
		s->heap[k] = s->heap[ch];
		k = ch;
	}
	if (s->n)
		s->heap[k] = last;
	return top;
}

int ws_sched_wait(ws_sched *s, struct epoll_event *ev, int nev, int64_t deadline)
{
	int64_t d = deadline - ws_clock_ns();
	if (d < 0)
		d = 0;
#ifdef SYS_epoll_pwait2
	if (s->pwait2) {
		struct timespec ts = {.tv_sec = d / WS_NS_PER_SEC, .tv_nsec = d % WS_NS_PER_SEC};
		return (int)syscall(SYS_epoll_pwait2, s->ep, ev, nev, &ts, NULL, 0);
	}
#endif
	if (d > 0 && deadline != s->armed) {
		struct itimerspec its = {.it_value = {.tv_sec = deadline / WS_NS_PER_SEC,
						      .tv_nsec = deadline % WS_NS_PER_SEC}};
		timerfd_settime(s->tfd, TFD_TIMER_ABSTIME, &its, NULL);
		s->armed = deadline;
	}
	int n = epoll_wait(s->ep, ev, nev, d > 0 ? -1 : 0);
	for (int k = 0; k < n; k++)
		if (ev[k].data.u32 == WS_SCHED_TIMER_TAG) {
			uint64_t ticks;
			if (read(s->tfd, &ticks, sizeof ticks) < 0)
				s->armed = 0;
			ev[k--] = ev[--n];
		}
	return n;
}
