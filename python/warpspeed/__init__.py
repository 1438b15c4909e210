# SPDX-License-Identifier: BSD-2-Clause
"""warpspeed: WARPLab 7.7.1 IQ transport for Python and numpy, over libwarpspeed.so.

Drives a WARP v3 node (or `warpspeed node`, the emulator) with warpspeed's host transport:
every sample bit-exact or an error, at line rate. Needs numpy for read and write only.

    import numpy as np, warpspeed
    with warpspeed.Node("10.0.0.1") as n:           # ADDR or ADDR:PORT (9000)
        print(n.info().serial, n.ping())
        n.write(np.exp(2j * np.pi * np.arange(32768) / 64).astype(np.complex64) * 0.5)
        n.enable(tx="A", rx="A")
        n.trigger()                                  # confirmed by the node's counter
        rx = n.read(32768, rf="A")                   # complex64; dtype="int16" for (N, 2)
        print(n.bench(2**20).read.avg_mbps)

complex64 arrays are passed to the library without a copy (its CF32 format is their
memory: float I, Q = value / 32768); int16 (N, 2) arrays are the raw Fix16_15 pairs.
Failures raise warpspeed.Error (msg: the library's sentence, code: negative errno);
wrong dtypes or shapes raise TypeError / ValueError. The library is found through
$WARPSPEED_LIB, then the build/ folder of this source tree (or, installed, the LIBDIR it
was installed with), then the system loader. See docs/iq.md, "From Python".
"""
from ._lib import Error, path as library_path, version as library_version
from .node import (RF_A, RF_B, RF_C, RF_D, Bench, BenchStat, Info, Node, Stats, Trigger,
                   rf_mask, trigger_broadcast)

__version__ = library_version
__all__ = ["Error", "Node", "Info", "Stats", "Trigger", "Bench", "BenchStat",
           "trigger_broadcast", "rf_mask", "library_path", "library_version",
           "RF_A", "RF_B", "RF_C", "RF_D"]
