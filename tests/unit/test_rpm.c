/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rpm: the responsiveness test's arithmetic (measure/rpm.h) on hand-made series: the
 * trimmed mean keeps the lowest 95% (floor, at least one), and the stability rule
 * compares the standard deviation of the last MAD moving averages with SDT of their
 * mean. The expected values are worked by hand in the comments. Also the phases a run
 * length gives (ws_rpm_plan) and the exact text of the figure alone and of -o/-O/-k for a
 * hand-made result (report/rpm.h). */
#include "harness.h"

#include "measure/rpm.h"
#include "report/rpm.h"
#include "session/rpm.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOL 1e-12

static void test_trimmed_mean(void)
{
	double v[40];
	for (int i = 0; i < 20; i++)
		v[i] = 20 - i; /* 20..1, unsorted: floor(20 * 0.95) = 19 kept, 1..19 */
	CHECK_DBL("1..20", ws_rpm_trimmed_mean(v, 20, WS_RPM_TMP_KEEP), 10.0, TOL);
	for (int i = 0; i < 40; i++)
		v[i] = i + 1; /* 38 kept: 1..38, mean 19.5 */
	CHECK_DBL("1..40", ws_rpm_trimmed_mean(v, 40, WS_RPM_TMP_KEEP), 19.5, TOL);
	double three[] = {5, 1, 3}; /* floor(2.85) = 2 kept: 1 and 3 */
	CHECK_DBL("three", ws_rpm_trimmed_mean(three, 3, WS_RPM_TMP_KEEP), 2.0, TOL);
	double one[] = {7}; /* floor(0.95) = 0, at least one */
	CHECK_DBL("one", ws_rpm_trimmed_mean(one, 1, WS_RPM_TMP_KEEP), 7.0, TOL);
	double spike[20];
	for (int i = 0; i < 19; i++)
		spike[i] = 10;
	spike[19] = 1000; /* the one slow probe of 20 is the 5% trimmed */
	CHECK_DBL("spike", ws_rpm_trimmed_mean(spike, 20, WS_RPM_TMP_KEEP), 10.0, TOL);
	CHECK_DBL("empty", ws_rpm_trimmed_mean(v, 0, WS_RPM_TMP_KEEP), 0.0, TOL);
	CHECK_DBL("all", ws_rpm_trimmed_mean(three, 3, 100), 3.0, TOL);
}

static void test_stable(void)
{
	double ma;
	double flat[] = {100, 100, 100, 100, 100, 100, 100};
	CHECK("flat 7", ws_rpm_stable(flat, 7, WS_RPM_MAD, WS_RPM_SDT, &ma));
	CHECK_DBL("flat ma", ma, 100.0, TOL);
	/* 2 * MAD - 1 = 7 intervals are needed for MAD moving averages */
	CHECK("flat 6", !ws_rpm_stable(flat, 6, WS_RPM_MAD, WS_RPM_SDT, &ma));
	CHECK_DBL("flat 6 ma", ma, 100.0, TOL);
	/* a ramp: moving averages 25, 35, 45, 55; mean 40, sd sqrt(125) = 11.18 > 2 */
	double ramp[] = {10, 20, 30, 40, 50, 60, 70};
	CHECK("ramp", !ws_rpm_stable(ramp, 7, WS_RPM_MAD, WS_RPM_SDT, &ma));
	CHECK_DBL("ramp ma", ma, 55.0, TOL);
	/* last 140: averages 110, 100, 100, 100; mean 102.5, sd sqrt(18.75) = 4.330
	 * <= 0.05 * 102.5 = 5.125: stable */
	double up40[] = {100, 100, 100, 100, 100, 100, 140};
	CHECK("+40", ws_rpm_stable(up40, 7, WS_RPM_MAD, WS_RPM_SDT, &ma));
	CHECK_DBL("+40 ma", ma, 110.0, TOL);
	/* last 150: averages 112.5, 100, 100, 100; mean 103.125, sd sqrt(29.296875) = 5.413
	 * > 0.05 * 103.125 = 5.156: not stable */
	double up50[] = {100, 100, 100, 100, 100, 100, 150};
	CHECK("+50", !ws_rpm_stable(up50, 7, WS_RPM_MAD, WS_RPM_SDT, &ma));
	/* only the last 2 * MAD - 1 count: an old ramp does not matter */
	double settled[] = {1, 5, 50, 100, 100, 100, 100, 100, 100, 100};
	CHECK("settled", ws_rpm_stable(settled, 10, WS_RPM_MAD, WS_RPM_SDT, NULL));
	double zero[] = {0, 0, 0, 0, 0, 0, 0};
	CHECK("zero", !ws_rpm_stable(zero, 7, WS_RPM_MAD, WS_RPM_SDT, &ma));
	CHECK_DBL("ma of 3 of 4", ws_rpm_moving_avg(ramp, 3, 4), 25.0, TOL);
}

static void test_rpm_of(void)
{
	CHECK_DBL("50 ms", ws_rpm_of(0.050), 1200.0, 1e-9);
	CHECK_DBL("1 ms", ws_rpm_of(0.001), 60000.0, 1e-9);
	CHECK_DBL("zero", ws_rpm_of(0), 0.0, TOL);
}

