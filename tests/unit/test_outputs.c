/* SPDX-License-Identifier: BSD-2-Clause */
/* test_outputs: netperf's output selectors (-o/-O/-k) and banners against real netperf
 * 2.7.0's output (tests/goldens/netperf/, MANIFEST).
 *
 * Every golden captured with an output selector (or -t omni) is replayed: its command line
 * from MANIFEST goes through the real option parser, a result with figures of the same
 * magnitude is built, and the banner, header lines and names must equal netperf's byte
 * for byte; value lines must match by format, field by field (integers, decimals with the
 * same number of places, hex, UUIDs, and every non-numeric value such as "Trans/s",
 * "Deprecated" or "-nan" exactly), at the same columns for -O. Every other golden's banner
 * is checked byte for byte the same way. The name list must be omni_O_names.txt exactly. */
#include "harness.h"

#include "cli/options.h"
#include "cli/outprint.h"
#include "measure/confidence.h"
#include "measure/hist.h"
#include "report/classic.h"
#include "report/outputs.h"
#include "util/err.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UUID_SAMPLE "1c2b0e3a-edd5-11f1-9273-4341362de067"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 17);
	size_t n = buf ? fread(buf, 1, (1 << 17) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = 0;
	return buf;
}

static char *golden(const char *name)
{
	char path[256];
	if (strlen(name) > 200)
		return NULL;
	snprintf(path, sizeof(path), "netperf/%.200s.txt", name);
	return slurp(path);
}

/* ---- MANIFEST ------------------------------------------------------------------------- */

struct entry {
	char name[64];
	char cmd[512];
	int status;
};

static struct entry manifest[256];
static size_t nmanifest;

static void load_manifest(void)
{
	char *m = slurp("netperf/MANIFEST");
	WS_T_REPORT(m != NULL, "manifest", "cannot read netperf/MANIFEST (WS_ROOT %s)",
		    getenv("WS_ROOT") ? getenv("WS_ROOT") : "unset");
	for (char *line = m ? strtok(m, "\n") : NULL; line && nmanifest < 256;
	     line = strtok(NULL, "\n")) {
		if (line[0] == '#')
			continue;
		struct entry *e = &manifest[nmanifest];
		char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		if (!t1 || !t2)
			continue;
		snprintf(e->name, sizeof(e->name), "%.*s", (int)(t1 - line), line);
		snprintf(e->cmd, sizeof(e->cmd), "%.*s", (int)(t2 - t1 - 1), t1 + 1);
		e->status = atoi(t2 + 1);
		nmanifest++;
	}
	free(m);
}

/* ---- from a command line to a result ---------------------------------------------------- */

struct replay {
	ws_cli_options o;
	ws_confidence conf;
	ws_test_result r;
	ws_hist lat;
	bool parsed;
	char cmd[512]; /* the split command line: o keeps pointers into it (the selector list) */
};

/* Split cmd into argv (no quoting in the MANIFEST). -i/-I go into conf, and the test
 * options -r and -b into the spec by hand: they belong to other modules, and only what
 * they show in the banner and the selectors is checked here. */
struct taken {
	uint32_t req, rsp, burst;
};

static int split(char *cmd, char **argv, int max, ws_confidence *conf, struct taken *tk)
{
	int argc = 0;
	bool test = false;
	for (char *t = strtok(cmd, " "); t && argc < max; t = strtok(NULL, " ")) {
		test = test || !strcmp(t, "--");
		if (test && (!strcmp(t, "-r") || !strcmp(t, "-b"))) {
			char *v = strtok(NULL, " ");
			if (v && t[1] == 'b')
				tk->burst = (uint32_t)atoi(v);
			if (v && t[1] == 'r') {
				const char *c = strchr(v, ',');
				tk->req = (uint32_t)atoi(v);
				tk->rsp = c ? (uint32_t)atoi(c + 1) : tk->req;
			}
			continue;
		}
		if (!strcmp(t, "-i") || !strcmp(t, "-I")) {
			char *v = strtok(NULL, " ");
			conf->asked = true;
			if (v && t[1] == 'i')
				conf->max_iterations = atoi(v);
			if (v && t[1] == 'I') {
				conf->level = atoi(v);
				const char *w = strchr(v, ',');
				conf->width = w ? atof(w + 1) : 5.0;
			}
			continue;
		}
		argv[argc++] = t;
	}
	return argc;
}

