/* SPDX-License-Identifier: BSD-2-Clause */
/* iq: the 'iq' role of the warpspeed binary (IQ host transport: info, ping, read,
 * write, trigger, bench). */
#ifndef WS_CLI_IQ_H
#define WS_CLI_IQ_H

/* Runs the role; argv[0] is "iq". Returns the process exit status: 0 ok, 1 runtime
 * failure, 2 bad usage. */
int ws_cli_iq_main(int argc, char **argv);

#endif
