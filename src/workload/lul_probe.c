/* SPDX-License-Identifier: BSD-2-Clause */
/* lul_probe: paced UDP, TCP and ICMP probes of an RRUL run; see lul_probe.h. */
#include "workload/lul_probe.h"

#include "net/sockopt.h"
#include "util/clock.h"
#include "util/err.h"
#include "workload/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define PING_RANGE "/proc/sys/net/ipv4/ping_group_range"
#define MAX_GROUPS 64
/* Paced: after a round leaves, read the replies without sleeping this long, so a reply
 * that comes back within it pays no wake-up of the probe thread (docs/rrul.md). */
#define SPIN_NS (300 * WS_NS_PER_US)

enum kind { K_UDP, K_TCP, K_ICMP };
enum rstate { R_NONE, R_PENDING, R_ANSWERED, R_LOST, R_SKIPPED };

struct ws_lul_probe {
	uint32_t item; /* plan index */
	enum kind kind;
	int fd;
	bool v6;
	int64_t *sent; /* per round */
	double *rtt;   /* per round, ms */
	unsigned char *st;
	size_t pushed;      /* rounds pushed to the series so far */
	int64_t last_heard; /* an answer, or the first send */
	int64_t tcp_round;  /* the TCP request in flight, -1 = none */
	uint32_t *cnt;      /* back to back: transactions completed per round */
	uint32_t seq;       /* back to back: the request in flight */
	int64_t tx_sent;    /* back to back: when it left, 0 = none in flight */
	bool again;         /* back to back: answered, the next to leave */
	uint64_t answers;   /* requests answered */
};

bool ws_lul_groups_in_range(const unsigned *gids, int n, unsigned lo, unsigned hi)
{
	for (int i = 0; i < n; i++)
		if (gids[i] >= lo && gids[i] <= hi)
			return true;
	return false;
}

bool ws_lul_icmp_allowed(char *why, size_t whysz)
{
	FILE *f = fopen(PING_RANGE, "r");
	unsigned lo = 1, hi = 0;
	bool read_ok = f && fscanf(f, "%u %u", &lo, &hi) == 2;
	if (f)
		fclose(f);
	if (!read_ok) {
		snprintf(why, whysz, "cannot read %s", PING_RANGE);
		return false;
	}
	gid_t g[MAX_GROUPS];
	unsigned gids[MAX_GROUPS + 1];
	int n = getgroups(MAX_GROUPS, g);
	if (n < 0)
		n = 0;
	for (int i = 0; i < n; i++)
		gids[i] = (unsigned)g[i];
	gids[n++] = (unsigned)getegid();
	if (ws_lul_groups_in_range(gids, n, lo, hi))
		return true;
	snprintf(why, whysz,
		 "unprivileged ICMP sockets are off for this process's groups (%s is %u %u, "
		 "group %u)",
		 PING_RANGE, lo, hi, (unsigned)getegid());
	return false;
}

static size_t rounds_of(const ws_lul_probes *ps)
{
	double iv = ps->plan->interval_s;
	double d = (double)ps->duration_ns / WS_NS_PER_SEC;
	size_t n = (size_t)ceil(d / iv - 1e-9);
	return n ? n : 1;
}

/* udp_index: which UDP probe this is (its echo socket at the daemon). */
static int open_one(ws_lul_probes *ps, ws_lul_probe *p, int tcp_fd, const ws_lul_echo *echo,
		    uint32_t udp_index, ws_err *err)
{
	const ws_lul_item *it = &ps->plan->item[p->item];
	int fam = ws_addr_family(&echo->addr);
	p->v6 = fam == AF_INET6;
	p->tcp_round = -1;
	if (p->kind == K_TCP) {
		p->fd = tcp_fd;
		int one = 1;
		setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		return 0;
	}
	int proto = p->kind == K_UDP ? 0 : p->v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP;
	p->fd = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, proto);
	if (p->fd < 0) {
		if (p->kind == K_ICMP) {
			snprintf(ps->out->skipped[p->item], sizeof(ps->out->skipped[0]),
				 "cannot open an ICMP socket: %s", strerror(errno));
			return 1;
		}
		return ws_err_errno(err, "cannot open the %s probe's socket", it->name);
	}
	ws_addr to = echo->addr;
	ws_addr_set_port(&to, p->kind == K_ICMP ? 0 : echo->port[udp_index % echo->n]);
	ws_sockopt_req r = {.tos = it->tos};
	ws_sockopt_applied a;
	int rc = it->tos > 0 ? ws_sockopt_apply(p->fd, &r, &a, err) : 0;
	r.tos = 1;
	ws_sockopt_read(p->fd, &r, &a);
	ps->out->tos_local[p->item] = a.tos;
	if (rc == 0 && connect(p->fd, (const struct sockaddr *)&to.ss, to.len) < 0)
		rc = ws_err_errno(err, "cannot connect the %s probe's socket", it->name);
	if (rc < 0) {
		close(p->fd);
		p->fd = -1;
	}
	return rc;
}

