/* SPDX-License-Identifier: BSD-2-Clause */
/* affinity: pinning the calling thread to one CPU (netperf's -T).
 *
 * Pinning is per thread, not per process, so a daemon session can pin itself without
 * moving other sessions; a CPU that does not exist or is not allowed is an error that
 * names it and the CPUs that are allowed. */
#ifndef WS_UTIL_AFFINITY_H
#define WS_UTIL_AFFINITY_H

struct ws_err;

/* 0 when cpu exists and this process may run on it, else an error naming the CPUs that
 * are allowed. */
int ws_affinity_check(int cpu, struct ws_err *err);

/* Pin the calling thread to cpu. */
int ws_affinity_pin_self(int cpu, struct ws_err *err);

/* The CPU the calling thread runs on now, or -1. */
int ws_affinity_current_cpu(void);

#endif
