/* SPDX-License-Identifier: BSD-2-Clause */
/* iqwin: a handle's congestion windows and their bounds, copied out and worded (see
 * iqwin.h). */
#include "iq/host/iqwin.h"

#include "iq/host/hostio.h"

#include <stdarg.h>

void ws_iq_win_get(ws_iq_node *n, ws_iq_win *w)
{
	pthread_mutex_lock(&n->lock);
	*w = (ws_iq_win){.read = n->rcc,
			 .write = n->wcc,
			 .stall_budget_ms = n->cfg.stall_budget_ms,
			 .rtt_ns = n->rtt_ns,
			 .rate_Bps = n->rate_Bps,
			 .rcvbuf = n->info.rcvbuf,
			 .sndbuf = n->info.sndbuf,
			 .read_max_bytes = n->info.window,
			 .ack_max_packets = n->ack_hi,
			 .packet_size = n->info.packet_size,
			 .read_rerequests = n->st.read_rerequests,
			 .write_resends = n->st.write_resends};
	pthread_mutex_unlock(&n->lock);
}

/* Appends to buf[*len..cap), never past it. */
static void add(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	if (*len >= cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	if (k > 0)
		*len += (size_t)k < cap - *len ? (size_t)k : cap - *len - 1;
}

void ws_iq_win_text(const ws_iqcc *c, const char *what, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	add(buf, cap, &len, "%s window (packets):", what);
	for (uint32_t i = 0; i < c->nhist; i++) {
		const ws_iqcc_point *p = &c->hist[i];
		if (i == 0)
			add(buf, cap, &len, " %u at 0 ms;", p->to);
		else
			add(buf, cap, &len, " %u -> %u at %.2f ms;", p->from, p->to,
			    (double)p->t_ns / 1e6);
	}
	if (c->hist_lost)
		add(buf, cap, &len, " (%u more cuts not kept);", c->hist_lost);
	add(buf, cap, &len, " now %u (least %u, most %u, %llu cuts, bounds %u..%u)", c->win,
	    c->least, c->most, (unsigned long long)c->cuts, c->lo, c->hi);
}

void ws_iq_win_memory_text(const ws_iq_win *w, char *buf, size_t cap)
{
	snprintf(buf, cap,
		 "stall budget %u ms, RTT %.0f us, last rate %.1f Mb/s: read window at most "
		 "%.2f MB of SO_RCVBUF %.2f MB granted, acknowledged write window at most %u "
		 "packets (%.2f MB), SO_SNDBUF %.2f MB",
		 w->stall_budget_ms, (double)w->rtt_ns / 1e3, (double)w->rate_Bps * 8 / 1e6,
		 w->read_max_bytes / 1e6, w->rcvbuf / 1e6, w->ack_max_packets,
		 (double)w->ack_max_packets * w->packet_size / 1e6, w->sndbuf / 1e6);
}

void ws_iq_win_json(FILE *f, const ws_iqcc *c)
{
	fprintf(f, "\"start\": %u, \"least\": %u, \"most\": %u, \"end\": %u, \"cuts\": %llu, ",
		c->nhist ? c->hist[0].to : c->win, c->least, c->most, c->win,
		(unsigned long long)c->cuts);
	fprintf(f, "\"history\": [");
	for (uint32_t i = 1; i < c->nhist; i++)
		fprintf(f, "%s[%.4f, %u, %u]", i > 1 ? ", " : "", (double)c->hist[i].t_ns / 1e6,
			c->hist[i].from, c->hist[i].to);
	fprintf(f, "], \"history_not_kept\": %u", c->hist_lost);
}

void ws_iq_win_memory_json(FILE *f, const ws_iq_win *w)
{
	fprintf(f,
		"{\"stall_budget_ms\": %u, \"rtt_us\": %.1f, \"rate_mbps\": %.2f, "
		"\"read_window_max_bytes\": %u, \"rcvbuf\": %d, \"ack_window_max_packets\": %u, "
		"\"ack_window_max_bytes\": %llu, \"sndbuf\": %d}",
		w->stall_budget_ms, (double)w->rtt_ns / 1e3, (double)w->rate_Bps * 8 / 1e6,
		w->read_max_bytes, w->rcvbuf, w->ack_max_packets,
		(unsigned long long)w->ack_max_packets * w->packet_size, w->sndbuf);
}