static void build(struct replay *p, const char *cmd_line)
{
	char *argv[64];
	memset(p, 0, sizeof(*p));
	snprintf(p->cmd, sizeof(p->cmd), "%s", cmd_line);
	struct taken tk = {0, 0, 0};
	int argc = split(p->cmd, argv, 64, &p->conf, &tk);
	ws_err err = {0};
	p->parsed = ws_cli_parse(argc, argv, &p->o, &err) == 0;
	WS_T_REPORT(p->parsed, cmd_line, "the option parser refused it: %s", err.msg);
	ws_test_spec *s = &p->o.spec;
	if (tk.req)
		s->req_size = tk.req, s->rsp_size = tk.rsp;
	s->burst = tk.burst;
	ws_test_result *r = &p->r;
	r->spec = *s;
	bool v6 = p->o.remote_family == WS_FAMILY_INET6 || strchr(p->o.remote_host, ':');
	r->family_used = v6 ? WS_FAMILY_INET6 : WS_FAMILY_INET;
	snprintf(r->remote_host, sizeof(r->remote_host), "%s", p->o.remote_host);
	snprintf(r->remote_addr, sizeof(r->remote_addr), "%s", v6 ? "::1" : "127.0.0.1");
	snprintf(r->local_addr, sizeof(r->local_addr), "%s", v6 ? "::" : "0.0.0.0");
	bool udp = s->type == WS_TEST_UDP_STREAM || s->type == WS_TEST_UDP_RR;
	bool rr = s->type == WS_TEST_TCP_RR || s->type == WS_TEST_UDP_RR || s->type == WS_TEST_TCP_CRR;
	ws_side_result *l = &r->local, *m = &r->remote;
	uint32_t snd = udp ? 212992 : 16384, rcv = udp ? 212992 : 131072;
	l->sndbuf_set = m->sndbuf_set = snd;
	l->rcvbuf_set = m->rcvbuf_set = rcv;
	l->sndbuf_end = m->sndbuf_end = udp ? 212992 : 4194304;
	l->rcvbuf_end = m->rcvbuf_end = udp ? 212992 : 262484;
	l->elapsed_ns = m->elapsed_ns = 1000000000LL;
	l->tcp_info_valid = m->tcp_info_valid = !udp;
	l->tcp_mss = m->tcp_mss = 32768;
	l->cpu_bound_to = m->cpu_bound_to = -1;
	if (rr) {
		uint64_t t = 178841;
		l->transactions = m->transactions = t;
		l->send_calls = l->recv_calls = m->send_calls = m->recv_calls = t;
		l->bytes_sent = m->bytes_recv = t * s->req_size;
		l->bytes_recv = m->bytes_sent = t * s->rsp_size;
		ws_hist_init(&p->lat);
		ws_hist_record_n(&p->lat, 5000, 170000, NULL);
		ws_hist_record_n(&p->lat, 13000, 8840, NULL);
		ws_hist_record(&p->lat, 2781000);
		l->latency = &p->lat;
	} else {
		ws_side_result *tx = s->type == WS_TEST_TCP_MAERTS ? m : l;
		ws_side_result *rx = tx == l ? m : l;
		tx->send_size = s->send_size ? s->send_size : (udp ? 65507 : 16384);
		rx->recv_size = udp ? tx->send_size : rcv;
		tx->send_calls = 58739;
		tx->bytes_sent = (uint64_t)tx->send_calls * tx->send_size;
		rx->recv_calls = 7392;
		rx->bytes_recv = tx->bytes_sent - 5000;
		rx->rcvbuf_end = 1026899;
	}
	if (s->local.measure_cpu || s->remote.measure_cpu) {
		l->cpu_measured = m->cpu_measured = true;
		l->cpu_method = m->cpu_method = 'S';
		l->ncpus = m->ncpus = 2;
		l->cpu_util = m->cpu_util = 96.55;
		l->cpu_user = m->cpu_user = 6.42;
		l->cpu_system = m->cpu_system = 70.92;
		l->cpu_softirq = m->cpu_softirq = 18.72;
	}
}

