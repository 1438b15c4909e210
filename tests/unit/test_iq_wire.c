/* SPDX-License-Identifier: BSD-2-Clause */
/* test_iq_wire: the WARPLab codecs against byte strings written by hand from
 * docs/wire/warplab.md, so a wrong field order or byte order cannot pass by agreeing
 * with itself. Every expected byte is spelled out; nothing depends on host byte order. */
#include "harness.h"

#include "iq/wire/wire.h"
#include "util/err.h"

static void test_transport_golden(void)
{
	/* PING from host 250 to node 0, seq 5, ROBUST, 8 bytes after the transport header. */
	static const uint8_t want[] = {0x00, 0x00, 0x00, 0xFA, 0x00, 0x01, 0x00, 0x08,
				       0x00, 0x05, 0x00, 0x01};
	ws_wire_transport t = {.dest_id = 0, .src_id = 250, .pkt_type = WS_WIRE_PKT_HOST_TO_NODE,
			       .length = 8, .seq = 5, .flags = WS_WIRE_FLAG_ROBUST};
	uint8_t b[12];
	CHECK_INT("put", ws_wire_put_transport(b, sizeof b, &t), 12);
	CHECK_MEM("bytes", b, want, 12);
	CHECK_INT("short cap", ws_wire_put_transport(b, 11, &t), -WS_E_INVAL);

	ws_wire_transport g;
	CHECK_INT("get", ws_wire_get_transport(want, sizeof want, &g), 0);
	CHECK_U64("dest", g.dest_id, 0);
	CHECK_U64("src", g.src_id, 250);
	CHECK_U64("type", g.pkt_type, 1);
	CHECK_U64("len", g.length, 8);
	CHECK_U64("seq", g.seq, 5);
	CHECK_U64("flags", g.flags, 1);
	CHECK_INT("get short", ws_wire_get_transport(want, 11, &g), -WS_E_PROTO);
}

static void test_cmd_and_sample_golden(void)
{
	static const uint8_t cmd[] = {0x30, 0x00, 0x00, 0x08, 0x00, 0x1C, 0x00, 0x01};
	static const uint8_t smp[] = {0x00, 0x03, 0x30, 0x09, 0x00, 0x01, 0x02, 0x03,
				      0x00, 0x00, 0x08, 0xB8};
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_WRITE_IQ, .length = 28, .num_args = 1};
	ws_wire_sample_hdr s = {.buffer = WS_WIRE_RF_A | WS_WIRE_RF_B,
				.flags = WS_WIRE_SFLAG_CHECKSUM_RESET | WS_WIRE_SFLAG_LAST_WRITE,
				.iq_id = 9, .start = 0x00010203, .count = 2232};
	uint8_t b[12];
	CHECK_INT("put cmd", ws_wire_put_cmd(b, 8, &c), 8);
	CHECK_MEM("cmd bytes", b, cmd, 8);
	CHECK_INT("put cmd short", ws_wire_put_cmd(b, 7, &c), -WS_E_INVAL);
	CHECK_INT("put smp", ws_wire_put_sample_hdr(b, 12, &s), 12);
	CHECK_MEM("smp bytes", b, smp, 12);
	CHECK_INT("put smp short", ws_wire_put_sample_hdr(b, 11, &s), -WS_E_INVAL);

	ws_wire_cmd gc;
	ws_wire_sample_hdr gs;
	CHECK_INT("get cmd", ws_wire_get_cmd(cmd, 8, &gc), 0);
	CHECK_U64("cmd", gc.cmd, 0x30000008);
	CHECK_U64("cmd len", gc.length, 28);
	CHECK_U64("nargs", gc.num_args, 1);
	CHECK_INT("get cmd short", ws_wire_get_cmd(cmd, 7, &gc), -WS_E_PROTO);
	CHECK_INT("get smp", ws_wire_get_sample_hdr(smp, 12, &gs), 0);
	CHECK_U64("buf", gs.buffer, 3);
	CHECK_U64("flags", gs.flags, 0x30);
	CHECK_U64("iq id", gs.iq_id, 9);
	CHECK_U64("start", gs.start, 0x00010203);
	CHECK_U64("count", gs.count, 2232);
	CHECK_INT("get smp short", ws_wire_get_sample_hdr(smp, 11, &gs), -WS_E_PROTO);
}

