/* SPDX-License-Identifier: BSD-2-Clause */
/* classic_probe: TCP_MSS, LOC_CPU and REM_CPU as netperf prints them; see classic_probe.h. */
#include "report/classic_probe.h"

#include "util/err.h"

#include <errno.h>

int ws_classic_probe_render(const ws_test_result *r, const ws_classic_opts *o, FILE *out,
			    ws_err *err)
{
	if (!r || !o || !out)
		return ws_err_set(err, WS_E_INVAL,
				  "classic report: no result, options or output stream");
	enum ws_test_type t = r->spec.type;
	if (ws_test_type_family(t) == WS_TF_MSS) {
		if (o->print_headers && !o->banner_done) /* not again after the one at start */
			ws_classic_banner(r, ws_test_type_row(t)->title, "", o, out);
		if (o->print_headers && o->verbosity >= 1)
			fputs("Maximum\nSegment\nSize (bytes)\n\n", out);
		/* netperf's "%d %s\n": the brand only when the banner is off */
		const char *brand = o->print_headers || !o->brand ? "" : o->brand;
		fprintf(out, "%d %s\n", r->local.maxseg_set ? (int)r->local.maxseg_set : -1, brand);
	} else if (ws_test_type_family(t) == WS_TF_CPU) {
		bool local = t == WS_TEST_LOC_CPU;
		const ws_side_result *s = local ? &r->local : &r->remote;
		fprintf(out, "%g", s->cpu_rate);
		if (o->verbosity > 1)
			fprintf(out, "\nThere %s %u %s %s\n", s->ncpus > 1 ? "are" : "is",
				(unsigned)s->ncpus, local ? "local" : "remote",
				s->ncpus > 1 ? "cpus" : "cpu");
	} else {
		const char *name = ws_test_type_name(t);
		return ws_err_set(
			err, WS_E_INVAL,
			"classic report: %s has a table; expected TCP_MSS, LOC_CPU or REM_CPU",
			name ? name : "this test");
	}
	if (fflush(out) != 0 || ferror(out))
		return ws_err_errno(err, "classic report: writing the result");
	return 0;
}
