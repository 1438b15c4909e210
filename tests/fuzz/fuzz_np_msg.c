/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_np_msg: arbitrary bytes as a received netperf 656-byte control message, through
 * every decoder of src/ctl/npmsg.c that the daemon or the client runs on peer input.
 *
 * The input is copied into an exactly-sized 656-byte heap block (shorter inputs are
 * zero-padded, longer ones cut), so ASan reports any read past the message. Decoded
 * strings must be NUL-terminated within their fields, and whatever a decoder accepts must
 * encode and decode again to the same struct. Build with `make build/fuzz/fuzz_np_msg`. */
#include "ctl/npmsg.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TERMINATED(a) (memchr((a), '\0', sizeof(a)) != NULL)

static void req(const uint8_t *m)
{
	ws_np_omni_req r, again;
	uint8_t out[WS_NP_MSG_LEN];
	ws_err err;
	if (ws_np_decode_omni_req(m, &r, &err) != 0)
		return;
	if (!TERMINATED(r.cong_control) || !TERMINATED(r.fill_file))
		abort();
	ws_np_encode_omni_req(&r, out);
	if (ws_np_decode_omni_req(out, &again, &err) != 0 || memcmp(&r, &again, sizeof(r)) != 0)
		abort();
}

static void rsp(const uint8_t *m)
{
	ws_np_omni_rsp r, again;
	uint8_t out[WS_NP_MSG_LEN];
	ws_err err;
	if (ws_np_decode_omni_rsp(m, &r, &err) != 0)
		return;
	if (!TERMINATED(r.system_model) || !TERMINATED(r.cpu_model) || !TERMINATED(r.security_string))
		abort();
	if (r.serv_errno != 0)
		return;
	ws_np_encode_omni_rsp(&r, out);
	if (ws_np_decode_omni_rsp(out, &again, &err) != 0 || memcmp(&r, &again, sizeof(r)) != 0)
		abort();
}

static void results(const uint8_t *m)
{
	ws_np_omni_results r, again;
	uint8_t out[WS_NP_MSG_LEN];
	ws_err err;
	if (ws_np_decode_omni_results(m, &r, &err) != 0)
		abort(); /* every bit pattern decodes */
	if (!TERMINATED(r.ifname) || !TERMINATED(r.driver) || !TERMINATED(r.version) ||
	    !TERMINATED(r.firmware) || !TERMINATED(r.bus) || !TERMINATED(r.ifslot) ||
	    !TERMINATED(r.cong_control))
		abort();
	ws_np_results_check_cpu(&r, &err);
	ws_np_encode_omni_results(&r, out);
	/* Floats compare as bits: NaN payloads must survive. */
	if (ws_np_decode_omni_results(out, &again, &err) != 0 || memcmp(&r, &again, sizeof(r)) != 0)
		abort();
}

/* The legacy DO_TCP_STREAM exchange (TCP_SENDFILE). */
static void legacy(const uint8_t *m)
{
	ws_np_stream_req q, q2;
	ws_np_stream_rsp r, r2;
	ws_np_stream_results s;
	uint8_t out[WS_NP_MSG_LEN];
	ws_err err;
	if (ws_np_decode_stream_req(m, &q, &err) == 0) {
		ws_np_encode_stream_req(&q, out);
		if (ws_np_decode_stream_req(out, &q2, &err) != 0 || memcmp(&q, &q2, sizeof(q)) != 0)
			abort();
	}
	if (ws_np_decode_stream_rsp(m, &r, &err) == 0 && r.serv_errno == 0) {
		ws_np_encode_stream_rsp(&r, out);
		if (ws_np_decode_stream_rsp(out, &r2, &err) != 0 || memcmp(&r, &r2, sizeof(r)) != 0)
			abort();
	}
	if (ws_np_decode_stream_results(m, &s, &err) == 0 && !(s.bytes_received >= 0))
		abort();
}

static void others(const uint8_t *m)
{
	char text[WS_NP_MSG_LEN], small[8];
	float rate;
	int32_t n;
	ws_err err;
	if (ws_np_decode_passphrase(m, text, sizeof(text), &err) == 0 && strlen(text) > WS_NP_PASSPHRASE_MAX)
		abort();
	if (ws_np_decode_passphrase(m, small, sizeof(small), &err) == 0 && strlen(small) >= sizeof(small))
		abort();
	if (ws_np_decode_sysinfo_reply(m, small, sizeof(small), &err) == 0 && strlen(small) >= sizeof(small))
		abort();
	if (ws_np_decode_calibrate_reply(m, &rate, &n, &err) == 0 && (n < 1 || !(rate >= 0.0f)))
		abort();
	(void)ws_np_type_name(ws_np_type(m));
	(void)ws_np_conv_words(ws_np_type(m));
	(void)ws_np_is_legacy_request(ws_np_type(m));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *m = calloc(1, WS_NP_MSG_LEN);
	if (!m)
		return 0;
	memcpy(m, data, size < WS_NP_MSG_LEN ? size : WS_NP_MSG_LEN);
	req(m);
	rsp(m);
	results(m);
	legacy(m);
	others(m);
	free(m);
	return 0;
}
