/* SPDX-License-Identifier: BSD-2-Clause */
/* complete: the candidates of shell completion, for the small script in
 * packaging/bash-completion/warpspeed (installed by make install).
 *
 * `warpspeed __complete PROG WORD...` gets the command's name as typed (warpspeed,
 * netperf or netserver: the personality, cli/personality.h) and the words after it up to
 * the one being completed, which may be empty. It prints one candidate per line: an
 * option that takes a value is followed by a tab and the value's form; the line "@files"
 * asks the shell for file names. Options are the ones the role's parser accepts (its
 * table, cli/words.h), after `--` the test options; after -t the tests of the test table;
 * after an option whose value is a file, files; after one with a few fixed values, those;
 * the first word of warpspeed, its roles; the second of `iq`, its commands. */
#ifndef WS_CLI_COMPLETE_H
#define WS_CLI_COMPLETE_H

/* argv[0] is PROG, argv[1..argc-1] the words; returns the exit status (0). */
int ws_cli_complete_main(int argc, char **argv);

#endif
