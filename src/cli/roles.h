/* SPDX-License-Identifier: BSD-2-Clause */
/* roles: the words that name a role of the single binary as its first argument, and the
 * function each one runs, in one list. cli/main.c dispatches on it and the shell
 * completion (cli/complete.c) offers the same words, so a new role is one line here.
 * X(word, entry): entry takes the role's own argc/argv (argv[0] is the word). */
#ifndef WS_CLI_ROLES_H
#define WS_CLI_ROLES_H

#define WS_CLI_ROLES(X)               \
	X("serve", ws_cli_serve_main) \
	X("node", ws_cli_node_main)   \
	X("iq", ws_cli_iq_main)       \
	X("mesh", ws_cli_mesh_role)   \
	X("plot", ws_cli_plot_main)   \
	X("compare", ws_cli_compare_main)

#endif