int ws_lul_probes_open(ws_lul_probes *ps, const ws_lul_plan *plan, ws_lul_result *out, int tcp_fd,
		       const ws_lul_echo *echo, ws_err *err)
{
	if (echo->n == 0 || echo->n > WS_LUL_UDP_PROBES)
		return ws_err_set(err, WS_E_INVAL, "%u echo ports for the UDP probes (1 to %d)",
				  echo->n, WS_LUL_UDP_PROBES);
	memset(ps, 0, sizeof(*ps));
	ps->plan = plan;
	ps->out = out;
	ps->p = calloc(plan->nprobes ? plan->nprobes : 1, sizeof(*ps->p));
	if (!ps->p)
		return ws_err_set(err, ENOMEM, "no memory for the probes");
	uint32_t first = plan->nup + plan->ndown, nudp = 0;
	for (uint32_t i = 0; i < plan->nprobes; i++) {
		const ws_lul_item *it = &plan->item[first + i];
		ws_lul_probe *p = &ps->p[ps->n];
		p->item = first + i;
		p->kind = strcmp(it->probe, "udp") == 0 ? K_UDP
			: strcmp(it->probe, "tcp") == 0 ? K_TCP
							: K_ICMP;
		p->fd = -1;
		if (p->kind == K_ICMP &&
		    !ws_lul_icmp_allowed(out->skipped[p->item], sizeof(out->skipped[0])))
			continue;
		int rc = open_one(ps, p, tcp_fd, echo, nudp, err);
		if (rc < 0) {
			ws_lul_probes_close(ps);
			return rc;
		}
		if (p->kind == K_UDP)
			nudp++;
		if (rc == 0)
			ps->n++;
	}
	out->echo_sockets = nudp < echo->n ? nudp : echo->n;
	return 0;
}

void ws_lul_probes_close(ws_lul_probes *ps)
{
	for (uint32_t i = 0; ps->p && i < ps->n; i++) {
		ws_lul_probe *p = &ps->p[i];
		if (p->fd >= 0 && p->kind != K_TCP)
			close(p->fd);
		free(p->sent);
		free(p->rtt);
		free(p->st);
		free(p->cnt);
	}
	free(ps->p);
	ps->p = NULL;
	ps->n = 0;
}

/* One request of sequence seq; true when the kernel took it. */
static bool send_one(ws_lul_probe *p, uint32_t seq)
{
	unsigned char b[WS_LUL_UDP_PROBE_SZ + 8];
	memset(b, 0, sizeof(b));
	if (p->kind == K_TCP) {
		b[0] = 'p';
		return send(p->fd, b, 1, MSG_NOSIGNAL | MSG_DONTWAIT) == 1;
	}
	if (p->kind == K_UDP) {
		uint32_t w[2] = {htonl(WS_LUL_UDP_MAGIC), htonl(seq)};
		memcpy(b, w, sizeof(w));
		b[8] = (unsigned char)p->item;
		return send(p->fd, b, WS_LUL_UDP_PROBE_SZ, MSG_DONTWAIT) == WS_LUL_UDP_PROBE_SZ;
	}
	/* type, code, checksum (the kernel's), id (the kernel's), sequence */
	b[0] = p->v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
	uint16_t s16 = htons((uint16_t)seq);
	memcpy(b + 6, &s16, 2);
	return send(p->fd, b, 16, MSG_DONTWAIT) == 16;
}

