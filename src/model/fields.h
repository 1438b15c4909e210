/* SPDX-License-Identifier: BSD-2-Clause */
/* fields: the spec's and the result's fields, each described once: its control-protocol
 * id, its C type and member, where and under what name the JSON result shows it, the
 * netperf output names that read it as it is, and its unit.
 *
 * The lists are X-macros (WS_SPEC_FIELDS, WS_SIDE_FIELDS) that fields.c turns into
 * tables; the TLV codec (ctl/msg.c), the JSON writer (report/json_result.c) and the
 * output-name getters (report/outputs_get.c) walk the tables, so adding a carried,
 * published field is one line here plus its measurement. Order matters to the JSON
 * writer only: within a group the fields appear in the list's order. */
#ifndef WS_MODEL_FIELDS_H
#define WS_MODEL_FIELDS_H

#include "model/result.h"

#include <stddef.h>
#include <stdint.h>

/* The C type of a member. */
enum ws_field_kind {
	WS_FK_U16,
	WS_FK_U32,
	WS_FK_U64,
	WS_FK_I64,
	WS_FK_INT,  /* int */
	WS_FK_ENUM, /* an int-sized enum */
	WS_FK_F64,
	WS_FK_BOOL,
	WS_FK_CHAR,
	WS_FK_STR, /* a char array, terminated */
};

/* The JSON object a field is a member of (WS_FG_NONE: not published as it is). The spec's
 * groups nest in "spec" where the list's order puts them. */
enum ws_field_group {
	WS_FG_NONE,
	/* the spec */
	WS_FG_SPEC,
	WS_FG_IO_OPTIONS,
	WS_FG_LOCAL,
	WS_FG_REMOTE,
	/* a side of the result */
	WS_FG_SOCKET,
	WS_FG_COUNTERS,
	WS_FG_IO,
	WS_FG_UDP,
	WS_FG_RR,
	WS_FG_TCP_INFO,
	WS_FG_TCP_INFO_CLIENT, /* read by the client only: null on the remote side */
};

/* How the JSON shows a value beyond its kind. */
enum ws_field_json {
	WS_FJ_PLAIN,
	WS_FJ_BUF,         /* a requested socket buffer: WS_SOCKBUF_ZERO shows as 0 */
	WS_FJ_CPU,         /* a CPU number: -1 (none) is null */
	WS_FJ_STR_OR_NULL, /* "" is null */
	WS_FJ_TEST,        /* the test's name */
	WS_FJ_END,         /* "time", "bytes", "transactions" */
	WS_FJ_FAMILY,      /* 4 or 6, else null */
	WS_FJ_AT_LEAST_1,  /* 0 shows as 1 */
	WS_FJ_ENGINE,      /* "auto", "epoll", "io_uring" */
};

typedef struct ws_field {
	uint16_t id; /* control-protocol (TLV) id; 0 = client-only, never carried */
	enum ws_field_kind kind;
	size_t off, size;   /* of the member in its struct */
	const char *member; /* "local.sndbuf" */
	enum ws_field_group group;
	const char *json; /* member name in its JSON object; NULL = none */
	enum ws_field_json json_as;
	const char *out[2]; /* netperf output names that print the member as it is: of the
	                     * local side, of the remote side (spec: [0] only); NULL = none */
	const char *unit;   /* "bytes", "ns", ... ("" = none) */
} ws_field;

/* X(id, kind, member, group, json, json_as, out_local, out_remote, unit); kind, group and
 * json_as without their WS_FK_/WS_FG_/WS_FJ_ prefixes. The spec, in the JSON's order. */
