/* SPDX-License-Identifier: BSD-2-Clause */
/* compare: the `warpspeed compare` role: arguments, reading the files and directories,
 * the comparability check and the exit status; see compare.h and docs/compare.md.
 *
 * Files are outside input, read whole up to a size limit and parsed by the bounded reader
 * (util/json_read.h); a file may hold one document, JSON lines or documents one after
 * another (`--repeat N --json`). Every input problem is exit 2 with the file named, so
 * that exit 1 means one thing to a CI job: a figure got significantly worse. */
#include "cli/compare.h"

#include "cli/words.h"

#include "report/compare.h"
#include "report/compare_out.h"
#include "util/err.h"
#include "util/json_read.h"
#include "util/units.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CMP_MAX_FILES 4096
#define CMP_MAX_BYTES ((size_t)64 << 20)
#define CMP_MAX_NOTES 16

static const char usage[] =
	"usage: warpspeed compare OLD NEW [NEW ...] [options]\n"
	"  Did NEW get slower than OLD? Each is a saved result file (the output of --json,\n"
	"  of --json-lines, of --repeat N, a sweep, a mesh or iq bench --json) or a\n"
	"  directory of them (*.json, *.jsonl); every run is one sample. For each figure\n"
	"  both sides have: the medians, the ratio new/old (Hodges-Lehmann), its 95%\n"
	"  interval (Mann-Whitney) and a verdict: faster, slower, no change, or too few\n"
	"  samples (fewer than 4+4 or 3+5 runs give no 95% interval). Latency, CPU and\n"
	"  service demand are better lower.\n"
	"  --fail-if-worse PCT   exit 1 when a figure is significantly worse (interval clear\n"
	"                        of 1.0) and its estimate is worse by more than PCT percent\n"
	"  --json                the comparison as a JSON document on stdout, not the table\n"
	"  --json-file FILE      the JSON document into FILE as well\n"
	"  --svg FILE            each ratio and its interval as an SVG chart\n"
	"  --force               compare runs of another test, sizes, units, host or version\n"
	"                        (refused otherwise, exit 2); each difference is named\n"
	"  exit: 0 compared, 1 --fail-if-worse tripped, 2 usage error or not comparable\n"
	"  (docs/compare.md)\n";

/* Every option word: the parser refuses any other, completion offers these. */
/* clang-format off */
static const ws_cli_word compare_words[] = {
	{"--fail-if-worse", "PCT"}, {"--json", NULL}, {"--json-file", "FILE"},
	{"--svg", "FILE"}, {"--force", NULL}, {"-h", NULL}, {"--help", NULL}, {NULL, NULL},
};
/* clang-format on */

void ws_cli_compare_words(ws_cli_word_fn fn, void *ctx)
{
	ws_cli_words_each(compare_words, fn, ctx);
}

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "warpspeed compare: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(run 'warpspeed compare --help' for the options)\n");
	return 2;
}

