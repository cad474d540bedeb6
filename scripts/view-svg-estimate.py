#!/usr/bin/env python3
"""What drawing `dopol view`'s graph up front as SVG would weigh: reads a page's embedded
nodes and writes, per element, the SVG a Rust-side layout would emit (a box, its label, its
policy badges, an edge to its parent), counting the bytes (docs/view.md, "How the page is
drawn").   scripts/view-svg-estimate.py PAGE.html
"""
import base64, json, re, sys, zlib
s = open(sys.argv[1]).read()
m = re.search(r'<script type="application/octet-stream" id="dopol-data">(.*?)</script>', s, re.S)
lines = m.group(1).split("\n")
block = lambda k: json.loads(zlib.decompress(base64.b64decode(lines[k])))
parts = block(0)["parts"]
# An array part is cut into blocks (docs/view.md): put it back together.
whole = lambda name: [x for b in range(len(parts[name]["starts"])) for x in block(parts[name]["first"] + b)]
v = {"nodes": whole("nodes")}
pol = whole("policies")
depth = {}
total = 0
row = 0
for i, n in enumerate(v["nodes"]):
    depth[i] = 0 if n[2] < 0 else depth[n[2]] + 1
    x, y = depth[i] * 24, row * 20
    row += 1
    label = n[0] + " " + n[1]
    g = f'<g transform="translate({x},{y})"><rect width="{8*len(label)}" height="18" rx="3"/><text x="4" y="13">{label}</text>'
    bx = 8 * len(label) + 6
    for p in n[3]:
        t = pol[p]["kind"] + " " + pol[p]["name"]
        g += f'<rect class="f0" x="{bx}" width="{7*len(t)}" height="16" rx="8"/><text x="{bx+4}" y="12">{t}</text>'
        bx += 7 * len(t) + 4
    g += "</g>"
    if n[2] >= 0:
        g += f'<path d="M{x-12},{y-10}V{y+9}H{x}"/>'
    total += len(g.encode())
print(len(v["nodes"]), "nodes;", total, "bytes of SVG;", total / len(v["nodes"]), "per node")
