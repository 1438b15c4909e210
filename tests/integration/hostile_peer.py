#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""hostile_peer: peers that do to `warpspeed serve` (or its client) what a real one
never would, for the hostile_*.sh tests. Loopback only. Each mode prints one summary line.

  hostile_peer.py np-unknown PORT SECS      one netperf session: unknown message type 7
                                            in a loop (each reply read)
  hostile_peer.py ws-longreq PORT SECS      one warpspeed session: TEST_REQ for a
                                            99,999 s test in a loop (each ERROR read)
  hostile_peer.py np-hold PORT SECS N SRC   N netperf sessions from address SRC, each
                                            sending DO_SYSINFO, then CPU_CALIBRATE every
                                            0.3 s, to hold its session without a test
  hostile_peer.py ws-squat PORT N           a 1 s TCP_STREAM whose data port first gets N
                                            silent connections from the same address;
                                            prints the ms from START to STARTED
  hostile_peer.py guess PORT SECS THREADS SRC   wrong key proofs from SRC for SECS, on
                                            THREADS connections at a time, alternating
                                            warpspeed AUTH and netperf PASSPHRASE
  hostile_peer.py evil-netserver N          a netserver for N TCP_STREAM tests whose
                                            results name the congestion control
                                            "b<ESC>[31m<BEL>\\n\\"x,y" (prints its port first)
"""
import socket
import struct
import sys
import time

NP_LEN = 656
MAGIC = 0x57535044


def np_msg(mtype, word1=-1, body=b""):
    m = struct.pack(">ii", mtype, word1) + body
    return m + b"\0" * (NP_LEN - len(m))


def read_exact(s, n):
    b = b""
    while len(b) < n:
        k = s.recv(n - len(b))
        if not k:
            raise EOFError("closed after %d of %d bytes" % (len(b), n))
        b += k
    return b


def field(fid, ftype, value):
    return struct.pack(">HBBH", fid, ftype, 0, len(value)) + value


def frame(mtype, fields=b""):
    return struct.pack(">IBBHI", MAGIC, 1, mtype, 0, len(fields)) + fields


def read_frame(s):
    magic, _ver, mtype, _r, n = struct.unpack(">IBBHI", read_exact(s, 12))
    if magic != MAGIC:
        raise ValueError("not a warpspeed frame: %08x" % magic)
    return mtype, read_exact(s, n)


def fields_of(payload):
    out, o = {}, 0
    while o + 6 <= len(payload):
        fid, _t, _r, n = struct.unpack(">HBBH", payload[o:o + 6])
        out.setdefault(fid, payload[o + 6:o + 6 + n])
        o += 6 + n
    return out


HELLO = frame(1, field(1, 1, struct.pack(">Q", 1)) + field(10, 5, b"\x11" * 32))


def connect(port):
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def np_unknown(port, secs):
    s = connect(port)
    end, n = time.time() + secs, 0
    msg = np_msg(7)
    while time.time() < end:
        s.sendall(msg)
        read_exact(s, NP_LEN)
        n += 1
    print("sent %d unknown netperf messages in %.1f s" % (n, secs))


def ws_longreq(port, secs):
    s = connect(port)
    s.sendall(HELLO)
    t, _ = read_frame(s)
    if t != 2:
        print("no HELLO_ACK: type %d" % t)
        return 1
    req = frame(4, field(102, 3, struct.pack(">d", 99999.0)))
    end, n = time.time() + secs, 0
    while time.time() < end:
        s.sendall(req)
        t, _ = read_frame(s)
        if t != 3:
            print("expected ERROR, got type %d" % t)
            return 1
        n += 1
    print("sent %d refused requests in %.1f s" % (n, secs))


def np_hold(port, secs, n, src):
    import select
    socks, admitted, refused = [], 0, 0
    for _ in range(int(n)):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((src, 0))
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        s.sendall(np_msg(600))
        try:
            r = read_exact(s, NP_LEN)
        except (EOFError, OSError):
            refused += 1
            continue
        mtype, err = struct.unpack(">ii", r[:8])
        if mtype == 601 and err == 0:
            admitted += 1
            socks.append(s)
        else:
            refused += 1
            s.close()
    print("admitted %d, refused %d" % (admitted, refused), flush=True)
    end, closed, nxt = time.time() + secs, 0, time.time() + 0.3
    live = list(socks)
    while live and time.time() < end:
        if time.time() >= nxt:
            nxt += 0.3
            for s in list(live):
                try:
                    s.sendall(np_msg(5))
                except OSError:
                    live.remove(s)
                    closed += 1
        r, _, _ = select.select(live, [], [], 0.05)
        for s in r:
            try:
                k = s.recv(NP_LEN)
            except OSError:
                k = b""
            if not k:
                live.remove(s)
                closed += 1
    print("closed by the daemon %d of %d within %.1f s" % (closed, admitted, secs))


def ws_squat(port, n):
    s = connect(port)
    s.sendall(HELLO)
    t, _ = read_frame(s)
    s.sendall(frame(4, field(102, 3, struct.pack(">d", 1.0))))
    t, p = read_frame(s)
    if t != 5:
        print("no TEST_ACK: type %d %r" % (t, fields_of(p).get(6)))
        return 1
    f = fields_of(p)
    dport = struct.unpack(">Q", f[7])[0]
    squat = [socket.create_connection(("127.0.0.1", dport)) for _ in range(int(n))]
    data = socket.create_connection(("127.0.0.1", dport))
    data.sendall(f[8] + struct.pack(">I", 0))
    t0 = time.time()
    s.sendall(frame(6))
    t, _ = read_frame(s)
    ms = (time.time() - t0) * 1000
    data.close()
    for q in squat:
        q.close()
    print("%s after %d ms from START" % ("STARTED" if t == 7 else "type %d" % t, ms))


def one_guess(port, src, k):
    """One wrong proof; True when the daemon refused it as a failed authentication."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(3)
    try:
        s.bind((src, 0))
        s.connect(("127.0.0.1", port))
        if k % 2:
            s.sendall(np_msg(6, -1, b"guess%d\0" % k))
            return s.recv(1) == b""  # netserver's way: closed without a reply
        s.sendall(HELLO)
        t, p = read_frame(s)
        if t != 10:
            return False
        s.sendall(frame(11, field(12, 5, b"\x22" * 32)))
        t, p = read_frame(s)
        return t == 3 and b"authentication failed" in fields_of(p).get(6, b"")
    except (OSError, EOFError, ValueError):
        return False
    finally:
        s.close()


