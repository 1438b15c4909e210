/* SPDX-License-Identifier: BSD-2-Clause */
/* pathnotes: --mptcp and --busy-poll as they turned out; see pathnotes.h. */
#include "report/pathnotes.h"

#include <inttypes.h>
#include <string.h>

/* A side's MPTCP state in words. */
static const char *mptcp_words(const ws_test_result *r, const ws_side_result *s, bool local)
{
	if (!local && r->spec.netperf_peer)
		return "plain TCP (a stock netserver)";
	if (!strcmp(s->mptcp_state, "mptcp"))
		return "MPTCP in use";
	if (!strcmp(s->mptcp_state, "fallback"))
		return "FELL BACK to plain TCP (the peer did not take MPTCP)";
	if (!strcmp(s->mptcp_state, "tcp"))
		return "plain TCP";
	return "not read";
}

static void print_mptcp(const ws_test_result *r, int verbosity, FILE *out)
{
	const ws_side_result *l = &r->local, *m = &r->remote;
	fprintf(out, "MPTCP: local %s, %" PRIu32 " subflow%s; remote %s", mptcp_words(r, l, true),
		l->mptcp_subflows, l->mptcp_subflows == 1 ? "" : "s", mptcp_words(r, m, false));
	if (!r->spec.netperf_peer && m->mptcp_state[0])
		fprintf(out, ", %" PRIu32 " subflow%s", m->mptcp_subflows,
			m->mptcp_subflows == 1 ? "" : "s");
	fputc('\n', out);
	for (uint32_t i = 0; verbosity >= 2 && i < l->mptcp_nsf; i++) {
		const ws_mptcp_subflow *f = &l->mptcp_sf[i];
		fprintf(out,
			"MPTCP subflow %" PRIu32 " (local): %s -> %s, bytes acked %" PRIu64
			", received %" PRIu64 ", RTT %" PRIu32 " us\n",
			f->id, f->local, f->remote, f->bytes_acked, f->bytes_recv, f->rtt_us);
	}
}

static void busy_words(const ws_test_result *r, const ws_side_result *s, bool local, char *buf,
		       size_t n)
{
	if (!local && r->spec.netperf_peer) {
		snprintf(buf, n, "none (a stock netserver)");
		return;
	}
	if (!s->busy_spin) {
		snprintf(buf, n, "not reported");
		return;
	}
	char bp[48];
	if (s->busy_poll_set < 0)
		snprintf(bp, sizeof(bp), "SO_BUSY_POLL refused");
	else if (s->busy_poll_set == 0)
		snprintf(bp, sizeof(bp), "no SO_BUSY_POLL");
	else
		snprintf(bp, sizeof(bp), "SO_BUSY_POLL %" PRId64 " us", s->busy_poll_set);
	snprintf(buf, n, "spinning receive, %s, %s", bp,
		 s->napi_id ? "NAPI device" : "no NAPI device (the spin alone)");
}

void ws_pathnotes_print(const ws_test_result *r, int verbosity, FILE *out)
{
	if (!r || verbosity < 1)
		return;
	if (r->spec.mptcp)
		print_mptcp(r, verbosity, out);
	if (r->spec.busy_poll) {
		char a[128], b[128];
		busy_words(r, &r->local, true, a, sizeof(a));
		busy_words(r, &r->remote, false, b, sizeof(b));
		fprintf(out, "Busy poll: local %s; remote %s\n", a, b);
	}
}

static void mptcp_json(ws_json *j, const ws_test_result *r, const ws_side_result *s, bool local)
{
	if (!r->spec.mptcp) {
		ws_json_null(j, "mptcp");
		return;
	}
	ws_json_object_begin(j, "mptcp");
	bool known = s->mptcp_state[0] && (local || !r->spec.netperf_peer);
	if (known) {
		ws_json_str(j, "state", s->mptcp_state);
		ws_json_bool(j, "fallback", !strcmp(s->mptcp_state, "fallback"));
		ws_json_uint(j, "subflows", s->mptcp_subflows);
	} else {
		ws_json_null(j, "state");
		ws_json_null(j, "fallback");
		ws_json_null(j, "subflows");
	}
	ws_json_array_begin(j, "subflow_list");
	for (uint32_t i = 0; i < s->mptcp_nsf; i++) {
		const ws_mptcp_subflow *f = &s->mptcp_sf[i];
		ws_json_object_begin(j, NULL);
		ws_json_uint(j, "id", f->id);
		ws_json_str(j, "local", f->local);
		ws_json_str(j, "remote", f->remote);
		ws_json_uint(j, "bytes_acked", f->bytes_acked);
		ws_json_uint(j, "bytes_received", f->bytes_recv);
		ws_json_uint(j, "rtt_us", f->rtt_us);
		ws_json_object_end(j);
	}
	ws_json_array_end(j);
	ws_json_object_end(j);
}

static void busy_json(ws_json *j, const ws_test_result *r, const ws_side_result *s, bool local)
{
	if (!r->spec.busy_poll || (!local && r->spec.netperf_peer)) {
		ws_json_null(j, "busy_poll");
		return;
	}
	ws_json_object_begin(j, "busy_poll");
	ws_json_bool(j, "spin", s->busy_spin);
	if (s->busy_poll_set >= 0)
		ws_json_int(j, "so_busy_poll_us", s->busy_poll_set);
	else
		ws_json_null(j, "so_busy_poll_us"); /* refused: the note says why */
	ws_json_uint(j, "napi_id", s->napi_id);
	ws_json_object_end(j);
}

void ws_pathnotes_json(ws_json *j, const ws_test_result *r, bool local)
{
	const ws_side_result *s = local ? &r->local : &r->remote;
	mptcp_json(j, r, s, local);
	busy_json(j, r, s, local);
}
