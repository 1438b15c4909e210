/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_sweep: the --sweep list parser (src/cli/sweep.c) on the input as one argument, then
 * every accepted point's command line built from a fixed argv and parsed by the client's
 * option parser, as the sweep runner does.
 *
 * The parser must never crash, read past the argument (an exactly-sized heap copy, so ASan
 * sees it) or accept more values than it holds; a refusal always says why; every point's x
 * is a finite number >= 0 and its typed value has no ':' left. */
#include "cli/options.h"
#include "cli/sweep.h"
#include "util/err.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *arg = malloc(size + 1);
	ws_cli_sweep *sw = malloc(sizeof(*sw));
	ws_cli_options *o = malloc(sizeof(*o));
	if (!arg || !sw || !o)
		goto out;
	memcpy(arg, data, size);
	arg[size] = '\0';
	ws_err err;
	ws_err_clear(&err);
	if (ws_cli_sweep_parse(arg, sw, &err) < 0) {
		if (err.msg[0] == '\0')
			abort(); /* a refusal always says why */
		goto out;
	}
	if (sw->n < 1 || sw->n > WS_CLI_SWEEP_MAX_POINTS)
		abort();
	char *argv[] = {"warpspeed", "-t", "TCP_RR", "-l", "-10", "--sweep", arg, "--", "-P", "0", NULL};
	for (size_t i = 0; i < sw->n; i++) {
		if (!isfinite(sw->x[i]) || sw->x[i] < 0 || strchr(sw->typed[i], ':'))
			abort();
		char buf[WS_CLI_SWEEP_BUF], **pv = NULL;
		int pc = 0;
		if (ws_cli_sweep_point_argv(sw, i, 10, argv, arg, buf, &pc, &pv) < 0)
			continue;
		/* Two words dropped; "-m" "64" or "--streams=4" appended. */
		if ((pc != 10 && pc != 9) || pv[pc] != NULL || strcmp(pv[5], "--") != 0)
			abort();
		(void)ws_cli_parse(pc, pv, o, &err);
		free(pv);
	}
out:
	free(o);
	free(sw);
	free(arg);
	return 0;
}
