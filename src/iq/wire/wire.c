/* SPDX-License-Identifier: BSD-2-Clause */
/* wire: WARPLab 7.7.1 header codecs, checksum and command table; see wire.h.
 *
 * Every function checks the length it is given before touching a byte, because the node
 * feeds it whatever arrives on a UDP port and the fuzzer feeds it everything else. */
#include "iq/wire/wire.h"

#include "util/err.h"

int ws_wire_put_transport(uint8_t *buf, size_t cap, const ws_wire_transport *t)
{
	if (cap < WS_WIRE_TRANSPORT_LEN)
		return -WS_E_INVAL;
	ws_put_be16(buf, t->dest_id);
	ws_put_be16(buf + 2, t->src_id);
	buf[4] = t->reserved;
	buf[5] = t->pkt_type;
	ws_put_be16(buf + 6, t->length);
	ws_put_be16(buf + 8, t->seq);
	ws_put_be16(buf + 10, t->flags);
	return WS_WIRE_TRANSPORT_LEN;
}

int ws_wire_put_cmd(uint8_t *buf, size_t cap, const ws_wire_cmd *c)
{
	if (cap < WS_WIRE_CMD_LEN)
		return -WS_E_INVAL;
	ws_put_be32(buf, c->cmd);
	ws_put_be16(buf + 4, c->length);
	ws_put_be16(buf + 6, c->num_args);
	return WS_WIRE_CMD_LEN;
}

int ws_wire_put_sample_hdr(uint8_t *buf, size_t cap, const ws_wire_sample_hdr *s)
{
	if (cap < WS_WIRE_SAMPLE_HDR_LEN)
		return -WS_E_INVAL;
	ws_put_be16(buf, s->buffer);
	buf[2] = s->flags;
	buf[3] = s->iq_id;
	ws_put_be32(buf + 4, s->start);
	ws_put_be32(buf + 8, s->count);
	return WS_WIRE_SAMPLE_HDR_LEN;
}

int ws_wire_put_words(uint8_t *buf, size_t cap, const uint32_t *words, size_t n)
{
	if (n > cap / 4 || n > 0x1fffffff)
		return -WS_E_INVAL;
	for (size_t i = 0; i < n; i++)
		ws_put_be32(buf + 4 * i, words[i]);
	return (int)(4 * n);
}

int ws_wire_get_transport(const uint8_t *buf, size_t len, ws_wire_transport *out)
{
	if (len < WS_WIRE_TRANSPORT_LEN)
		return -WS_E_PROTO;
	out->dest_id = ws_get_be16(buf);
	out->src_id = ws_get_be16(buf + 2);
	out->reserved = buf[4];
	out->pkt_type = buf[5];
	out->length = ws_get_be16(buf + 6);
	out->seq = ws_get_be16(buf + 8);
	out->flags = ws_get_be16(buf + 10);
	return 0;
}

int ws_wire_get_cmd(const uint8_t *buf, size_t len, ws_wire_cmd *out)
{
	if (len < WS_WIRE_CMD_LEN)
		return -WS_E_PROTO;
	out->cmd = ws_get_be32(buf);
	out->length = ws_get_be16(buf + 4);
	out->num_args = ws_get_be16(buf + 6);
	return 0;
}

int ws_wire_get_sample_hdr(const uint8_t *buf, size_t len, ws_wire_sample_hdr *out)
{
	if (len < WS_WIRE_SAMPLE_HDR_LEN)
		return -WS_E_PROTO;
	out->buffer = ws_get_be16(buf);
	out->flags = buf[2];
	out->iq_id = buf[3];
	out->start = ws_get_be32(buf + 4);
	out->count = ws_get_be32(buf + 8);
	return 0;
}

size_t ws_wire_get_words(const uint8_t *buf, size_t len, uint32_t *out, size_t max)
{
	size_t n = len / 4;
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++)
		out[i] = ws_get_be32(buf + 4 * i);
	return n;
}

int ws_wire_build(uint8_t *buf, size_t cap, const ws_wire_transport *t, const ws_wire_cmd *c,
		  const uint32_t *words, size_t n)
{
	size_t need = WS_WIRE_PAD_LEN + WS_WIRE_TRANSPORT_LEN + (c ? WS_WIRE_CMD_LEN : 0);
	if (cap < need || n > (cap - need) / 4)
		return -WS_E_INVAL;
	buf[0] = 0;
	buf[1] = 0;
	size_t off = WS_WIRE_OFF_TRANSPORT;
	off += (size_t)ws_wire_put_transport(buf + off, cap - off, t);
	if (c)
		off += (size_t)ws_wire_put_cmd(buf + off, cap - off, c);
	off += (size_t)ws_wire_put_words(buf + off, cap - off, words, n);
	return (int)off;
}

