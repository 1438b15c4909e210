/* SPDX-License-Identifier: BSD-2-Clause */
/* test_flent: series put on a time grid (on a point, interpolated, a lost probe, a gap too
 * long, the ends), sums and means across them, and the Flent file's JSON: the test name
 * check, metadata, the computed series a test has and the ones it has not, lost probes
 * as null, and the write refusing a symbolic link. The file read back by the real flent
 * is tests/integration/flent_file.sh. */
#include "harness.h"

#include "report/flent.h"
#include "report/series_grid.h"
#include "util/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void grid_rules(void)
{
	const char *n = "grid_rules";
	ws_series_set set = {.step_s = 0.2};
	int on = ws_series_add(&set, "TCP upload BE", WS_SERIES_UP, NULL, 0);
	int mid = ws_series_add(&set, "TCP upload BK", WS_SERIES_UP, NULL, 0x20);
	int gap = ws_series_add(&set, "Ping (ms) UDP BE", WS_SERIES_PROBE, "udp", 0);
	/* on the grid from 0.2 */
	for (int k = 1; k <= 5; k++)
		ws_series_push(&set, on, k * 0.2, 10.0 * k);
	/* half-way between points: 0.1 -> 1, 0.3 -> 3 (lost), 0.5 -> 5, 0.7 -> 7, ends 0.95 */
	ws_series_push(&set, mid, 0.1, 1);
	ws_series_push(&set, mid, 0.3, NAN);
	ws_series_push(&set, mid, 0.5, 5);
	ws_series_push(&set, mid, 0.7, 7);
	ws_series_push(&set, mid, 0.95, 9.5);
	/* 0 and 1.4: 7 steps apart, too far to join */
	ws_series_push(&set, gap, 0.0, 2);
	ws_series_push(&set, gap, 1.4, 4);
	ws_series_grid g;
	ws_err err = {0};
	CHECK_INT(n, ws_series_grid_build(&g, &set, &err), 0);
	CHECK_INT(n, (int)g.nx, 8); /* 0 .. 1.4 */
	CHECK_DBL(n, g.x[3], 0.6, 0);
	CHECK_DBL(n, g.x[7], 1.4, 0);
	const double *v0 = g.v, *v1 = g.v + g.nx, *v2 = g.v + 2 * g.nx;
	CHECK(n, isnan(v0[0]));     /* first sample a whole step later */
	CHECK_DBL(n, v0[1], 10, 0); /* on a point */
	CHECK_DBL(n, v0[5], 50, 0);
	CHECK(n, isnan(v0[6])); /* a step after the last */
	CHECK_DBL(n, v1[0], 1, 0); /* the first sample half a step away */
	CHECK(n, isnan(v1[1]));    /* 0.2: between 1 and a lost probe */
	CHECK(n, isnan(v1[2]));    /* 0.4: between the lost probe and 5 */
	CHECK_DBL(n, v1[3], 6, 1e-12);
	CHECK_DBL(n, v1[4], 8, 1e-12); /* 0.8 between 7 at 0.7 and 9.5 at 0.95 */
	CHECK_DBL(n, v1[5], 9.5, 0);   /* 1.0: the last sample 0.05 s before */
	CHECK(n, isnan(v1[6]));
	CHECK_DBL(n, v2[0], 2, 0);
	for (int k = 1; k < 7; k++)
		CHECK(n, isnan(v2[k]));
	CHECK_DBL(n, v2[7], 4, 0);

	bool use[3] = {true, true, false};
	double out[8];
	ws_series_grid_combine(&g, use, true, out);
	CHECK_DBL(n, out[0], 1, 0);      /* only BK has a value */
	CHECK_DBL(n, out[1], 10, 0);     /* BK has none */
	CHECK_DBL(n, out[3], 36, 1e-12); /* 30 + 6 */
	CHECK(n, isnan(out[7]));
	ws_series_grid_combine(&g, use, false, out);
	CHECK_DBL(n, out[3], 18, 1e-12);
	ws_series_grid_free(&g);

	set.step_s = 0;
	CHECK(n, ws_series_grid_build(&g, &set, &err) < 0);
	CHECK(n, strstr(err.msg, "positive step") != NULL);
	ws_series_free(&set);
}

/* The JSON text of set as test name, in memory. */
static char *json_of(const ws_series_set *set, const char *name, int *rc, ws_err *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ws_flent_meta m = {.name = name, .host = "192.0.2.1"};
	*rc = ws_flent_json(f, set, &m, "x.flent.gz", err);
	fclose(f);
	return buf;
}

