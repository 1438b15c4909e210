#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""json_check: validate warpspeed's JSON output against docs/schema/result.schema.json
(used by tests/integration/json.sh).

  json_check.py have-jsonschema                      exit 0 when python3-jsonschema imports
  json_check.py doc SCHEMA FILE [TEST] [STREAMS]     one --json document (stdout of one run)
  json_check.py lines SCHEMA FILE [TEST]             --json-lines: intervals then one summary
  json_check.py negative SCHEMA FILE                 mutated copies of FILE must all fail
  json_check.py batch SCHEMA < LINES                 one python3 for many checks: each line
                                                     "NAME MODE FILE [TEST|-] [STREAMS]",
                                                     each answered "NAME ok" or "NAME problem"

Strict parsing: NaN, Infinity and a second value after the document are errors (Python's
json module accepts the first two and jsonschema would let a NaN pass as a number).
Prints one line naming the problem and exits 1 on failure."""
import json
import sys


def die(msg):
    print(msg)
    sys.exit(1)


def reject_constant(name):
    raise ValueError("non-JSON constant %s" % name)


def parse(text, what):
    try:
        return json.loads(text, parse_constant=reject_constant)
    except ValueError as e:
        die("%s does not parse as one strict JSON value: %s" % (what, e))


def validator(schema_path):
    import jsonschema
    with open(schema_path) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(v, doc):
    return sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))


def check(v, doc, what):
    import jsonschema.exceptions
    e = jsonschema.exceptions.best_match(v.iter_errors(doc))
    if e is not None:
        die("%s fails the schema at %s: %s" % (what, "/".join(map(str, e.absolute_path)), e.message[:300]))


def semantic(doc, what, test, streams):
    """What the schema cannot say: the figures belong to the run that was asked for."""
    if test and doc["test"] != test:
        die("%s: test is %s, expected %s" % (what, doc["test"], test))
    rr = doc["test"] in ("TCP_RR", "UDP_RR", "TCP_CRR")
    if rr:
        lat = doc["latency"]
        if lat is None or lat["count"] == 0:
            die("%s: an RR test without latency samples" % what)
        in_buckets = sum(b[2] for b in lat["histogram"])
        if in_buckets + lat["overflow"] != lat["count"]:
            die("%s: histogram holds %d samples + %d overflow, count says %d" %
                (what, in_buckets, lat["overflow"], lat["count"]))
        if not lat["min_us"] <= lat["p50_us"] <= lat["p99_us"] <= lat["max_us"]:
            die("%s: latency figures out of order: %s" % (what, lat))
        if doc["local"]["rr"]["transactions"] == 0:
            die("%s: no transactions" % what)
    else:
        moved = doc["local"]["bytes_received"] + doc["remote"]["bytes_received"]
        if moved == 0:
            die("%s: no bytes received on either side" % what)
        if doc["latency"] is not None:
            die("%s: a stream test with latency" % what)
    if doc["test"] in ("RRUL", "RRUL_BE"):
        lul = doc.get("rrul")
        if not lul or not lul["series"]:
            die("%s: an RRUL result without its series" % what)
        for sr in lul["series"] + lul["aggregates"]:
            if len(sr["t"]) != len(sr["v"]) or sr["samples"] + sr["lost"] != len(sr["v"]):
                die("%s: series %s has %d times, %d values, %d samples + %d lost" %
                    (what, sr["name"], len(sr["t"]), len(sr["v"]), sr["samples"], sr["lost"]))
    elif doc.get("rrul") is not None:
        die("%s: an rrul member on a %s result" % (what, doc["test"]))
    if not doc["throughput"]["value"] or doc["throughput"]["value"] <= 0:
        die("%s: throughput %s" % (what, doc["throughput"]["value"]))
    if streams:
        n = len(doc["local"]["streams"])
        if n != streams:
            die("%s: %d local stream rows, expected %d" % (what, n, streams))


def mutated(doc, changes):
    """(description, copy of doc changed by fn) for each (description, fn) of changes."""
    import copy
    out = []
    for desc, fn in changes:
        d = copy.deepcopy(doc)
        fn(d)
        out.append((desc, d))
    return out


def mutations(doc):
    """(description, mutated copy) pairs that a strict schema must refuse."""
    return mutated(doc, [
        ("throughput.units removed", lambda d: d["throughput"].pop("units")),
        ("local removed", lambda d: d.pop("local")),
        ("remote.bytes_sent removed", lambda d: d["remote"].pop("bytes_sent")),
        ("spec.test removed", lambda d: d["spec"].pop("test")),
        ("local.bytes_sent as a string", lambda d: d["local"].__setitem__("bytes_sent", str(d["local"]["bytes_sent"]))),
        ("throughput.value as a string", lambda d: d["throughput"].__setitem__("value", "1.0")),
        ("negative byte count", lambda d: d["local"].__setitem__("bytes_sent", -1)),
        ("an unknown member", lambda d: d["local"].__setitem__("bytez", 1)),
        ("an unknown test", lambda d: d.__setitem__("test", "TCP_FOO")),
        ("type interval on a result", lambda d: d.__setitem__("type", "interval")),
        ("interim not an array", lambda d: d.__setitem__("interim", {})),
    ])


def main(argv):
    if len(argv) >= 2 and argv[1] == "have-jsonschema":
        try:
            import jsonschema  # noqa: F401
        except ImportError:
            sys.exit(1)
        sys.exit(0)
    if len(argv) < 3:
        die(__doc__)
    if argv[1] == "batch":
        batch(validator(argv[2]), sys.stdin)
        return
    if len(argv) < 4:
        die(__doc__)
    mode, path = argv[1], argv[3]
    test = argv[4] if len(argv) > 4 and argv[4] else None
    streams = int(argv[5]) if len(argv) > 5 else 0
    check_file(validator(argv[2]), mode, path, test, streams)


def batch(v, lines):
    import contextlib
    import io
    for line in lines:
        w = line.split()
        if not w:
            continue
        name, mode, path = w[0], w[1], w[2]
        test = w[3] if len(w) > 3 and w[3] != "-" else None
        streams = int(w[4]) if len(w) > 4 else 0
        said = io.StringIO()
        try:
            with contextlib.redirect_stdout(said):
                check_file(v, mode, path, test, streams)
            print(name, "ok", flush=True)
        except SystemExit:
            print(name, said.getvalue().strip().replace("\n", " ") or "failed", flush=True)
        except Exception as e:  # a document without a member the checks read
            print(name, "%s: %r" % (path, e), flush=True)


def check_file(v, mode, path, test, streams):
    with open(path) as f:
        text = f.read()
    if mode == "doc":
        doc = parse(text, path)
        check(v, doc, path)
        if doc["type"] != "result":
            die("%s: type %s, expected result" % (path, doc["type"]))
        semantic(doc, path, test, streams)
    elif mode == "lines":
        lines = text.split("\n")
        if lines[-1] != "":
            die("%s: the last line does not end with a newline" % path)
        lines = lines[:-1]
        if not lines:
            die("%s: no lines" % path)
        docs = [parse(l, "%s line %d" % (path, i + 1)) for i, l in enumerate(lines)]
        for i, d in enumerate(docs):
            check(v, d, "%s line %d" % (path, i + 1))
        kinds = [d["type"] for d in docs]
        if kinds[-1] != "summary" or any(k != "interval" for k in kinds[:-1]):
            die("%s: line types %s, expected intervals then one summary" % (path, kinds))
        per = {}
        for d in docs[:-1]:
            per.setdefault(d["stream"], []).append(d["index"])
        for stream, idx in per.items():
            if idx != list(range(len(idx))):
                die("%s: interval indexes of stream %s: %s" % (path, stream, idx))
        semantic(docs[-1], path + " summary", test, streams)
    elif mode == "negative":
        doc = parse(text, path)
        check(v, doc, path)
        for desc, d in mutations(doc):
            if not errors(v, d):
                die("the schema accepts a document with %s" % desc)
        for bad in ('{"x": NaN}', '{"x": Infinity}', text + "{}"):
            try:
                json.loads(bad, parse_constant=reject_constant)
            except ValueError:
                continue
            die("the strict parser accepts %r" % bad[:40])
    else:
        die(__doc__)


if __name__ == "__main__":
    main(sys.argv)
