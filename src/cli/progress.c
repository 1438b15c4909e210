/* SPDX-License-Identifier: BSD-2-Clause */
/* progress: the live line on stderr; see progress.h. */
#include "cli/progress.h"

#include "util/clock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define DRAW_GAP_NS 250000000 /* at most four draws a second */

bool ws_cli_progress_allowed(bool quiet)
{
	const char *term = getenv("TERM");
	return !quiet && isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
}

void ws_cli_progress_init(ws_cli_progress *p, bool on)
{
	memset(p, 0, sizeof *p);
	p->on = on;
	p->start_ns = ws_clock_ns();
	p->last_ns = p->start_ns - DRAW_GAP_NS;
}

double ws_cli_progress_elapsed(const ws_cli_progress *p)
{
	return (double)(ws_clock_ns() - p->start_ns) / 1e9;
}

/* The terminal's width: a longer line would wrap, and "\r" would then redraw only its last
 * row, leaving the rest behind. */
static size_t columns(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		return ws.ws_col;
	return 80;
}

void ws_cli_progress_draw(ws_cli_progress *p, bool force, const char *fmt, ...)
{
	if (!p->on)
		return;
	int64_t now = ws_clock_ns();
	if (!force && now - p->last_ns < DRAW_GAP_NS)
		return;
	p->last_ns = now;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	size_t cols = columns() - 1; /* the last column would make some terminals wrap */
	if (strlen(line) > cols)
		line[cols] = 0;
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	p->drawn = true;
}

void ws_cli_progress_clear(ws_cli_progress *p)
{
	if (!p->drawn)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->drawn = false;
}

static void *tick_main(void *arg)
{
	ws_cli_progress *p = arg;
	pthread_mutex_lock(&p->mu);
	while (!p->stop) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts); /* the condition variable's default clock */
		ts.tv_nsec += DRAW_GAP_NS;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
		if (!p->stop && ws_cli_progress_elapsed(p) >= p->after_s)
			ws_cli_progress_draw(p, true, "%s  %.1f s", p->label,
					     ws_cli_progress_elapsed(p));
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void ws_cli_progress_tick_start(ws_cli_progress *p, double after_s, const char *label)
{
	if (!p->on || p->ticking)
		return;
	snprintf(p->label, sizeof p->label, "%s", label);
	p->start_ns = ws_clock_ns();
	p->after_s = after_s; /* a quick call draws nothing at all */
	p->stop = false;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->cv, NULL);
	p->ticking = pthread_create(&p->tick, NULL, tick_main, p) == 0;
}

void ws_cli_progress_tick_stop(ws_cli_progress *p)
{
	if (p->ticking) {
		pthread_mutex_lock(&p->mu);
		p->stop = true;
		pthread_cond_signal(&p->cv);
		pthread_mutex_unlock(&p->mu);
		pthread_join(p->tick, NULL);
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->cv);
		p->ticking = false;
	}
	ws_cli_progress_clear(p);
}
