/* SPDX-License-Identifier: BSD-2-Clause */
/* err: the caller-supplied error record every fallible library function fills.
 *
 * Library code never prints and never exits; it returns a negative code and leaves a
 * human sentence ("operation: detail: strerror") in a ws_err that only cli/ prints.
 * A NULL ws_err pointer is allowed everywhere and simply drops the message. */
#ifndef WS_UTIL_ERR_H
#define WS_UTIL_ERR_H

#include <stddef.h>

#define WS_ERR_MSG_MAX 512

typedef struct ws_err {
	int code; /* negative errno-style code, 0 when clear */
	char msg[WS_ERR_MSG_MAX];
} ws_err;

/* Error codes beyond errno values: all returned negated. */
enum {
	WS_E_INVAL = 22,     /* bad argument or value (EINVAL) */
	WS_E_PROTO = 71,     /* peer broke the protocol (EPROTO) */
	WS_E_TIMEDOUT = 110, /* a state timed out (ETIMEDOUT) */
	WS_E_REFUSED = 111,  /* the peer refused (ECONNREFUSED) */
	WS_E_NOTWS = 4001,   /* the peer is not a warpspeed daemon */
	WS_E_LIMIT = 4002,   /* a daemon limit refused the request */
	WS_E_REMOTE = 4003,  /* the remote side reported an error */
	WS_E_AUTH = 4004,    /* authentication with the pre-shared key failed or is missing */
	WS_E_PEER =
		4005, /* the peer (a stock netserver) cannot run what was asked: a usage error */
};

void ws_err_clear(ws_err *err);

/* Record a message; returns -code so callers can write `return ws_err_set(...)`. */
int ws_err_set(ws_err *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Like ws_err_set with code = errno, appending ": strerror(errno)". */
int ws_err_errno(ws_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefix an existing message with more context ("context: old message"). */
void ws_err_prefix(ws_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
