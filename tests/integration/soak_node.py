#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""soak_node.py: the hostile and the honest host of tests/integration/soak_node.sh.

Every mode prints one line of key=value results; the shell script asserts on them.
  amplify PORT SECONDS   a 42-byte Read IQ (RF_A|RF_B, 2^27 samples) from 127.0.0.77, then
                         counts what that source receives for SECONDS while a host on
                         127.0.0.1 pings every 20 ms (round-trip times, answers)
  denied PORT BPORT N    N datagrams from 127.0.0.77 (Read IQ, PING, trigger to BPORT)
                         and whether anything came back within 300 ms
  bigwrite PORT BPORT TX  a 66-byte Write IQ at the end of TX, a trigger, then PINGs:
                         the first answer's delay after the trigger
  trigcount PORT         the warpspeed trigger counter query, reply bytes in hex
Only 127.0.0.0/8 is ever addressed."""
import os
import select
import socket
import struct
import sys
import time

ROBUST = 0x0001
PING = 0x10000001
READ_IQ = 0x30000009
WRITE_IQ = 0x30000008
TRIGGER_COUNT = 0x50575301


def cmd(command, args=b"", seq=1, flags=ROBUST):
    body = struct.pack(">IHH", command, len(args), len(args) // 4) + args
    # Host->node transport length: the UDP payload minus pad and transport header.
    length = len(body)
    tr = struct.pack(">HHBBHHH", 0, 250, 0, 1, length, seq, flags)
    return b"\0\0" + tr + body


def trigger():
    tr = struct.pack(">HHBBHHH", 0xFFFF, 250, 0, 0, 4, 0, 0)
    return b"\0\0" + tr + struct.pack(">I", 1)


def sock(addr, rcvbuf=None):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    if rcvbuf:
        try:
            s.setsockopt(socket.SOL_SOCKET, 33, rcvbuf)  # SO_RCVBUFFORCE
        except OSError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.bind((addr, 0))
    s.setblocking(False)
    return s


def drain(s, buf):
    got = 0
    while True:
        try:
            got += s.recv_into(buf)
        except BlockingIOError:
            return got


def pinger(node, seconds, out, ready):
    """The honest host, in its own process: once one PING was answered (then it says
    ready), a PING every 20 ms for seconds, and their round-trip times."""
    host = sock("127.0.0.1")
    buf = bytearray(65536)
    for _ in range(100):
        host.sendto(cmd(PING, seq=99), node)
        if select.select([host], [], [], 0.02)[0]:
            drain(host, buf)
            break
    os.write(ready, b"R")
    seq, sent, rtts = 100, {}, []
    t0 = time.monotonic()
    next_ping, end = t0, t0 + seconds
    while True:
        now = time.monotonic()
        if now >= end:
            break
        if now >= next_ping:
            seq += 1
            sent[seq] = now
            host.sendto(cmd(PING, seq=seq), node)
            next_ping += 0.02
        r, _, _ = select.select([host], [], [], max(0.0, min(next_ping, end) - now))
        if r:
            while True:
                try:
                    n = host.recv_into(buf)
                except BlockingIOError:
                    break
                s = struct.unpack(">H", buf[10:12])[0] if n >= 12 else -1
                if s in sent:
                    at = sent.pop(s)
                    rtts.append((time.monotonic() - at, at - t0))
    worst = max(rtts) if rtts else (-0.001, 0)
    os.write(out, b"pings=%d answered=%d max_rtt_ms=%.1f max_rtt_at_ms=%.0f"
             % (len(rtts) + len(sent), len(rtts), worst[0] * 1000, worst[1] * 1000))


def amplify(port, seconds):
    node = ("127.0.0.1", port)
    atk = sock("127.0.0.77", 64 << 20)
    buf = bytearray(65536)
    req = cmd(READ_IQ, struct.pack(">IIIII", 0x3, 0, 1 << 27, 2232 * 4, 0), flags=0)
    rfd, wfd = os.pipe()
    rdy_r, rdy_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(rfd)
        pinger(node, seconds, wfd, rdy_w)
        os._exit(0)
    os.close(wfd)
    os.read(rdy_r, 1)
    t0 = time.monotonic()
    atk.sendto(req, node)
    got = 0
    end = t0 + seconds
    while time.monotonic() < end:
        r, _, _ = select.select([atk], [], [], 0.01)
        if r:
            got += drain(atk, buf)
    elapsed = time.monotonic() - t0
    time.sleep(0.05)
    got += drain(atk, buf)
    os.waitpid(child, 0)
    honest = os.read(rfd, 4096).decode()
    print("req_bytes=%d recv_bytes=%d elapsed=%.3f %s" % (len(req), got, elapsed, honest))


def denied(port, bport, n):
    atk = sock("127.0.0.77")
    buf = bytearray(65536)
    pkts = [cmd(READ_IQ, struct.pack(">IIIII", 0x3, 0, 1 << 20, 2232 * 4, 0), flags=0),
            cmd(PING, seq=7)]
    for i in range(n):
        if i % 3 == 2:
            atk.sendto(trigger(), ("127.0.0.1", bport))
        else:
            atk.sendto(pkts[i % 3], ("127.0.0.1", port))
    time.sleep(0.3)
    print("sent=%d recv_bytes=%d" % (n, drain(atk, buf)))


def bigwrite(port, bport, tx_samples):
    node = ("127.0.0.1", port)
    host = sock("127.0.0.1")
    buf = bytearray(65536)
    samples = struct.pack(">8I", *range(1, 9))
    hdr = struct.pack(">HBBII", 0x3, 0, 0, tx_samples - 8, 8)
    w = cmd(WRITE_IQ, hdr + samples, flags=0)
    host.sendto(w, node)
    time.sleep(0.05)
    host.sendto(trigger(), ("127.0.0.1", bport))
    t0 = time.monotonic()
    first = -1.0
    seq = 500
    while time.monotonic() - t0 < 2.0 and first < 0:
        seq += 1
        host.sendto(cmd(PING, seq=seq), node)
        r, _, _ = select.select([host], [], [], 0.005)
        if r:
            drain(host, buf)
            first = time.monotonic() - t0
    print("write_bytes=%d ping_after_trigger_ms=%.1f" % (len(w), first * 1000))


def trigcount(port):
    host = sock("127.0.0.1")
    host.setblocking(True)
    host.settimeout(1.0)
    req = cmd(TRIGGER_COUNT, seq=0x1234)
    host.sendto(req, ("127.0.0.1", port))
    try:
        rsp = host.recv(65536)
    except socket.timeout:
        rsp = b""
    print("req=%s rsp=%s" % (req.hex(), rsp.hex()))


def main():
    mode = sys.argv[1]
    a = [int(x) for x in sys.argv[2:]]
    {"amplify": lambda: amplify(a[0], a[1]),
     "denied": lambda: denied(a[0], a[1], a[2]),
     "bigwrite": lambda: bigwrite(a[0], a[1], a[2]),
     "trigcount": lambda: trigcount(a[0])}[mode]()


if __name__ == "__main__":
    main()
