/* SPDX-License-Identifier: BSD-2-Clause */
/* npmsg: netperf 2.7's own control messages, so that a stock netperf can use `warpspeed
 * serve` and warpspeed's client can drive a stock netserver.
 *
 * netperf puts C structs on the wire: every message, in both directions, is exactly 656
 * bytes (164 32-bit words), with no length, version or magic. Word 0 is the type; word 1
 * is the CPU to pin to in requests and serv_errno in replies. Only the first N words of
 * each message type are converted to big-endian; the rest is raw sender memory, which in
 * 2.7 holds only fixed-size strings. Floats are IEEE-754 32-bit, 64-bit counters travel as
 * hi/lo words. This module turns those bytes into plain structs and back, range-checks
 * everything a peer supplies (strings always come out NUL-terminated, ports within
 * 0..65535), and reads a message incrementally from a non-blocking socket. It never
 * prints and never exits. The facts are in docs/wire/netperf.md; no netperf code is
 * used. */
#ifndef WS_CTL_NPMSG_H
#define WS_CTL_NPMSG_H

#include <stddef.h>
#include <stdint.h>

struct ws_err;

#define WS_NP_MSG_LEN        656
#define WS_NP_WORDS          164
#define WS_NP_DEFAULT_PORT   12865
#define WS_NP_PASSPHRASE_MAX 647 /* characters; the text starts at byte 8 */

/* Message types (word 0). */
enum {
	WS_NP_DEBUG_ON = 1,
	WS_NP_DEBUG_OFF = 2,
	WS_NP_DEBUG_OK = 3,
	WS_NP_NODE_IDENTIFY = 4,
	WS_NP_CPU_CALIBRATE = 5,
	WS_NP_PASSPHRASE = 6,
	WS_NP_DO_OMNI = 97,
	WS_NP_OMNI_RESPONSE = 98,
	WS_NP_OMNI_RESULTS = 99,
	WS_NP_DO_SYSINFO = 600,
	WS_NP_SYSINFO_RESPONSE = 601,
};

/* serv_errno netserver answers an unknown message type with. */
#define WS_NP_ERRNO_UNKNOWN 998

/* DO_OMNI flags (request byte 56; the response echoes 0x1 and 0x8). */
enum {
	WS_NP_F_NODELAY = 0x1,
	WS_NP_F_SENDFILE = 0x2,
	WS_NP_F_CONNECT_TEST = 0x4, /* TCP_CRR / TCP_CC: a connection per transaction */
	WS_NP_F_MEASURE_CPU = 0x8,
	WS_NP_F_CHECKSUM_OFF = 0x10,
	WS_NP_F_ROUTING = 0x20, /* clear: SO_DONTROUTE; also asks for cong_control in results */
	WS_NP_F_FASTOPEN = 0x800,
	WS_NP_F_PKTINFO = 0x2000,
	WS_NP_F_CONNECTED = 0x4000, /* the daemon connects its UDP socket */
	WS_NP_F_DEFER_ACCEPT = 0x8000,
	WS_NP_F_MTU_DISCOVER = 0x10000,
	WS_NP_F_KEEPALIVE = 0x80000000u,
};

/* Direction, seen from the daemon. */
enum { WS_NP_DIR_SEND = 0x2, WS_NP_DIR_RECV = 0x4 };

/* cpu_method values in the results. */
enum { WS_NP_CPU_UNKNOWN = 0, WS_NP_CPU_PROC_STAT = 8 };

/* socket_type values. */
enum { WS_NP_SOCK_STREAM = 1, WS_NP_SOCK_DGRAM = 2 };

/* The DO_OMNI request (netperf → daemon). Sizes of -1 travel as 0xffffffff; the u32
 * fields are kept as sent. netperf_ip / netserver_ip are the four address words as
 * converted (see ws_np_addr_*). */
