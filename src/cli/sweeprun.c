/* SPDX-License-Identifier: BSD-2-Clause */
/* sweeprun: the sweep's points run and printed; see sweeprun.h. */
#include "cli/sweeprun.h"

#include "cli/client.h"
#include "cli/outprint.h"
#include "cli/personality.h"
#include "cli/svgout.h"
#include "cli/sweep.h"
#include "report/classic.h"
#include "report/json_result.h"
#include "report/sweep_json.h"
#include "session/npmap.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	ws_cli_options o; /* the point's command line, parsed */
	int argc;
	char **argv; /* that command line (cli/sweep.h) */
	char buf[WS_CLI_SWEEP_BUF];
	char *json;                             /* its --json document, once it ran */
	char error[sizeof(((ws_err *)0)->msg)]; /* why it failed */
};

/* Each point's command line through the normal parser (and a netserver's limits): a value
 * the test refuses stops the sweep before anything runs. */
static int prepare(const ws_cli_sweep *sw, const ws_cli_options *o, int argc, char **argv,
		   struct point *pt)
{
	for (size_t i = 0; i < sw->n; i++) {
		ws_err err;
		ws_err_clear(&err);
		if (ws_cli_sweep_point_argv(sw, i, argc, argv, o->sweep, pt[i].buf, &pt[i].argc,
					    &pt[i].argv) < 0) {
			ws_cli_eprintf("no memory for the sweep\n");
			return 1;
		}
		int rc = ws_cli_parse(pt[i].argc, pt[i].argv, &pt[i].o, &err);
		pt[i].o.svg = NULL; /* --svg draws the sweep once, not each point */
		if (rc == 0 && pt[i].o.peer == WS_PEER_NETSERVER)
			rc = ws_npmap_check(&pt[i].o.spec, &err);
		if (rc < 0) {
			ws_cli_eprintf("option --sweep %s=%s: %s\n(run '%s -h' for the options)\n",
				       sw->name, sw->value[i], err.msg, ws_cli_prog());
			return 2;
		}
	}
	return 0;
}

/* A point's --json document as text (the sweep document holds it whole). */
static char *point_json(const struct point *p, const ws_test_result *res, const ws_cli_demo *demo)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return NULL;
	ws_json_interim *iv = NULL;
	size_t niv = ws_cli_demo_json(demo, &iv);
	int rc = ws_cli_json_write(m, &p->o, res, p->argc, p->argv, iv, niv, false);
	free(iv);
	if (fclose(m) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static char *sweep_doc(const ws_cli_sweep *sw, const struct point *pt)
{
	ws_json_sweep_point jp[WS_CLI_SWEEP_MAX_POINTS];
	for (size_t i = 0; i < sw->n; i++)
		jp[i] = (ws_json_sweep_point){sw->value[i], sw->x[i], pt[i].json, pt[i].error};
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		return NULL;
	int rc = ws_json_sweep_write(m, sw->name, jp, sw->n);
	if (fclose(m) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* Run the points in order; the rows print as each ends. Returns the exit status. */
static int run_points(const ws_cli_sweep *sw, ws_cli_options *o, const ws_out_selection *sel,
		      struct point *pt)
{
	ws_err err;
	ws_err_clear(&err);
	ws_psk *key = NULL;
	if (ws_cli_load_key(o, &key, &err) < 0) {
		ws_cli_eprintf("%s\n", err.msg);
		return 1;
	}
	int status = 0;
	bool noted = false, printed = false, bannered = false;
	char failed[512] = "";
	size_t nfailed = 0;
	for (size_t i = 0; i < sw->n; i++) {
		struct point *p = &pt[i];
		ws_test_result res;
		ws_cli_demo demo;
		p->o.banner_done = bannered; /* printed as the first point starts: once */
		ws_err_clear(&err);
		int rc = ws_cli_client_run(&p->o, key, &noted, &res, &demo, &err);
		bannered = bannered || p->o.banner_done;
		if (rc < 0) {
			snprintf(p->error, sizeof(p->error), "%s", err.msg);
			ws_cli_eprintf("--sweep %s=%s failed: %s; going on with the next value\n",
				       sw->name, sw->value[i], err.msg);
			size_t n = strlen(failed);
			snprintf(failed + n, sizeof(failed) - n, "%s%s", nfailed ? ", " : "",
				 sw->value[i]);
			nfailed++;
			int s = rc == -WS_E_PEER ? 2 : 1;
			status = status > s ? status : s;
			continue;
		}
		p->json = point_json(p, &res, &demo);
		int s;
		if (o->json) {
			s = p->json ? 0 : 1;
			if (!p->json)
				ws_cli_eprintf("--sweep %s=%s: no memory for its JSON document\n",
					       sw->name, sw->value[i]);
			ws_cli_client_warn(&p->o, &res, s == 0);
		} else {
			if (printed && ws_cli_output_mode(o) == WS_OUT_MODE_KEYVAL)
				putchar('\n'); /* -k: a blank line between the points' blocks */
			s = ws_cli_client_report(&p->o, sel, &res, &demo, !printed, p->argc,
						 p->argv);
			printed = true;
		}
		status = status > s ? status : s;
		ws_test_result_free(&res);
		ws_cli_demo_free(&demo);
	}
	ws_cli_key_free(key);
	if (nfailed)
		ws_cli_eprintf("--sweep %s: %zu of %zu values failed (%s)\n", sw->name, nfailed,
			       sw->n, failed);
	return status;
}

int ws_cli_sweep_run(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv,
		     char **doc)
{
	*doc = NULL;
	ws_cli_sweep *sw = malloc(sizeof(*sw));
	ws_err err;
	if (!sw || ws_cli_sweep_parse(o->sweep, sw, &err) < 0) { /* checked by the parser already */
		ws_cli_eprintf("%s\n", sw ? err.msg : "no memory for the sweep");
		free(sw);
		return sw ? 2 : 1;
	}
	struct point *pt = calloc(sw->n, sizeof(*pt));
	int status = pt ? prepare(sw, o, argc, argv, pt) : 1;
	if (!pt)
		ws_cli_eprintf("no memory for the sweep\n");
	if (status == 0) {
		status = run_points(sw, o, sel, pt);
		*doc = sweep_doc(sw, pt);
	}
	for (size_t i = 0; pt && i < sw->n; i++) {
		free(pt[i].argv);
		free(pt[i].json);
	}
	free(pt);
	free(sw);
	return status;
}

int ws_cli_sweep_main(ws_cli_options *o, const ws_out_selection *sel, int argc, char **argv)
{
	char *doc = NULL;
	int status = ws_cli_sweep_run(o, sel, argc, argv, &doc);
	if (o->json && doc) {
		fputs(doc, stdout);
		if (fflush(stdout) != 0) {
			ws_cli_eprintf("writing the sweep's JSON document failed\n");
			status = status ? status : 1;
		}
	} else if (!doc && (o->json || o->svg) && status != 2) {
		ws_cli_eprintf("no memory for the sweep's JSON document\n");
		status = status ? status : 1;
	}
	if (o->svg && doc) {
		int s = ws_cli_svg_draw(o->svg, doc, strlen(doc), NULL, 0);
		status = status ? status : s;
	}
	free(doc);
	return status;
}
