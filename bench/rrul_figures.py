#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""rrul_figures: the figures bench/rrul.sh compares, read the same way from any Flent data
file, whether Flent wrote it (driving netperf) or warpspeed did (--flent).

    bench/rrul_figures.py FILE.flent.gz...

One line per file: "idle_ms loaded_udp_ms up_mbps down_mbps lost up_full down_full
loaded_steady_ms",
where
- idle_ms is the median of the UDP probes ("Ping (ms) UDP *") before the load starts
  (Flent's rrul runs its probes DELAY seconds before and after the TCP flows: DELAY is
  (TOTAL_LENGTH - LENGTH) / 2 from the file's metadata; the first sample is left out, it
  carries connection set-up);
- loaded_udp_ms is the median of the same probes while the flows run (DELAY .. DELAY +
  LENGTH), every UDP series pooled;
- up_mbps and down_mbps are the means of "TCP upload sum" and "TCP download sum" (Flent's
  sum series; computed from the per-flow series when absent) over the flows' steady
  state: the loaded window less TRIM seconds at each end (1 s, or a quarter of LENGTH
  when shorter). Flent's netperf flows do not start at DELAY on its file's time axis
  (its upload flows' first samples come up to a second earlier, the downloads' later,
  and they stop as early), so over the whole window its mean leaves out most of its own
  ramp-up and ramp-down (empty samples) while warpspeed's, whose flows start and end
  at DELAY and DELAY + LENGTH, has both; the trimmed window holds neither, for both;
- lost counts probe samples without a value (null) in the loaded window;
- up_full and down_full are the same means over the whole loaded window, the figure
  `flent -f summary` prints for the sums;
- loaded_steady_ms is loaded_udp_ms over the flows' steady state (the sums' window). A
  UDP round trip crosses both directions' queues, and where Flent's upload flows stop up
  to a second before DELAY + LENGTH the last second of its loaded window holds the
  download queue alone; warpspeed's flows run to the window's end, so over the whole
  window the two medians mix different shares of those samples.
"""
import gzip
import json
import statistics
import sys

TRIM_S = 1.0  # the sums' steady state: the loaded window less this at each end


def figures(path):
    with gzip.open(path, "rt") as f:
        d = json.load(f)
    meta = d["metadata"]
    length = float(meta["LENGTH"])
    total = float(meta.get("TOTAL_LENGTH") or length)
    delay = (total - length) / 2
    xs = d["x_values"]
    res = d["results"]

    def window(name, lo, hi):
        return [v for x, v in zip(xs, res.get(name, [])) if lo <= x < hi]

    udp = [n for n in res if n.startswith("Ping (ms) UDP")]
    idle = [v for n in udp for v in window(n, xs[1] if len(xs) > 1 else 0, delay) if v is not None]
    loaded_all = [v for n in udp for v in window(n, delay, delay + length)]
    loaded = [v for v in loaded_all if v is not None]

    trim = min(TRIM_S, length / 4)

    def mean_sum(kind, lo, hi):
        name = "TCP %s sum" % kind
        if name in res:
            vals = [v for v in window(name, lo, hi) if v is not None]
        else:
            flows = [n for n in res if n.startswith("TCP %s " % kind) and not n.endswith(("sum", "avg"))]
            cols = [window(n, lo, hi) for n in flows]
            vals = [sum(v or 0 for v in row) for row in zip(*cols)] if cols else []
        return statistics.mean(vals) if vals else float("nan")

    med = lambda v: statistics.median(v) if v else float("nan")
    lo, hi = delay + trim, delay + length - trim
    steady = [v for n in udp for v in window(n, lo, hi) if v is not None]
    return "%.4f %.4f %.2f %.2f %d %.2f %.2f %.4f" % (
        med(idle), med(loaded), mean_sum("upload", lo, hi), mean_sum("download", lo, hi),
        len(loaded_all) - len(loaded), mean_sum("upload", delay, delay + length),
        mean_sum("download", delay, delay + length), med(steady))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write("usage: bench/rrul_figures.py FILE.flent.gz...\n")
        return 2
    for p in argv[1:]:
        try:
            print(figures(p))
        except (OSError, ValueError, KeyError) as e:
            sys.stderr.write("rrul_figures: %s: %s\n" % (p, e))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