static ws_report_ctx ctx_of(const struct replay *p, const char *cmd)
{
	return (ws_report_ctx){.r = &p->r, .command_line = cmd, .uuid = UUID_SAMPLE,
			       .brand = p->o.brand[0] ? p->o.brand : NULL, .local_cong = "bbr",
			       .remote_cong = "bbr", .fmt = p->o.format,
			       .local_cpu = p->o.spec.local.measure_cpu,
			       .remote_cpu = p->o.spec.remote.measure_cpu, .omni = p->o.omni,
			       .want_stats = p->o.histogram};
}

static void banner_of(const struct replay *p, FILE *out)
{
	ws_classic_opts co;
	ws_classic_opts_init(&co);
	co.cpu_bind = p->o.cpu_bind_given;
	co.omni = p->o.omni;
	co.conf = &p->conf;
	ws_classic_test_banner(&p->r, &co, out);
}

/* netperf leaves the IPv4 address out of the parentheses; warpspeed fills it in. */
static void expected_banner(char *line, size_t n)
{
	char *at = strstr(line, "127.0.0.1 ()");
	if (!at || strlen(line) + 9 >= n)
		return;
	memmove(at + 21, at + 12, strlen(at + 12) + 1);
	memcpy(at, "127.0.0.1 (127.0.0.1)", 21);
}

/* ---- value classes ---------------------------------------------------------------------- */

static bool all_of(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(set, s[i]))
			return false;
	return n > 0;
}

/* A field's class: leading blanks kept, then I (integer), D<n> (n decimals), X (hex),
 * U (a UUID), or the text itself. */
static void class_of(const char *tok, size_t n, char *out, size_t outn)
{
	size_t lead = 0;
	while (lead < n && tok[lead] == ' ')
		lead++;
	const char *s = tok + lead;
	size_t len = n - lead;
	const char *dot = memchr(s, '.', len);
	size_t sign = len && s[0] == '-';
	char kind[96];
	if (all_of(s + sign, len - sign, "0123456789"))
		snprintf(kind, sizeof(kind), "I");
	else if (dot && all_of(s + sign, (size_t)(dot - s) - sign, "0123456789") &&
		 all_of(dot + 1, len - (size_t)(dot - s) - 1, "0123456789"))
		snprintf(kind, sizeof(kind), "D%zu", len - (size_t)(dot - s) - 1);
	else if (len > 2 && !strncmp(s, "0x", 2) && all_of(s + 2, len - 2, "0123456789abcdef"))
		snprintf(kind, sizeof(kind), "X");
	else if (len == 36 && all_of(s, len, "0123456789abcdef-"))
		snprintf(kind, sizeof(kind), "U");
	else
		snprintf(kind, sizeof(kind), "=%.*s", (int)(len < 80 ? len : 80), s);
	snprintf(out, outn, "%zu%s", lead, kind);
}

/* Fields of a line split at sep (',' for CSV, '=' once for -k, runs of blanks for -O,
 * where each field is also tagged with its column). */
