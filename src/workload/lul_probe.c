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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PING_RANGE   "/proc/sys/net/ipv4/ping_group_range"
#define UDP_MAGIC    0x57534c50u /* "WSLP" */
#define UDP_PROBE_SZ 12
#define MAX_GROUPS   64

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

static int open_one(ws_lul_probes *ps, ws_lul_probe *p, int tcp_fd, const ws_addr *peer,
		    ws_err *err)
{
	const ws_lul_item *it = &ps->plan->item[p->item];
	int fam = ws_addr_family(peer);
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
	ws_addr to = *peer;
	if (p->kind == K_ICMP)
		ws_addr_set_port(&to, 0);
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
		       const ws_addr *peer, ws_err *err)
{
	memset(ps, 0, sizeof(*ps));
	ps->plan = plan;
	ps->out = out;
	ps->p = calloc(plan->nprobes ? plan->nprobes : 1, sizeof(*ps->p));
	if (!ps->p)
		return ws_err_set(err, ENOMEM, "no memory for the probes");
	uint32_t first = plan->nup + plan->ndown;
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
		int rc = open_one(ps, p, tcp_fd, peer, err);
		if (rc < 0) {
			ws_lul_probes_close(ps);
			return rc;
		}
		if (rc == 0)
			ps->n++;
	}
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
	}
	free(ps->p);
	ps->p = NULL;
	ps->n = 0;
}