typedef struct ws_np_omni_req {
	int32_t cpu;           /* word 1: the CPU the daemon pins itself to, -1 = none */
	int32_t send_buf_size; /* daemon SO_SNDBUF, -1 = default */
	uint32_t send_size;    /* daemon bytes per send, 0xffffffff = default */
	uint32_t send_alignment, send_offset, send_width;
	int32_t request_size; /* -1 = a stream test */
	int32_t recv_buf_size;
	uint32_t receive_size;
	uint32_t recv_alignment, recv_offset, recv_width;
	int32_t response_size;
	uint32_t flags;
	float cpu_rate;      /* 0.0 = calibrate */
	int32_t test_length; /* >0 seconds, <0 -count, 0 until stopped */
	uint32_t so_rcvavoid, so_sndavoid;
	uint32_t send_dirty, recv_dirty, recv_clean;
	uint32_t data_port; /* 0..65535, 0 = any */
	uint32_t ipfamily;  /* 0 unspec, 4, 6, 7 RDS */
	uint32_t socket_type, protocol, direction;
	uint32_t netperf_port; /* 0..65535 */
	uint32_t interval_burst, interval_usecs;
	uint32_t netperf_ip[4], netserver_ip[4];
	int32_t socket_prio, socket_tos;
	char cong_control[16];
	char fill_file[32];
} ws_np_omni_req;

/* The OMNI response (daemon → netperf), type 98. */
typedef struct ws_np_omni_rsp {
	int32_t serv_errno;
	int32_t recv_buf_size, receive_size, recv_width;
	int32_t send_buf_size, send_size, send_width;
	uint32_t flags; /* 0x1 and 0x8 only */
	float cpu_rate;
	int32_t test_length;
	uint32_t so_rcvavoid, so_sndavoid;
	uint32_t data_port; /* 0..65535 */
	uint32_t interval_burst, interval_usecs;
	uint32_t cpu_frequency, security_info;
	int32_t socket_prio, socket_tos;
	char system_model[33];
	char cpu_model[80];
	char security_string[16];
} ws_np_omni_rsp;

/* The omni results (daemon → netperf), sent after the data phase. CPU fields mean
 * something only when the response echoed WS_NP_F_MEASURE_CPU: netserver leaves
 * leftovers (NaN among them) there otherwise. */
typedef struct ws_np_omni_results {
	int32_t serv_errno;
	uint64_t bytes_received;
	uint32_t recv_calls;
	int32_t recv_buf_size;
	uint64_t bytes_sent;
	uint32_t send_calls;
	int32_t send_buf_size;
	uint32_t failed_sends, trans_received;
	float elapsed_time; /* daemon seconds */
	float cpu_util, cpu_user, cpu_system, cpu_iowait, cpu_irq, cpu_softirq;
	float serv_dem;
	uint32_t cpu_method, num_cpus;
	int32_t peak_cpu_id;
	float peak_cpu_util;
	int32_t pci_vendor, pci_device, pci_subvendor, pci_subdevice;
	int32_t transport_retrans; /* -1 for UDP and TCP_CRR */
	char ifname[16], driver[32], version[32], firmware[32], bus[32], ifslot[16];
	char cong_control[16];
} ws_np_omni_results;

/* The legacy DO_TCP_STREAM exchange (types 10 → 11, results in a reply buffer of type
 * 11), every word converted. netperf 2.7.0 migrates TCP_STREAM, TCP_MAERTS, TCP_RR,
 * TCP_CRR, UDP_STREAM and UDP_RR to DO_OMNI but not TCP_SENDFILE, which still sends this
 * request (found in the captures, tests/goldens/npwire/tcp_sendfile*.hex). */
enum { WS_NP_DO_TCP_STREAM = 10, WS_NP_TCP_STREAM_RESPONSE = 11, WS_NP_TCP_STREAM_RESULTS = 12 };

typedef struct ws_np_stream_req {
	int32_t cpu;                          /* word 1 */
	int32_t send_buf_size, recv_buf_size; /* -1 = default */
	int32_t receive_size;                 /* 0 or -1 = default */
	int32_t recv_alignment, recv_offset;
	int32_t no_delay, measure_cpu;
	float cpu_rate;
	int32_t test_length; /* netperf 2.7.0: seconds for -l N, the byte count N for -l -N */
	int32_t so_rcvavoid, so_sndavoid, dirty_count, clean_count;
	uint32_t data_port; /* 0..65535 */
	uint32_t ipfamily;
} ws_np_stream_req;

typedef struct ws_np_stream_rsp {
	int32_t serv_errno;
	int32_t recv_buf_size, receive_size, no_delay, measure_cpu, test_length, send_buf_size;
	uint32_t data_port;
	float cpu_rate;
	int32_t so_rcvavoid, so_sndavoid;
} ws_np_stream_rsp;

