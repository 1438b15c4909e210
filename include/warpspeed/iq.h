/* SPDX-License-Identifier: BSD-2-Clause */
/* warpspeed/iq.h: the WARPLab 7.7.1 compatible IQ host transport of libwarpspeed.
 *
 * A program that drives a WARP v3 node (or `warpspeed node`, the emulator) over UDP opens a
 * handle with ws_iq_open, then reads IQ samples from the node's RX buffers and writes IQ
 * samples to its TX buffers, enables buffers and sends triggers, exactly on the wire of
 * WARPLab 7.7.1 but faster than WARPLab's own MEX transport: batched send and receive, a
 * bitmap of received packets with re-requests of only the missing runs, Read IQ requests
 * pipelined within a congestion window that finds the path's queue, time-based timeouts
 * with bounded retries, Write IQ verified by the WARPLab checksum with a pipelined
 * acknowledged fallback, commands retried with backoff to a time budget, and triggers
 * confirmed by the node's counter where it has one. A call
 * either delivers every sample bit-exact or fails with an error; it never returns data it
 * could not verify.
 *
 * Self-contained C11: this header includes only standard headers and version.h (which marks
 * the functions exported by libwarpspeed.so), and can be used with the installed
 * libwarpspeed.a (link with -pthread) or libwarpspeed.so alone. All functions return 0 (or a
 * non-negative count) on success and a negative errno-style code on failure, and then fill
 * the caller's ws_iq_error (which may be NULL) with one sentence naming the problem.
 *
 * Threads: every call on one handle takes the handle's lock, so a handle may be shared by
 * threads (calls are serialised); separate handles are independent and may run in parallel
 * from different threads. There is no global state.
 *
 * Minimal use:
 *     ws_iq_config c; ws_iq_config_default(&c); c.addr = "10.0.0.1";
 *     ws_iq_node *n; ws_iq_error e;
 *     if (ws_iq_open(&c, &n, &e) < 0) { puts(e.msg); return 1; }
 *     int16_t *iq = malloc(4 * 32768); void *dst[1] = {iq};
 *     ws_iq_read(n, WS_IQ_RF_A, 0, 32768, WS_IQ_FMT_CI16, dst, &e);
 *     ws_iq_close(n);
 */
#ifndef WARPSPEED_IQ_H
#define WARPSPEED_IQ_H

#include <stddef.h>
#include <stdint.h>

#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* RF interface (buffer) bits, as in WARPLab's buffer IDs. */
#define WS_IQ_RF_A   0x1u
#define WS_IQ_RF_B   0x2u
#define WS_IQ_RF_C   0x4u
#define WS_IQ_RF_D   0x8u
#define WS_IQ_RF_ALL 0xFu

/* Sample formats of caller memory.
 * CI16: interleaved int16_t I, Q in host byte order, the raw Fix16_15 values (4 bytes per
 *       sample). CF32: interleaved float I, Q = value / 32768, in [-1, 1) (8 bytes per
 *       sample); writing converts with round-to-nearest and saturates to [-32768, 32767]
 *       (NaN becomes 0). BE32: the node's 32-bit big-endian words, I in the high half (4
 *       bytes per sample), copied unchanged. */
typedef enum ws_iq_format {
	WS_IQ_FMT_CI16 = 0,
	WS_IQ_FMT_CF32 = 1,
	WS_IQ_FMT_BE32 = 2,
} ws_iq_format;

/* Write IQ modes. FAST is WARPLab's fast mode in chunks of 64 packets: the first packet
 * of each resets the checksum and the last is ROBUST, so each acknowledgement carries the
 * WARPLab checksum of one chunk; chunks that fail go again acknowledged. ACKED
 * acknowledges every packet (each acknowledgement proves one packet's placement) and
 * resends only the missing ones. AUTO (default) is FAST, but after a fallback the handle
 * stays ACKED for 4 writes without a resend; each fallback in a row doubles that (up to
 * 256) and each clean FAST write halves it, so a lossy or reordering path stays ACKED. */
