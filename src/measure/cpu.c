/* SPDX-License-Identifier: BSD-2-Clause */
/* cpu: /proc/stat snapshots, utilisation, service demand and host identity; see cpu.h.
 *
 * The parser is hand-written rather than sscanf-based so that a truncated, signed or
 * overflowing field is refused with the line and field named, instead of being read as 0
 * or wrapped, and so that tests can feed recorded text through the very same code. */
#include "measure/cpu.h"

#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Shortfalls of a CPU's counters against the wall clock below this are the snapshots'
 * own tick granularity, not missing work (see ws_cpu_util). */
#define MISSING_TICKS_MIN 2.0
#define MISSING_SHARE_MIN 0.01
#define MIN_FIELDS        4 /* user nice system idle: present on every kernel since 2.4 */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Parse an unsigned decimal at *p into *out, advancing *p. Fails on no digits or overflow. */
static bool parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	if (s >= end || *s < '0' || *s > '9')
		return false;
	while (s < end && *s >= '0' && *s <= '9') {
		unsigned d = (unsigned)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
		s++;
	}
	*p = s;
	*out = v;
	return true;
}

/* One "cpuN f1 f2 ..." line, [line, end) without the newline. */
static int parse_cpu_line(const char *line, const char *end, unsigned lineno, ws_cpu_snapshot *snap,
			  ws_err *err)
{
	const char *p = line + 3;
	uint64_t id;
	if (!parse_u64(&p, end, &id) || (p < end && !is_blank(*p))) {
		const char *tok = line;
		while (tok < end && !is_blank(*tok))
			tok++;
		return ws_err_set(err, WS_E_INVAL,
				  "/proc/stat line %u: '%.*s' is not a cpuN label (N a CPU number)",
				  lineno, (int)(tok - line), line);
	}
	if (id >= WS_CPU_MAX)
		return ws_err_set(err, WS_E_INVAL,
				  "/proc/stat line %u: cpu%llu is beyond the %d CPUs supported",
				  lineno, (unsigned long long)id, WS_CPU_MAX);
	if (snap->present[id])
		return ws_err_set(err, WS_E_INVAL, "/proc/stat line %u: cpu%llu appears twice",
				  lineno, (unsigned long long)id);
	uint64_t v[WS_CPU_NFIELDS] = {0};
	int n = 0;
	for (;;) {
		while (p < end && is_blank(*p))
			p++;
		if (p >= end)
			break;
		uint64_t x;
		if (!parse_u64(&p, end, &x) || (p < end && !is_blank(*p)))
			return ws_err_set(
				err, WS_E_INVAL,
				"/proc/stat line %u (cpu%llu): field %d is not an unsigned "
				"64-bit count of ticks",
				lineno, (unsigned long long)id, n + 1);
		if (n < WS_CPU_NFIELDS)
			v[n] = x;
		n++;
	}
	if (n < MIN_FIELDS)
		return ws_err_set(err, WS_E_INVAL,
				  "/proc/stat line %u (cpu%llu): %d fields; expected at least %d "
				  "(user nice system idle ...)",
				  lineno, (unsigned long long)id, n, MIN_FIELDS);
	memcpy(snap->ticks[id], v, sizeof(v));
	snap->present[id] = true;
	snap->ncpus++;
	if (id + 1 > snap->max_id)
		snap->max_id = (uint32_t)id + 1;
	return 0;
}

int ws_cpu_snapshot_parse(const char *text, ws_cpu_snapshot *snap, ws_err *err)
{
	if (!text || !snap)
		return ws_err_set(err, WS_E_INVAL, "cpu snapshot: no /proc/stat text to parse");
	memset(snap, 0, sizeof(*snap));
	unsigned lineno = 0;
	const char *line = text;
	while (*line) {
		const char *nl = strchr(line, '\n');
		const char *end = nl ? nl : line + strlen(line);
		lineno++;
		/* Only per-CPU lines matter; "cpu " is the aggregate and the rest (intr, ctxt,
		 * btime, ...) are other statistics. */
		if (end - line > 3 && strncmp(line, "cpu", 3) == 0 && !is_blank(line[3])) {
			int rc = parse_cpu_line(line, end, lineno, snap, err);
			if (rc)
				return rc;
		}
		line = nl ? nl + 1 : end;
	}
	if (snap->ncpus == 0)
		return ws_err_set(
			err, WS_E_INVAL,
			"/proc/stat: no cpuN lines found in %u lines; expected lines like "
			"'cpu0 user nice system idle iowait irq softirq steal'",
			lineno);
	return 0;
}