typedef struct ws_np_stream_results {
	int32_t serv_errno;
	double bytes_received; /* a big-endian IEEE-754 double on the wire */
	uint32_t recv_calls;
	float elapsed_time, cpu_util, serv_dem;
	uint32_t cpu_method, num_cpus;
	int32_t recv_buf_size, send_buf_size;
} ws_np_stream_results;

void ws_np_encode_stream_req(const ws_np_stream_req *r, uint8_t *msg);
/* Refuses a data port over 65535, a non-finite or negative CPU rate, test length
 * INT32_MIN and a family other than 0, 4 or 6. */
int ws_np_decode_stream_req(const uint8_t *msg, ws_np_stream_req *r, struct ws_err *err);
void ws_np_encode_stream_rsp(const ws_np_stream_rsp *r, uint8_t *msg);
int ws_np_decode_stream_rsp(const uint8_t *msg, ws_np_stream_rsp *r, struct ws_err *err);
void ws_np_encode_stream_results(const ws_np_stream_results *r, uint8_t *msg);
/* Refuses a byte count that is not finite or is negative. */
int ws_np_decode_stream_results(const uint8_t *msg, ws_np_stream_results *r, struct ws_err *err);

/* The legacy DO_TCP_CC exchange (types 300 → 301, results in a reply of type 301), every
 * word converted: netperf 2.7.0 runs TCP_CC unmigrated. No data moves; the daemon accepts
 * and closes each connection and counts them. */
enum { WS_NP_DO_TCP_CC = 300, WS_NP_TCP_CC_RESPONSE = 301 };

typedef struct ws_np_cc_req {
	int32_t cpu;                          /* word 1 */
	int32_t recv_buf_size, send_buf_size; /* -1 = default */
	int32_t recv_alignment, recv_offset, send_alignment, send_offset;
	int32_t request_size, response_size; /* shown by netperf, never sent */
	int32_t no_delay, measure_cpu;
	float cpu_rate;
	int32_t test_length; /* >0 seconds, <0 -transactions */
	int32_t so_rcvavoid, so_sndavoid;
	uint32_t data_port; /* 0..65535 */
	uint32_t ipfamily;
} ws_np_cc_req;

typedef struct ws_np_cc_rsp {
	int32_t serv_errno;
	int32_t recv_buf_size, no_delay, measure_cpu, test_length, send_buf_size;
	uint32_t data_port;
	float cpu_rate;
	int32_t so_rcvavoid, so_sndavoid;
} ws_np_cc_rsp;

typedef struct ws_np_cc_results {
	int32_t serv_errno;
	uint32_t bytes_received, recv_calls, trans_received;
	float elapsed_time, cpu_util, serv_dem;
	uint32_t cpu_method, num_cpus;
} ws_np_cc_results;

/* Decoding the request refuses what the stream request's does; the response a data port
 * over 65535; the results decode whatever they hold (check the CPU figures before use). */
void ws_np_encode_cc_req(const ws_np_cc_req *r, uint8_t *msg);
int ws_np_decode_cc_req(const uint8_t *msg, ws_np_cc_req *r, struct ws_err *err);
void ws_np_encode_cc_rsp(const ws_np_cc_rsp *r, uint8_t *msg);
int ws_np_decode_cc_rsp(const uint8_t *msg, ws_np_cc_rsp *r, struct ws_err *err);
void ws_np_encode_cc_results(const ws_np_cc_results *r, uint8_t *msg);
void ws_np_decode_cc_results(const uint8_t *msg, ws_np_cc_results *r);

/* Word 0 and word 1 of any message (type; CPU in requests, serv_errno in replies). Both
 * are always converted, so these hold for every type. */
int32_t ws_np_type(const uint8_t *msg);
int32_t ws_np_word1(const uint8_t *msg);

/* How many leading words a message of this type carries converted (the rest is raw): 40
 * for DO_OMNI, 20 for OMNI_RESPONSE, 29 for the results, 2 for PASSPHRASE and the SYSINFO
 * reply, 164 for CPU_CALIBRATE, error and unknown-type replies. */
int ws_np_conv_words(int32_t type);

/* A legacy (pre-omni) test request type: DO_TCP_STREAM 10, DO_TCP_RR 13, ... */
int ws_np_is_legacy_request(int32_t type);
/* The name of a message type for logs ("DO_OMNI", "DO_TCP_STREAM", ...), "unknown" else. */
const char *ws_np_type_name(int32_t type);

