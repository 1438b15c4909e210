/* SPDX-License-Identifier: BSD-2-Clause */
/* repeat: --repeat N; see repeat.h. */
#include "cli/repeat.h"

#include "cli/client.h"
#include "cli/optvalue.h"
#include "cli/outprint.h"
#include "util/err.h"
#include "util/psk.h"

#include <stdio.h>
#include <stdlib.h>

int ws_cli_lopt_repeat(ws_cli_options *o, const char *val, ws_err *err)
{
	long long v;
	int rc = ws_cli_parse_ranged(val, 1, WS_CLI_REPEAT_MAX, "a number of runs, 1 to 1000", &v,
				     err);
	if (rc == 0)
		o->repeat = (unsigned)v;
	return rc;
}

int ws_cli_repeat_main(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv)
{
	if (o->sweep || o->svg) {
		fprintf(stderr,
			"warpspeed: --repeat %u with %s: %s\n(run 'warpspeed -h' for the "
			"options)\n",
			o->repeat, o->sweep ? "--sweep" : "--svg",
			o->sweep ? "a sweep is one document; repeat the whole command instead"
				 : "--svg draws one run; draw a saved run with warpspeed plot");
		return 2;
	}
	ws_err err;
	ws_err_clear(&err);
	ws_psk *key = NULL;
	if (ws_cli_load_key(o, &key, &err) < 0) {
		fprintf(stderr, "warpspeed: %s\n", err.msg);
		return 1;
	}
	int status = 0;
	bool noted = false;
	/* --openmetrics writes every run into one file at the end: keep them until then */
	ws_test_result *kept = o->openmetrics ? calloc(o->repeat, sizeof(*kept)) : NULL;
	if (o->openmetrics && !kept) {
		fprintf(stderr, "warpspeed: no memory for %u results (--openmetrics)\n", o->repeat);
		ws_cli_key_free(key);
		return 1;
	}
	unsigned done = 0;
	for (unsigned k = 0; k < o->repeat && status == 0; k++) {
		ws_test_result res;
		ws_cli_demo demo;
		o->banner_done = k > 0; /* -D prints the banner early: once, too */
		if (ws_cli_client_run(o, key, &noted, &res, &demo, &err) < 0) {
			fprintf(stderr, "warpspeed: run %u of %u (--repeat): %s\n", k + 1,
				o->repeat, err.msg);
			status = 1;
			break;
		}
		status = ws_cli_client_report(o, sel, &res, &demo, k == 0, argc, argv);
		if (kept)
			kept[done++] = res;
		else
			ws_test_result_free(&res);
		ws_cli_demo_free(&demo);
	}
	if (status == 0 && kept)
		status = ws_cli_openmetrics_write(o, kept, done, argc, argv);
	for (unsigned k = 0; k < done; k++)
		ws_test_result_free(&kept[k]);
	free(kept);
	ws_cli_key_free(key);
	return status;
}
