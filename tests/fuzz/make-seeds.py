#!/usr/bin/env python3
# make-seeds.py: seed diagrams for fuzz-run, one or more per block type
#
#   python3 tests/fuzz/make-seeds.py BUILDDIR/app/qdevs-cli DIR
#
# The loader's corpus and the examples reach a few block types; a fuzzer
# that starts from them seldom builds a valid diagram around any other.
# So each type of the library (`qdevs-cli blocks --json`, less the
# structural ones and the two that touch files) gets a diagram of its
# own: fed by sources (sine, ramp, pulse, ...) on every input, its
# outputs to a Scope; and, for a type with one input and one output, a
# feedback loop dx/dt = f(x) through an integrator under QSS3 and under
# LIQSS2, which drives the function where the dynamics take it (a blow-up,
# a log of a negative number).

import json
import subprocess
import sys
from pathlib import Path

SKIP = {"inport", "outport", "subsystem", "to_csv", "from_csv"}
SOURCES = ["sine", "ramp", "pulse", "poisson", "step", "square_wave", "trapezoid"]


def port_count(spec, block_type):
    if spec.get("count") is not None:
        return spec["count"]
    for param in block_type["params"]:
        if param["name"] == spec.get("sized_by"):
            return int(param["default"])
    return 1


def block(block_id, type_id, params=None):
    return {"id": block_id, "type": type_id, "name": block_id,
            "position": [100, 100], "size": [60, 40], "params": params or {}}


def document(title, blocks, links, method):
    return {"format": "qdevs", "version": 1, "title": title, "description": "",
            "simulation": {"start": 0, "final": 10, "method": method,
                           "dqmin": 1e-4, "dqrel": 1e-3,
                           "illegitimacy_limit": 100000},
            "variables": {}, "blocks": blocks, "links": links}


def link(link_id, src, port, targets):
    return {"id": link_id, "from": {"block": src, "port": port},
            "to": [{"block": b, "port": p} for b, p in targets]}


def seeds(block_type):
    n_in = port_count(block_type["inputs"], block_type)
    n_out = port_count(block_type["outputs"], block_type)
    variants = [("src", "QSS2")]
    if n_in == 1 and n_out == 1:
        variants += [("loop", "QSS3"), ("loop-liqss", "LIQSS2")]
    for variant, method in variants:
        blocks = [block("B", block_type["id"])]
        links = []
        out0 = [("Scope", 0)] if n_out > 0 else []
        if variant == "src":
            for k in range(n_in):
                source = "S%d" % k
                blocks.append(block(source, SOURCES[k % len(SOURCES)]))
                links.append(link("l%d" % k, source, 0, [("B", k)]))
        else:
            blocks.append(block("X", "integrator", {"x0": "0.5"}))
            links.append(link("lx", "X", 0, [("B", 0)]))
            out0 = [("X", 0)] + out0
        if n_out > 0:
            blocks.append(block("Scope", "scope", {"n": str(n_out)}))
            links.append(link("o0", "B", 0, out0))
            for p in range(1, n_out):
                links.append(link("o%d" % p, "B", p, [("Scope", p)]))
        title = "%s %s" % (block_type["id"], variant)
        yield variant, document(title, blocks, links, method)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-seeds.py QDEVS-CLI DIR")
    listing = subprocess.run([sys.argv[1], "blocks", "--json"], check=True,
                             capture_output=True, text=True).stdout
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for block_type in json.loads(listing):
        if block_type["id"] in SKIP:
            continue
        for variant, doc in seeds(block_type):
            path = out / ("%s-%s.qdevs" % (block_type["id"], variant))
            path.write_text(json.dumps(doc, indent=1) + "\n")
            count += 1
    print("%d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
