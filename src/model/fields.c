/* SPDX-License-Identifier: BSD-2-Clause */
/* fields: the field tables made from the lists; see fields.h. */
#include "model/fields.h"

#include <strings.h>

#define FIELD(type, id, kind, member, group, json, json_as, out_l, out_r, unit) \
	{id,                                                                    \
	 WS_FK_##kind,                                                          \
	 offsetof(type, member),                                                \
	 sizeof(((type *)0)->member),                                           \
	 #member,                                                               \
	 WS_FG_##group,                                                         \
	 json,                                                                  \
	 WS_FJ_##json_as,                                                       \
	 {out_l, out_r},                                                        \
	 unit},
#define SPEC_FIELD(...) FIELD(ws_test_spec, __VA_ARGS__)
#define SIDE_FIELD(...) FIELD(ws_side_result, __VA_ARGS__)

const ws_field ws_spec_fields[] = {WS_SPEC_FIELDS(SPEC_FIELD)};
const size_t ws_spec_nfields = sizeof(ws_spec_fields) / sizeof(ws_spec_fields[0]);
const ws_field ws_side_fields[] = {WS_SIDE_FIELDS(SIDE_FIELD)};
const size_t ws_side_nfields = sizeof(ws_side_fields) / sizeof(ws_side_fields[0]);

/* Enums travel and are stored as int: the spec's enum members must be int-sized. */
_Static_assert(sizeof(enum ws_test_type) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ws_end_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ws_family) == sizeof(int), "enum size");

static const ws_field *find(const ws_field *f, size_t n, const char *name, int *side)
{
	for (size_t i = 0; i < n; i++)
		for (int s = 0; s < 2; s++)
			if (f[i].out[s] && strcasecmp(f[i].out[s], name) == 0) {
				*side = s;
				return &f[i];
			}
	return NULL;
}

const ws_field *ws_field_by_output(const char *name, int *side, bool *spec)
{
	const ws_field *f = find(ws_spec_fields, ws_spec_nfields, name, side);
	*spec = f != NULL;
	return f ? f : find(ws_side_fields, ws_side_nfields, name, side);
}
