# SPDX-License-Identifier: BSD-2-Clause
"""Node: one handle of the IQ host transport (ws_iq_node) as a Python object.

Each method is one library call on the handle (which serialises calls from several
threads; ctypes releases the GIL while it runs). Arguments are checked here only where
ctypes would otherwise change them silently (a negative number into an unsigned field, a
count beyond 32 bits); everything the library checks, it reports itself, as Error. Results
are named tuples built from the C structures field by field, so they always carry what
the header has.
"""
import collections
import ctypes

from . import _lib
from ._lib import Error

RF_A, RF_B, RF_C, RF_D = 0x1, 0x2, 0x4, 0x8
_RF_LETTERS = {"A": RF_A, "B": RF_B, "C": RF_C, "D": RF_D}
_WRITE_MODES = {"auto": 0, "fast": 1, "acked": 2}
# bench()'s formats (the names of `warpspeed iq bench --format`).
_BENCH_FORMATS = {"raw": _lib.FMT_BE32, "ci16": _lib.FMT_CI16, "cf32": _lib.FMT_CF32}
# Node() options: every ws_iq_config field but addr and port.
_OPTIONS = {name: ctype for name, ctype in _lib.Config._fields_ if name not in ("addr", "port")}


def _record(name, struct):
    """A named tuple type with the fields of a ctypes structure."""
    return collections.namedtuple(name, [field for field, _ in struct._fields_])


Info = _record("Info", _lib.InfoStruct)
Stats = _record("Stats", _lib.StatsStruct)
BenchStat = _record("BenchStat", _lib.BenchStatStruct)
Bench = _record("Bench", _lib.BenchRowStruct)
Trigger = collections.namedtuple("Trigger", "confirmed sent before after elapsed_ns")
_RECORDS = {_lib.InfoStruct: Info, _lib.StatsStruct: Stats, _lib.BenchStatStruct: BenchStat,
            _lib.BenchRowStruct: Bench}


def _to_record(s):
    values = []
    for name, ctype in s._fields_:
        v = getattr(s, name)
        if ctype in _RECORDS:
            v = _to_record(v)
        elif isinstance(v, ctypes.Array):
            v = bytes(v)
        values.append(v)
    return _RECORDS[type(s)](*values)


