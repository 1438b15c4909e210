/* SPDX-License-Identifier: BSD-2-Clause */
/* ws_flent_sample: Flent data files of synthetic runs, for tests/integration/flent_file.sh,
 * which reads them back with the real flent. A run cannot give exact, known values on
 * demand, so the series here are filled by hand: rrul (four flows up and four down with
 * the BE, BK, CS5 and EF marks, three UDP probes and an ICMP probe, one UDP EF probe
 * lost) and tcp_nup (three uploads and an ICMP probe), 2 s at a 0.2 s step.
 *
 * Usage: ws_flent_sample rrul|tcp_nup FILE      writes FILE (.flent.gz)
 *        ws_flent_sample rrul|tcp_nup -json     the same file's JSON text on stdout
 *        ws_flent_sample -svg FILE              the "all" chart of the rrul run */
#include "report/flent.h"
#include "report/series_chart.h"
#include "util/err.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const marks[] = {"BE", "BK", "CS5", "EF"};
static const int tos[] = {0, 0x20, 0xa0, 0xb8};

/* Flow f's goodput at step k (1..10): 10 (f + 1) + k Mbit/s, down flows 100 more. */
static void flows(ws_series_set *set, const char *prefix, ws_series_kind kind, int nflows,
		  int numbered, double base)
{
	for (int f = 0; f < nflows; f++) {
		char name[48];
		if (numbered)
			snprintf(name, sizeof name, "%s::%d", prefix, f + 1);
		else
			snprintf(name, sizeof name, "%s %s", prefix, marks[f]);
		int i = ws_series_add(set, name, kind, NULL, numbered ? 0 : tos[f]);
		for (int k = 1; k <= 10; k++)
			ws_series_push(set, i, k * 0.2, base + 10.0 * (f + 1) + k);
	}
}

/* Probe p's round trip at step k (0..10): (p + 1) + k / 10 ms; lost_at >= 0 loses one. */
static void probe(ws_series_set *set, const char *name, const char *kind, int t, int p,
		  int lost_at)
{
	int i = ws_series_add(set, name, WS_SERIES_PROBE, kind, t);
	for (int k = 0; k <= 10; k++) /* a NaN is counted in lost by the model */
		ws_series_push(set, i, k * 0.2, k == lost_at ? NAN : (p + 1) + k / 10.0);
}

static void build(ws_series_set *set, const char *test)
{
	set->step_s = 0.2;
	set->length_s = 2;
	set->start_unix_ns = 1796558400123456000LL; /* 2026-12-06T12:00:00.123456Z */
	if (!strcmp(test, "rrul")) {
		flows(set, "TCP upload", WS_SERIES_UP, 4, 0, 0);
		flows(set, "TCP download", WS_SERIES_DOWN, 4, 0, 100);
		probe(set, "Ping (ms) UDP BE", "udp", 0, 0, -1);
		probe(set, "Ping (ms) UDP BK", "udp", 0x20, 1, -1);
		probe(set, "Ping (ms) UDP EF", "udp", 0xb8, 2, 5);
		probe(set, "Ping (ms) ICMP", "icmp", 0, 3, -1);
	} else {
		flows(set, "TCP upload", WS_SERIES_UP, 3, 1, 0);
		probe(set, "Ping (ms) ICMP", "icmp", 0, 0, -1);
	}
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "rrul") && strcmp(argv[1], "tcp_nup") &&
			  strcmp(argv[1], "-svg"))) {
		fprintf(stderr, "usage: ws_flent_sample rrul|tcp_nup FILE|-json, "
				"ws_flent_sample -svg FILE\n");
		return 2;
	}
	ws_series_set set = {0};
	int svg = !strcmp(argv[1], "-svg");
	build(&set, svg ? "rrul" : argv[1]);
	ws_flent_meta m = {.name = svg ? "rrul" : argv[1],
			   .title = "synthetic",
			   .host = "198.51.100.7",
			   .local_host = "client"};
	ws_err err = {0};
	int rc;
	if (svg) {
		FILE *f = fopen(argv[2], "w");
		rc = f ? ws_series_chart_all(f, &set, "RRUL (synthetic)", &err) : -1;
		if (f && fclose(f) != 0)
			rc = -1;
	} else if (!strcmp(argv[2], "-json")) {
		rc = ws_flent_json(stdout, &set, &m, "sample.flent.gz", &err);
	} else {
		rc = ws_flent_write(&set, &m, argv[2], &err);
	}
	ws_series_free(&set);
	if (rc < 0) {
		fprintf(stderr, "ws_flent_sample: %s\n", err.msg[0] ? err.msg : "write failed");
		return 1;
	}
	return 0;
}