static void test_words(void)
{
	static const uint8_t want[] = {0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x00};
	uint32_t w[2] = {WS_WIRE_STATUS_ERROR, 32768}, r[3] = {0, 0, 7};
	uint8_t b[8];
	CHECK_INT("put", ws_wire_put_words(b, 8, w, 2), 8);
	CHECK_MEM("bytes", b, want, 8);
	CHECK_INT("put short", ws_wire_put_words(b, 7, w, 2), -WS_E_INVAL);
	CHECK_INT("get partial word ignored", (int)ws_wire_get_words(want, 7, r, 3), 1);
	CHECK_U64("w0", r[0], 0xFF000000);
	CHECK_INT("get max", (int)ws_wire_get_words(want, 8, r, 3), 2);
	CHECK_U64("w1", r[1], 32768);
	CHECK_U64("w2 untouched", r[2], 7);
}

static void test_build_and_parse(void)
{
	/* MAX_NUM_SAMPLES read request, seq 0x1234, as a host sends it. */
	static const uint8_t want[] = {0x00, 0x00, 0x00, 0x00, 0x00, 0xFA, 0x00, 0x01,
				       0x00, 0x0C, 0x12, 0x34, 0x00, 0x01, 0x30, 0x00,
				       0x00, 0x0D, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00,
				       0x00, 0x01};
	ws_wire_transport t = {.dest_id = 0, .src_id = 250, .pkt_type = 1,
			       .length = ws_wire_host_length(26), .seq = 0x1234, .flags = 1};
	ws_wire_cmd c = {.cmd = WS_WIRE_CMD_MAX_NUM_SAMPLES, .length = 4, .num_args = 1};
	uint32_t arg = WS_WIRE_ARG_READ;
	uint8_t b[64];
	CHECK_INT("build", ws_wire_build(b, sizeof b, &t, &c, &arg, 1), 26);
	CHECK_MEM("bytes", b, want, 26);
	CHECK_INT("build short", ws_wire_build(b, 25, &t, &c, &arg, 1), -WS_E_INVAL);

	ws_wire_msg m;
	CHECK_INT("parse", ws_wire_parse(want, sizeof want, &m), 0);
	CHECK_INT("not trigger", m.is_trigger, 0);
	CHECK_U64("cmd", m.cmd.cmd, 0x3000000D);
	CHECK_U64("seq", m.tr.seq, 0x1234);
	CHECK_INT("args len", (int)m.args_len, 4);
	CHECK("args ptr", m.args == want + 22);
	CHECK_INT("parse 21", ws_wire_parse(want, 21, &m), -WS_E_PROTO);
	CHECK_INT("parse 13", ws_wire_parse(want, 13, &m), -WS_E_PROTO);
	CHECK_INT("parse 0", ws_wire_parse(want, 0, &m), -WS_E_PROTO);
	CHECK_INT("parse 22 no args", ws_wire_parse(want, 22, &m), 0);
	CHECK_INT("no args", (int)m.args_len, 0);
}