/* clang-format off */
#define WS_SPEC_FIELDS(X) \
	X(100, ENUM, type,             SPEC, "test",          TEST,    NULL, NULL, "") \
	X(101, ENUM, end,              SPEC, "end",           END,     NULL, NULL, "") \
	X(102, F64,  duration_s,       SPEC, "duration_s",    PLAIN,   NULL, NULL, "s") \
	X(103, U64,  end_count,        SPEC, "end_count",     PLAIN,   NULL, NULL, "") \
	X(104, U32,  send_size,        SPEC, "send_size",     PLAIN,   NULL, NULL, "bytes") \
	X(105, U32,  recv_size,        SPEC, "recv_size",     PLAIN,   NULL, NULL, "bytes") \
	X(126, U32,  req_size,         SPEC, "req_size",      PLAIN,   NULL, NULL, "bytes") \
	X(127, U32,  rsp_size,         SPEC, "rsp_size",      PLAIN,   NULL, NULL, "bytes") \
	X(128, U32,  burst,            SPEC, "burst",         PLAIN,   "BURST_SIZE", NULL, "") \
	X(129, I64,  rr_timeout_ns,    SPEC, "rr_timeout_ns", PLAIN,   NULL, NULL, "ns") \
	X(130, F64,  rate,             SPEC, "rate",          PLAIN,   NULL, NULL, "transactions/s") \
	X(106, BOOL, nodelay,          SPEC, "nodelay",       PLAIN,   NULL, NULL, "") \
	X(107, ENUM, family,           SPEC, "family",        FAMILY,  NULL, NULL, "") \
	X(108, BOOL, zerocopy,         IO_OPTIONS, "zerocopy",     PLAIN, NULL, NULL, "") \
	X(109, BOOL, skip_rx_copy,     IO_OPTIONS, "skip_rx_copy", PLAIN, NULL, NULL, "") \
	X(110, BOOL, splice,           IO_OPTIONS, "splice",       PLAIN, NULL, NULL, "") \
	X(125, U32,  rcvlowat,         IO_OPTIONS, "rcvlowat",     PLAIN, NULL, NULL, "bytes") \
	X(111, BOOL, gso,              IO_OPTIONS, "gso",          PLAIN, NULL, NULL, "") \
	X(112, BOOL, gro,              IO_OPTIONS, "gro",          PLAIN, NULL, NULL, "") \
	X(113, BOOL, no_batch,         IO_OPTIONS, "no_mmsg",      PLAIN, NULL, NULL, "") \
	X(114, BOOL, udp_route,        IO_OPTIONS, "route",        PLAIN, NULL, NULL, "") \
	X(170, BOOL, mptcp,            IO_OPTIONS, "mptcp",        PLAIN, NULL, NULL, "") \
	X(171, BOOL, busy_poll,        IO_OPTIONS, "busy_poll",    PLAIN, NULL, NULL, "") \
	X(172, U32,  busy_poll_us,     IO_OPTIONS, "busy_poll_us", PLAIN, NULL, NULL, "us") \
	X(165, ENUM, engine,           IO_OPTIONS, "engine",       ENGINE, NULL, NULL, "") \
	X(166, BOOL, sqpoll,           IO_OPTIONS, "sqpoll",       PLAIN, NULL, NULL, "") \
	X(115, U32,  streams,          SPEC, "streams",        AT_LEAST_1, NULL, NULL, "") \
	X(116, U32,  local_threads,    SPEC, "local_threads",  PLAIN,  NULL, NULL, "") \
	X(117, U32,  remote_threads,   SPEC, "remote_threads", PLAIN,  NULL, NULL, "") \
	X(118, STR,  local_cpus,       SPEC, "local_cpus",     PLAIN,  NULL, NULL, "") \
	X(119, STR,  remote_cpus,      SPEC, "remote_cpus",    PLAIN,  NULL, NULL, "") \
	X(120, U32,  local.sndbuf,     LOCAL, "sndbuf",        BUF,    NULL, NULL, "bytes") \
	X(121, U32,  local.rcvbuf,     LOCAL, "rcvbuf",        BUF,    NULL, NULL, "bytes") \
	X(122, INT,  local.cpu,        LOCAL, "cpu",           CPU,    NULL, NULL, "") \
	X(123, BOOL, local.measure_cpu, LOCAL, "measure_cpu",  PLAIN,  NULL, NULL, "") \
	X(124, U16,  local.data_port,  LOCAL, "data_port",     PLAIN,  NULL, NULL, "") \
	X(140, U32,  remote.sndbuf,    REMOTE, "sndbuf",       BUF,    NULL, NULL, "bytes") \
	X(141, U32,  remote.rcvbuf,    REMOTE, "rcvbuf",       BUF,    NULL, NULL, "bytes") \
	X(142, INT,  remote.cpu,       REMOTE, "cpu",          CPU,    NULL, NULL, "") \
	X(143, BOOL, remote.measure_cpu, REMOTE, "measure_cpu", PLAIN, NULL, NULL, "") \
	X(144, U16,  remote.data_port, REMOTE, "data_port",    PLAIN,  NULL, NULL, "") \
	X(0,   STR,  fill_file,        SPEC, "fill_file", STR_OR_NULL, "LOCAL_FILL_FILE", NULL, "") \
	/* carried, not in the JSON's spec (the harness options; the client-only ones, \
	 * local.tos and the like and maxseg, are neither) */ \
	X(131, INT,  remote.tos,       NONE, NULL, PLAIN, NULL, NULL, "") \
	X(132, INT,  remote.priority,  NONE, NULL, PLAIN, NULL, NULL, "") \
	X(133, STR,  remote.cong,      NONE, NULL, PLAIN, NULL, NULL, "") \
	X(134, BOOL, cork,             NONE, NULL, PLAIN, NULL, NULL, "") \
	X(135, BOOL, keepalive,        NONE, NULL, PLAIN, NULL, NULL, "") \
	X(136, BOOL, udp_flow_control, NONE, NULL, PLAIN, NULL, NULL, "") \
	X(137, F64,  udp_pace_bps,     NONE, NULL, PLAIN, NULL, NULL, "bits/s") \
	X(138, STR,  data_host,        NONE, NULL, PLAIN, NULL, NULL, "") \
	X(139, STR,  data_local,       NONE, NULL, PLAIN, NULL, NULL, "") \
	X(151, BOOL, dontroute,        NONE, NULL, PLAIN, NULL, NULL, "") \
	X(185, ENUM, run_type,         NONE, NULL, PLAIN, NULL, NULL, "")

