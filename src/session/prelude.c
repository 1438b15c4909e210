/* SPDX-License-Identifier: BSD-2-Clause */
/* prelude: one event loop for every connection before it is a session; see prelude.h. */
#include "session/prelude.h"

#include "ctl/framer.h"
#include "ctl/msg.h"
#include "ctl/npreader.h"
#include "session/auth.h"
#include "session/authwait.h"
#include "session/dmetrics.h"
#include "session/pretally.h"
#include "util/clock.h"
#include "util/err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <warpspeed/version.h>

#define ACCEPT_BATCH    64
#define ACCEPT_PAUSE_NS (100 * WS_NS_PER_MS)
#define FRAMES_PER_WAKE 4
#define GRACE_NS        WS_NS_PER_SEC

enum pstate { P_HELLO, P_AUTH, P_NETPERF };

typedef struct pending {
	int fd;
	enum pstate st;
	uint64_t id;
	int64_t born, deadline;
	ws_addr peer;
	char src[64]; /* the address alone: the per-source cap counts by it */
	char peer_text[80];
	uint8_t nc[WS_NONCE_LEN], nd[WS_NONCE_LEN];
	ws_framer fr;
	uint8_t buf[WS_PRELUDE_MAX_PAYLOAD];
	ws_np_reader nr; /* P_NETPERF: the message being read */
	bool np_authed;  /* P_NETPERF: the passphrase matched */
	int64_t turn_ns; /* its address failed to prove the key: not read before this */
} pending;

struct ws_prelude {
	ws_prelude_config cfg;
	unsigned cap;
	pending **q; /* oldest first */
	unsigned n;
	ws_tlv_writer w;
	int reserve_fd;
	int64_t accept_resume_ns;
	ws_pretally tally; /* the refusals and drops since the last summary line */
	ws_authwait *aw;   /* with a key: failed proofs per address (session/authwait.h) */
};

/* --- counting and the summary line ---------------------------------------------------- */

/* The reason each counts under in --metrics (session/dmetrics.h); -1: not a refusal. */
/* clang-format off */
static const int cat_reason[WS_PC_N] = {
	[WS_PC_TIMEOUT] = WS_DM_TIMEOUT,   [WS_PC_FOREIGN] = WS_DM_PROTOCOL,
	[WS_PC_BAD] = WS_DM_PROTOCOL,      [WS_PC_NPBAD] = WS_DM_PROTOCOL,
	[WS_PC_AUTH] = WS_DM_AUTH,         [WS_PC_BUSY] = WS_DM_BUSY,
	[WS_PC_EVICT_SRC] = WS_DM_EVICTED, [WS_PC_EVICT_ALL] = WS_DM_EVICTED,
	[WS_PC_NOFD] = WS_DM_DESCRIPTORS,  [WS_PC_LEFT] = -1,
};
/* clang-format on */

static void refused(ws_prelude *p, enum ws_pretally_cat k)
{
	if (cat_reason[k] >= 0)
		ws_dmetrics_refused(p->cfg.metrics, (enum ws_dm_refusal)cat_reason[k]);
}

#define count(p, k, peer, ...) (refused(p, k), ws_pretally_count(&(p)->tally, k, peer, __VA_ARGS__))

static void flush_log(ws_prelude *p, int64_t now, bool force)
{
	ws_pretally_flush(&p->tally, now, force, p->cfg.log, p->cfg.ctx);
}

/* --- one connection ---------------------------------------------------------------- */

/* Send the frame in p->w at once: a new connection's send buffer is empty, so a short
 * frame either fits or the peer is not worth waiting for. */
static int send_now(ws_prelude *p, pending *c)
{
	if (ws_tlv_finish(&p->w, NULL) < 0)
		return -1;
	ssize_t r = send(c->fd, p->w.buf, p->w.len, MSG_DONTWAIT | MSG_NOSIGNAL);
	return r == (ssize_t)p->w.len ? 0 : -1;
}

/* Read what is left first, so that close() sends FIN, not RST, and an ERROR just sent
 * arrives. */
