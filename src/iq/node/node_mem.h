/* SPDX-License-Identifier: BSD-2-Clause */
/* node_mem: the node emulator's sample memory, in copy-on-write chunks.
 *
 * A board's DDR holds up to 2 GiB of samples, and a host may touch one word of it: memory
 * must be committed only for what was written, and a trigger must not cost a copy of
 * everything ever written. Every TX and RX buffer is a table of fixed-size chunks (16 Ki
 * samples, 64 KiB), each a reference to a block: a TX chunk never written is no block and
 * reads as zero; an RX chunk never captured into is the test signal (which repeats every
 * 2^16 samples, so four blocks of it per interface serve every chunk); a trigger makes RX
 * chunks reference the TX blocks (or the one zero block) instead of copying, and a later
 * Write IQ into a shared TX block copies that one chunk first. A trigger therefore costs
 * O(chunks) pointer moves plus at most one chunk copy for a partial last chunk, and memory
 * is O(chunks written). Blocks are their own anonymous mappings; up to WS_NODE_MEM_SPARE
 * freed ones (4 MiB) are kept for reuse, the rest are given back to the system at once.
 * A host can commit a 64 KiB chunk with one 4-byte sample, so what is mapped (blocks in
 * use and spare, plus the chunk tables) is held within a budget, max_bytes: a chunk beyond
 * it is refused (counted) like a failed mapping, whatever the pattern of writes and
 * triggers. ws_node_mem_need gives the budget that fits every state of the buffers, which
 * a budget below it trades for bounded memory. Samples are stored as big-endian wire
 * words. */
#ifndef WS_IQ_NODE_MEM_H
#define WS_IQ_NODE_MEM_H

#include <stddef.h>
#include <stdint.h>

#define WS_NODE_MEM_MAX_RF    4
#define WS_NODE_CHUNK_SHIFT   14 /* 16 Ki samples per chunk */
#define WS_NODE_CHUNK_SAMPLES (1u << WS_NODE_CHUNK_SHIFT)
#define WS_NODE_CHUNK_BYTES   ((size_t)WS_NODE_CHUNK_SAMPLES * 4)
#define WS_NODE_MEM_SPARE     64                               /* freed blocks kept for reuse */
#define WS_NODE_SIGNAL_BLOCKS (65536u / WS_NODE_CHUNK_SAMPLES) /* the signal's period */

typedef struct ws_node_block ws_node_block;

typedef struct ws_node_mem {
	int rf;
	uint32_t tx_samples, rx_samples;
	uint32_t tx_chunks, rx_chunks;
	ws_node_block **tx[WS_NODE_MEM_MAX_RF]; /* NULL entry: never written, reads 0 */
	ws_node_block **rx[WS_NODE_MEM_MAX_RF]; /* NULL entry: the test signal */
	uint32_t tx_extent[WS_NODE_MEM_MAX_RF]; /* one past the highest sample written */
	ws_node_block *zero;                    /* shared, read-only, made on first need */
	ws_node_block *signal[WS_NODE_MEM_MAX_RF][WS_NODE_SIGNAL_BLOCKS]; /* on first read */
	ws_node_block *rssi[WS_NODE_MEM_MAX_RF]; /* the RSSI pattern, on first read */
	ws_node_block *spare[WS_NODE_MEM_SPARE]; /* freed, still mapped: reused first */
	unsigned n_spare;
	uint64_t blocks;         /* blocks in use (each once), spares not */
	uint64_t max_blocks;     /* blocks + spares mapped at most; 0: any */
	uint64_t alloc_failures; /* mappings the system refused */
	uint64_t refused;        /* chunks refused by the budget */
} ws_node_mem;

/* The test signal's word for sample i of interface rf (see ws_node_test_sample). */
uint32_t ws_node_mem_signal_word(int rf, uint32_t i);

/* The RSSI buffers: rx_samples 10-bit values per interface, two to a word (the earlier in
 * bits 25..16, the later in bits 9..0), so (rx_samples + 1) / 2 words. Value k of
 * interface rf is (5k + 200 rf) mod 1024; it repeats every 512 words, so one block per
 * interface serves the whole buffer. Word i of interface rf, host order: */
uint32_t ws_node_mem_rssi_word(int rf, uint32_t i);
#define WS_NODE_RSSI_WORDS(rx_samples) (((uint64_t)(rx_samples) + 1) / 2)

/* Like ws_node_mem_rx_span, for the RSSI words from pos of interface rf. */
uint32_t ws_node_mem_rssi_span(ws_node_mem *m, int rf, uint32_t pos, uint32_t want,
			       const uint8_t **p);

/* The bytes of the chunk tables of rf interfaces of tx / rx samples. */
uint64_t ws_node_mem_tables(int rf, uint32_t tx_samples, uint32_t rx_samples);

/* The budget that no sequence of writes, triggers and reads can exceed: the tables, every
 * TX and RX chunk distinct, the zero, signal and RSSI blocks, the spares, and one block in
 * flight of a copy. */
uint64_t ws_node_mem_need(int rf, uint32_t tx_samples, uint32_t rx_samples);

/* The least budget accepted: the tables and 64 chunks (4 MiB). */
uint64_t ws_node_mem_least(int rf, uint32_t tx_samples, uint32_t rx_samples);

/* Sets up empty tables for rf interfaces of tx / rx samples (1..2^30 each) within
 * max_bytes of mapped memory (0: no budget; else at least ws_node_mem_least). No sample
 * memory is mapped. Returns 0, or -1 when the tables cannot be allocated (then
 * ws_node_mem_free is still safe). */
int ws_node_mem_init(ws_node_mem *m, int rf, uint32_t tx_samples, uint32_t rx_samples,
		     uint64_t max_bytes);

/* Bytes mapped now: the tables, the blocks in use and the spares. */
uint64_t ws_node_mem_mapped(const ws_node_mem *m);

/* Releases every block and table; m may be initialised again. */
void ws_node_mem_free(ws_node_mem *m);

/* Stores count wire words from src at TX sample start of every interface in mask. The
 * range must lie inside the TX buffer (the caller checks). Returns 0, or -1 when a chunk
 * could not be mapped (alloc_failures counts it; earlier chunks keep what was stored). */
int ws_node_mem_write(ws_node_mem *m, unsigned mask, uint32_t start, const uint8_t *src,
		      uint32_t count);

/* The loopback channel for one interface: RX samples [0, len) become TX samples [0, len)
 * (len <= both buffer sizes), RX samples from len on keep their content. Returns 0, or -1
 * when the partial last chunk could not be mapped (the whole chunks are done). */
int ws_node_mem_capture(ws_node_mem *m, int rf, uint32_t len);

/* Where RX samples from pos of interface rf are: *p gets their address and the result is
 * how many of the next want samples lie there contiguously (at least 1 when want > 0).
 * pos + want must lie inside the buffer. Returns 0 when the test signal could not be
 * mapped. The memory stays valid until the next write, capture or free. */
uint32_t ws_node_mem_rx_span(ws_node_mem *m, int rf, uint32_t pos, uint32_t want,
			     const uint8_t **p);

/* Copies TX (tx != 0) or RX samples [pos, pos + count) of interface rf as wire words into
 * dst, for tests and checks. Returns 0, or -1 as ws_node_mem_rx_span fails. */
int ws_node_mem_read(ws_node_mem *m, int tx, int rf, uint32_t pos, uint32_t count, uint8_t *dst);

#endif
