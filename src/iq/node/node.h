/* SPDX-License-Identifier: BSD-2-Clause */
/* node: a WARP v3 board running WARPLab 7.7.1, as a library, on a UDP socket.
 *
 * SDR transport code needs a board to talk to, and benchmarks need one that is never the
 * bottleneck. This engine answers everything docs/wire/warplab.md describes from one
 * thread: a unicast socket and a broadcast socket, their datagrams served in arrival order
 * as the board's one Ethernet port would, each source's requests one at a time and in order, Read IQ streamed with sendmmsg from header + buffer iovecs (the samples are stored as the big-endian wire
 * words, so nothing is converted), several packets per message with UDP GSO where the
 * path allows it, Write IQ copied into place. It never prints:
 * what a person should see goes through the caller's log callback, and what happened is in
 * the counters. Another thread stops it with ws_node_stop (an eventfd write).
 *
 * Buffer model, as on the board: Write IQ fills TX buffers, Read IQ reads RX buffers, and
 * only a trigger moves samples from TX to RX (with the loopback channel). Memory is
 * committed only for what is written, in 16 Ki-sample copy-on-write chunks (node_mem.h), so
 * the default 2RF DDR sizes cost no RAM until used and a trigger costs O(chunks). An RX
 * buffer starts with the test signal of ws_node_test_sample.
 *
 * Exposure: the node binds 127.0.0.1 unless told otherwise, answers only the sources of an
 * allow list (default: the networks of the interfaces holding the bound address) and caps
 * the reply bytes per source address (default 1 Gb/s, the WARP v3's Ethernet): a Read IQ
 * stream beyond the cap is paced, never cut, and other sources are served meanwhile. */
#ifndef WS_IQ_NODE_H
#define WS_IQ_NODE_H

#include <stdint.h>
#include <stddef.h>

struct ws_err;
typedef struct ws_node ws_node;

enum { WS_NODE_CHANNEL_LOOPBACK = 0, WS_NODE_CHANNEL_NONE = 1 };
enum { WS_NODE_LOG_DEBUG = 0, WS_NODE_LOG_INFO = 1, WS_NODE_LOG_WARN = 2 };

/* Called from the node's thread with a one-line message (no newline). */
typedef void (*ws_node_log_fn)(void *ctx, int level, const char *msg);

#define WS_NODE_DEFAULT_PORT        9000
#define WS_NODE_DEFAULT_BCAST_PORT  10000
#define WS_NODE_DEFAULT_SERIAL      6
#define WS_NODE_DEFAULT_MAX_PAYLOAD 8964
#define WS_NODE_DEFAULT_TX_SAMPLES  (112u << 20) /* DDR TX buffer of a 2RF node */
#define WS_NODE_DEFAULT_RX_SAMPLES  (1u << 27)   /* DDR RX buffer of a 2RF node */
#define WS_NODE_DEFAULT_LENGTH      (1u << 15)   /* TX/RX length after NODE_INITIALIZE */
#define WS_NODE_MAX_SAMPLES         (1u << 30)   /* per buffer: 4 GiB of address space */
#define WS_NODE_SAMPLE_RATE         40000000u    /* for the NOT_READY (air time) window */
#define WS_NODE_TRIG_CORE_INFO      0x01040000u  /* fixed trigger-manager info word */
#define WS_NODE_DNA_MSB             0x00ABCDEFu  /* fixed fake FPGA DNA, lsb = serial */
#define WS_NODE_DEFAULT_BIND        "127.0.0.1"
#define WS_NODE_DEFAULT_REPLY_RATE  1000000000ull /* bits/s: the board's 1 Gb/s Ethernet */
#define WS_NODE_DEFAULT_REPLY_BURST (1u << 20)    /* bytes */
#define WS_NODE_TOTAL_OFF           UINT64_MAX    /* reply_total_bps: no total cap */
#define WS_NODE_ALLOW_TEXT          640           /* the allow list as text, in ws_node_info */

/* warpspeed only, not on a real board (which acknowledges it like any unknown command):
 * a ROBUST request without arguments answered with three words, the magic "WSPD" and the
 * 64-bit count of trigger packets that played the channel (counter `triggers`), high word
 * first. */
