/* SPDX-License-Identifier: BSD-2-Clause */
/* schedule: the mesh's pair lists; see schedule.h. */
#include "mesh/schedule.h"

#include "util/err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Pairs of one schedule are appended round by round; the caller sized the arrays. */
typedef struct builder {
	ws_mesh_schedule *s;
	size_t cap;
} builder;

static void add(builder *b, int src, int dst)
{
	if (b->s->npairs < b->cap)
		b->s->pairs[b->s->npairs++] = (ws_mesh_pair){src, dst};
}

static int by_source(const void *a, const void *b)
{
	const ws_mesh_pair *x = a, *y = b;
	return x->src != y->src ? (x->src > y->src) - (x->src < y->src)
				: (x->dst > y->dst) - (x->dst < y->dst);
}

/* Close the round begun at round_start[nrounds]: sort it and open the next. */
static void end_round(builder *b)
{
	ws_mesh_schedule *s = b->s;
	size_t from = s->round_start[s->nrounds];
	qsort(s->pairs + from, s->npairs - from, sizeof(*s->pairs), by_source);
	s->round_start[++s->nrounds] = s->npairs;
}

static void build_all(builder *b, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j) {
				add(b, i, j);
				end_round(b);
			}
}

static void build_ring(builder *b, int n)
{
	for (int i = 0; i < n; i++)
		add(b, i, (i + 1) % n);
	end_round(b);
}

static void build_matching(builder *b, int n)
{
	int m = n + (n & 1); /* an odd count gets a bye: player n, who plays no test */
	int rot = m - 1;
	for (int pass = 0; pass < 2; pass++)
		for (int r = 0; r < rot; r++) {
			int x = r, y = rot; /* the fixed player's pair */
			if (r & 1)
				x = rot, y = r;
			if (x < n && y < n) /* else one of them is the bye */
				add(b, pass ? y : x, pass ? x : y);
			for (int k = 1; k < m / 2; k++) {
				int a = (r + k) % rot, c = (r - k + rot) % rot;
				add(b, pass ? c : a, pass ? a : c);
			}
			end_round(b);
		}
}

static void build_all_to_all(builder *b, int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (i != j)
				add(b, i, j);
	end_round(b);
}

/* One row per schedule: adding one is a row and a builder. */
static const struct kind_def {
	enum ws_mesh_kind kind;
	const char *name;
	const char *describe;
	void (*build)(builder *b, int n);
	/* clang-format off */
} kinds[] = {
	{WS_MESH_ALL, "all", "every ordered pair, one test at a time", build_all},
	{WS_MESH_RING, "ring", "each rank to the next, all at once", build_ring},
	{WS_MESH_MATCHING, "matching", "matching rounds, each rank in one test per round", build_matching},
	{WS_MESH_ALL_TO_ALL, "all-to-all", "every ordered pair at once", build_all_to_all},
};
/* clang-format on */
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

static const struct kind_def *def_of(enum ws_mesh_kind k)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i].kind == k)
			return &kinds[i];
	return NULL;
}

const char *ws_mesh_kind_name(enum ws_mesh_kind k)
{
	const struct kind_def *d = def_of(k);
	return d ? d->name : "?";
}

const char *ws_mesh_kind_describe(enum ws_mesh_kind k)
{
	const struct kind_def *d = def_of(k);
	return d ? d->describe : "?";
}

int ws_mesh_kind_from_name(const char *name, enum ws_mesh_kind *out, ws_err *err)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (strcmp(name, kinds[i].name) == 0) {
			*out = kinds[i].kind;
			return 0;
		}
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not a schedule; expected all, ring, matching or all-to-all",
			  name);
}

int ws_mesh_schedule_build(enum ws_mesh_kind kind, int ranks, ws_mesh_schedule *s, ws_err *err)
{
	memset(s, 0, sizeof(*s));
	const struct kind_def *d = def_of(kind);
	if (!d)
		return ws_err_set(err, WS_E_INVAL,
				  "schedule %d is not one of all, ring, matching, all-to-all",
				  (int)kind);
	if (ranks < 2 || ranks > WS_MESH_MAX_RANKS)
		return ws_err_set(
			err, WS_E_INVAL,
			"the job has %d rank%s; a mesh needs 2 to %d ranks (mpirun -np N)", ranks,
			ranks == 1 ? "" : "s", WS_MESH_MAX_RANKS);
	/* At most N(N-1) pairs and as many rounds (the quiet matrix has one pair a round). */
	size_t cap = (size_t)ranks * (size_t)(ranks - 1);
	s->kind = kind;
	s->ranks = ranks;
	s->pairs = malloc(cap * sizeof(*s->pairs));
	s->round_start = calloc(cap + 1, sizeof(*s->round_start));
	if (!s->pairs || !s->round_start) {
		ws_mesh_schedule_free(s);
		return ws_err_set(err, ENOMEM, "no memory for a schedule of %d ranks", ranks);
	}
	builder b = {s, cap};
	d->build(&b, ranks);
	return 0;
}

void ws_mesh_schedule_free(ws_mesh_schedule *s)
{
	free(s->pairs);
	free(s->round_start);
	memset(s, 0, sizeof(*s));
}

int ws_mesh_schedule_max_sends(const ws_mesh_schedule *s)
{
	int best = 0;
	int *count = calloc((size_t)s->ranks, sizeof(*count));
	if (!count)
		return s->ranks > 1 ? s->ranks - 1 : 0; /* the bound for any schedule */
	for (int r = 0; r < s->nrounds; r++) {
		memset(count, 0, (size_t)s->ranks * sizeof(*count));
		for (size_t i = s->round_start[r]; i < s->round_start[r + 1]; i++)
			if (++count[s->pairs[i].src] > best)
				best = count[s->pairs[i].src];
	}
	free(count);
	return best;
}
