/* SPDX-License-Identifier: BSD-2-Clause */
/* test_mesh_schedule: the mesh's schedules pair by pair for 2 to 5 ranks, and their rules
 * (every ordered pair once, no rank twice in a matching round) for every size up to 20. */
#include "harness.h"

#include "mesh/schedule.h"
#include "util/err.h"

#include <stdbool.h>

/* A schedule as text: rounds split by " | ", pairs "src>dst" in their order. */
static const char *text_of(enum ws_mesh_kind k, int n)
{
	static char buf[4096];
	ws_mesh_schedule s;
	ws_err err;
	if (ws_mesh_schedule_build(k, n, &s, &err) < 0) {
		snprintf(buf, sizeof(buf), "%s", err.msg);
		return buf;
	}
	size_t o = 0;
	buf[0] = 0;
	for (int r = 0; r < s.nrounds; r++)
		for (size_t i = s.round_start[r]; i < s.round_start[r + 1]; i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%d>%d",
					      i == s.round_start[r] ? (r ? " | " : "") : " ", s.pairs[i].src,
					      s.pairs[i].dst);
	ws_mesh_schedule_free(&s);
	return buf;
}

static void test_exact_lists(void)
{
	CHECK_STR("all 2", text_of(WS_MESH_ALL, 2), "0>1 | 1>0");
	CHECK_STR("all 3", text_of(WS_MESH_ALL, 3), "0>1 | 0>2 | 1>0 | 1>2 | 2>0 | 2>1");
	CHECK_STR("all 4", text_of(WS_MESH_ALL, 4),
		  "0>1 | 0>2 | 0>3 | 1>0 | 1>2 | 1>3 | 2>0 | 2>1 | 2>3 | 3>0 | 3>1 | 3>2");
	CHECK_STR("ring 2", text_of(WS_MESH_RING, 2), "0>1 1>0");
	CHECK_STR("ring 3", text_of(WS_MESH_RING, 3), "0>1 1>2 2>0");
	CHECK_STR("ring 5", text_of(WS_MESH_RING, 5), "0>1 1>2 2>3 3>4 4>0");
	CHECK_STR("matching 2", text_of(WS_MESH_MATCHING, 2), "0>1 | 1>0");
	CHECK_STR("matching 3", text_of(WS_MESH_MATCHING, 3), "1>2 | 2>0 | 0>1 | 2>1 | 0>2 | 1>0");
	CHECK_STR("matching 4", text_of(WS_MESH_MATCHING, 4),
		  "0>3 1>2 | 2>0 3>1 | 0>1 2>3 | 2>1 3>0 | 0>2 1>3 | 1>0 3>2");
	CHECK_STR("matching 5", text_of(WS_MESH_MATCHING, 5),
		  "1>4 2>3 | 2>0 3>4 | 3>1 4>0 | 0>1 4>2 | 0>3 1>2 | 3>2 4>1 | 0>2 4>3 | 0>4 1>3 | 1>0 2>4 | 2>1 3>0");
	CHECK_STR("all-to-all 2", text_of(WS_MESH_ALL_TO_ALL, 2), "0>1 1>0");
	CHECK_STR("all-to-all 3", text_of(WS_MESH_ALL_TO_ALL, 3), "0>1 0>2 1>0 1>2 2>0 2>1");
}