#define WS_NODE_CMD_TRIGGER_COUNT   0x50575301u
#define WS_NODE_TRIGGER_COUNT_MAGIC 0x57535044u /* "WSPD" */

typedef struct ws_node_config {
	uint16_t id;              /* node ID (transport dest), default 0 */
	uint8_t group_bits;       /* accepts dest 0xFFxx when xx & group_bits, default 0 */
	uint32_t serial;          /* serial number W3-a-%05d, default 6 */
	const char *bind_addr;    /* IPv4 address of the sockets, NULL = 127.0.0.1 */
	const char *allow;        /* sources answered, "CIDR[,CIDR...]" or "any"; NULL = the
				   * networks of the interfaces holding bind_addr (every
				   * interface for 0.0.0.0) */
	uint64_t reply_rate_bps;  /* reply cap per source address, bits/s; 0 = off; default
				   * WS_NODE_DEFAULT_REPLY_RATE */
	uint32_t reply_burst;     /* bytes a source may receive at once beyond the rate,
				   * default WS_NODE_DEFAULT_REPLY_BURST */
	uint64_t reply_total_bps; /* cap on all sources together, bits/s, with the same burst;
				   * 0 = reply_rate_bps (default), WS_NODE_TOTAL_OFF = none */
	int port;                 /* unicast port; 0 = ephemeral; -1 = no sockets (feed only) */
	int bcast_port;           /* broadcast port; 0 = ephemeral; -1 = none */
	int rf;                   /* RF interfaces: 2 or 4 */
	uint32_t max_payload;     /* bytes after the pad accepted in one datagram (emulated MTU) */
	uint32_t tx_samples;      /* samples per TX buffer, 1..WS_NODE_MAX_SAMPLES */
	uint32_t rx_samples;      /* samples per RX buffer, 1..WS_NODE_MAX_SAMPLES */
	int channel;              /* WS_NODE_CHANNEL_LOOPBACK (default) or _NONE */
	uint32_t pace_us;         /* gap between Read IQ packets, default 0 (none) */
	uint32_t rx_slots;        /* board fidelity: receive slots, 0 = unlimited (default) */
	uint32_t per_packet_us;   /* board fidelity: time to store one Write IQ packet */
	int not_ready;            /* answer NOT_READY while a trigger's window lasts */
	uint32_t not_ready_us;    /* that window; 0 = the air time of the longer buffer */
	int sock_buf;             /* SO_RCVBUF/SO_SNDBUF request in bytes, default 64 MiB */
	uint64_t max_memory;      /* bytes of sample memory and its tables mapped at most;
				   * 0 = what the buffers can ever need (the default),
				   * else at least their tables + 4 MiB */
	int gso;                  /* Read IQ through UDP GSO where the path allows, default 1 */
	ws_node_log_fn log;       /* may be NULL */
	void *log_ctx;
} ws_node_config;

/* The rows of the node's command table, and one for the commands it does not know. */
#define WS_NODE_CMD_KINDS 15

/* The name of row i of by_command ("read_iq", ..., "other"); NULL past the last. */
const char *ws_node_command_name(unsigned i);

