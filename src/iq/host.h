/* host: the IQ host transport's internal interface, as one include for its users.
 *
 * host.c implements include/warpspeed/iq.h on top of the modules below it: the handle and
 * its socket (hostio.h), commands with backoff (hostcmd.h) and sample conversions
 * (iqconv.h). The unit tests and the fuzzers that look inside the transport include this
 * header; the Read IQ, Write IQ and trigger engines include only what they use, so that
 * every dependency points down to hostio. Nothing here is part of the installed
 * interface. */
#ifndef WS_IQ_HOST_H
#define WS_IQ_HOST_H

#include <warpspeed/iq.h>

#include "iq/hostcmd.h"
#include "iq/hostio.h"
#include "iq/iqconv.h"

#endif