static void drain_close(int fd)
{
	char sink[512];
	for (int k = 0; k < 8 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; k++)
		;
	close(fd);
}

static void drop_at(ws_prelude *p, unsigned i, bool close_fd)
{
	pending *c = p->q[i];
	if (close_fd)
		drain_close(c->fd);
	free(c);
	memmove(&p->q[i], &p->q[i + 1], (p->n - i - 1) * sizeof(*p->q));
	p->n--;
}

/* Refuse connection i with an ERROR that says why, count it under k, close it. The log
 * gets logtext (NULL: text without a leading "<what the category says>: "). */
static void refuse_log(ws_prelude *p, unsigned i, enum ws_pretally_cat k, int code,
		       const char *text, const char *logtext)
{
	pending *c = p->q[i];
	if (c->st == P_NETPERF) {
		/* netserver answers a failed passphrase with nothing: the same here */
		if (code != WS_E_AUTH) {
			uint8_t m[WS_NP_MSG_LEN];
			ws_np_encode_error(0, ws_np_errno(code), m);
			send(c->fd, m, sizeof(m), MSG_DONTWAIT | MSG_NOSIGNAL);
		}
	} else {
		ws_msg_put_error(&p->w, code, text);
		send_now(p, c);
	}
	const char *what = ws_pretally_what(k);
	size_t n = strlen(what);
	if (!logtext)
		logtext = strncmp(text, what, n) == 0 && text[n] == ':' ? text + n + 2 : text;
	int64_t delay = 0;
	unsigned long long fails =
		k == WS_PC_AUTH ? ws_authwait_failed(p->aw, c->src, ws_clock_ns(), &delay) : 0;
	if (fails)
		count(p, k, c->peer_text,
		      "%s (%llu in a row from %s, whose next attempt waits %lld ms)", logtext,
		      fails, c->src, (long long)(delay / WS_NS_PER_MS));
	else
		count(p, k, c->peer_text, "%s", logtext);
	drop_at(p, i, true);
}

static void refuse(ws_prelude *p, unsigned i, enum ws_pretally_cat k, int code, const char *text)
{
	refuse_log(p, i, k, code, text, NULL);
}

static int check_hello(ws_prelude *p, pending *c, const ws_tlv_msg *m, char *why, size_t n)
{
	uint64_t proto = 0;
	if (m->type != WS_MSG_HELLO) {
		snprintf(why, n, "expected HELLO as the first message, got %s (type %u)",
			 ws_msg_type_name(m->type), m->type);
		return -WS_E_PROTO;
	}
	if (ws_tlv_get_u64(m, WS_F_PROTO, &proto) != 0) {
		snprintf(why, n, "HELLO without its protocol version (field %d)", WS_F_PROTO);
		return -WS_E_PROTO;
	}
	if (proto != WARPSPEED_CTL_PROTOCOL) {
		snprintf(why, n,
			 "protocol version %llu is not supported; this daemon speaks version %d",
			 (unsigned long long)proto, WARPSPEED_CTL_PROTOCOL);
		return -WS_E_PROTO;
	}
	const uint8_t *nc = NULL;
	uint16_t len = 0;
	if (ws_tlv_get_bytes(m, WS_F_NONCE, &nc, &len) == 0 && len == WS_NONCE_LEN)
		memcpy(c->nc, nc, WS_NONCE_LEN);
	else if (p->cfg.psk) {
		snprintf(why, n,
			 "this daemon requires authentication with a pre-shared key and the HELLO "
			 "offered none (no %d-byte nonce, field %d): %s",
			 WS_NONCE_LEN, WS_F_NONCE, WS_AUTH_NEED_KEY);
		return -WS_E_AUTH;
	}
	return 0;
}

