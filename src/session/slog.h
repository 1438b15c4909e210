/* SPDX-License-Identifier: BSD-2-Clause */
/* slog: a session's log lines, at a bounded rate.
 *
 * Every line a session writes names it ("session 12 from ADDR:PORT: ..."; netperf
 * sessions add "(netperf)") and passes its own limiter (util/ratelog.h): 10 lines at
 * once, then one a second. A peer that loops a refused request or an unknown message
 * therefore costs the log a few lines a second, whatever it sends; the lines held back
 * are summarised ("... 12,345 more like this") before the session's next line and when
 * it ends. Only the session's own thread writes its lines. */
#ifndef WS_SESSION_SLOG_H
#define WS_SESSION_SLOG_H

struct ws_daemon;
struct ws_session;

/* One line through the daemon's log callback (none: nothing). */
void ws_daemon_log(struct ws_daemon *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Set up the session's limiter (at admission). */
void ws_slog_init(struct ws_session *s);

/* One line: "session N from PEER[ (netperf)]: " and the text, unless held back. */
void ws_slog(struct ws_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The session ends: summarise the lines still held back. */
void ws_slog_end(struct ws_session *s);

#endif
