# SPDX-License-Identifier: BSD-2-Clause
"""Tests of the warpspeed Python module against a running `warpspeed node` on loopback
(2 RF, 1M-sample buffers, reply rate off), started by tests/integration/python.sh.

Usage: test_warpspeed.py PORT BCAST_PORT VERSION SHLIB
(VERSION: the build's version, make -s version; SHLIB: the libwarpspeed.so.X.Y.Z of
the build under test, also what $WARPSPEED_LIB points at). Prints PASS/FAIL/SKIP lines like every other test;
exits 1 when any check failed. Checks are exact: bit-identical samples, the library's
own messages and codes, the structures' layouts against the C header.
"""
import ctypes
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import numpy as np

import warpspeed
from warpspeed import _arrays, _lib

PORT, BPORT, VERSION, SHLIB = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NODE_SAMPLES = 1 << 20
failed = False


def check(name, ok, detail=""):
    global failed
    if ok:
        print("PASS python_%s" % name)
    else:
        failed = True
        print("FAIL python_%s: %s" % (name, detail))


def raises(fn, exc, msg=None, code=None, startswith=None):
    """'' when fn() raises exc (with exactly msg / code / a message starting so), else
    what happened instead."""
    try:
        fn()
    except exc as e:
        text = str(e)
        if msg is not None and text != msg:
            return "message %r, want %r" % (text, msg)
        if startswith is not None and not text.startswith(startswith):
            return "message %r does not start with %r" % (text, startswith)
        if code is not None and e.code != code:
            return "code %r, want %r" % (e.code, code)
        return ""
    except Exception as e:  # the wrong kind is a failure, with what it was
        return "raised %s: %s, want %s" % (type(e).__name__, e, exc.__name__)
    return "did not raise %s" % exc.__name__


def samples(seed, n):
    """n random int16 I/Q pairs (N, 2) and the same as complex64 (value / 32768, exact)."""
    iq = np.random.default_rng(seed).integers(-32768, 32768, size=(n, 2), dtype=np.int16)
    return iq, (iq.astype(np.float32) / 32768).view(np.complex64)[:, 0]


def test_layout():
    """Every field offset and size of the ctypes structures equals the C header's."""
    cc = shutil.which(os.environ.get("CC", "cc"))
    if not cc:
        print("SKIP python_layout: no C compiler (cc) to read the header's layout")
        return
    lines, want = [], []
    for struct, cname in _lib.C_NAMES.items():
        lines.append('printf("%s %%zu\\n", sizeof(%s));' % (cname, cname))
        want.append("%s %d" % (cname, ctypes.sizeof(struct)))
        for field, _ in struct._fields_:
            lines.append('printf("%s.%s %%zu\\n", offsetof(%s, %s));' % (cname, field, cname, field))
            want.append("%s.%s %d" % (cname, field, getattr(struct, field).offset))
    src = ("#include <stddef.h>\n#include <stdio.h>\n#include <warpspeed/iq.h>\n"
           "int main(void) {\n%s\nreturn 0;\n}\n" % "\n".join(lines))
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "l.c"), "w") as f:
            f.write(src)
        exe = os.path.join(d, "l")
        r = subprocess.run([cc, "-std=c11", "-I", os.path.join(ROOT, "include"), "-o", exe,
                            os.path.join(d, "l.c")], capture_output=True, text=True)
        got = subprocess.run([exe], capture_output=True, text=True).stdout.split("\n")[:-1] \
            if r.returncode == 0 else [r.stderr[:300]]
    bad = [(w, g) for w, g in zip(want, got) if w != g] + \
        ([("%d lines" % len(want), "%d lines" % len(got))] if len(got) != len(want) else [])
    check("layout (%d fields of %d structures)" % (len(want) - len(_lib.C_NAMES), len(_lib.C_NAMES)),
          not bad, "python vs C: %s" % bad[:5])


def test_library():
    check("library_version", warpspeed.library_version == VERSION,
          "%s, want %s" % (warpspeed.library_version, VERSION))
    check("library_path", os.path.realpath(warpspeed.library_path) == os.path.realpath(SHLIB),
          "%s, want %s" % (warpspeed.library_path, SHLIB))
    # ctypes.CDLL (not PyDLL): every call releases the GIL.
    check("gil_released", not (_lib.lib.ws_iq_read._flags_ & ctypes._FUNCFLAG_PYTHONAPI))
    env = dict(os.environ, WARPSPEED_LIB="/nonexistent/libwarpspeed.so.0")
    r = subprocess.run([sys.executable, "-c", "import warpspeed"], env=env, capture_output=True,
                       text=True)
    want = ("ImportError: warpspeed: cannot load libwarpspeed.so.0: tried "
            "/nonexistent/libwarpspeed.so.0 (no such file); build it with `make` or set "
            "WARPSPEED_LIB to its path")
    check("import_error", r.returncode == 1 and r.stderr.strip().endswith(want), r.stderr[-300:])


