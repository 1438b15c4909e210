/* SPDX-License-Identifier: BSD-2-Clause */
/* spec: the data model of one test, what is asked (ws_test_spec); what was measured is
 * model/result.h.
 *
 * Parsers fill a spec, the control protocol carries it, engines run it and renderers
 * print the result; no layer reaches around another. Every field is a plain value so
 * that the control protocol can encode it field by field as TLV and never as a struct.
 * It sits in model/, under every folder that uses it, so that measurement and reports
 * depend on the data model and not on the wire format that carries it. */
#ifndef WS_MODEL_SPEC_H
#define WS_MODEL_SPEC_H

#include "model/engine.h"
#include "model/testtype.h"

#include <stdbool.h>
#include <stdint.h>

#define WS_DEFAULT_CTL_PORT   12865
#define WS_DEFAULT_DURATION_S 10
#define WS_HOST_MAX           256
#define WS_MAX_STREAMS        10000
#define WS_MAX_CPU_LIST       64
/* Request/response bounds: the largest UDP payload over IPv4, the deepest first burst, the
 * longest UDP_RR timeout (-e) and the fastest open-loop rate per flow. */
#define WS_RR_MAX_UDP        65507u
#define WS_RR_MAX_BURST      10000u
#define WS_RR_MAX_TIMEOUT_NS (3600LL * 1000000000LL)
#define WS_RR_MAX_RATE       1e9

/* How the test ends: at a deadline, after a byte count or after a transaction count. */
enum ws_end_kind { WS_END_TIME = 0, WS_END_BYTES, WS_END_TRANSACTIONS };

enum ws_family { WS_FAMILY_ANY = 0, WS_FAMILY_INET = 4, WS_FAMILY_INET6 = 6 };

/* netperf's -s 0 / -S 0: ask the kernel for a 0-byte buffer, which it raises to its minimum
 * (4608 / 2304 on Linux). 0 itself means "leave the system default" (netperf's -1), so the
 * request for 0 needs its own value; net/sock.c turns it into setsockopt(0). */
#define WS_SOCKBUF_ZERO UINT32_MAX

/* What to do on one side. Buffer sizes: 0 = leave the system default, WS_SOCKBUF_ZERO =
 * set 0. */
typedef struct ws_side_spec {
	uint32_t sndbuf;    /* requested SO_SNDBUF (bytes) */
	uint32_t rcvbuf;    /* requested SO_RCVBUF (bytes) */
	int cpu;            /* CPU to pin to, -1 = none */
	bool measure_cpu;   /* -c (local) / -C (remote) */
	uint16_t data_port; /* test option -P, 0 = ephemeral */
	/* Data-socket options harnesses pass (see net/sockopt.h); the remote ones travel. */
	int tos;       /* -Y: IP_TOS (IPv6: IPV6_TCLASS) byte; 0 = leave the default (0),
	                     * as netperf never sets -Y 0 */
	int priority;  /* -y: SO_PRIORITY; 0 = leave the default (0) */
	char cong[16]; /* test option -K: TCP_CONGESTION, "" = the system's default */
} ws_side_spec;

/* Bounds of the harness options (checked by ws_test_spec_validate). */
#define WS_MAX_PRIORITY         2147483647
#define WS_MIN_MAXSEG           88 /* the kernel's TCP_MIN_MSS */
#define WS_MAX_MAXSEG           65535
#define WS_MAX_PACE_BPS         1e13 /* --pace: 10 Tbit/s */
#define WS_DATA_ADDR_MAX        64
#define WS_MAX_START_WAIT_S     60      /* -s: the longest wait between setup and start */
#define WS_BUSY_POLL_DEFAULT_US 50      /* --busy-poll without a value */
#define WS_BUSY_POLL_MAX_US     1000000 /* --busy-poll: at most a second per receive */

