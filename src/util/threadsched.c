/* SPDX-License-Identifier: BSD-2-Clause */
/* threadsched: the calling thread's involuntary switches and run-queue wait; see
 * threadsched.h. */
#include "util/threadsched.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

int64_t ws_thread_sched_parse(const char *text)
{
	const char *p = text;
	int64_t v = -1;
	for (int field = 0; field < 2; field++) {
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -1;
		char *end;
		unsigned long long x = strtoull(p, &end, 10);
		if (*end != ' ' && *end != '\n' && *end != 0)
			return -1;
		v = (int64_t)x;
		p = end;
	}
	return v;
}

void ws_thread_sched_now(ws_thread_sched *s)
{
	struct rusage ru;
	s->nivcsw = getrusage(RUSAGE_THREAD, &ru) == 0 ? (int64_t)ru.ru_nivcsw : -1;
	s->wait_ns = -1;
	char buf[128];
	int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n > 0) {
		buf[n] = 0;
		s->wait_ns = ws_thread_sched_parse(buf);
	}
}

ws_thread_sched ws_thread_sched_delta(const ws_thread_sched *before, const ws_thread_sched *after)
{
	ws_thread_sched d = {-1, -1};
	if (before->nivcsw >= 0 && after->nivcsw >= before->nivcsw)
		d.nivcsw = after->nivcsw - before->nivcsw;
	if (before->wait_ns >= 0 && after->wait_ns >= before->wait_ns)
		d.wait_ns = after->wait_ns - before->wait_ns;
	return d;
}
