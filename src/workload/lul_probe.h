/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_probe: the latency probes of an RRUL run, on the client: paced in one thread, back
 * to back in a thread per probe (as netperf runs a process per probe).
 *
 * Every probe interval each probe sends one request: a UDP datagram to the daemon's echo
 * port (one socket per mark), one byte on the TCP probe connection, or an ICMP echo
 * through an unprivileged ping socket. The probes are paced, not back to back (docs/
 * rrul.md says why): round k leaves at start + k * interval, and its sample carries that
 * time. A UDP or ICMP request unanswered after WS_LUL_PROBE_TIMEOUT_S is lost, a NaN
 * sample, and the series goes on with the next round; a reply after that is ignored. The
 * TCP probe has one request in flight: a round that finds it still waiting is skipped (no
 * sample; TCP retransmits, so nothing is lost). Samples are pushed in round order, under
 * the caller's lock, so a reader of the series sees them in time order.
 *
 * The probes end the run (WS_LUL_DEAD_S) when the daemon stops answering altogether: a
 * UDP probe with every request of the last few seconds lost, or a TCP probe waiting that
 * long. ICMP losses never do (ICMP is often filtered or rate limited on the way). */
#ifndef WS_WORKLOAD_LUL_PROBE_H
#define WS_WORKLOAD_LUL_PROBE_H

#include "model/lul.h"
#include "net/addr.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* How long a probe series may go without an answer before the run ends. */
#define WS_LUL_DEAD_S 3.0

/* A UDP probe on the wire: the magic "WSLP", the round (big-endian), the series index,
 * the mark the daemon saw, two bytes of padding; the daemon echoes nothing else. */
#define WS_LUL_UDP_MAGIC    0x57534c50u
#define WS_LUL_UDP_PROBE_SZ 12

typedef struct ws_lul_probe ws_lul_probe; /* one probe's state (lul_probe.c) */

/* The daemon's UDP echo: its address, and the port of the echo socket for each UDP probe
 * (n of them; the i-th UDP probe uses port[i % n]: a daemon before per-probe echoes gave
 * one port for all). */
typedef struct ws_lul_echo {
	ws_addr addr;
	uint16_t port[WS_LUL_UDP_PROBES];
	uint32_t n;
} ws_lul_echo;

typedef struct ws_lul_probes {
	const ws_lul_plan *plan;
	ws_lul_result *out;  /* series (plan order), tos_remote, skipped */
	pthread_mutex_t *mu; /* held while samples are pushed */
	atomic_bool *stop;   /* set by the caller: end now */
	int64_t t0_ns;       /* the common start */
	int64_t duration_ns;
	ws_lul_probe *p; /* the probes that run */
	uint32_t n;
	char why[200]; /* why the probes ended the run, "" = they did not */
} ws_lul_probes;

/* Open the probes' sockets before the start: UDP sockets marked and connected to the
 * daemon's echo (each to its own echo socket when the daemon has one per probe), the TCP
 * probe on tcp_fd (greeted, not owned), an ICMP socket when ping_group_range allows this
 * process's groups; a probe that cannot run is marked skipped with its reason in
 * out->skipped. Returns 0 or a negative error. */
int ws_lul_probes_open(ws_lul_probes *ps, const ws_lul_plan *plan, ws_lul_result *out, int tcp_fd,
		       const ws_lul_echo *echo, struct ws_err *err);

/* The probes' thread body (arg: the ws_lul_probes); set t0_ns, duration_ns, mu and stop
 * first. Returns when every round is answered or lost, or *stop is set. */
void *ws_lul_probes_main(void *arg);

void ws_lul_probes_close(ws_lul_probes *ps);

/* May this process open an unprivileged ICMP socket? Reads the kernel's ping_group_range
 * (read only) and compares it with the process's groups; false with the reason in why. */
bool ws_lul_icmp_allowed(char *why, size_t whysz);

/* The pure range test: is any of the groups in [lo, hi]? (lo > hi: none is.) */
bool ws_lul_groups_in_range(const unsigned *gids, int n, unsigned lo, unsigned hi);

#endif
