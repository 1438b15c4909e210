/* SPDX-License-Identifier: BSD-2-Clause */
/* nodemetrics: the node's counter table and its families; see nodemetrics.h. */
#include "cli/nodemetrics.h"

#include <stddef.h>
#include <string.h>

#include <warpspeed/version.h>

enum fam {
	F_NONE = -1, /* on the line only: a sum of others (commands) or by_command's "other" */
	F_RX_PKTS,
	F_RX_BYTES,
	F_TX_PKTS,
	F_TX_BYTES,
	F_TRIGGERS,
	F_IQ_PKTS,
	F_SAMPLES,
	F_WRITE_ACKS,
	F_READ_REQS,
	F_DROPPED,
	F_DENIED,
	F_REJECTED,
	F_REPLIES,
	F_SEND_WAITS,
	F_SEND_ERRORS,
	F_MEMORY,
	F_HELD,
	F_RATE_WAITS,
	F_PREEMPTED,
	F_N
};

/* clang-format off */
static const struct {
	const char *name, *unit, *label, *help;
} fams[F_N] = {
	[F_RX_PKTS] = {"warpspeed_node_received_packets", NULL, NULL, "Datagrams received."},
	[F_RX_BYTES] = {"warpspeed_node_received_bytes", "bytes", NULL, "Bytes of the datagrams received."},
	[F_TX_PKTS] = {"warpspeed_node_sent_packets", NULL, NULL, "Datagrams sent."},
	[F_TX_BYTES] = {"warpspeed_node_sent_bytes", "bytes", NULL, "Bytes of the datagrams sent."},
	[F_TRIGGERS] = {"warpspeed_node_triggers", NULL, NULL, "Trigger packets that played the channel."},
	[F_IQ_PKTS] = {"warpspeed_node_iq_packets", NULL, "direction", "Write IQ packets stored and Read IQ packets sent."},
	[F_SAMPLES] = {"warpspeed_node_samples", NULL, "direction", "IQ samples written into and read from the buffers."},
	[F_WRITE_ACKS] = {"warpspeed_node_write_acks", NULL, NULL, "Write IQ acknowledgements sent."},
	[F_READ_REQS] = {"warpspeed_node_read_requests", NULL, NULL, "Read IQ requests that became a stream."},
	[F_DROPPED] = {"warpspeed_node_dropped_packets", NULL, "reason", "Datagrams or answers dropped, by reason (rate_cap: a source over its reply cap)."},
	[F_DENIED] = {"warpspeed_node_denied_packets", NULL, NULL, "Datagrams from sources outside the allow list, dropped."},
	[F_REJECTED] = {"warpspeed_node_rejected_requests", NULL, "reason", "Requests naming a buffer that does not exist or samples beyond it."},
	[F_REPLIES] = {"warpspeed_node_error_replies", NULL, "status", "Answers carrying an error or NOT_READY status."},
	[F_SEND_WAITS] = {"warpspeed_node_send_waits", NULL, NULL, "Times a full socket made sendmmsg wait."},
	[F_SEND_ERRORS] = {"warpspeed_node_send_errors", NULL, NULL, "Sends that failed."},
	[F_MEMORY] = {"warpspeed_node_memory_refusals", NULL, "reason", "Chunks of sample memory not mapped: the system refused, or --max-memory was reached."},
	[F_HELD] = {"warpspeed_node_held_requests", NULL, NULL, "Requests that waited behind their source's Read IQ stream."},
	[F_RATE_WAITS] = {"warpspeed_node_rate_cap_waits", NULL, NULL, "Times a stream paused for its source's reply-rate tokens."},
	[F_PREEMPTED] = {"warpspeed_node_preempted_streams", NULL, NULL, "Streams cut short for a new source when all stream slots were taken."},
};