typedef enum ws_iq_write_mode {
	WS_IQ_WRITE_AUTO = 0,
	WS_IQ_WRITE_FAST = 1,
	WS_IQ_WRITE_ACKED = 2,
} ws_iq_write_mode;

/* Error record; code is the negative return value, msg one sentence ("" when clear). */
typedef struct ws_iq_error {
	int code;
	char msg[512];
} ws_iq_error;

/* How to reach a node and how patient to be. Fill with ws_iq_config_default first. */
typedef struct ws_iq_config {
	const char *addr;            /* node IPv4 address (dotted quad); required */
	int port;                    /* node unicast UDP port, default 9000 */
	uint16_t node_id;            /* the node's ID (transport dest), default 0 */
	uint16_t host_id;            /* our ID (transport src), default 250 */
	int trigger_port;            /* where ws_iq_trigger sends: 0 (default) = the unicast port */
	uint32_t max_payload;        /* payload size test starts here, default 8964 (jumbo); falls
				    back to 1468 and 548 when the node does not answer */
	uint32_t timeout_ms;         /* a command's first attempt waits this long, default 100;
				    each further attempt waits twice as long, up to 2 x
				    timeout_ms (100, 200, 200, ... ms) */
	int cmd_tries;               /* most attempts per command (same seq, so a late answer to
				    any attempt counts), default 20; budget_ms usually ends
				    them first */
	uint32_t idle_ms;            /* Read/Write IQ: no progress for this long is a timeout,
				    default 10 */
	int retries;                 /* per transfer: idle timeouts in a row, NOT_READY answers,
				    and requests (sends) of any one packet; default 20 */
	int rcvbuf;                  /* SO_RCVBUF request in bytes (SO_RCVBUFFORCE first),
				    default 64 MiB; Read IQ keeps its requests within what is
				    granted */
	int sndbuf;                  /* SO_SNDBUF request, default 512 KiB (keeps a rate-limited
				    link's queue from overflowing); grown to the last measured
				    rate x (RTT + stall_budget_ms), at most 64 MiB */
	uint32_t window;             /* most Read IQ bytes in flight; 0 (default) = 2 MiB, or
				    the last measured rate x (RTT + stall_budget_ms) when that
				    is more; never more than half of the SO_RCVBUF granted. The
				    congestion window within it starts at 8 packets */
	uint32_t pace_ns;            /* Write IQ: gap between packets, default 0 (none); gaps
				    under 200 us are busy-waited */
	ws_iq_write_mode write_mode; /* default WS_IQ_WRITE_AUTO */
	uint32_t budget_ms;          /* most time one command takes over all its attempts, and
				    a trigger's confirmation over all its re-sends, and the
				    most a read or write goes without progress (junk and
				    duplicates are none): default 2000; 0 also means 2000 */
	uint64_t write_rate_bps;     /* Write IQ: most Ethernet frame bits per second sent to
				    this node (UDP payload + 42 bytes per packet), 0 (default)
				    = unpaced. For a host on a faster link than the node's
				    (10 GbE host, 1 GbE boards behind a switch): the switch
				    drops what its port cannot queue. Sleeps between batches
				    and lets at most one batch (64 packets) run ahead. */
	uint32_t stall_budget_ms;    /* how long a thread may be off the CPU without the link
				    running dry: Read IQ and acknowledged Write IQ windows may
				    grow to the last measured rate x (PING round trip + this),
				    bounded by the socket buffers; default 20, 0..1000 (0: the
				    round trip alone) */
} ws_iq_config;

#define WS_IQ_STALL_BUDGET_DEFAULT_MS 20
#define WS_IQ_STALL_BUDGET_MAX_MS     1000

