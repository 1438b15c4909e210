/* SPDX-License-Identifier: BSD-2-Clause */
/* lul: latency under load (RRUL and its variants), the plan of one run and its result.
 *
 * Flent's rrul is eight netperf processes and a few pingers whose outputs a Python harness
 * stitches together by name; here one client and one daemon run the same flows and probes,
 * and this module is the one place that says which flows and probes a spec asks for, with
 * which DiffServ mark and under which of Flent's series names ("TCP upload BE",
 * "Ping (ms) UDP EF"), so that the engine, the summary, the JSON and the Flent file agree
 * without tables of their own. It also derives Flent's aggregate series ("TCP upload sum",
 * "Ping (ms) avg") from the measured ones. Pure logic over plain values: unit-tested. */
#ifndef WS_MODEL_LUL_H
#define WS_MODEL_LUL_H

#include "model/series.h"
#include "model/spec.h"

#include <stdbool.h>
#include <stdint.h>

struct ws_err;

/* --probes: which latency probes run (a mask). */
enum { WS_LUL_UDP = 1u << 0, WS_LUL_TCP = 1u << 1, WS_LUL_ICMP = 1u << 2 };
#define WS_LUL_PROBES_DEFAULT     (WS_LUL_UDP | WS_LUL_TCP)
#define WS_LUL_DEFAULT_INTERVAL_S 0.2
#define WS_LUL_MIN_INTERVAL_S     0.001
#define WS_LUL_MAX_INTERVAL_S     10.0
#define WS_LUL_MAX_FLOWS_EACH     64 /* --up / --down */
#define WS_LUL_MAX_PROBES         6
/* RRUL's UDP probes (BE, BK, EF); the daemon opens an echo socket, and runs an echo
 * thread, for each (docs/rrul.md: "Idle latency"). */
#define WS_LUL_UDP_PROBES  3
#define WS_LUL_MAX_DELAY_S 60 /* --delay */
#define WS_LUL_MAX_ITEMS   (2 * WS_LUL_MAX_FLOWS_EACH + WS_LUL_MAX_PROBES)
/* A probe unanswered this long is lost (a NaN sample); see docs/rrul.md. */
#define WS_LUL_PROBE_TIMEOUT_S 1.0

/* DiffServ marks as IP_TOS bytes (netperf's -Y names). */
#define WS_TOS_BE  0x00
#define WS_TOS_BK  0x20 /* CS1 */
#define WS_TOS_CS5 0xa0
#define WS_TOS_EF  0xb8

/* One flow or probe of the plan. */
typedef struct ws_lul_item {
	char name[48];       /* Flent's series name */
	ws_series_kind kind; /* WS_SERIES_UP / _DOWN (flows) or _PROBE */
	char probe[8];       /* "udp", "tcp", "icmp"; "" for flows */
	int tos;             /* IP_TOS byte both ends set */
} ws_lul_item;

typedef struct ws_lul_plan {
	ws_lul_item item[WS_LUL_MAX_ITEMS]; /* the up flows, the down flows, then the probes */
	uint32_t nup, ndown, nprobes;
	double interval_s; /* probe interval (back to back: the sampling step) */
	bool back_to_back; /* --probe-interval 0: each probe's next request leaves when its
	                    * last is answered; a sample is the mean of an interval_s */
	uint32_t delay_s;  /* --delay: the probes run alone this long before and after the
	                    * flows (Flent's DELAY), 0 = none */
	double step_s;     /* flow sampling step (-D, else 0.2 s) */
} ws_lul_plan;

/* The flows and probes of a spec of type RRUL or RRUL_BE: the spec's lul_up / lul_down
 * when either is set (Flent's tcp_nup / tcp_ndown / tcp_bidirectional names, marks BE),
 * else four each way with RRUL's marks (RRUL_BE: all BE, Flent's rrul_be names); the
 * probes of spec->probes. step_s: the -D interval, 0 = 0.2 s. Returns 0, or -WS_E_INVAL
 * naming the bad value. */
int ws_lul_plan_make(const ws_test_spec *spec, double step_s, ws_lul_plan *p, struct ws_err *err);

/* The TCP connections a plan needs: every load flow and the TCP probe's connection
 * (always made: its end tells the daemon's echo that the run is over). */
uint32_t ws_lul_connections(const ws_lul_plan *p);

/* --probes "udp,tcp,icmp" into a mask. Returns 0 or -WS_E_INVAL naming the bad word. */
int ws_lul_parse_probes(const char *s, unsigned *mask, struct ws_err *err);

/* What one RRUL run measured (client side): the series in the plan's order, the marks the
 * daemon read back, and why the run stopped early. Owned by ws_test_result.lul. */
typedef struct ws_lul_result {
	ws_lul_plan plan;
	ws_series_set set;                   /* one series per plan item, same order */
	int tos_local[WS_LUL_MAX_ITEMS];     /* getsockopt here; -1 = not read */
	int tos_remote[WS_LUL_MAX_ITEMS];    /* the daemon's getsockopt (flows), or the mark
	                                     * the daemon's echo saw on the probes; -1 = none */
	char skipped[WS_LUL_MAX_ITEMS][200]; /* why a probe did not run ("" = it ran) */
	char stopped[200];                   /* why the run ended early, "" = it ran its length */
	int64_t probe_cpu_ns;                /* the probes' thread: user + system CPU time */
	uint64_t probe_transactions;         /* the probes' answered requests */
	uint32_t probe_threads;              /* threads that ran the probes here (back to
	                                      * back: one per probe; paced: one) */
	uint32_t echo_sockets;               /* daemon echo sockets the UDP probes used */
} ws_lul_result;

/* Flent's aggregates of a measured set, appended to out (which the caller frees): "TCP
 * upload sum" and "TCP upload avg" (per sampling step, over the up flows), the same for
 * download, "TCP totals" (all flows) and "Ping (ms) avg" (per probe round of interval_s,
 * over the probes that answered in it). Series that would have no members are left out.
 * Returns 0, or -1 (ENOMEM). */
int ws_lul_aggregates(const ws_series_set *in, double interval_s, ws_series_set *out);

#endif
