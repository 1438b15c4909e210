#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""charts_check: checks warpspeed SVG charts (tests/integration/charts.sh).

Usage: charts_check.py MANIFEST
Each line of MANIFEST is NAME, FILE.svg and any TEXTs, separated by tabs; for each, one
line "PASS NAME" or "FAIL NAME: problems" (one python start for all: it costs seconds on
a loaded machine). The exit status is 1 when any failed.
A file must parse as XML (xml.etree), be an <svg> with a 0 0 800 500 viewBox, carry a
non-empty <title> and <desc> first, a legend group, a generic font family and no script,
foreignObject, external reference or @font-face; every TEXT must be the whole content of
some <text> element (axis labels, tick labels). """
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def text_of(el):
    return "".join(el.itertext())


def problems_of(path, want):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        return [f"not well-formed XML: {e}"]
    if root.tag != NS + "svg":
        problems.append(f"root is {root.tag}, not svg")
    if root.get("viewBox") != "0 0 800 500":
        problems.append(f"viewBox is {root.get('viewBox')!r}, not '0 0 800 500'")
    if root.get("font-family") not in ("sans-serif", "serif", "monospace"):
        problems.append(f"font-family {root.get('font-family')!r} is not generic")
    kids = list(root)
    if len(kids) < 2 or kids[0].tag != NS + "title" or kids[1].tag != NS + "desc":
        problems.append("the first two children are not <title> and <desc>")
    else:
        for k in kids[:2]:
            if not (k.text or "").strip():
                problems.append(f"empty <{k.tag[len(NS):]}>")
    for el in root.iter():
        tag = el.tag[len(NS):] if el.tag.startswith(NS) else el.tag
        if tag in ("script", "foreignObject", "image", "style", "a"):
            problems.append(f"a <{tag}> element")
        for k, v in el.attrib.items():
            if "href" in k or k.startswith("on") or ("url(" in v and "url(#" not in v):
                problems.append(f"<{tag}> has {k}={v!r}")
    if not any(g.get("class") == "legend" for g in root.iter(NS + "g")):
        problems.append("no legend group")
    texts = {text_of(t).strip() for t in root.iter(NS + "text")}
    for w in want:
        if w not in texts:
            problems.append(f"no <text> reading {w!r}")
    return problems


def main():
    bad = 0
    with open(sys.argv[1], encoding="utf-8") as m:
        for line in m:
            name, path, *want = line.rstrip("\n").split("\t")
            problems = problems_of(path, want)
            if problems:
                bad = 1
                print(f"FAIL {name}: {path}: " + "; ".join(problems))
            else:
                print(f"PASS {name}")
    return bad


if __name__ == "__main__":
    sys.exit(main())