static void compare_fields(const char *what, const char *want, const char *got, char sep)
{
	const char *w = want, *g = got;
	int field = 0;
	while (*w || *g) {
		size_t wn, gn;
		size_t wcol = (size_t)(w - want), gcol = (size_t)(g - got);
		if (sep == ' ') {
			while (*w == ' ')
				w++;
			while (*g == ' ')
				g++;
			if (!*w && !*g)
				break;
			wcol = (size_t)(w - want);
			gcol = (size_t)(g - got);
			wn = strcspn(w, " ");
			gn = strcspn(g, " ");
		} else {
			wn = strcspn(w, (char[]){sep, 0});
			gn = strcspn(g, (char[]){sep, 0});
		}
		char wc[128], gc[128];
		class_of(w, wn, wc, sizeof(wc));
		class_of(g, gn, gc, sizeof(gc));
		WS_T_REPORT(!strcmp(wc, gc) && (sep != ' ' || wcol == gcol), what,
			    "field %d: netperf [%.*s] (%s at column %zu), warpspeed [%.*s] (%s at column %zu)",
			    field, (int)wn, w, wc, wcol, (int)gn, g, gc, gcol);
		if (strcmp(wc, gc))
			return;
		w += wn;
		g += gn;
		if (sep != ' ') {
			if (*w)
				w++;
			if (*g)
				g++;
		}
		field++;
	}
}

/* ---- the selector goldens ------------------------------------------------------------- */

static const char *const selector_goldens[] = {
	"tcp_rr_o", "tcp_rr_O", "tcp_rr_k", "tcp_rr_j_o_lat", "tcp_rr_j_O_lat", "tcp_rr_j_k_lat",
	"tcp_rr_k_all", "tcp_rr_O_all", "tcp_rr_o_all", "udp_rr_j_k_lat", "tcp_stream_o",
	"tcp_stream_O", "tcp_stream_k", "omni_send", "omni_recv", "omni_rr", "omni_udp",
	"omni_udp_rr", "tcp_stream_k_all", "tcp_stream_cC_k_all", "tcp_maerts_k_all",
	"udp_stream_k_all", "udp_rr_k_all", "tcp_crr_k_all", "tcp_rr_cC_o", "tcp_stream_cC_O",
	"tcp_maerts_o", "tcp_maerts_O", "tcp_rr_k_lat", "tcp_stream_k_lat", "tcp_rr_o_file",
	"tcp_rr_O_file", "tcp_rr_k_file", "tcp_rr_O_blocks", "tcp_rr_k_mixed", "tcp_rr_k_one",
	"tcp_rr_P0_o", "tcp_rr_P0_O", "tcp_rr_o_brand", "omni_send_k", "omni_udp_rr_k",
	"tcp_rr_sizes_s0", "tcp_rr_sizes_m1", "tcp_rr_m1024", "tcp_stream_lat",
};

/* netperf prints the classic table for TCP_SENDFILE whatever -k says; warpspeed honours
 * -k there (README), so that golden is not a selector case. The others are checked apart
 * (the -D ones, whose interim lines come first, by test_interim and tests/integration/interim.sh). */
static const char *const not_selector_cases[] = {"tcp_sendfile_k_all", "omni_O_names",
						 "err_bad_selector", "tcp_stream_demo_k",
						 "tcp_stream_demo_o", "tcp_rr_demo_k",
						 "udp_rr_fill" /* -D: tests/integration/netperf_semantics.sh */};

