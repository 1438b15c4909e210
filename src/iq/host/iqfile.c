/* SPDX-License-Identifier: BSD-2-Clause */
/* iqfile: raw cf32 / ci16 and SigMF IQ files; see iqfile.h.
 *
 * Samples cross the file boundary one byte at a time in little-endian order (never by
 * writing memory as it lies), so files are the same on every host. The SigMF reader parses
 * the whole metadata file as strict JSON (util/json_read.c: a cut file, a member given
 * twice or text after the object is refused, by byte) and then takes only global's
 * "core:datatype", which is all a loader needs; the writer emits a minimal valid SigMF
 * 1.0 metadata object. */
#include "iq/host/iqfile.h"

#include "iq/wire/iqconv.h"
#include "util/err.h"
#include "util/json_read.h"
#include "util/safefile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IQF_CHUNK 65536 /* samples converted per write */

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);
	return a >= b && strcmp(s + a - b, suf) == 0;
}

int ws_iqfile_kind_parse(const char *s, ws_iqfile_kind *out, ws_err *err)
{
	if (!strcmp(s, "cf32") || !strcmp(s, "fc32"))
		*out = WS_IQFILE_CF32;
	else if (!strcmp(s, "ci16") || !strcmp(s, "sc16"))
		*out = WS_IQFILE_CI16;
	else if (!strcmp(s, "sigmf"))
		*out = WS_IQFILE_SIGMF;
	else
		return ws_err_set(err, WS_E_INVAL,
				  "file format '%s' is not known (cf32, ci16 or "
				  "sigmf)",
				  s);
	return 0;
}

ws_iqfile_kind ws_iqfile_kind_of_path(const char *p)
{
	if (ends_with(p, ".cf32") || ends_with(p, ".fc32") || ends_with(p, ".cfile"))
		return WS_IQFILE_CF32;
	if (ends_with(p, ".ci16") || ends_with(p, ".sc16"))
		return WS_IQFILE_CI16;
	if (ends_with(p, ".sigmf-meta") || ends_with(p, ".sigmf-data") || ends_with(p, ".sigmf"))
		return WS_IQFILE_SIGMF;
	return WS_IQFILE_AUTO;
}

int ws_iqfile_sigmf_paths(const char *path, char *meta, char *data, size_t cap, ws_err *err)
{
	static const char *const ext[3] = {".sigmf-meta", ".sigmf-data", ".sigmf"};
	size_t n = strlen(path);
	for (int i = 0; i < 3; i++)
		if (ends_with(path, ext[i])) {
			n -= strlen(ext[i]);
			break;
		}
	if (n + 12 > cap)
		return ws_err_set(err, WS_E_INVAL, "file name '%s' is too long", path);
	snprintf(meta, cap, "%.*s.sigmf-meta", (int)n, path);
	snprintf(data, cap, "%.*s.sigmf-data", (int)n, path);
	return 0;
}

static ws_iqfile_kind resolve(const char *path, ws_iqfile_kind kind)
{
	return kind == WS_IQFILE_AUTO ? ws_iqfile_kind_of_path(path) : kind;
}

static int no_kind(const char *path, ws_err *err)
{
	return ws_err_set(err, WS_E_INVAL,
			  "cannot tell the format of '%s' from its name "
			  "(.cf32, .ci16, .sigmf-meta/.sigmf-data): give --format cf32|ci16|sigmf",
			  path);
}

/* ---- loading ------------------------------------------------------------------------------ */

int ws_iqfile_sigmf_datatype(const char *text, size_t len, char *out, size_t cap, ws_err *why)
{
	ws_jdoc doc;
	ws_jlimits lim = {.max_bytes = WS_IQFILE_META_MAX};
	if (ws_json_read_strict(text, len, &lim, &doc, why) < 0)
		return WS_IQFILE_SIGMF_NOT_JSON;
	const ws_jval *root = ws_jroot(&doc);
	int r = 0;
	if (root->type != WS_J_OBJ) {
		r = WS_IQFILE_SIGMF_NOT_OBJECT;
	} else {
		const ws_jval *v = ws_jget(&doc, ws_jget(&doc, root, "global"), "core:datatype");
		const char *s = ws_jstr(&doc, v);
		if (!v)
			r = WS_IQFILE_SIGMF_NO_DATATYPE;
		else if (!s || v->n >= cap || strlen(s) != v->n || strpbrk(s, "\"\\"))
			r = WS_IQFILE_SIGMF_BAD_DATATYPE;
		else
			memcpy(out, s, (size_t)v->n + 1);
	}
	ws_jdoc_free(&doc);
	return r;
}

