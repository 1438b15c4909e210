/* SPDX-License-Identifier: BSD-2-Clause */
/* version (internal): the build's version as the daemon and the client name themselves to a
 * peer. Only util/version.c sees the Makefile's WS_VERSION, so a new commit rebuilds one
 * object (the Makefile's version stamp) rather than every file that prints the version. */
#ifndef WS_UTIL_VERSION_H
#define WS_UTIL_VERSION_H

/* "warpspeed <version>": the HELLO's software field, peer_software on the other end. */
const char *ws_version_software(void);

#endif
