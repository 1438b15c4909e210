/* SPDX-License-Identifier: BSD-2-Clause */
/* progress: the one live progress line a person sees on a terminal during a long run.
 *
 * A 10 s test or a minutes-long IQ benchmark that prints nothing looks hung (issue 29).
 * Every role draws its feedback through this module so that one rule holds: a single line
 * on stderr, redrawn in place ("\r", the text cut to the terminal's width, then
 * clear-to-end-of-line) at most four times a second, and erased before the results are
 * printed. It is drawn only when stderr is a terminal and the user did not ask for quiet
 * output (--quiet, -P 0): a pipe or a file never receives a byte of it, and stdout (the
 * results, netperf's layout) is never touched. The library only reports progress through
 * callbacks (measure/interim.h, iq/host/bench.h); the text is made here, in the CLI. */
#ifndef WS_CLI_PROGRESS_H
#define WS_CLI_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define WS_CLI_PROGRESS_MIN_S 3.0 /* runs planned shorter than this draw nothing */

typedef struct ws_cli_progress {
	bool on;          /* drawing at all (a terminal, not quiet) */
	bool drawn;       /* something is on the line now */
	int64_t start_ns; /* when the run began (monotonic) */
	int64_t last_ns;  /* the last draw; draws come at most every 250 ms */
	/* the ticker thread of ws_cli_progress_tick_start (read, write) */
	pthread_t tick;
	bool ticking;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool stop;
	char label[160];
	double after_s;
} ws_cli_progress;

/* Whether a progress line may be drawn: stderr is a terminal (and TERM is not "dumb") and
 * quiet is false. */
bool ws_cli_progress_allowed(bool quiet);

/* Starts p (the clock from now); on = ws_cli_progress_allowed(...) and whatever else the
 * caller requires. */
void ws_cli_progress_init(ws_cli_progress *p, bool on);

/* Seconds since ws_cli_progress_init. */
double ws_cli_progress_elapsed(const ws_cli_progress *p);

/* Draws the line (printf form) unless less than 250 ms passed since the last draw (force:
 * draw anyway). Nothing when p is off. */
void ws_cli_progress_draw(ws_cli_progress *p, bool force, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Erases the line if one is drawn; call before printing results. */
void ws_cli_progress_clear(ws_cli_progress *p);

/* For one long library call without a progress callback (iq read, iq write): a thread
 * draws "label  elapsed s" four times a second from after_s seconds on, until
 * ws_cli_progress_tick_stop, which erases the line. Nothing when p is off. */
void ws_cli_progress_tick_start(ws_cli_progress *p, double after_s, const char *label);
void ws_cli_progress_tick_stop(ws_cli_progress *p);

#endif
