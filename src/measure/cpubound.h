/* SPDX-License-Identifier: BSD-2-Clause */
/* cpubound: the judgement "this side's CPU was the bottleneck", as a pure function of a
 * measured result, so the text notice and a JSON renderer give the same answer.
 *
 * On a small board (a 333 MHz PowerPC) the link is rarely the limit; the CPU is, and the
 * useful answer is to say so. Two rules, each against 90% of the measured interval:
 *   - thread: the side's test thread was on a CPU (user + system time, RUSAGE_THREAD) for
 *     at least 90% of the interval, i.e. it kept one core 90% busy. One thread cannot use
 *     more than one core, so this is the single-stream limit, on any number of CPUs.
 *   - host: the side's system-wide utilisation (netperf's -c/-C figure, averaged over all
 *     CPUs) was at least 90%, i.e. every CPU was 90% busy on average. On a single-core
 *     board this is "90% of its one core"; on a multi-core host it means more streams
 *     would not help either. Judged only when that side measured system-wide CPU.
 * A system-wide figure between one core's share and 90% of all of them (for example one
 * busy core of four) is deliberately not flagged: the thread rule already covers the
 * case where that one core is the test's own, and otherwise there is spare CPU. */
#ifndef WS_MEASURE_CPUBOUND_H
#define WS_MEASURE_CPUBOUND_H

#include <stdbool.h>
#include <stddef.h>

#include "model/result.h"

/* 90% of the interval, as a fraction. */
#define WS_CPUBOUND_THRESHOLD 0.9

/* One side's verdict. Fractions are of the side's own measured interval (elapsed_ns). */
typedef struct ws_cpubound_side {
	bool thread_known;  /* elapsed_ns > 0: thread_frac is meaningful */
	double thread_frac; /* (thread_user_ns + thread_sys_ns) / elapsed_ns; may exceed 1 a
	                        little, as the thread clock also covers set-up and tear-down */
	bool thread_bound;  /* thread_frac >= WS_CPUBOUND_THRESHOLD */
	bool host_known;    /* the side measured system-wide CPU (-c / -C) */
	double host_frac;   /* cpu_util / 100: mean busy share over all CPUs */
	bool host_bound;    /* host_frac >= WS_CPUBOUND_THRESHOLD */
	bool bound;         /* thread_bound || host_bound */
	bool sends;         /* this side writes the test's data (both sides in RR tests) */
	bool receives;      /* this side reads it */
} ws_cpubound_side;

typedef struct ws_cpubound {
	ws_cpubound_side local, remote;
	enum ws_test_type type; /* the test, for the advice */
	bool shared_host;       /* both sides on one host: their system-wide figures are one */
} ws_cpubound;

/* Judge both sides of res into *out. Never fails; a side without usable figures (elapsed
 * 0, CPU not measured, negative util) is simply not bound. res and out must not be NULL. */
void ws_cpubound_judge(const ws_test_result *res, ws_cpubound *out);

/* One line (without newline) telling a person that a side is CPU-bound, why, and what to
 * try, e.g. "the local side is CPU-bound (its test thread was busy 97% of the interval);
 * try -t TCP_SENDFILE, --zerocopy or more streams". side_name is "local" or "remote".
 * When shared_host is set and this is the remote side whose only reason is the host rule
 * already reported for the local side, nothing is written. Returns the snprintf-style length
 * written (0 when the side is not bound or nothing is to be said). */
size_t ws_cpubound_describe(const ws_cpubound *v, bool remote, char *buf, size_t n);

#endif
