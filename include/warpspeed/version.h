/* version: the warpspeed release and control-protocol version, for programs that link
 * libwarpspeed.a. */
#ifndef WARPSPEED_VERSION_H
#define WARPSPEED_VERSION_H

#define WARPSPEED_VERSION_MAJOR 0
#define WARPSPEED_VERSION_MINOR 1
#define WARPSPEED_VERSION_PATCH 0
#define WARPSPEED_VERSION_STRING "0.1.0"

/* Version of the client/daemon control protocol; both ends must speak the same one. */
#define WARPSPEED_CTL_PROTOCOL 1

#endif