/* Counters; each is written only by the node's thread and read with relaxed atomics. */
typedef struct ws_node_counters {
	uint64_t rx_packets, rx_bytes; /* datagrams received */
	uint64_t tx_packets, tx_bytes; /* datagrams sent */
	uint64_t commands;             /* host->node packets addressed to this node */
	uint64_t other_commands;       /* accepted with a plain acknowledgement */
	uint64_t triggers;             /* trigger packets that played the channel */
	uint64_t write_packets, write_samples, write_acks;
	uint64_t read_requests, read_packets, read_samples;
	uint64_t not_for_us;    /* dest ID or packet type not ours */
	uint64_t malformed;     /* too short, or impossible lengths/arguments */
	uint64_t oversize;      /* longer than max_payload: dropped like the MAC */
	uint64_t bad_buffer;    /* names a buffer that does not exist */
	uint64_t out_of_range;  /* start/count beyond the buffer */
	uint64_t error_replies; /* answers carrying an error status */
	uint64_t not_ready_replies;
	uint64_t slot_drops; /* board fidelity: no free receive slot */
	uint64_t send_waits; /* sendmmsg hit a full socket and polled */
	uint64_t send_errors;
	uint64_t alloc_failures;                /* a chunk of sample memory could not be mapped */
	uint64_t denied;                        /* from a source outside the allow list: dropped */
	uint64_t held;                          /* waited behind their source's Read IQ stream */
	uint64_t backlog_drops;                 /* dropped: the source's backlog or the stream
					       * table was full */
	uint64_t rate_waits;                    /* a stream paused for its source's tokens */
	uint64_t rate_drops;                    /* answers not sent: the source is over its cap */
	uint64_t preempted;                     /* streams cut short: all stream slots were taken
					       * and a new source asked; the one that had sent
					       * the most yielded */
	uint64_t mem_refused;                   /* chunks of sample memory refused: max_memory
					       * reached (Write IQ answers IQ_ERROR) */
	uint64_t by_command[WS_NODE_CMD_KINDS]; /* commands dispatched, by the command table's
						 * row (ws_node_command_name); the last: others */
} ws_node_counters;

/* Actual socket facts after creation. */
typedef struct ws_node_info {
	int port, bcast_port;           /* bound ports (-1 when absent) */
	int rcvbuf, sndbuf;             /* what the kernel applied */
	int timestamps;                 /* kernel arrival timestamps in use: order across the two
				   * sockets (node_rx.h) and board fidelity */
	int gso;                        /* Read IQ uses UDP GSO (0 after the path refused it) */
	char bind_addr[16];             /* the address the sockets are bound to */
	char allow[WS_NODE_ALLOW_TEXT]; /* the allow list in force, "any" or "a.b.c.d/n,..." */
	uint64_t reply_rate_bps;        /* 0 = off */
	uint32_t reply_burst;
	uint64_t reply_total_bps; /* 0 = off */
	uint64_t max_memory;      /* the sample memory budget in force, bytes */
} ws_node_info;

/* Fill c with the defaults listed on each field. Cannot fail. */
void ws_node_config_default(ws_node_config *c);

/* Validate c, create the node and bind its sockets (none when c->port is -1). The config is
 * copied (bind_addr and allow are only used during this call). On error nothing is left
 * open, and err names the bad value and what is accepted. */
int ws_node_create(const ws_node_config *c, ws_node **out, struct ws_err *err);

/* Serve until ws_node_stop is called. Returns 0 after a stop, or a negative code when a
 * socket fails for good. Packets that break the protocol never end the loop. Must not run
 * on a node without sockets, nor twice at once. */
int ws_node_run(ws_node *n, struct ws_err *err);

/* Ask a running (or about to run) ws_node_run to return; safe from any thread and from a
 * signal handler. A Read IQ stream in progress is abandoned. */
void ws_node_stop(ws_node *n);

/* Process one datagram as if it came from 127.0.0.1:1 on the unicast socket, and any Read
 * IQ it starts to the end; replies are sent there when the node has sockets, otherwise
 * only counted, and are not rate-capped (the allow list applies). For tests and fuzzing;
 * never while ws_node_run is running on another thread. */
void ws_node_feed(ws_node *n, const uint8_t *pkt, size_t len);

/* A consistent-enough snapshot of the counters (each field read atomically), from any
 * thread. */
void ws_node_get_counters(const ws_node *n, ws_node_counters *out);
void ws_node_get_info(const ws_node *n, ws_node_info *out);

/* Release everything; the node must not be running. NULL is ignored. */
void ws_node_destroy(ws_node *n);

/* The deterministic RX test signal: sample i of interface rf (0 = RF_A .. 3 = RF_D) has
 * I = (int16)(7*i + 1000*rf) and Q = ~I, i.e. the word ((uint16)I << 16) | (uint16)~I.
 * Returned in host order as ws_get_be32 would read it from the buffer. */
uint32_t ws_node_test_sample(int rf, uint32_t i);

#endif