/* Encoders fill all 656 bytes (unused bytes zero) and cannot fail, except where noted.
 * Decoders return 0 or -WS_E_PROTO with a message naming the field, the value and what
 * is accepted; they never read past the 656 bytes. The results' type word is written as
 * OMNI_RESPONSE and not checked on decode: netserver sends a byte-swapped leftover. */
void ws_np_encode_omni_req(const ws_np_omni_req *r, uint8_t *msg);
int ws_np_decode_omni_req(const uint8_t *msg, ws_np_omni_req *r, struct ws_err *err);
void ws_np_encode_omni_rsp(const ws_np_omni_rsp *r, uint8_t *msg);
int ws_np_decode_omni_rsp(const uint8_t *msg, ws_np_omni_rsp *r, struct ws_err *err);
void ws_np_encode_omni_results(const ws_np_omni_results *r, uint8_t *msg);
int ws_np_decode_omni_results(const uint8_t *msg, ws_np_omni_results *r, struct ws_err *err);

/* Defaults netperf would send / netserver would fill, as a starting point for encoders:
 * all sizes -1, alignments 8, prio/tos -1, cpu -1. */
void ws_np_omni_req_defaults(ws_np_omni_req *r);

/* PASSPHRASE: header converted, NUL-terminated text from byte 8. Encoding refuses a text
 * over WS_NP_PASSPHRASE_MAX characters; decoding copies at most that many into
 * out[outsz] and always terminates it (-WS_E_PROTO when the text has no NUL). */
int ws_np_encode_passphrase(const char *text, uint8_t *msg, struct ws_err *err);
int ws_np_decode_passphrase(const uint8_t *msg, char *out, size_t outsz, struct ws_err *err);

/* CPU_CALIBRATE reply (type 5, every word converted): f32 rate at 8, i32 CPU count at 12.
 * Decoding refuses a non-finite or negative rate and a count outside 1..65536. */
void ws_np_encode_calibrate_reply(float rate, int32_t ncpus, uint8_t *msg);
int ws_np_decode_calibrate_reply(const uint8_t *msg, float *rate, int32_t *ncpus,
				 struct ws_err *err);

/* SYSINFO reply (type 601, 2 words converted): text from byte 8, truncated to fit. */
void ws_np_encode_sysinfo_reply(int32_t serv_errno, const char *text, uint8_t *msg);
int ws_np_decode_sysinfo_reply(const uint8_t *msg, char *out, size_t outsz, struct ws_err *err);

/* An error reply: every word converted, word 0 = type (netserver leaves 0 there in a fresh
 * child), word 1 = serv_errno (WS_NP_ERRNO_UNKNOWN for an unknown type, else an errno). */
void ws_np_encode_error(int32_t type, int32_t serv_errno, uint8_t *msg);

/* The serv_errno a refusal carries for a warpspeed error code (negative or not):
 * WS_E_LIMIT → EBUSY, WS_E_TIMEDOUT → ETIMEDOUT, WS_E_PROTO → EPROTO, an errno as it
 * is, anything else EINVAL. netperf prints it as "netperf: remote error N". */
int32_t ws_np_errno(int code);

/* Address words. netperf sends an IPv4 address as a host integer (127.0.0.1 is the word
 * 0x7f000001, so the wire bytes are in network order) and an IPv6 address as its 16 bytes
 * read as four native words, so a little-endian sender reverses every 4-byte group (a
 * big-endian peer of a little-endian one gets the groups reversed: netperf's own
 * behaviour, kept so that both ends agree with stock tools on the same host). */
void ws_np_addr_from_in4(const uint8_t a[4], uint32_t w[4]);
void ws_np_addr_to_in4(const uint32_t w[4], uint8_t a[4]);
void ws_np_addr_from_in6(const uint8_t a[16], uint32_t w[4]);
void ws_np_addr_to_in6(const uint32_t w[4], uint8_t a[16]);

/* A sanity check for the CPU part of decoded results, for a client whose response echoed
 * WS_NP_F_MEASURE_CPU: utilisation fields finite and within 0..100 (a little slack for
 * rounding), num_cpus within 1..65536. */
int ws_np_results_check_cpu(const ws_np_omni_results *r, struct ws_err *err);

#endif
