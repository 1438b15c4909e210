/* bench: the wl_benchmark runner and its table / JSON rendering; see bench.h.
 *
 * Trials are timed end to end with the monotonic clock around each library call, like
 * wl_benchmark's tic/toc around write_IQ / read_IQ, and the calling thread's CPU clock
 * gives the host cost. Reads are compared with the first read of their size outside the
 * timed region, so a benchmark never reports a speed for wrong samples. */
#include "iq/bench.h"

#include "util/clock.h"
#include "util/err.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const col[12] = {
	"ID", "WLVER", "Serial #", "Transport", "Pkt Size (B)", "Num Samples",
	"TX/RX Time (ms)", "Num Trials", "Avg Write IQ Time (ms)", "Avg Transfer Speed (Mbps)",
	"Avg Read IQ Time (ms)", "Avg Transfer Speed (Mbps)",
};

void ws_iq_bench_head_from(ws_iq_bench_head *h, const ws_iq_info *info, unsigned id)
{
	memset(h, 0, sizeof *h);
	h->id = id;
	snprintf(h->wlver, sizeof h->wlver, "%u.%u.%u", info->wl_major % 1000,
		 info->wl_minor % 1000, info->wl_rev % 1000);
	snprintf(h->serial, sizeof h->serial, "W3-a-%05u", info->serial % 100000);
	h->transport = "warpspeed UDP";
	h->pkt_size = info->packet_size;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void ws_iq_bench_stat_of(ws_iq_bench_stat *s, const int64_t *ns, const int64_t *cpu_ns,
			 int trials, uint32_t samples, int buffers)
{
	int kept = trials - WS_IQ_BENCH_DROP;
	double bits = (double)samples * buffers * 32;
	double *ms = malloc(sizeof *ms * (size_t)kept), sum = 0, cpu = 0;
	memset(s, 0, sizeof *s);
	if (!ms || kept < 1) {
		free(ms);
		return;
	}
	for (int i = 0; i < kept; i++) {
		ms[i] = (double)ns[WS_IQ_BENCH_DROP + i] / 1e6;
		sum += ms[i];
		cpu += (double)cpu_ns[WS_IQ_BENCH_DROP + i];
	}
	double avg = sum / kept;
	s->median_ms = median_of(ms, kept) / buffers;
	s->min_ms = ms[0] / buffers;
	s->max_ms = ms[kept - 1] / buffers;
	s->avg_ms = avg / buffers;
	/* Mb/s = bits / (ms * 1000): the mean's speed as wl_benchmark prints it. */
	s->avg_mbps = bits / (avg * 1e3);
	s->median_mbps = bits / (s->median_ms * buffers * 1e3);
	s->min_mbps = bits / (ms[kept - 1] * 1e3);
	s->max_mbps = bits / (ms[0] * 1e3);
	s->cpu_us_per_mb = cpu / 1e3 / ((double)samples * buffers * 4 * kept / 1e6);
	free(ms);
}

static int64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * WS_NS_PER_SEC + ts.tv_nsec;
}

static int check_config(ws_iq_node *n, const ws_iq_bench_config *c, ws_err *err)
{
	ws_iq_info in;
	ws_iq_get_info(n, &in);
	if (c->trials <= WS_IQ_BENCH_DROP || c->trials > WS_IQ_BENCH_MAX_TRIALS)
		return ws_err_set(err, WS_E_INVAL, "bench: %d trials: need %d..%d (the first %d are "
				  "dropped, as wl_benchmark does)", c->trials, WS_IQ_BENCH_DROP + 1,
				  WS_IQ_BENCH_MAX_TRIALS, WS_IQ_BENCH_DROP);
	if (c->nsizes == 0)
		return ws_err_set(err, WS_E_INVAL, "bench: no sample counts given");
	uint32_t max = in.max_tx_samples < in.max_rx_samples ? in.max_tx_samples
							     : in.max_rx_samples;
	for (size_t i = 0; i < c->nsizes; i++)
		if (c->sizes[i] == 0 || c->sizes[i] > max)
			return ws_err_set(err, WS_E_INVAL, "bench: %u samples: the node's buffers "
					  "hold 1..%u (TX %u, RX %u)", c->sizes[i], max,
					  in.max_tx_samples, in.max_rx_samples);
	return 0;
}