static int64_t timeval_ns(struct timeval tv)
{
	return (int64_t)tv.tv_sec * WS_NS_PER_SEC + (int64_t)tv.tv_usec * WS_NS_PER_US;
}

/* Read a whole small file into a NUL-terminated heap buffer *out; /proc files report size
 * 0, so the buffer grows as it reads, up to limit bytes. */
static int slurp(const char *path, size_t limit, char **out, ws_err *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return ws_err_errno(err, "open %s", path);
	size_t cap = 16384, len = 0;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (len + 1 >= cap) {
			if (cap >= limit) {
				rc = ws_err_set(err, WS_E_LIMIT, "read %s: larger than %zu bytes",
						path, limit);
				break;
			}
			char *nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		size_t n = fread(buf + len, 1, cap - 1 - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				rc = ws_err_errno(err, "read %s", path);
			break;
		}
	}
	if (rc == 0 && (!buf || len + 1 >= cap))
		rc = ws_err_set(err, ENOMEM, "read %s: out of memory", path);
	fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}

int ws_cpu_snapshot_take(ws_cpu_snapshot *snap, ws_err *err)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0)
		return ws_err_errno(err, "cpu snapshot: getrusage(RUSAGE_THREAD)");
	int64_t now = ws_clock_ns();
	char *text = NULL;
	int rc = slurp("/proc/stat", 64u << 20, &text, err);
	if (rc)
		return rc;
	rc = ws_cpu_snapshot_parse(text, snap, err);
	free(text);
	if (rc)
		return rc;
	snap->thread_user_ns = timeval_ns(ru.ru_utime);
	snap->thread_sys_ns = timeval_ns(ru.ru_stime);
	snap->taken_ns = now;
	snap->ticks_per_s = sysconf(_SC_CLK_TCK);
	return 0;
}

/* Field deltas of one CPU, clamping counters that went backwards to 0. */
static uint64_t cpu_deltas(const uint64_t *a, const uint64_t *b, uint64_t *d, uint32_t *clamped)
{
	uint64_t total = 0;
	for (int f = 0; f < WS_CPU_NFIELDS; f++) {
		if (b[f] < a[f]) {
			d[f] = 0;
			(*clamped)++;
		} else {
			d[f] = b[f] - a[f];
		}
		total += d[f];
	}
	return total;
}

int ws_cpu_util(const ws_cpu_snapshot *start, const ws_cpu_snapshot *end, ws_cpu_usage *out,
		ws_err *err)
{
	if (!start || !end || !out)
		return ws_err_set(err, WS_E_INVAL, "cpu util: missing snapshot or output");
	ws_cpu_usage u = {.peak_cpu = -1, .method = WS_CPU_METHOD_PROC_STAT};
	uint32_t lim = start->max_id < end->max_id ? start->max_id : end->max_id;
	double wall = 0; /* ticks each CPU lived through between the snapshots */
	if (start->taken_ns > 0 && end->taken_ns > start->taken_ns && start->ticks_per_s > 0 &&
	    start->ticks_per_s == end->ticks_per_s)
		wall = (double)(end->taken_ns - start->taken_ns) * (double)start->ticks_per_s /
			WS_NS_PER_SEC;
	for (uint32_t id = 0; id < lim; id++) {
		if (!start->present[id] || !end->present[id])
			continue;
		uint64_t d[WS_CPU_NFIELDS];
		uint64_t total = cpu_deltas(start->ticks[id], end->ticks[id], d, &u.clamped);
		u.ncpus++;
		if (total == 0) {
			if (u.peak_cpu < 0)
				u.peak_cpu = (int)id;
			continue;
		}
		double t = (double)total;
		if (wall - t > MISSING_TICKS_MIN + wall * MISSING_SHARE_MIN) {
			u.unaccounted += 100.0 * (wall - t) / wall;
			t = wall;
		}
		double busy = 100.0 - 100.0 * (double)d[WS_CPU_IDLE] / t;
		u.util += busy;
		u.user += 100.0 * (double)(d[WS_CPU_USER] + d[WS_CPU_NICE]) / t;
		u.system += 100.0 * (double)d[WS_CPU_SYSTEM] / t;
		u.softirq += 100.0 * (double)d[WS_CPU_SOFTIRQ] / t;
		u.irq += 100.0 * (double)d[WS_CPU_IRQ] / t;
		u.iowait += 100.0 * (double)d[WS_CPU_IOWAIT] / t;
		u.steal += 100.0 * (double)d[WS_CPU_STEAL] / t;
		if (u.peak_cpu < 0 || busy > u.peak_util) {
			u.peak_util = busy;
			u.peak_cpu = (int)id;
		}
	}
	if (u.ncpus == 0)
		return ws_err_set(err, WS_E_INVAL,
				  "cpu util: the two /proc/stat snapshots have no CPU in common "
				  "(%u and %u CPUs)",
				  start->ncpus, end->ncpus);
	double n = (double)u.ncpus;
	u.util /= n;
	u.user /= n;
	u.system /= n;
	u.softirq /= n;
	u.irq /= n;
	u.iowait /= n;
	u.steal /= n;
	u.unaccounted /= n;
	*out = u;
	return 0;
}

