/* SPDX-License-Identifier: BSD-2-Clause */
/* Unit tests of a Read IQ whose destination changes while it runs (ws_iqread_run_tick,
 * ws_iqread_retarget, ws_iqread_placed), as the MEX transport uses it: the read starts
 * into a stage of wire words and is pointed at the caller's float array after some ticks;
 * the packets placed before the switch are moved by the caller. Through the impairment
 * proxy at 20 % loss, duplication and reordering, so that re-requests and duplicates of
 * staged packets arrive after the switch: the result must still be bit-exact, and a
 * staged packet must never be written into the new destination. Also: a tick that stops
 * the read ends it with ECANCELED and says so. */
#include "harness.h"
#include "iq_bed.h"

#include "iq/wire/iqconv.h"
#include "iq/host/iqread.h"

#include <errno.h>

#define N_SAMPLES ((1u << 20) - 77) /* 470 jumbo packets: more than 7 receive batches */

typedef struct switcher {
	uint32_t at;               /* switch at the first tick that finds this many placed */
	float *dst;
	uint64_t *staged;          /* packets placed when the switch came */
	uint32_t npkt, nstaged;
	int switched;
} switcher;

static int switch_tick(ws_iqread_op *o, void *ctx)
{
	switcher *s = ctx;
	if (s->switched)
		return 0;
	uint32_t placed = 0;
	for (uint32_t k = 0; k < s->npkt; k++)
		placed += (uint32_t)ws_iqread_placed(o, 0, k);
	if (placed < s->at)
		return 0;
	for (uint32_t k = 0; k < s->npkt; k++)
		if (ws_iqread_placed(o, 0, k)) {
			s->staged[k / 64] |= 1ull << (k % 64);
			s->nstaged++;
		}
	void *d[1] = {s->dst};
	ws_iqread_retarget(o, WS_IQ_FMT_CF32, d);
	s->switched = 1;
	return 0;
}

static int stop_tick(ws_iqread_op *o, void *ctx)
{
	(void)o;
	return ++*(int *)ctx >= 1;
}

/* Ticks come between receive batches of at most 64 datagrams, so a switch at `at` placed
 * packets stages at least `at` and fewer than at + 64 (fewer than all 470 for at = 100),
 * and none when at is 0. */
static void retarget_under(const char *name, double loss, double dup, double reorder,
			   uint32_t at)
{
	px_cfg p = {.up = 1, .down = 1, .seed = 7, .loss = loss, .dup = dup, .reorder = reorder};
	bed b;
	int up = bed_up(&b, NULL, loss > 0 || dup > 0 || reorder > 0 ? &p : NULL, NULL) == 0;
	CHECK(name, up);
	if (!up)
		return;
	ws_iq_node *n = b.h;
	int16_t *x = malloc((size_t)N_SAMPLES * 4);
	uint8_t *stage = malloc((size_t)N_SAMPLES * 4);
	float *got = malloc((size_t)N_SAMPLES * 8), *want = malloc((size_t)N_SAMPLES * 8);
	fill_ci16(x, N_SAMPLES, 99);
	for (uint32_t i = 0; i < 2 * N_SAMPLES; i++)
		want[i] = (float)x[i] / 32768.0f;
	for (uint32_t i = 0; i < 2 * N_SAMPLES; i++)
		got[i] = -7.0f; /* no sample converts to this */
	ws_iq_error er = {0};
	int ok = ws_iq_write(n, WS_IQ_RF_A, 0, N_SAMPLES, WS_IQ_FMT_CI16, x, &er) == 0 &&
		 ws_iq_trigger(n, 1, &er) >= 0;
	CHECK(name, ok);
	uint32_t spp = n->info.samples_per_packet, npkt = (N_SAMPLES + spp - 1) / spp;
	switcher s = {.at = at, .dst = got, .npkt = npkt,
		      .staged = calloc((npkt + 63) / 64, 8)};
	void *d[1] = {stage};
	ws_err e = {0};
	int r = ws_iqread_run_tick(n, WS_IQ_RF_A, 0, N_SAMPLES, WS_IQ_FMT_BE32, d, switch_tick,
				   &s, &e);
	CHECK_INT(name, r, 0);
	if (r != 0)
		printf("  %s: %s\n", name, e.msg);
	CHECK(name, s.switched);
	/* A staged packet's slot in the new destination is still untouched. */
	int untouched = 1;
	for (uint32_t k = 0; k < npkt; k++)
		if (s.staged[k / 64] >> (k % 64) & 1)
			untouched &= got[2 * (size_t)k * spp] == -7.0f;
	CHECK(name, untouched);
	for (uint32_t k = 0; k < npkt; k++)
		if (s.staged[k / 64] >> (k % 64) & 1) {
			uint32_t cnt = N_SAMPLES - k * spp < spp ? N_SAMPLES - k * spp : spp;
			ws_iqconv_from_wire(got, WS_IQ_FMT_CF32, (uint64_t)k * spp,
					    stage + (size_t)k * spp * 4, cnt);
		}
	CHECK_MEM(name, got, want, (size_t)N_SAMPLES * 8);
	printf("  %s: %u of %u packets staged\n", name, s.nstaged, npkt);
	CHECK(name, at ? s.nstaged >= at && s.nstaged < npkt : s.nstaged == 0);
	free(s.staged);
	free(x);
	free(stage);
	free(got);
	free(want);
	bed_down(&b);
}

static void test_retarget_clean(void)
{
	retarget_under("retarget at once", 0, 0, 0, 0);
	retarget_under("retarget after 100 packets", 0, 0, 0, 100);
}

static void test_retarget_impaired(void)
{
	retarget_under("retarget, 20% loss", 0.20, 0, 0, 100);
	retarget_under("retarget, duplicates and reordering", 0.02, 0.10, 0.10, 100);
}

static void test_stop(void)
{
	bed b;
	int up = bed_up(&b, NULL, NULL, NULL) == 0;
	CHECK("stop: bed", up);
	if (!up)
		return;
	uint8_t *stage = malloc((size_t)N_SAMPLES * 4);
	void *d[1] = {stage};
	ws_err e = {0};
	int ticks = 0;
	int r = ws_iqread_run_tick(b.h, WS_IQ_RF_A, 0, N_SAMPLES, WS_IQ_FMT_BE32, d, stop_tick,
				   &ticks, &e);
	CHECK_INT("stop: ECANCELED", r, -ECANCELED);
	CHECK("stop: says why", strstr(e.msg, "stopped by the caller") != NULL);
	CHECK_INT("stop: at the first tick, before any request", ticks, 1);
	free(stage);
	bed_down(&b);
}

int main(void)
{
	RUN(test_retarget_clean);
	RUN(test_retarget_impaired);
	RUN(test_stop);
	TEST_MAIN_END();
}
