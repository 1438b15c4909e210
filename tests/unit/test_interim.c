/* SPDX-License-Identifier: BSD-2-Clause */
/* test_interim: -D's interval arithmetic on a fake clock (exact sample values, late
 * wake-ups, skipped deadlines, the final partial interval, a counter going backwards), the
 * reporter thread on the real clock (every unit reported exactly once, aggregate and per
 * flow, indexes in order, the last sample final and clamped to the nominal end), and the
 * printed forms against netperf 2.7.0's goldens: each interim line of the -D goldens is
 * rebuilt from its own figures and must come out byte for byte. */
#include "harness.h"

#include "measure/interim.h"
#include "report/interim.h"
#include "util/clock.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MS WS_NS_PER_MS
#define WALL0 (1796163568LL * WS_NS_PER_SEC + 483 * MS) /* an epoch like the goldens' */

static void test_clock_regular(void)
{
	const char *t = "clock regular";
	ws_interim_clock c;
	ws_interim_sample s;
	ws_interim_clock_init(&c, 500 * MS, 1000 * MS, WALL0);
	CHECK_INT(t, ws_interim_clock_deadline(&c), 1500 * MS);
	CHECK_INT(t, ws_interim_clock_step(&c, 1499 * MS, 123, false, &s), 0); /* too early */
	CHECK_INT(t, ws_interim_clock_step(&c, 1500 * MS, 1000000, false, &s), 1);
	CHECK_INT(t, s.index, 0);
	CHECK_INT(t, s.flow, -1);
	CHECK_U64(t, s.units, 1000000);
	CHECK_INT(t, s.interval_ns, 500 * MS);
	CHECK_DBL(t, s.interval_s, 0.5, 0);
	CHECK_DBL(t, s.rate, 2000000.0, 1e-9);
	CHECK_INT(t, s.ending_wall_ns, WALL0 + 500 * MS);
	CHECK(t, !s.final);
	CHECK_INT(t, ws_interim_clock_deadline(&c), 2000 * MS);
	/* a wake-up 200 ms late: a longer interval, and the next deadline stays on the grid */
	CHECK_INT(t, ws_interim_clock_step(&c, 2200 * MS, 1600000, false, &s), 1);
	CHECK_INT(t, s.index, 1);
	CHECK_U64(t, s.units, 600000);
	CHECK_INT(t, s.interval_ns, 700 * MS);
	CHECK_DBL(t, s.rate, 600000.0 / 0.7, 1e-6);
	CHECK_INT(t, ws_interim_clock_deadline(&c), 2500 * MS);
	CHECK_INT(t, ws_interim_clock_step(&c, 2500 * MS, 1600000, false, &s), 1);
	CHECK_INT(t, s.index, 2);
	CHECK_U64(t, s.units, 0);
	CHECK_DBL(t, s.rate, 0.0, 0);
}

static void test_clock_skips_and_final(void)
{
	const char *t = "clock skips";
	ws_interim_clock c;
	ws_interim_sample s;
	ws_interim_clock_init(&c, 250 * MS, 0, WALL0);
	/* a reporter stalled past three deadlines makes one 1.1 s interval, not empty ones */
	CHECK_INT(t, ws_interim_clock_step(&c, 1100 * MS, 4400, false, &s), 1);
	CHECK_INT(t, s.index, 0);
	CHECK_INT(t, s.interval_ns, 1100 * MS);
	CHECK_DBL(t, s.rate, 4000.0, 1e-9);
	CHECK_INT(t, ws_interim_clock_deadline(&c), 1250 * MS);
	/* final at the same instant as the last sample: nothing to report */
	CHECK_INT(t, ws_interim_clock_step(&c, 1100 * MS, 9999, true, &s), 0);
	/* final before the next deadline: the partial interval */
	CHECK_INT(t, ws_interim_clock_step(&c, 1175 * MS, 4700, true, &s), 1);
	CHECK_INT(t, s.index, 1);
	CHECK(t, s.final);
	CHECK_U64(t, s.units, 300);
	CHECK_INT(t, s.interval_ns, 75 * MS);
	CHECK_DBL(t, s.interval_s, 0.075, 1e-12);
	CHECK_DBL(t, s.rate, 4000.0, 1e-6);
	CHECK_INT(t, s.ending_wall_ns, WALL0 + 1175 * MS);
	/* a counter that went backwards (a wrap) counts as nothing, never as 2^64 */
	CHECK_INT(t, ws_interim_clock_step(&c, 1250 * MS, 100, false, &s), 1);
	CHECK_U64(t, s.units, 0);
	CHECK_INT(t, ws_interim_clock_step(&c, 1500 * MS, 350, false, &s), 1);
	CHECK_U64(t, s.units, 250);
}

