/* SPDX-License-Identifier: BSD-2-Clause */
/* comm: the MPI glue of `warpspeed mesh`, the only code that includes <mpi.h>.
 *
 * The mesh needs little of MPI: who am I and how many are we, one record from every rank
 * to every rank (the endpoints), one array from every rank to rank 0 (the cells), a
 * barrier between rounds, and an abort that takes every rank down. Keeping those behind
 * these few calls keeps MPI out of the library (libwarpspeed.a has no MPI object, in any
 * build): this file and cli/mesh.c are compiled only with make MPI=1.
 *
 * The barrier does not spin: a rank that has finished its tests of a round waits for the
 * others' with a non-blocking barrier polled every millisecond, so it leaves the CPU to
 * the tests still running on its host (MPI's own barrier busy-polls). */
#ifndef WS_MESH_COMM_H
#define WS_MESH_COMM_H

#include <stddef.h>

/* MPI_Init_thread (only the main thread calls MPI); *rank and *size of MPI_COMM_WORLD.
 * Returns 0 or -1 (MPI's error handler has then usually aborted already). */
int ws_mesh_comm_init(int *argc, char ***argv, int *rank, int *size);
void ws_mesh_comm_finalize(void);

/* Every rank's len bytes at mine into all (size * len bytes), on every rank. */
int ws_mesh_comm_allgather(const void *mine, size_t len, void *all);

/* Every rank's len bytes at mine into all (size * len bytes) on rank 0 only (all may be
 * NULL elsewhere). */
int ws_mesh_comm_gather(const void *mine, size_t len, void *all);

/* The largest of every rank's v, on every rank. */
int ws_mesh_comm_max(int v, int *out);

/* Wait for every rank without spinning. */
int ws_mesh_comm_barrier(void);

/* End every rank of the job with status code (MPI_Abort). */
_Noreturn void ws_mesh_comm_abort(int code);

/* This process's host name as MPI knows it (MPI_Get_processor_name), into buf. */
void ws_mesh_comm_host(char *buf, size_t n);

#endif
