/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_iq_wire: libFuzzer target for the WARPLab packet parser and the node's dispatcher.
 *
 * Each input is one datagram: it goes through ws_wire_parse and the header decoders, then
 * into a socket-less node (ws_node_feed) with small buffers and four RF interfaces, so the
 * command handlers, the Write IQ store, the Read IQ range checks and the trigger path all
 * see arbitrary bytes. Replies are only counted. The node persists across inputs so state
 * (lengths, checksum, enabled buffers) accumulates as it would on the wire. */
#include "iq/node/node.h"
#include "iq/wire/wire.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ws_node *fuzz_node(void)
{
	static ws_node *n;
	if (!n) {
		ws_node_config c;
		ws_node_config_default(&c);
		c.port = -1;
		c.rf = 4;
		c.tx_samples = c.rx_samples = 1u << 16;
		if (ws_node_create(&c, &n, NULL) < 0)
			abort();
	}
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ws_wire_msg m;
	if (ws_wire_parse(data, size, &m) == 0) {
		ws_wire_sample_hdr s;
		uint32_t w[8];
		if (ws_wire_get_sample_hdr(m.args, m.args_len, &s) == 0 && s.count)
			(void)ws_wire_cmd_name(s.start);
		(void)ws_wire_get_words(m.args, m.args_len, w, 8);
		(void)ws_wire_cmd_name(m.cmd.cmd);
		(void)ws_wire_group_name((uint8_t)(m.cmd.cmd >> 24));
	}
	ws_node_feed(fuzz_node(), data, size);
	return 0;
}
