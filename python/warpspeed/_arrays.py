# SPDX-License-Identifier: BSD-2-Clause
"""numpy arrays as libwarpspeed's caller memory, without copies where the layout allows.

The library's CF32 format is interleaved float32 I, Q = value / 32768, which is exactly
the memory of a C-contiguous complex64 array; CI16 is interleaved int16 I, Q, exactly an
(N, 2) int16 array. Such arrays are handed to the library as they are (their buffer
address); anything else of a sample kind (complex128, another byte order, a strided
view) is converted once by numpy, and what is not IQ samples is refused with a TypeError
or ValueError that says what is accepted.
"""
import ctypes

import numpy as np

from . import _lib

_CF32 = np.dtype(np.complex64)
_CI16 = np.dtype(np.int16)
# read()'s dtype names and the library format of each.
READ_DTYPES = {_CF32: _lib.FMT_CF32, _CI16: _lib.FMT_CI16}

ACCEPTED = ("complex samples (complex64 is used as is, other complex types are converted) "
            "of shape (N,), or int16 I/Q pairs of shape (N, 2)")


def _nbuf_shape(a, nbuf, sample_dims):
    """(buffers in a, samples per buffer): a is one buffer (N,)+sample_dims or, for
    several buffers, (nbuf, N)+sample_dims."""
    lead = a.shape[:a.ndim - len(sample_dims)]
    if a.shape[len(lead):] == sample_dims:
        if len(lead) == 1:
            return 1, lead[0]
        if len(lead) == 2 and nbuf > 1 and lead[0] == nbuf:
            return nbuf, lead[1]
    return None


def write_source(data, nbuf):
    """(format, buffers, samples, list of contiguous arrays, one per buffer) of data to
    write to nbuf buffers: one array is the same data for every buffer, nbuf rows are one
    buffer each."""
    a = np.asarray(data)
    if a.dtype.kind == "c":
        a = np.ascontiguousarray(a, dtype=_CF32)
        fmt, dims, what = _lib.FMT_CF32, (), "complex"
    elif a.dtype.kind == "i" and a.dtype.itemsize == 2:
        a = np.ascontiguousarray(a, dtype=_CI16)
        fmt, dims, what = _lib.FMT_CI16, (2,), "int16 I/Q"
    else:
        raise TypeError("warpspeed: write data must be %s; got a %s array" % (ACCEPTED, a.dtype))
    got = _nbuf_shape(a, nbuf, dims)
    if got is None:
        want = "(N%s)" % (", 2" if dims else ",")
        if nbuf > 1:
            want += " or (%d, N%s) for one row per buffer" % (nbuf, ", 2" if dims else "")
        raise ValueError("warpspeed: %s data of shape %s: need %s" % (what, a.shape, want))
    rows, count = got
    if count == 0:
        raise ValueError("warpspeed: no samples to write (shape %s)" % (a.shape,))
    return fmt, rows, count, [a] if rows == 1 else list(a)


def read_dest(count, nbuf, dtype, out):
    """(format, array to return, list of row arrays, samples) for a read of nbuf buffers:
    out when given (checked: exact dtype, shape, C-contiguous and writable, since the
    samples must land in it), else a new array."""
    if out is not None:
        if not isinstance(out, np.ndarray):
            raise TypeError("warpspeed: out must be a numpy array, not %s" % type(out).__name__)
        dt = out.dtype
    else:
        try:
            dt = np.dtype(dtype)
        except TypeError:
            raise TypeError("warpspeed: read dtype %r: need complex64 or int16" % (dtype,))
    if dt not in READ_DTYPES or not dt.isnative:
        raise TypeError("warpspeed: read into %s: need complex64 or int16 (I/Q pairs)" % dt)
    dims = (2,) if dt == _CI16 else ()
    lead = (nbuf,) if nbuf > 1 else ()
    if out is None:
        if count is None or int(count) < 1:
            raise ValueError("warpspeed: read count %r: need at least 1 sample" % (count,))
        out = np.empty(lead + (int(count),) + dims, dtype=dt)
    n = out.shape[len(lead)] if out.ndim == len(lead) + 1 + len(dims) else 0
    if n < 1 or out.shape != lead + (n,) + dims or (count is not None and n != count):
        want = lead + ("N" if count is None else count,) + dims
        raise ValueError("warpspeed: out has shape %s: need %s" % (out.shape, want))
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("warpspeed: out must be C-contiguous and writable")
    rows = [out] if nbuf == 1 else list(out)
    return READ_DTYPES[dt], out, rows, n


def pointers(rows):
    """A C array of the rows' buffer addresses (void *const *)."""
    return (ctypes.c_void_p * len(rows))(*[r.ctypes.data for r in rows])
