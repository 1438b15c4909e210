#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""hostile_node.py: a WARPLab node that answers the handshake, then misbehaves (issue 27, D4).

Usage: hostile_node.py junk|dup [SECONDS]
Binds 127.0.0.1 on a free port, prints "listening on 127.0.0.1:PORT" on stderr, and answers
PING, PAYLOAD_SIZE_TEST and NODE_INFO as `warpspeed node` does (WARPLab 7.7.1, 2 RF,
2^20-sample buffers, jumbo payload), so `warpspeed iq` opens it. Then:
  junk  never sends a sample; from the first Read IQ or Write IQ on, 40 bytes of random
        junk every 5 ms to the host's port, and nothing else to that port (a PING
        answer would end a write at once: "not acknowledged after 20 sends")
  dup   answers a host's first Read IQ with its first packet only, then sends that same
        packet again every 5 ms (valid, but always a duplicate); Write IQ is never
        acknowledged
Every other command gets an empty answer. Exits after SECONDS (default 60). Only
127.0.0.1 is ever addressed."""
import os
import select
import socket
import struct
import sys
import time

PING = 0x10000001
PAYLOAD_SIZE_TEST = 0x10000002
NODE_INFO = 0x00000002
READ_IQ = 0x30000009
WRITE_IQ = 0x30000008


def reply(req, command, args=b"", seq=0):
    """A node->host answer to req's transport header: IDs swapped, seq kept."""
    dest, src = struct.unpack(">HH", req[2:6])
    body = struct.pack(">IHH", command, len(args), len(args) // 4) + args
    tr = struct.pack(">HHBBHHH", src, dest, 0, 2, 12 + len(body) + 2, seq, 0)
    return b"\0\0" + tr + body


def node_info():
    words = [6, 0x12345678, 0x9ABCDEF0, 0x0040, 0x5E000106,
             (3 << 24) | (7 << 16) | (7 << 8) | 1, 1 << 20, 1 << 20, 1 << 20, 1 << 20,
             0, 1, 2]
    return struct.pack(">13I", *words)


def main():
    mode = sys.argv[1]
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    print("listening on 127.0.0.1:%d" % s.getsockname()[1], file=sys.stderr, flush=True)
    host = None
    stream = None  # what to send every 5 ms once the transfer began
    end = time.monotonic() + seconds
    next_send = 0.0
    while time.monotonic() < end:
        r, _, _ = select.select([s], [], [], 0.005)
        if r:
            pkt, addr = s.recvfrom(65536)
            if len(pkt) < 22 or pkt[7] != 1:
                continue
            seq = struct.unpack(">H", pkt[10:12])[0]
            command = struct.unpack(">I", pkt[14:18])[0]
            args = pkt[22:]
            if command == PAYLOAD_SIZE_TEST and len(args) >= 4:
                last = struct.unpack(">I", args[-4:])[0]
                s.sendto(reply(pkt, command, struct.pack(">I", 4 * last + 20), seq), addr)
            elif command == NODE_INFO:
                s.sendto(reply(pkt, command, node_info(), seq), addr)
            elif mode == "junk" and stream is not None and addr == host:
                continue  # gone bad for this host: not even a PING answer, only junk
            elif command in (READ_IQ, WRITE_IQ):
                fresh = addr != host  # a new handle (its own port): a new first packet
                host = addr
                if stream is None and mode == "junk":
                    stream = b""
                elif fresh and mode == "dup" and command == READ_IQ and len(args) >= 20:
                    buf, start, count, bpp, _ = struct.unpack(">IIIII", args[:20])
                    n = min(bpp // 4, count)
                    hdr = struct.pack(">HBBII", buf, 0, 0, start, n)
                    samples = bytes(4 * n)
                    stream = reply(pkt, READ_IQ, hdr + samples, seq)
                    s.sendto(stream, addr)
            else:
                s.sendto(reply(pkt, command, b"", seq), addr)
        now = time.monotonic()
        if host is not None and stream is not None and now >= next_send:
            s.sendto(stream if stream else os.urandom(40), host)
            next_send = now + 0.005


if __name__ == "__main__":
    main()
