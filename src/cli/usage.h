/* usage: the text of `warpspeed -h` (global and test options, warpspeed's extensions and
 * the exit status), apart from the parser in options.c. */
#ifndef WS_CLI_USAGE_H
#define WS_CLI_USAGE_H

/* The full usage text for -h, newline-terminated, static storage. */
const char *ws_cli_usage(void);

#endif