typedef struct ws_test_spec {
	enum ws_test_type type;
	/* The run this session is a part of, when that is not type: WS_TEST_RPM for the load
	 * flows and foreign probes of -t RPM (session/rpm.c), which serve --metrics counts
	 * under "RPM"; 0: the session is its own run. */
	enum ws_test_type run_type;
	enum ws_end_kind end;
	double duration_s;  /* WS_END_TIME */
	uint64_t end_count; /* bytes or transactions */
	uint32_t send_size; /* -m; 0 = the sender's send buffer size, as netperf */
	uint32_t recv_size; /* -M; 0 = the receiver's receive buffer size */
	bool nodelay;       /* test option -D */
	/* I/O paths, each applied by the side that plays the role (see workload/run.h). */
	bool zerocopy;     /* --zerocopy: TCP sender uses MSG_ZEROCOPY */
	bool skip_rx_copy; /* --skip-rx-copy: TCP receiver uses MSG_TRUNC */
	bool splice;       /* --splice: TCP receiver splices through a pipe */
	uint32_t rcvlowat; /* --rcvlowat: TCP receiver's wake threshold (SO_RCVLOWAT) in bytes;
	                     * 0 = automatic (see workload/run.h), 1 = the kernel's default */
	bool gso;          /* --gso: UDP sender uses UDP_SEGMENT */
	bool gro;          /* --gro: UDP receiver uses UDP_GRO */
	bool no_batch;     /* --no-mmsg: plain sendto/recv instead of sendmmsg/recvmmsg */
	bool udp_route; /* UDP_STREAM may leave the local network (netperf: SO_DONTROUTE otherwise) */
	bool call_latency; /* client only, not on the wire: time each send call (TCP_MAERTS: each
	                     * receive) of a one-stream stream test into the result's latency
	                     * histogram, as netperf does when a latency output is asked for */
	bool dontroute;    /* test option -R 0: SO_DONTROUTE on every data socket at both ends,
	                     * as netperf's "routing not allowed" (UDP_STREAM: !udp_route) */
	enum ws_family family;
	/* Request/response tests (TCP_RR, UDP_RR, TCP_CRR); see workload/rr.h. */
	uint32_t req_size; /* -r: request bytes per transaction, default 1 */
	uint32_t rsp_size; /* -r: response bytes per transaction, default 1 */
	uint32_t burst;    /* -b: transactions in flight beyond the first (netperf's first burst) */
	int64_t rr_timeout_ns; /* -e: UDP_RR client: an unanswered transaction is lost after this;
	                           * 0 = WS_RR_DEFAULT_TIMEOUT_NS */
	double rate;           /* --rate: open loop, transactions/s per flow; 0 = closed loop */
	/* Options harnesses pass (netperf's -S, test options -C -G -H -L; warpspeed's UDP modes). */
	bool keepalive;        /* -S: SO_KEEPALIVE on the TCP data sockets, both sides */
	bool cork;             /* test option -C: TCP_CORK on the sending side's data sockets */
	uint32_t maxseg;       /* test option -G: TCP_MAXSEG on the client's data sockets before
	                           * connect (so the SYN carries it); 0 = leave the default.
	                           * Client-only, not carried. */
	bool udp_flow_control; /* --flow-control: UDP_STREAM sender keeps to the receiver's window */
	double udp_pace_bps; /* --pace: UDP_STREAM sender paced to this many bits/s; 0 = not paced.
	                           * Neither: the sender blasts as netperf does. */
	char data_host
		[WS_DATA_ADDR_MAX]; /* test option -H: the daemon's data address (numeric on the
	                                    * wire; the daemon binds its data sockets there); "" = the
	                                    * control connection's address */
	char data_local
		[WS_DATA_ADDR_MAX]; /* test option -L: the client's data address (numeric on the
	                                    * wire: the daemon accepts data connections from it) */
	uint16_t local_port_max;    /* test option -p min,max: TCP_CRR/TCP_CC's connections take the
	                           * local ports local.data_port..this in turn; 0 = up to 65535.
	                           * Client-only, not carried. */
	/* Many flows in one run (warpspeed's --streams, --threads, --cpus). */
	uint32_t streams;        /* flows, default 1 */
	uint32_t local_threads;  /* client worker threads, default 1 (at most streams) */
	uint32_t remote_threads; /* daemon worker threads, default = local_threads */
	char local_cpus[128];    /* "0,1": CPUs the client's threads are pinned to, in turn */
	char remote_cpus[128];   /* the same for the daemon's threads */
	ws_side_spec local;      /* the client */
	ws_side_spec remote;     /* the daemon */
	/* Client-only, never sent to the daemon: -F, the file TCP_SENDFILE sends
	 * ("" = a temporary file of random bytes). */
	char fill_file[1024];
	/* Client-only, never sent: the peer is a stock netserver (session/npclient.h), so the
	 * engines speak netperf's data conventions: UDP_RR requests carry no tag (netserver
	 * answers from its own buffer), UDP_STREAM ends with three empty datagrams instead
	 * of warpspeed's END handshake, and TCP_CRR sends no end marker connection. */
	bool netperf_peer;
	/* Client-only, never sent: RRUL's flows and probes (model/lul.h). lul_counts: --up or
	 * --down was given, and lul_up / lul_down replace the four flows each way; lul_probes:
	 * WS_LUL_* mask, 0 = the default; lul_interval_s: --probe-interval, 0 = 0.2 s. */
	bool lul_counts;
	uint32_t lul_up, lul_down;
	unsigned lul_probes;
	double lul_interval_s;
	bool lul_back_to_back; /* --probe-interval 0: probes back to back (docs/rrul.md) */
	uint32_t lul_delay_s;  /* --delay: probes alone this long before and after the load */
	/* Issue 32 (docs/mptcp.md). --mptcp / omni -T mptcp: the TCP data sockets at both ends
	 * are IPPROTO_MPTCP; a connection that falls back to TCP is reported, not refused. */
	bool mptcp;
	/* --busy-poll[=USECS]: RR tests spin on non-blocking receives at both ends, and set
	 * SO_BUSY_POLL to busy_poll_us on every data socket (0: the spin alone). */
	bool busy_poll;
	uint32_t busy_poll_us;
	/* --engine and --sqpoll (model/engine.h): each side resolves auto for itself. */
	enum ws_engine engine;
	bool sqpoll; /* io_uring: a kernel thread polls the submission queue */
} ws_test_spec;

struct ws_err;

/* Parse a CPU list like "0,1,3" (at most WS_MAX_CPU_LIST entries, each 0..65535).
 * Returns the count (0 for ""), or a negative error naming the bad entry. */
int ws_cpu_list_parse(const char *s, int *cpus, int max, struct ws_err *err);

/* A spec with netperf's defaults: TCP_STREAM, 10 s, no pinning, system buffer sizes. */
void ws_test_spec_init(ws_test_spec *s);

/* The test's length in nanoseconds (duration_s; meaningful for WS_END_TIME). */
int64_t ws_test_spec_duration_ns(const ws_test_spec *s);

/* When a timed test that starts at start_ns (monotonic) ends; 0 when it ends by a count. */
int64_t ws_test_spec_deadline(const ws_test_spec *s, int64_t start_ns);

/* The last port of TCP_CRR/TCP_CC's local port range that starts at first (-P lport,
 * -p min,max): max, or 65535 when max is 0 or below first (local_port_max's rule). */
uint32_t ws_local_port_last(uint32_t first, uint32_t max);

/* Check a spec's internal consistency (sizes, durations, ports); the daemon runs this on
 * every spec it receives, so nothing downstream sees an impossible value. */
int ws_test_spec_validate(const ws_test_spec *s, struct ws_err *err);

#endif
