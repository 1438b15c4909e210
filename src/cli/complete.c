/* SPDX-License-Identifier: BSD-2-Clause */
/* complete: `warpspeed __complete PROG WORD...`, the candidates for the last WORD; see
 * complete.h. The options come from the tables the parsers walk (cli/words.h), the test
 * names from the test table (ctl/spec.h), so what completes is what is accepted. */
#include "cli/complete.h"

#include "cli/compare.h"
#include "cli/iqopts.h"
#include "cli/longopts.h"
#include "cli/meshopts.h"
#include "cli/node.h"
#include "cli/options.h"
#include "cli/personality.h"
#include "cli/plot.h"
#include "cli/roles.h"
#include "cli/serve.h"
#include "model/spec.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 256

/* The roles a first word names: cli/main.c dispatches on the same list (cli/roles.h); the
 * completion test checks them against `warpspeed -h`. */
#define ROLE_WORD(word, entry) word,
static const char *const roles[] = {WS_CLI_ROLES(ROLE_WORD)};
#undef ROLE_WORD

struct words {
	size_t n;
	struct {
		char word[40];
		const char *form; /* points into a static table */
	} w[MAX_WORDS];
};

static void add(void *ctx, const char *word, const char *form)
{
	struct words *ws = ctx;
	if (ws->n == MAX_WORDS || strlen(word) >= sizeof ws->w[0].word)
		return;
	snprintf(ws->w[ws->n].word, sizeof ws->w[0].word, "%s", word);
	ws->w[ws->n++].form = form;
}

/* True when w is one of the words; *form is then its form. */
static bool find(const struct words *ws, const char *w, const char **form)
{
	for (size_t i = 0; i < ws->n; i++)
		if (strcmp(ws->w[i].word, w) == 0) {
			*form = ws->w[i].form;
			return true;
		}
	return false;
}

/* A form that takes the next word: a value that is not optional ("[rate]" is). */
static bool takes(const char *form) { return form && form[0] != '['; }

enum kind { K_NONE, K_FILE, K_TEST, K_CHOICE };

/* What a value of this form completes to (cli/words.h's forms). */
static enum kind kind_of(const char *form)
{
	if (!form)
		return K_NONE;
	if (strstr(form, "FILE") || strstr(form, "file") || strstr(form, ".svg"))
		return K_FILE;
	if (!strcmp(form, "testname"))
		return K_TEST;
	if (!strchr(form, '|') ||
	    form[strspn(form,
			"abcdefghijklmnopqrstuvwxyz"
			"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-|")])
		return K_NONE;
	return K_CHOICE;
}

/* One candidate, when it starts with cur (test names in any case, as -t takes them). */
static void offer(const char *pre, const char *word, const char *form, const char *cur, bool nocase)
{
	char full[160];
	snprintf(full, sizeof full, "%s%s", pre, word);
	size_t n = strlen(cur);
	if (nocase ? strncasecmp(full, cur, n) : strncmp(full, cur, n))
		return;
	if (takes(form))
		printf("%s\t%s\n", full, form);
	else
		printf("%s\n", full);
}

/* The values of a form, each prefixed by pre ("" or "-t", "--svg-chart="). */
static void values(const char *form, const char *pre, const char *cur)
{
	switch (kind_of(form)) {
	case K_FILE:
		printf("@files\n");
		return;
	case K_TEST:
		for (unsigned i = 0; ws_test_type_at(i); i++)
			offer(pre, ws_test_type_at(i)->name, NULL, cur, true);
		offer(pre, "omni", NULL, cur, true);
		return;
	case K_CHOICE:
		for (const char *p = form; *p;) {
			size_t n = strcspn(p, "|");
			char w[64];
			snprintf(w, sizeof w, "%.*s", (int)(n < 63 ? n : 63), p);
			offer(pre, w, NULL, cur, false);
			p += n + (p[n] == '|');
		}
		return;
	default:
		return;
	}
}

