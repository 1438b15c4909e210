/* SPDX-License-Identifier: BSD-2-Clause */
/* harness: report lines for the harness options; see harness.h. */
#include "report/harness.h"

#include <inttypes.h>
#include <string.h>

void ws_report_udp_mode(const ws_test_spec *spec, char *buf, size_t bufsz)
{
	if (!spec->udp_flow_control && !(spec->udp_pace_bps > 0)) {
		snprintf(buf, bufsz, "blast (netperf's: no flow control, no pacing)");
		return;
	}
	char pace[64] = "";
	if (spec->udp_pace_bps > 0)
		snprintf(pace, sizeof(pace), "paced to %.2f 10^6bits/s (--pace)",
			 spec->udp_pace_bps / 1e6);
	snprintf(buf, bufsz, "%s%s%s",
		 spec->udp_flow_control ? "flow control (the receiver's window, --flow-control)"
					: "",
		 spec->udp_flow_control && pace[0] ? " + " : "", pace);
}

void ws_report_harness_detail(const ws_test_result *r, FILE *out)
{
	const ws_test_spec *s = &r->spec;
	if (ws_test_type_has(s->type, WS_TO_DGRAMS)) {
		char mode[160];
		ws_report_udp_mode(s, mode, sizeof(mode));
		fprintf(out, "UDP sending: %s\n", mode);
	}
	const ws_side_result *l = &r->local;
	bool asked = s->local.tos > 0 || s->local.priority > 0 || s->keepalive || s->cork ||
		s->maxseg || s->local.cong[0];
	if (!asked)
		return;
	fputs("Data socket options (local):", out);
	if (l->tos_set >= 0 && s->local.tos > 0)
		fprintf(out, " IP_TOS 0x%02x", l->tos_set);
	if (l->priority_set >= 0 && s->local.priority > 0)
		fprintf(out, " SO_PRIORITY %d", l->priority_set);
	if (s->keepalive)
		fprintf(out, " SO_KEEPALIVE %d", l->keepalive_set ? 1 : 0);
	if (s->cork)
		fprintf(out, " TCP_CORK %d", l->cork_set ? 1 : 0);
	if (l->maxseg_set)
		fprintf(out, " TCP_MAXSEG %u", l->maxseg_set);
	if (l->cong_set[0])
		fprintf(out, " TCP_CONGESTION %s", l->cong_set);
	fputc('\n', out);
}

int ws_report_tcp_info_dump(const ws_test_result *r, FILE *out)
{
	const ws_side_result *l = &r->local;
	if (!l->tcp_info_valid)
		return 0;
	fprintf(out, "tcpi_rto %u tcpi_ato %u tcpi_pmtu %u tcpi_rcv_ssthresh %u\n", l->tcp_rto_us,
		l->tcp_ato_us, l->tcp_pmtu, l->tcp_rcv_ssthresh);
	fprintf(out, "tcpi_rtt %u tcpi_rttvar %u tcpi_snd_ssthresh %u tpci_snd_cwnd %u\n",
		l->tcp_rtt_us, l->tcp_rttvar_us, l->tcp_snd_ssthresh, l->tcp_snd_cwnd);
	fprintf(out, "tcpi_reordering %u tcpi_total_retrans %" PRIu64 "\n", l->tcp_reordering,
		l->tcp_retrans);
	return 1;
}
