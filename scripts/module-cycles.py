#!/usr/bin/env python3
"""Strongly connected components of a crate's module imports: an edge A -> B
when a file of top-level module A names `crate::B` (in `use` trees too).
Comments are ignored; submodule files count for their top-level module.
Usage: scripts/module-cycles.py [CRATE_SRC_DIR] (default runtime/src)"""
import os, re, sys

src = sys.argv[1] if len(sys.argv) > 1 else "runtime/src"
mods = {}
for root, _, files in os.walk(src):
    for f in files:
        if not f.endswith(".rs"):
            continue
        rel = os.path.relpath(os.path.join(root, f), src)
        top = rel.split(os.sep)[0].removesuffix(".rs")
        if top in ("lib", "main"):
            continue
        mods.setdefault(top, []).append(os.path.join(root, f))

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"//.*", "", l) for l in text.splitlines())

def brace_group(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j]
    return ""

edges = {m: set() for m in mods}
for m, files in mods.items():
    for path in files:
        text = strip_comments(open(path).read())
        for mt in re.finditer(r"\bcrate::(\{|\w+)", text):
            if mt.group(1) == "{":
                inner = brace_group(text, mt.start(1))
                names = re.findall(r"(?:^|[,{]\s*)(\w+)", inner)
            else:
                names = [mt.group(1)]
            for n in names:
                if n in mods and n != m:
                    edges[m].add(n)

index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
def visit(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(edges[v]):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(mods):
    if v not in index:
        visit(v)
cyclic = [c for c in sccs if len(c) > 1]
print(f"{len(mods)} modules, {sum(len(e) for e in edges.values())} import edges")
for c in sorted(cyclic, key=len, reverse=True):
    print(f"cycle ({len(c)}): {' '.join(c)}")
    for a in c:
        print(f"  {a} -> {' '.join(sorted(edges[a] & set(c)))}")
print("acyclic:", " ".join(sorted(c[0] for c in sccs if len(c) == 1)))
