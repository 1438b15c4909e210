/* SPDX-License-Identifier: BSD-2-Clause */
/* iqnode: opening, closing and reporting on the nodes a `warpspeed iq` command names.
 *
 * Every IQ command (info, ping, read, write, trigger in cli/iq.c, bench in cli/iqbench.c)
 * needs the same steps around its transfer: check that a NODE was given, open one or all
 * of them with one message on failure, close them, and print the transport's counters
 * under -v. They live here once so that each command module keeps to its own work. */
#include "cli/iqnode.h"

#include "iq/host/iqwin.h"

#include <stdio.h>
#include <string.h>

int ws_cli_iq_open_node(const ws_cli_iq_opts *o, ws_iq_node **n)
{
	ws_iq_error e;
	if (ws_iq_open(&o->cfg, n, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
		return 1;
	}
	return 0;
}

int ws_cli_iq_need_node(const ws_cli_iq_opts *o, const char *cmd)
{
	if (o->have_node &&
	    (o->nnodes == 1 || !strcmp(cmd, "read") || !strcmp(cmd, "write") ||
	     !strcmp(cmd, "bench")))
		return 0;
	fprintf(stderr, "warpspeed iq %s: %s is required\n", cmd,
		o->have_node ? "exactly one "
			       "NODE"
			     : "NODE (ADDR[:PORT])");
	return 2;
}

/* Opens every NODE of the list into n[0..nnodes); on failure none stays open. */
int ws_cli_iq_open_nodes(const ws_cli_iq_opts *o, ws_iq_node **n)
{
	for (size_t k = 0; k < o->nnodes; k++) {
		ws_iq_config c = o->cfg;
		c.addr = o->node_addr[k];
		c.port = o->node_port[k];
		ws_iq_error e;
		if (ws_iq_open(&c, &n[k], &e) < 0) {
			fprintf(stderr, "warpspeed iq: %s\n", e.msg);
			while (k-- > 0)
				ws_iq_close(n[k]);
			return 1;
		}
	}
	return 0;
}

void ws_cli_iq_close_nodes(ws_iq_node **n, size_t nn)
{
	for (size_t k = 0; k < nn; k++)
		ws_iq_close(n[k]);
}

/* -v: the transport's counters, junk and duplicates included, on stderr. */
void ws_cli_iq_print_windows(ws_iq_node *n)
{
	ws_iq_win w;
	char buf[4096];
	ws_iq_win_get(n, &w);
	ws_iq_win_text(&w.read, "read", buf, sizeof buf);
	fprintf(stderr, "transport: %s\n", buf);
	ws_iq_win_text(&w.write, "acknowledged write", buf, sizeof buf);
	fprintf(stderr, "transport: %s\n", buf);
	ws_iq_win_memory_text(&w, buf, sizeof buf);
	fprintf(stderr, "transport: %s\n", buf);
}

void ws_cli_iq_print_stats(ws_iq_node *n)
{
	ws_iq_stats s;
	ws_iq_get_stats(n, &s);
	fprintf(stderr,
		"transport: commands=%llu command_retries=%llu read_calls=%llu "
		"read_requests=%llu read_rerequests=%llu read_packets=%llu read_dup_packets=%llu "
		"write_calls=%llu write_packets=%llu write_resends=%llu write_fallbacks=%llu "
		"checksum_mismatches=%llu timeouts=%llu not_ready=%llu wrong_seq=%llu "
		"wrong_node=%llu malformed=%llu stale=%llu triggers=%llu trigger_resends=%llu "
		"triggers_unconfirmed=%llu\n",
		(unsigned long long)s.commands, (unsigned long long)s.command_retries,
		(unsigned long long)s.read_calls, (unsigned long long)s.read_requests,
		(unsigned long long)s.read_rerequests, (unsigned long long)s.read_packets,
		(unsigned long long)s.read_dup_packets, (unsigned long long)s.write_calls,
		(unsigned long long)s.write_packets, (unsigned long long)s.write_resends,
		(unsigned long long)s.write_fallbacks, (unsigned long long)s.checksum_mismatches,
		(unsigned long long)s.timeouts, (unsigned long long)s.not_ready,
		(unsigned long long)s.wrong_seq, (unsigned long long)s.wrong_node,
		(unsigned long long)s.malformed, (unsigned long long)s.stale,
		(unsigned long long)s.triggers, (unsigned long long)s.trigger_resends,
		(unsigned long long)s.triggers_unconfirmed);
}
