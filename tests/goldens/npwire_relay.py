#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""npwire_relay: records netperf 2.7's 656-byte control messages for capture-npwire.sh.

relay MODE: listen on ADDR PORT, take one connection, connect it to the real netserver at
UPSTREAM_PORT on the same address, pass bytes both ways and write every complete 656-byte
message, in the order they completed, as a line "C <hex>" (netperf to netserver) or
"S <hex>" (netserver to netperf) to OUT. A trailing partial message is written as
"C-partial"/"S-partial". Exits when both sides have closed, or after TIMEOUT seconds.

probe MODE: connect to netserver at ADDR UPSTREAM_PORT itself, send the messages named on
the command line (TYPE or TYPE:TEXT, each a 656-byte message with every word of the
header converted and TEXT from byte 8), read one reply after each unless the type is 6
(PASSPHRASE), and record both directions the same way; a closed connection is recorded as
"S-eof".
Only loopback addresses are accepted."""
import select
import socket
import struct
import sys
import time

LEN = 656


def family(addr):
    if addr not in ("127.0.0.1", "::1"):
        sys.exit("npwire_relay: only 127.0.0.1 and ::1 are accepted, not " + addr)
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def line(out, tag, data):
    out.write("%s %s\n" % (tag, data.hex()))
    out.flush()


def relay(addr, port, up_port, path, timeout):
    fam = family(addr)
    ls = socket.socket(fam, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(1)
    ls.settimeout(timeout)
    print("ready", flush=True)
    c, _ = ls.accept()
    ls.close()
    u = socket.create_connection((addr, up_port), timeout=timeout)
    bufs = {c: b"", u: b""}
    peer = {c: u, u: c}
    tag = {c: "C", u: "S"}
    open_ = {c: True, u: True}
    end = time.monotonic() + timeout
    with open(path, "w") as out:
        while any(open_.values()) and time.monotonic() < end:
            r, _, _ = select.select([s for s in (c, u) if open_[s]], [], [], 0.5)
            for s in r:
                try:
                    d = s.recv(65536)
                except OSError:
                    d = b""
                if not d:
                    open_[s] = False
                    if bufs[s]:
                        line(out, tag[s] + "-partial", bufs[s])
                        bufs[s] = b""
                    try:
                        peer[s].shutdown(socket.SHUT_WR)
                    except OSError:
                        pass
                    continue
                try:
                    peer[s].sendall(d)
                except OSError:
                    pass
                bufs[s] += d
                while len(bufs[s]) >= LEN:
                    line(out, tag[s], bufs[s][:LEN])
                    bufs[s] = bufs[s][LEN:]
    c.close()
    u.close()


def probe(addr, up_port, path, msgs, timeout):
    s = socket.create_connection((addr, up_port), timeout=timeout)
    with open(path, "w") as out:
        for m in msgs:
            t, _, text = m.partition(":")
            t = int(t)
            body = struct.pack(">ii", t, -1 if t not in (6,) else 0)
            body += text.encode() + b"\0" * (LEN - len(body) - len(text))
            s.sendall(body)
            line(out, "C", body)
            if t == 6:
                continue
            got = b""
            while len(got) < LEN:
                try:
                    d = s.recv(LEN - len(got))
                except OSError:
                    d = b""
                if not d:
                    break
                got += d
            if len(got) == LEN:
                line(out, "S", got)
            else:
                if got:
                    line(out, "S-partial", got)
                line(out, "S-eof", b"")
                break
    s.close()


def main():
    a = sys.argv[1:]
    if len(a) >= 6 and a[0] == "relay":
        relay(a[1], int(a[2]), int(a[3]), a[4], float(a[5]))
    elif len(a) >= 5 and a[0] == "probe":
        probe(a[1], int(a[2]), a[3], a[5:], float(a[4]))
    else:
        sys.exit("usage: npwire_relay.py relay ADDR PORT UPSTREAM_PORT OUT TIMEOUT\n"
                 "       npwire_relay.py probe ADDR UPSTREAM_PORT OUT TIMEOUT TYPE[:TEXT]...")


if __name__ == "__main__":
    main()
