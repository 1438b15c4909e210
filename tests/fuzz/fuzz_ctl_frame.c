/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_ctl_frame: arbitrary bytes as a received control frame, through every decoder a
 * daemon runs on untrusted input: the header check, payload validation, every getter and
 * the spec and result tables.
 *
 * The payload is copied into an exactly-sized heap block so that ASan reports any read
 * past its end, and the input is decoded twice: as a framed message (header then
 * payload, as the channel does) and as a bare payload (so that the fuzzer does not need
 * to find the magic before it can reach the field walker). Build with `make fuzz`; run
 * build/fuzz/fuzz_ctl_frame tests/fuzz/corpus_ctl (seeds from gen_corpus_ctl.c). */
#include "ctl/msg.h"
#include "ctl/tlv.h"
#include "model/result.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk_getters(const ws_tlv_msg *m)
{
	/* Ids of the frame fields, the spec table (100..144) and the result table (200..224). */
	static const uint16_t ids[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 100, 102, 104, 106, 122, 124,
				       142, 200, 208, 212, 214, 218, 223, 224, 0xffff};
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		uint64_t u;
		int64_t s;
		double d;
		char small[4], big[512];
		const uint8_t *p = NULL;
		uint16_t n = 0;
		int rc;
		ws_tlv_get_u64(m, ids[i], &u);
		ws_tlv_get_i64(m, ids[i], &s);
		ws_tlv_get_f64(m, ids[i], &d);
		ws_tlv_get_str(m, ids[i], small, sizeof(small));
		if (ws_tlv_get_str(m, ids[i], big, sizeof(big)) == 0 && strlen(big) >= sizeof(big))
			abort();
		rc = ws_tlv_get_bytes(m, ids[i], &p, &n);
		if (rc == 0 && (p < m->payload || p + n > m->payload + m->len))
			abort();
		if (rc != 0 && rc != 1 && rc != -WS_E_PROTO)
			abort();
	}
}

/* Equal scalar fields (pointers aside) and equal flow/thread records. */
static int same_side(const ws_side_result *a, const ws_side_result *b)
{
	ws_side_result x = *a, y = *b;
	x.flows = y.flows = NULL;
	x.threads = y.threads = NULL;
	if (memcmp(&x, &y, sizeof(x)) != 0)
		return 0;
	if (a->nflows && memcmp(a->flows, b->flows, a->nflows * sizeof(*a->flows)) != 0)
		return 0;
	return !a->nthreads || memcmp(a->threads, b->threads, a->nthreads * sizeof(*a->threads)) == 0;
}

/* Whatever the tables accepted must survive encode then decode unchanged. */
static void check_reencode(const ws_test_spec *spec, const ws_side_result *side)
{
	ws_tlv_writer w = {0};
	ws_err err;
	ws_tlv_begin(&w, WS_MSG_RESULT);
	if (spec)
		ws_msg_put_spec(&w, spec);
	else
		ws_msg_put_side(&w, side);
	if (ws_tlv_finish(&w, &err) != 0)
		abort();
	ws_tlv_msg m = {.version = WS_TLV_VERSION, .type = WS_MSG_RESULT,
			.payload = w.buf + WS_TLV_HDR_LEN, .len = (uint32_t)(w.len - WS_TLV_HDR_LEN)};
	if (ws_tlv_validate(&m, &err) != 0)
		abort();
	if (spec) {
		ws_test_spec again;
		if (ws_msg_get_spec(&m, &again, &err) != 0 || memcmp(&again, spec, sizeof(again)) != 0)
			abort();
	} else {
		ws_side_result again;
		if (ws_msg_get_side(&m, &again, &err) != 0 || !same_side(&again, side))
			abort();
		ws_side_result_free(&again);
	}
	ws_tlv_writer_free(&w);
}

static void decode(const ws_tlv_msg *m)
{
	ws_err err;
	ws_tlv_validate(m, &err);
	walk_getters(m);
	ws_test_spec spec;
	if (ws_msg_get_spec(m, &spec, &err) == 0) {
		ws_test_spec_validate(&spec, &err);
		check_reencode(&spec, NULL);
	}
	ws_side_result side;
	if (ws_msg_get_side(m, &side, &err) == 0) {
		if (side.hostname[sizeof(side.hostname) - 1] != '\0' ||
		    side.boot_id[sizeof(side.boot_id) - 1] != '\0')
			abort();
		check_reencode(NULL, &side);
		ws_side_result_free(&side);
	}
	ws_msg_error_to_err(m, "fuzz", &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* As a frame: header, then exactly the announced payload if it is all there. */
	if (size >= WS_TLV_HDR_LEN) {
		uint8_t type;
		uint32_t len;
		ws_err err;
		if (ws_tlv_parse_header(data, &type, &len, &err) == 0 &&
		    len <= size - WS_TLV_HDR_LEN) {
			uint8_t *p = malloc(len ? len : 1);
			if (!p)
				return 0;
			memcpy(p, data + WS_TLV_HDR_LEN, len);
			ws_tlv_msg m = {.version = data[4], .type = type, .payload = p, .len = len};
			decode(&m);
			free(p);
		}
	}
	/* As a bare payload. */
	if (size <= WS_TLV_MAX_PAYLOAD) {
		uint8_t *p = malloc(size ? size : 1);
		if (!p)
			return 0;
		memcpy(p, data, size);
		ws_tlv_msg m = {.version = WS_TLV_VERSION, .type = 0, .payload = p,
				.len = (uint32_t)size};
		decode(&m);
		free(p);
	}
	return 0;
}
