#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""The differential grammar suite's shared half (issue 26): it expands the grammar table
(tests/goldens/grammar/GRAMMAR) into command lines, sums up what one run of each line printed
(exit status, which data rows came, the header lines with their numbers masked, whether the
first stderr line is an error), and compares two such summaries. capture-grammar.sh runs the
lines against the real netperf 2.7.0 and keeps the summary as grammar/EXPECT;
tests/integration/grammar.sh runs them against warpspeed and compares. Both sides go through
this one file so that they mask and classify alike.

  grammar.py expand GRAMMAR HELPDIR        the cases, "name<TAB>args<TAB>subject" per line
  grammar.py run CASES RUNDIR BINARY PORT FILE   runs each case's line (CASES: name, args and
      subject first; EXPECT will do) with @P@ PORT and @FILE@ FILE, writing RUNDIR/name.out,
      .err and .rc; GRAMMAR_JOBS (3) side by side, each under GRAMMAR_TIMEOUT seconds (5)
  grammar.py summarize CASES RUNDIR        one EXPECT record per case
  grammar.py merge SUMMARY...              one record per case from several runs' summaries:
      where they disagree, the exit field lists every status seen ("0|141": netperf is
      not repeatable on this line) and the rest is the first run's
  grammar.py compare EXPECT GOT DIFFERS PENDING RUNDIR   PASS/FAIL/SKIP lines