def _int_in(name, v, ctype):
    """v as an int within what ctype holds (ctypes would wrap it silently)."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError("warpspeed: %s must be an int, not %s" % (name, type(v).__name__))
    bits = ctypes.sizeof(ctype) * 8
    lo, hi = (0, 2 ** bits - 1) if ctype(-1).value > 0 else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    if not lo <= v <= hi:
        raise ValueError("warpspeed: %s %d is out of range %d..%d" % (name, v, lo, hi))
    return v


def rf_mask(rf):
    """An RF interface set as a bitmask: an int 1..15 (RF_A | RF_B), or letters ("A",
    "AB", "A,B", ["A", "B"])."""
    if isinstance(rf, int) and not isinstance(rf, bool):
        if not 1 <= rf <= 15:
            raise ValueError("warpspeed: rf mask %d: need 1..15 (RF_A=1, RF_B=2, RF_C=4, "
                             "RF_D=8)" % rf)
        return rf
    letters = rf.replace(",", "") if isinstance(rf, str) else rf
    try:
        mask = 0
        for x in letters:
            mask |= _RF_LETTERS[str(x).strip().upper()]
    except (KeyError, TypeError):
        raise ValueError("warpspeed: rf %r: need letters A..D (\"A\", \"A,B\"), a list of "
                         "them, or a mask 1..15" % (rf,)) from None
    if not mask:
        raise ValueError("warpspeed: rf %r names no interface" % (rf,))
    return mask


def _bits(mask):
    return bin(mask).count("1")


def trigger_broadcast(addr, port=10000, ids=1, host_id=250):
    """Broadcast one trigger to addr:port (e.g. "10.0.0.255") as WARPLab does for a group
    of nodes; unconfirmed (nothing answers a broadcast trigger)."""
    err = _lib.ErrorStruct()
    _lib.check(_lib.lib.ws_iq_trigger_broadcast(
        str(addr).encode(), _int_in("port", port, ctypes.c_int),
        _int_in("host_id", host_id, ctypes.c_uint16), _int_in("ids", ids, ctypes.c_uint32),
        ctypes.byref(err)), err)


class Node:
    """An open WARP v3 node (or `warpspeed node`): Node("10.0.0.1"), Node("127.0.0.1:9001"),
    or Node(addr, port, timeout_ms=..., budget_ms=..., write_mode="acked", ...) with any
    field of ws_iq_config as a keyword. Opening pings the node, runs the payload size test
    and reads NODE_INFO; a node that does not answer raises Error. Use as a context manager
    or call close()."""

    def __init__(self, addr, port=None, **options):
        if not isinstance(addr, str):
            raise TypeError("warpspeed: node address must be a str, not %s" % type(addr).__name__)
        if port is None and ":" in addr:
            addr, _, p = addr.rpartition(":")
            if not p.isdigit():
                raise ValueError("warpspeed: node %r: need ADDR or ADDR:PORT" % (addr + ":" + p))
            port = int(p)
        self._h = None
        c = _lib.Config()
        _lib.lib.ws_iq_config_default(ctypes.byref(c))
        addr_b = addr.encode()
        c.addr = addr_b
        if port is not None:
            c.port = _int_in("port", port, ctypes.c_int)
        for name, v in options.items():
            if name not in _OPTIONS:
                raise TypeError("warpspeed: unknown Node option %r; accepted: %s" % (
                    name, ", ".join(sorted(_OPTIONS))))
            if name == "write_mode" and isinstance(v, str):
                if v not in _WRITE_MODES:
                    raise ValueError("warpspeed: write_mode %r: need auto, fast or acked" % v)
                v = _WRITE_MODES[v]
            setattr(c, name, _int_in(name, v, _OPTIONS[name]))
        h = ctypes.c_void_p()
        err = _lib.ErrorStruct()
        _lib.check(_lib.lib.ws_iq_open(ctypes.byref(c), ctypes.byref(h), ctypes.byref(err)), err)
        self._h = h
        self.addr, self.port = addr, c.port

    def __repr__(self):
        return "<warpspeed.Node %s:%d%s>" % (self.addr, self.port, "" if self._h else " closed")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown may have torn _lib down first
            pass

    def close(self):
        """Close the handle (again is harmless). No call may be running on it."""
        h, self._h = getattr(self, "_h", None), None
        if h:
            _lib.lib.ws_iq_close(h)

    @property
    def closed(self):
        return not self._h

    def _handle(self):
        if not self._h:
            raise Error("warpspeed: the node %s:%d is closed" % (self.addr, self.port), -9)
        return self._h

    def _call(self, fn, *args):
        err = _lib.ErrorStruct()
        return _lib.check(fn(self._handle(), *args, ctypes.byref(err)), err)

    def info(self, refresh=False):
        """What the node told at open (Info: serial, wl_major/minor/rev, num_rf, buffer
        sizes, samples_per_packet, granted socket buffers, ...); refresh=True asks it
        again (NODE_INFO)."""
        s = _lib.InfoStruct()
        if refresh:
            self._call(_lib.lib.ws_iq_node_info, ctypes.byref(s))
        else:
            _lib.lib.ws_iq_get_info(self._handle(), ctypes.byref(s))
        return _to_record(s)

    def stats(self):
        """The handle's counters since open (Stats: retries, re-requests, resends, ...)."""
        s = _lib.StatsStruct()
        _lib.lib.ws_iq_get_stats(self._handle(), ctypes.byref(s))
        return _to_record(s)

    def ping(self):
        """PING: the round-trip time in seconds."""
        return self._call(_lib.lib.ws_iq_ping) / 1e9

    def write(self, data, rf="A", start=0):
        """Write IQ samples to the TX buffers rf from sample start: complex (complex64 goes
        as it is) of shape (N,), or int16 I/Q pairs (N, 2); the same data to every buffer
        of rf, or one row per buffer ((k, N) or (k, N, 2) for k buffers). Returns after the
        node acknowledged every sample."""
        from . import _arrays
        mask = rf_mask(rf)
        fmt, rows, count, arrays = _arrays.write_source(data, _bits(mask))
        start = _int_in("start", start, ctypes.c_uint32)
        count = _int_in("sample count", count, ctypes.c_uint32)
        if rows == 1:
            self._call(_lib.lib.ws_iq_write, mask, start, count, fmt, arrays[0].ctypes.data)
        else:
            self._call(_lib.lib.ws_iq_write_multi, mask, start, count, fmt,
                       _arrays.pointers(arrays))

    def read(self, count=None, rf="A", start=0, dtype="complex64", out=None):
        """Read count samples from sample start of the RX buffers rf: a complex64 array of
        shape (count,) (dtype="int16": (count, 2) I/Q pairs), with one row per buffer
        when rf names several. out= reads into an existing array of that shape and dtype
        (C-contiguous) and returns it."""
        from . import _arrays
        mask = rf_mask(rf)
        if count is not None:
            count = _int_in("count", count, ctypes.c_uint32)
        fmt, arr, rows, n = _arrays.read_dest(count, _bits(mask), dtype, out)
        self._call(_lib.lib.ws_iq_read, mask, _int_in("start", start, ctypes.c_uint32),
                   _int_in("sample count", n, ctypes.c_uint32), fmt, _arrays.pointers(rows))
        return arr

    def enable(self, tx=None, rx=None):
        """TX_BUFF_EN / RX_BUFF_EN: which buffers transmit and capture on the next
        trigger (None leaves that direction alone)."""
        self._call(_lib.lib.ws_iq_enable, rf_mask(tx) if tx is not None else 0,
                   rf_mask(rx) if rx is not None else 0)

    def trigger(self, ids=1):
        """Trigger the node with the trigger-ID mask ids and confirm it by the node's
        trigger counter. Returns Trigger(confirmed, sent, before, after, elapsed_ns);
        confirmed is False for a node without the counter (a WARPLab board: sent once,
        nothing known). A node whose counter never moves raises Error."""
        r = _lib.TriggerStruct()
        self._call(_lib.lib.ws_iq_trigger_ex, _int_in("ids", ids, ctypes.c_uint32),
                   ctypes.byref(r))
        return Trigger(r.status == 0, r.sent, r.before, r.after, r.elapsed_ns)

    def bench(self, samples=32768, trials=10, rf="A", fmt="cf32"):
        """wl_benchmark in the library, as `warpspeed iq bench` (no trigger): trials writes
        then trials reads of samples per buffer of rf, each call timed, the first 5
        dropped. fmt is the caller memory measured: "cf32", "ci16" or "raw" (the node's
        words). Returns Bench(samples, trials, kept, buffers, nodes, write, read); write
        and read are BenchStat(avg_ms, ..., avg_mbps, median_mbps, ..., cpu_us_per_mb)."""
        if fmt not in _BENCH_FORMATS:
            raise ValueError("warpspeed: bench format %r: need cf32, ci16 or raw" % (fmt,))
        row = _lib.BenchRowStruct()
        self._call(_lib.lib.ws_iq_bench, rf_mask(rf), _int_in("samples", samples, ctypes.c_uint32),
                   _int_in("trials", trials, ctypes.c_int), _BENCH_FORMATS[fmt],
                   ctypes.byref(row))
        return _to_record(row)
