/* SPDX-License-Identifier: BSD-2-Clause */
/* test_mesh_matrix: rank 0's checks of the gathered cells, and the matrix printed as the
 * classic table and as JSON, byte for byte. */
#include "harness.h"

#include "mesh/matrix.h"
#include "util/err.h"

#include <math.h>
#include <stdbool.h>

static ws_mesh_peer peers[3] = {
	{"hA", "10.0.0.1", 1001, 4, 0},
	{"hB", "10.0.0.2", 1002, 4, 0},
	{"hC", "10.0.0.3", 1003, 4, 0},
};

/* Slots of 2 cells per rank, rank k's cells of schedule s measured at 100*src+dst. */
static void fill(const ws_mesh_schedule *s, ws_mesh_cell *slots)
{
	size_t per = (size_t)s->ranks - 1, used[8] = {0};
	for (size_t i = 0; i < (size_t)s->ranks * per; i++)
		slots[i] = (ws_mesh_cell){.src = -1};
	for (int r = 0; r < s->nrounds; r++)
		for (size_t i = s->round_start[r]; i < s->round_start[r + 1]; i++) {
			ws_mesh_pair p = s->pairs[i];
			slots[(size_t)p.src * per + used[p.src]++] = (ws_mesh_cell){
				.src = p.src, .dst = p.dst, .round = r, .throughput = 100.0 * p.src + p.dst + 0.25, .elapsed_s = 1};
		}
}

static void test_collect(void)
{
	ws_mesh_schedule s;
	ws_err err;
	ws_mesh_schedule_build(WS_MESH_ALL, 3, &s, &err);
	ws_mesh_cell slots[6], *out = NULL;
	fill(&s, slots);
	CHECK_INT("good", ws_mesh_cells_collect(&s, slots, 2, &out, &err), 0);
	static const double order[6] = {1.25, 2.25, 100.25, 102.25, 200.25, 201.25}; /* 0>1 0>2 1>0 .. */
	for (size_t i = 0; out && i < 6; i++)
		CHECK_DBL("in pair order", out[i].throughput, order[i], 0);
	free(out);

	/* A missing cell becomes a failed one. */
	fill(&s, slots);
	slots[3].src = -1; /* rank 1's second: 1 -> 2 */
	CHECK_INT("missing", ws_mesh_cells_collect(&s, slots, 2, &out, &err), 0);
	CHECK_INT("missing status", out ? out[3].status : 0, -WS_E_PROTO);
	CHECK_STR("missing text", out ? out[3].error : "", "rank 1 reported no result for this pair");
	free(out);

	static const struct {
		const char *what, *msg;
		int slot;
		ws_mesh_cell c;
	} bad[] = {
		{"wrong sender", "rank 0 sent a result for source rank 2", 0, {.src = 2, .dst = 1}},
		{"self", "rank 1 sent a result for destination 1; expected another of 0 to 2", 2, {.src = 1, .dst = 1}},
		{"range", "rank 1 sent a result for destination 3; expected another of 0 to 2", 2, {.src = 1, .dst = 3}},
		{"twice", "rank 0 sent two results for 0 -> 2", 0, {.src = 0, .dst = 2, .round = 1}},
		{"round", "rank 0 sent 0 -> 1 as round 5; the schedule runs it in round 0", 0, {.src = 0, .dst = 1, .round = 5}},
		{"nan", "rank 0 sent throughput nan over 0 s for 0 -> 1; expected finite, not negative", 0,
		 {.src = 0, .dst = 1, .throughput = NAN}},
		{"negative", "rank 0 sent throughput 0 over -1 s for 0 -> 1; expected finite, not negative", 0,
		 {.src = 0, .dst = 1, .elapsed_s = -1}},
		{"status without text", "rank 0 sent status -5 without an error text for 0 -> 1", 0,
		 {.src = 0, .dst = 1, .status = -5}},
		{"text without status", "rank 0 sent status 0 with an error text for 0 -> 1", 0,
		 {.src = 0, .dst = 1, .error = "x"}},
	};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		fill(&s, slots);
		slots[bad[k].slot] = bad[k].c;
		out = (ws_mesh_cell *)1;
		CHECK_INT(bad[k].what, ws_mesh_cells_collect(&s, slots, 2, &out, &err), -WS_E_PROTO);
		CHECK_STR(bad[k].what, err.msg, bad[k].msg);
		CHECK(bad[k].what, out == NULL);
	}
	fill(&s, slots);
	memset(slots[0].error, 'x', sizeof(slots[0].error));
	slots[0].status = -1;
	CHECK_INT("unterminated", ws_mesh_cells_collect(&s, slots, 2, &out, &err), -WS_E_PROTO);
	CHECK_STR("unterminated", err.msg, "rank 0 sent an unterminated error text for 0 -> 1");
	ws_mesh_schedule_free(&s);

	/* A ring tests 0 -> 1 but not 1 -> 0 for three ranks. */
	ws_mesh_schedule_build(WS_MESH_RING, 3, &s, &err);
	fill(&s, slots);
	slots[2] = (ws_mesh_cell){.src = 1, .dst = 0};
	CHECK_INT("unscheduled", ws_mesh_cells_collect(&s, slots, 2, &out, &err), -WS_E_PROTO);
	CHECK_STR("unscheduled", err.msg, "rank 1 sent a result for 1 -> 0, which schedule ring does not test");
	ws_mesh_schedule_free(&s);
}

