/* SPDX-License-Identifier: BSD-2-Clause */
/* sweep_json: the sweep document; see sweep_json.h. The point documents arrive as text
 * (the CLI renders each with the single-result writer as its point ends), and are placed
 * whole, re-indented, by the streaming writer (report/json.h). */
#include "report/sweep_json.h"

#include "report/json.h"

int ws_json_sweep_write(FILE *out, const char *parameter, const ws_json_sweep_point *p, size_t n)
{
	ws_json j;
	ws_json_init(&j, out, 2);
	ws_json_object_begin(&j, NULL);
	ws_json_str(&j, "type", "sweep");
	ws_json_int(&j, "schema_version", WS_JSON_SWEEP_SCHEMA_VERSION);
	ws_json_str(&j, "parameter", parameter);
	ws_json_array_begin(&j, "values");
	for (size_t i = 0; i < n; i++)
		ws_json_str(&j, NULL, p[i].value);
	ws_json_array_end(&j);
	ws_json_array_begin(&j, "points");
	for (size_t i = 0; i < n; i++) {
		ws_json_object_begin(&j, NULL);
		ws_json_str(&j, "value", p[i].value);
		ws_json_double(&j, "x", p[i].x);
		ws_json_document(&j, "result", p[i].result);
		if (!p[i].result)
			ws_json_str(&j, "error", p[i].error ? p[i].error : "the point failed");
		ws_json_object_end(&j);
	}
	ws_json_array_end(&j);
	ws_json_object_end(&j);
	return ws_json_finish(&j);
}