static void send_round(ws_lul_probe *p, size_t k, int64_t now)
{
	if (p->kind == K_TCP && p->tcp_round >= 0) {
		p->st[k] = R_SKIPPED;
		return;
	}
	if (send_one(p, (uint32_t)k) && p->kind == K_TCP)
		p->tcp_round = (int64_t)k;
	p->sent[k] = ws_clock_ns(); /* each probe's own instant, not the round's */
	p->st[k] = R_PENDING;       /* a refused send is a lost probe, as a dropped one */
	if (!p->last_heard)
		p->last_heard = now;
}

static void answered(ws_lul_probe *p, size_t k, int64_t now)
{
	if (p->st[k] != R_PENDING)
		return; /* late (already lost) or a duplicate */
	p->st[k] = R_ANSWERED;
	p->rtt[k] = (double)(now - p->sent[k]) / 1e6;
	p->last_heard = now;
}

/* A reply of r bytes in b: true with *seq, the sequence it answers (TCP: 0), when it is
 * one of this probe's; it also records the mark a UDP reply says the daemon saw. */
static bool reply_seq(ws_lul_probes *ps, ws_lul_probe *p, const unsigned char *b, ssize_t r,
		      uint32_t *seq)
{
	*seq = 0;
	if (p->kind == K_TCP)
		return true;
	if (p->kind == K_UDP) {
		uint32_t w[2];
		if (r < WS_LUL_UDP_PROBE_SZ)
			return false;
		memcpy(w, b, sizeof(w));
		if (ntohl(w[0]) != WS_LUL_UDP_MAGIC || b[8] != p->item)
			return false;
		if (ps->out->tos_remote[p->item] !=
		    b[9]) /* shared with the other probes' threads */
			ps->out->tos_remote[p->item] = b[9];
		*seq = ntohl(w[1]);
		return true;
	}
	if (r < 8 || b[0] != (p->v6 ? ICMP6_ECHO_REPLY : ICMP_ECHOREPLY))
		return false;
	uint16_t s16;
	memcpy(&s16, b + 6, 2);
	*seq = ntohs(s16);
	return true;
}

/* Paced: reads every reply waiting on p, each answers its round. Returns the replies
 * read. */
static int on_readable(ws_lul_probes *ps, ws_lul_probe *p, size_t sent_rounds)
{
	unsigned char b[256];
	int got = 0;
	for (;;) {
		ssize_t r = recv(p->fd, b, sizeof(b), MSG_DONTWAIT);
		int64_t now = ws_clock_ns(); /* this reply's arrival, as near as the read */
		uint32_t seq;
		if (r < 0)
			return got;
		if (p->kind == K_TCP && r == 0) {
			snprintf(ps->why, sizeof(ps->why),
				 "the daemon closed the TCP probe's connection");
			return got;
		}
		if (!reply_seq(ps, p, b, r, &seq))
			continue;
		got++;
		if (p->kind == K_TCP) {
			for (ssize_t i = 0; i < r && p->tcp_round >= 0; i++) {
				answered(p, (size_t)p->tcp_round, now);
				p->tcp_round = -1;
			}
		} else if (p->kind == K_UDP) {
			if (seq < sent_rounds)
				answered(p, seq, now);
		} else if (sent_rounds) {
			size_t last = sent_rounds - 1;
			size_t back = (size_t)((uint16_t)((uint16_t)last - (uint16_t)seq));
			if (back <= last)
				answered(p, last - back, now);
		}
	}
}

/* The sample of resolved round k: paced, its round trip or NaN (lost); back to back, the
 * mean of the round's transactions, NaN when a UDP or ICMP probe completed none (a TCP
 * probe's empty round has no sample, as a skipped paced round). */
static void push_round(ws_lul_probes *ps, ws_lul_probe *p, size_t k)
{
	double t = (double)llround((double)k * ps->plan->interval_s * 1e6) / 1e6; /* µs */
	if (ps->plan->back_to_back) {
		if (p->cnt[k])
			ws_series_push(&ps->out->set, (int)p->item, t, p->rtt[k] / p->cnt[k]);
		else if (p->kind != K_TCP)
			ws_series_push(&ps->out->set, (int)p->item, t, NAN);
	} else if (p->st[k] == R_ANSWERED) {
		ws_series_push(&ps->out->set, (int)p->item, t, p->rtt[k]);
		p->answers++;
	} else if (p->st[k] == R_LOST) {
		ws_series_push(&ps->out->set, (int)p->item, t, NAN);
	}
}