def test_info_ping(n):
    i = n.info()
    got = (i.serial, i.hw_version, (i.wl_major, i.wl_minor, i.wl_rev), i.num_rf,
           i.max_tx_samples, i.max_rx_samples, i.samples_per_packet, i.packet_size, len(i.mac))
    want = (6, 3, (7, 7, 1), 2, NODE_SAMPLES, NODE_SAMPLES, 2232, 8962, 6)
    check("info", got == want, "%s, want %s" % (got, want))
    check("info_refresh", n.info(refresh=True) == i, "%s != %s" % (n.info(refresh=True), i))
    rtt = n.ping()
    check("ping", isinstance(rtt, float) and 0 < rtt < 1, repr(rtt))


def test_roundtrips(n):
    N = 100003  # not a multiple of the 2232 samples of a packet
    iq, x = samples(1, N)
    # A complex64 array goes to the library as it is: no copy made.
    fmt, _, _, arrays = _arrays.write_source(x, 1)
    check("complex64_is_a_view", fmt == _lib.FMT_CF32 and np.shares_memory(arrays[0], x))
    n.write(x, rf="A")
    n.enable(tx="A", rx="A")
    t = n.trigger()
    check("trigger_confirmed", t.confirmed and t.sent >= 1 and t.after != t.before, repr(t))
    y = n.read(N, rf="A")
    same = y.dtype == np.complex64 and y.shape == (N,) and np.array_equal(y, x)
    check("roundtrip_complex64", same, "%s %s, first differences at %s" % (
        y.dtype, y.shape, np.flatnonzero(y != x)[:5] if y.shape == x.shape else "-"))
    z = n.read(N, rf="A", dtype="int16")
    check("roundtrip_complex64_as_int16", z.shape == (N, 2) and np.array_equal(z, iq))

    iq2, x2 = samples(2, N)
    n.write(iq2, rf="B")
    n.enable(tx="B", rx="B")
    n.trigger()
    out = np.empty((N, 2), dtype=np.int16)
    z2 = n.read(rf="B", dtype=np.int16, out=out)
    check("roundtrip_int16", z2 is out and np.array_equal(out, iq2))
    check("roundtrip_int16_as_complex64", np.array_equal(n.read(N, rf="B"), x2))

    # Two buffers, one row each; complex128 and a strided int16 view are converted.
    iq3, x3 = samples(3, 2 * N)
    rows = np.stack([x3[:N], x3[N:]])
    n.write(rows.astype(np.complex128), rf="A,B")
    n.enable(tx="AB", rx=["A", "B"])
    n.trigger()
    both = n.read(N, rf=warpspeed.RF_A | warpspeed.RF_B)
    check("roundtrip_two_buffers", both.shape == (2, N) and np.array_equal(both, rows))
    n.write(iq3[::2], rf="A")
    n.trigger()
    check("roundtrip_strided_int16", np.array_equal(n.read(N, dtype="int16"), iq3[::2]))