double ws_cpu_service_demand(double util_pct, uint32_t ncpus, int64_t elapsed_ns, uint64_t units,
			     double unit_bytes)
{
	if (units == 0 || !(unit_bytes > 0))
		return 0.0;
	double elapsed_us = (double)elapsed_ns / (double)WS_NS_PER_US;
	double sd = util_pct / 100.0 * (double)ncpus * elapsed_us / ((double)units / unit_bytes);
	return isfinite(sd) ? sd : 0.0;
}

int ws_cpu_fill_side(ws_side_result *side, const ws_cpu_snapshot *start, const ws_cpu_snapshot *end,
		     ws_err *err)
{
	if (!side)
		return ws_err_set(err, WS_E_INVAL, "cpu fill: no side result to fill");
	ws_cpu_usage u;
	int rc = ws_cpu_util(start, end, &u, err);
	if (rc)
		return rc;
	side->cpu_measured = true;
	side->cpu_util = u.util;
	side->cpu_user = u.user;
	side->cpu_system = u.system;
	side->cpu_softirq = u.softirq;
	side->cpu_method = u.method;
	side->ncpus = u.ncpus;
	int64_t du = end->thread_user_ns - start->thread_user_ns;
	int64_t ds = end->thread_sys_ns - start->thread_sys_ns;
	side->thread_user_ns = du > 0 ? du : 0;
	side->thread_sys_ns = ds > 0 ? ds : 0;
	return 0;
}

int ws_cpu_identify_host(ws_side_result *side)
{
	if (!side)
		return -WS_E_INVAL;
	int rc = 0;
	side->hostname[0] = '\0';
	side->boot_id[0] = '\0';
	char host[256];
	if (gethostname(host, sizeof(host)) == 0) {
		host[sizeof(host) - 1] = '\0';
		size_t n = strnlen(host, sizeof(side->hostname) - 1); /* truncating is fine here */
		memcpy(side->hostname, host, n);
		side->hostname[n] = '\0';
	} else {
		rc = -(errno ? errno : WS_E_INVAL);
	}
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	if (f) {
		char id[64];
		if (fgets(id, sizeof(id), f)) {
			id[strcspn(id, "\r\n")] = '\0';
			size_t n = strnlen(id, sizeof(side->boot_id) - 1);
			memcpy(side->boot_id, id, n);
			side->boot_id[n] = '\0';
		}
		fclose(f);
	}
	if (!side->boot_id[0] && rc == 0)
		rc = -WS_E_INVAL;
	return rc;
}

bool ws_cpu_same_host(const ws_side_result *a, const ws_side_result *b)
{
	if (!a || !b || !a->boot_id[0])
		return false;
	return strncmp(a->boot_id, b->boot_id, sizeof(a->boot_id)) == 0;
}

uint32_t ws_cpu_online_count(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (uint32_t)n : 1;
}

double ws_cpu_rate(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	return hz > 0 ? (double)hz : 100.0;
}
