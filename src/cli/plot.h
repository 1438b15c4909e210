/* plot: `warpspeed plot RESULT.json [MORE.json ...] -o FILE.svg`, charts from saved JSON. */
#ifndef WS_CLI_PLOT_H
#define WS_CLI_PLOT_H

/* argv[0] is "plot". Returns the exit status: 0, 1 (a file could not be read or drawn),
 * 2 (usage). */
int ws_cli_plot_main(int argc, char **argv);

#endif
