/* SPDX-License-Identifier: BSD-2-Clause */
/* wire: the WARPLab 7.7.1 Ethernet packet format, as codecs both ends of the link share.
 *
 * The node emulator and the host transport must agree byte for byte with a real WARP v3
 * board, so every header is read and written here, one byte at a time in big-endian order
 * (never by casting a struct over a buffer), which makes the result the same on every host
 * byte order and lets each decoder check the length it was given before it reads. Nothing
 * here keeps state except the checksum accumulator the caller owns.
 *
 * A datagram is: 2-byte pad, 12-byte transport header, then (except for triggers) an 8-byte
 * command header and 32-bit argument words; sample packets carry a 12-byte sample header and
 * the samples as the arguments. See docs/wire/warplab.md. */
#ifndef WS_IQ_WIRE_H
#define WS_IQ_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "util/bytes.h"

/* Sizes and offsets of one datagram (offsets from the first byte of the UDP payload). */
#define WS_WIRE_PAD_LEN        2
#define WS_WIRE_TRANSPORT_LEN  12
#define WS_WIRE_CMD_LEN        8
#define WS_WIRE_SAMPLE_HDR_LEN 12
#define WS_WIRE_OFF_TRANSPORT  2
#define WS_WIRE_OFF_CMD        14
#define WS_WIRE_OFF_ARGS       22
#define WS_WIRE_OFF_TRIGGER    14 /* trigger bitmask word, no command header */
#define WS_WIRE_OFF_SAMPLES    34 /* first sample word of a sample packet */
#define WS_WIRE_SAMPLE_PKT_HDR 34 /* pad + transport + command + sample header */
#define WS_WIRE_TRIGGER_LEN    18 /* a whole trigger datagram */

/* Transport header: packet types, flags and IDs. */
enum {
	WS_WIRE_PKT_TRIGGER = 0,
	WS_WIRE_PKT_HOST_TO_NODE = 1,
	WS_WIRE_PKT_NODE_TO_HOST = 2,
};
#define WS_WIRE_FLAG_ROBUST         0x0001u
#define WS_WIRE_FLAG_NODE_NOT_READY 0x8000u
#define WS_WIRE_ID_BROADCAST        0xFFFFu
#define WS_WIRE_HOST_ID_DEFAULT     250u

/* Command groups (the top byte of a command word). */
enum {
	WS_WIRE_GROUP_NODE = 0x00,
	WS_WIRE_GROUP_TRANSPORT = 0x10,
	WS_WIRE_GROUP_INTERFACE = 0x20,
	WS_WIRE_GROUP_BASEBAND = 0x30,
	WS_WIRE_GROUP_TRIGGER = 0x40,
	WS_WIRE_GROUP_USER = 0x50,
};

/* Command words of WARPLab 7.7.1 (IDs changed between 7.x releases; these are 7.7.1's). */
#define WS_WIRE_CMD_NODE_INITIALIZE   0x00000001u
#define WS_WIRE_CMD_NODE_INFO         0x00000002u
#define WS_WIRE_CMD_PING              0x10000001u
#define WS_WIRE_CMD_PAYLOAD_SIZE_TEST 0x10000002u
#define WS_WIRE_CMD_TX_LENGTH         0x30000002u
#define WS_WIRE_CMD_TX_BUFF_EN        0x30000004u
#define WS_WIRE_CMD_RX_BUFF_EN        0x30000005u
#define WS_WIRE_CMD_WRITE_IQ          0x30000008u
#define WS_WIRE_CMD_READ_IQ           0x30000009u
#define WS_WIRE_CMD_READ_RSSI         0x3000000Au
#define WS_WIRE_CMD_RX_LENGTH         0x3000000Bu
#define WS_WIRE_CMD_WRITE_IQ_CHECKSUM 0x3000000Cu
#define WS_WIRE_CMD_MAX_NUM_SAMPLES   0x3000000Du

/* Status words and the argument values of the length commands. */
#define WS_WIRE_STATUS_OK    0u
#define WS_WIRE_STATUS_ERROR 0xFF000000u
#define WS_WIRE_ARG_WRITE    0u
#define WS_WIRE_ARG_READ     1u
/* Write IQ acknowledgement status word. */
#define WS_WIRE_WRITE_OK        0u
#define WS_WIRE_WRITE_IQ_ERROR  1u
#define WS_WIRE_WRITE_NOT_READY 2u
#define WS_WIRE_NOT_READY_WORDS 6 /* TX/RX status, pointer and length after NOT_READY */

/* Sample header: buffer bits and flags. */
#define WS_WIRE_RF_A                 0x1u
#define WS_WIRE_RF_B                 0x2u
#define WS_WIRE_RF_C                 0x4u
#define WS_WIRE_RF_D                 0x8u
#define WS_WIRE_SFLAG_IQ_ERROR       0x01u
#define WS_WIRE_SFLAG_IQ_NOT_READY   0x02u
#define WS_WIRE_SFLAG_CHECKSUM_RESET 0x10u
#define WS_WIRE_SFLAG_LAST_WRITE     0x20u

/* NODE_INFO: number of words and the version word of a WARP v3 running WARPLab 7.7.1. */
#define WS_WIRE_NODE_INFO_WORDS 13
#define WS_WIRE_HW_V3           3u
#define WS_WIRE_WL_MAJOR        7u
#define WS_WIRE_WL_MINOR        7u
#define WS_WIRE_WL_REV          1u