typedef struct bench_mem {
	uint8_t *w[4], *r[4], *first[4];
	int64_t *ns, *cpu;
} bench_mem;

static void mem_free(bench_mem *m)
{
	for (int i = 0; i < 4; i++) {
		free(m->w[i]);
		free(m->r[i]);
		free(m->first[i]);
	}
	free(m->ns);
	free(m->cpu);
}

static int mem_alloc(bench_mem *m, int nb, uint32_t samples, int trials, uint32_t seed)
{
	memset(m, 0, sizeof *m);
	size_t bytes = (size_t)samples * 4;
	m->ns = malloc(sizeof *m->ns * (size_t)trials);
	m->cpu = malloc(sizeof *m->cpu * (size_t)trials);
	int ok = m->ns && m->cpu;
	for (int b = 0; b < nb && ok; b++) {
		m->w[b] = malloc(bytes);
		m->r[b] = malloc(bytes);
		m->first[b] = malloc(bytes);
		ok = m->w[b] && m->r[b] && m->first[b];
		uint32_t s = seed * 2654435761u + (uint32_t)b + 1;
		for (size_t i = 0; ok && i < bytes; i++) {
			s ^= s << 13;
			s ^= s >> 17;
			s ^= s << 5;
			m->w[b][i] = (uint8_t)s;
		}
	}
	return ok ? 0 : -1;
}

/* trials calls of one direction; fills m->ns / m->cpu. */
static int run_dir(ws_iq_node *n, const ws_iq_bench_config *c, uint32_t samples, int nb,
		   bench_mem *m, int write, ws_err *err)
{
	ws_iq_error e;
	const void *src[4] = {m->w[0], m->w[1], m->w[2], m->w[3]};
	void *dst[4] = {m->r[0], m->r[1], m->r[2], m->r[3]};
	for (int t = 0; t < c->trials; t++) {
		int64_t c0 = thread_cpu_ns(), t0 = ws_clock_ns();
		int r = write ? ws_iq_write_multi(n, c->rf_mask, 0, samples, WS_IQ_FMT_BE32, src, &e)
			      : ws_iq_read(n, c->rf_mask, 0, samples, WS_IQ_FMT_BE32, dst, &e);
		m->ns[t] = ws_clock_ns() - t0;
		m->cpu[t] = thread_cpu_ns() - c0;
		if (r < 0)
			return ws_err_set(err, r < 0 ? -r : WS_E_REMOTE, "bench: %s of %u samples, "
					  "trial %d: %s", write ? "Write IQ" : "Read IQ", samples,
					  t + 1, e.msg);
		for (int b = 0; !write && b < nb; b++) {
			if (t == 0)
				memcpy(m->first[b], m->r[b], (size_t)samples * 4);
			else if (memcmp(m->first[b], m->r[b], (size_t)samples * 4) != 0)
				return ws_err_set(err, WS_E_PROTO, "bench: Read IQ of %u samples, trial "
						  "%d returned other samples than trial 1", samples,
						  t + 1);
		}
	}
	return 0;
}

int ws_iq_bench_run(ws_iq_node *n, const ws_iq_bench_config *c, ws_iq_bench_row *rows,
		    ws_err *err)
{
	int r = check_config(n, c, err), nb = 0;
	if (r < 0)
		return r;
	for (unsigned bit = 1; bit <= 8; bit <<= 1)
		nb += (c->rf_mask & bit) != 0;
	for (size_t i = 0; i < c->nsizes; i++) {
		bench_mem m;
		uint32_t s = c->sizes[i];
		if (mem_alloc(&m, nb, s, c->trials, c->seed + (uint32_t)i) < 0) {
			mem_free(&m);
			return ws_err_set(err, WS_E_INVAL, "bench: out of memory for %u samples", s);
		}
		rows[i] = (ws_iq_bench_row){.samples = s, .trials = c->trials,
					    .kept = c->trials - WS_IQ_BENCH_DROP, .buffers = nb};
		r = run_dir(n, c, s, nb, &m, 1, err);
		if (r == 0)
			ws_iq_bench_stat_of(&rows[i].write, m.ns, m.cpu, c->trials, s, nb);
		if (r == 0)
			r = run_dir(n, c, s, nb, &m, 0, err);
		if (r == 0)
			ws_iq_bench_stat_of(&rows[i].read, m.ns, m.cpu, c->trials, s, nb);
		mem_free(&m);
		if (r < 0)
			return r;
	}
	return 0;
}

