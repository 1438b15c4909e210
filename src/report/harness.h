/* SPDX-License-Identifier: BSD-2-Clause */
/* harness: the report lines of the options harnesses pass: the UDP_STREAM sending mode and
 * the data-socket options in effect (both for -v 2), and netperf's DUMP_TCP_INFO block,
 * which harnesses parse from stderr after a TCP test. Kept apart from the classic layouts
 * so that those stay netperf's tables alone. */
#ifndef WS_REPORT_HARNESS_H
#define WS_REPORT_HARNESS_H

#include "model/result.h"

#include <stddef.h>
#include <stdio.h>

/* "blast (netperf's: no flow control, no pacing)", "flow control (the receiver's window)",
 * "paced to 900.00 10^6bits/s", or both opt-in modes joined by " + ". */
void ws_report_udp_mode(const ws_test_spec *spec, char *buf, size_t bufsz);

/* The -v 2 lines: "UDP sending: ..." for UDP_STREAM, and "Data socket options (local):
 * ..." when any of -Y -y -S -K -C -G was given. */
void ws_report_harness_detail(const ws_test_result *r, FILE *out);

/* netperf's DUMP_TCP_INFO form of the local data socket's TCP_INFO, three lines:
 *   tcpi_rto N tcpi_ato N tcpi_pmtu N tcpi_rcv_ssthresh N
 *   tcpi_rtt N tcpi_rttvar N tcpi_snd_ssthresh N tpci_snd_cwnd N
 *   tcpi_reordering N tcpi_total_retrans N
 * ("tpci" is netperf's spelling, kept because scripts match it). Prints nothing and
 * returns 0 when the test had no TCP_INFO; else returns 1. */
int ws_report_tcp_info_dump(const ws_test_result *r, FILE *out);

#endif