static bool listed(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

static const struct entry *find_entry(const char *name)
{
	for (size_t i = 0; i < nmanifest; i++)
		if (!strcmp(manifest[i].name, name))
			return &manifest[i];
	return NULL;
}

static void check_selector_golden(const char *name)
{
	const struct entry *e = find_entry(name);
	char *want = golden(name);
	WS_T_REPORT(e && want, name, "no MANIFEST line or no %s.txt", name);
	if (!e || !want) {
		free(want);
		return;
	}
	struct replay p;
	build(&p, e->cmd);
	ws_out_selection sel;
	int status = 0;
	bool go = p.parsed && ws_cli_output_prepare(&p.o, &sel, &status);
	WS_T_REPORT(go, name, "output selection refused (status %d)", status);
	char *got = NULL;
	size_t gotn = 0;
	FILE *out = open_memstream(&got, &gotn);
	if (go && out) {
		if (p.o.print_headers)
			banner_of(&p, out);
		ws_report_ctx c = ctx_of(&p, e->cmd);
		CHECK_INT(name, ws_out_print(&sel, (ws_out_mode)ws_cli_output_mode(&p.o),
					     p.o.print_headers != 0, &c, out), 0);
	}
	if (out)
		fclose(out);
	/* Line by line. */
	int mode = ws_cli_output_mode(&p.o);
	char *ws = want, *gs = got ? got : (char *)"";
	int line = 0, in_block = 0;
	bool banner = p.o.print_headers;
	while (*ws || *gs) {
		size_t wl = strcspn(ws, "\n"), gl = strcspn(gs, "\n");
		char wline[4096], gline[4096];
		snprintf(wline, sizeof(wline), "%.*s", (int)wl, ws);
		snprintf(gline, sizeof(gline), "%.*s", (int)gl, gs);
		char what[128];
		snprintf(what, sizeof(what), "%s line %d", name, line + 1);
		if (banner && line == 0) {
			expected_banner(wline, sizeof(wline));
			CHECK_STR(what, gline, wline);
		} else if (mode == WS_OUT_MODE_KEYVAL) {
			size_t wk = strcspn(wline, "="), gk = strcspn(gline, "=");
			WS_T_REPORT(wk == gk && !strncmp(wline, gline, wk), what, "name [%s], want [%s]",
				    gline, wline);
			if (wk == gk && !strncmp(wline, gline, wk))
				compare_fields(what, wline + wk + (wline[wk] == '='),
					       gline + gk + (gline[gk] == '='), '\n');
		} else if (mode == WS_OUT_MODE_CSV) {
			bool header = p.o.print_headers && line == 1;
			if (header)
				CHECK_STR(what, gline, wline);
			else
				compare_fields(what, wline, gline, ',');
		} else { /* -O: four header lines and a value line per block, blocks apart */
			if (!wline[0]) {
				CHECK_STR(what, gline, wline);
				in_block = 0;
			} else {
				bool value = !p.o.print_headers || in_block == 4;
				if (value) {
					CHECK_INT(what, strlen(gline), strlen(wline));
					compare_fields(what, wline, gline, ' ');
				} else {
					CHECK_STR(what, gline, wline);
				}
				in_block++;
			}
		}
		ws += wl + (ws[wl] ? 1 : 0);
		gs += gl + (gs[gl] ? 1 : 0);
		line++;
	}
	free(got);
	free(want);
}

static void test_selector_goldens(void)
{
	size_t n = sizeof(selector_goldens) / sizeof(selector_goldens[0]);
	for (size_t i = 0; i < n; i++)
		check_selector_golden(selector_goldens[i]);
	/* Every captured selector case is replayed: a new golden cannot be forgotten here. */
	for (size_t i = 0; i < nmanifest; i++) {
		const char *cmd = manifest[i].cmd, *tests = strstr(cmd, " -- ");
		bool sel = (tests && (strstr(tests, " -o") || strstr(tests, " -O") || strstr(tests, " -k"))) ||
			   strstr(cmd, "-t omni");
		if (sel)
			WS_T_REPORT(listed(manifest[i].name, selector_goldens, n) ||
					    listed(manifest[i].name, not_selector_cases,
						   sizeof(not_selector_cases) / sizeof(not_selector_cases[0])),
				    manifest[i].name, "selector golden %s is not replayed", manifest[i].name);
	}
}

/* ---- banners of every golden ------------------------------------------------------------- */

static void test_all_banners(void)
{
	int checked = 0;
	for (size_t i = 0; i < nmanifest; i++) {
		const struct entry *e = &manifest[i];
		char *want = golden(e->name);
		if (!want)
			continue;
		bool has = !strncmp(want, "MIGRATED ", 9) || !strncmp(want, "OMNI ", 5) ||
			   !strncmp(want, "TCP SENDFILE ", 13);
		if (has && e->status == 0 && strncmp(e->name, "err_", 4) != 0) {
			struct replay p;
			build(&p, e->cmd);
			char wline[1024], *got = NULL;
			size_t gotn = 0;
			snprintf(wline, sizeof(wline), "%.*s", (int)strcspn(want, "\n"), want);
			expected_banner(wline, sizeof(wline));
			FILE *out = open_memstream(&got, &gotn);
			if (out) {
				banner_of(&p, out);
				fclose(out);
			}
			if (got && gotn && got[gotn - 1] == '\n')
				got[gotn - 1] = 0;
			CHECK_STR(e->name, got, wline);
			free(got);
			checked++;
		}
		free(want);
	}
	CHECK("banners", checked >= 100);
}

/* ---- names, selections, errors ---------------------------------------------------------- */

static void test_names(void)
{
	char *want = golden("omni_O_names");
	char *got = NULL, *extra = NULL;
	size_t gn = 0, en = 0;
	FILE *out = open_memstream(&got, &gn), *x = open_memstream(&extra, &en);
	CHECK_INT("names", ws_out_print_names(out, x), 0);
	fclose(out);
	fclose(x);
	CHECK_STR("names", got, want);
	CHECK("names extra", extra && strstr(extra, "\nP99_9_LATENCY\nP99_99_LATENCY\nSTREAMS\nFAIRNESS\nIO_PATH\n"));
	/* 2.7.0's list: OUTPUT_NONE .. OUTPUT_END, then warpspeed's after it. */
	CHECK_STR("names", ws_out_at(0)->name, "OUTPUT_NONE");
	int end = ws_out_find("OUTPUT_END"), lines = 0;
	for (const char *c = want; c && *c; c++)
		lines += *c == '\n';
	CHECK_INT("names", end, lines - 1);
	for (size_t i = 0; i < ws_out_count(); i++)
		CHECK(ws_out_at(i)->name, ws_out_at(i)->warpspeed == ((int)i > end));
	free(got);
	free(extra);
	free(want);
}

static void test_lookup(void)
{
	CHECK_INT("find", ws_out_find("throughput"), ws_out_find("THROUGHPUT"));
	CHECK("find", ws_out_find("THROUGHPUT") > 0);
	CHECK_INT("find", ws_out_find("NO_SUCH"), -1);
	CHECK_INT("header", ws_out_find_name_or_header("Throughput Units"), ws_out_find("THROUGHPUT_UNITS"));
	CHECK_INT("header", ws_out_find_name_or_header("mean latency microseconds"), ws_out_find("MEAN_LATENCY"));
	CHECK_INT("header", ws_out_find_name_or_header("Mean Latency"), -1);
}

static void test_parse_forms(void)
{
	ws_out_selection sel;
	ws_err err = {0};
	CHECK_INT("list", ws_out_parse_selection("THROUGHPUT,bogus,mean_latency", &sel, &err), 0);
	CHECK_INT("list", sel.n[0], 2); /* unknown names in a list are skipped, as netperf */
	CHECK("list stats", sel.want_stats);
	CHECK_INT("blocks", ws_out_parse_selection("THROUGHPUT;ELAPSED_TIME REQUEST_SIZE;;X", &sel, &err), 0);
	CHECK_INT("blocks", sel.n[0], 1);
	CHECK_INT("blocks", sel.n[1], 2);
	CHECK_INT("blocks", sel.n[2] + sel.n[3], 0);
	CHECK("blocks stats", !sel.want_stats);
	CHECK_INT("one", ws_out_parse_selection("transaction_rate", &sel, &err), 0);
	CHECK_INT("one", sel.ids[0][0], ws_out_find("TRANSACTION_RATE"));
	CHECK_INT("all", ws_out_parse_selection("ALL", &sel, &err), 0);
	CHECK_INT("all", sel.n[0], ws_out_find("RESPONSE_SIZE") - ws_out_find("SOCKET_TYPE") + 1);
	CHECK_INT("all", sel.ids[3][sel.n[3] - 1], ws_out_find("COMMAND_LINE"));
	CHECK("all stats", sel.want_stats); /* netperf's -k all has latency without -j */
	CHECK_INT("?", ws_out_parse_selection("?", &sel, &err), 0);
	CHECK("?", sel.list_names);
	CHECK_INT("none", ws_out_parse_selection(NULL, &sel, &err), 0);
	CHECK_INT("none", sel.n[0], 0);

	/* The error netperf prints for a name that is neither a selector nor a file. */
	char *want = golden("err_bad_selector");
	CHECK("bad", ws_out_parse_selection("NO_SUCH_SELECTOR", &sel, &err) < 0);
	if (want)
		want[strcspn(want, "\n")] = 0;
	CHECK_STR("bad", err.msg, want);
	free(want);

	/* Files: one block per line, at most four, names or headers; unknown entries become
	 * OUTPUT_NONE; a fifth line is ignored; an entry over 80 characters is refused. */
	char path[] = "/tmp/ws_test_outputs_XXXXXX";
	int fd = mkstemp(path);
	CHECK("file", fd >= 0);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (f) {
		fputs("THROUGHPUT,Throughput Units,nope\nELAPSED_TIME\n\nREQUEST_SIZE\nRESPONSE_SIZE\n", f);
		fclose(f);
	}
	CHECK_INT("file", ws_out_parse_selection(path, &sel, &err), 0);
	CHECK_INT("file", sel.n[0], 3);
	CHECK_INT("file", sel.ids[0][1], ws_out_find("THROUGHPUT_UNITS"));
	CHECK_INT("file", sel.ids[0][2], 0);
	CHECK_INT("file", sel.n[1], 1);
	CHECK_INT("file", sel.n[2], 1); /* the empty line: one OUTPUT_NONE, as netperf */
	CHECK_INT("file", sel.ids[3][0], ws_out_find("REQUEST_SIZE"));
	CHECK_INT("file", sel.n[3], 1);
	CHECK("file stats", !sel.want_stats);
	f = fopen(path, "w");
	if (f) {
		for (int i = 0; i < 90; i++)
			fputc('A', f);
		fclose(f);
	}
	CHECK("file long", ws_out_parse_selection(path, &sel, &err) < 0);
	CHECK("file long", strstr(err.msg, "too long") != NULL);
	unlink(path);
}

/* Statistics only when wanted: a file's latency names print -1 without -j, as netperf. */
static void test_stats_rule(void)
{
	struct replay p;
	build(&p, "netperf -t TCP_RR -- -k");
	ws_out_selection sel;
	ws_err err = {0};
	ws_out_parse_selection("MIN_LATENCY;MEAN_LATENCY", &sel, &err);
	sel.want_stats = false; /* as read from a file */
	ws_report_ctx c = ctx_of(&p, "x");
	char *got = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&got, &n);
	ws_out_print(&sel, WS_OUT_MODE_KEYVAL, true, &c, out);
	c.want_stats = true; /* -j */
	ws_out_print(&sel, WS_OUT_MODE_KEYVAL, true, &c, out);
	fclose(out);
	CHECK_STR("stats", got, "MIN_LATENCY=-1\nMEAN_LATENCY=-1.00\nMIN_LATENCY=5\nMEAN_LATENCY=5.41\n");
	free(got);
}