static void test_trigger(void)
{
	/* The reference trigger: pkt_type 0, dest 0xFFFF, flags 0, length 4, bitmask 0x1. */
	static const uint8_t want[] = {0x00, 0x00, 0xFF, 0xFF, 0x00, 0xFA, 0x00, 0x00, 0x00,
				       0x04, 0x00, 0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
	ws_wire_transport t = {.dest_id = 0xFFFF, .src_id = 250, .pkt_type = 0, .length = 4,
			       .seq = 7};
	uint32_t ids = 1;
	uint8_t b[32];
	CHECK_INT("build", ws_wire_build(b, sizeof b, &t, NULL, &ids, 1), 18);
	CHECK_MEM("bytes", b, want, 18);
	ws_wire_msg m;
	CHECK_INT("parse", ws_wire_parse(want, 18, &m), 0);
	CHECK_INT("is trigger", m.is_trigger, 1);
	CHECK_U64("ids", m.trigger_ids, 1);
	CHECK_INT("parse short", ws_wire_parse(want, 17, &m), -WS_E_PROTO);
}

static void test_lengths(void)
{
	CHECK_INT("node len", ws_wire_node_length(8962), 8962);
	CHECK_INT("host len", ws_wire_host_length(8962), 8948);
	CHECK_INT("host len tiny", ws_wire_host_length(3), 0);
	CHECK_U64("spp jumbo", ws_wire_samples_per_packet(8964), 2232);
	CHECK_U64("spp 1500", ws_wire_samples_per_packet(1468), 356);
	CHECK_U64("spp 48", ws_wire_samples_per_packet(48), 4);
	CHECK_U64("spp too small", ws_wire_samples_per_packet(47), 0);
	/* A full jumbo sample packet is the benchmark table's 8962-byte "Pkt Size". */
	CHECK_INT("pkt", WS_WIRE_SAMPLE_PKT_HDR + 4 * 2232, 8962);
}

static void test_checksum(void)
{
	ws_wire_csum c;
	ws_wire_csum_reset(&c);
	CHECK_U64("empty", ws_wire_csum_value(&c), 0);
	/* start 0, last sample I=1 Q=2: values 0 and 3 -> s1 = 3, s2 = 3. */
	ws_wire_csum_packet(&c, 0, 0x00010002);
	CHECK_U64("one", ws_wire_csum_value(&c), 0x00030003);
	/* start 2232 (0x8B8), last sample I=0xFFFF Q=0: values 0x8B8 and 0xFFFF.
	 * s1 = 0x8BB, s2 = 0x8BE; then s1 = (0x8BB + 0xFFFF) mod 0xFFFF = 0x8BB,
	 * s2 = 0x8BE + 0x8BB = 0x1179. */
	ws_wire_csum_packet(&c, 2232, 0xFFFF0000);
	CHECK_U64("two", ws_wire_csum_value(&c), 0x117908BB);
	/* start only its low 16 bits: 0x10000 folds as 0. */
	ws_wire_csum_reset(&c);
	ws_wire_csum_packet(&c, 0x10000, 0x00050005);
	CHECK_U64("start low bits, I^Q=0", ws_wire_csum_value(&c), 0);
	ws_wire_csum_reset(&c);
	ws_wire_csum_add(&c, 0xFFFF);
	CHECK_U64("0xFFFF mod 0xFFFF", ws_wire_csum_value(&c), 0);
	ws_wire_csum_add(&c, 1);
	ws_wire_csum_add(&c, 2);
	CHECK_U64("1,2", ws_wire_csum_value(&c), (4u << 16) | 3u);
}

static void test_names_and_samples(void)
{
	CHECK_STR("read", ws_wire_cmd_name(0x30000009), "READ_IQ");
	CHECK_STR("write", ws_wire_cmd_name(0x30000008), "WRITE_IQ");
	CHECK_STR("ping", ws_wire_cmd_name(0x10000001), "PING");
	CHECK_STR("info", ws_wire_cmd_name(0x00000002), "NODE_INFO");
	CHECK_STR("csum", ws_wire_cmd_name(0x3000000C), "WRITE_IQ_CHECKSUM");
	CHECK_STR("max", ws_wire_cmd_name(0x3000000D), "MAX_NUM_SAMPLES");
	CHECK("7.4 read id unknown", ws_wire_cmd_name(0x30000007) == NULL);
	CHECK_STR("group", ws_wire_group_name(0x40), "trigger manager");
	CHECK("no group", ws_wire_group_name(0x60) == NULL);
	CHECK_U64("sample", ws_wire_sample(-1, 32767), 0xFFFF7FFF);
	CHECK_U64("sample2", ws_wire_sample(-32768, 1), 0x80000001);
	CHECK_INT("i", ws_wire_sample_i(0x80000001), -32768);
	CHECK_INT("q", ws_wire_sample_q(0xFFFF7FFF), 32767);
	uint8_t b[4];
	ws_put_be32(b, 0x01020304);
	CHECK_INT("be byte 0", b[0], 1);
	CHECK_INT("be byte 3", b[3], 4);
	CHECK_U64("get16", ws_get_be16(b + 1), 0x0203);
}

int main(void)
{
	RUN(test_transport_golden);
	RUN(test_cmd_and_sample_golden);
	RUN(test_words);
	RUN(test_build_and_parse);
	RUN(test_trigger);
	RUN(test_lengths);
	RUN(test_checksum);
	RUN(test_names_and_samples);
	TEST_MAIN_END();
}