/* What the node told us (NODE_INFO, payload size test) and what the kernel granted. */
typedef struct ws_iq_info {
	uint32_t serial; /* shown as W3-a-%05u */
	uint32_t dna_msb, dna_lsb;
	uint8_t mac[6];
	uint32_t hw_version;                 /* 3 for WARP v3 */
	uint32_t wl_major, wl_minor, wl_rev; /* WARPLab version, e.g. 7.7.1 */
	uint32_t max_tx_samples, max_rx_samples;
	uint32_t tx_length, rx_length;
	uint32_t trig_info;
	uint32_t num_ifc_groups;
	uint32_t num_rf;             /* 2 or 4 */
	uint32_t max_payload;        /* bytes after the pad the node accepted (8964 jumbo, 1468) */
	uint32_t samples_per_packet; /* 2232 jumbo, 356 for a 1500 MTU */
	uint32_t packet_size;        /* UDP payload of a full sample packet, 8962 jumbo */
	int rcvbuf, sndbuf;          /* socket buffers the kernel granted (bytes) */
	uint32_t window;             /* Read IQ bytes in flight at most, now (the bound of its
				    congestion window, which starts small and finds the path's) */
} ws_iq_info;

/* Counters of one handle since ws_iq_open (never reset by the library). */
typedef struct ws_iq_stats {
	uint64_t commands, command_retries;
	uint64_t read_calls, read_requests, read_rerequests, read_packets, read_dup_packets;
	uint64_t write_calls, write_packets, write_resends, write_fallbacks;
	uint64_t checksum_mismatches;
	uint64_t timeouts;        /* a wait that ended without progress */
	uint64_t not_ready;       /* NOT_READY answers honoured */
	uint64_t wrong_seq;       /* replies to nothing we asked, ignored */
	uint64_t wrong_node;      /* replies from another address, node ID or to another host */
	uint64_t malformed;       /* too short, lengths that disagree, unexpected contents */
	uint64_t stale;           /* packets of an earlier call, drained and ignored */
	uint64_t triggers;        /* trigger datagrams sent by ws_iq_trigger */
	uint64_t trigger_resends; /* of those, re-sent because the node's counter stood still */
	uint64_t triggers_unconfirmed; /* ws_iq_trigger calls to a node without the query */
} ws_iq_stats;

/* The warpspeed-only trigger counter query that ws_iq_trigger uses to confirm a trigger
 * (WARPLab triggers are never answered). A ROBUST command of the user group without
 * arguments; `warpspeed node` answers three words [WS_IQ_TRIGGER_COUNTER_MAGIC ("WSPD"),
 * triggers >> 32, triggers & 0xffffffff], triggers being the 64-bit count of triggers it
 * has received and acted on. A WARPLab board or an older node answers anything else (an
 * empty acknowledgement) or nothing: its triggers cannot be confirmed. */
#define WS_IQ_CMD_TRIGGER_COUNTER   0x50575301u
#define WS_IQ_TRIGGER_COUNTER_MAGIC 0x57535044u

/* What ws_iq_trigger could establish. */
typedef enum ws_iq_trigger_status {
	WS_IQ_TRIGGER_CONFIRMED = 0,   /* the node's trigger counter moved */
	WS_IQ_TRIGGER_UNCONFIRMED = 1, /* the node has no trigger counter: sent once, unknown */
} ws_iq_trigger_status;

typedef struct ws_iq_trigger_result {
	ws_iq_trigger_status status;
	int sent;               /* trigger datagrams sent (more than 1: re-sent) */
	uint64_t before, after; /* the node's counter before and at the end (CONFIRMED) */
	int64_t elapsed_ns;     /* the whole call */
} ws_iq_trigger_result;

typedef struct ws_iq_node ws_iq_node;

/* Defaults listed on each field; addr is NULL. Cannot fail. */
WARPSPEED_API void ws_iq_config_default(ws_iq_config *c);

/* Open a node: create the socket, PING, run the payload size test (jumbo first, then
 * smaller), read NODE_INFO; each retried on the command backoff (timeout_ms, cmd_tries,
 * budget_ms). On success *out is a handle for ws_iq_close. On failure
 * nothing stays open and err says what did not answer or what was wrong. */
WARPSPEED_API int ws_iq_open(const ws_iq_config *c, ws_iq_node **out, ws_iq_error *err);

/* Close the handle and free everything; NULL is ignored. No call may be running on it. */
WARPSPEED_API void ws_iq_close(ws_iq_node *n);

/* A copy of the node facts learned by ws_iq_open. */
WARPSPEED_API void ws_iq_get_info(ws_iq_node *n, ws_iq_info *out);

