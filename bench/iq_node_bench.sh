#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# iq_node_bench.sh: the node emulator's standard figures on loopback, medians of several
# rounds: Read IQ and Write IQ of 2^25 samples with jumbo payloads (the floor is
# 10 Gb/s read, 5 Gb/s write, lossless) and of 2^23 samples with 1500-MTU payloads.
# Usage: bench/iq_node_bench.sh [build-dir] [rounds]; exits non-zero below the floors.
set -u
build=${1:-build}
rounds=${2:-7}
bin=$build/bench/iq_node_bench
[ -x "$bin" ] || { echo "iq_node_bench.sh: $bin missing (make bench-bins)" >&2; exit 2; }
echo "== jumbo (8964-byte payload, 2232 samples/packet)"
"$bin" --samples 32M --rounds "$rounds" --max-payload 8964 --expect-read 10 --expect-write 5
rc=$?
echo "== 1500 MTU (1468-byte payload, 356 samples/packet)"
"$bin" --samples 8M --rounds "$rounds" --max-payload 1468 || rc=1
exit $rc
