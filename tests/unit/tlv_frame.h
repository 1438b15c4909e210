/* SPDX-License-Identifier: BSD-2-Clause */
/* tlv_frame: a control message built by a test, seen as the receiver sees it; shared by
 * test_msg.c and test_echoports.c. Header-only. */
#ifndef WS_TEST_TLV_FRAME_H
#define WS_TEST_TLV_FRAME_H

#include "ctl/tlv.h"

/* Finish a frame and view its payload as a received message. */
static int as_msg(ws_tlv_writer *w, ws_tlv_msg *m, struct ws_err *err)
{
	int rc = ws_tlv_finish(w, err);
	if (rc < 0)
		return rc;
	uint8_t type;
	uint32_t len;
	rc = ws_tlv_parse_header(w->buf, &type, &len, err);
	if (rc < 0)
		return rc;
	m->version = w->buf[4];
	m->type = type;
	m->payload = w->buf + WS_TLV_HDR_LEN;
	m->len = len;
	return ws_tlv_validate(m, err);
}

#endif
