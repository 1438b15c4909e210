#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""node_hostile.py: the hostile hosts of node_fair.sh and node_memory.sh (issue 27).

Every mode prints one line of key=value results; the shell script asserts on them.
  hogs PORT N SECONDS     N sources 127.0.0.2 .. 127.0.0.(N+1), each sending one 42-byte
                          Read IQ for 2^27 samples of RF_A, then again every 0.5 s, for
                          SECONDS, never reading what comes back (their receive
                          buffers overflow, as a spoofed victim's would);
                          prints "ready" on stderr once every request went out
  sparse PORT BPORT TX ROUNDS  one 1-sample Write IQ per 64 KiB chunk of a TX buffer of TX
                          samples (RF_A|RF_B, fast mode, no acks), a trigger, ROUNDS
                          times; then a ROBUST Write IQ and what it was answered
Only 127.0.0.0/8 is ever addressed."""
import socket
import struct
import sys
import time

ROBUST = 0x0001
READ_IQ = 0x30000009
WRITE_IQ = 0x30000008


def cmd(command, args=b"", seq=1, flags=ROBUST):
    body = struct.pack(">IHH", command, len(args), len(args) // 4) + args
    tr = struct.pack(">HHBBHHH", 0, 250, 0, 1, len(body), seq & 0xFFFF, flags)
    return b"\0\0" + tr + body


def trigger():
    tr = struct.pack(">HHBBHHH", 0xFFFF, 250, 0, 0, 4, 0, 0)
    return b"\0\0" + tr + struct.pack(">I", 1)


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


def sparse(port, bport, tx, rounds):
    node = ("127.0.0.1", port)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    seq, sent, nbytes = 0, 0, 0
    for _ in range(rounds):
        for start in range(0, tx, 16384):
            seq += 1
            hdr = struct.pack(">HBBII", 0x3, 0x10, 0, start, 1)
            p = cmd(WRITE_IQ, hdr + struct.pack(">I", 0x12345678), seq=seq, flags=0)
            while True:
                try:
                    s.sendto(p, node)
                    break
                except BlockingIOError:
                    time.sleep(0.001)
            sent += 1
            nbytes += len(p)
            if sent % 256 == 0:
                time.sleep(0.002)  # stay below the node's receive buffer
        time.sleep(0.05)
        s.sendto(trigger(), ("127.0.0.1", bport))
        time.sleep(0.05)
    # One ROBUST write, as a host's last packet: what does the node answer now?
    hdr = struct.pack(">HBBII", 0x1, 0x30, 7, tx - 20000, 1)
    s.settimeout(1.0)
    status = -1
    s.sendto(cmd(WRITE_IQ, hdr + struct.pack(">I", 1), seq=0x7777), node)
    try:
        while True:
            r = s.recv(65536)
            if len(r) >= 34 and struct.unpack(">H", r[10:12])[0] == 0x7777:
                status = struct.unpack(">I", r[22:26])[0]
                break
    except socket.timeout:
        pass
    print("packets=%d bytes=%d robust_status=%d" % (sent, nbytes, status))


def main():
    mode = sys.argv[1]
    a = [int(x) for x in sys.argv[2:]]
    {"hogs": lambda: hogs(a[0], a[1], a[2]),
     "sparse": lambda: sparse(a[0], a[1], a[2], a[3])}[mode]()


if __name__ == "__main__":
    main()