/* The rules of kind k for n ranks. */
static void check_rules(enum ws_mesh_kind k, int n)
{
	char name[64];
	snprintf(name, sizeof(name), "%s %d", ws_mesh_kind_name(k), n);
	ws_mesh_schedule s;
	ws_err err;
	if (ws_mesh_schedule_build(k, n, &s, &err) < 0) {
		CHECK(name, false);
		return;
	}
	static int seen[32][32];
	memset(seen, 0, sizeof(seen));
	bool twice_in_round = false;
	for (int r = 0; r < s.nrounds; r++) {
		int in_round[32] = {0};
		for (size_t i = s.round_start[r]; i < s.round_start[r + 1]; i++) {
			ws_mesh_pair p = s.pairs[i];
			CHECK(name, p.src >= 0 && p.src < n && p.dst >= 0 && p.dst < n && p.src != p.dst);
			seen[p.src][p.dst]++;
			if (++in_round[p.src] > 1 || ++in_round[p.dst] > 1)
				twice_in_round = true;
		}
	}
	int once = 0, more = 0;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			once += seen[a][b] == 1;
			more += seen[a][b] > 1;
		}
	CHECK_INT(name, more, 0);
	CHECK_U64(name, s.round_start[s.nrounds], s.npairs);
	int m = n + (n & 1);
	switch (k) {
	case WS_MESH_RING:
		CHECK_INT(name, once, n);
		CHECK_INT(name, s.nrounds, 1);
		CHECK_INT(name, ws_mesh_schedule_max_sends(&s), 1);
		break;
	case WS_MESH_MATCHING:
		CHECK_INT(name, once, n * (n - 1));
		CHECK_INT(name, s.nrounds, 2 * (m - 1));
		CHECK(name, !twice_in_round);
		for (int r = 0; r < s.nrounds; r++)
			CHECK_U64(name, s.round_start[r + 1] - s.round_start[r], (size_t)(n / 2));
		CHECK_INT(name, ws_mesh_schedule_max_sends(&s), 1);
		break;
	case WS_MESH_ALL:
		CHECK_INT(name, once, n * (n - 1));
		CHECK_INT(name, s.nrounds, n * (n - 1));
		CHECK_INT(name, ws_mesh_schedule_max_sends(&s), 1);
		break;
	case WS_MESH_ALL_TO_ALL:
		CHECK_INT(name, once, n * (n - 1));
		CHECK_INT(name, s.nrounds, 1);
		CHECK_INT(name, ws_mesh_schedule_max_sends(&s), n - 1);
		break;
	}
	ws_mesh_schedule_free(&s);
}

static void test_rules(void)
{
	static const enum ws_mesh_kind kinds[] = {WS_MESH_ALL, WS_MESH_RING, WS_MESH_MATCHING, WS_MESH_ALL_TO_ALL};
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (int n = 2; n <= 20; n++)
			check_rules(kinds[k], n);
}

static void test_names_and_limits(void)
{
	enum ws_mesh_kind k = WS_MESH_ALL;
	ws_err err;
	CHECK_INT("all-to-all", ws_mesh_kind_from_name("all-to-all", &k, &err), 0);
	CHECK_INT("kind", k, WS_MESH_ALL_TO_ALL);
	CHECK_STR("name", ws_mesh_kind_name(WS_MESH_MATCHING), "matching");
	CHECK_INT("bad name", ws_mesh_kind_from_name("star", &k, &err), -WS_E_INVAL);
	CHECK_STR("bad name message", err.msg, "'star' is not a schedule; expected all, ring, matching or all-to-all");
	ws_mesh_schedule s;
	CHECK_INT("one rank", ws_mesh_schedule_build(WS_MESH_ALL, 1, &s, &err), -WS_E_INVAL);
	CHECK_STR("one rank message", err.msg, "the job has 1 rank; a mesh needs 2 to 256 ranks (mpirun -np N)");
	CHECK_INT("257 ranks", ws_mesh_schedule_build(WS_MESH_RING, 257, &s, &err), -WS_E_INVAL);
	CHECK_INT("256 ranks", ws_mesh_schedule_build(WS_MESH_ALL, 256, &s, &err), 0);
	CHECK_U64("256 ranks pairs", s.npairs, 256u * 255u);
	ws_mesh_schedule_free(&s);
}

int main(void)
{
	RUN(test_exact_lists);
	RUN(test_rules);
	RUN(test_names_and_limits);
	TEST_MAIN_END();
}
