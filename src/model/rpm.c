/* SPDX-License-Identifier: BSD-2-Clause */
/* rpm: the responsiveness test's field table; see rpm.h. */
#include "model/rpm.h"

#include <math.h>
#include <stdio.h>
#include <strings.h>

#define ROW(k, m, j, o, u, w) {WS_RPM_F##k, offsetof(ws_rpm_result, m), j, o, u, w},
const ws_rpm_field ws_rpm_fields[] = {WS_RPM_FIELDS(ROW)};
#undef ROW
const size_t ws_rpm_nfields = sizeof(ws_rpm_fields) / sizeof(ws_rpm_fields[0]);

const ws_rpm_field *ws_rpm_field_by_output(const char *name)
{
	for (size_t i = 0; i < ws_rpm_nfields; i++)
		if (strcasecmp(ws_rpm_fields[i].out, name) == 0)
			return &ws_rpm_fields[i];
	return NULL;
}

void ws_rpm_field_format(const ws_rpm_field *f, const ws_rpm_result *r, char *buf, size_t n)
{
	const char *p = (const char *)r + f->off;
	switch (f->kind) {
	case WS_RPM_FD: {
		double v = *(const double *)p;
		snprintf(buf, n, "%.3f", isfinite(v) ? v : -1.0);
		break;
	}
	case WS_RPM_FU:
		snprintf(buf, n, "%llu", (unsigned long long)*(const uint64_t *)p);
		break;
	case WS_RPM_FW:
		snprintf(buf, n, "%u", (unsigned)*(const uint32_t *)p);
		break;
	case WS_RPM_FB:
		snprintf(buf, n, "%d", *(const bool *)p ? 1 : 0);
		break;
	case WS_RPM_FS:
		snprintf(buf, n, "%s", p);
		break;
	}
}

const char *ws_rpm_dir_name(enum ws_rpm_dir d)
{
	return d == WS_RPM_UP ? "up" : d == WS_RPM_DOWN ? "down" : "both";
}

void ws_rpm_result_free(ws_rpm_result *r) { ws_series_free(&r->series); }
