/* SPDX-License-Identifier: BSD-2-Clause */
/* round: this rank's tests of one round of a mesh, run at once, as normal client tests.
 *
 * A round's pairs that this rank sends in are run in parallel, one thread each, through
 * the same client session as `warpspeed -H` (session/client.h), from this rank's data
 * address to the destination rank's daemon; the figure in each cell is the one the
 * classic table and -o THROUGHPUT print (report/outputs.h), so a mesh cell and a plain
 * run of the same test never disagree. A test that fails only marks its cell: the round,
 * and the mesh, go on. Nothing here knows MPI; the caller keeps the ranks in step. */
#ifndef WS_MESH_ROUND_H
#define WS_MESH_ROUND_H

#include "mesh/endpoint.h"
#include "mesh/matrix.h"
#include "mesh/schedule.h"
#include "model/spec.h"

#include <stddef.h>

typedef struct ws_mesh_round_config {
	const ws_test_spec *spec;  /* every test's spec (from the netperf options) */
	char fmt;                  /* -f letter of the figures; 0 = the test's default */
	const ws_mesh_peer *peers; /* every rank's endpoint, s->ranks of them */
	int self;                  /* this rank */
} ws_mesh_round_config;

/* The units of the figures c->spec and c->fmt give ("10^6bits/s", "Trans/s") into buf. */
void ws_mesh_round_units(const ws_mesh_round_config *c, char *buf, size_t n);

/* Run the pairs of round r of s that c->self sends, all at once, and write one cell per
 * pair into cells (room for max). Returns the number of cells written: every such pair
 * gets one, measured or failed (a test that fails, a destination without a daemon, or a
 * thread that would not start), up to max. */
size_t ws_mesh_round_run(const ws_mesh_round_config *c, const ws_mesh_schedule *s, int r,
			 ws_mesh_cell *cells, size_t max);

#endif