def guess(port, secs, threads, src):
    import threading
    end = time.time() + secs
    lock = threading.Lock()
    counts = {"refused": 0, "other": 0}

    def run(tid):
        k = tid
        while time.time() < end:
            ok = one_guess(port, src, k)
            k += int(threads)
            with lock:
                counts["refused" if ok else "other"] += 1

    ts = [threading.Thread(target=run, args=(i,)) for i in range(int(threads))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    print("%d wrong proofs refused in %.1f s (%.0f/s), %d attempts ended otherwise" %
          (counts["refused"], secs, counts["refused"] / secs, counts["other"]))


EVIL_CONG = b'b\x1b[31m\x07\n"x,y'


def evil_netserver(n):
    ls = socket.socket()
    ls.bind(("127.0.0.1", 0))
    ls.listen(8)
    print(ls.getsockname()[1], flush=True)
    for _ in range(int(n)):
        c, _ = ls.accept()
        c.settimeout(10)
        try:
            req = read_exact(c, NP_LEN)
            if struct.unpack(">i", req[:4])[0] != 97:
                c.close()
                continue
            dl = socket.socket()
            dl.bind(("127.0.0.1", 0))
            dl.listen(1)
            rsp = bytearray(np_msg(98, 0))
            struct.pack_into(">iiiiii", rsp, 8, 131072, 131072, 1, 131072, 16384, 1)
            struct.pack_into(">i", rsp, 52, dl.getsockname()[1])
            c.sendall(bytes(rsp))
            d, _ = dl.accept()
            got = 0
            while True:
                k = d.recv(65536)
                if not k:
                    break
                got += len(k)
            d.close()
            dl.close()
            res = bytearray(np_msg(98, 0))
            struct.pack_into(">IIIi", res, 8, got >> 32, got & 0xffffffff, 1, 131072)
            struct.pack_into(">f", res, 48, 1.0)
            res[276:276 + len(EVIL_CONG)] = EVIL_CONG
            c.sendall(bytes(res))
            c.recv(1)
        except (OSError, EOFError):
            pass
        c.close()


def main(argv):
    mode, rest = argv[1], argv[2:]
    modes = {"np-unknown": np_unknown, "ws-longreq": ws_longreq, "np-hold": np_hold,
             "ws-squat": ws_squat, "guess": guess,
             "evil-netserver": evil_netserver}
    if mode not in modes:
        print(__doc__)
        return 2
    if mode == "evil-netserver":
        return evil_netserver(rest[0]) or 0
    return modes[mode](int(rest[0]), *[float(x) for x in rest[1:2]], *rest[2:]) or 0



if __name__ == "__main__":
    sys.exit(main(sys.argv))
