/* SPDX-License-Identifier: BSD-2-Clause */
/* figlist: output selectors over a test's own table of names; see figlist.h. */
#include "report/figlist.h"

#include "util/err.h"

#include <string.h>
#include <strings.h>

#define NAME_MAX_LEN 64

bool ws_figlist_asks_names(const char *list) { return list && strcmp(list, "?") == 0; }

static bool every(const char *list) { return !list || strcasecmp(list, "all") == 0; }

static long find(const ws_figlist *fl, const char *name)
{
	for (size_t i = 0; i < fl->n; i++)
		if (strcasecmp(fl->name(i), name) == 0)
			return (long)i;
	return -1;
}

/* Walk the names of list (or every one): fn(ctx, index or -1, name). */
static void walk(const ws_figlist *fl, const char *list, void (*fn)(void *, long, const char *),
		 void *ctx)
{
	if (every(list)) {
		for (size_t i = 0; i < fl->n; i++)
			fn(ctx, (long)i, fl->name(i));
		return;
	}
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ", ");
		char name[NAME_MAX_LEN];
		snprintf(name, sizeof(name), "%.*s",
			 (int)(n < NAME_MAX_LEN - 1 ? n : NAME_MAX_LEN - 1), p);
		if (n)
			fn(ctx, find(fl, name), name);
		p += n;
		p += strspn(p, ", ");
	}
}

static void first_unknown(void *ctx, long i, const char *name)
{
	char *first = ctx;
	if (i < 0 && !first[0])
		snprintf(first, NAME_MAX_LEN, "%s", name);
}

int ws_figlist_check(const ws_figlist *fl, const char *list, ws_err *err)
{
	char first[NAME_MAX_LEN] = "";
	if (ws_figlist_asks_names(list))
		return 0;
	walk(fl, list, first_unknown, first);
	if (!first[0])
		return 0;
	/* as many names as the message holds, then where the rest are */
	char names[WS_ERR_MSG_MAX - 160] = "";
	size_t len = 0, i = 0;
	for (; i < fl->n && len + strlen(fl->name(i)) + 40 < sizeof(names); i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
					fl->name(i));
	if (i < fl->n)
		snprintf(names + len, sizeof(names) - len, " ... (-o ? lists all %zu)", fl->n);
	return ws_err_set(err, WS_E_INVAL,
			  "'%s' is not an output of %s; expected all, ? (the list) or %s", first,
			  fl->test, names);
}

int ws_figlist_names(const ws_figlist *fl, FILE *out)
{
	for (size_t i = 0; i < fl->n; i++)
		fprintf(out, "%s\n", fl->name(i));
	return fflush(out) != 0 || ferror(out) ? -1 : 0;
}

struct put {
	const ws_figlist *fl;
	const void *r;
	FILE *out;
	int mode, pass; /* pass 0: names, 1: values */
	bool first;
};

static void put_one(void *ctx, long i, const char *name)
{
	struct put *p = ctx;
	char v[600];
	if (i < 0) /* checked before the run */
		return;
	name = p->fl->name((size_t)i);
	p->fl->value((size_t)i, p->r, v, sizeof(v));
	if (p->mode == 3) {
		fprintf(p->out, "%s=%s\n", name, v);
		return;
	}
	const char *sep = p->first ? "" : p->mode == 1 ? "," : " ";
	/* -O: each column as wide as its name or its value, whichever is wider */
	int w = p->mode == 2 ? (int)(strlen(name) > strlen(v) ? strlen(name) : strlen(v)) : 0;
	fprintf(p->out, "%s%*s", sep, w, p->pass ? v : name);
	p->first = false;
}

void ws_figlist_render(const ws_figlist *fl, const void *result, const char *list, int mode,
		       bool headers, FILE *out)
{
	struct put p = {fl, result, out, mode, 0, true};
	if (mode != 3 && headers) {
		walk(fl, list, put_one, &p);
		fputc('\n', out);
	}
	p.pass = 1;
	p.first = true;
	walk(fl, list, put_one, &p);
	if (mode != 3)
		fputc('\n', out);
}
