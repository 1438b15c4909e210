#!/usr/bin/env python3
"""node_hostile.py: the hostile hosts of tests/integration/node_fair.sh (issue 27).

Every mode prints one line of key=value results; the shell script asserts on them.
  hogs PORT N SECONDS     N sources 127.0.0.2 .. 127.0.0.(N+1), each sending one 42-byte
                          Read IQ for 2^27 samples of RF_A, then again every 0.5 s, for
                          SECONDS, never reading what comes back
                          (their receive buffers overflow, as a spoofed victim's would);
                          prints "ready" on stderr once every request went out
Only 127.0.0.0/8 is ever addressed."""
import socket
import struct
import sys
import time

READ_IQ = 0x30000009


def read_iq(rf, start, count, seq):
    # As WARPLab 7.7.1 sends it: command length 0, num_args 0, five words after.
    body = struct.pack(">IHH", READ_IQ, 0, 0) + struct.pack(">IIIII", rf, start, count,
                                                             2232 * 4, 0)
    tr = struct.pack(">HHBBHHH", 0, 250, 0, 1, len(body), seq & 0xFFFF, 0)
    return b"\0\0" + tr + body


def hogs(port, n, seconds):
    node = ("127.0.0.1", port)
    socks = []
    for k in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind(("127.0.0.%d" % (2 + k), 0))
        socks.append(s)
    req = read_iq(1, 0, 1 << 27, 1)
    sent = 0
    for s in socks:
        s.sendto(req, node)
        sent += 1
    sys.stderr.write("ready\n")
    sys.stderr.flush()
    end = time.monotonic() + seconds
    nxt = time.monotonic() + 0.5
    while time.monotonic() < end:
        time.sleep(max(0.0, min(nxt, end) - time.monotonic()))
        if time.monotonic() >= nxt:
            for s in socks:
                s.sendto(req, node)
                sent += 1
            nxt += 0.5
    print("sources=%d req_bytes=%d requests=%d" % (n, len(req), sent))


def main():
    mode = sys.argv[1]
    a = [int(x) for x in sys.argv[2:]]
    {"hogs": lambda: hogs(a[0], a[1], a[2])}[mode]()


if __name__ == "__main__":
    main()
