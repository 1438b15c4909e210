/* SPDX-License-Identifier: BSD-2-Clause */
/* text: strings a peer sent, made safe for every text output.
 *
 * A netserver's congestion-control name, a daemon's host name or I/O path, its error
 * text: each comes from the other end, and each is printed in the classic table, in -o's
 * CSV, -O's columns, -k's NAME=value lines, JSON, the log or on stderr. A peer that put an
 * escape sequence, a bell or a newline in one could rewrite the user's terminal or add a
 * forged line to a harness's CSV; a comma or a double quote would split or open a CSV
 * field (netperf 2.7.0 prints such strings as they are and quotes only COMMAND_LINE, its
 * own). So every such string is cleaned once, where it is decoded from the wire. */
#ifndef WS_UTIL_TEXT_H
#define WS_UTIL_TEXT_H

#include <stdbool.h>

/* Replace, in place, every byte that is not printable ASCII (below 0x20, 0x7f and up)
 * with '?'; with field, also ',', '"' and '\\' (a value that lands in a CSV field or a
 * NAME=value line). Returns how many bytes were replaced. */
unsigned ws_text_clean(char *s, bool field);

#endif
