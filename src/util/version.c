/* SPDX-License-Identifier: BSD-2-Clause */
/* version: the release of the library as built (ws_version in <warpspeed/version.h>), so
 * that a program which loads libwarpspeed.so at run time, rather than linking against the
 * header it was compiled with, can tell which release it got. */
#include "util/version.h"

#include <warpspeed/version.h>

/* The build's full version (the Makefile passes WS_VERSION: the release plus the git
 * description), the same string -V, JSON and peer_software carry; a build without it gets
 * the bare release. */
#ifndef WS_VERSION
#define WS_VERSION WARPSPEED_VERSION_STRING
#endif

const char *ws_version(void) { return WS_VERSION; }

const char *ws_version_software(void) { return "warpspeed " WS_VERSION; }