static void test_add(void)
{
	const char *t = "add";
	ws_interim_counter c[2];
	atomic_init(&c[0].units, 0);
	atomic_init(&c[1].units, 0);
	ws_interim_add(ws_interim_at(c, 1), 7);
	ws_interim_add(ws_interim_at(c, 1), 5);
	ws_interim_add(ws_interim_at(NULL, 1), 5); /* no -D: nothing, no crash */
	ws_interim_add(NULL, 1);
	CHECK_U64(t, atomic_load(&c[0].units), 0);
	CHECK_U64(t, atomic_load(&c[1].units), 12);
	CHECK_INT(t, sizeof(ws_interim_counter), 64);
}

/* ---- the reporter thread -------------------------------------------------------------- */

#define MAXS 256
struct log {
	ws_interim_sample s[MAXS];
	int n;
};

static void record(void *ctx, const ws_interim_sample *s)
{
	struct log *l = ctx;
	if (l->n < MAXS)
		l->s[l->n++] = *s;
}

static void test_reporter(void)
{
	const char *t = "reporter";
	static struct log l;
	memset(&l, 0, sizeof(l));
	ws_interim *ip = NULL;
	ws_err err;
	ws_interim_config cfg = {.interval_s = 0.05, .nflows = 3, .per_flow = true,
				 .kind = WS_INTERIM_BYTES, .cb = record, .ctx = &l};
	CHECK_INT(t, ws_interim_create(&cfg, &ip, &err), 0);
	if (!ip)
		return;
	CHECK(t, ws_interim_flow(ip, 3) == NULL);
	CHECK(t, ws_interim_flow(ip, 2) == ws_interim_flow(ip, 0) + 2);
	int64_t t0 = ws_clock_ns();
	CHECK_INT(t, ws_interim_begin(ip, t0, ws_clock_wall_ns(), &err), 0);
	uint64_t sent[3] = {0, 0, 0};
	for (int k = 0; k < 40; k++) { /* 40 x 5 ms: about four intervals */
		for (uint32_t f = 0; f < 3; f++) {
			ws_interim_add(ws_interim_flow(ip, f), 1000 * (f + 1));
			sent[f] += 1000 * (f + 1);
		}
		ws_clock_sleep_ns(5 * MS);
	}
	ws_interim_stop(ip, 0);
	ws_interim_stop(ip, 0); /* twice: nothing more */
	int64_t t1 = ws_clock_ns();
	int nagg = 0;
	uint64_t agg = 0, per[3] = {0, 0, 0};
	uint32_t next_idx[4] = {0, 0, 0, 0};
	int64_t span = 0, last_end = 0;
	for (int i = 0; i < l.n; i++) {
		const ws_interim_sample *s = &l.s[i];
		CHECK_INT(t, s->kind, WS_INTERIM_BYTES);
		CHECK(t, s->flow >= -1 && s->flow < 3);
		if (s->flow < -1 || s->flow >= 3)
			break;
		CHECK_INT(t, s->index, next_idx[s->flow + 1]);
		next_idx[s->flow + 1]++;
		if (s->flow < 0) {
			nagg++;
			agg += s->units;
			span += s->interval_ns;
			CHECK(t, s->ending_wall_ns >= last_end);
			last_end = s->ending_wall_ns;
		} else {
			per[s->flow] += s->units;
		}
	}
	/* every unit was reported once, in the aggregate and in its flow's samples */
	CHECK_U64(t, agg, sent[0] + sent[1] + sent[2]);
	for (uint32_t f = 0; f < 3; f++)
		CHECK_U64(t, per[f], sent[f]);
	/* each aggregate sample is followed by one per flow; the last group is the final */
	CHECK_INT(t, l.n, nagg * 4);
	CHECK(t, nagg >= 2);
	CHECK(t, l.n >= 4 && l.s[l.n - 4].final && !l.s[0].final);
	/* the samples tile the span from begin to the stop */
	CHECK(t, span >= 200 * MS && span <= t1 - t0);
	/* a second run (the next -i iteration) numbers from 0 again */
	int before = l.n;
	CHECK_INT(t, ws_interim_begin(ip, ws_clock_ns(), ws_clock_wall_ns(), &err), 0);
	ws_interim_add(ws_interim_flow(ip, 0), 10);
	ws_clock_sleep_ns(2 * MS);
	ws_interim_stop(ip, 0);
	CHECK(t, l.n > before);
	if (l.n > before) {
		CHECK_INT(t, l.s[before].index, 0);
		CHECK_U64(t, l.s[before].units, 10);
		CHECK(t, l.s[before].final);
	}
	ws_interim_free(ip);
}