static void send_round(ws_lul_probes *ps, ws_lul_probe *p, size_t k, int64_t now)
{
	unsigned char b[UDP_PROBE_SZ + 8];
	memset(b, 0, sizeof(b));
	ssize_t r = -1;
	if (p->kind == K_TCP) {
		if (p->tcp_round >= 0) {
			p->st[k] = R_SKIPPED;
			return;
		}
		b[0] = 'p';
		r = send(p->fd, b, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (r == 1)
			p->tcp_round = (int64_t)k;
	} else if (p->kind == K_UDP) {
		uint32_t w[2] = {htonl(UDP_MAGIC), htonl((uint32_t)k)};
		memcpy(b, w, sizeof(w));
		b[8] = (unsigned char)p->item;
		r = send(p->fd, b, UDP_PROBE_SZ, MSG_DONTWAIT);
	} else {
		/* type, code, checksum (the kernel's), id (the kernel's), sequence */
		b[0] = p->v6 ? ICMP6_ECHO_REQUEST : ICMP_ECHO;
		uint16_t seq = htons((uint16_t)k);
		memcpy(b + 6, &seq, 2);
		r = send(p->fd, b, 16, MSG_DONTWAIT);
	}
	(void)ps;
	(void)now;
	p->sent[k] = ws_clock_ns(); /* each probe's own instant, not the round's */
	p->st[k] = R_PENDING;       /* a refused send is a lost probe, as a dropped one */
	if (!p->last_heard)
		p->last_heard = now;
	(void)r;
}

static void answered(ws_lul_probe *p, size_t k, int64_t now)
{
	if (p->st[k] != R_PENDING)
		return; /* late (already lost) or a duplicate */
	p->st[k] = R_ANSWERED;
	p->rtt[k] = (double)(now - p->sent[k]) / 1e6;
	p->last_heard = now;
}

static void on_readable(ws_lul_probes *ps, ws_lul_probe *p, size_t sent_rounds)
{
	unsigned char b[256];
	for (;;) {
		ssize_t r = recv(p->fd, b, sizeof(b), MSG_DONTWAIT);
		int64_t now = ws_clock_ns(); /* this reply's arrival, as near as the read */
		if (r < 0)
			return;
		if (p->kind == K_TCP) {
			if (r == 0) {
				snprintf(ps->why, sizeof(ps->why),
					 "the daemon closed the TCP probe's connection");
				return;
			}
			for (ssize_t i = 0; i < r && p->tcp_round >= 0; i++) {
				answered(p, (size_t)p->tcp_round, now);
				p->tcp_round = -1;
			}
			continue;
		}
		if (p->kind == K_UDP) {
			uint32_t w[2];
			if (r < UDP_PROBE_SZ)
				continue;
			memcpy(w, b, sizeof(w));
			size_t k = ntohl(w[1]);
			if (ntohl(w[0]) != UDP_MAGIC || b[8] != p->item || k >= sent_rounds)
				continue;
			ps->out->tos_remote[p->item] = b[9];
			answered(p, k, now);
			continue;
		}
		if (r < 8 || b[0] != (p->v6 ? ICMP6_ECHO_REPLY : ICMP_ECHOREPLY) || !sent_rounds)
			continue;
		uint16_t seq;
		memcpy(&seq, b + 6, 2);
		size_t last = sent_rounds - 1;
		size_t back = (size_t)((uint16_t)((uint16_t)last - ntohs(seq)));
		if (back <= last)
			answered(p, last - back, now);
	}
}

/* Rounds past their timeout are lost; resolved rounds go to the series in order. Returns
 * false when this probe shows the daemon gone (why set). */
static bool settle(ws_lul_probes *ps, ws_lul_probe *p, size_t sent_rounds, int64_t now)
{
	int64_t timeout = (int64_t)(WS_LUL_PROBE_TIMEOUT_S * WS_NS_PER_SEC);
	const ws_lul_item *it = &ps->plan->item[p->item];
	for (size_t k = p->pushed; k < sent_rounds; k++)
		if (p->kind != K_TCP && p->st[k] == R_PENDING && now - p->sent[k] >= timeout)
			p->st[k] = R_LOST;
	pthread_mutex_lock(ps->mu);
	while (p->pushed < sent_rounds && p->st[p->pushed] != R_PENDING) {
		size_t k = p->pushed++;
		double t = (double)llround((double)k * ps->plan->interval_s * 1e6) / 1e6; /* µs */
		if (p->st[k] == R_ANSWERED)
			ws_series_push(&ps->out->set, (int)p->item, t, p->rtt[k]);
		else if (p->st[k] == R_LOST)
			ws_series_push(&ps->out->set, (int)p->item, t, NAN);
	}
	pthread_mutex_unlock(ps->mu);
	int64_t dead = (int64_t)(WS_LUL_DEAD_S * WS_NS_PER_SEC);
	if (p->kind != K_ICMP && p->last_heard && now - p->last_heard >= dead &&
	    now - p->last_heard >= 3 * timeout) {
		snprintf(ps->why, sizeof(ps->why), "the %s probe got no answer for %.1f s",
			 it->name, (double)(now - p->last_heard) / WS_NS_PER_SEC);
		return false;
	}
	return true;
}

static bool any_pending(const ws_lul_probes *ps, size_t sent_rounds)
{
	for (uint32_t i = 0; i < ps->n; i++)
		if (ps->p[i].pushed < sent_rounds)
			return true;
	return false;
}

void *ws_lul_probes_main(void *arg)
{
	ws_lul_probes *ps = arg;
	size_t nr = rounds_of(ps), k = 0;
	for (uint32_t i = 0; i < ps->n; i++) {
		ws_lul_probe *p = &ps->p[i];
		p->sent = calloc(nr, sizeof(*p->sent));
		p->rtt = calloc(nr, sizeof(*p->rtt));
		p->st = calloc(nr, 1);
		if (!p->sent || !p->rtt || !p->st) {
			snprintf(ps->why, sizeof(ps->why), "no memory for %zu probe rounds", nr);
			return NULL;
		}
	}
	struct pollfd pf[WS_LUL_MAX_PROBES];
	int64_t iv = (int64_t)(ps->plan->interval_s * WS_NS_PER_SEC);
	int64_t u0, s0, u1, s1; /* what the probes cost: their thread's CPU time */
	ws_thread_cpu_ns(&u0, &s0);
	while (!atomic_load(ps->stop) && !ps->why[0]) {
		int64_t now = ws_clock_ns();
		if (k < nr && now >= ps->t0_ns + (int64_t)k * iv) {
			for (uint32_t i = 0; i < ps->n; i++)
				send_round(ps, &ps->p[i], k, now);
			k++;
		}
		bool alive = true;
		for (uint32_t i = 0; i < ps->n && alive; i++)
			alive = settle(ps, &ps->p[i], k, now);
		if (!alive || (k == nr && !any_pending(ps, k)))
			break;
		int64_t wake = k < nr ? ps->t0_ns + (int64_t)k * iv : now + 50 * WS_NS_PER_MS;
		if (wake > now + 50 * WS_NS_PER_MS) /* look at timeouts and the stop flag */
			wake = now + 50 * WS_NS_PER_MS;
		for (uint32_t i = 0; i < ps->n; i++)
			pf[i] = (struct pollfd){.fd = ps->p[i].fd, .events = POLLIN};
		int64_t left = wake - now;
		struct timespec ts = {(time_t)(left / WS_NS_PER_SEC), (long)(left % WS_NS_PER_SEC)};
		int n = ppoll(pf, ps->n, left > 0 ? &ts : &(struct timespec){0, 0}, NULL);
		for (uint32_t i = 0; n > 0 && i < ps->n; i++)
			if (pf[i].revents)
				on_readable(ps, &ps->p[i], k);
	}
	ws_thread_cpu_ns(&u1, &s1);
	ps->out->probe_cpu_ns = (u1 - u0) + (s1 - s0);
	return NULL;
}
