/* SPDX-License-Identifier: BSD-2-Clause */
/* cpu: what a test cost in CPU, measured the netperf way and a little better.
 *
 * netperf's Linux figure is system-wide: per-CPU /proc/stat counters at start and stop,
 * util = 100 - 100 * idle / total per CPU, averaged over CPUs, and service demand (us of
 * CPU per KB or per transaction) derived from it. We compute the same figure so numbers
 * compare with netperf, split it into user/system/softirq/irq/iowait parts, and also record
 * the calling thread's own CPU time (RUSAGE_THREAD), which, unlike the system-wide figure,
 * is not charged with everything else the host was doing. Nothing here prints or keeps
 * state: a snapshot is a plain value the caller owns. */
#ifndef WS_MEASURE_CPU_H
#define WS_MEASURE_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "model/result.h"

struct ws_err;

/* CPU ids 0..WS_CPU_MAX-1 are supported; a /proc/stat naming a higher id is refused. */
#define WS_CPU_MAX 1024

/* The method letter netperf prints after '%': S = /proc/stat. */
#define WS_CPU_METHOD_PROC_STAT 'S'
/* ... and U for a side whose CPU was not asked for (-c without -C, or -C without -c). */
#define WS_CPU_METHOD_UNKNOWN 'U'

/* The eight /proc/stat fields that make up a CPU's total, in file order. */
enum ws_cpu_field {
	WS_CPU_USER = 0,
	WS_CPU_NICE,
	WS_CPU_SYSTEM,
	WS_CPU_IDLE,
	WS_CPU_IOWAIT,
	WS_CPU_IRQ,
	WS_CPU_SOFTIRQ,
	WS_CPU_STEAL,
	WS_CPU_NFIELDS
};

/* One moment: every cpuN line of /proc/stat (in USER_HZ ticks), indexed by CPU id, plus
 * the calling thread's CPU time and the monotonic time of the reading. Fixed size (about
 * 66 KB) so it needs no free; keep it in a session struct or on the heap rather than on a
 * small thread stack. */
typedef struct ws_cpu_snapshot {
	uint64_t ticks[WS_CPU_MAX][WS_CPU_NFIELDS];
	bool present[WS_CPU_MAX]; /* this cpuN line was in the text */
	uint32_t ncpus;           /* number of present CPUs */
	uint32_t max_id;          /* highest present id + 1 */
	int64_t thread_user_ns;   /* RUSAGE_THREAD of the taker; 0 from _parse */
	int64_t thread_sys_ns;
	int64_t taken_ns; /* ws_clock_ns() at the reading; 0 from _parse */
	long ticks_per_s; /* /proc/stat's unit (USER_HZ); 0 from _parse */
} ws_cpu_snapshot;

/* Utilisation between two snapshots, each percentage averaged over the CPUs counted. */
typedef struct ws_cpu_usage {
	double util; /* 100 - idle share: netperf's figure */
	double user; /* user + nice */
	double system;
	double softirq;
	double irq;
	double iowait;
	double steal;
	double unaccounted; /* wall time in no counter, counted as busy (see ws_cpu_util) */
	double peak_util;   /* the busiest single CPU */
	int peak_cpu;       /* its id */
	uint32_t ncpus;     /* CPUs present in both snapshots */
	uint32_t clamped;   /* counters that went backwards and were counted as 0 */
	char method;        /* WS_CPU_METHOD_PROC_STAT */
} ws_cpu_usage;

/* Read /proc/stat and the calling thread's rusage into *snap. Returns 0, or a negative code
 * with err naming what failed (open/read error, or a parse error as for _parse). */
int ws_cpu_snapshot_take(ws_cpu_snapshot *snap, struct ws_err *err);

/* Parse /proc/stat text into *snap (thread times and timestamp set to 0). Every "cpuN"
 * line needs at least user, nice, system and idle; missing later fields (old kernels)
 * count as 0, fields after steal (guest, already inside user) are ignored, and the
 * aggregate "cpu" line and all other lines are skipped. Refused: a non-numeric or
 * overflowing field, fewer than 4 fields, an id >= WS_CPU_MAX, a duplicate id, or no cpuN
 * line at all. On error *snap is unspecified. */
int ws_cpu_snapshot_parse(const char *proc_stat_text, ws_cpu_snapshot *snap, struct ws_err *err);

/* Utilisation from start to end over the CPUs present in both. Per CPU the deltas of the 8
 * fields are summed into total; a CPU whose total did not move counts as 0% busy (it is
 * still averaged in, as netperf would). A counter that went backwards (iowait does so on
 * NO_HZ kernels) is clamped to a delta of 0 and counted in out->clamped rather than
 * failing the test. When both snapshots were taken (not parsed), a CPU whose fields add up
 * to less than the wall time between them, by more than 2 ticks and 1%, counts the missing
 * time as busy: kernels that account CPU time by tick without IRQ_TIME_ACCOUNTING record
 * interrupt work that wakes an idle CPU (a qdisc timer sending queued packets, say) in no
 * field at all, so netperf's idle share alone would call that work idle.
 * Errors: no CPU in common. */
int ws_cpu_util(const ws_cpu_snapshot *start, const ws_cpu_snapshot *end, ws_cpu_usage *out,
		struct ws_err *err);

/* Service demand: CPU microseconds spent per unit of work, all CPUs counted:
 * (util_pct / 100) * ncpus * elapsed_us / (units / unit_bytes).
 * Streams pass bytes and unit_bytes = 1024 (us/KB); RR passes transactions and
 * unit_bytes = 1 (us/Tr). Returns 0 when units is 0, unit_bytes <= 0 or the result is not
 * finite, so callers never print NaN or inf. */
double ws_cpu_service_demand(double util_pct, uint32_t ncpus, int64_t elapsed_ns, uint64_t units,
			     double unit_bytes);

/* Fill side's CPU fields from two snapshots taken by the same thread: cpu_measured = true,
 * cpu_util/user/system/softirq, cpu_method, ncpus, and thread_user_ns/thread_sys_ns as the
 * deltas (clamped at 0). On error side is unchanged. */
int ws_cpu_fill_side(ws_side_result *side, const ws_cpu_snapshot *start, const ws_cpu_snapshot *end,
		     struct ws_err *err);

/* Best effort: copy gethostname() into side->hostname and the kernel's boot_id into
 * side->boot_id, each NUL-terminated and truncated to its field. Whatever cannot be read
 * is left as an empty string. Returns 0 when both were read, else a negative code. */
int ws_cpu_identify_host(ws_side_result *side);

/* True when both sides carry the same non-empty boot_id: one kernel ran both ends, so the
 * system-wide CPU figures are one and the same measurement. */
bool ws_cpu_same_host(const ws_side_result *a, const ws_side_result *b);

/* Number of online CPUs (sysconf), at least 1. */
uint32_t ws_cpu_online_count(void);

/* The /proc/stat method's rate, what netperf's LOC_CPU and REM_CPU print and netserver
 * answers CPU_CALIBRATE with: clock ticks per second (sysconf; 100 when unknown). */
double ws_cpu_rate(void);

#endif
