/* SPDX-License-Identifier: BSD-2-Clause */
/* result: the data model of what one test measured (ws_test_result), one side at a time
 * (ws_side_result), with its flows and worker threads.
 *
 * Engines fill a side, the control protocol carries the daemon's side back, measure/
 * derives figures from it and report/ renders it. Like the spec (model/spec.h), every
 * field is a plain value that the control protocol encodes field by field. */
#ifndef WS_MODEL_RESULT_H
#define WS_MODEL_RESULT_H

#include "model/spec.h"

#include <stdbool.h>
#include <stdint.h>

/* One flow of a multi-stream run, as one side saw it. */
typedef struct ws_flow_result {
	uint64_t bytes; /* moved by this side: sent by a sender, received by a receiver */
	uint64_t calls;
	int64_t elapsed_ns; /* from the common start to this flow's end */
	uint32_t thread;    /* worker thread index that ran it */
	int32_t error;      /* 0, or the negative code that failed it */
	char why[80];       /* the failure, "" when it completed */
	/* Request/response flows, filled by the client's engine only (not carried on the wire). */
	uint64_t transactions;           /* completed */
	uint64_t trans_lost;             /* UDP_RR: timed out */
	uint64_t lat_p50_ns, lat_p99_ns; /* this flow's round trips */
} ws_flow_result;

/* One MPTCP subflow at the end of a test, as MPTCP_FULL_INFO shows it (net/mptcp.h). */
#define WS_MPTCP_MAX_SUBFLOWS 8
typedef struct ws_mptcp_subflow {
	uint32_t id;    /* the kernel's subflow id */
	char local[64]; /* "address:port" */
	char remote[64];
	uint64_t bytes_acked; /* tcpi_bytes_acked: sent and acknowledged on this subflow */
	uint64_t bytes_recv;  /* tcpi_bytes_received */
	uint32_t rtt_us;      /* tcpi_rtt */
} ws_mptcp_subflow;

/* One worker thread of a side. */
typedef struct ws_thread_result {
	int64_t user_ns, sys_ns; /* RUSAGE_THREAD over the measured interval */
	int32_t cpu;             /* pinned CPU, or -1 */
	uint32_t flows;
} ws_thread_result;

