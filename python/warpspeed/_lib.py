# SPDX-License-Identifier: BSD-2-Clause
"""libwarpspeed.so through ctypes: finding and loading it, the C structures of
<warpspeed/iq.h> as ctypes types, the prototypes, and the one place a C error becomes a
Python exception.

The library is loaded once, at import, with ctypes.CDLL, which releases the GIL for the
length of every call: a transfer on one Node does not stop other Python threads. The
structure layouts are the header's; tests/python/test_warpspeed.py compiles a C program
that prints every field offset and compares them with these.
"""
import ctypes
import os
from ctypes import (POINTER, c_char, c_char_p, c_double, c_int, c_int64, c_size_t,
                    c_uint, c_uint8, c_uint16, c_uint32, c_uint64, c_void_p)

# The ABI this module speaks: the library's soname (libwarpspeed.so.MAJOR).
ABI_MAJOR = 0
SONAME = "libwarpspeed.so.%d" % ABI_MAJOR

# Set by `make install` in the installed copy to the LIBDIR the library went to, so the
# installed module loads the library installed with it (no ldconfig needed).
INSTALLED_LIBDIR = None


class Error(Exception):
    """A libwarpspeed call failed: msg is the library's sentence, code its negative
    errno-style code (-22 a bad argument, -110 a timeout, ...)."""

    def __init__(self, msg, code):
        super().__init__(msg)
        self.msg = msg
        self.code = code


class ErrorStruct(ctypes.Structure):
    _fields_ = [("code", c_int), ("msg", c_char * 512)]


class Config(ctypes.Structure):
    _fields_ = [
        ("addr", c_char_p), ("port", c_int), ("node_id", c_uint16), ("host_id", c_uint16),
        ("trigger_port", c_int), ("max_payload", c_uint32), ("timeout_ms", c_uint32),
        ("cmd_tries", c_int), ("idle_ms", c_uint32), ("retries", c_int), ("rcvbuf", c_int),
        ("sndbuf", c_int), ("window", c_uint32), ("pace_ns", c_uint32),
        ("write_mode", c_int), ("budget_ms", c_uint32), ("write_rate_bps", c_uint64),
        ("stall_budget_ms", c_uint32),
    ]


class InfoStruct(ctypes.Structure):
    _fields_ = [
        ("serial", c_uint32), ("dna_msb", c_uint32), ("dna_lsb", c_uint32),
        ("mac", c_uint8 * 6), ("hw_version", c_uint32), ("wl_major", c_uint32),
        ("wl_minor", c_uint32), ("wl_rev", c_uint32), ("max_tx_samples", c_uint32),
        ("max_rx_samples", c_uint32), ("tx_length", c_uint32), ("rx_length", c_uint32),
        ("trig_info", c_uint32), ("num_ifc_groups", c_uint32), ("num_rf", c_uint32),
        ("max_payload", c_uint32), ("samples_per_packet", c_uint32),
        ("packet_size", c_uint32), ("rcvbuf", c_int), ("sndbuf", c_int),
        ("window", c_uint32),
    ]


class StatsStruct(ctypes.Structure):
    _fields_ = [(name, c_uint64) for name in (
        "commands", "command_retries", "read_calls", "read_requests", "read_rerequests",
        "read_packets", "read_dup_packets", "write_calls", "write_packets", "write_resends",
        "write_fallbacks", "checksum_mismatches", "timeouts", "not_ready", "wrong_seq",
        "wrong_node", "malformed", "stale", "triggers", "trigger_resends",
        "triggers_unconfirmed")]


class TriggerStruct(ctypes.Structure):
    _fields_ = [("status", c_int), ("sent", c_int), ("before", c_uint64),
                ("after", c_uint64), ("elapsed_ns", c_int64)]


class BenchStatStruct(ctypes.Structure):
    _fields_ = [(name, c_double) for name in (
        "avg_ms", "min_ms", "median_ms", "max_ms", "avg_mbps", "min_mbps", "median_mbps",
        "max_mbps", "cpu_us_per_mb")]