int ws_wire_parse(const uint8_t *pkt, size_t len, ws_wire_msg *out)
{
	ws_wire_msg m = {0};
	if (len < WS_WIRE_OFF_CMD)
		return -WS_E_PROTO;
	ws_wire_get_transport(pkt + WS_WIRE_OFF_TRANSPORT, len - WS_WIRE_OFF_TRANSPORT, &m.tr);
	if (m.tr.pkt_type == WS_WIRE_PKT_TRIGGER) {
		if (len < WS_WIRE_TRIGGER_LEN)
			return -WS_E_PROTO;
		m.is_trigger = 1;
		m.trigger_ids = ws_get_be32(pkt + WS_WIRE_OFF_TRIGGER);
		m.args = pkt + WS_WIRE_OFF_TRIGGER;
		m.args_len = len - WS_WIRE_OFF_TRIGGER;
	} else {
		if (len < WS_WIRE_OFF_ARGS)
			return -WS_E_PROTO;
		ws_wire_get_cmd(pkt + WS_WIRE_OFF_CMD, len - WS_WIRE_OFF_CMD, &m.cmd);
		m.args = pkt + WS_WIRE_OFF_ARGS;
		m.args_len = len - WS_WIRE_OFF_ARGS;
	}
	*out = m;
	return 0;
}

uint16_t ws_wire_node_length(size_t udp_len) { return (uint16_t)udp_len; }

uint16_t ws_wire_host_length(size_t udp_len)
{
	size_t hdr = WS_WIRE_PAD_LEN + WS_WIRE_TRANSPORT_LEN;
	return (uint16_t)(udp_len > hdr ? udp_len - hdr : 0);
}

uint32_t ws_wire_samples_per_packet(uint32_t max_payload)
{
	uint32_t words = max_payload / 4;
	if (words < 8 + 4)
		return 0;
	return (words - 8) & ~3u;
}

void ws_wire_csum_reset(ws_wire_csum *c)
{
	c->s1 = 0;
	c->s2 = 0;
}

void ws_wire_csum_add(ws_wire_csum *c, uint16_t v)
{
	c->s1 = (c->s1 + v) % 0xFFFFu;
	c->s2 = (c->s2 + c->s1) % 0xFFFFu;
}

void ws_wire_csum_packet(ws_wire_csum *c, uint32_t start, uint32_t last_sample)
{
	ws_wire_csum_add(c, (uint16_t)(start & 0xFFFFu));
	ws_wire_csum_add(c, (uint16_t)((last_sample >> 16) ^ (last_sample & 0xFFFFu)));
}

uint32_t ws_wire_csum_value(const ws_wire_csum *c) { return (c->s2 << 16) + c->s1; }

static const struct {
	uint32_t cmd;
	const char *name;
} cmd_table[] = {
	{WS_WIRE_CMD_NODE_INITIALIZE, "NODE_INITIALIZE"},
	{WS_WIRE_CMD_NODE_INFO, "NODE_INFO"},
	{WS_WIRE_CMD_PING, "PING"},
	{WS_WIRE_CMD_PAYLOAD_SIZE_TEST, "PAYLOAD_SIZE_TEST"},
	{WS_WIRE_CMD_TX_LENGTH, "TX_LENGTH"},
	{WS_WIRE_CMD_TX_BUFF_EN, "TX_BUFF_EN"},
	{WS_WIRE_CMD_RX_BUFF_EN, "RX_BUFF_EN"},
	{WS_WIRE_CMD_WRITE_IQ, "WRITE_IQ"},
	{WS_WIRE_CMD_READ_IQ, "READ_IQ"},
	{WS_WIRE_CMD_READ_RSSI, "READ_RSSI"},
	{WS_WIRE_CMD_RX_LENGTH, "RX_LENGTH"},
	{WS_WIRE_CMD_WRITE_IQ_CHECKSUM, "WRITE_IQ_CHECKSUM"},
	{WS_WIRE_CMD_MAX_NUM_SAMPLES, "MAX_NUM_SAMPLES"},
};

const char *ws_wire_cmd_name(uint32_t cmd)
{
	for (size_t i = 0; i < sizeof cmd_table / sizeof cmd_table[0]; i++)
		if (cmd_table[i].cmd == cmd)
			return cmd_table[i].name;
	return NULL;
}

const char *ws_wire_group_name(uint8_t group)
{
	switch (group) {
	case WS_WIRE_GROUP_NODE:
		return "node";
	case WS_WIRE_GROUP_TRANSPORT:
		return "transport";
	case WS_WIRE_GROUP_INTERFACE:
		return "interface";
	case WS_WIRE_GROUP_BASEBAND:
		return "baseband";
	case WS_WIRE_GROUP_TRIGGER:
		return "trigger manager";
	case WS_WIRE_GROUP_USER:
		return "user";
	default:
		return NULL;
	}
}
