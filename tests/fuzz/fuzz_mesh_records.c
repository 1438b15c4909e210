/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_mesh_records: what rank 0 and every rank take from the other ranks of a mesh, the
 * endpoint records (mesh/endpoint.h) and the gathered cells (mesh/matrix.h), as raw bytes.
 *
 * The first byte picks the schedule, the second the rank count (2 to 9); the records start
 * as a good run would send them (every scheduled cell measured, every endpoint valid) and
 * the rest of the input overwrites them from the first cell slot on, through the slots and
 * then the endpoints, byte for byte as MPI would copy them. Every record must be judged
 * without reading outside it, and whatever is accepted must print as the table and the
 * JSON without fault. */
#include "mesh/endpoint.h"
#include "mesh/matrix.h"
#include "mesh/schedule.h"
#include "util/err.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	enum ws_mesh_kind kind = (enum ws_mesh_kind)(data[0] % 4);
	int n = 2 + data[1] % 8;
	data += 2, size -= 2;
	size_t per = (size_t)n - 1;
	size_t pbytes = (size_t)n * sizeof(ws_mesh_peer), cbytes = (size_t)n * per * sizeof(ws_mesh_cell);
	ws_mesh_peer *peers = calloc(1, pbytes);
	ws_mesh_cell *slots = calloc(1, cbytes);
	ws_mesh_schedule s;
	ws_err err;
	if (!peers || !slots || ws_mesh_schedule_build(kind, n, &s, &err) < 0) {
		free(peers);
		free(slots);
		return 0;
	}
	/* A good run's records. */
	size_t used[16] = {0};
	for (size_t i = 0; i < (size_t)n * per; i++)
		slots[i] = (ws_mesh_cell){.src = -1};
	for (int r = 0; r < s.nrounds; r++)
		for (size_t i = s.round_start[r]; i < s.round_start[r + 1]; i++) {
			ws_mesh_pair p = s.pairs[i];
			slots[(size_t)p.src * per + used[p.src]++] =
				(ws_mesh_cell){.src = p.src, .dst = p.dst, .round = r, .throughput = 1, .elapsed_s = 1};
		}
	for (int i = 0; i < n; i++) {
		peers[i] = (ws_mesh_peer){.port = 1, .family = 4};
		snprintf(peers[i].host, sizeof(peers[i].host), "h%d", i);
		snprintf(peers[i].addr, sizeof(peers[i].addr), "10.0.0.%d", i + 1);
	}
	/* The input over them: the slots first, then the endpoints. */
	size_t k = size < cbytes ? size : cbytes;
	memcpy(slots, data, k);
	if (size > cbytes)
		memcpy(peers, data + cbytes, size - cbytes < pbytes ? size - cbytes : pbytes);
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad |= ws_mesh_peer_check(&peers[i], i, &err) < 0;
	ws_mesh_cell *cells = NULL;
	if (ws_mesh_cells_collect(&s, slots, per, &cells, &err) == 0 && !bad) {
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			ws_mesh_matrix m = {.test = "TCP_STREAM", .s = &s, .units = "10^6bits/s", .peers = peers,
					    .cells = cells};
			ws_mesh_matrix_text(&m, true, f);
			ws_mesh_matrix_json(&m, f);
			fclose(f);
		}
	}
	free(cells);
	ws_mesh_schedule_free(&s);
	free(peers);
	free(slots);
	return 0;
}
