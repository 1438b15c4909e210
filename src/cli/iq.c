/* iq: placeholder until the IQ host transport lands. */
#include "cli/iq.h"

#include <stdio.h>

int ws_cli_iq_main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "warpspeed: iq: not built yet\n");
	return 1;
}