/* The printed forms of one matrix into a string. */
static char *render(const ws_mesh_matrix *m, int how)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	if (!f)
		return NULL;
	if (how == 2)
		ws_mesh_matrix_json(m, f);
	else
		ws_mesh_matrix_text(m, how == 1, f);
	fclose(f);
	return buf;
}

/* The matrix of kind for n ranks (n <= 3) in which the cell in slot bad failed with code
 * and msg; free *cells and *s after it. */
static ws_mesh_cell *one_failed(enum ws_mesh_kind kind, int n, size_t bad, int code, const char *msg,
				ws_mesh_schedule *s)
{
	ws_err err;
	ws_mesh_cell slots[6], *cells = NULL;
	ws_mesh_schedule_build(kind, n, s, &err);
	fill(s, slots);
	slots[bad].status = code;
	slots[bad].throughput = slots[bad].elapsed_s = 0;
	snprintf(slots[bad].error, sizeof(slots[bad].error), "%s", msg);
	ws_mesh_cells_collect(s, slots, (size_t)n - 1, &cells, &err);
	return cells;
}

static void test_text(void)
{
	ws_mesh_schedule s;
	ws_mesh_cell *cells = one_failed(WS_MESH_RING, 3, 2, -WS_E_LIMIT, "the daemon reported: over budget", &s);
	ws_mesh_matrix m = {.test = "TCP_STREAM", .s = &s, .units = "10^6bits/s", .peers = peers, .cells = cells};
	CHECK_U64("failed", ws_mesh_matrix_failed(&m), 1);
	CHECK_STR("text", render(&m, 1),
		  "MESH TCP_STREAM TEST: 3 ranks, schedule ring (each rank to the next, all at once): 3 tests in 1 round\n"
		  "Throughput in 10^6bits/s; rows are sources, columns destinations\n"
		  "\n"
		  "Rank  Host                              Address\n"
		  "0     hA                                10.0.0.1\n"
		  "1     hB                                10.0.0.2\n"
		  "2     hC                                10.0.0.3\n"
		  "\n"
		  "from\\to          0          1          2\n"
		  "      0          -       1.25          .\n"
		  "      1          .          -  failed[1]\n"
		  "      2     200.25          .          -\n"
		  "\n"
		  "failed tests:\n"
		  "[1] 1 -> 2 (hB 10.0.0.2 -> hC 10.0.0.3), round 0: the daemon reported: over budget\n");
	CHECK_STR("rows only", render(&m, 0),
		  "      0          -       1.25          .\n"
		  "      1          .          -  failed[1]\n"
		  "      2     200.25          .          -\n"
		  "\n"
		  "failed tests:\n"
		  "[1] 1 -> 2 (hB 10.0.0.2 -> hC 10.0.0.3), round 0: the daemon reported: over budget\n");
	free(cells);
	ws_mesh_schedule_free(&s);
}

static void test_json(void)
{
	ws_mesh_schedule s;
	ws_mesh_cell *cells = one_failed(WS_MESH_MATCHING, 2, 1, -WS_E_REFUSED, "connect \"x\": refused", &s);
	ws_mesh_matrix m = {.test = "TCP_RR", .s = &s, .units = "Trans/s", .peers = peers, .cells = cells};
	CHECK_STR("json", render(&m, 2),
		  "{\n"
		  "  \"type\": \"mesh\",\n"
		  "  \"schema_version\": 1,\n"
		  "  \"test\": \"TCP_RR\",\n"
		  "  \"schedule\": \"matching\",\n"
		  "  \"ranks\": 2,\n"
		  "  \"rounds\": 2,\n"
		  "  \"hosts\": [\n    \"hA\",\n    \"hB\"\n  ],\n"
		  "  \"addresses\": [\n    \"10.0.0.1\",\n    \"10.0.0.2\"\n  ],\n"
		  "  \"units\": \"Trans/s\",\n"
		  "  \"cells\": [\n"
		  "    {\n"
		  "      \"src\": 0,\n      \"dst\": 1,\n      \"src_host\": \"hA\",\n      \"dst_host\": \"hB\",\n"
		  "      \"src_addr\": \"10.0.0.1\",\n      \"dst_addr\": \"10.0.0.2\",\n      \"round\": 0,\n"
		  "      \"throughput\": 1.25,\n      \"units\": \"Trans/s\",\n      \"elapsed\": 1,\n"
		  "      \"error\": null\n"
		  "    },\n"
		  "    {\n"
		  "      \"src\": 1,\n      \"dst\": 0,\n      \"src_host\": \"hB\",\n      \"dst_host\": \"hA\",\n"
		  "      \"src_addr\": \"10.0.0.2\",\n      \"dst_addr\": \"10.0.0.1\",\n      \"round\": 1,\n"
		  "      \"throughput\": null,\n      \"units\": \"Trans/s\",\n      \"elapsed\": null,\n"
		  "      \"error\": \"connect \\\"x\\\": refused\"\n"
		  "    }\n"
		  "  ]\n"
		  "}\n");
	free(cells);
	ws_mesh_schedule_free(&s);
}

int main(void)
{
	RUN(test_collect);
	RUN(test_text);
	RUN(test_json);
	TEST_MAIN_END();
}