/* The option forms: -o/-O/-k take the next word unless it is an option; -t omni's test
 * comes from -d and -T; -d/-T without -t omni are refused by name. */
static int parse(const char *line, ws_cli_options *o, ws_err *err)
{
	static char buf[512];
	char *argv[32];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 32; t = strtok(NULL, " "))
		argv[argc++] = t;
	return ws_cli_parse(argc, argv, o, err);
}

static void test_options(void)
{
	ws_cli_options o;
	ws_err err = {0};
	CHECK_INT("-o alone", parse("w -- -o -m 64", &o, &err), 0);
	CHECK_INT("-o alone", o.out_mode, WS_OUT_MODE_CSV);
	CHECK("-o alone", o.out_spec == NULL);
	CHECK_INT("-o alone", o.spec.send_size, 64);
	CHECK_INT("-O list", parse("w -- -O THROUGHPUT,MEAN_LATENCY", &o, &err), 0);
	CHECK_STR("-O list", o.out_spec, "THROUGHPUT,MEAN_LATENCY");
	CHECK_INT("-O list", o.out_mode, WS_OUT_MODE_HUMAN);
	CHECK_INT("-kall", parse("w -- -kall", &o, &err), 0);
	CHECK_STR("-kall", o.out_spec, "all");
	CHECK_INT("-kall", o.out_mode, WS_OUT_MODE_KEYVAL);
	CHECK_INT("-j", parse("w -j -t TCP_RR", &o, &err), 0);
	CHECK("-j", o.histogram);
	struct {
		const char *line;
		enum ws_test_type type;
	} omni[] = {
		{"w -t omni", WS_TEST_TCP_STREAM},
		{"w -t OMNI -- -d recv", WS_TEST_TCP_MAERTS},
		{"w -t omni -- -d rr", WS_TEST_TCP_RR},
		{"w -t omni -- -T udp", WS_TEST_UDP_STREAM},
		{"w -t omni -- -T UDP -d send|recv", WS_TEST_UDP_RR},
		{"w -t omni -- -d stream -T tcp", WS_TEST_TCP_STREAM},
		{"w -t omni -- -d 2", WS_TEST_TCP_STREAM},    /* netperf's bits: 0x2 send, */
		{"w -t omni -- -d 0x4", WS_TEST_TCP_MAERTS},  /* 0x4 receive, */
		{"w -t omni -- -d 6 -T udp", WS_TEST_UDP_RR}, /* both */
	};
	for (size_t i = 0; i < sizeof(omni) / sizeof(omni[0]); i++) {
		CHECK_INT(omni[i].line, parse(omni[i].line, &o, &err), 0);
		CHECK_INT(omni[i].line, o.spec.type, omni[i].type);
		CHECK(omni[i].line, o.omni);
		CHECK_INT(omni[i].line, ws_cli_output_mode(&o), WS_OUT_MODE_HUMAN);
	}
	CHECK("-d recv udp", parse("w -t omni -- -d recv -T udp", &o, &err) < 0);
	CHECK("-d recv udp", strstr(err.msg, "-d send or -d rr") != NULL);
	CHECK("-d bad", parse("w -t omni -- -d sideways", &o, &err) < 0);
	CHECK("-d bad", strstr(err.msg, "'sideways' is not a direction") != NULL);
	CHECK("-d 8", parse("w -t omni -- -d 8", &o, &err) < 0); /* netperf: a connection test */
	CHECK("-d 8", strstr(err.msg, "'8' is not a direction") != NULL);
	CHECK("-T sctp", parse("w -t omni -- -T sctp", &o, &err) < 0);
	CHECK("-T sctp", strstr(err.msg, "expected tcp, udp or mptcp") != NULL);
	CHECK("-d no omni", parse("w -t TCP_STREAM -- -d send", &o, &err) < 0);
	CHECK("-d no omni", strstr(err.msg, "test option -d applies to -t omni only") != NULL);
	CHECK_INT("classic", parse("w -t TCP_STREAM", &o, &err), 0);
	CHECK_INT("classic", ws_cli_output_mode(&o), WS_OUT_MODE_NONE);
}

int main(void)
{
	const char *root = getenv("WS_ROOT");
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s%stests/goldens", root ? root : "", root ? "/" : "");
	if (chdir(dir) != 0) {
		printf("FAIL cannot enter %s\n", dir);
		return 1;
	}
	load_manifest();
	RUN(test_names);
	RUN(test_lookup);
	RUN(test_parse_forms);
	RUN(test_stats_rule);
	RUN(test_options);
	RUN(test_selector_goldens);
	RUN(test_all_banners);
	TEST_MAIN_END();
}