/* One side's measurements. Socket sizes are what getsockopt returned. */
typedef struct ws_side_result {
	uint32_t sndbuf_req, rcvbuf_req; /* as asked (0 = default) */
	uint32_t sndbuf_set, rcvbuf_set; /* applied at setup */
	uint32_t sndbuf_end, rcvbuf_end; /* at the end of the test */
	uint32_t send_size, recv_size;   /* bytes per call actually used */
	uint64_t bytes_sent, bytes_recv;
	uint64_t send_calls, recv_calls;       /* messages, one per send/recv as netperf counts them
	                                    * (UDP_STREAM: datagrams, whatever the batching) */
	uint64_t send_syscalls, recv_syscalls; /* the system calls that moved them (sendmmsg,
	                                    * UDP_SEGMENT and recvmmsg carry many datagrams each) */
	int64_t elapsed_ns;                    /* this side's measured interval */
	bool cpu_measured;
	double cpu_util;                          /* % system-wide, averaged over CPUs (netperf) */
	double cpu_user, cpu_system, cpu_softirq; /* % parts of cpu_util */
	char cpu_method;                          /* 'S' = /proc/stat */
	uint32_t ncpus;                           /* CPUs counted in the utilisation */
	double cpu_rate;                       /* the CPU method's rate (netperf's LOC_CPU/REM_CPU
	                                    * figure): /proc/stat's clock ticks per second */
	int64_t thread_user_ns, thread_sys_ns; /* CPU time of this side's test threads */
	int cpu_bound_to;                      /* CPU the side ran on when pinned, else -1 */
	bool sd_local_basis; /* its service demand is charged with the local side's
	                                    * units and interval, as netperf charges a netserver
	                                    * (set on a netserver's remote side) */
	char io_path[32];    /* the I/O path that actually ran ("send", "sendfile", ...) */
	char io_note[96];    /* why a requested path fell back, "" if none */
	char engine[16];     /* the engine that ran: "epoll" or "io_uring" (model/engine.h) */
	uint64_t zc_sends;   /* MSG_ZEROCOPY sends whose completion was reaped */
	uint64_t zc_copied;  /* ... of which the kernel copied anyway */
	uint32_t rcvlowat;   /* TCP receiver: SO_RCVLOWAT as the kernel granted it,
	                                    * 0 when this side did not receive TCP data */
	/* UDP: datagrams by sequence number (receiver) and by call (sender). */
	uint64_t dgrams_sent, dgrams_recv;
	uint64_t dgrams_lost, dgrams_reordered, dgrams_dup;
	uint64_t send_errors;  /* sends refused by the kernel (ENOBUFS, ECONNREFUSED) */
	uint64_t bad_dgrams;   /* received datagrams that were not ours or malformed */
	uint64_t dgrams_jumps; /* datagrams with an implausible sequence number (udp_acct.h) */
	/* Request/response tests. */
	uint64_t transactions;    /* completed: answered (client), answered requests (server) */
	uint64_t trans_lost;      /* UDP_RR client: transactions that timed out (then retried) */
	uint64_t late_replies;    /* UDP_RR client: replies after their timeout, discarded */
	uint64_t trans_scheduled; /* open loop (--rate): transactions the schedule called for */
	int64_t max_lag_ns;       /* open loop: the most a request went out behind its schedule */
	uint64_t connects;        /* TCP_CRR: connections made (client), accepted (server) */
	uint64_t connect_errors;  /* TCP_CRR client: connects that failed (EADDRNOTAVAIL, ...) */
	struct ws_hist *latency;  /* client: round-trip times, from the intended send time in
	                                    * open loop (measure/hist.h); heap, owned by the result
	                                    * (ws_side_result_free); NULL for the server and streams */
	/* TCP_INFO at the end of a TCP test (valid when tcp_info_valid). */
	bool tcp_info_valid;
	uint32_t tcp_mss, tcp_rtt_us, tcp_rttvar_us, tcp_snd_cwnd;
	uint64_t tcp_retrans;
	bool tcp_retrans_valid; /* tcp_retrans is known without the rest of TCP_INFO
	                                    * (a netserver reports only that count) */
	/* ... the rest of what netperf's DUMP_TCP_INFO prints (client only, not carried). */
	uint32_t tcp_rto_us, tcp_ato_us, tcp_pmtu, tcp_rcv_ssthresh, tcp_snd_ssthresh,
		tcp_reordering;
	/* Data-socket options as getsockopt read them back after setup (net/sockopt.h). */
	int tos_set, priority_set; /* -1 = not asked for */
	char cong_set[16];         /* TCP_CONGESTION in effect ("" = not read) */
	uint32_t maxseg_set;       /* TCP_MAXSEG after connect, 0 = not read */
	bool keepalive_set, cork_set;
	/* Multi-stream runs: per flow and per thread, heap arrays owned by the result
	 * (ws_side_result_free); NULL/0 for a single-stream run. */
	ws_flow_result *flows;
	uint32_t nflows;
	ws_thread_result *threads;
	uint32_t nthreads;
	char hostname[64]; /* to flag both ends sharing one host */
	char boot_id[40];
	/* --mptcp (net/mptcp.h): "mptcp" (MPTCP in use), "fallback" (an MPTCP socket whose
	 * connection fell back to TCP), "tcp" (a plain TCP socket), "" (not read). */
	char mptcp_state[12];
	uint32_t mptcp_subflows; /* MPTCP_INFO's subflow count (additional subflows + 1) */
	/* ... each subflow: the client's only, not carried */
	ws_mptcp_subflow mptcp_sf[WS_MPTCP_MAX_SUBFLOWS];
	uint32_t mptcp_nsf;
	/* --busy-poll (net/busypoll.h): the receive spun; SO_BUSY_POLL as read back (-1: the
	 * kernel refused it, 0: not set); the NAPI id the socket last received from (0: a
	 * device without NAPI, such as loopback, where SO_BUSY_POLL has nothing to poll). */
	bool busy_spin;
	int64_t busy_poll_set;
	uint32_t napi_id;
} ws_side_result;

typedef struct ws_test_result {
	ws_test_spec spec;
	ws_side_result local, remote;
	char remote_host[WS_HOST_MAX]; /* as typed with -H */
	char remote_addr[64];          /* numeric address used */
	char local_addr[64];           /* numeric local bind address */
	enum ws_family family_used;
	bool shared_host;       /* both ends on one host: same system-wide CPU */
	char peer_software[64]; /* the daemon's HELLO_ACK software string ("" if none);
	                                 * client-side only, not a wire field of the result */
	/* RRUL (model/lul.h): the run's named time series, the marks read back, why it
	 * stopped; heap, client-side only (ws_test_result_free), NULL for other tests. */
	struct ws_lul_result *lul;
} ws_test_result;

/* Free the per-flow and per-thread arrays of a side (the struct itself is the caller's). */
void ws_side_result_free(ws_side_result *r);
/* Both sides' arrays. */
void ws_test_result_free(ws_test_result *r);

#endif