/* HELLO and, with a key, AUTH are done: hand the connection to the daemon. */
static void admit(ws_prelude *p, unsigned i, bool authed)
{
	pending *c = p->q[i];
	ws_prelude_conn a;
	memset(&a, 0, sizeof(a));
	a.fd = c->fd;
	a.peer = c->peer;
	a.id = c->id;
	a.authed = authed && c->st != P_NETPERF;
	a.netperf = c->st == P_NETPERF;
	if (a.netperf)
		memcpy(a.np_first, c->nr.buf, sizeof(a.np_first));
	snprintf(a.peer_text, sizeof(a.peer_text), "%s", c->peer_text);
	if (a.authed)
		ws_auth_prove(p->cfg.psk, WS_AUTH_ROLE_DAEMON, c->nc, c->nd, c->id, a.proof);
	int fl = fcntl(c->fd, F_GETFL);
	if (fl >= 0)
		fcntl(c->fd, F_SETFL, fl & ~O_NONBLOCK);
	char why[400] = "";
	if (p->cfg.admit(p->cfg.ctx, &a, why, sizeof(why)) == 0) {
		if (authed)
			ws_authwait_ok(p->aw, c->src);
		drop_at(p, i, false);
		return;
	}
	if (fl >= 0)
		fcntl(c->fd, F_SETFL, fl | O_NONBLOCK);
	refuse(p, i, WS_PC_BUSY, WS_E_LIMIT, why);
}

/* One whole frame on connection i. Returns true while the connection stays pending. */
static bool on_frame(ws_prelude *p, unsigned i, const ws_tlv_msg *m)
{
	pending *c = p->q[i];
	char why[400];
	if (c->st == P_HELLO) {
		int rc = check_hello(p, c, m, why, sizeof(why));
		if (rc < 0) {
			refuse(p, i, rc == -WS_E_AUTH ? WS_PC_AUTH : WS_PC_BAD, -rc, why);
			return false;
		}
		if (!p->cfg.psk) {
			admit(p, i, false);
			return false;
		}
		if (ws_random_bytes(c->nd, sizeof(c->nd), NULL) < 0) {
			refuse(p, i, WS_PC_AUTH, WS_E_AUTH,
			       "this daemon could not draw a random nonce");
			return false;
		}
		ws_tlv_begin(&p->w, WS_MSG_CHALLENGE);
		ws_tlv_put_bytes(&p->w, WS_F_NONCE, c->nd, sizeof(c->nd));
		ws_tlv_put_u64(&p->w, WS_F_SESSION_ID, c->id);
		if (send_now(p, c) < 0) {
			count(p, WS_PC_LEFT, c->peer_text, "the CHALLENGE could not be sent");
			drop_at(p, i, true);
			return false;
		}
		c->st = P_AUTH;
		return true;
	}
	const uint8_t *proof = NULL;
	uint16_t n = 0;
	if (m->type != WS_MSG_AUTH || ws_tlv_get_bytes(m, WS_F_PROOF, &proof, &n) != 0) {
		snprintf(why, sizeof(why),
			 "authentication failed: expected AUTH with a proof (field %d) after "
			 "CHALLENGE, got %s",
			 WS_F_PROOF, ws_msg_type_name(m->type));
		refuse(p, i, WS_PC_AUTH, WS_E_AUTH, why);
		return false;
	}
	if (!ws_auth_check(p->cfg.psk, WS_AUTH_ROLE_CLIENT, c->nc, c->nd, c->id, proof, n)) {
		refuse(p, i, WS_PC_AUTH, WS_E_AUTH,
		       "authentication failed: the proof does not match this daemon's key");
		return false;
	}
	admit(p, i, true);
	return false;
}

/* Equal strings, in time that depends on the lengths only. */
static bool same_secret(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);
	unsigned char d = na != nb;
	for (size_t j = 0; j < na && j < nb; j++)
		d |= (unsigned char)(a[j] ^ b[j]);
	return d == 0;
}