#define R(field, fam, value) {#field, offsetof(ws_node_counters, field), fam, value}
static const struct {
	const char *name;
	size_t off;
	enum fam fam;
	const char *value; /* the label's value, when the family has a label */
} rows[] = {
	R(rx_packets, F_RX_PKTS, NULL), R(rx_bytes, F_RX_BYTES, NULL),
	R(tx_packets, F_TX_PKTS, NULL), R(tx_bytes, F_TX_BYTES, NULL),
	R(commands, F_NONE, NULL), R(other_commands, F_NONE, NULL),
	R(triggers, F_TRIGGERS, NULL),
	R(write_packets, F_IQ_PKTS, "written"), R(write_samples, F_SAMPLES, "written"),
	R(write_acks, F_WRITE_ACKS, NULL), R(read_requests, F_READ_REQS, NULL),
	R(read_packets, F_IQ_PKTS, "read"), R(read_samples, F_SAMPLES, "read"),
	R(not_for_us, F_DROPPED, "not_for_us"), R(malformed, F_DROPPED, "malformed"),
	R(oversize, F_DROPPED, "oversize"), R(bad_buffer, F_REJECTED, "bad_buffer"),
	R(out_of_range, F_REJECTED, "out_of_range"), R(error_replies, F_REPLIES, "error"),
	R(not_ready_replies, F_REPLIES, "not_ready"), R(slot_drops, F_DROPPED, "no_slot"),
	R(send_waits, F_SEND_WAITS, NULL), R(send_errors, F_SEND_ERRORS, NULL),
	R(alloc_failures, F_MEMORY, "alloc_failure"), R(denied, F_DENIED, NULL),
	R(held, F_HELD, NULL), R(backlog_drops, F_DROPPED, "backlog"),
	R(rate_waits, F_RATE_WAITS, NULL), R(rate_drops, F_DROPPED, "rate_cap"),
	R(preempted, F_PREEMPTED, NULL), R(mem_refused, F_MEMORY, "max_memory"),
};
#undef R
/* clang-format on */
#define NROWS (sizeof rows / sizeof rows[0])

static uint64_t at(const ws_node_counters *c, size_t off)
{
	uint64_t v;
	memcpy(&v, (const char *)c + off, sizeof v);
	return v;
}

void ws_cli_node_counters_print(FILE *f, const ws_node_counters *c)
{
	for (size_t i = 0; i < NROWS; i++)
		fprintf(f, " %s=%llu", rows[i].name, (unsigned long long)at(c, rows[i].off));
}

void ws_cli_node_metrics_render(void *ctx, ws_om *w)
{
	ws_node *n = ctx;
	ws_node_counters c;
	ws_node_info in;
	ws_node_get_counters(n, &c);
	ws_node_get_info(n, &in);
	ws_om_family(w, "warpspeed_build", WS_OM_INFO, NULL, "The warpspeed build serving.");
	ws_om_label ver[] = {{"version", ws_version()}};
	ws_om_sample(w, ver, 1, 1);
	ws_om_family(w, "warpspeed_node_commands", WS_OM_COUNTER, NULL,
		     "Commands addressed to this node and dispatched, by command.");
	for (unsigned i = 0; ws_node_command_name(i); i++) {
		ws_om_label l[] = {{"command", ws_node_command_name(i)}};
		ws_om_sample_u64(w, l, 1, c.by_command[i]);
	}
	for (int f = 0; f < F_N; f++) {
		ws_om_family(w, fams[f].name, WS_OM_COUNTER, fams[f].unit, fams[f].help);
		for (size_t i = 0; i < NROWS; i++) {
			if (rows[i].fam != (enum fam)f)
				continue;
			ws_om_label l[] = {{fams[f].label, rows[i].value}};
			ws_om_sample_u64(w, l, fams[f].label ? 1 : 0, at(&c, rows[i].off));
		}
	}
	ws_om_family(w, "warpspeed_node_reply_rate_cap_bytes_per_second", WS_OM_GAUGE, NULL,
		     "The reply caps in force (--reply-rate, --reply-total), per source and for "
		     "all sources together (0: off).");
	ws_om_label src[] = {{"scope", "source"}}, all[] = {{"scope", "total"}};
	ws_om_sample(w, src, 1, (double)in.reply_rate_bps / 8);
	ws_om_sample(w, all, 1, (double)in.reply_total_bps / 8);
	ws_om_family(w, "warpspeed_node_reply_burst_bytes", WS_OM_GAUGE, "bytes",
		     "Bytes a source may receive at once beyond its reply rate.");
	ws_om_sample(w, NULL, 0, in.reply_burst);
}
