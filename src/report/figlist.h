/* SPDX-License-Identifier: BSD-2-Clause */
/* figlist: the -o / -O / -k output selectors of the tests whose figures are not netperf's
 * (-t RPM, -t RRUL and RRUL_BE). Each such test keeps one table of its output names
 * (model/rpm.h, report/lul_outputs.c); this module walks any such table the same way: it
 * checks a list before the run (naming every accepted name when one is unknown), lists the
 * names for "-o ?", and prints the selected values as CSV, columns or NAME=value lines,
 * so the tests agree with each other and with the netperf tests' forms. */
#ifndef WS_REPORT_FIGLIST_H
#define WS_REPORT_FIGLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ws_err;

/* A test's table of output names, seen through two functions. */
typedef struct ws_figlist {
	const char *test; /* "-t RPM", for the messages */
	size_t n;
	const char *(*name)(size_t i);
	/* value i of result into buf ("" when it has none) */
	void (*value)(size_t i, const void *result, char *buf, size_t n);
} ws_figlist;

/* True when list asks for the names ("?"). */
bool ws_figlist_asks_names(const char *list);

/* Check list ("A,B" or "A B"; NULL or "all" = every name; "?" passes) before the run:
 * -WS_E_INVAL naming the first unknown name and the accepted ones. */
int ws_figlist_check(const ws_figlist *fl, const char *list, struct ws_err *err);

/* Every name, one a line (-o ?). Returns 0 or -1 when the write failed. */
int ws_figlist_names(const ws_figlist *fl, FILE *out);

/* The selected values: mode 1 -o (CSV: the names when headers, then the values), 2 -O
 * (names and values in columns), 3 -k (NAME=value per line). */
void ws_figlist_render(const ws_figlist *fl, const void *result, const char *list, int mode,
		       bool headers, FILE *out);

#endif