/* A snapshot of the handle's counters. */
WARPSPEED_API void ws_iq_get_stats(ws_iq_node *n, ws_iq_stats *out);

/* PING: returns the round-trip time in nanoseconds (> 0), measured from the send of the
 * last attempt (retried on the command backoff), or a negative code. */
WARPSPEED_API int64_t ws_iq_ping(ws_iq_node *n, ws_iq_error *err);

/* Refresh info with NODE_INFO (TX/RX lengths change). */
WARPSPEED_API int ws_iq_node_info(ws_iq_node *n, ws_iq_info *out, ws_iq_error *err);

/* Bytes per sample of a format in caller memory (4 or 8), 0 for an unknown format. */
WARPSPEED_API size_t ws_iq_format_size(ws_iq_format fmt);

/* Read samples [start, start + count) of every RX buffer in rf_mask into dst[0], dst[1],
 * ... (one pointer per set bit, RF_A first), each count * ws_iq_format_size(fmt) bytes.
 * Fails without reading when rf_mask names an interface the node lacks or the range is
 * beyond its RX buffer. On failure the destination contents are unspecified. */
WARPSPEED_API int ws_iq_read(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
			     ws_iq_format fmt, void *const *dst, ws_iq_error *err);

/* Read RSSI words [start, start + count) of every interface in rf_mask with WARPLab's
 * READ_RSSI, through the same engine as ws_iq_read: each word holds two 10-bit RSSI
 * values, the earlier in bits 25..16, so dst[0], dst[1], ... (one per set bit, RF_A
 * first) each receive 2 * count values in host order, 0..1023. A node without RSSI
 * buffers does not answer, and the call fails after its timeouts. */
WARPSPEED_API int ws_iq_read_rssi(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
				  uint16_t *const *dst, ws_iq_error *err);

/* Write the same count samples from src to every TX buffer in rf_mask (one Write IQ with a
 * buffer bitmask), starting at sample start. Returns after the node acknowledged every
 * sample with a matching checksum. */
WARPSPEED_API int ws_iq_write(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
			      ws_iq_format fmt, const void *src, ws_iq_error *err);

/* Write different data to each TX buffer in rf_mask: src[0] to the lowest set bit, and so
 * on; one Write IQ per buffer, one after another. */
WARPSPEED_API int ws_iq_write_multi(ws_iq_node *n, unsigned rf_mask, uint32_t start, uint32_t count,
				    ws_iq_format fmt, const void *const *src, ws_iq_error *err);

/* One node's part of ws_iq_read_many / ws_iq_write_many. The caller fills node, rf_mask,
 * start, count and dst (read: one pointer per set bit of rf_mask, as ws_iq_read) or src
 * (write: one per set bit, as ws_iq_write_multi); the call fills the rest. Each node may
 * have its own mask and range. */
typedef struct ws_iq_many_item {
	ws_iq_node *node;
	unsigned rf_mask;
	uint32_t start, count;
	void *const *dst;
	const void *const *src;
	int result;         /* out: 0 or this node's negative code */
	ws_iq_error err;    /* out: this node's error ("" when it succeeded) */
	int64_t elapsed_ns; /* out: this node's call, monotonic clock */
	int64_t cpu_ns;     /* out: CPU time of the thread that served this node */
	/* out: that thread's involuntary context switches and time runnable but waiting for a
	 * CPU (run-queue wait, ns) during the call; -1 where the system does not say. */
	int64_t nivcsw, wait_ns;
} ws_iq_many_item;

/* Most nodes in one many-node call. */
#define WS_IQ_MANY_MAX 64

/* Read IQ from (write IQ to) n nodes at once, 1 <= n <= WS_IQ_MANY_MAX, every node on a
 * different handle: one thread per node (the calling thread serves the first), each doing
 * what ws_iq_read (ws_iq_write_multi) does on its handle, so the nodes' links fill in
 * parallel. Returns when every node is done: 0 when all succeeded, otherwise the first
 * failing node's code, with err naming that node (address:port) and how many failed; each
 * item says what happened to its node. */