/* The whole of a regular file (at most max bytes) into a malloc'd *buf: opened without
 * blocking, so a FIFO is refused rather than waited on. */
static int read_all(const char *path, const char *what, const char *limit, uint8_t **buf,
		    size_t *len, size_t max, ws_err *err)
{
	long long size;
	*buf = NULL;
	int fd = ws_safefile_open_read(path, what, &size, err);
	if (fd < 0)
		return fd;
	FILE *f = fdopen(fd, "rb");
	if (!f) {
		int r = ws_err_errno(err, "%s '%s'", what, path);
		close(fd);
		return r;
	}
	if ((uint64_t)size > max) {
		fclose(f);
		return ws_err_set(err, WS_E_INVAL,
				  "%s '%s' has %lld bytes, more than %s (%zu "
				  "bytes)",
				  what, path, size, limit, max);
	}
	*len = (size_t)size;
	*buf = malloc(*len ? *len : 1);
	if (!*buf || fread(*buf, 1, *len, f) != *len) {
		fclose(f);
		free(*buf);
		*buf = NULL;
		return ws_err_set(err, WS_E_INVAL, "%s '%s': short read", what, path);
	}
	fclose(f);
	return 0;
}

/* The value of "core:datatype" in a SigMF metadata file, into out. */
static int sigmf_datatype(const char *meta, char *out, size_t cap, ws_err *err)
{
	uint8_t *buf;
	size_t n;
	int r = read_all(meta, "SigMF metadata", "warpspeed reads", &buf, &n, WS_IQFILE_META_MAX,
			 err);
	if (r < 0)
		return r;
	ws_err why;
	r = ws_iqfile_sigmf_datatype((const char *)buf, n, out, cap, &why);
	free(buf);
	switch (r) {
	case 0:
		return 0;
	case WS_IQFILE_SIGMF_NOT_JSON:
		return ws_err_set(err, WS_E_INVAL, "SigMF metadata '%s' is not JSON: %s", meta,
				  why.msg);
	case WS_IQFILE_SIGMF_NOT_OBJECT:
		return ws_err_set(err, WS_E_INVAL,
				  "SigMF metadata '%s' is JSON but not an object "
				  "(SigMF metadata is one object with \"global\", \"captures\" and "
				  "\"annotations\")",
				  meta);
	case WS_IQFILE_SIGMF_NO_DATATYPE:
		return ws_err_set(err, WS_E_INVAL,
				  "SigMF metadata '%s' has no \"core:datatype\" "
				  "string in its \"global\" object",
				  meta);
	default:
		return ws_err_set(err, WS_E_INVAL,
				  "SigMF metadata '%s': bad core:datatype (a "
				  "string of at most %zu characters expected)",
				  meta, cap - 1);
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Converts the raw little-endian bytes to host values in place-sized buffers. */
static int decode(const uint8_t *raw, size_t len, int cf32, ws_iqfile_data *out)
{
	size_t vals = len / (cf32 ? 4 : 2);
	out->fmt = cf32 ? WS_IQ_FMT_CF32 : WS_IQ_FMT_CI16;
	out->count = (uint32_t)(vals / 2);
	out->samples = malloc(vals * (cf32 ? sizeof(float) : sizeof(int16_t)));
	if (!out->samples)
		return -1;
	for (size_t i = 0; i < vals; i++) {
		if (cf32) {
			uint32_t u = le32(raw + 4 * i);
			float v;
			memcpy(&v, &u, 4);
			((float *)out->samples)[i] = v;
		} else {
			((int16_t *)out->samples)[i] =
				(int16_t)(uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
		}
	}
	return 0;
}

/* The file that holds path's samples (path itself, or SigMF's data file, into data) and
 * whether they are cf32; SigMF's metadata is read and its datatype checked. */
static int input_of(const char *path, ws_iqfile_kind kind, char *data, size_t cap,
		    const char **file, int *cf32, ws_err *err)
{
	char meta[4096], dt[64];
	*file = path;
	kind = resolve(path, kind);
	if (kind == WS_IQFILE_AUTO)
		return no_kind(path, err);
	*cf32 = kind == WS_IQFILE_CF32;
	if (kind != WS_IQFILE_SIGMF)
		return 0;
	int r = ws_iqfile_sigmf_paths(path, meta, data, cap < sizeof meta ? cap : sizeof meta, err);
	if (r == 0)
		r = sigmf_datatype(meta, dt, sizeof dt, err);
	if (r < 0)
		return r;
	if (strcmp(dt, "cf32_le") && strcmp(dt, "ci16_le"))
		return ws_err_set(err, WS_E_INVAL,
				  "SigMF '%s': datatype '%s' is not supported "
				  "(cf32_le or ci16_le)",
				  meta, dt);
	*cf32 = dt[1] == 'f';
	*file = data;
	return 0;
}

int ws_iqfile_load(const char *path, ws_iqfile_kind kind, uint32_t max_samples, ws_iqfile_data *out,
		   ws_err *err)
{
	char data[4096];
	const char *file;
	int cf32;
	memset(out, 0, sizeof *out);
	int r = input_of(path, kind, data, sizeof data, &file, &cf32, err);
	if (r < 0)
		return r;
	size_t ss = cf32 ? 8 : 4, len = 0;
	uint8_t *raw = NULL;
	r = read_all(file, "IQ file",
		     cf32 ? "the node's buffer holds in cf32" : "the node's buffer holds in ci16",
		     &raw, &len, (size_t)max_samples * ss, err);
	if (r < 0)
		return r;
	if (len == 0 || len % ss) {
		free(raw);
		return ws_err_set(err, WS_E_INVAL,
				  "IQ file '%s' has %zu bytes: not a whole number "
				  "of %s samples (%zu bytes each)%s",
				  file, len, cf32 ? "cf32" : "ci16", ss,
				  len ? "; wrong --format?" : "");
	}
	r = decode(raw, len, cf32, out);
	free(raw);
	if (r < 0)
		return ws_err_set(err, -ENOMEM, "IQ file '%s': out of memory", file);
	return 0;
}

int ws_iqfile_check_input(const char *path, ws_iqfile_kind kind, ws_err *err)
{
	char data[4096];
	const char *file;
	int cf32;
	long long size;
	int r = input_of(path, kind, data, sizeof data, &file, &cf32, err);
	if (r < 0)
		return r;
	int fd = ws_safefile_open_read(file, "IQ file", &size, err);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

void ws_iqfile_free(ws_iqfile_data *d)
{
	free(d->samples);
	d->samples = NULL;
	d->count = 0;
}

/* ---- saving ------------------------------------------------------------------------------- */

/* Writes count samples of fmt to f as cf32 or ci16 little-endian. */
static int write_samples(FILE *f, int cf32, ws_iq_format fmt, const void *s, uint32_t count)
{
	uint8_t *buf = malloc((size_t)IQF_CHUNK * 8), wire[4 * 256];
	if (!buf)
		return -1;
	for (uint32_t pos = 0; pos < count;) {
		uint32_t k = count - pos < IQF_CHUNK ? count - pos : IQF_CHUNK;
		uint8_t *o = buf;
		for (uint32_t i = 0; i < k; i += 256) {
			uint32_t m = k - i < 256 ? k - i : 256;
			ws_iqconv_to_wire(wire, fmt, s, (uint64_t)pos + i, m); /* saturates cf32 */
			for (uint32_t j = 0; j < 2 * m; j++) {
				int16_t v16 =
					(int16_t)(uint16_t)(wire[2 * j] << 8 | wire[2 * j + 1]);
				if (cf32) {
					float v = fmt == WS_IQ_FMT_CF32
						? ((const float *)s)[2 * ((uint64_t)pos + i) + j]
						: (float)v16 / 32768.0f;
					uint32_t u;
					memcpy(&u, &v, 4);
					for (int b = 0; b < 4; b++)
						*o++ = (uint8_t)(u >> (8 * b));
				} else {
					*o++ = (uint8_t)v16;
					*o++ = (uint8_t)((uint16_t)v16 >> 8);
				}
			}
		}
		if (fwrite(buf, 1, (size_t)(o - buf), f) != (size_t)(o - buf)) {
			free(buf);
			return -1;
		}
		pos += k;
	}
	free(buf);
	return 0;
}

/* Samples into an open file; the file is left open for the caller to commit. */
static int save_data(ws_safefile *sf, int cf32, ws_iq_format fmt, const void *s, uint32_t count,
		     ws_err *err)
{
	if (write_samples(sf->f, cf32, fmt, s, count) < 0)
		return ws_err_errno(err, "writing '%s'", sf->path);
	return 0;
}

static int save_meta(ws_safefile *sf, int cf32, double rate, const char *hw, ws_err *err)
{
	FILE *f = sf->f;
	fprintf(f,
		"{\n    \"global\": {\n        \"core:datatype\": \"%s\",\n"
		"        \"core:sample_rate\": %.17g,\n        \"core:version\": \"1.0.0\",\n"
		"        \"core:recorder\": \"warpspeed iq\"",
		cf32 ? "cf32_le" : "ci16_le", rate);
	if (hw) {
		fprintf(f, ",\n        \"core:hw\": \"");
		for (const char *p = hw; *p; p++)
			if (*p != '"' && *p != '\\' && (unsigned char)*p >= 0x20)
				fputc(*p, f);
		fputc('"', f);
	}
	fprintf(f,
		"\n    },\n    \"captures\": [\n        {\"core:sample_start\": 0}\n    ],\n"
		"    \"annotations\": []\n}\n");
	return ferror(f) ? ws_err_errno(err, "writing '%s'", sf->path) : 0;
}

int ws_iqfile_create(ws_iqfile_out *o, const char *path, ws_iqfile_kind kind, ws_err *err)
{
	memset(o, 0, sizeof *o);
	o->kind = resolve(path, kind);
	if (!strcmp(path, "-")) {
		if (o->kind == WS_IQFILE_SIGMF)
			return ws_err_set(err, WS_E_INVAL,
					  "SigMF is two files and cannot go to "
					  "standard output ('-' takes raw cf32 or ci16)");
		if (o->kind == WS_IQFILE_AUTO)
			o->kind = WS_IQFILE_CI16;
		return ws_safefile_open(&o->data, path, WS_SAFEFILE_DASH, err);
	}
	if (o->kind == WS_IQFILE_AUTO)
		return no_kind(path, err);
	if (o->kind != WS_IQFILE_SIGMF)
		return ws_safefile_open(&o->data, path, 0, err);
	char meta[4096], data[4096];
	int r = ws_iqfile_sigmf_paths(path, meta, data, sizeof meta, err);
	if (r == 0)
		r = ws_safefile_open(&o->data, data, 0, err);
	if (r == 0 && (r = ws_safefile_open(&o->meta, meta, 0, err)) < 0)
		ws_safefile_abort(&o->data);
	return r;
}

void ws_iqfile_discard(ws_iqfile_out *o)
{
	ws_safefile_abort(&o->data);
	ws_safefile_abort(&o->meta);
}

int ws_iqfile_finish(ws_iqfile_out *o, ws_iq_format fmt, const void *samples, uint32_t count,
		     double sample_rate, const char *hw, ws_err *err)
{
	int r = 0,
	    cf32 = o->kind == WS_IQFILE_CF32 ||
		(o->kind == WS_IQFILE_SIGMF && fmt == WS_IQ_FMT_CF32);
	if (fmt != WS_IQ_FMT_CF32 && fmt != WS_IQ_FMT_CI16)
		r = ws_err_set(err, WS_E_INVAL, "save: samples must be cf32 or ci16 in memory");
	if (r == 0)
		r = save_data(&o->data, cf32, fmt, samples, count, err);
	if (r == 0 && o->kind == WS_IQFILE_SIGMF)
		r = save_meta(&o->meta, cf32, sample_rate, hw, err);
	/* Data first: metadata beside it is what makes the recording look complete. */
	if (r == 0)
		r = ws_safefile_commit(&o->data, err);
	if (r == 0 && o->kind == WS_IQFILE_SIGMF)
		r = ws_safefile_commit(&o->meta, err);
	ws_iqfile_discard(o);
	return r;
}

int ws_iqfile_save(const char *path, ws_iqfile_kind kind, ws_iq_format fmt, const void *samples,
		   uint32_t count, double sample_rate, const char *hw, ws_err *err)
{
	ws_iqfile_out o;
	int r = ws_iqfile_create(&o, path, kind, err);
	return r < 0 ? r : ws_iqfile_finish(&o, fmt, samples, count, sample_rate, hw, err);
}