/* One whole netperf message on connection i. Returns true while it stays pending. */
static bool on_np_message(ws_prelude *p, unsigned i)
{
	pending *c = p->q[i];
	int32_t type = ws_np_type(c->nr.buf);
	if (p->cfg.psk && !p->cfg.np_passphrase) {
		refuse(p, i, WS_PC_AUTH, WS_E_AUTH,
		       "a netperf client, closed: this daemon requires its key (--psk-file), which "
		       "netperf "
		       "cannot prove; start warpspeed serve with -Z PASSPHRASE to admit netperf -Z "
		       "clients");
		return false;
	}
	if (type == WS_NP_PASSPHRASE) {
		char text[WS_NP_PASSPHRASE_MAX + 1];
		ws_err err;
		if (!p->cfg.np_passphrase)
			return true; /* netserver without -Z ignores it */
		if (ws_np_decode_passphrase(c->nr.buf, text, sizeof(text), &err) < 0 ||
		    !same_secret(text, p->cfg.np_passphrase)) {
			refuse(p, i, WS_PC_AUTH, WS_E_AUTH,
			       "authentication failed: a netperf PASSPHRASE that does not match -Z "
			       "(closed without a reply, as netserver does)");
			return false;
		}
		c->np_authed = true;
		return true;
	}
	if (p->cfg.np_passphrase && !c->np_authed) {
		char t[160];
		snprintf(t, sizeof(t),
			 "authentication failed: a netperf %s (type %ld) before the -Z passphrase "
			 "(closed without a reply, as netserver does)",
			 ws_np_type_name(type), (long)type);
		refuse(p, i, WS_PC_AUTH, WS_E_AUTH, t);
		return false;
	}
	admit(p, i, c->np_authed);
	return false;
}

/* Before the first byte is read: a 0 byte is netperf's (see prelude.h). Returns false
 * when nothing has arrived yet: the framer must not read a byte that came after this
 * look, or a netperf client would be taken for a foreign peer. */
