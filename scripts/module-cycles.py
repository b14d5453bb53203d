#!/usr/bin/env python3
"""Reports import cycles in a crate's `src/`: between top-level modules, and between
the files of one module (siblings such as `sweep/run.rs` and `sweep/verify.rs`).

Usage: scripts/module-cycles.py [CRATE_SRC ...]   (default: ktc/src kernels/src)

Each file's `crate::…`, `super::…`, `self::…` paths (and `ktc::…` inside ktc, which
names itself so) are resolved to the deepest module file they reach; a name the crate
root re-exports (`crate::KernelInfo`) counts as the module it comes from. Comments are
skipped (a doc link is not a dependency); `#[cfg(test)]` code counts. A path to a
module's own ancestor or descendant is not an edge (a parent declares and re-exports
its children). Prints each cycle (a strongly connected component of more than one
module) with one file per edge; exits 1 when there is one. `src/bin/` holds binaries.
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
    """The module path of the file `path` under `src`, as a tuple of names."""
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    return tuple(rel[:-1] if rel[-1] in ("mod", "lib") else rel)


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


def paths_named(here, text, own_alias, exports):
    """The absolute paths (tuples of names) that `text`, the file of module `here`, names."""
    text = COMMENT.sub("", text)
    spans = inline_spans(text)

    def absolute(root, names, at):
        if root in ("crate", own_alias):
            if len(names) == 1 and names[0] in exports:
                return (exports[names[0]],)
            return tuple(names)
        # Inside `mod tests { ... }`, `super` is the file's own module.
        base = list(here) + [None] * sum(1 for a, b in spans if a <= at < b)
        if root == "super":
            base = base[:-1]
            while names and names[0] == "super":
                base, names = base[:-1], names[1:]
        return tuple(n for n in base + names if n is not None)

    for m in GROUP.finditer(text):
        if m.group(1) == "ktc" and own_alias != "ktc":
            continue
        prefix = [n for n in m.group(2).split("::") if n]
        for item in m.group(3).split(","):
            head = IDENT.match(item.strip())
            if head:
                yield absolute(m.group(1), prefix + [head.group(0)], m.start())
    for m in PATH.finditer(text):
        if m.group(1) != "ktc" or own_alias == "ktc":
            yield absolute(m.group(1), [n for n in m.group(2).split("::") if n], m.start())


def graphs(src):
    """(top-level module graph, file graph): each maps a module to {target: example file}."""
    own_alias = os.path.basename(os.path.dirname(os.path.abspath(src)))
    exports = root_exports(src)
    files = {}
    for root, _, names in os.walk(src):
        if os.path.relpath(root, src).split(os.sep)[0] != "bin":
            for f in names:
                if f.endswith(".rs") and module_of(src, os.path.join(root, f)):
                    files[module_of(src, os.path.join(root, f))] = os.path.join(root, f)
    top, by_file = {m[0]: {} for m in files}, {m: {} for m in files}
    for here, path in sorted(files.items()):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for named in paths_named(here, text, own_alias, exports):
            target = next((named[:k] for k in range(len(named), 0, -1) if named[:k] in files), None)
            if target is None or target[: len(here)] == here or here[: len(target)] == target:
                continue
            example = os.path.relpath(path, src)
            if target[0] != here[0]:
                top[here[0]].setdefault(target[0], example)
            by_file[here].setdefault(target, example)
    return top, by_file


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


def report(src, what, graph, name):
    found = cycles(graph)
    for comp in found:
        print(f"{src}: cycle between {what}: {', '.join(map(name, comp))}")
        for a in comp:
            for b in sorted(graph[a]):
                if b in comp:
                    print(f"  {name(a)} -> {name(b)}  (e.g. {graph[a][b]})")
    return bool(found)


def main():
    bad = False
    for src in sys.argv[1:] or ["ktc/src", "kernels/src"]:
        top, by_file = graphs(src)
        found = report(src, "top-level modules", top, str)
        found |= report(src, "files", by_file, "::".join)
        if not found:
            print(f"{src}: no import cycle between top-level modules or files")
        bad |= found
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