/* Resolved rounds (below done) go to the series in order. Returns false when this probe
 * shows the daemon gone (why set). */
static bool push_and_check(ws_lul_probes *ps, ws_lul_probe *p, size_t done, int64_t now)
{
	pthread_mutex_lock(ps->mu);
	while (p->pushed < done && (ps->plan->back_to_back || p->st[p->pushed] != R_PENDING))
		push_round(ps, p, p->pushed++);
	pthread_mutex_unlock(ps->mu);
	int64_t timeout = (int64_t)(WS_LUL_PROBE_TIMEOUT_S * WS_NS_PER_SEC);
	int64_t dead = (int64_t)(WS_LUL_DEAD_S * WS_NS_PER_SEC);
	if (p->kind != K_ICMP && p->last_heard && now - p->last_heard >= dead &&
	    now - p->last_heard >= 3 * timeout) {
		snprintf(ps->why, sizeof(ps->why), "the %s probe got no answer for %.1f s",
			 ps->plan->item[p->item].name,
			 (double)(now - p->last_heard) / WS_NS_PER_SEC);
		return false;
	}
	return true;
}

/* Paced: rounds past their timeout are lost; resolved rounds go to the series. */
static bool settle(ws_lul_probes *ps, ws_lul_probe *p, size_t sent_rounds, int64_t now)
{
	int64_t timeout = (int64_t)(WS_LUL_PROBE_TIMEOUT_S * WS_NS_PER_SEC);
	for (size_t k = p->pushed; k < sent_rounds; k++)
		if (p->kind != K_TCP && p->st[k] == R_PENDING && now - p->sent[k] >= timeout)
			p->st[k] = R_LOST;
	return push_and_check(ps, p, sent_rounds, now);
}

static bool any_pending(const ws_lul_probes *ps, size_t sent_rounds)
{
	for (uint32_t i = 0; i < ps->n; i++)
		if (ps->p[i].pushed < sent_rounds)
			return true;
	return false;
}

/* Paced: true while a probe of round k waits for its reply. */
static bool round_waiting(const ws_lul_probes *ps, size_t k)
{
	for (uint32_t i = 0; i < ps->n; i++)
		if (ps->p[i].st[k] == R_PENDING)
			return true;
	return false;
}

/* Paced: after round k left, read replies without sleeping for up to SPIN_NS. */
static void spin_round(ws_lul_probes *ps, size_t k, int64_t from)
{
	while (round_waiting(ps, k) && ws_clock_ns() - from < SPIN_NS && !ps->why[0])
		for (uint32_t i = 0; i < ps->n; i++)
			if (ps->p[i].st[k] == R_PENDING)
				on_readable(ps, &ps->p[i], k + 1);
}

static void b2b_send(ws_lul_probe *p)
{
	p->seq++;
	send_one(p, p->seq); /* a refused send times out as a dropped one */
	p->tx_sent = ws_clock_ns();
	if (!p->last_heard)
		p->last_heard = p->tx_sent;
}

/* Back to back: the transaction in flight is answered, in the round (of interval_s) it
 * completed in; the next leaves (again) unless the run's rounds are over. */
static void b2b_done(ws_lul_probes *ps, ws_lul_probe *p, size_t nr, int64_t now)
{
	int64_t iv = (int64_t)(ps->plan->interval_s * WS_NS_PER_SEC);
	int64_t k = (now - ps->t0_ns) / iv; /* the round it completed in, as netperf -D */
	if (k >= 0 && (size_t)k < nr) {
		p->rtt[k] += (double)(now - p->tx_sent) / 1e6;
		p->cnt[k]++;
		p->answers++;
	}
	p->last_heard = now;
	p->tx_sent = 0;
	p->again = k >= 0 && (size_t)k < nr;
}