typedef struct ws_wire_transport {
	uint16_t dest_id;
	uint16_t src_id;
	uint8_t reserved;
	uint8_t pkt_type;
	uint16_t length;
	uint16_t seq;
	uint16_t flags;
} ws_wire_transport;

typedef struct ws_wire_cmd {
	uint32_t cmd;    /* (group << 24) | id */
	uint16_t length; /* bytes of arguments, as claimed by the sender */
	uint16_t num_args;
} ws_wire_cmd;

typedef struct ws_wire_sample_hdr {
	uint16_t buffer; /* RF bitmask */
	uint8_t flags;
	uint8_t iq_id;
	uint32_t start; /* first sample index */
	uint32_t count; /* samples that follow */
} ws_wire_sample_hdr;

/* One parsed datagram. args points into the caller's packet; args_len is what the datagram
 * really holds after the command header (or after the transport header for a trigger),
 * which is the only length a receiver may trust. */
typedef struct ws_wire_msg {
	ws_wire_transport tr;
	ws_wire_cmd cmd; /* all zero for a trigger */
	int is_trigger;
	uint32_t trigger_ids; /* trigger bitmask, for a trigger only */
	const uint8_t *args;
	size_t args_len;
} ws_wire_msg;

/* The fold state of the WARPLab Write IQ checksum (a Fletcher-32 variant). */
typedef struct ws_wire_csum {
	uint32_t s1, s2;
} ws_wire_csum;

/* Encoders write one header at buf (the transport encoder writes the header only, without
 * the pad). Each returns the bytes written, or -WS_E_INVAL when cap is too small (nothing
 * written then). */
int ws_wire_put_transport(uint8_t *buf, size_t cap, const ws_wire_transport *t);
int ws_wire_put_cmd(uint8_t *buf, size_t cap, const ws_wire_cmd *c);
int ws_wire_put_sample_hdr(uint8_t *buf, size_t cap, const ws_wire_sample_hdr *s);
/* Writes n words big-endian; returns 4n or -WS_E_INVAL if 4n > cap. */
int ws_wire_put_words(uint8_t *buf, size_t cap, const uint32_t *words, size_t n);

/* Decoders read one header from buf; 0 on success, -WS_E_PROTO when len is too short
 * (out untouched then). */
int ws_wire_get_transport(const uint8_t *buf, size_t len, ws_wire_transport *out);
int ws_wire_get_cmd(const uint8_t *buf, size_t len, ws_wire_cmd *out);
int ws_wire_get_sample_hdr(const uint8_t *buf, size_t len, ws_wire_sample_hdr *out);
/* Reads up to max words from buf[0..len): returns how many whole words were read. */
size_t ws_wire_get_words(const uint8_t *buf, size_t len, uint32_t *out, size_t max);

/* Builds a whole datagram: pad, transport header, then the command header (omitted when c is
 * NULL, as for a trigger) and n argument words. Returns the datagram length, or -WS_E_INVAL
 * when it does not fit in cap. The transport length field is written as given in t. */
int ws_wire_build(uint8_t *buf, size_t cap, const ws_wire_transport *t, const ws_wire_cmd *c,
		  const uint32_t *words, size_t n);

/* Splits a datagram into its headers. Triggers (pkt_type 0) need the 4-byte bitmask; every
 * other type needs a command header. Does not check addressing, flags or the claimed length
 * fields (the receiver decides), only that each header it reads is there. 0 or -WS_E_PROTO. */
int ws_wire_parse(const uint8_t *pkt, size_t len, ws_wire_msg *out);

/* The transport length a node writes into a response of udp_len bytes of UDP payload: the
 * reference's "whole payload length + 2" read as the transport header and all that follows
 * it plus the 2-byte pad, i.e. the UDP payload length (hosts ignore the field). */
uint16_t ws_wire_node_length(size_t udp_len);
/* The transport length a host writes: the bytes after the transport header. */
uint16_t ws_wire_host_length(size_t udp_len);

/* Samples per packet for a payload size from PAYLOAD_SIZE_TEST: (payload/4 - 8) rounded down
 * to a multiple of 4; 0 when the payload cannot carry one group of 4 samples.
 * 8964 -> 2232, 1468 -> 356. */
uint32_t ws_wire_samples_per_packet(uint32_t max_payload);

/* Checksum: reset clears the sums; add folds one 16-bit value; packet folds the two values
 * of one Write IQ packet (start & 0xFFFF, then I XOR Q of its last sample word, the word in
 * host order as ws_get_be32 returns it); value returns (s2 << 16) + s1. */
void ws_wire_csum_reset(ws_wire_csum *c);
void ws_wire_csum_add(ws_wire_csum *c, uint16_t v);
void ws_wire_csum_packet(ws_wire_csum *c, uint32_t start, uint32_t last_sample);
uint32_t ws_wire_csum_value(const ws_wire_csum *c);

/* Command table: the name of a 7.7.1 command word ("READ_IQ"), or NULL when the reference
 * does not list it; the name of a group byte ("baseband"), or NULL. */
const char *ws_wire_cmd_name(uint32_t cmd);
const char *ws_wire_group_name(uint8_t group);

/* One complex sample word from two 16-bit two's-complement values, and back. */
static inline uint32_t ws_wire_sample(int16_t i, int16_t q)
{
	return (uint32_t)(uint16_t)i << 16 | (uint16_t)q;
}
static inline int16_t ws_wire_sample_i(uint32_t w) { return (int16_t)(uint16_t)(w >> 16); }
static inline int16_t ws_wire_sample_q(uint32_t w) { return (int16_t)(uint16_t)w; }

#endif
