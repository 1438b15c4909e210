#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""sweep_check: validate --sweep --json documents (used by tests/integration/sweep.sh).

  sweep_check.py SCHEMA_DIR NAME=FILE,PARAM,TEST,X1:X2:...[,CHECK...] ...

One run checks every document given (python starts slowly on a loaded machine). Each is
validated against SCHEMA_DIR/sweep.schema.json (which references result.schema.json for
each point's result), strictly (NaN, Infinity or trailing data are errors); then what the
schema cannot say: the parameter, the exact x values, each point's test, that a point's
spec holds its own value, and the optional CHECKs: iterations=N (-i per point),
rsp=A:B (the response sizes), failed=VALUE (that point's result is null, its error set).
A mutated copy (a point without x, an unknown member) must fail the schema. Prints
"PASS NAME" or "FAIL NAME: why" per document; exits 77 when jsonschema is missing."""
import json
import sys


def reject_constant(name):
    raise ValueError("non-JSON constant %s" % name)


def check(v, path, param, test, xs, extra):
    with open(path) as f:
        text = f.read()
    try:
        doc = json.loads(text, parse_constant=reject_constant)
    except ValueError as e:
        return "does not parse as one strict JSON value: %s" % e
    import jsonschema.exceptions
    e = jsonschema.exceptions.best_match(v.iter_errors(doc))
    if e is not None:
        return "fails the schema at %s: %s" % ("/".join(map(str, e.absolute_path)), e.message[:300])
    want = [float(x) for x in xs.split(":")]
    got = [p["x"] for p in doc["points"]]
    if doc["parameter"] != param or got != want or doc["values"] != [p["value"] for p in doc["points"]]:
        return "parameter %s x %s values %s; expected %s x %s" % (doc["parameter"], got, doc["values"], param, want)
    field = {"m": "send_size", "r": "req_size", "streams": "streams"}.get(param)
    for p in doc["points"]:
        r = p["result"]
        if r is None:
            continue
        if r["test"] != test:
            return "point %s: test %s, expected %s" % (p["value"], r["test"], test)
        if field and r["spec"][field] != p["x"]:
            return "point %s: spec %s is %s, expected %s" % (p["value"], field, r["spec"][field], p["x"])
    for c in extra:
        k, val = c.split("=", 1)
        pts = doc["points"]
        if k == "iterations" and any(p["result"]["confidence"]["iterations"] != int(val) for p in pts):
            return "a point did not run %s iterations" % val
        if k == "rsp" and [p["result"]["spec"]["rsp_size"] for p in pts] != [int(x) for x in val.split(":")]:
            return "response sizes are not %s" % val
        if k == "failed":
            bad = [p for p in pts if p["result"] is None]
            if [p["value"] for p in bad] != [val] or not bad[0]["error"]:
                return "the failed points are %s, expected %s with an error" % ([p["value"] for p in bad], val)
    for mutate in (lambda d: d["points"][0].pop("x"), lambda d: d.update(extra=1)):
        d = json.loads(text)
        mutate(d)
        if not list(v.iter_errors(d)):
            return "the schema accepts a mutated document"
    return None


def main():
    try:
        import jsonschema
        from referencing import Registry, Resource
    except ImportError:
        sys.exit(77)
    schema_dir = sys.argv[1]
    schemas = {}
    for name in ("sweep", "result"):
        with open("%s/%s.schema.json" % (schema_dir, name)) as f:
            schemas[name] = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schemas[name])
    registry = Registry().with_resource(schemas["result"]["$id"], Resource.from_contents(schemas["result"]))
    v = jsonschema.Draft202012Validator(schemas["sweep"], registry=registry)
    for job in sys.argv[2:]:
        name, rest = job.split("=", 1)
        path, param, test, xs, *extra = rest.split(",")
        why = check(v, path, param, test, xs, extra)
        print("PASS %s" % name if why is None else "FAIL %s: %s" % (name, why))


main()