/* The wait for the next event: until wake, at most 50 ms (timeouts, the stop flag). */
static int wait_replies(ws_lul_probes *ps, struct pollfd *pf, int64_t now, int64_t wake)
{
	if (wake > now + 50 * WS_NS_PER_MS)
		wake = now + 50 * WS_NS_PER_MS;
	for (uint32_t i = 0; i < ps->n; i++)
		pf[i] = (struct pollfd){.fd = ps->p[i].fd, .events = POLLIN};
	int64_t left = wake - now;
	struct timespec ts = {(time_t)(left / WS_NS_PER_SEC), (long)(left % WS_NS_PER_SEC)};
	return ppoll(pf, ps->n, left > 0 ? &ts : &(struct timespec){0, 0}, NULL);
}

static void paced_loop(ws_lul_probes *ps, size_t nr)
{
	struct pollfd pf[WS_LUL_MAX_PROBES];
	int64_t iv = (int64_t)(ps->plan->interval_s * WS_NS_PER_SEC);
	size_t k = 0;
	while (!atomic_load(ps->stop) && !ps->why[0]) {
		int64_t now = ws_clock_ns();
		if (k < nr && now >= ps->t0_ns + (int64_t)k * iv) {
			for (uint32_t i = 0; i < ps->n; i++)
				send_round(&ps->p[i], k, now);
			spin_round(ps, k, now);
			k++;
			now = ws_clock_ns();
		}
		bool alive = true;
		for (uint32_t i = 0; i < ps->n && alive; i++)
			alive = settle(ps, &ps->p[i], k, now);
		if (!alive || (k == nr && !any_pending(ps, k)))
			break;
		int64_t wake = k < nr ? ps->t0_ns + (int64_t)k * iv : now + 50 * WS_NS_PER_MS;
		int n = wait_replies(ps, pf, now, wake);
		for (uint32_t i = 0; n > 0 && i < ps->n; i++)
			if (pf[i].revents)
				on_readable(ps, &ps->p[i], k);
	}
}

/* Back to back, one probe in a thread of its own: the socket blocks in its receive, as
 * netperf's does (a send and a receive per transaction, no poll), for at most 50 ms, so
 * the clock, the timeout and the stop flag are looked at that often. */