static void test_plan(void)
{
	double idle, load, iv;
	ws_rpm_plan(10, &idle, &load, &iv); /* a tenth idle; 9 / 15 = 0.6 s */
	CHECK_DBL("10 idle", idle, 1.0, TOL);
	CHECK_DBL("10 load", load, 9.0, TOL);
	CHECK_DBL("10 iv", iv, 0.6, TOL);
	ws_rpm_plan(2, &idle, &load, &iv); /* 1.8 / 15 = 0.12 s */
	CHECK_DBL("2 iv", iv, 0.12, TOL);
	ws_rpm_plan(1, &idle, &load, &iv); /* 0.06 s, raised to 0.1 */
	CHECK_DBL("1 iv", iv, 0.1, TOL);
	ws_rpm_plan(60, &idle, &load, &iv); /* 3.6 s, lowered to the draft's 1 s */
	CHECK_DBL("60 iv", iv, 1.0, TOL);
}

/* The reports' exact text for a hand-made result. */
static char *render(const ws_rpm_result *r, const char *list, int mode, bool headers)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (mode)
		ws_rpm_render_outputs(r, list, mode, headers, f);
	else
		ws_rpm_render_figure(r, f);
	fclose(f);
	return buf;
}

static void test_outputs(void)
{
	ws_rpm_result r;
	memset(&r, 0, sizeof(r));
	r.rpm = 1200;
	r.working_latency_ms = 50;
	r.flows_up = 2;
	r.saturated_at_s = -1;
	char *t = render(&r, NULL, 0, true);
	CHECK_STR("figure", t, "1200.00\n");
	free(t);
	t = render(&r, "RPM,RPM_FLOWS_UP,RPM_ERROR", 3, true);
	CHECK_STR("-k", t, "RPM=1200.000\nRPM_FLOWS_UP=2\nRPM_ERROR=\n");
	free(t);
	t = render(&r, "RPM,RPM_WORKING_LATENCY", 1, true);
	CHECK_STR("-o", t, "RPM,RPM_WORKING_LATENCY\n1200.000,50.000\n");
	free(t);
	t = render(&r, "RPM,RPM_WORKING_LATENCY", 1, false);
	CHECK_STR("-o -P 0", t, "1200.000,50.000\n");
	free(t);
	t = render(&r, "RPM_FLOWS_UP RPM_SATURATED_AT", 2, true);
	CHECK_STR("-O", t, "RPM_FLOWS_UP RPM_SATURATED_AT\n           2           -1.000\n");
	free(t);
	ws_err e;
	CHECK_INT("known", ws_rpm_outputs_check("rpm,RPM_SELF_LATENCY", &e), 0);
	CHECK_INT("all", ws_rpm_outputs_check("all", &e), 0);
	CHECK_INT("unknown", ws_rpm_outputs_check("RPM,THROUGHPUT", &e), -WS_E_INVAL);
	CHECK_STR("unknown msg", e.msg,
		  "'THROUGHPUT' is not an output of -t RPM; expected all, ? (the list) or RPM, "
		  "RPM_IDLE_LATENCY, RPM_WORKING_LATENCY, RPM_FOREIGN_LATENCY, RPM_SELF_LATENCY, "
		  "RPM_FOREIGN_CONNECT_RR, RPM_IDLE_PROBES, RPM_FOREIGN_PROBES, RPM_SELF_PROBES, "
		  "RPM_FOREIGN_TOTAL, RPM_SELF_TOTAL, RPM_GOODPUT_UP, RPM_GOODPUT_DOWN, "
		  "RPM_FLOWS_UP, RPM_FLOWS_DOWN, RPM_SATURATED, RPM_SATURATED_AT, RPM_STABLE ... "
		  "(-o ? lists all 26)");
	CHECK_INT("names", ws_rpm_outputs_check("?", &e), 0);
}

/* What the figures do not say alone: a short idle phase, a window without a foreign
 * probe (as against a daemon whose TCP_CRR responder held each probe 1.2 s); a full run
 * has no note. */
static void test_notes(void)
{
	ws_rpm_result r;
	memset(&r, 0, sizeof(r));
	char b[512];
	r.idle_probes = 7;
	r.foreign_probes = 14;
	r.foreign_total = 50;
	r.self_probes = 112;
	r.intervals = 15;
	r.idle_s = 0.3;
	CHECK_INT("none", ws_rpm_notes(&r, b, sizeof(b)), 0);
	CHECK_STR("none text", b, "");
	r.idle_probes = 1;
	r.idle_s = 0.9;
	r.foreign_probes = 0;
	r.foreign_total = 2;
	CHECK_INT("both", ws_rpm_notes(&r, b, sizeof(b)), 2);
	CHECK_STR("both text", b,
		  "note: the idle phase ended after 0.90 s with 1 of its 5 foreign probes\n"
		  "note: no foreign probe in the last 4 intervals (2 under load in all): the "
		  "working latency is the self probes' alone\n");
	r.idle_probes = 5;
	r.intervals = 3;
	CHECK_INT("window", ws_rpm_notes(&r, b, sizeof(b)), 1);
	CHECK_STR("window text", b,
		  "note: no foreign probe in the last 3 intervals (2 under load in all): the "
		  "working latency is the self probes' alone\n");
	r.self_probes = 0; /* no working latency at all: the run's error says it */
	CHECK_INT("no self", ws_rpm_notes(&r, b, sizeof(b)), 0);
}

int main(void)
{
	RUN(test_trimmed_mean);
	RUN(test_stable);
	RUN(test_rpm_of);
	RUN(test_plan);
	RUN(test_outputs);
	RUN(test_notes);
	TEST_MAIN_END();
}