class BenchRowStruct(ctypes.Structure):
    _fields_ = [("samples", c_uint32), ("trials", c_int), ("kept", c_int),
                ("buffers", c_int), ("nodes", c_int), ("write", BenchStatStruct),
                ("read", BenchStatStruct)]


# The C type name of each structure, for the layout check against the header.
C_NAMES = {ErrorStruct: "ws_iq_error", Config: "ws_iq_config", InfoStruct: "ws_iq_info",
           StatsStruct: "ws_iq_stats", TriggerStruct: "ws_iq_trigger_result",
           BenchStatStruct: "ws_iq_bench_stat", BenchRowStruct: "ws_iq_bench_row"}

_E = POINTER(ErrorStruct)
_PTRS = POINTER(c_void_p)
# name: (result type, argument types), as declared in iq.h and version.h.
_PROTOTYPES = {
    "ws_version": (c_char_p, []),
    "ws_iq_config_default": (None, [POINTER(Config)]),
    "ws_iq_open": (c_int, [POINTER(Config), POINTER(c_void_p), _E]),
    "ws_iq_close": (None, [c_void_p]),
    "ws_iq_get_info": (None, [c_void_p, POINTER(InfoStruct)]),
    "ws_iq_get_stats": (None, [c_void_p, POINTER(StatsStruct)]),
    "ws_iq_ping": (c_int64, [c_void_p, _E]),
    "ws_iq_node_info": (c_int, [c_void_p, POINTER(InfoStruct), _E]),
    "ws_iq_format_size": (c_size_t, [c_int]),
    "ws_iq_read": (c_int, [c_void_p, c_uint, c_uint32, c_uint32, c_int, _PTRS, _E]),
    "ws_iq_write": (c_int, [c_void_p, c_uint, c_uint32, c_uint32, c_int, c_void_p, _E]),
    "ws_iq_write_multi": (c_int, [c_void_p, c_uint, c_uint32, c_uint32, c_int, _PTRS, _E]),
    "ws_iq_enable": (c_int, [c_void_p, c_uint, c_uint, _E]),
    "ws_iq_trigger_ex": (c_int, [c_void_p, c_uint32, POINTER(TriggerStruct), _E]),
    "ws_iq_trigger_broadcast": (c_int, [c_char_p, c_int, c_uint16, c_uint32, _E]),
    "ws_iq_bench": (c_int, [c_void_p, c_uint, c_uint32, c_int, c_int,
                            POINTER(BenchRowStruct), _E]),
}

# Sample formats of caller memory (ws_iq_format).
FMT_CI16, FMT_CF32, FMT_BE32 = 0, 1, 2


def _candidates():
    """Where to look, in order: $WARPSPEED_LIB alone when set; the installed LIBDIR or,
    from a source tree, its build/ folder; then the system loader (ld.so.cache)."""
    env = os.environ.get("WARPSPEED_LIB")
    if env:
        return [env]
    if INSTALLED_LIBDIR:
        first = os.path.join(INSTALLED_LIBDIR, SONAME)
    else:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        first = os.path.join(root, "build", SONAME)
    return [first, SONAME]


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append("%s (no such file)" % path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        for name, (res, args) in _PROTOTYPES.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        version = lib.ws_version().decode()
        if version.split(".")[0] != str(ABI_MAJOR):
            raise ImportError("warpspeed: %s is release %s; this module needs %s (release "
                              "%d.x)" % (path, version, SONAME, ABI_MAJOR))
        return lib, path, version
    raise ImportError("warpspeed: cannot load %s: tried %s; build it with `make` or set "
                      "WARPSPEED_LIB to its path" % (SONAME, "; ".join(tried)))


lib, path, version = _load()


def check(rc, err):
    """rc of a call that filled err: rc when >= 0, else raise Error."""
    if rc < 0:
        raise Error(err.msg.decode("utf-8", "replace"), err.code or int(rc))
    return rc
