/* SPDX-License-Identifier: BSD-2-Clause */
/* affinity: sched_setaffinity for the calling thread; see affinity.h. */
#include "util/affinity.h"

#include "util/err.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

int ws_affinity_check(int cpu, ws_err *err)
{
	cpu_set_t allowed;
	CPU_ZERO(&allowed);
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return ws_err_errno(err, "sched_getaffinity");
	if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) {
		char list[128] = "";
		size_t n = 0;
		for (int i = 0; i < CPU_SETSIZE && n + 8 < sizeof(list); i++)
			if (CPU_ISSET(i, &allowed))
				n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d",
						      n ? "," : "", i);
		return ws_err_set(err, WS_E_INVAL,
				  "CPU %d does not exist or is not allowed; available: %s", cpu,
				  list);
	}
	return 0;
}

int ws_affinity_pin_self(int cpu, ws_err *err)
{
	int rc = ws_affinity_check(cpu, err);
	if (rc < 0)
		return rc;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc != 0) {
		errno = rc;
		return ws_err_errno(err, "pin to CPU %d", cpu);
	}
	return 0;
}

int ws_affinity_current_cpu(void) { return sched_getcpu(); }
