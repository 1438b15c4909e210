/* SPDX-License-Identifier: BSD-2-Clause */
/* err: formatting of ws_err records; see err.h for the contract. */
#include "util/err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void ws_err_clear(ws_err *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}

int ws_err_set(ws_err *err, int code, const char *fmt, ...)
{
	if (code < 0)
		code = -code;
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		err->code = -code;
	}
	return -code;
}

int ws_err_errno(ws_err *err, const char *fmt, ...)
{
	int e = errno ? errno : EIO;
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
		if (n < 0)
			n = 0;
		if ((size_t)n < sizeof(err->msg))
			snprintf(err->msg + n, sizeof(err->msg) - (size_t)n, ": %s", strerror(e));
		err->code = -e;
	}
	return -e;
}

void ws_err_prefix(ws_err *err, const char *fmt, ...)
{
	if (!err)
		return;
	char head[WS_ERR_MSG_MAX], old[WS_ERR_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(head, sizeof(head), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	size_t n = strlen(head);
	if (n > sizeof(err->msg) - 3)
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, head, n);
	memcpy(err->msg + n, ": ", 2);
	size_t room = sizeof(err->msg) - n - 2, olen = strnlen(old, room - 1);
	memcpy(err->msg + n + 2, old, olen);
	err->msg[n + 2 + olen] = '\0';
}
