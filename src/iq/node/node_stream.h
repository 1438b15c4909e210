/* SPDX-License-Identifier: BSD-2-Clause */
/* node_stream: the node emulator's Read IQ streams, resumable and rate-capped.
 *
 * A Read IQ answer can be a gigabyte. It is therefore not sent in one go but as a stream
 * that the node's loop advances one sendmmsg batch at a time, round robin with the streams
 * of other sources and with the datagrams that keep arriving, each stream paced by its
 * source's token bucket (node_rate.h): a host under its cap loses nothing, and a host, or a
 * spoofed address, asking for more than its cap waits for its own tokens without holding
 * anyone else up. Refused Read IQ requests (errors, NOT_READY) are one sample packet, also
 * sent from here. */
#ifndef WS_IQ_NODE_STREAM_H
#define WS_IQ_NODE_STREAM_H

#include "iq/node/node_state.h"

/* Starts answering Read IQ m from p with RX samples [start, start+count) of each buffer in
 * mask (all checked by the caller), spp samples per packet; for a READ_RSSI m, words of
 * the RSSI buffers (node_mem.h) in the same packets with the READ_RSSI command word. Without a rate-cap entry for
 * the source it is dropped (rate_drops). Without a free stream slot the stream that has
 * sent the most is cut short for it (preempted; n->orphans set, since that source may have
 * datagrams held). */
void ws_node_stream_start(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, unsigned mask,
			  uint32_t start, uint32_t count, uint32_t spp);

/* Sends the next turn of stream s (WS_NODE_QUANTUM bytes, one packet when paced) when its
 * pacing and bucket allow at monotonic time now.
 * Returns -1 when the stream has ended (slot freed, bucket unpinned), otherwise how many
 * ns to wait before the next step (0: go on at once). A stop or a socket that fails for
 * good ends the stream (logged, counted). */
int64_t ws_node_stream_step(ws_node *n, ws_node_stream *s, int64_t now);

/* 1 while a stream to source address addr (host order) runs. */
int ws_node_stream_busy(const ws_node *n, uint32_t addr);

/* One sample packet without samples answering Read IQ (or READ_RSSI) m: IQ_ERROR, or
 * NOT_READY with the six status words of the board model. */
void ws_node_read_refuse(ws_node *n, const ws_node_peer *p, const ws_wire_msg *m, uint16_t buffer,
			 uint32_t start, int not_ready);

#endif
