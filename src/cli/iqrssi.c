/* SPDX-License-Identifier: BSD-2-Clause */
/* iqrssi: `warpspeed iq rssi`, WARPLab's READ_RSSI from a shell.
 *
 * A node's RSSI buffer holds one 10-bit value per RX sample, two to a word; WARPLab users
 * read it with wl_basebandCmd's read_RSSI. This command reads the first N values of one
 * RF interface through the host library's ws_iq_read_rssi and prints them one a line, to
 * standard output or, with -o FILE, into a file written whole via util/safefile. It is a
 * module of its own because it shares nothing with the IQ sample files of cli/iq.c. */
#include "cli/iqrssi.h"

#include "cli/iqnode.h"
#include "cli/outprint.h"

#include "util/err.h"
#include "util/safefile.h"

#include <stdio.h>
#include <stdlib.h>

/* What rssi lacks, one thing at a time: 0 or 2 after the message. */
static int rssi_needs(const ws_cli_iq_opts *o)
{
	const char *what = !o->rf     ? "needs --rf A|B|C|D (the one RF interface to read)"
		: o->rf & (o->rf - 1) ? "--rf names several interfaces; rssi reads one "
					"(A, B, C or D)"
		: !o->have_samples    ? "needs --samples N (how many RSSI values to read)"
				      : NULL;
	if (what)
		fprintf(stderr, "warpspeed iq rssi: %s\n", what);
	return what ? 2 : 0;
}

struct values {
	const uint16_t *v;
	uint32_t n;
};

static int print_values(FILE *f, const void *arg, ws_err *err)
{
	(void)err;
	const struct values *x = arg;
	for (uint32_t k = 0; k < x->n; k++)
		fprintf(f, "%u\n", x->v[k]);
	return 0;
}

int ws_cli_iq_rssi(const ws_cli_iq_opts *o)
{
	int r = ws_cli_iq_need_node(o, "rssi");
	if (r || (r = rssi_needs(o)))
		return r;
	ws_err fe;
	/* -o's name before any work; the file is written whole once the values are read */
	if (o->out && ws_safefile_check(o->out, 0, &fe) < 0) {
		fprintf(stderr, "warpspeed iq rssi: -o: %s\n", fe.msg);
		return 2;
	}
	uint32_t words = (uint32_t)(((uint64_t)o->samples + 1) / 2);
	uint16_t *v = malloc((size_t)words * 2 * sizeof *v);
	ws_iq_node *n = NULL;
	if (!v) {
		fprintf(stderr, "warpspeed iq rssi: out of memory for %u values\n", o->samples);
		r = 1;
	}
	if (r == 0)
		r = ws_cli_iq_open_node(o, &n);
	ws_iq_error e;
	uint16_t *dst[1] = {v};
	if (r == 0 && ws_iq_read_rssi(n, o->rf, 0, words, dst, &e) < 0) {
		fprintf(stderr, "warpspeed iq: %s\n", e.msg);
		r = 1;
	}
	struct values x = {v, o->samples};
	if (r == 0 && !o->out)
		print_values(stdout, &x, &fe);
	if (r == 0 && o->out && ws_cli_file_put(o->out, print_values, &x, &fe) < 0) {
		fprintf(stderr, "warpspeed iq rssi: -o: %s\n", fe.msg);
		r = 1;
	}
	if (n && o->verbose)
		ws_cli_iq_print_stats(n);
	if (n)
		ws_iq_close(n);
	free(v);
	return r;
}
