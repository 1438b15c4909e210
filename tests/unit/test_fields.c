/* SPDX-License-Identifier: BSD-2-Clause */
/* test_fields: the field lists of model/fields.h hold together. Each carried field has an
 * id of its own in its message and a size that matches its kind; each published field a
 * JSON name unique in its object; each output name the lists give exists in the output
 * table and reads back the member's own value (a set byte pattern), so that a slip in a
 * line (a wrong member, a wrong kind) shows here and not in a golden. */
#include "harness.h"

#include "model/fields.h"
#include "report/outputs.h"

#include <string.h>

static size_t kind_size(enum ws_field_kind k)
{
	switch (k) {
	case WS_FK_U16:
		return 2;
	case WS_FK_U32:
	case WS_FK_INT:
	case WS_FK_ENUM:
		return 4;
	case WS_FK_U64:
	case WS_FK_I64:
	case WS_FK_F64:
		return 8;
	case WS_FK_BOOL:
	case WS_FK_CHAR:
		return 1;
	case WS_FK_STR:
		return 0;
	}
	return 0;
}

static void check_list(const char *t, const ws_field *f, size_t n, size_t obj_size)
{
	for (size_t i = 0; i < n; i++) {
		size_t want = kind_size(f[i].kind);
		WS_T_REPORT(want == 0 ? f[i].size > 1 : f[i].size == want, t,
			    "%s: size %zu does not fit its kind", f[i].member, f[i].size);
		WS_T_REPORT(f[i].off + f[i].size <= obj_size, t, "%s lies outside", f[i].member);
		for (size_t k = 0; k < i; k++) {
			WS_T_REPORT(!f[i].id || f[i].id != f[k].id, t, "%s and %s share id %u",
				    f[i].member, f[k].member, f[i].id);
			WS_T_REPORT(f[i].off != f[k].off, t, "%s is listed twice", f[i].member);
			WS_T_REPORT(!f[i].json || f[i].group != f[k].group || !f[k].json ||
					    strcmp(f[i].json, f[k].json) != 0,
				    t, "%s and %s share the JSON name %s", f[i].member,
				    f[k].member, f[i].json);
		}
	}
}

static void test_lists(void)
{
	check_list("spec", ws_spec_fields, ws_spec_nfields, sizeof(ws_test_spec));
	check_list("side", ws_side_fields, ws_side_nfields, sizeof(ws_side_result));
	/* the TLV ids of the two messages stay in their ranges (ctl/msg.c) */
	for (size_t i = 0; i < ws_spec_nfields; i++)
		CHECK("spec_ids", ws_spec_fields[i].id == 0 ||
				  (ws_spec_fields[i].id >= 100 && ws_spec_fields[i].id < 200));
	for (size_t i = 0; i < ws_side_nfields; i++)
		CHECK("side_ids", ws_side_fields[i].id == 0 ||
				  (ws_side_fields[i].id >= 200 && ws_side_fields[i].id < 300));
}

/* Every output name of the lists prints its own member: fill the member with a value
 * of its own and read it back through the table. */
static void read_back(const ws_field *f, int side, bool spec)
{
	static ws_test_result r;
	memset(&r, 0, sizeof(r));
	char *base = spec ? (char *)&r.spec : (char *)(side ? &r.remote : &r.local);
	char *p = base + f->off;
	int64_t want = 0;
	const char *want_s = "";
	switch (f->kind) {
	case WS_FK_U32:
		*(uint32_t *)p = 123456u + f->id;
		want = 123456 + f->id;
		break;
	case WS_FK_U64:
		*(uint64_t *)p = 9876543210ULL + f->id;
		want = 9876543210LL + f->id;
		break;
	case WS_FK_STR:
		strcpy(p, "x-value");
		want_s = "x-value";
		break;
	default:
		WS_T_REPORT(0, "outputs", "%s: a kind this test does not cover", f->member);
		return;
	}
	ws_report_ctx c = {.r = &r};
	const char *name = f->out[side];
	int i = ws_out_find(name);
	WS_T_REPORT(i >= 0, "outputs", "%s is not an output name", name);
	if (i < 0)
		return;
	ws_out_value v;
	ws_out_value_of(ws_out_at((size_t)i), &c, &v);
	if (f->kind == WS_FK_STR)
		WS_T_REPORT(v.kind == WS_OUT_V_STR && strcmp(v.s, want_s) == 0, "outputs",
			    "%s does not read %s", name, f->member);
	else
		WS_T_REPORT((v.kind == WS_OUT_V_INT && v.i == want) ||
				    (v.kind == WS_OUT_V_UINT && v.u == (uint64_t)want),
			    "outputs", "%s does not read %s", name, f->member);
}

static void test_outputs(void)
{
	int seen = 0;
	for (size_t i = 0; i < ws_spec_nfields; i++)
		if (ws_spec_fields[i].out[0]) {
			read_back(&ws_spec_fields[i], 0, true);
			seen++;
		}
	for (size_t i = 0; i < ws_side_nfields; i++)
		for (int s = 0; s < 2; s++)
			if (ws_side_fields[i].out[s]) {
				read_back(&ws_side_fields[i], s, false);
				seen++;
			}
	CHECK("outputs", seen >= 20); /* the lists do give names, or this proves nothing */
	int side;
	bool spec;
	CHECK("outputs", ws_field_by_output("lss_size_end", &side, &spec) != NULL && side == 0 &&
				 !spec);
	CHECK("outputs", ws_field_by_output("THROUGHPUT", &side, &spec) == NULL);
}

int main(void)
{
	RUN(test_lists);
	RUN(test_outputs);
	TEST_MAIN_END();
}