/* The last interval ends at the nominal end (until), however late the stop comes. */
static void test_stop_until(void)
{
	const char *t = "stop until";
	static struct log l;
	memset(&l, 0, sizeof(l));
	ws_interim *ip = NULL;
	ws_err err;
	ws_interim_config cfg = {.interval_s = 10, .nflows = 1, .kind = WS_INTERIM_TRANSACTIONS,
				 .cb = record, .ctx = &l};
	CHECK_INT(t, ws_interim_create(&cfg, &ip, &err), 0);
	if (!ip)
		return;
	int64_t t0 = ws_clock_ns(), w0 = ws_clock_wall_ns();
	CHECK_INT(t, ws_interim_begin(ip, t0, w0, &err), 0);
	ws_interim_add(ws_interim_flow(ip, 0), 3);
	ws_clock_sleep_ns(40 * MS);
	ws_interim_stop(ip, t0 + 30 * MS);
	CHECK_INT(t, l.n, 1);
	CHECK_INT(t, l.s[0].index, 0);
	CHECK_INT(t, l.s[0].kind, WS_INTERIM_TRANSACTIONS);
	CHECK_INT(t, l.s[0].interval_ns, 30 * MS);
	CHECK_U64(t, l.s[0].units, 3);
	CHECK_DBL(t, l.s[0].rate, 100.0, 1e-9);
	CHECK_INT(t, l.s[0].ending_wall_ns, w0 + 30 * MS);
	CHECK(t, l.s[0].final);
	ws_interim_free(ip);
}

static void test_create_errors(void)
{
	const char *t = "create errors";
	ws_interim *ip = (ws_interim *)1;
	ws_err err;
	struct log l;
	ws_interim_config cfg = {.interval_s = 0, .nflows = 1, .cb = record, .ctx = &l};
	CHECK(t, ws_interim_create(&cfg, &ip, &err) < 0);
	CHECK(t, ip == NULL);
	CHECK(t, strstr(err.msg, "0.001 to 86400") != NULL);
	cfg.interval_s = 1;
	cfg.nflows = 0;
	CHECK(t, ws_interim_create(&cfg, &ip, &err) < 0);
	CHECK(t, strstr(err.msg, "1 to 65536") != NULL);
	cfg.nflows = 1;
	cfg.cb = NULL;
	CHECK(t, ws_interim_create(&cfg, &ip, &err) < 0);
	CHECK(t, strstr(err.msg, "callback") != NULL);
	ws_interim_free(NULL);
	ws_interim_stop(NULL, 0);
	CHECK_INT(t, ws_interim_begin(NULL, 0, 0, &err), 0);
}

