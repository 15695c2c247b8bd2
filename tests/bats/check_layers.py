#!/usr/bin/env python3
"""check_layers.py ROOT -- the include graph of the C and CUDA sources.

Layers, lowest first: the library (src/lib, kernels), the harness
(src/harness), the programs (src/cli, src/mpi, tuner).  A file's quoted
#include resolves as the compiler resolves it: the including file's folder
first, then the folders of its own layer and those below it, in build.ninja's
order.  A module is a folder's files of one stem (x.h, x.c, x.cu, x.cuh)
with the parts named after it (x_internal.h, x_cuda.cu, x_stub.c: a file
x_y belongs to module x when x.h or x.c is in its folder; the longest x).
Prints one line per violation and exits 1 when there is one:
  up  FILE -> TARGET   an include that resolves only in a higher layer
  missing FILE -> NAME an include that resolves nowhere (nor is a header build.ninja writes)
  circle A B ...       modules that include each other (directly or through others)
Exits 0 printing the module and edge counts when there is none.
"""
import os
import re
import sys

LAYERS = [("library", ["src/lib", "kernels"]),
          ("harness", ["src/harness"]),
          ("programs", ["src/cli", "src/mpi", "tuner"])]
GENERATED = re.compile(r"^build build/([A-Za-z0-9_.]+\.h):", re.M)   # headers build.ninja writes
SOURCE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
EXTS = (".c", ".h", ".cu", ".cuh")


def main(root):
    layer_of, files = {}, []
    for rank, (_, dirs) in enumerate(LAYERS):
        for d in dirs:
            for f in sorted(os.listdir(os.path.join(root, d))) if os.path.isdir(os.path.join(root, d)) else []:
                if f.endswith(EXTS):
                    files.append(os.path.join(d, f))
                    layer_of[d] = rank
    exists = set(files)
    generated = set(GENERATED.findall(open(os.path.join(root, "build.ninja")).read()))
    problems, edges = [], {}
    stems = {os.path.splitext(f)[0] for f in files}

    def module(path):
        stem = os.path.splitext(path)[0]
        cut = len(stem)
        while True:
            cut = stem.rfind("_", len(os.path.dirname(stem)) + 1, cut)
            if cut < 0:
                return stem
            if stem[:cut] in stems:
                return stem[:cut]
    for src in files:
        here = os.path.dirname(src)
        rank = layer_of[here]
        text = open(os.path.join(root, src), encoding="utf-8", errors="replace").read()
        for name in SOURCE.findall(text):
            cand = os.path.normpath(os.path.join(here, name))
            if cand in exists:
                target = cand
            else:
                target = None
                for r in range(rank + 1):
                    for d in LAYERS[r][1]:
                        c = os.path.normpath(os.path.join(d, name))
                        if target is None and c in exists:
                            target = c
                if target is None:
                    above = [os.path.normpath(os.path.join(d, name)) for _, ds in LAYERS[rank + 1:] for d in ds]
                    above = [c for c in above if c in exists]
                    if above:
                        problems.append("up  %s -> %s" % (src, above[0]))
                    elif name not in generated:
                        problems.append("missing %s -> %s" % (src, name))
                    continue
            a, b = module(src), module(target)
            if a != b:
                edges.setdefault(a, set()).add(b)
    # circles: the strongly connected components of more than one module (Tarjan)
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(set(edges) | {w for ws in edges.values() for w in ws}):
        if v not in index:
            visit(v)
    for comp in comps:
        problems.append("circle " + " ".join(comp))
    for p in problems:
        print(p)
    if problems:
        return 1
    print("%d modules, %d includes between them: no circle, none pointing up a layer"
          % (len({module(f) for f in files}), sum(len(v) for v in edges.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