static bool detect(pending *c)
{
	if (c->st != P_HELLO || c->fr.hgot != 0)
		return true;
	uint8_t b;
	ssize_t r = recv(c->fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
	if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return false;
	if (r == 1 && b == 0)
		c->st = P_NETPERF;
	return true;
}

static void on_np_readable(ws_prelude *p, unsigned i)
{
	for (int k = 0; k < FRAMES_PER_WAKE; k++) {
		pending *c = p->q[i];
		ws_err err;
		ws_err_clear(&err);
		int rc = ws_np_reader_read(&c->nr, c->fd, &err);
		if (rc == 0)
			return;
		if (rc == -ECONNRESET) {
			count(p, c->nr.got ? WS_PC_NPBAD : WS_PC_LEFT, c->peer_text,
			      "netperf client: %s", err.msg);
			drop_at(p, i, true);
			return;
		}
		if (rc < 0) {
			count(p, WS_PC_NPBAD, c->peer_text, "netperf client: %s", err.msg);
			drop_at(p, i, true);
			return;
		}
		if (!on_np_message(p, i))
			return;
	}
}

static void on_readable(ws_prelude *p, unsigned i)
{
	if (!detect(p->q[i]))
		return;
	if (p->q[i]->st == P_NETPERF) {
		on_np_readable(p, i);
		return;
	}
	for (int k = 0; k < FRAMES_PER_WAKE; k++) {
		pending *c = p->q[i];
		ws_tlv_msg m;
		ws_err err;
		ws_err_clear(&err);
		int rc = ws_framer_read(&c->fr, c->fd, &m, &err);
		if (rc == 0)
			return;
		if (rc == -ECONNRESET) {
			count(p, WS_PC_LEFT, c->peer_text, "%s",
			      c->st == P_HELLO ? "before a complete HELLO"
					       : "after CHALLENGE, without answering (a client "
						 "without the key?)");
			drop_at(p, i, true);
			return;
		}
		if (rc < 0) {
			refuse(p, i, rc == -WS_E_NOTWS ? WS_PC_FOREIGN : WS_PC_BAD, -rc, err.msg);
			return;
		}
		if (!on_frame(p, i, &m))
			return;
	}
}

/* --- the set --------------------------------------------------------------------------- */

ws_prelude *ws_prelude_new(const ws_prelude_config *c, ws_err *err)
{
	ws_prelude *p = calloc(1, sizeof(*p));
	if (!p) {
		ws_err_set(err, ENOMEM, "no memory for the pre-session state");
		return NULL;
	}
	p->cfg = *c;
	p->cap = c->max_pending ? c->max_pending : 1;
	struct rlimit rl;
	/* Half the descriptors at most: sessions and their data sockets need the rest. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 2 < p->cap)
		p->cap = rl.rlim_cur / 2 > 4 ? (unsigned)(rl.rlim_cur / 2) : 4;
	p->q = calloc(p->cap, sizeof(*p->q));
	if (!p->q) {
		free(p);
		ws_err_set(err, ENOMEM, "no memory for %u pending connections", c->max_pending);
		return NULL;
	}
	p->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	p->tally.last_log_ns = ws_clock_ns() - WS_PRELUDE_LOG_EVERY_NS;
	if ((c->psk || c->np_passphrase) && !(p->aw = ws_authwait_new())) {
		ws_prelude_free(p);
		ws_err_set(err, ENOMEM, "no memory for the authentication failures table");
		return NULL;
	}
	return p;
}

void ws_prelude_free(ws_prelude *p)
{
	if (!p)
		return;
	while (p->n)
		drop_at(p, p->n - 1, true);
	flush_log(p, ws_clock_ns(), true);
	if (p->reserve_fd >= 0)
		close(p->reserve_fd);
	ws_tlv_writer_free(&p->w);
	ws_authwait_free(p->aw);
	free(p->q);
	free(p);
}

unsigned ws_prelude_capacity(const ws_prelude *p) { return p->cap; }

unsigned ws_prelude_pending(const ws_prelude *p) { return p->n; }

/* How readily a pending connection is closed for room, lowest first: one that sent part
 * of a frame and stopped (a slowloris), one that sent nothing yet (it may have just
 * connected, its HELLO on the way), one that sent a whole HELLO (in authentication). */
static int keep_rank(const pending *c)
{
	if (c->turn_ns) /* waiting for its address's turn after failed proofs */
		return 0;
	if (c->st == P_NETPERF)
		return c->np_authed ? 2 : c->nr.got ? 0 : 1;
	if (c->st != P_HELLO)
		return 2;
	return c->fr.hgot == 0 && c->fr.pgot == 0 ? 1 : 0;
}

/* A connection too young to be closed for the per-source cap unless it stalled mid-frame:
 * a host that starts many clients at once sends all their HELLOs within milliseconds. */
static int64_t grace_ns(const ws_prelude *p)
{
	int64_t g = p->cfg.hello_timeout_ns / 2;
	return g < GRACE_NS ? g : GRACE_NS;
}

/* The connection to close for room: among those from src (all when src is NULL), the
 * oldest of the lowest keep_rank. With src, only one that stalled mid-frame or is past
 * its grace period qualifies (none: returns p->n). Sets *same to how many match. */
static unsigned victim(const ws_prelude *p, const char *src, unsigned *same)
{
	unsigned v = p->n;
	int64_t young = ws_clock_ns() - grace_ns(p);
	*same = 0;
	for (unsigned i = 0; i < p->n; i++) {
		const pending *c = p->q[i];
		if (src && strcmp(c->src, src) != 0)
			continue;
		++*same;
		if (src && keep_rank(c) > 0 && c->born > young)
			continue;
		if (v == p->n || keep_rank(c) < keep_rank(p->q[v]))
			v = i;
	}
	return v;
}

/* Make room for one more connection from src: the oldest from that address past its cap,
 * then the oldest overall past the total cap. */
static void make_room(ws_prelude *p, const char *src)
{
	char t[400];
	unsigned same, v = victim(p, src, &same);
	if (same >= p->cfg.max_pending_per_source) {
		/* Take any HELLO that arrived since, so that a real client is admitted (or moves
		 * on to authentication) before a victim is chosen among those still silent. */
		for (unsigned i = p->n; i-- > 0;)
			if (strcmp(p->q[i]->src, src) == 0 && !p->q[i]->turn_ns)
				on_readable(p, i);
		v = victim(p, src, &same);
	}
	if (same >= p->cfg.max_pending_per_source && v < p->n) {
		int h = snprintf(t, sizeof(t), "the daemon closed this connection: ");
		snprintf(t + h, sizeof(t) - (size_t)h,
			 "%u connections from %s were waiting to start a session, past this "
			 "daemon's limit per address (warpspeed serve --max-pending-per-source "
			 "%u), and this one had stalled longest",
			 same + 1, src, p->cfg.max_pending_per_source);
		refuse_log(p, v, WS_PC_EVICT_SRC, WS_E_LIMIT, t, t + h);
	}
	if (p->n >= p->cap && (v = victim(p, NULL, &same)) < p->n) {
		int h = snprintf(t, sizeof(t), "the daemon closed this connection: ");
		snprintf(t + h, sizeof(t) - (size_t)h,
			 "%u connections were waiting to start a session, past this daemon's "
			 "limit (warpspeed serve --max-pending %u), and this was the oldest",
			 p->n + 1, p->cap);
		refuse_log(p, v, WS_PC_EVICT_ALL, WS_E_LIMIT, t, t + h);
	}
}

void ws_prelude_add(ws_prelude *p, int fd, const ws_addr *peer)
{
	pending *c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	c->fd = fd;
	c->peer = *peer;
	c->id = p->cfg.new_id(p->cfg.ctx);
	c->born = ws_clock_ns();
	c->deadline = c->born + p->cfg.hello_timeout_ns;
	ws_addr_format(peer, c->src, sizeof(c->src));
	ws_addr_format_port(peer, c->peer_text, sizeof(c->peer_text));
	ws_framer_init(&c->fr, c->buf, sizeof(c->buf));
	ws_np_reader_init(&c->nr);
	c->turn_ns = ws_authwait_turn(p->aw, c->src, c->born);
	make_room(p, c->src);
	p->q[p->n++] = c;
	/* A client sends HELLO right after connecting: it is often here already, and taking it
	 * now admits the client before newer connections could push it out. */
	if (!c->turn_ns)
		on_readable(p, p->n - 1);
}

/* The spare descriptor kept for refusals, opened again if it is missing. True when held. */
static bool take_reserve(ws_prelude *p)
{
	if (p->reserve_fd < 0)
		p->reserve_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return p->reserve_fd >= 0;
}

/* With every descriptor in use: give up the reserve one, accept the next newcomer on it,
 * answer it with an ERROR that says why and close it, then take the reserve back. 1 when
 * one was refused, 0 when the queue is empty, -1 when there is no reserve to give up or
 * the descriptor it freed was taken first. */
static int refuse_with_reserve(ws_prelude *p, int lfd)
{
	/* Another thread (a session's sysconf reads a /sys file) can take the descriptor
	 * between the close and the accept, and then the reserve cannot be reopened at once:
	 * it is taken back at the next chance, never given up for good. */
	if (!take_reserve(p))
		return -1;
	close(p->reserve_fd);
	ws_addr peer;
	memset(&peer, 0, sizeof(peer));
	peer.len = sizeof(peer.ss);
	int fd = accept4(lfd, (struct sockaddr *)&peer.ss, &peer.len, SOCK_CLOEXEC);
	if (fd >= 0) {
		static const char text[] =
			"the daemon has no file descriptor left for this connection "
			"(its ulimit -n); try again when sessions have ended";
		char t[80];
		ws_addr_format_port(&peer, t, sizeof(t));
		count(p, WS_PC_NOFD, t, "%s", text);
		ws_msg_put_error(&p->w, WS_E_LIMIT, text);
		if (ws_tlv_finish(&p->w, NULL) == 0)
			send(fd, p->w.buf, p->w.len, MSG_DONTWAIT | MSG_NOSIGNAL);
		drain_close(fd);
	}
	int again = fd < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
	p->reserve_fd = -1;
	take_reserve(p);
	if (fd >= 0)
		return 1;
	return again ? 0 : -1;
}

void ws_prelude_accept(ws_prelude *p, int lfd)
{
	for (int k = 0; k < ACCEPT_BATCH; k++) {
		/* The reserve first: a descriptor freed since it was lost must become the
		 * reserve again, not one more session that leaves none for refusals. */
		take_reserve(p);
		ws_addr peer;
		memset(&peer, 0, sizeof(peer));
		peer.len = sizeof(peer.ss);
		int fd = accept4(lfd, (struct sockaddr *)&peer.ss, &peer.len,
				 SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd >= 0) {
			ws_prelude_add(p, fd, &peer);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno != EMFILE && errno != ENFILE)
			return; /* EAGAIN: the queue is empty */
		/* Out of descriptors: the listener stays readable, so without this the loop spins.
		 * The reserve descriptor makes room to accept the newcomers one by one and tell
		 * each why it is closed; only when that is impossible does accepting pause. */
		int r = refuse_with_reserve(p, lfd);
		if (r > 0)
			continue;
		if (r < 0)
			p->accept_resume_ns = ws_clock_ns() + ACCEPT_PAUSE_NS;
		return;
	}
}

bool ws_prelude_accept_paused(const ws_prelude *p) { return ws_clock_ns() < p->accept_resume_ns; }

size_t ws_prelude_fill(ws_prelude *p, struct pollfd *pfd, size_t max)
{
	size_t n = p->n < max ? p->n : max;
	for (size_t i = 0; i < n; i++) /* one waiting for its turn is not read */
		pfd[i] =
			(struct pollfd){.fd = p->q[i]->fd, .events = p->q[i]->turn_ns ? 0 : POLLIN};
	return n;
}

int ws_prelude_timeout_ms(const ws_prelude *p)
{
	int64_t now = ws_clock_ns(), next = INT64_MAX;
	for (unsigned i = 0; i < p->n; i++) {
		if (p->q[i]->deadline < next)
			next = p->q[i]->deadline;
		if (p->q[i]->turn_ns && p->q[i]->turn_ns < next)
			next = p->q[i]->turn_ns;
	}
	if (p->tally.dirty && p->tally.last_log_ns + WS_PRELUDE_LOG_EVERY_NS < next)
		next = p->tally.last_log_ns + WS_PRELUDE_LOG_EVERY_NS;
	if (p->accept_resume_ns > now && p->accept_resume_ns < next)
		next = p->accept_resume_ns;
	if (next == INT64_MAX)
		return -1;
	if (next <= now)
		return 0;
	int64_t ms = (next - now + WS_NS_PER_MS - 1) / WS_NS_PER_MS;
	return ms > 60000 ? 60000 : (int)ms;
}

void ws_prelude_step(ws_prelude *p, const struct pollfd *pfd, size_t n)
{
	/* From the end, so that dropping entry i leaves entries 0..i-1 where pfd has them. */
	for (size_t i = n; i-- > 0;) {
		if (i >= p->n || p->q[i]->fd != pfd[i].fd || !pfd[i].revents)
			continue;
		if (!p->q[i]->turn_ns) {
			on_readable(p, (unsigned)i);
		} else if (pfd[i].revents & (POLLHUP | POLLERR | POLLNVAL)) { /* else poll spins */
			count(p, WS_PC_LEFT, p->q[i]->peer_text,
			      "while its address waited for its turn");
			drop_at(p, (unsigned)i, true);
		}
	}
	int64_t now = ws_clock_ns();
	/* Connections whose address's turn has come: the oldest first, one per turn. */
	for (unsigned i = 0; i < p->n; i++) {
		pending *c = p->q[i];
		if (!c->turn_ns || now < c->turn_ns ||
		    (c->turn_ns = ws_authwait_turn(p->aw, c->src, now)))
			continue;
		c->deadline = now + p->cfg.hello_timeout_ns;
		on_readable(p, i);
		break; /* on_readable may have dropped it: the rest wait for the next step */
	}
	char t[200];
	for (unsigned i = p->n; i-- > 0;)
		if (now >= p->q[i]->deadline) {
			snprintf(t, sizeof(t),
				 "%s not complete within %.3g s (warpspeed serve --hello-timeout)",
				 p->q[i]->st == P_NETPERF ? "a netperf client's first request"
					 : p->cfg.psk     ? "HELLO and authentication"
							  : "HELLO",
				 (double)p->cfg.hello_timeout_ns / WS_NS_PER_SEC);
			refuse(p, i, WS_PC_TIMEOUT, WS_E_TIMEDOUT, t);
		}
	flush_log(p, now, false);
}