"""
import concurrent.futures
import os
import re
import shlex
import socket
import subprocess
import sys
import time

# ---------------------------------------------------------------- expand
MACROS = {
    # the value forms netperf's size parser (convert()) reads: plain, 0, negatives, K/M/G
    # (2^10..) and k/m/g (10^3..) suffixes, a fraction, a bad suffix and no number at all
    "SIZE": "0 -1 1 1000 4K 4k 1M 1m 1.5K 4X abc",
    "SMALL": "0 -1 1 64 1K 1k abc",
}


def expand_values(words):
    out = []
    for w in words:
        m = re.fullmatch(r"\{(\w+)(?::([^,]*),(.*))?\}", w)
        if not m:
            out.append(w)
        elif m.group(1) == "PAIR":  # a,b  a,  ,b  and the bare comma
            a, b = m.group(2), m.group(3)
            out += [f"{a},{b}", f"{a},", f",{b}", ","]
        else:
            out += MACROS[m.group(1)].split()
    return out


def help_options(path):
    """The option letters a netperf help text lists ("    -X ...")."""
    opts = []
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"    (-[0-9A-Za-z])\b", line)
                if m and m.group(1) not in opts:
                    opts.append(m.group(1))
    except FileNotFoundError:
        pass
    return opts


def drop_opt(args, opt):
    """args without opt and its value (the option under test replaces the base's own)."""
    out, i = [], 0
    while i < len(args):
        if args[i] == opt:
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def case_name(*parts):
    s = "_".join(p for p in parts if p)
    s = s.replace(",", "c").replace("-", "m").replace(".", "p").replace("?", "q")
    s = s.replace("~", "").replace("@", "")
    return re.sub(r"[^A-Za-z0-9_]", "_", s).strip("_")


def expand(grammar, helpdir):
    bases, opts, cases, skips = {}, [], [], {}
    with open(grammar) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            col = line.split()
            kind = col[0]
            if kind == "base":  # base NAME HELPTEST all|test|- GLOBAL-ARGS ; TEST-ARGS
                rest = " ".join(col[4:]).split(";")
                bases[col[1]] = (col[2], col[3], rest[0].split(),
                                 rest[1].split() if len(rest) > 1 else [])
            elif kind == "opt":  # opt SCOPE OPTION PRIMARY-BASES VALUES...
                opts.append((col[1], col[2], col[3].split(","), expand_values(col[4:])))
            elif kind == "case":  # case NAME SUBJECT ARGS...  (SUBJECT - for none)
                cases.append((col[1], " ".join(col[3:]), "" if col[2] == "-" else col[2]))
            elif kind == "skip":  # skip SCOPE OPTION REASON...
                skips[(col[1], col[2])] = " ".join(col[3:])
            else:
                sys.exit(f"{grammar}:{lineno}: unknown line kind {kind!r}")
    # The option lists come from netperf itself: every option its help texts list must have
    # a row (or a skip row with its reason), and every base whose help lists an option gets
    # at least its first value.
    ghelp = help_options(f"{helpdir}/global.txt")
    thelp = {b: help_options(f"{helpdir}/test-{bases[b][0]}.txt") for b in bases}
    known = {(s, o) for s, o, _, _ in opts} | set(skips)
    missing = [f"{'global' if s == 'g' else 'test'} option {o}" for s, o in
               [("g", o) for o in ghelp] + [("t", o) for b in bases for o in thelp[b]]
               if (s, o) not in known]
    if missing:
        sys.exit("grammar: netperf's help lists options the table lacks: " +
                 ", ".join(sorted(set(missing))))
    out, seen = [], set()

    lines = set()

    def emit(name, args, subject):
        if args in lines:
            return
        lines.add(args)
        n, k = name, 2
        while n in seen:
            n, k = f"{name}_{k}", k + 1
        seen.add(n)
        out.append(f"{n}\t{args}\t{subject}")

    for scope, opt, prim, vals in opts:
        for b, (helptest, main, gargs, targs) in bases.items():
            if scope == "g":
                applies = b in prim or main == "all"
            else:
                applies = b in prim or (main in ("all", "test") and opt in thelp[b])
            applies = applies and "!" + b not in prim
            if not applies:
                continue
            forms = vals if b in prim else vals[:1]
            for v in forms:
                g, t = list(gargs), list(targs)
                add = [opt] if v == "~" else [opt, v]
                if scope == "g":
                    g = drop_opt(g, opt) + add
                else:
                    t = drop_opt(t, opt) + add
                hp = ["-H", "127.0.0.1", "-p", "@P@"]
                if scope == "g" and opt in ("-H", "-p"):  # the value under test is the only one
                    hp = ["-p", "@P@"] if opt == "-H" else ["-H", "127.0.0.1"]
                args = hp + g + (["--"] + t if t else [])
                emit(case_name(scope, opt[1:], v, b), " ".join(args), "" if v == "~" else v)
    for name, args, subject in cases:
        emit(name, args.replace("@HP@", "-H 127.0.0.1 -p @P@"), subject)
    return out


# ---------------------------------------------------------------- run
def free_port():
    """A loopback port nobody holds now (TCP and UDP), for the data and local-port cases."""
    while True:
        with socket.socket() as t:
            t.bind(("127.0.0.1", 0))
            p = t.getsockname()[1]
            try:
                with socket.socket(type=socket.SOCK_DGRAM) as u:
                    u.bind(("127.0.0.1", p))
                return str(p)
            except OSError:
                continue


def run_one(binary, name, args, rundir, port, fill, timeout):
    for ph in ("@LP@", "@DP@", "@DP2@"):
        while ph in args:
            args = args.replace(ph, free_port(), 1)
    args = args.replace("@P@", port).replace("@FILE@", fill)
    t0 = time.monotonic()
    with open(f"{rundir}/{name}.out", "wb") as out, open(f"{rundir}/{name}.err", "wb") as err:
        try:
            rc = subprocess.run([binary] + shlex.split(args), stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = 124  # subprocess.run has killed it
    if rc < 0:
        rc = 128 - rc  # killed by a signal, as the shell says it
    with open(f"{rundir}/{name}.rc", "w") as f:
        f.write(f"{rc}\n")
    with open(f"{rundir}/{name}.ms", "w") as f:  # for finding the slow lines
        f.write(f"{(time.monotonic() - t0) * 1000:.0f}\n")


def run(cases, rundir, binary, port, fill):
    jobs = int(os.environ.get("GRAMMAR_JOBS", "3"))
    timeout = float(os.environ.get("GRAMMAR_TIMEOUT", "5"))
    todo = []
    for line in open(cases):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        todo.append((c[0], c[1]))
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for f in [ex.submit(run_one, binary, n, a, rundir, port, fill, timeout) for n, a in todo]:
            f.result()


# ---------------------------------------------------------------- summarize
NUM = re.compile(r"(?<![\w^.])-?\d+(\.\d+)?(?![\w^.])")
KV = re.compile(r"^([A-Z][A-Z0-9_]*)=")
NOTE = re.compile(r"^[\w.-]+: (note|warning): ")
ERRWORDS = re.compile(r"invalid|unknown|error|cannot|can't|could not|couldn't|not supported|"
                      r"unable|bad |usage|illegal|must|expected|refused|fail|no such|"
                      r"not found|requires|out of range|too |assert|abort", re.I)


def is_data(line):
    s = line.strip()
    return bool(s) and (bool(re.match(r"-?\d", s)) or s.startswith("-nan") or s.startswith("nan"))


def fields(line):
    s = line.strip()
    return len(s.split(",")) if "," in s and " " not in s else len(s.split())


def summarize_one(out, err, rc):
    rows, heads = [], []
    for line in out.splitlines():
        if line.startswith("!!!") or line.startswith("Interim result"):
            continue  # the confidence warning and interim lines depend on timing
        if re.match(r"\d+ transactions lost \(", line):
            continue  # a UDP_RR reply later than -e on a loaded host: netperf would stall
        if is_data(line):
            rows.append(str(fields(line)))
            continue
        m = KV.match(line)
        if m:
            if "kv" not in rows:
                rows.append("kv")
            heads.append(m.group(1) + "=*")
            continue
        line = line.rstrip()
        if not line:
            continue
        # the banner's "(...)" after each address: netperf 2.7 leaves it empty for a bound
        # or remote address (a sizeof bug that warpspeed does not copy)
        line = re.sub(r"((?:from|to) \S+) \([^)]*\)( port)", r"\1 ()\2", line)
        heads.append(NUM.sub("N", line))
    # warpspeed's "prog: note: ..." lines (an option netperf ignores too) are never the
    # error: the first other line classifies, and notes alone are a note
    lines = [l for l in err.splitlines() if l.strip()]
    first = next((l for l in lines if not NOTE.match(l)), "")
    ecls = ("error" if ERRWORDS.search(first) else "note") if first else ("note" if lines else "none")
    return [str(rc), ",".join(rows) or "no", ecls, "\\n".join(heads).replace("\t", " ")]


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def summarize(cases, rundir):
    for line in open(cases):
        if line.startswith("#") or not line.strip():
            continue
        name, args, subject = line.rstrip("\n").split("\t")[:3]
        rc = read(f"{rundir}/{name}.rc").strip() or "?"
        rec = summarize_one(read(f"{rundir}/{name}.out"), read(f"{rundir}/{name}.err"), rc)
        print("\t".join([name, args, subject] + rec))


def merge(paths):
    runs = [[l.rstrip("\n").split("\t") for l in open(p) if l.strip()] for p in paths]
    for recs in zip(*runs):
        first = list(recs[0])
        if any(r[3:] != first[3:] for r in recs[1:]):
            first[3] = "|".join(dict.fromkeys(r[3] for r in recs))
        print("\t".join(first))


# ---------------------------------------------------------------- compare
def load_records(path):
    recs = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        c = line.rstrip("\n").split("\t")
        recs[c[0]] = dict(args=c[1], subject=c[2], rc=c[3], rows=c[4], err=c[5], heads=c[6])
    return recs


def load_list(path):
    """NAME-REGEX<TAB>reason lines; the first entry whose regex matches a case wins."""
    out = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        pat, _, reason = line.rstrip("\n").partition("\t")
        out.append((re.compile(pat + r"\Z"), reason.strip()))
    return out


def verdict(want, got, rundir, name):
    """None when got matches want, else the differences in one line."""
    wrc, grc = want["rc"], got["rc"]
    if wrc == "124" or "|" in wrc:
        # netperf never ended, or did not do the same twice: warpspeed must end, whatever
        # it says
        return "warpspeed did not end (netperf hangs or varies on this line)" if grc == "124" else None
    if grc == "124":
        return f"warpspeed did not end within the time limit (netperf exit {wrc})"
    diffs = []
    if (wrc == "0") != (grc == "0"):
        what = "accepted" if wrc == "0" else "refused"
        diffs.append(f"exit {grc}, netperf {wrc} ({what} it)")
    elif wrc != "0":
        # refused by both: warpspeed's message must name the value (or the option)
        msg = read(f"{rundir}/{name}.err") + read(f"{rundir}/{name}.out")
        subj = want["subject"]
        # the value, or one half of a pair (the half at fault), or the option itself
        names = [subj] + [p for p in subj.split(",") if p] + ([subj[1:]] if subj[:1] == "-" else [])
        if subj == "?":  # a list of names was asked for: it must come
            names = ["THROUGHPUT"]
        if subj and not any(n in msg for n in names):
            diffs.append(f"refused, but the message does not name {subj!r}")
        return "; ".join(diffs) or None
    if want["rows"] != got["rows"]:
        diffs.append(f"data rows [{got['rows']}], netperf [{want['rows']}]")
    if (want["err"] == "error") != (got["err"] == "error"):
        diffs.append(f"stderr {got['err']}, netperf {want['err']}")
    if want["heads"] != got["heads"]:
        w, g = want["heads"].split("\\n"), got["heads"].split("\\n")
        i = next((i for i in range(max(len(w), len(g)))
                  if i >= len(w) or i >= len(g) or w[i] != g[i]), 0)
        wl = w[i] if i < len(w) else "(none)"
        gl = g[i] if i < len(g) else "(none)"
        diffs.append(f"header line {i + 1}: [{gl}], netperf [{wl}]")
    return "; ".join(diffs) or None


def compare(expect, gotpath, differs, pending, rundir):
    want, got = load_records(expect), load_records(gotpath)
    dl, pl = load_list(differs), load_list(pending)
    used = set()
    for name, w in want.items():
        g = got.get(name)
        if g is None:
            print(f"FAIL grammar_{name}: not run")
            continue
        d = verdict(w, g, rundir, name)
        for lst, kind in ((dl, "differs"), (pl, "pending")):
            hit = next(((p, r) for p, r in lst if p.match(name)), None)
            if hit:
                break
        if d is None:
            print(f"PASS grammar_{name}")
            if hit and kind == "pending" and w["rc"] == "0":  # a real pass, not a hang's
                print(f"  (note: listed as pending but matches now: {hit[0].pattern})")
        elif hit and kind == "differs":
            used.add(hit[0].pattern)
            print(f"PASS grammar_{name} (differs on purpose: {hit[1]})")
        elif hit:
            used.add(hit[0].pattern)
            print(f"SKIP grammar_{name}: pending ({hit[1]}): {d}")
        else:
            print(f"FAIL grammar_{name}: {d}  [netperf {w['args']}]")
    for p, r in dl:
        if p.pattern not in used and any(p.match(n) for n in want):
            print(f"  (note: DIFFERS entry {p.pattern} matched no difference)")


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else ""
    if cmd == "expand":
        print("\n".join(expand(sys.argv[2], sys.argv[3])))
    elif cmd == "run":
        run(*sys.argv[2:7])
    elif cmd == "summarize":
        summarize(sys.argv[2], sys.argv[3])
    elif cmd == "merge":
        merge(sys.argv[2:])
    elif cmd == "compare":
        compare(*sys.argv[2:7])
    else:
        sys.exit(__doc__)
