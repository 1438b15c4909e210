/* SPDX-License-Identifier: BSD-2-Clause */
/* version: the warpspeed release and control-protocol version, for programs that link
 * libwarpspeed (static or shared), and the mark of every public function.
 *
 * The release numbers also name the shared library: libwarpspeed.so.MAJOR is its soname,
 * libwarpspeed.so.MAJOR.MINOR.PATCH the file. ws_version() is the release of the library
 * actually loaded, for a program that finds it at run time (the Python module) rather than
 * at link time. */
#ifndef WARPSPEED_VERSION_H
#define WARPSPEED_VERSION_H

#define WARPSPEED_VERSION_MAJOR  0
#define WARPSPEED_VERSION_MINOR  1
#define WARPSPEED_VERSION_PATCH  0
#define WARPSPEED_VERSION_STRING "0.1.0"

/* Version of the client/daemon control protocol; both ends must speak the same one. */
#define WARPSPEED_CTL_PROTOCOL 1

/* The shared library is built with -fvisibility=hidden: only declarations marked with this
 * are exported from libwarpspeed.so (check with nm -D). Harmless in the static library. */
#if defined(__GNUC__) && __GNUC__ >= 4
#define WARPSPEED_API __attribute__((visibility("default")))
#else
#define WARPSPEED_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library as built: WARPSPEED_VERSION_STRING, then "+" and the git
 * description when the build had one ("0.1.0+fe1f833"); the same string as `warpspeed -V`. */
WARPSPEED_API const char *ws_version(void);

#ifdef __cplusplus
}
#endif

#endif