/* One side of the result, in the JSON's order within each group. */
#define WS_SIDE_FIELDS(X) \
	X(200, U32, sndbuf_req,    SOCKET, "sndbuf_requested", BUF,   NULL, NULL, "bytes") \
	X(201, U32, rcvbuf_req,    SOCKET, "rcvbuf_requested", BUF,   NULL, NULL, "bytes") \
	X(202, U32, sndbuf_set,    SOCKET, "sndbuf_initial",   PLAIN, "LSS_SIZE", "RSS_SIZE", "bytes") \
	X(203, U32, rcvbuf_set,    SOCKET, "rcvbuf_initial",   PLAIN, "LSR_SIZE", "RSR_SIZE", "bytes") \
	X(204, U32, sndbuf_end,    SOCKET, "sndbuf_final",     PLAIN, "LSS_SIZE_END", "RSS_SIZE_END", "bytes") \
	X(205, U32, rcvbuf_end,    SOCKET, "rcvbuf_final",     PLAIN, "LSR_SIZE_END", "RSR_SIZE_END", "bytes") \
	X(206, U32, send_size,     COUNTERS, "send_size",      PLAIN, NULL, NULL, "bytes") \
	X(207, U32, recv_size,     COUNTERS, "recv_size",      PLAIN, NULL, NULL, "bytes") \
	X(208, U64, bytes_sent,    COUNTERS, "bytes_sent",     PLAIN, "LOCAL_BYTES_SENT", "REMOTE_BYTES_SENT", "bytes") \
	X(209, U64, bytes_recv,    COUNTERS, "bytes_received", PLAIN, "LOCAL_BYTES_RECVD", "REMOTE_BYTES_RECVD", "bytes") \
	X(210, U64, send_calls,    COUNTERS, "send_calls",     PLAIN, "LOCAL_SEND_CALLS", "REMOTE_SEND_CALLS", "") \
	X(211, U64, recv_calls,    COUNTERS, "recv_calls",     PLAIN, "LOCAL_RECV_CALLS", "REMOTE_RECV_CALLS", "") \
	X(270, U64, send_syscalls, COUNTERS, "send_syscalls",  PLAIN, "LOCAL_SEND_SYSCALLS", "REMOTE_SEND_SYSCALLS", "") \
	X(271, U64, recv_syscalls, COUNTERS, "recv_syscalls",  PLAIN, "LOCAL_RECV_SYSCALLS", "REMOTE_RECV_SYSCALLS", "") \
	X(212, I64, elapsed_ns,    COUNTERS, "elapsed_ns",     PLAIN, NULL, NULL, "ns") \
	X(225, STR, io_path,       IO, "path",            STR_OR_NULL, "LOCAL_IO_PATH", "REMOTE_IO_PATH", "") \
	X(226, STR, io_note,       IO, "note",            STR_OR_NULL, NULL, NULL, "") \
	X(265, STR, engine,        IO, "engine",          STR_OR_NULL, NULL, NULL, "") \
	X(227, U64, zc_sends,      IO, "zerocopy_sends",  PLAIN, NULL, NULL, "") \
	X(228, U64, zc_copied,     IO, "zerocopy_copied", PLAIN, NULL, NULL, "") \
	X(242, U32, rcvlowat,      IO, "rcvlowat",        PLAIN, NULL, NULL, "bytes") \
	X(229, U64, dgrams_sent,   UDP, "datagrams_sent",     PLAIN, NULL, NULL, "") \
	X(230, U64, dgrams_recv,   UDP, "datagrams_received", PLAIN, NULL, NULL, "") \
	X(231, U64, dgrams_lost,   UDP, "lost",               PLAIN, NULL, NULL, "") \
	X(232, U64, dgrams_reordered, UDP, "reordered",       PLAIN, NULL, NULL, "") \
	X(233, U64, dgrams_dup,    UDP, "duplicated",         PLAIN, NULL, NULL, "") \
	X(234, U64, send_errors,   UDP, "send_errors",        PLAIN, NULL, NULL, "") \
	X(235, U64, bad_dgrams,    UDP, "bad",                PLAIN, NULL, NULL, "") \
	X(243, U64, dgrams_jumps,  UDP, "sequence_jumps",     PLAIN, NULL, NULL, "") \
	X(244, U64, transactions,  RR, "transactions",   PLAIN, NULL, NULL, "") \
	X(245, U64, trans_lost,    RR, "lost",           PLAIN, NULL, NULL, "") \
	X(246, U64, late_replies,  RR, "late",           PLAIN, NULL, NULL, "") \
	X(247, U64, trans_scheduled, RR, "scheduled",    PLAIN, NULL, NULL, "") \
	X(248, I64, max_lag_ns,    RR, "max_lag_ns",     PLAIN, NULL, NULL, "ns") \
	X(249, U64, connects,      RR, "connects",       PLAIN, NULL, NULL, "") \
	X(250, U64, connect_errors, RR, "connect_errors", PLAIN, NULL, NULL, "") \
	X(237, U32, tcp_mss,       TCP_INFO, "mss",       PLAIN, NULL, NULL, "bytes") \
	X(238, U32, tcp_rtt_us,    TCP_INFO, "rtt_us",    PLAIN, NULL, NULL, "us") \
	X(239, U32, tcp_rttvar_us, TCP_INFO, "rttvar_us", PLAIN, NULL, NULL, "us") \
	X(240, U32, tcp_snd_cwnd,  TCP_INFO, "snd_cwnd",  PLAIN, NULL, NULL, "segments") \
	X(241, U64, tcp_retrans,   TCP_INFO, "retrans",   PLAIN, NULL, NULL, "") \
	X(0,   U32, tcp_rto_us,    TCP_INFO_CLIENT, "rto_us",       PLAIN, NULL, NULL, "us") \
	X(0,   U32, tcp_ato_us,    TCP_INFO_CLIENT, "ato_us",       PLAIN, NULL, NULL, "us") \
	X(0,   U32, tcp_pmtu,      TCP_INFO_CLIENT, "pmtu",         PLAIN, NULL, NULL, "bytes") \
	X(0,   U32, tcp_rcv_ssthresh, TCP_INFO_CLIENT, "rcv_ssthresh", PLAIN, NULL, NULL, "") \
	X(0,   U32, tcp_snd_ssthresh, TCP_INFO_CLIENT, "snd_ssthresh", PLAIN, NULL, NULL, "") \
	X(0,   U32, tcp_reordering, TCP_INFO_CLIENT, "reordering",  PLAIN, NULL, NULL, "") \
	/* carried, published through the output names' arithmetic (measure/cpu.h) or not */ \
	X(213, BOOL, cpu_measured,   NONE, NULL, PLAIN, NULL, NULL, "") \
	X(214, F64, cpu_util,        NONE, NULL, PLAIN, NULL, NULL, "%") \
	X(215, F64, cpu_user,        NONE, NULL, PLAIN, NULL, NULL, "%") \
	X(216, F64, cpu_system,      NONE, NULL, PLAIN, NULL, NULL, "%") \
	X(217, F64, cpu_softirq,     NONE, NULL, PLAIN, NULL, NULL, "%") \
	X(218, CHAR, cpu_method,     NONE, NULL, PLAIN, NULL, NULL, "") \
	X(219, U32, ncpus,           NONE, NULL, PLAIN, NULL, NULL, "") \
	X(220, I64, thread_user_ns,  NONE, NULL, PLAIN, NULL, NULL, "ns") \
	X(221, I64, thread_sys_ns,   NONE, NULL, PLAIN, NULL, NULL, "ns") \
	X(222, INT, cpu_bound_to,    NONE, NULL, PLAIN, NULL, NULL, "") \
	X(223, STR, hostname,        NONE, NULL, PLAIN, NULL, NULL, "") \
	X(224, STR, boot_id,         NONE, NULL, PLAIN, NULL, NULL, "") \
	X(236, BOOL, tcp_info_valid, NONE, NULL, PLAIN, NULL, NULL, "") \
	X(251, F64, cpu_rate,        NONE, NULL, PLAIN, NULL, NULL, "") \
	/* MPTCP and busy polling: published by report/json_paths.c, not as they are */ \
	X(290, STR, mptcp_state,     NONE, NULL, PLAIN, NULL, NULL, "") \
	X(291, U32, mptcp_subflows,  NONE, NULL, PLAIN, NULL, NULL, "") \
	X(292, BOOL, busy_spin,      NONE, NULL, PLAIN, NULL, NULL, "") \
	X(293, I64, busy_poll_set,   NONE, NULL, PLAIN, NULL, NULL, "us") \
	X(294, U32, napi_id,         NONE, NULL, PLAIN, NULL, NULL, "")
/* clang-format on */

/* The tables the lists make: the spec's fields (offsets into ws_test_spec) and a side's
 * (offsets into ws_side_result). */
extern const ws_field ws_spec_fields[];
extern const size_t ws_spec_nfields;
extern const ws_field ws_side_fields[];
extern const size_t ws_side_nfields;

/* The field whose local (side 0) or remote (side 1) output name is name
 * (case-insensitive), with *side set; in the spec (*spec true) or a side. NULL = none. */
const ws_field *ws_field_by_output(const char *name, int *side, bool *spec);

#endif
