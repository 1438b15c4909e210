/* SPDX-License-Identifier: BSD-2-Clause */
/* wlmex_iq: READ_IQ, READ_RSSI and WRITE_IQ of the MEX transport, and the settings that
 * change them (WRITE_IQ_SET_PKT_WAIT_TIME, READ_IQ_SET_MAX_REQUEST_SIZE,
 * SUPPRESS_IQ_WARNINGS).
 *
 * WARPLab's argument lists (14 inputs each, see docs/iq.md and the reference) are checked
 * here and handed to libwarpspeed's Read IQ and Write IQ engines on the slot's IQ handle,
 * with the samples converted packet by packet straight between the wire and the MATLAB
 * arrays (iq/wire/iqmem.h). The transport seq of the M code's template is continued, so that
 * the M code's `seq += cmds` stays right, and the IQ-ID tracker is kept as WARPLab does. */
#ifndef WLMEX_IQ_H
#define WLMEX_IQ_H

#include "mex.h"

/* prhs[0] is NAME; the entry points check their own arguments. rssi: READ_RSSI. */
void wlmex_read(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[], int rssi);
void wlmex_write(int nlhs, mxArray *plhs[], int nrhs, const mxArray *prhs[]);
void wlmex_set_pkt_wait(const mxArray *prhs[]);
void wlmex_set_max_request(const mxArray *prhs[]);
void wlmex_suppress_warnings(void);

#endif
