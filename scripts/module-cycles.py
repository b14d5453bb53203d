#!/usr/bin/env python3
"""Reports import cycles between the top-level modules of a crate's `src/`.

Usage: scripts/module-cycles.py [CRATE_SRC ...]   (default: ktc/src kernels/src)

Each file's `crate::…`, `super::…`, `self::…` paths (and `ktc::…` inside ktc, which
names itself so) are mapped to the top-level module they reach; a name the crate root
re-exports (`crate::Tuner`) counts as the module it comes from. Comments are skipped (a
doc link is not a dependency); `#[cfg(test)]` code counts. Prints each cycle (a
strongly connected component of more than one module) with one file per edge, and
exits 1 when there is one. `src/bin/` holds binaries, not modules.
"""
import os
import re
import sys

PATH = re.compile(r"\b(crate|super|self|ktc)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
GROUP = re.compile(r"\b(crate|super|self|ktc)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{([^;]*?)\}", re.S)
COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
INLINE_MOD = re.compile(r"\bmod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def module_of(src, path):
    """The module path of the file `path` under `src`, as a list of names."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    return rel[:-1] if rel[-1] in ("mod", "lib") else rel


def root_exports(src):
    """Names the crate root re-exports (`pub use module::{A, B}`), mapped to their module."""
    with open(os.path.join(src, "lib.rs"), encoding="utf-8") as fh:
        text = COMMENT.sub("", fh.read())
    out = {}
    for m in re.finditer(r"\bpub use (?:crate::)?([a-z_][a-z0-9_]*)::([^;]*);", text):
        for name in IDENT.findall(m.group(2)):
            out.setdefault(name, m.group(1))
    return out


def inline_spans(text):
    """The (start, end) offsets of each inline `mod name { ... }` body."""
    spans = []
    for m in INLINE_MOD.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        spans.append((m.end(), i))
    return spans


def top_modules_named(src, path, text, own_alias, exports):
    text = COMMENT.sub("", text)
    spans = inline_spans(text)

    def resolve(root, names, at):
        if root in ("crate", own_alias):
            full = names
        else:
            # Inside `mod tests { ... }`, `super` is the file's own module.
            depth = sum(1 for a, b in spans if a <= at < b)
            base = module_of(src, path) + ["<inline>"] * depth
            if root == "super":
                base = base[:-1]
                while names and names[0] == "super":
                    base, names = base[:-1], names[1:]
            full = base + names
        full = [n for n in full if n != "<inline>"]
        return exports.get(full[0], full[0]) if full else None

    found = []
    for m in GROUP.finditer(text):
        if m.group(1) == "ktc" and own_alias != "ktc":
            continue
        prefix = [n for n in m.group(2).split("::") if n]
        for item in m.group(3).split(","):
            head = IDENT.match(item.strip())
            if head:
                found.append(resolve(m.group(1), prefix + [head.group(0)], m.start()))
    for m in PATH.finditer(text):
        if m.group(1) == "ktc" and own_alias != "ktc":
            continue
        found.append(resolve(m.group(1), [n for n in m.group(2).split("::") if n], m.start()))
    return [f for f in found if f]


def crate_graph(src):
    own_alias = os.path.basename(os.path.dirname(os.path.abspath(src)))
    exports = root_exports(src)
    tops = {n[:-3] if n.endswith(".rs") else n for n in os.listdir(src)} - {"lib", "main", "bin"}
    graph = {t: {} for t in tops}
    for root, _, files in os.walk(src):
        if os.path.relpath(root, src).split(os.sep)[0] == "bin":
            continue
        for f in sorted(files):
            path = os.path.join(root, f)
            mod = module_of(src, path) if f.endswith(".rs") else []
            if not mod:
                continue
            with open(path, encoding="utf-8") as fh:
                for t in top_modules_named(src, path, fh.read(), own_alias, exports):
                    if t in tops and t != mod[0]:
                        graph[mod[0]].setdefault(t, os.path.relpath(path, src))
    return graph


def cycles(graph):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
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
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main():
    bad = False
    for src in sys.argv[1:] or ["ktc/src", "kernels/src"]:
        graph = crate_graph(src)
        found = cycles(graph)
        if not found:
            print(f"{src}: no cycles between top-level modules")
        for comp in found:
            bad = True
            print(f"{src}: cycle among {', '.join(comp)}")
            for a in comp:
                for b in sorted(graph[a]):
                    if b in comp:
                        print(f"  {a} -> {b}  (e.g. {graph[a][b]})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