static void tcp_nup_file(void)
{
	const char *n = "tcp_nup_file";
	ws_series_set set = {.step_s = 0.5, .length_s = 1, .start_unix_ns = 1500000000250000000LL};
	for (int f = 0; f < 2; f++) {
		char name[32];
		snprintf(name, sizeof name, "TCP upload::%d", f + 1);
		int i = ws_series_add(&set, name, WS_SERIES_UP, NULL, 0);
		ws_series_push(&set, i, 0.5, 10 + f);
		ws_series_push(&set, i, 1.0, 20 + f);
	}
	int p = ws_series_add(&set, "Ping (ms) ICMP", WS_SERIES_PROBE, "icmp", 0);
	ws_series_push(&set, p, 0, 1.5);
	ws_series_push(&set, p, 0.5, NAN);
	ws_series_push(&set, p, 1.0, 2.5);
	int rc;
	ws_err err = {0};
	char *j = json_of(&set, "tcp_nup", &rc, &err);
	CHECK_INT(n, rc, 0);
	CHECK(n, strstr(j, "\"NAME\": \"tcp_nup\","));
	CHECK(n, strstr(j, "\"TIME\": \"2017-07-14T02:40:00.250000Z\","));
	CHECK(n, strstr(j, "\"STEP_SIZE\": 0.5,"));
	CHECK(n, strstr(j, "\"TEST_PARAMETERS\": {\n      \"upload_streams\": \"2\"\n    },"));
	CHECK(n, strstr(j, "\"version\": 4,"));
	CHECK(n, strstr(j, "\"x_values\": [0,0.5,1],"));
	CHECK(n, strstr(j, "\"TCP upload::2\": [null,11,21],"));
	CHECK(n, strstr(j, "\"Ping (ms) ICMP\": [1.5,null,2.5],"));
	CHECK(n, strstr(j, "\"TCP upload avg\": [null,10.5,20.5],"));
	CHECK(n, strstr(j, "\"TCP upload sum\": [null,21,41]\n"));
	/* tcp_nup computes neither a download sum nor a ping average */
	CHECK(n, !strstr(j, "TCP download sum") && !strstr(j, "Ping (ms) avg") &&
			 !strstr(j, "TCP totals"));
	CHECK(n, strstr(j, "\"t\": 1500000000.75,\n        \"lost\": true"));
	CHECK(n, strstr(j, "\"t\": 1500000001.25,\n        \"val\": 2.5"));
	free(j);

	/* rrul with the same series: every computed series whose sources exist */
	j = json_of(&set, "rrul", &rc, &err);
	CHECK_INT(n, rc, 0);
	CHECK(n, strstr(j, "\"TEST_PARAMETERS\": {},"));
	CHECK(n, strstr(j, "\"TCP totals\": [null,21,41]"));
	CHECK(n, strstr(j, "\"Ping (ms) avg\": [1.5,null,2.5]"));
	CHECK(n, !strstr(j, "\"TCP download sum\"")); /* no download flows */
	free(j);

	j = json_of(&set, "RRUL", &rc, &err);
	CHECK_INT(n, rc, -WS_E_INVAL);
	CHECK_STR(n, err.msg,
		  "Flent test name 'RRUL' is not one this file writer knows; accepted: rrul, "
		  "rrul_be, rrul_noclassification, tcp_nup, tcp_ndown, tcp_bidirectional, "
		  "tcp_1up, tcp_1down, ping");
	free(j);
	ws_series_free(&set);
}

static void write_refuses_link(void)
{
	const char *n = "write_refuses_link";
	char dir[] = "/tmp/ws_flent_XXXXXX";
	CHECK(n, mkdtemp(dir) != NULL);
	char target[64], link[64];
	snprintf(target, sizeof target, "%s/target", dir);
	snprintf(link, sizeof link, "%s/x.flent.gz", dir);
	CHECK_INT(n, symlink(target, link), 0);
	ws_series_set set = {.step_s = 1};
	int i = ws_series_add(&set, "TCP upload", WS_SERIES_UP, NULL, 0);
	ws_series_push(&set, i, 1, 5);
	ws_flent_meta m = {.name = "tcp_1up", .host = "h"};
	ws_err err = {0};
	CHECK(n, ws_flent_check(&m, link, &err) < 0); /* before the run */
	CHECK(n, strstr(err.msg, "symbolic link") != NULL);
	CHECK(n, ws_flent_write(&set, &m, link, &err) < 0);
	CHECK(n, strstr(err.msg, "symbolic link") != NULL);
	CHECK(n, access(target, F_OK) != 0); /* nothing written through it */
	unlink(link);
	/* a plain name: passes the check, leaves nothing, then written with gzip's magic */
	CHECK_INT(n, ws_flent_check(&m, target, &err), 0);
	CHECK(n, access(target, F_OK) != 0);
	ws_flent_meta bad = {.name = "rrul2", .host = "h"};
	CHECK_INT(n, ws_flent_check(&bad, target, &err), -WS_E_INVAL);
	CHECK_INT(n, ws_flent_write(&set, &m, target, &err), 0);
	FILE *f = fopen(target, "rb");
	unsigned char head[4] = {0};
	CHECK(n, f && fread(head, 1, 4, f) == 4 && head[0] == 0x1f && head[1] == 0x8b);
	if (f)
		fclose(f);
	unlink(target);
	rmdir(dir);
	ws_series_free(&set);
}

int main(void)
{
	RUN(grid_rules);
	RUN(tcp_nup_file);
	RUN(write_refuses_link);
	TEST_MAIN_END();
}
