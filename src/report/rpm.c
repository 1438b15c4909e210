/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the responsiveness test's reports; see rpm.h. */
#include "report/rpm.h"

#include "measure/rpm.h"
#include "report/figlist.h"
#include "report/json.h"
#include "util/err.h"
#include <warpspeed/version.h>

#include <math.h>
#include <string.h>

void ws_rpm_render(const ws_rpm_result *r, FILE *out)
{
	fprintf(out, "RPM test to %s: load %s, up to %u flow%s each way, %.0f probes/s\n",
		r->remote_host, ws_rpm_dir_name(r->dir), r->max_flows, r->max_flows == 1 ? "" : "s",
		r->probe_rate);
	fprintf(out, "Idle latency:     %9.3f ms  (%llu foreign probes)\n", r->idle_latency_ms,
		(unsigned long long)r->idle_probes);
	fprintf(out, "Working latency:  %9.3f ms  (last %u intervals of %.2f s)\n",
		r->working_latency_ms, r->intervals < 4 ? r->intervals : 4u, r->interval_s);
	fprintf(out, "  foreign probes: %9.3f ms  (%llu; connect + 1 transaction %.3f ms)\n",
		r->foreign_ms, (unsigned long long)r->foreign_probes, r->foreign_connect_rr_ms);
	fprintf(out, "  self probes:    %9.3f ms  (%llu TCP_INFO RTT samples)\n", r->self_ms,
		(unsigned long long)r->self_probes);
	fprintf(out, "Goodput:          %9.2f Mbit/s up, %.2f Mbit/s down\n", r->goodput_up_mbps,
		r->goodput_down_mbps);
	if (r->saturated)
		fprintf(out, "Load flows:       %u up, %u down (saturated after %.2f s)\n",
			r->flows_up, r->flows_down, r->saturated_at_s);
	else
		fprintf(out, "Load flows:       %u up, %u down (goodput not saturated)\n",
			r->flows_up, r->flows_down);
	fprintf(out, "RPM:              %9.0f%s\n", r->rpm,
		r->error[0]         ? "  (so far: the run ended early)"
			: r->stable ? ""
				    : "  (working latency not stable)");
}

void ws_rpm_render_figure(const ws_rpm_result *r, FILE *out) { fprintf(out, "%.2f\n", r->rpm); }

int ws_rpm_notes(const ws_rpm_result *r, char *buf, size_t n)
{
	int lines = 0;
	size_t at = 0;
	buf[0] = '\0';
	if (r->idle_probes < WS_RPM_IDLE_MIN) {
		snprintf(buf, n,
			 "note: the idle phase ended after %.2f s with %llu of its %d foreign "
			 "probes\n",
			 r->idle_s, (unsigned long long)r->idle_probes, WS_RPM_IDLE_MIN);
		lines++;
		at = strlen(buf);
	}
	if (r->foreign_probes == 0 && r->self_probes > 0 && at < n) {
		unsigned last = r->intervals < WS_RPM_MAD ? r->intervals : WS_RPM_MAD;
		snprintf(buf + at, n - at,
			 "note: no foreign probe in the last %u intervals (%llu under load in "
			 "all): the working latency is the self probes' alone\n",
			 last, (unsigned long long)r->foreign_total);
		lines++;
	}
	return lines;
}

void ws_rpm_flent_view(const ws_rpm_result *r, ws_series buf[WS_RPM_FLENT_SERIES],
		       ws_series_set *out)
{
	static const struct {
		const char *from, *to;
	} names[] = {{"Foreign probe", "Ping (ms) Foreign"}, {"Self probe", "Ping (ms) Self"}};
	*out = r->series;
	out->n = r->series.n < WS_RPM_FLENT_SERIES ? r->series.n : WS_RPM_FLENT_SERIES;
	out->cap = out->n;
	out->s = buf;
	for (size_t i = 0; i < out->n; i++) {
		buf[i] = r->series.s[i];
		for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
			if (!strcmp(buf[i].name, names[k].from))
				snprintf(buf[i].name, sizeof(buf[i].name), "%s", names[k].to);
	}
}