/* The option words of the context: role (NULL: the client), iq command, after `--`. */
static void collect(struct words *ws, const char *prog, const char *role, const char *cmd,
		    bool test)
{
	bool netperf = !strcmp(prog, "netperf");
	if (!strcmp(prog, "netserver"))
		ws_cli_netserver_words(add, ws);
	else if (role && !strcmp(role, "serve"))
		ws_cli_serve_words(add, ws);
	else if (role && !strcmp(role, "node"))
		ws_cli_node_words(add, ws);
	else if (role && !strcmp(role, "plot"))
		ws_cli_plot_words(add, ws);
	else if (role && !strcmp(role, "compare"))
		ws_cli_compare_words(add, ws);
	else if (role && !strcmp(role, "iq")) {
		if (cmd)
			ws_cli_iq_words(cmd, add, ws);
		else
			add(ws, "-h", NULL);
	} else {
		if (role && !strcmp(role, "mesh") && !test)
			ws_cli_mesh_words(add, ws);
		ws_cli_option_words(test, add, ws);
		if (!netperf) /* netperf has no --name options */
			ws_cli_long_words(add, ws);
	}
}

int ws_cli_complete_main(int argc, char **argv)
{
	if (argc < 2)
		return 0; /* nothing to complete */
	const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	const char *cur = argv[argc - 1];
	char **w = argv + 1;
	int n = argc - 2; /* the words before cur */
	const char *role = NULL, *cmd = NULL;
	int i = 0;
	bool plain = !ws_cli_personality(prog); /* not netperf or netserver: the roles */
	if (plain) {
		for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++) {
			if (n > 0 && !strcmp(w[0], roles[r]))
				role = roles[r];
			else if (n == 0 && cur[0] != '-')
				offer("", roles[r], NULL, cur, false);
		}
		i = role ? 1 : 0;
	}
	if (role && !strcmp(role, "iq")) {
		if (n == 1) {
			for (size_t k = 0; ws_cli_iq_command(k); k++)
				offer("", ws_cli_iq_command(k), NULL, cur, false);
		} else if (n > 1) {
			cmd = w[1];
			i = 2;
		}
	}
	/* Walk the words before cur: `--` starts the test options (client, mesh); a word
	 * that is an option taking a value makes the next word its value. */
	bool test = false, has_tail = !role || !strcmp(role, "mesh");
	const char *form = NULL, *prev_form = NULL;
	struct words ws = {0};
	collect(&ws, prog, role, cmd, false);
	for (; i < n; i++) {
		if (has_tail && !test && !strcmp(w[i], "--")) {
			test = true;
			ws = (struct words){0};
			collect(&ws, prog, role, cmd, true);
			prev_form = NULL;
			continue;
		}
		prev_form = find(&ws, w[i], &form) && takes(form) ? form : NULL;
		if (prev_form && i + 1 < n) {
			i++; /* its value */
			prev_form = NULL;
		}
	}
	if (prev_form) {
		values(prev_form, "", cur);
		return 0;
	}
	if (cur[0] == '-') {
		/* --name=VALUE and -XVALUE: the value of an option written in one word */
		const char *eq = strchr(cur, '=');
		for (size_t k = 0; k < ws.n; k++) {
			const char *ow = ws.w[k].word, *of = ws.w[k].form;
			size_t len = strlen(ow);
			if (eq && ow[1] == '-' && (size_t)(eq - cur) == len &&
			    !strncmp(cur, ow, len) && takes(of)) {
				char pre[48];
				snprintf(pre, sizeof pre, "%s=", ow);
				values(of, pre, cur);
				return 0;
			}
			if (!eq && ow[1] != '-' && cur[1] == ow[1] && cur[2] && takes(of) &&
			    kind_of(of) != K_FILE) {
				values(of, ow, cur);
				return 0;
			}
		}
		for (size_t k = 0; k < ws.n; k++)
			offer("", ws.w[k].word, ws.w[k].form, cur, false);
		return 0;
	}
	if (role && (!strcmp(role, "plot") || !strcmp(role, "compare")))
		printf("@files\n"); /* the JSON files, or compare's directories */
	return 0;
}
