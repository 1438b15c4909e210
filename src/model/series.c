/* SPDX-License-Identifier: BSD-2-Clause */
/* series: growable named time series and their summary figures; see series.h. */
#include "model/series.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int ws_series_add(ws_series_set *set, const char *name, ws_series_kind kind, const char *probe,
		  int tos)
{
	if (strlen(name) >= sizeof(set->s[0].name) ||
	    (probe && strlen(probe) >= sizeof(set->s[0].probe))) {
		errno = EINVAL;
		return -1;
	}
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 8;
		ws_series *s = realloc(set->s, cap * sizeof(*s));
		if (!s)
			return -1;
		set->s = s;
		set->cap = cap;
	}
	ws_series *s = &set->s[set->n];
	memset(s, 0, sizeof(*s));
	strcpy(s->name, name);
	if (probe)
		strcpy(s->probe, probe);
	s->kind = kind;
	s->tos = tos;
	return (int)set->n++;
}

int ws_series_push(ws_series_set *set, int idx, double t_s, double v)
{
	ws_series *s = &set->s[idx];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *t = realloc(s->t, cap * sizeof(*t));
		if (!t)
			return -1;
		s->t = t;
		double *nv = realloc(s->v, cap * sizeof(*nv));
		if (!nv)
			return -1;
		s->v = nv;
		s->cap = cap;
	}
	s->t[s->n] = t_s;
	s->v[s->n] = v;
	s->n++;
	if (isnan(v))
		s->lost++;
	return 0;
}

int ws_series_find(const ws_series_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->s[i].name, name) == 0)
			return (int)i;
	return -1;
}

void ws_series_free(ws_series_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->s[i].t);
		free(set->s[i].v);
	}
	free(set->s);
	memset(set, 0, sizeof(*set));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Percentile of sorted values, interpolated linearly between the two nearest ranks: the
 * rule Flent's summary uses (numpy's default), so both print the same 99th percentile. */
static double rank(const double *v, size_t n, double pct)
{
	double h = pct / 100.0 * (double)(n - 1);
	size_t lo = (size_t)floor(h);
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (h - (double)lo) * (v[lo + 1] - v[lo]);
}

void ws_series_stats_of(const ws_series *s, ws_series_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->lost = s->lost;
	double *v = s->n ? malloc(s->n * sizeof(*v)) : NULL;
	if (!v)
		return;
	size_t n = 0;
	double sum = 0;
	for (size_t i = 0; i < s->n; i++)
		if (!isnan(s->v[i])) {
			v[n++] = s->v[i];
			sum += s->v[i];
		}
	if (n) {
		qsort(v, n, sizeof(*v), cmp_double);
		out->samples = n;
		out->mean = sum / (double)n;
		out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
		out->p99 = rank(v, n, 99);
		out->min = v[0];
		out->max = v[n - 1];
	}
	free(v);
}
