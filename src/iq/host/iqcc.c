/* SPDX-License-Identifier: BSD-2-Clause */
/* iqcc: the congestion window of Read IQ and acknowledged Write IQ (see iqcc.h for the
 * algorithm and docs/iq.md, "Congestion window", for the figures behind it).
 *
 * The window lives apart from the engines because both need the same one and because its
 * behaviour is the part that must be shown exactly: tests feed it loss patterns and compare
 * the window after each step. */
#include "iq/host/iqcc.h"

static uint32_t clamp(const ws_iqcc *c, uint64_t w)
{
	return w < c->lo ? c->lo : w > c->hi ? c->hi : (uint32_t)w;
}

static void note(ws_iqcc *c, int64_t t_ns, uint32_t from, uint32_t to)
{
	if (c->nhist < WS_IQCC_HIST)
		c->hist[c->nhist++] = (ws_iqcc_point){.t_ns = t_ns, .from = from, .to = to};
	else
		c->hist_lost++;
}

static void extremes(ws_iqcc *c)
{
	if (c->win < c->least)
		c->least = c->win;
	if (c->win > c->most)
		c->most = c->win;
}

void ws_iqcc_init(ws_iqcc *c, uint32_t start, uint32_t lo, uint32_t hi)
{
	*c = (ws_iqcc){.lo = lo ? lo : 1, .hi = hi};
	if (c->hi < c->lo)
		c->hi = c->lo;
	c->win = clamp(c, start);
	c->ssthresh = c->hi;
	c->least = c->most = c->win;
	note(c, 0, c->win, c->win);
}

void ws_iqcc_mark(ws_iqcc *c)
{
	c->nhist = c->hist_lost = 0;
	c->cuts = 0;
	c->marks++;
	/* A transfer numbers its units from 1 again. */
	c->cut_after = c->round_end = c->round_lost = c->last_lost = c->run = 0;
	c->least = c->most = c->win;
	note(c, 0, c->win, c->win);
}

void ws_iqcc_bound(ws_iqcc *c, uint32_t hi)
{
	c->hi = hi < c->lo ? c->lo : hi;
	if (c->ssthresh > c->hi)
		c->ssthresh = c->hi;
	c->win = clamp(c, c->win);
	extremes(c);
}

static int congested(const ws_iqcc *c, int hard)
{
	return hard || c->run >= WS_IQCC_RUN ||
		(c->round_lost >= 2 && (uint64_t)c->round_lost * WS_IQCC_FRAC >= c->win);
}

int ws_iqcc_ended(ws_iqcc *c, uint32_t no, uint32_t got, uint32_t lost, uint32_t run, int hard,
		  uint32_t next, int64_t now_ns)
{
	if (no < c->cut_after)
		return 0; /* in flight when the window was cut: already answered for */
	if (no >= c->round_end) {
		c->round_end = next;
		c->round_lost = 0;
	}
	if (lost) {
		c->run = got == 0 && no == c->last_lost + 1 && c->run ? c->run + lost : run;
		c->last_lost = no;
		c->round_lost += lost;
		if (congested(c, hard)) {
			uint32_t from = c->win;
			c->win = clamp(c, (uint64_t)c->win * 7 / 10);
			c->ssthresh = c->win;
			c->acc = 0;
			c->cut_after = c->round_end = next;
			c->round_lost = c->run = 0;
			c->cuts++;
			note(c, now_ns, from, c->win);
			extremes(c);
			return 1;
		}
	}
	if (got) {
		if (c->win < c->ssthresh) {
			c->win = clamp(c, (uint64_t)c->win + got);
		} else {
			c->acc += got;
			while (c->acc >= c->win && c->win < c->hi) {
				c->acc -= c->win;
				c->win++;
			}
			if (c->win >= c->hi)
				c->acc = 0;
		}
		extremes(c);
	}
	return 0;
}
