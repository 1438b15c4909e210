/* SPDX-License-Identifier: BSD-2-Clause */
/* ratelog: how many log lines a source may write, and the summary of the rest.
 *
 * A daemon logs what its peers make it do, so a peer that repeats a bad request in a loop
 * writes the log: one netperf session sending an unknown message type as fast as it
 * could, made `warpspeed serve` write one line per message, as fast as they came
 * (docs/benchmarks.md has the figures). Each
 * source of lines (a session, a node's packet errors) keeps one ws_ratelog: a token
 * bucket that lets `burst` lines through at once and then `per_sec` a second, counts the
 * lines it holds back and says how many when the next line goes through or when the
 * source ends ("... 12,345 more like this"). It only decides and formats: the caller
 * writes the lines. Not thread-safe: one limiter per thread or under the caller's lock. */
#ifndef WS_UTIL_RATELOG_H
#define WS_UTIL_RATELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct ws_ratelog {
	double tokens;            /* lines that may go out now */
	double burst;             /* at most this many at once */
	double per_sec;           /* refilled at this rate */
	int64_t last_ns;          /* when tokens was last refilled */
	unsigned long long held;  /* held back since the last summary */
	unsigned long long total; /* held back since init */
} ws_ratelog;

/* The daemon's limits per session: 10 lines at once, then one a second. */
#define WS_RATELOG_BURST   10
#define WS_RATELOG_PER_SEC 1.0

void ws_ratelog_init(ws_ratelog *r, unsigned burst, double per_sec, int64_t now_ns);

/* Whether a line may be written now. True: write it, and when *held > 0 first write a
 * summary of the *held lines held back before it (ws_ratelog_summary). False: the line
 * is counted and must not be written. */
bool ws_ratelog_take(ws_ratelog *r, int64_t now_ns, unsigned long long *held);

/* Lines held back and not yet summarised; resets the count. For the source's last line. */
unsigned long long ws_ratelog_drain(ws_ratelog *r);

/* "... 12,345 more like this (held back: at most 10 lines at once, then 1 per second)"
 * into buf, for held lines. */
void ws_ratelog_summary(const ws_ratelog *r, unsigned long long held, char *buf, size_t n);

#endif
