/* SPDX-License-Identifier: BSD-2-Clause */
/* iqwin: what a handle's congestion windows did and what their bounds cost, for `-v 2` and
 * the JSON of `warpspeed iq bench`.
 *
 * The windows (iqcc.h) and their bounds (ws_iq_host_bounds) live inside the handle; a user
 * who sees a transfer below the link's rate needs to see them: where the window started,
 * when it was cut and to what, where it ended, and how much memory the stall budget's bounds
 * may take. This module copies them out under the handle's lock and words them, so the CLI
 * and the benchmark say the same. */
#ifndef WS_IQ_IQWIN_H
#define WS_IQ_IQWIN_H

#include <warpspeed/iq.h>

#include "iq/host/iqcc.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ws_iq_win {
	ws_iqcc read, write;      /* since the last Read IQ / acknowledged Write IQ began */
	uint32_t stall_budget_ms; /* cfg.stall_budget_ms */
	int64_t rtt_ns;           /* PING round trip at open */
	uint64_t rate_Bps;        /* the last transfer's payload rate (0 = none yet) */
	int rcvbuf, sndbuf;       /* granted */
	uint32_t read_max_bytes;  /* the read window's bound now (info.window) */
	uint32_t ack_max_packets; /* the acknowledged write window's bound now */
	uint32_t packet_size;     /* bytes of a full sample packet */
	uint64_t read_rerequests, write_resends;
} ws_iq_win;

/* A copy of n's windows, bounds and their counters (takes the handle's lock). */
void ws_iq_win_get(ws_iq_node *n, ws_iq_win *w);

/* One window over time in words: "read window (packets): 8 at 0 ms; 60 -> 42 at 1.23 ms;
 * ...; now 47 (least 8, most 60, 2 cuts)". */
void ws_iq_win_text(const ws_iqcc *c, const char *what, char *buf, size_t cap);

/* The bounds and the memory they may take in words: "stall budget 20 ms, RTT 85 us, last
 * rate 981.2 Mb/s: read window at most 2.50 MB of SO_RCVBUF 128 MiB granted, acknowledged
 * write window at most 512 packets (4.59 MB), SO_SNDBUF 1 MiB". */
void ws_iq_win_memory_text(const ws_iq_win *w, char *buf, size_t cap);

/* The JSON members of one window (no braces): "start": 8, "least": 8, "most": 60, "end":
 * 47, "cuts": 2, "history": [[t_ms, from, to], ...]. */
void ws_iq_win_json(FILE *f, const ws_iqcc *c);

/* The JSON object of the bounds and memory (with braces). */
void ws_iq_win_memory_json(FILE *f, const ws_iq_win *w);

#endif
