/* SPDX-License-Identifier: BSD-2-Clause */
/* plot: `warpspeed plot`, charts from saved JSON documents (report/charts.h).
 *
 * People keep the --json of their runs and compare them later; plot reads one or several
 * (one series per file, labelled by file name or --label) and draws the chart they fit.
 * Files are outside input: each is read whole up to a size limit and parsed by the
 * bounded reader (util/json_read.h); a bad file is named with the line and column. The
 * SVG is written only when everything was read, and removed when drawing fails. */
#include "cli/plot.h"

#include "cli/outprint.h"
#include "cli/words.h"

#include "report/charts.h"
#include "util/err.h"
#include "util/json_read.h"
#include "util/safefile.h"
#include "util/units.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_MAX_FILES 16
#define PLOT_MAX_BYTES ((size_t)64 << 20)

static const char usage[] =
	"usage: warpspeed plot FILE.json [FILE.json ...] -o OUT.svg [options]\n"
	"  Draws the chart that fits saved JSON documents (--json results or --json-lines\n"
	"  output, iq bench --json, sweeps, meshes); several files of one kind are overlaid,\n"
	"  one series each.\n"
	"  -o, --output OUT.svg    where to write the SVG (required)\n"
	"  --title TEXT            the chart's title\n"
	"  --label TEXT            a series' name, once per file in order (default: file name)\n"
	"  --chart KIND            auto (default), spectrum, histogram, interim, streams,\n"
	"                          sweep, iq or mesh\n"
	"  --reference warplab     iq: WARPLab 7.5.0's published MEX and Java series\n"
	"  --link MBPS             iq: the link's rate (10^6 bits/s) for the ceiling line\n";

/* Every option word: the parser refuses any other, completion offers these. */
/* clang-format off */
static const ws_cli_word plot_words[] = {
	{"-o", "OUT.svg"}, {"--output", "OUT.svg"}, {"--title", "TEXT"},
	{"--label", "TEXT"},
	{"--chart", "auto|spectrum|histogram|interim|streams|sweep|iq|mesh"},
	{"--reference", "warplab"}, {"--link", "MBPS"}, {"-h", NULL}, {"--help", NULL},
	{NULL, NULL},
};
/* clang-format on */

void ws_cli_plot_words(ws_cli_word_fn fn, void *ctx) { ws_cli_words_each(plot_words, fn, ctx); }

__attribute__((format(printf, 1, 2))) static int bad(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "warpspeed plot: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(run 'warpspeed plot --help' for the options)\n");
	return 2;
}

