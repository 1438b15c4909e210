/* SPDX-License-Identifier: BSD-2-Clause */
/* outfiles: the output files' pre-run check; see outfiles.h. */
#include "cli/outfiles.h"

#include "cli/outprint.h"
#include "cli/svgout.h"
#include "util/err.h"
#include "util/safefile.h"

#include <stdbool.h>
#include <stddef.h>

/* --json-file writes one test's document. */
static int json_file_rule(const ws_cli_options *o, ws_err *err)
{
	if (o->sweep || o->repeat > 1)
		return ws_err_set(err, WS_E_INVAL,
				  "--json-file %s: writes one test's document; with %s, use --json "
				  "(the documents on stdout) and redirect it",
				  o->json_file, o->sweep ? "--sweep" : "--repeat");
	return 0;
}

static const char *svg_of(const ws_cli_options *o) { return o->svg; }
static const char *json_file_of(const ws_cli_options *o) { return o->json_file; }
static const char *openmetrics_of(const ws_cli_options *o) { return o->openmetrics; }
static const char *flent_of(const ws_cli_options *o) { return o->flent; }

/* One output file option: its path in the options, whether its messages name the path
 * after the option ("--svg x: ..." or "--openmetrics: ..."), and its own rule (after the
 * path; NULL: none here; --flent's test name is cli/lul.c's, which knows the plan). */
static const struct out_file {
	const char *option;
	const char *(*path)(const ws_cli_options *o);
	bool names_path;
	int (*rule)(const ws_cli_options *o, ws_err *err);
} files[] = {
	{"--svg", svg_of, true, ws_cli_svg_rule},
	{"--json-file", json_file_of, true, json_file_rule},
	{"--openmetrics", openmetrics_of, false, ws_cli_openmetrics_rule},
	{"--flent", flent_of, true, NULL},
};

int ws_cli_out_files_check(const ws_cli_options *o, ws_err *err)
{
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		const struct out_file *f = &files[i];
		const char *path = f->path(o);
		if (!path)
			continue;
		int rc = ws_safefile_check(path, 0, err);
		if (rc < 0) {
			if (f->names_path)
				ws_err_prefix(err, "%s %s", f->option, path);
			else
				ws_err_prefix(err, "%s", f->option);
			return rc;
		}
		if (f->rule && (rc = f->rule(o, err)) < 0)
			return rc;
	}
	return 0;
}
