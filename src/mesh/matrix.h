/* SPDX-License-Identifier: BSD-2-Clause */
/* matrix: a mesh's results, one cell per scheduled pair, and their two printed forms.
 *
 * Each rank measures the pairs it sends in and hands rank 0 its cells as fixed-size
 * records (a byte copy over MPI). Rank 0 turns the slots into the matrix: every cell is
 * checked against the schedule (the right sender, a scheduled pair, once, numbers finite,
 * text terminated), and a pair nobody reported becomes a failed cell rather than a hole,
 * so the matrix is always complete for its schedule. The matrix is then printed as a
 * classic text table (rows are sources, columns destinations, failed cells numbered and
 * explained below it) or as the JSON document of docs/schema/mesh.schema.json, which the
 * SVG heatmap reads. Nothing here knows MPI. */
#ifndef WS_MESH_MATRIX_H
#define WS_MESH_MATRIX_H

#include "mesh/endpoint.h"
#include "mesh/schedule.h"
#include "util/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define WS_MESH_ERROR_MAX      WS_ERR_MSG_MAX /* a whole ws_err message */
#define WS_MESH_SCHEMA_VERSION 1

/* One test's outcome. An empty slot (a rank sent fewer cells than it has room for) has
 * src -1. */
typedef struct ws_mesh_cell {
	int32_t src, dst;              /* ranks */
	int32_t round;                 /* the schedule's round it ran in */
	int32_t status;                /* 0 measured; else the negative code of the failure */
	double throughput;             /* in the matrix's units (0 when failed) */
	double elapsed_s;              /* the client's measured interval (0 when failed) */
	char error[WS_MESH_ERROR_MAX]; /* why it failed; "" when status is 0 */
} ws_mesh_cell;

/* Turn the gathered slots (ranks * per_rank cells, rank k's in slots [k*per_rank,
 * (k+1)*per_rank)) into one cell per pair of s, sorted by source then destination, in a
 * new array *out of s->npairs cells (the caller frees it). A scheduled pair without a
 * cell becomes a failed cell saying that its sender reported nothing. Returns 0, or
 * -WS_E_PROTO with err naming the rank and the fault for a slot that is not a cell of
 * that rank's scheduled pairs (wrong sender, unscheduled or repeated pair, wrong round,
 * unterminated text, a number that is not finite or is negative), or -ENOMEM. */
int ws_mesh_cells_collect(const ws_mesh_schedule *s, const ws_mesh_cell *slots, size_t per_rank,
			  ws_mesh_cell **out, struct ws_err *err);

typedef struct ws_mesh_matrix {
	const char *test; /* "TCP_STREAM" */
	const ws_mesh_schedule *s;
	const char *units;         /* "10^6bits/s", "Trans/s" */
	const ws_mesh_peer *peers; /* s->ranks of them */
	const ws_mesh_cell *cells; /* s->npairs, from ws_mesh_cells_collect */
} ws_mesh_matrix;

/* How many cells failed. */
size_t ws_mesh_matrix_failed(const ws_mesh_matrix *m);

/* The classic table: with headers, a title line (test, ranks, schedule, tests and rounds,
 * units), the ranks' hosts and addresses, the column header, then one row per source
 * rank; a measured cell is its throughput with two decimals, the diagonal "-", a pair the
 * schedule does not test ".", and a failed cell "failed[k]", explained in a numbered list
 * after the table. Without headers only the rows (and the failure list). Returns 0 or
 * -EIO when writing fails. */
int ws_mesh_matrix_text(const ws_mesh_matrix *m, bool headers, FILE *out);

/* The JSON document (docs/schema/mesh.schema.json). Returns 0 or a negative errno. */
int ws_mesh_matrix_json(const ws_mesh_matrix *m, FILE *out);

#endif
