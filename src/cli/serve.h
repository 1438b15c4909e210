/* serve: the 'serve' role of the warpspeed binary. */
#ifndef WS_CLI_SERVE_H
#define WS_CLI_SERVE_H

/* Runs the role; argv[0] is the role name (or the program name for the client).
 * Returns the process exit status: 0 ok, 1 runtime failure, 2 bad usage. */
int ws_cli_serve_main(int argc, char **argv);

#endif