WARPSPEED_API int ws_iq_read_many(ws_iq_many_item *items, size_t n, ws_iq_format fmt,
				  ws_iq_error *err);
WARPSPEED_API int ws_iq_write_many(ws_iq_many_item *items, size_t n, ws_iq_format fmt,
				   ws_iq_error *err);

/* TX_BUFF_EN and RX_BUFF_EN: which buffers transmit / capture on the next trigger (a zero
 * mask sends nothing for that direction). Acknowledged commands. */
WARPSPEED_API int ws_iq_enable(ws_iq_node *n, unsigned tx_mask, unsigned rx_mask, ws_iq_error *err);

/* Trigger this node (its address and config trigger_port) with the trigger-ID bitmask ids,
 * and confirm that it acted: read its trigger counter (WS_IQ_CMD_TRIGGER_COUNTER), send the
 * trigger, poll the counter a few times over timeout_ms (a trigger sent to another port
 * may be served after a later query), and send the trigger again, on the command backoff,
 * while the counter stands still, until budget_ms. Returns WS_IQ_TRIGGER_CONFIRMED (0)
 * once the counter moved; -WS_E_TIMEDOUT ("did not see the trigger: its trigger counter
 * stayed at N after K triggers over T s") when it never did; WS_IQ_TRIGGER_UNCONFIRMED
 * (1, not an error) for a node without the query, to which the trigger is sent once and
 * nothing is known (the caller should say so). A trigger that was only late may run the
 * buffers twice. The handle remembers a node without the query and does not ask again. */
WARPSPEED_API int ws_iq_trigger(ws_iq_node *n, uint32_t ids, ws_iq_error *err);

/* ws_iq_trigger, with what it established in *res (may be NULL). */
WARPSPEED_API int ws_iq_trigger_ex(ws_iq_node *n, uint32_t ids, ws_iq_trigger_result *res,
				   ws_iq_error *err);

/* Broadcast one trigger packet to addr:port (e.g. "10.0.0.255", 10000) from a socket of
 * its own, as WARPLab does for a group of nodes; host_id is the transport src. Broadcast
 * triggers are unconfirmed: nothing answers them and no counter is read. */
WARPSPEED_API int ws_iq_trigger_broadcast(const char *addr, int port, uint16_t host_id,
					  uint32_t ids, ws_iq_error *err);

/* One direction's figures of a benchmark. Times are per buffer (call time divided by the
 * number of buffers, as wl_benchmark prints them); Mb/s are IQ payload bits of all buffers
 * per call time, 10^6 bits/s; CPU is the calling thread's CPU time per 10^6 bytes of IQ
 * payload, in microseconds. */
typedef struct ws_iq_bench_stat {
	double avg_ms, min_ms, median_ms, max_ms;
	double avg_mbps, min_mbps, median_mbps, max_mbps;
	double cpu_us_per_mb;
} ws_iq_bench_stat;

/* One benchmark size: samples per buffer, trials run and kept, buffers per call, nodes
 * (1, or N for the aggregate of `warpspeed iq bench` over N nodes), and both directions. */
typedef struct ws_iq_bench_row {
	uint32_t samples;
	int trials, kept, buffers;
	int nodes;
	ws_iq_bench_stat write, read;
} ws_iq_bench_row;

/* WARPLab's wl_benchmark on one node, as `warpspeed iq bench NODE --trials T --samples N`
 * does it: `trials` (6..100000) writes of different data to each TX buffer in rf_mask,
 * then `trials` reads of each RX buffer in rf_mask, each whole call timed, the first 5 of
 * each direction dropped. Caller memory is in fmt (WS_IQ_FMT_BE32 measures the node's own
 * words, the fastest path); every read must return the same samples as the first (else
 * the call fails). Fills *out; never triggers, so TX and RX buffers are measured apart. */
WARPSPEED_API int ws_iq_bench(ws_iq_node *n, unsigned rf_mask, uint32_t samples, int trials,
			      ws_iq_format fmt, ws_iq_bench_row *out, ws_iq_error *err);

#ifdef __cplusplus
}
#endif

#endif