static void b2b_one_loop(ws_lul_probes *ps, size_t nr)
{
	ws_lul_probe *p = ps->p;
	int64_t iv = (int64_t)(ps->plan->interval_s * WS_NS_PER_SEC);
	int64_t timeout = (int64_t)(WS_LUL_PROBE_TIMEOUT_S * WS_NS_PER_SEC);
	struct timeval tick = {0, 50 * 1000};
	fcntl(p->fd, F_SETFL, fcntl(p->fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(p->fd, SOL_SOCKET, SO_RCVTIMEO, &tick, sizeof(tick));
	while (ws_clock_ns() < ps->t0_ns && !atomic_load(ps->stop))
		ws_clock_sleep_ns(ps->t0_ns - ws_clock_ns() > 20 * WS_NS_PER_MS
					  ? 20 * WS_NS_PER_MS
					  : ps->t0_ns - ws_clock_ns());
	b2b_send(p);
	int64_t end = ps->t0_ns + (int64_t)nr * iv;
	unsigned char b[256];
	while (!atomic_load(ps->stop) && !ps->why[0]) {
		ssize_t r = recv(p->fd, b, sizeof(b), 0);
		int64_t now = ws_clock_ns(); /* this reply's arrival, as near as the read */
		uint32_t seq;
		if (p->kind == K_TCP && r == 0)
			snprintf(ps->why, sizeof(ps->why),
				 "the daemon closed the TCP probe's connection");
		else if (r > 0 && reply_seq(ps, p, b, r, &seq) && p->tx_sent &&
			 (p->kind == K_TCP ||
			  (p->kind == K_UDP ? seq == p->seq : (uint16_t)seq == (uint16_t)p->seq)))
			b2b_done(ps, p, nr, now);
		if (p->kind != K_TCP && p->tx_sent && now < end && now - p->tx_sent >= timeout)
			b2b_send(p);
		size_t done = (size_t)((now - ps->t0_ns) / iv);
		if (done > nr)
			done = nr;
		/* the lock shared with the other probes and the sampler: once a step, and when
		 * no reply came (the daemon may be gone) */
		if ((done > p->pushed || r <= 0) && !push_and_check(ps, p, done, now))
			break;
		if (done == nr)
			break;
		if (p->again) {
			p->again = false;
			b2b_send(p);
		}
	}
}

/* Back to back, one probe: its own thread, as netperf runs a process per probe, so no
 * probe's transaction waits for another's. */
struct b2b_worker {
	ws_lul_probes one; /* the caller's, narrowed to one probe, with its own why and stop */
	size_t nr;
	int64_t cpu_ns;
	atomic_bool ended; /* set after one.why and cpu_ns are final */
	pthread_t t;
};

static void *b2b_worker_main(void *arg)
{
	struct b2b_worker *w = arg;
	int64_t u0, s0, u1, s1;
	ws_thread_cpu_ns(&u0, &s0);
	b2b_one_loop(&w->one, w->nr);
	ws_thread_cpu_ns(&u1, &s1);
	w->cpu_ns = (u1 - u0) + (s1 - s0);
	atomic_store(&w->ended, true);
	return NULL;
}

/* Back to back: a thread per probe; this one watches them, ends them all when one finds
 * the daemon gone or the caller says stop, and keeps the first reason. Returns the
 * workers' CPU time; *nthreads, the threads that ran. */
static int64_t b2b_threads(ws_lul_probes *ps, size_t nr, uint32_t *nthreads)
{
	struct b2b_worker w[WS_LUL_MAX_PROBES];
	atomic_bool stop = false;
	uint32_t n = 0;
	for (uint32_t i = 0; i < ps->n; i++) {
		w[n].one = *ps;
		w[n].one.p = &ps->p[i];
		w[n].one.n = 1;
		w[n].one.stop = &stop;
		w[n].one.why[0] = '\0';
		w[n].nr = nr;
		w[n].cpu_ns = 0;
		atomic_init(&w[n].ended, false);
		if (pthread_create(&w[n].t, NULL, b2b_worker_main, &w[n]) == 0)
			n++;
		else
			snprintf(ps->why, sizeof(ps->why), "could not start a probe's thread");
	}
	for (bool all = false; !all;) {
		all = true;
		bool dead = ps->why[0] != '\0';
		for (uint32_t i = 0; i < n; i++) {
			bool ended = atomic_load(&w[i].ended);
			all = all && ended;
			dead = dead || (ended && w[i].one.why[0]);
		}
		if (dead || atomic_load(ps->stop))
			atomic_store(&stop, true);
		if (!all)
			ws_clock_sleep_ns(10 * WS_NS_PER_MS);
	}
	int64_t cpu = 0;
	for (uint32_t i = 0; i < n; i++) {
		pthread_join(w[i].t, NULL);
		cpu += w[i].cpu_ns;
		if (!ps->why[0] && w[i].one.why[0])
			snprintf(ps->why, sizeof(ps->why), "%s", w[i].one.why);
	}
	*nthreads = n;
	return cpu;
}

void *ws_lul_probes_main(void *arg)
{
	ws_lul_probes *ps = arg;
	size_t nr = rounds_of(ps);
	for (uint32_t i = 0; i < ps->n; i++) {
		ws_lul_probe *p = &ps->p[i];
		p->sent = calloc(nr, sizeof(*p->sent));
		p->rtt = calloc(nr, sizeof(*p->rtt));
		p->st = calloc(nr, 1);
		p->cnt = calloc(nr, sizeof(*p->cnt));
		if (!p->sent || !p->rtt || !p->st || !p->cnt) {
			snprintf(ps->why, sizeof(ps->why), "no memory for %zu probe rounds", nr);
			return NULL;
		}
	}
	int64_t u0, s0, u1, s1; /* what the probes cost: their thread's CPU time */
	ws_thread_cpu_ns(&u0, &s0);
	int64_t workers = 0;
	uint32_t nthreads = 1;
	if (ps->plan->back_to_back)
		workers = b2b_threads(ps, nr, &nthreads);
	else
		paced_loop(ps, nr);
	ws_thread_cpu_ns(&u1, &s1);
	ps->out->probe_cpu_ns = (u1 - u0) + (s1 - s0) + workers;
	ps->out->probe_threads = nthreads;
	for (uint32_t i = 0; i < ps->n; i++)
		ps->out->probe_transactions += ps->p[i].answers;
	return NULL;
}