static const char *rpm_name(size_t i) { return ws_rpm_fields[i].out; }

static void rpm_value(size_t i, const void *r, char *buf, size_t n)
{
	ws_rpm_field_format(&ws_rpm_fields[i], r, buf, n);
}

static ws_figlist figlist(void)
{
	return (ws_figlist){"-t RPM", ws_rpm_nfields, rpm_name, rpm_value};
}

int ws_rpm_outputs_check(const char *list, ws_err *err)
{
	ws_figlist fl = figlist();
	return ws_figlist_check(&fl, list, err);
}

int ws_rpm_outputs_names(FILE *out)
{
	ws_figlist fl = figlist();
	return ws_figlist_names(&fl, out);
}

void ws_rpm_render_outputs(const ws_rpm_result *r, const char *list, int mode, bool headers,
			   FILE *out)
{
	ws_figlist fl = figlist();
	ws_figlist_render(&fl, r, list, mode, headers, out);
}

static void json_field(ws_json *j, const ws_rpm_field *f, const ws_rpm_result *r)
{
	const char *p = (const char *)r + f->off;
	switch (f->kind) {
	case WS_RPM_FD: {
		double v = *(const double *)p;
		if (isfinite(v) && !(f->off == offsetof(ws_rpm_result, saturated_at_s) && v < 0))
			ws_json_double(j, f->json, v);
		else
			ws_json_null(j, f->json);
		break;
	}
	case WS_RPM_FU:
		ws_json_uint(j, f->json, *(const uint64_t *)p);
		break;
	case WS_RPM_FW:
		ws_json_uint(j, f->json, *(const uint32_t *)p);
		break;
	case WS_RPM_FB:
		ws_json_bool(j, f->json, *(const bool *)p);
		break;
	case WS_RPM_FS:
		if (*p)
			ws_json_str(j, f->json, p);
		else
			ws_json_null(j, f->json);
		break;
	}
}

static const char *const kinds[] = {"up", "down", "probe"};

int ws_rpm_json_write(const ws_rpm_result *r, const char *command_line, FILE *out)
{
	ws_json j;
	ws_json_init(&j, out, 2);
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "rpm");
	ws_json_int(&j, "schema_version", 1);
	ws_json_str(&j, "warpspeed_version", ws_version());
	if (command_line)
		ws_json_str(&j, "command_line", command_line);
	else
		ws_json_null(&j, "command_line");
	ws_json_str(&j, "test", "RPM");
	ws_json_str(&j, "remote_host", r->remote_host);
	ws_json_str(&j, "direction", ws_rpm_dir_name(r->dir));
	ws_json_object_begin(&j, "figures");
	for (size_t i = 0; i < ws_rpm_nfields; i++)
		json_field(&j, &ws_rpm_fields[i], r);
	ws_json_object_end(&j);
	ws_json_array_begin(&j, "series");
	for (size_t i = 0; i < r->series.n; i++) {
		const ws_series *s = &r->series.s[i];
		ws_json_object_begin(&j, NULL);
		ws_json_str(&j, "name", s->name);
		ws_json_str(&j, "kind", kinds[s->kind]);
		if (s->probe[0])
			ws_json_str(&j, "probe", s->probe);
		else
			ws_json_null(&j, "probe");
		ws_json_str(&j, "unit", s->kind == WS_SERIES_PROBE ? "ms" : "Mbit/s");
		ws_json_array_inline_begin(&j, "t");
		for (size_t k = 0; k < s->n; k++)
			ws_json_double(&j, NULL, s->t[k]);
		ws_json_array_end(&j);
		ws_json_array_inline_begin(&j, "v");
		for (size_t k = 0; k < s->n; k++)
			if (isfinite(s->v[k]))
				ws_json_double(&j, NULL, s->v[k]);
			else
				ws_json_null(&j, NULL);
		ws_json_array_end(&j);
		ws_json_object_end(&j);
	}
	ws_json_array_end(&j);
	ws_json_object_end(&j);
	return ws_json_finish(&j) < 0 ? -1 : 0;
}