/* The whole file (malloc'd, *len bytes); NULL after a message. */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct stat st;
	if (!f || fstat(fileno(f), &st) < 0) {
		fprintf(stderr, "warpspeed compare: cannot read %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	char *t = NULL;
	if ((size_t)st.st_size > CMP_MAX_BYTES)
		fprintf(stderr,
			"warpspeed compare: %s is larger than %zu MiB; expected a warpspeed JSON "
			"document\n",
			path, CMP_MAX_BYTES >> 20);
	else if (!(t = malloc((size_t)st.st_size + 1)))
		fprintf(stderr, "warpspeed compare: no memory to read %s\n", path);
	else if ((*len = fread(t, 1, (size_t)st.st_size, f)) != (size_t)st.st_size || ferror(f)) {
		fprintf(stderr, "warpspeed compare: cannot read %s: %s\n", path, strerror(errno));
		free(t);
		t = NULL;
	}
	fclose(f);
	return t;
}

struct cmp_state {
	ws_cmp_context ref; /* old's first document */
	char ref_file[512];
	bool have_ref, force;
	char *notes[CMP_MAX_NOTES];
	size_t nnotes;
};

/* A document whose context differs from the reference: refused (-1 after a message),
 * or with --force named once and accepted. */
static int check_context(struct cmp_state *st, const ws_cmp_context *c, const char *file)
{
	if (!st->have_ref) {
		st->ref = *c;
		snprintf(st->ref_file, sizeof st->ref_file, "%s", file);
		st->have_ref = true;
		return 0;
	}
	char msg[512];
	if (!ws_cmp_context_diff(&st->ref, c, msg, sizeof msg))
		return 0;
	if (!st->force) {
		fprintf(stderr,
			"warpspeed compare: %s is not comparable with %s: %s; compare runs of one "
			"test, or give --force to compare them anyway\n",
			file, st->ref_file, msg);
		return -1;
	}
	for (size_t i = 0; i < st->nnotes; i++)
		if (!strcmp(st->notes[i], msg))
			return 0;
	fprintf(stderr,
		"warpspeed compare: note: %s differs from %s in %s (compared anyway: --force)\n",
		file, st->ref_file, msg);
	if (st->nnotes < CMP_MAX_NOTES && (st->notes[st->nnotes] = strdup(msg)))
		st->nnotes++;
	return 0;
}

/* Every document of one file into side; -1 after a message. */
static int read_one(struct cmp_state *st, ws_cmp_side *side, const char *path)
{
	size_t len = 0, pos = 0, start = 0, n, docs = 0;
	char *text = read_file(path, &len);
	if (!text)
		return -1;
	int rc = 0;
	while (rc == 0 && (n = ws_cmp_next_value(text, len, &pos, &start)) > 0) {
		ws_jdoc d;
		ws_err err;
		ws_cmp_context c;
		ws_err_clear(&err);
		if (ws_json_read(text + start, n, NULL, &d, &err) < 0) {
			fprintf(stderr,
				"warpspeed compare: %s, document %zu, is not valid JSON: %s\n",
				path, docs + 1, err.msg);
			rc = -1;
			break;
		}
		docs++;
		if (ws_cmp_doc_counts(&d)) {
			if (ws_cmp_add_doc(side, &d, &c, &err) < 0) {
				fprintf(stderr, "warpspeed compare: %s: %s\n", path, err.msg);
				rc = -1;
			} else {
				rc = check_context(st, &c, path);
			}
		}
		ws_jdoc_free(&d);
	}
	free(text);
	if (rc == 0 && docs == 0) {
		fprintf(stderr, "warpspeed compare: %s holds no JSON document\n", path);
		rc = -1;
	}
	return rc;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool json_name(const char *n)
{
	size_t l = strlen(n);
	return n[0] != '.' &&
		((l > 5 && !strcmp(n + l - 5, ".json")) || (l > 6 && !strcmp(n + l - 6, ".jsonl")));
}

/* A file, or a directory's *.json and *.jsonl files in name order; -1 after a message. */
static int read_path(struct cmp_state *st, ws_cmp_side *side, const char *path)
{
	struct stat sb;
	if (stat(path, &sb) < 0) {
		fprintf(stderr, "warpspeed compare: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode))
		return read_one(st, side, path);
	DIR *dir = opendir(path);
	if (!dir) {
		fprintf(stderr, "warpspeed compare: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	char **names = calloc(CMP_MAX_FILES, sizeof *names);
	size_t n = 0;
	int rc = names ? 0 : -1;
	struct dirent *e;
	while (rc == 0 && (e = readdir(dir))) {
		if (!json_name(e->d_name))
			continue;
		size_t l = strlen(path) + strlen(e->d_name) + 2;
		if (n == CMP_MAX_FILES || !(names[n] = malloc(l))) {
			fprintf(stderr,
				"warpspeed compare: %s: more than %d result files, or no memory\n",
				path, CMP_MAX_FILES);
			rc = -1;
			break;
		}
		snprintf(names[n++], l, "%s/%s", path, e->d_name);
	}
	closedir(dir);
	if (rc == 0 && n == 0) {
		fprintf(stderr, "warpspeed compare: %s holds no *.json or *.jsonl file\n", path);
		rc = -1;
	}
	if (rc == 0)
		qsort(names, n, sizeof *names, cmp_name);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0)
			rc = read_one(st, side, names[i]);
		free(names[i]);
	}
	free(names);
	return rc;
}

/* The outputs; 0, or 2 when one cannot be written. */
static int write_outputs(const ws_cmp_row *rows, size_t n, const ws_cmp_meta *m, bool json,
			 const char *json_file, const char *svg)
{
	ws_err err;
	ws_err_clear(&err);
	int rc = json ? ws_cmp_json(stdout, rows, n, m, &err)
		      : ws_cmp_table(stdout, rows, n, m, &err);
	for (int k = 0; rc == 0 && k < 2; k++) {
		const char *p = k ? svg : json_file;
		if (!p)
			continue;
		FILE *f = fopen(p, "w");
		if (!f) {
			fprintf(stderr, "warpspeed compare: cannot write %s: %s\n", p,
				strerror(errno));
			return 2;
		}
		rc = k ? ws_cmp_svg(f, rows, n, m, &err) : ws_cmp_json(f, rows, n, m, &err);
		if (fclose(f) != 0 && rc == 0)
			rc = ws_err_errno(&err, "writing %s failed", p);
		if (rc < 0)
			remove(p);
	}
	if (rc < 0) {
		fprintf(stderr, "warpspeed compare: %s\n", err.msg);
		return 2;
	}
	return 0;
}

int ws_cli_compare_main(int argc, char **argv)
{
	const char **paths = calloc((size_t)argc, sizeof *paths);
	const char *json_file = NULL, *svg = NULL;
	size_t np = 0;
	bool json = false;
	double fail_pct = -1;
	struct cmp_state st = {0};
	ws_err err;
	ws_err_clear(&err);
	if (!paths)
		return bad("no memory");
	int status = 0;
	for (int i = 1; i < argc && status == 0; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		const ws_cli_word *w =
			a[0] == '-' && a[1] ? ws_cli_word_find(compare_words, a) : NULL;
		bool takes = w && w->form;
		if (a[0] == '-' && a[1] && !w) {
			status = bad("unknown option '%s'; expected --fail-if-worse, --json, "
				     "--json-file, --svg or --force",
				     a);
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			free(paths);
			return 0;
		} else if (takes && !v) {
			status = bad("option %s needs a value", a);
		} else if (!strcmp(a, "--fail-if-worse")) {
			if (ws_units_parse_double(v, 0, 1000, &fail_pct, &err) < 0)
				status =
					bad("--fail-if-worse: %s (a percentage, 0 to 1000, e.g. 5)",
					    err.msg);
			i++;
		} else if (!strcmp(a, "--json-file")) {
			json_file = argv[++i];
		} else if (!strcmp(a, "--svg")) {
			svg = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--force")) {
			st.force = true;
		} else if (a[0] == '-' && a[1]) {
			status = bad("option '%s' is in the table but not handled", a);
		} else {
			paths[np++] = a;
		}
	}
	if (status == 0 && np < 2)
		status = bad("%s",
			     np ? "no NEW results given; expected OLD NEW [NEW ...]"
				: "no results given; expected OLD NEW [NEW ...]");

	ws_cmp_side old = {0}, nw = {0};
	for (size_t i = 0; status == 0 && i < np; i++)
		if (read_path(&st, i ? &nw : &old, paths[i]) < 0)
			status = 2;
	ws_cmp_row *rows = NULL;
	size_t nrows = 0;
	if (status == 0 && ws_cmp_run(&old, &nw, fail_pct, &rows, &nrows, &err) < 0) {
		fprintf(stderr, "warpspeed compare: %s\n", err.msg);
		status = 2;
	}
	if (status == 0) {
		if (old.dropped || nw.dropped)
			fprintf(stderr,
				"warpspeed compare: note: %zu old and %zu new values that were not "
				"positive (a 0%% CPU, a failed cell) were left out\n",
				old.dropped, nw.dropped);
		ws_cmp_meta m = {.old_files = paths,
				 .n_old_files = 1,
				 .new_files = paths + 1,
				 .n_new_files = np - 1,
				 .old_runs = old.docs,
				 .new_runs = nw.docs,
				 .context = &st.ref,
				 .fail_pct = fail_pct,
				 .notes = (const char *const *)st.notes,
				 .nnotes = st.nnotes};
		status = write_outputs(rows, nrows, &m, json, json_file, svg);
		for (size_t i = 0; status == 0 && i < nrows; i++)
			if (rows[i].fails)
				status = 1;
	}
	free(rows);
	ws_cmp_side_free(&old);
	ws_cmp_side_free(&nw);
	for (size_t i = 0; i < st.nnotes; i++)
		free(st.notes[i]);
	free(paths);
	return status;
}