/* The twelve cells of one row as text. */
static void row_cells(char cell[12][32], const ws_iq_bench_head *h, const ws_iq_bench_row *w)
{
	snprintf(cell[0], 32, "%u", h->id);
	snprintf(cell[1], 32, "%s", h->wlver);
	snprintf(cell[2], 32, "%s", h->serial);
	snprintf(cell[3], 32, "%.31s", h->transport);
	snprintf(cell[4], 32, "%u", h->pkt_size);
	snprintf(cell[5], 32, "%u", w->samples);
	snprintf(cell[6], 32, "%.2f", (double)w->samples / WS_IQ_BENCH_RATE * 1e3);
	snprintf(cell[7], 32, "%d", w->trials);
	snprintf(cell[8], 32, "%.2f", w->write.avg_ms);
	snprintf(cell[9], 32, "%.2f", w->write.avg_mbps);
	snprintf(cell[10], 32, "%.2f", w->read.avg_ms);
	snprintf(cell[11], 32, "%.2f", w->read.avg_mbps);
}

void ws_iq_bench_table(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows,
		       size_t n)
{
	int wd[12], total = 1;
	char cell[12][32];
	for (int i = 0; i < 12; i++)
		wd[i] = (int)strlen(col[i]);
	for (size_t r = 0; r < n; r++) {
		row_cells(cell, h, &rows[r]);
		for (int i = 0; i < 12; i++)
			if ((int)strlen(cell[i]) > wd[i])
				wd[i] = (int)strlen(cell[i]);
	}
	for (int i = 0; i < 12; i++) {
		fprintf(f, "| %-*s ", wd[i], col[i]);
		total += wd[i] + 3;
	}
	fprintf(f, "|\n");
	for (int i = 0; i < total; i++)
		fputc(i == 0 || i == total - 1 ? '|' : '-', f);
	fputc('\n', f);
	for (size_t r = 0; r < n; r++) {
		row_cells(cell, h, &rows[r]);
		for (int i = 0; i < 12; i++)
			fprintf(f, "| %*s ", wd[i], cell[i]);
		fprintf(f, "|\n");
	}
}

static void json_stat(FILE *f, const char *name, const ws_iq_bench_stat *s, int comma)
{
	fprintf(f, "      \"%s\": {\"avg_ms\": %.4f, \"avg_mbps\": %.2f, \"min_ms\": %.4f, "
		"\"median_ms\": %.4f, \"max_ms\": %.4f, \"min_mbps\": %.2f, \"median_mbps\": %.2f, "
		"\"max_mbps\": %.2f, \"cpu_us_per_mb\": %.2f}%s\n", name, s->avg_ms, s->avg_mbps,
		s->min_ms, s->median_ms, s->max_ms, s->min_mbps, s->median_mbps, s->max_mbps,
		s->cpu_us_per_mb, comma ? "," : "");
}

void ws_iq_bench_json(FILE *f, const ws_iq_bench_head *h, const ws_iq_bench_row *rows,
		      size_t n)
{
	fprintf(f, "{\n  \"rows\": [\n");
	for (size_t r = 0; r < n; r++) {
		const ws_iq_bench_row *w = &rows[r];
		fprintf(f, "    {\"id\": %u, \"wlver\": \"%s\", \"serial\": \"%s\", \"transport\": "
			"\"%s\", \"pkt_size\": %u, \"samples\": %u, \"txrx_time_ms\": %.4f, "
			"\"trials\": %d, \"kept\": %d, \"buffers\": %d,\n", h->id, h->wlver,
			h->serial, h->transport, h->pkt_size, w->samples,
			(double)w->samples / WS_IQ_BENCH_RATE * 1e3, w->trials, w->kept, w->buffers);
		json_stat(f, "write", &w->write, 1);
		json_stat(f, "read", &w->read, 0);
		fprintf(f, "    }%s\n", r + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}