def test_errors(n, closed_port):
    check("bad_address", not raises(lambda: warpspeed.Node("not-an-address"), warpspeed.Error,
                                    "iq: node address 'not-an-address' is not an IPv4 address "
                                    "(a.b.c.d)", -22))
    check("closed_port", not raises(lambda: warpspeed.Node("127.0.0.1:%d" % closed_port),
                                    warpspeed.Error, "node 127.0.0.1:%d refused the packet (ICMP "
                                    "port unreachable): nothing listens on that port" % closed_port,
                                    -111))
    check("beyond_buffer", not raises(lambda: n.read(NODE_SAMPLES + 1), warpspeed.Error,
                                      "Read IQ: samples [0, 0 + 1048577) are beyond the node's RX "
                                      "buffer of 1048576 samples", -22))
    check("rf_the_node_lacks", not raises(lambda: n.read(10, rf="C"), warpspeed.Error,
                                          "Read IQ: buffer mask 0x4 names interfaces the node "
                                          "lacks (it has 2: mask within 0x3)", -22))
    check("write_float64", not raises(lambda: n.write(np.zeros(8)), TypeError,
                                      "warpspeed: write data must be %s; got a float64 array"
                                      % _arrays.ACCEPTED))
    check("write_int32", not raises(lambda: n.write(np.zeros((8, 2), np.int32)), TypeError,
                                    startswith="warpspeed: write data must be complex"))
    check("write_int16_shape", not raises(lambda: n.write(np.zeros((8, 3), np.int16)), ValueError,
                                          "warpspeed: int16 I/Q data of shape (8, 3): need (N, 2)"))
    check("write_rows_mismatch", not raises(lambda: n.write(np.zeros((3, 8), np.complex64), rf="AB"),
                                            ValueError, "warpspeed: complex data of shape (3, 8): "
                                            "need (N,) or (2, N) for one row per buffer"))
    check("write_empty", not raises(lambda: n.write(np.zeros(0, np.complex64)), ValueError,
                                    "warpspeed: no samples to write (shape (0,))"))
    check("read_dtype", not raises(lambda: n.read(8, dtype=np.float32), TypeError,
                                   "warpspeed: read into float32: need complex64 or int16 (I/Q pairs)"))
    check("read_out_strided", not raises(lambda: n.read(out=np.zeros(16, np.complex64)[::2]),
                                         ValueError, "warpspeed: out must be C-contiguous and writable"))
    check("read_out_shape", not raises(lambda: n.read(8, out=np.zeros(9, np.complex64)), ValueError,
                                       "warpspeed: out has shape (9,): need (8,)"))
    check("negative_start", not raises(lambda: n.read(8, start=-1), ValueError,
                                       "warpspeed: start -1 is out of range 0..4294967295"))
    check("bad_rf", not raises(lambda: n.read(8, rf="E"), ValueError,
                               "warpspeed: rf 'E': need letters A..D (\"A\", \"A,B\"), a list of "
                               "them, or a mask 1..15"))
    check("unknown_option", not raises(lambda: warpspeed.Node("127.0.0.1", PORT, timeout=5), TypeError,
                                       startswith="warpspeed: unknown Node option 'timeout'; "
                                       "accepted: budget_ms, cmd_tries, host_id, idle_ms,"))
    check("bench_trials", not raises(lambda: n.bench(1000, trials=5), warpspeed.Error,
                                     "bench: 5 trials: need 6..100000 (the first 5 are dropped, "
                                     "as wl_benchmark does)", -22))


def test_broadcast_and_stats(n):
    before = n.trigger()
    warpspeed.trigger_broadcast("127.0.0.1", BPORT)
    time.sleep(0.1)
    after = n.trigger()
    check("broadcast_trigger_counted", after.before == before.after + 1,
          "counter %d after the broadcast, %d before it" % (after.before, before.after))
    s0 = n.stats()
    n.read(10)
    n.read(10, rf="AB")
    s1 = n.stats()
    check("stats", (s1.read_calls - s0.read_calls, s1.triggers_unconfirmed) == (2, 0),
          "%s -> %s" % (s0, s1))


def test_closed():
    with warpspeed.Node("127.0.0.1", PORT, budget_ms=500) as m:
        m.ping()
    check("closed", m.closed and not raises(m.ping, warpspeed.Error,
                                            "warpspeed: the node 127.0.0.1:%d is closed" % PORT, -9))


def test_bench(n):
    N, trials = 1 << 20, 8
    b = n.bench(N, trials=trials, fmt="cf32")
    check("bench", (b.samples, b.trials, b.kept, b.buffers) == (N, trials, trials - 5, 1) and
          b.write.avg_mbps > 0 and b.read.avg_mbps > 0, repr(b))
    # The same through Python: numpy complex64 in and out, each call timed.
    _, x = samples(4, N)
    y = np.empty(N, np.complex64)
    tw, tr = [], []
    for _ in range(trials):
        t0 = time.perf_counter()
        n.write(x)
        t1 = time.perf_counter()
        n.read(out=y)
        tr.append(time.perf_counter() - t1)
        tw.append(t1 - t0)
    mbit = N * 32 / 1e6
    print("python bench: 2^20 samples cf32 on loopback: library (ws_iq_bench, %d of %d trials) "
          "write %.1f Mb/s, read %.1f Mb/s; through numpy (median of %d) write %.1f Mb/s, "
          "read %.1f Mb/s" % (b.kept, b.trials, b.write.avg_mbps, b.read.avg_mbps, trials,
                              mbit / np.median(tw), mbit / np.median(tr)))


def main():
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    probe.bind(("127.0.0.1", 0))
    closed_port = probe.getsockname()[1]
    probe.close()
    test_layout()
    test_library()
    with warpspeed.Node("127.0.0.1", PORT) as n:
        test_info_ping(n)
        test_roundtrips(n)
        test_errors(n, closed_port)
        test_broadcast_and_stats(n)
        test_bench(n)
    test_closed()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
