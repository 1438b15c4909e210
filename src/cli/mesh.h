/* SPDX-License-Identifier: BSD-2-Clause */
/* mesh: the `warpspeed mesh` role, launched by mpirun (built only with make MPI=1). */
#ifndef WS_CLI_MESH_H
#define WS_CLI_MESH_H

/* argv[0] is "mesh". Returns the exit status: 0 every test ran, 1 a test or a rank
 * failed, 2 bad usage. A rank that cannot take part ends the whole job (MPI_Abort). */
int ws_cli_mesh_main(int argc, char **argv);

#endif