/* ---- the printed forms against the goldens ------------------------------------------- */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 16);
	size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

/* A sample that prints as (value, interval, ending) in units per second of kind. */
static ws_interim_sample sample_of(enum ws_interim_kind kind, char fmt, double value, double secs,
				   long long sec, long ms, unsigned index)
{
	ws_interim_sample s = {.index = index, .flow = -1, .kind = kind};
	s.interval_s = secs;
	s.interval_ns = (int64_t)(secs * 1e9 + 0.5);
	s.ending_wall_ns = sec * WS_NS_PER_SEC + ms * MS + 456789; /* truncated to ms */
	if (kind == WS_INTERIM_TRANSACTIONS) {
		s.rate = value;
	} else {
		double per = fmt == 'k' ? 1e3 : 1e6; /* the goldens' units: 10^3 and 10^6 bits */
		s.units = (uint64_t)(value * per / 8.0 * ((double)s.interval_ns / 1e9) + 0.5);
	}
	return s;
}

static void print_to(char *buf, size_t n, const ws_interim_sample *s, ws_out_mode mode, char fmt)
{
	buf[0] = 0;
	FILE *f = fmemopen(buf, n, "w");
	if (!f)
		return;
	ws_report_interim(s, mode, fmt, f);
	fclose(f);
}

