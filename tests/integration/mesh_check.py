#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""mesh_check: check a `warpspeed mesh --json FILE` document against
docs/schema/mesh.schema.json and the schedule it ran (used by tests/integration/mesh.sh).

  mesh_check.py doc SCHEMA FILE SCHEDULE RANKS [REFUSING_RANK]
      valid, strict JSON; exactly the schedule's pairs, each once; every cell measured
      (throughput > 0), except that every test into REFUSING_RANK failed with the daemon's
      memory-budget refusal
  mesh_check.py negative SCHEMA FILE
      mutated copies of FILE must all fail the schema

The strict parser and the validator are json_check.py's. Prints one line naming the
problem and exits 1 on failure."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from json_check import check, die, errors, mutated, parse, validator  # noqa: E402


def pairs_of(schedule, n):
    """The ordered pairs each schedule tests (its order of rounds does not matter here)."""
    every = {(a, b) for a in range(n) for b in range(n) if a != b}
    return {(i, (i + 1) % n) for i in range(n)} if schedule == "ring" else every


def semantic(doc, path, schedule, n, refusing):
    if doc["schedule"] != schedule or doc["ranks"] != n:
        die("%s: schedule %s with %d ranks, expected %s with %d" % (path, doc["schedule"], doc["ranks"], schedule, n))
    if len(doc["hosts"]) != n or len(doc["addresses"]) != n:
        die("%s: %d hosts and %d addresses for %d ranks" % (path, len(doc["hosts"]), len(doc["addresses"]), n))
    got = [(c["src"], c["dst"]) for c in doc["cells"]]
    if got != sorted(got) or len(set(got)) != len(got):
        die("%s: cells not sorted or repeated: %s" % (path, got))
    if set(got) != pairs_of(schedule, n):
        die("%s: cells %s, expected the pairs of %s" % (path, sorted(got), schedule))
    for c in doc["cells"]:
        where = "%s: cell %d -> %d" % (path, c["src"], c["dst"])
        if c["src_addr"] != doc["addresses"][c["src"]] or c["dst_host"] != doc["hosts"][c["dst"]]:
            die("%s: addresses or hosts differ from the rank lists" % where)
        if c["dst"] == refusing:
            if c["error"] is None or "memory budget" not in c["error"]:
                die("%s: expected the daemon's refusal, got error %r" % (where, c["error"]))
        elif c["error"] is not None or not c["throughput"] > 0:
            die("%s: throughput %r, error %r" % (where, c["throughput"], c["error"]))


def mutations(doc):
    return mutated(doc, [
        ("cells removed", lambda d: d.pop("cells")),
        ("an unknown member", lambda d: d.__setitem__("extra", 1)),
        ("a cell's src removed", lambda d: d["cells"][0].pop("src")),
        ("a cell's throughput as a string", lambda d: d["cells"][0].__setitem__("throughput", "1.0")),
        ("an error with a throughput", lambda d: d["cells"][0].update(error="x", throughput=1.0)),
        ("no error and no throughput", lambda d: d["cells"][0].update(error=None, throughput=None)),
        ("an unknown schedule", lambda d: d.__setitem__("schedule", "star")),
        ("type result", lambda d: d.__setitem__("type", "result")),
        ("one rank", lambda d: d.__setitem__("ranks", 1)),
    ])


def main(argv):
    if len(argv) < 4:
        die(__doc__)
    mode, schema_path, path = argv[1], argv[2], argv[3]
    v = validator(schema_path)
    with open(path) as f:
        doc = parse(f.read(), path)
    check(v, doc, path)
    if mode == "doc" and len(argv) >= 6:
        semantic(doc, path, argv[4], int(argv[5]), int(argv[6]) if len(argv) > 6 else -1)
    elif mode == "negative":
        for desc, d in mutations(doc):
            if not errors(v, d):
                die("the schema accepts a document with %s" % desc)
    else:
        die(__doc__)


if __name__ == "__main__":
    main(sys.argv)
