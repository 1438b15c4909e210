/* SPDX-License-Identifier: BSD-2-Clause */
/* iqfile: IQ sample files for `warpspeed iq read/write`: raw cf32 / ci16 and SigMF.
 *
 * Users keep IQ recordings as raw interleaved little-endian files (GNU Radio's cf32 /
 * "fc32", and ci16 / "sc16") or as SigMF recordings (a .sigmf-meta JSON file beside a
 * .sigmf-data file). This module maps a name or option to a kind, loads a file into memory
 * in the matching host sample format (refusing a size that is not whole samples, or a SigMF
 * datatype it cannot read), and saves samples through util/safefile.h, so that a failed run
 * never leaves a file that looks complete and a planted link or device is never replaced.
 * Byte order is explicit, so big-endian hosts write the same files. */
#ifndef WS_IQ_IQFILE_H
#define WS_IQ_IQFILE_H

#include <warpspeed/iq.h>

#include "util/safefile.h"

#include <stddef.h>
#include <stdint.h>

struct ws_err;

typedef enum ws_iqfile_kind {
	WS_IQFILE_AUTO = 0,  /* from the extension */
	WS_IQFILE_CF32 = 1,  /* interleaved float32 little-endian I, Q */
	WS_IQFILE_CI16 = 2,  /* interleaved int16 little-endian I, Q (Fix16_15) */
	WS_IQFILE_SIGMF = 3, /* .sigmf-meta + .sigmf-data, datatype cf32_le or ci16_le */
} ws_iqfile_kind;

/* Samples in memory: fmt is WS_IQ_FMT_CF32 or WS_IQ_FMT_CI16. */
typedef struct ws_iqfile_data {
	ws_iq_format fmt;
	void *samples;
	uint32_t count;
} ws_iqfile_data;

/* "cf32", "ci16" or "sigmf" (also "fc32", "sc16"); error names the accepted values. */
int ws_iqfile_kind_parse(const char *s, ws_iqfile_kind *out, struct ws_err *err);

/* The kind a path's extension implies: .cf32/.fc32/.cfile, .ci16/.sc16, .sigmf-meta /
 * .sigmf-data / .sigmf; WS_IQFILE_AUTO when none matches. */
ws_iqfile_kind ws_iqfile_kind_of_path(const char *path);

/* The SigMF pair of a path: base + ".sigmf-meta" and base + ".sigmf-data", where base is
 * path without any of the three SigMF extensions. 0, or -WS_E_INVAL when too long. */
int ws_iqfile_sigmf_paths(const char *path, char *meta, char *data, size_t cap, struct ws_err *err);

#define WS_IQFILE_META_MAX (1 << 20) /* largest SigMF metadata file read */

/* What ws_iqfile_sigmf_datatype finds wrong. */
enum {
	WS_IQFILE_SIGMF_NO_DATATYPE = -1,  /* no "core:datatype" in "global" */
	WS_IQFILE_SIGMF_BAD_DATATYPE = -2, /* not a plain string shorter than cap */
	WS_IQFILE_SIGMF_NOT_JSON = -3,     /* why says "<reason> at byte N" */
	WS_IQFILE_SIGMF_NOT_OBJECT = -4,   /* JSON, but not an object */
};

/* The datatype of SigMF metadata text[0..len) (not necessarily NUL-terminated): the string
 * member "core:datatype" of its "global" object, into out (cap bytes, NUL-terminated).
 * The text must be exactly one JSON object (util/json_read.h, strict: a truncated
 * document, a member name given twice in one object, or anything after the object is
 * refused, with why (may be NULL) saying what and at which byte). 0, or one of the codes
 * above. */
int ws_iqfile_sigmf_datatype(const char *text, size_t len, char *out, size_t cap,
			     struct ws_err *why);

/* Load a file (kind AUTO: from the extension, error if none). Refuses an empty file, a size
 * that is not whole samples, more than max_samples, and for SigMF a missing or unsupported
 * core:datatype. On success out owns malloc'd samples (ws_iqfile_free). */
int ws_iqfile_load(const char *path, ws_iqfile_kind kind, uint32_t max_samples, ws_iqfile_data *out,
		   struct ws_err *err);

/* What ws_iqfile_load checks before reading samples, for a caller that wants a bad file
 * refused before any network work: the kind, SigMF metadata, and a data file that is a
 * regular file (opened without blocking: a FIFO is refused, never waited on). */
int ws_iqfile_check_input(const char *path, ws_iqfile_kind kind, struct ws_err *err);

void ws_iqfile_free(ws_iqfile_data *d);

/* A recording being written: its data file and, for SigMF, its metadata file. */
typedef struct ws_iqfile_out {
	ws_iqfile_kind kind;
	ws_safefile data, meta;
} ws_iqfile_out;

/* Opens path for a recording of kind (AUTO: from the extension) before the samples exist,
 * so that a name that cannot be written costs no transfer: each file by the rule of
 * util/safefile.h. "-" is standard output, raw (cf32, or ci16 when kind is AUTO; SigMF is
 * refused). 0, or a negative code with err naming the file, and nothing created. */
int ws_iqfile_create(ws_iqfile_out *o, const char *path, ws_iqfile_kind kind, struct ws_err *err);

/* Writes count samples of format fmt (CF32 or CI16 in memory) into o and commits it: a CF32
 * file from CI16 samples stores value / 32768; a CI16 file from CF32 samples rounds and
 * saturates. SigMF gets datatype cf32_le when fmt is CF32, ci16_le otherwise, with
 * sample_rate and hw (may be NULL) in its global object; its data file is committed before
 * its metadata. On error nothing named like the target is left (a stream keeps what it was
 * sent). o is closed either way. */
int ws_iqfile_finish(ws_iqfile_out *o, ws_iq_format fmt, const void *samples, uint32_t count,
		     double sample_rate, const char *hw, struct ws_err *err);

/* Closes o without writing; the targets are as they were. */
void ws_iqfile_discard(ws_iqfile_out *o);

/* ws_iqfile_create then ws_iqfile_finish. */
int ws_iqfile_save(const char *path, ws_iqfile_kind kind, ws_iq_format fmt, const void *samples,
		   uint32_t count, double sample_rate, const char *hw, struct ws_err *err);

#endif