/* Each interim line of golden name, rebuilt from its figures, printed byte for byte. */
static int check_golden(const char *name, ws_out_mode mode, enum ws_interim_kind kind, char fmt)
{
	char path[128];
	snprintf(path, sizeof(path), "netperf/%s.txt", name);
	char *g = slurp(path);
	WS_T_REPORT(g != NULL, name, "cannot read %s (WS_ROOT or cwd tests/goldens)", path);
	if (!g)
		return 0;
	int lines = 0;
	char *save = NULL;
	char want[512], got[512];
	for (char *line = strtok_r(g, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		double v, secs;
		long long sec;
		long ms;
		unsigned idx;
		char units[32];
		ws_interim_sample s;
		if (mode == WS_OUT_MODE_KEYVAL) {
			if (sscanf(line, "NETPERF_INTERIM_RESULT[%u]=%lf", &idx, &v) != 2)
				continue;
			char *u = strtok_r(NULL, "\n", &save), *i = strtok_r(NULL, "\n", &save),
			     *e = strtok_r(NULL, "\n", &save);
			if (!u || !i || !e || sscanf(i, "NETPERF_INTERVAL[%*u]=%lf", &secs) != 1 ||
			    sscanf(e, "NETPERF_ENDING[%*u]=%lld.%ld", &sec, &ms) != 2) {
				WS_T_REPORT(0, name, "incomplete keyval group after [%s]", line);
				break;
			}
			snprintf(want, sizeof(want), "%s\n%s\n%s\n%s\n", line, u, i, e);
		} else if (mode == WS_OUT_MODE_CSV) {
			if (sscanf(line, "%lf,%31[^,],%lf,%lld.%ld", &v, units, &secs, &sec, &ms) != 5)
				continue;
			idx = (unsigned)lines;
			snprintf(want, sizeof(want), "%s\n", line);
		} else {
			if (sscanf(line, "Interim result: %lf %31s over %lf seconds ending at %lld.%ld", &v,
				   units, &secs, &sec, &ms) != 5)
				continue;
			idx = (unsigned)lines;
			snprintf(want, sizeof(want), "%s\n", line);
		}
		s = sample_of(kind, fmt, v, secs, sec, ms, idx);
		print_to(got, sizeof(got), &s, mode, fmt);
		CHECK_STR(name, got, want);
		lines++;
	}
	free(g);
	WS_T_REPORT(lines > 0, name, "no interim lines found in %s", path);
	return lines;
}

static void test_goldens(void)
{
	int n = 0;
	n += check_golden("tcp_stream_demo", WS_OUT_MODE_NONE, WS_INTERIM_BYTES, 'm');
	n += check_golden("tcp_maerts_demo", WS_OUT_MODE_NONE, WS_INTERIM_BYTES, 'm');
	n += check_golden("udp_stream_demo", WS_OUT_MODE_NONE, WS_INTERIM_BYTES, 'm');
	n += check_golden("tcp_stream_demo_neg", WS_OUT_MODE_NONE, WS_INTERIM_BYTES, 'm');
	n += check_golden("tcp_stream_demo_fk", WS_OUT_MODE_NONE, WS_INTERIM_BYTES, 'k');
	n += check_golden("tcp_stream_demo_o", WS_OUT_MODE_CSV, WS_INTERIM_BYTES, 'm');
	n += check_golden("tcp_stream_demo_k", WS_OUT_MODE_KEYVAL, WS_INTERIM_BYTES, 'm');
	n += check_golden("tcp_rr_demo", WS_OUT_MODE_NONE, WS_INTERIM_TRANSACTIONS, 'x');
	n += check_golden("udp_rr_demo", WS_OUT_MODE_NONE, WS_INTERIM_TRANSACTIONS, 'x');
	n += check_golden("tcp_rr_demo_k", WS_OUT_MODE_KEYVAL, WS_INTERIM_TRANSACTIONS, 'x');
	CHECK_INT("goldens", n >= 30, 1);
}

static void test_forms(void)
{
	const char *t = "forms";
	char got[512];
	ws_interim_sample s = sample_of(WS_INTERIM_BYTES, 'm', 1234.5, 0.5, 1796163568, 7, 3);
	/* -O prints the classic line, as netperf's HUMAN mode */
	print_to(got, sizeof(got), &s, WS_OUT_MODE_HUMAN, 'm');
	CHECK_STR(t, got, "Interim result: 1234.50 10^6bits/s over 0.500 seconds ending at 1796163568.007\n");
	/* an RR test's 'x' and an unknown letter fall back to 10^6bits for bytes */
	print_to(got, sizeof(got), &s, WS_OUT_MODE_NONE, 'x');
	CHECK_STR(t, got, "Interim result: 1234.50 10^6bits/s over 0.500 seconds ending at 1796163568.007\n");
	/* bytes units: -f M */
	s.units = 3 * 1048576;
	print_to(got, sizeof(got), &s, WS_OUT_MODE_NONE, 'M');
	CHECK_STR(t, got, "Interim result:    6.00 MBytes/s over 0.500 seconds ending at 1796163568.007\n");
	/* a stream's line (--streams at -v 2), classic form only */
	s.flow = 2;
	print_to(got, sizeof(got), &s, WS_OUT_MODE_NONE, 'M');
	CHECK_STR(t, got,
		  "Interim result, stream 2:    6.00 MBytes/s over 0.500 seconds ending at 1796163568.007\n");
	print_to(got, sizeof(got), &s, WS_OUT_MODE_KEYVAL, 'M');
	CHECK_STR(t, got, "");
	print_to(got, sizeof(got), &s, WS_OUT_MODE_CSV, 'M');
	CHECK_STR(t, got, "");
	const char *units = NULL;
	s.kind = WS_INTERIM_TRANSACTIONS;
	s.rate = 42.0;
	CHECK_DBL(t, ws_report_interim_value(&s, 'M', &units), 42.0, 0);
	CHECK_STR(t, units, "Trans");
}

int main(void)
{
	const char *root = getenv("WS_ROOT");
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s/tests/goldens", root ? root : ".");
	if (chdir(dir) != 0 && chdir("tests/goldens") != 0) {
		printf("FAIL cannot enter %s\n", dir);
		return 1;
	}
	RUN(test_clock_regular);
	RUN(test_clock_skips_and_final);
	RUN(test_add);
	RUN(test_reporter);
	RUN(test_stop_until);
	RUN(test_create_errors);
	RUN(test_goldens);
	RUN(test_forms);
	TEST_MAIN_END();
}
