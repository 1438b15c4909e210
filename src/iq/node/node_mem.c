/* SPDX-License-Identifier: BSD-2-Clause */
/* node_mem: copy-on-write chunked sample memory of the node emulator; see node_mem.h.
 *
 * The invariants: a block with refs == 0 is pinned (the zero block and the signal blocks,
 * never freed before ws_node_mem_free); any other block is referenced refs times from the
 * TX and RX tables together and is written only while refs == 1. Every write therefore goes
 * through own_tx / own_rx, which copy a shared chunk first. */
#include "iq/node/node_mem.h"

#include "util/bytes.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(65536u % WS_NODE_CHUNK_SAMPLES == 0, "chunks must divide the signal's period");

struct ws_node_block {
	uint32_t refs; /* 0 = pinned */
	uint8_t *data; /* WS_NODE_CHUNK_BYTES, its own mapping */
};

uint32_t ws_node_mem_signal_word(int rf, uint32_t i)
{
	uint16_t iv = (uint16_t)(i * 7u + (uint32_t)rf * 1000u);
	return (uint32_t)iv << 16 | (uint16_t)~iv;
}

/* A new block holding a copy of from (NULL: zeros). A block given back recently is reused
 * first: its pages are resident, which spares a copy-on-write 64 page faults. */
static ws_node_block *block_new(ws_node_mem *m, const uint8_t *from, uint32_t refs)
{
	ws_node_block *b;
	if (m->n_spare) {
		b = m->spare[--m->n_spare];
		if (!from)
			memset(b->data, 0, WS_NODE_CHUNK_BYTES);
	} else if (m->max_blocks && m->blocks >= m->max_blocks) {
		m->refused++;
		return NULL;
	} else {
		b = malloc(sizeof *b);
		void *p = b ? mmap(NULL, WS_NODE_CHUNK_BYTES, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
			    : MAP_FAILED;
		if (p == MAP_FAILED) {
			free(b);
			m->alloc_failures++;
			return NULL;
		}
		/* No MADV_HUGEPAGE: with THP defrag "madvise" each fault compacts memory,
		 * which made the first touch of a large buffer ten times slower. */
		b->data = p;
	}
	b->refs = refs;
	if (from)
		memcpy(b->data, from, WS_NODE_CHUNK_BYTES);
	m->blocks++;
	return b;
}

static void block_unmap(ws_node_block *b)
{
	munmap(b->data, WS_NODE_CHUNK_BYTES);
	free(b);
}

static void block_release(ws_node_mem *m, ws_node_block *b)
{
	m->blocks--;
	if (m->n_spare < WS_NODE_MEM_SPARE)
		m->spare[m->n_spare++] = b;
	else
		block_unmap(b);
}

static ws_node_block *block_ref(ws_node_block *b)
{
	if (b && b->refs)
		b->refs++;
	return b;
}

static void block_put(ws_node_mem *m, ws_node_block *b)
{
	if (b && b->refs && --b->refs == 0)
		block_release(m, b);
}

static ws_node_block *zero_block(ws_node_mem *m)
{
	if (!m->zero)
		m->zero = block_new(m, NULL, 0);
	return m->zero;
}

/* The test signal as chunk c reads it: chunks WS_NODE_SIGNAL_BLOCKS apart are identical,
 * because the signal repeats every 2^16 samples. */
static ws_node_block *signal_block(ws_node_mem *m, int rf, uint32_t c)
{
	uint32_t v = c % WS_NODE_SIGNAL_BLOCKS;
	if (!m->signal[rf][v]) {
		ws_node_block *b = block_new(m, NULL, 0);
		if (!b)
			return NULL;
		uint32_t first = v * WS_NODE_CHUNK_SAMPLES;
		for (uint32_t i = 0; i < WS_NODE_CHUNK_SAMPLES; i++)
			ws_put_be32(b->data + 4 * (size_t)i,
				    ws_node_mem_signal_word(rf, first + i));
		m->signal[rf][v] = b;
	}
	return m->signal[rf][v];
}

uint32_t ws_node_mem_rssi_word(int rf, uint32_t i)
{
	uint32_t k = 2 * i, base = 200u * (uint32_t)rf;
	return ((5u * k + base) & 0x3FFu) << 16 | ((5u * (k + 1) + base) & 0x3FFu);
}

_Static_assert(WS_NODE_CHUNK_SAMPLES % 512 == 0, "a block must hold whole RSSI periods");

uint32_t ws_node_mem_rssi_span(ws_node_mem *m, int rf, uint32_t pos, uint32_t want,
			       const uint8_t **p)
{
	if (!m->rssi[rf]) {
		ws_node_block *b = block_new(m, NULL, 0);
		if (!b)
			return 0;
		for (uint32_t i = 0; i < WS_NODE_CHUNK_SAMPLES; i++)
			ws_put_be32(b->data + 4 * (size_t)i, ws_node_mem_rssi_word(rf, i));
		m->rssi[rf] = b;
	}
	uint32_t off = pos & (WS_NODE_CHUNK_SAMPLES - 1);
	*p = m->rssi[rf]->data + (size_t)off * 4;
	uint32_t n = WS_NODE_CHUNK_SAMPLES - off;
	return want < n ? want : n;
}

static uint32_t chunks_of(uint32_t samples)
{
	return (uint32_t)(((uint64_t)samples + WS_NODE_CHUNK_SAMPLES - 1) >> WS_NODE_CHUNK_SHIFT);
}

static int rf_of(int rf) { return rf > WS_NODE_MEM_MAX_RF ? WS_NODE_MEM_MAX_RF : rf < 1 ? 1 : rf; }

uint64_t ws_node_mem_tables(int rf, uint32_t tx_samples, uint32_t rx_samples)
{
	return (uint64_t)rf_of(rf) * ((uint64_t)chunks_of(tx_samples) + chunks_of(rx_samples)) *
		sizeof(ws_node_block *);
}

uint64_t ws_node_mem_need(int rf, uint32_t tx_samples, uint32_t rx_samples)
{
	uint64_t r = (uint64_t)rf_of(rf);
	uint64_t blocks = r * ((uint64_t)chunks_of(tx_samples) + chunks_of(rx_samples)) + 1 +
		r * (WS_NODE_SIGNAL_BLOCKS + 1) + WS_NODE_MEM_SPARE + 1;
	return ws_node_mem_tables(rf, tx_samples, rx_samples) + blocks * WS_NODE_CHUNK_BYTES;
}

uint64_t ws_node_mem_least(int rf, uint32_t tx_samples, uint32_t rx_samples)
{
	return ws_node_mem_tables(rf, tx_samples, rx_samples) + 64 * WS_NODE_CHUNK_BYTES;
}

uint64_t ws_node_mem_mapped(const ws_node_mem *m)
{
	return ws_node_mem_tables(m->rf, m->tx_samples, m->rx_samples) +
		(m->blocks + m->n_spare) * WS_NODE_CHUNK_BYTES;
}

int ws_node_mem_init(ws_node_mem *m, int rf, uint32_t tx_samples, uint32_t rx_samples,
		     uint64_t max_bytes)
{
	memset(m, 0, sizeof *m);
	m->rf = rf_of(rf);
	if (max_bytes) {
		uint64_t t = ws_node_mem_tables(rf, tx_samples, rx_samples);
		m->max_blocks = max_bytes > t ? (max_bytes - t) / WS_NODE_CHUNK_BYTES : 1;
	}
	m->tx_samples = tx_samples;
	m->rx_samples = rx_samples;
	m->tx_chunks = chunks_of(tx_samples);
	m->rx_chunks = chunks_of(rx_samples);
	for (int i = 0; i < m->rf; i++) {
		m->tx[i] = calloc(m->tx_chunks, sizeof *m->tx[i]);
		m->rx[i] = calloc(m->rx_chunks, sizeof *m->rx[i]);
		if (!m->tx[i] || !m->rx[i])
			return -1;
	}
	return 0;
}

void ws_node_mem_free(ws_node_mem *m)
{
	for (int i = 0; i < WS_NODE_MEM_MAX_RF; i++) {
		for (uint32_t c = 0; m->tx[i] && c < m->tx_chunks; c++)
			block_put(m, m->tx[i][c]);
		for (uint32_t c = 0; m->rx[i] && c < m->rx_chunks; c++)
			block_put(m, m->rx[i][c]);
		free(m->tx[i]);
		free(m->rx[i]);
		m->tx[i] = m->rx[i] = NULL;
		for (unsigned v = 0; v < WS_NODE_SIGNAL_BLOCKS; v++) {
			if (m->signal[i][v])
				block_release(m, m->signal[i][v]);
			m->signal[i][v] = NULL;
		}
		if (m->rssi[i])
			block_release(m, m->rssi[i]);
		m->rssi[i] = NULL;
	}
	if (m->zero)
		block_release(m, m->zero);
	m->zero = NULL;
	while (m->n_spare)
		block_unmap(m->spare[--m->n_spare]);
}

/* The TX block of chunk c, private to TX and writable (mapped or copied as needed). */
static ws_node_block *own_tx(ws_node_mem *m, int rf, uint32_t c)
{
	ws_node_block *b = m->tx[rf][c];
	if (b && b->refs == 1)
		return b;
	ws_node_block *nb = block_new(m, b ? b->data : NULL, 1);
	if (!nb)
		return NULL;
	block_put(m, b);
	m->tx[rf][c] = nb;
	return nb;
}

/* The RX block of chunk c, private to RX and writable, holding what the chunk read as. */
static ws_node_block *own_rx(ws_node_mem *m, int rf, uint32_t c)
{
	ws_node_block *b = m->rx[rf][c];
	if (b && b->refs == 1)
		return b;
	const ws_node_block *from = b ? b : signal_block(m, rf, c);
	ws_node_block *nb = from ? block_new(m, from->data, 1) : NULL;
	if (!nb)
		return NULL;
	block_put(m, b);
	m->rx[rf][c] = nb;
	return nb;
}

int ws_node_mem_write(ws_node_mem *m, unsigned mask, uint32_t start, const uint8_t *src,
		      uint32_t count)
{
	uint64_t end = (uint64_t)start + count;
	for (int rf = 0; rf < m->rf; rf++) {
		if (!(mask >> rf & 1))
			continue;
		const uint8_t *s = src;
		for (uint64_t pos = start; pos < end;) {
			uint32_t c = (uint32_t)(pos >> WS_NODE_CHUNK_SHIFT);
			uint32_t off = (uint32_t)(pos & (WS_NODE_CHUNK_SAMPLES - 1));
			uint64_t n = WS_NODE_CHUNK_SAMPLES - off;
			if (n > end - pos)
				n = end - pos;
			ws_node_block *b = own_tx(m, rf, c);
			if (!b)
				return -1;
			memcpy(b->data + (size_t)off * 4, s, (size_t)n * 4);
			s += n * 4;
			pos += n;
		}
		if (end > m->tx_extent[rf])
			m->tx_extent[rf] = (uint32_t)end;
	}
	return 0;
}

int ws_node_mem_capture(ws_node_mem *m, int rf, uint32_t len)
{
	for (uint32_t c = 0; (uint64_t)c << WS_NODE_CHUNK_SHIFT < len; c++) {
		uint64_t c0 = (uint64_t)c << WS_NODE_CHUNK_SHIFT;
		uint64_t rx_end = c0 + WS_NODE_CHUNK_SAMPLES;
		if (rx_end > m->rx_samples)
			rx_end = m->rx_samples;
		ws_node_block *tx = m->tx[rf][c];
		if (rx_end <= len) {
			/* The whole RX chunk becomes the TX chunk: share it. Chunks that already
			 * do (what an unchanged TX leaves after the last trigger) cost a
			 * compare, so a trigger touches only the blocks that changed. */
			ws_node_block *nb = tx ? tx : zero_block(m);
			if (nb == m->rx[rf][c])
				continue;
			if (!nb)
				return -1;
			block_put(m, m->rx[rf][c]);
			m->rx[rf][c] = block_ref(nb);
			continue;
		}
		/* The last chunk, partly: [c0, len) from TX, the rest keeps its content. */
		ws_node_block *b = own_rx(m, rf, c);
		if (!b)
			return -1;
		size_t bytes = (size_t)(len - c0) * 4;
		if (tx)
			memcpy(b->data, tx->data, bytes);
		else
			memset(b->data, 0, bytes);
	}
	return 0;
}

uint32_t ws_node_mem_rx_span(ws_node_mem *m, int rf, uint32_t pos, uint32_t want, const uint8_t **p)
{
	uint32_t c = pos >> WS_NODE_CHUNK_SHIFT;
	uint32_t off = pos & (WS_NODE_CHUNK_SAMPLES - 1);
	const ws_node_block *b = m->rx[rf][c] ? m->rx[rf][c] : signal_block(m, rf, c);
	if (!b)
		return 0;
	*p = b->data + (size_t)off * 4;
	uint32_t n = WS_NODE_CHUNK_SAMPLES - off;
	return want < n ? want : n;
}

int ws_node_mem_read(ws_node_mem *m, int tx, int rf, uint32_t pos, uint32_t count, uint8_t *dst)
{
	while (count) {
		const uint8_t *src;
		uint32_t n;
		if (tx) {
			uint32_t off = pos & (WS_NODE_CHUNK_SAMPLES - 1);
			const ws_node_block *b = m->tx[rf][pos >> WS_NODE_CHUNK_SHIFT];
			n = WS_NODE_CHUNK_SAMPLES - off < count ? WS_NODE_CHUNK_SAMPLES - off
								: count;
			if (b)
				memcpy(dst, b->data + (size_t)off * 4, (size_t)n * 4);
			else
				memset(dst, 0, (size_t)n * 4);
		} else {
			n = ws_node_mem_rx_span(m, rf, pos, count, &src);
			if (!n)
				return -1;
			memcpy(dst, src, (size_t)n * 4);
		}
		dst += (size_t)n * 4;
		pos += n;
		count -= n;
	}
	return 0;
}
