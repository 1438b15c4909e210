/* SPDX-License-Identifier: BSD-2-Clause */
/* comm: the mesh's few MPI calls; see comm.h. */
#include "mesh/comm.h"

#include <mpi.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int ws_mesh_comm_init(int *argc, char ***argv, int *rank, int *size)
{
	int provided;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
		return -1;
	if (MPI_Comm_rank(MPI_COMM_WORLD, rank) != MPI_SUCCESS ||
	    MPI_Comm_size(MPI_COMM_WORLD, size) != MPI_SUCCESS)
		return -1;
	return 0;
}

void ws_mesh_comm_finalize(void) { MPI_Finalize(); }

int ws_mesh_comm_allgather(const void *mine, size_t len, void *all)
{
	if (len > INT_MAX)
		return -1;
	return MPI_Allgather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, MPI_COMM_WORLD) ==
			MPI_SUCCESS
		? 0
		: -1;
}

int ws_mesh_comm_gather(const void *mine, size_t len, void *all)
{
	if (len > INT_MAX)
		return -1;
	return MPI_Gather(mine, (int)len, MPI_BYTE, all, (int)len, MPI_BYTE, 0, MPI_COMM_WORLD) ==
			MPI_SUCCESS
		? 0
		: -1;
}

int ws_mesh_comm_max(int v, int *out)
{
	return MPI_Allreduce(&v, out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

int ws_mesh_comm_barrier(void)
{
	MPI_Request req;
	if (MPI_Ibarrier(MPI_COMM_WORLD, &req) != MPI_SUCCESS)
		return -1;
	const struct timespec ms = {0, 1000000};
	for (;;) {
		int done = 0;
		if (MPI_Test(&req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			return 0;
		nanosleep(&ms, NULL);
	}
}

_Noreturn void ws_mesh_comm_abort(int code)
{
	MPI_Abort(MPI_COMM_WORLD, code);
	exit(code); /* MPI_Abort does not return; this is for the compiler */
}

void ws_mesh_comm_host(char *buf, size_t n)
{
	char name[MPI_MAX_PROCESSOR_NAME];
	int len = 0;
	if (MPI_Get_processor_name(name, &len) != MPI_SUCCESS || len <= 0)
		snprintf(name, sizeof(name), "?");
	snprintf(buf, n, "%s", name);
}
