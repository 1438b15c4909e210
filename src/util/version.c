/* version: the release of the library as built (ws_version in <warpspeed/version.h>), so
 * that a program which loads libwarpspeed.so at run time, rather than linking against the
 * header it was compiled with, can tell which release it got. */
#include <warpspeed/version.h>

const char *ws_version(void)
{
	return WARPSPEED_VERSION_STRING;
}
