/* SPDX-License-Identifier: BSD-2-Clause */
/* schedule: which ordered pairs of ranks test, and which of them at the same time.
 *
 * A mesh measures every pair it schedules with a normal warpspeed test; what changes from
 * one schedule to another is only who runs together, which is the whole question a mesh
 * answers (the quiet matrix, a shift pattern, a switch under a full bisection load, or
 * under every pair at once). The schedules are pure functions of the schedule and the rank
 * count, kept apart from MPI and sockets so that they can be checked pair by pair. A
 * schedule is a list of rounds; the pairs of a round run at once, and a round starts when
 * every rank has finished the one before it. Every schedule tests each ordered pair at
 * most once. */
#ifndef WS_MESH_SCHEDULE_H
#define WS_MESH_SCHEDULE_H

#include <stddef.h>

struct ws_err;

/* The most ranks a mesh takes: a full matrix of 256 ranks is 65280 tests. */
#define WS_MESH_MAX_RANKS 256

enum ws_mesh_kind {
	WS_MESH_ALL,      /* every ordered pair, one test at a time: the quiet matrix */
	WS_MESH_RING,     /* rank i to i+1 (mod N), all N at once: one send and one receive each */
	WS_MESH_MATCHING, /* round-robin tournament rounds, each host in one test per round */
	WS_MESH_ALL_TO_ALL, /* every ordered pair at once: the congested matrix */
};

typedef struct ws_mesh_pair {
	int src, dst;
} ws_mesh_pair;

typedef struct ws_mesh_schedule {
	enum ws_mesh_kind kind;
	int ranks;
	int nrounds;
	size_t npairs;
	ws_mesh_pair *pairs; /* every pair, round after round; within a round by source */
	size_t *round_start; /* nrounds + 1 offsets into pairs: round r is [start[r], start[r+1]) */
} ws_mesh_schedule;

/* The name of a schedule as --pairs takes it ("all", "ring", "matching", "all-to-all"). */
const char *ws_mesh_kind_name(enum ws_mesh_kind k);

/* --pairs NAME. Returns 0, or -WS_E_INVAL with err naming the value and the names
 * accepted. */
int ws_mesh_kind_from_name(const char *name, enum ws_mesh_kind *out, struct ws_err *err);

/* One line for people: how the schedule runs its tests ("one test at a time"). */
const char *ws_mesh_kind_describe(enum ws_mesh_kind k);

/* Build kind's schedule for ranks in 2..WS_MESH_MAX_RANKS into *s (free it with
 * ws_mesh_schedule_free).
 *   all:        N(N-1) rounds of one pair: (0,1), (0,2) .. (0,N-1), (1,0), (1,2) ..
 *   ring:       one round of N pairs (i, i+1 mod N).
 *   matching:   the circle method over M = N (N even) or N+1 (N odd, the extra player
 *               being a bye): M-1 rounds in which each host is in at most one pair, then
 *               the same rounds with every pair reversed, so that every ordered pair runs
 *               exactly once in 2(M-1) rounds of floor(N/2) pairs. In round r < M-1 the
 *               fixed player M-1 meets r (r sends when r is even, receives when odd) and
 *               for k = 1 .. M/2-1, (r+k) mod (M-1) sends to (r-k) mod (M-1).
 *   all-to-all: one round of every ordered pair.
 * Returns 0, -WS_E_INVAL (rank count out of range, with err saying so) or -ENOMEM. */
int ws_mesh_schedule_build(enum ws_mesh_kind kind, int ranks, ws_mesh_schedule *s,
			   struct ws_err *err);

void ws_mesh_schedule_free(ws_mesh_schedule *s);

/* The most pairs any rank sends in one round of s (what it runs in parallel). */
int ws_mesh_schedule_max_sends(const ws_mesh_schedule *s);

#endif