/* The whole file into *text (malloc'd); 0, or -1 after a message. */
static int slurp(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	*text = NULL;
	*len = 0;
	if (!f) {
		fprintf(stderr, "warpspeed plot: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t cap = 0;
	for (;;) {
		if (*len == cap) {
			if (cap >= PLOT_MAX_BYTES) {
				fprintf(stderr,
					"warpspeed plot: %s is larger than %zu MiB; expected a "
					"warpspeed JSON document\n",
					path, PLOT_MAX_BYTES >> 20);
				break;
			}
			cap = cap ? cap * 2 : 65536;
			char *t = realloc(*text, cap);
			if (!t) {
				fprintf(stderr, "warpspeed plot: no memory to read %s\n", path);
				break;
			}
			*text = t;
		}
		size_t got = fread(*text + *len, 1, cap - *len, f);
		*len += got;
		if (got == 0) {
			if (ferror(f)) {
				fprintf(stderr, "warpspeed plot: cannot read %s: %s\n", path,
					strerror(errno));
				break;
			}
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	free(*text);
	*text = NULL;
	return -1;
}

/* A --json-lines file: its last line is the "summary" document. rc (the whole text's
 * error) stays when that is not so. */
static int last_line(const char *text, size_t len, ws_jdoc *doc, int rc)
{
	while (len && (text[len - 1] == '\n' || text[len - 1] == '\r' || text[len - 1] == ' '))
		len--;
	size_t start = len;
	while (start && text[start - 1] != '\n')
		start--;
	if (start == 0)
		return rc;
	ws_err e;
	if (ws_json_read(text + start, len - start, NULL, doc, &e) < 0)
		return rc;
	const char *t = ws_jstr(doc, ws_jget(doc, ws_jroot(doc), "type"));
	if (t && !strcmp(t, "summary"))
		return 0;
	ws_jdoc_free(doc);
	return rc;
}

/* The file's name without its folder and a .json ending. */
static void label_of(const char *path, char *buf, size_t n)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), b);
}

struct plot_body {
	const ws_chart_input *in;
	size_t n;
	const ws_chart_opts *co;
};

static int plot_body(FILE *f, const void *arg, ws_err *err)
{
	const struct plot_body *b = arg;
	return ws_chart_docs(f, b->in, b->n, b->co, err);
}

int ws_cli_plot_main(int argc, char **argv)
{
	const char *files[PLOT_MAX_FILES], *labels[PLOT_MAX_FILES], *outp = NULL;
	size_t nf = 0, nl = 0;
	ws_chart_opts co = {0};
	ws_err err;
	ws_err_clear(&err);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage, stdout);
			return 0;
		}
		const ws_cli_word *w = a[0] == '-' && a[1] ? ws_cli_word_find(plot_words, a) : NULL;
		if (a[0] == '-' && a[1] && !w)
			return bad("unknown option '%s'", a);
		bool takes = w && w->form;
		if (takes && !v)
			return bad("option %s needs a value", a);
		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			outp = v;
		} else if (!strcmp(a, "--title")) {
			co.title = v;
		} else if (!strcmp(a, "--label")) {
			if (nl == PLOT_MAX_FILES)
				return bad("at most %d --label", PLOT_MAX_FILES);
			labels[nl++] = v;
		} else if (!strcmp(a, "--chart")) {
			if (ws_chart_kind_parse(v, &co.kind, &err) < 0)
				return bad("--chart: %s", err.msg);
		} else if (!strcmp(a, "--reference")) {
			if (strcmp(v, "warplab"))
				return bad("--reference '%s' is not a reference; expected warplab",
					   v);
			co.reference_warplab = true;
		} else if (!strcmp(a, "--link")) {
			if (ws_units_parse_double(v, 1, 1e7, &co.link_mbps, &err) < 0)
				return bad("--link: %s (the link's rate in 10^6 bits/s, e.g. 1000)",
					   err.msg);
		} else if (a[0] == '-' && a[1]) {
			return bad("unknown option '%s'", a);
		} else {
			if (nf == PLOT_MAX_FILES)
				return bad("at most %d JSON files; '%s' is one too many",
					   PLOT_MAX_FILES, a);
			files[nf++] = a;
			continue;
		}
		i++;
	}
	if (!nf || !outp)
		return bad("%s",
			   !nf ? "no JSON file given" : "no output given; expected -o OUT.svg");
	if (nl && nl != nf)
		return bad("%zu --label for %zu files; give one per file, or none", nl, nf);
	/* the chart's file before the inputs are read: a name that cannot be written is a
	 * usage error, said at once (the file itself is written at the end) */
	if (ws_safefile_check(outp, 0, &err) < 0)
		return bad("-o %s: %s", outp, err.msg);

	ws_jdoc docs[PLOT_MAX_FILES];
	char names[PLOT_MAX_FILES][64];
	ws_chart_input in[PLOT_MAX_FILES];
	size_t parsed = 0;
	int status = 0;
	for (; parsed < nf; parsed++) {
		char *text;
		size_t len;
		if (slurp(files[parsed], &text, &len) < 0) {
			status = 1;
			break;
		}
		int rc = ws_json_read(text, len, NULL, &docs[parsed], &err);
		if (rc < 0)
			rc = last_line(text, len, &docs[parsed], rc);
		free(text);
		if (rc < 0) {
			fprintf(stderr, "warpspeed plot: %s is not valid JSON: %s\n", files[parsed],
				err.msg);
			status = 1;
			break;
		}
		label_of(files[parsed], names[parsed], sizeof names[parsed]);
		in[parsed] = (ws_chart_input){&docs[parsed], nl ? labels[parsed] : names[parsed]};
	}
	if (status == 0) {
		struct plot_body b = {in, nf, &co};
		if (ws_cli_file_put(outp, plot_body, &b, &err) < 0) {
			fprintf(stderr, "warpspeed plot: %s\n", err.msg);
			status = 1;
		}
	}
	for (size_t i = 0; i < parsed; i++)
		ws_jdoc_free(&docs[i]);
	return status;
}
