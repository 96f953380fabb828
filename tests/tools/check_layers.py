#!/usr/bin/env python3
"""The include order of the whole tree (docs/architecture.md#layers): every top-level folder with
C++ code is a room, and so is each folder of experiments/; a file includes only headers of its own
room or of rooms below it, never above, and sibling rooms (one rank) never include each other.
The order below must also be the one docs/architecture.md states, and every folder with C++ code
must have a rank. Within any folder, the arrows between modules (a module: foo.hpp with its
foo.cpp) point one way: no module reaches itself through the includes of others.
Exit 0 when every include keeps the order, 1 naming each one that does not."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Rooms, lowest first; rooms on one rank (a tuple) are siblings: neither includes the other.
ORDER = [
    ("core",),
    ("datasets",),
    ("numerics",),
    ("algorithms",),
    ("bounds",),
    ("models",),
    ("config",),  # the one configuration step; the installed core library ends here (docs/architecture.md#targets)
    ("experiments",),  # the shared low layer: version, exit codes, the build-tree data path
    ("experiments/spec",),
    ("experiments/run",),
    ("experiments/cell",),
    ("experiments/schedule", "experiments/report"),
    ("experiments/reproduce",),
    ("cli", "python", "bench"),  # the front ends and the benchmarks: none includes another
    ("tests",),
]
SOURCES = (".cpp", ".hpp", ".h", ".cc")
SKIP = ("build", ".")  # build trees (build/, build-fuzz/, ...) and hidden folders
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank_of(room):
    for r, rooms in enumerate(ORDER):
        if room in rooms:
            return r
    return None


def room_of(path):
    """The room of a repository path: its top-level folder, or experiments/<folder>."""
    parts = pathlib.PurePosixPath(path).parts
    if parts[0] == "experiments" and len(parts) > 2:
        return "experiments/" + parts[1]
    return parts[0]


def stated_order():
    return " < ".join(" = ".join(f"`{r}/`" for r in rooms) for rooms in ORDER)


def include_path(f, inc):
    """The repository path an include names: from the root, else beside the including file (python/src's
    own headers); None for a header outside the tree (generated, a dependency)."""
    if (ROOT / inc).exists():
        return inc
    local = f.parent / inc
    return local.relative_to(ROOT).as_posix() if local.exists() else None


def check_file(f, rel, problems):
    src_room = room_of(rel)
    s = rank_of(src_room)
    for inc in INCLUDE.findall(f.read_text(errors="replace")):
        target = include_path(f, inc)
        if target is None:
            continue
        dst_room = room_of(target)
        if dst_room == src_room:
            continue
        d = rank_of(dst_room)
        if d is None:
            problems.append(f"{rel}: includes {inc} of room {dst_room}/, which is in no rank of the order")
        elif d >= s:
            problems.append(f"{rel}: includes {inc}: room {dst_room}/ is not below {src_room}/ ({stated_order()})")


def module_cycles(files):
    """Cycles of the module include graph (Tarjan's strongly connected components of size > 1)."""
    graph = {}
    for f in files:
        rel = f.relative_to(ROOT).as_posix()
        mod = rel.rsplit(".", 1)[0]
        for inc in INCLUDE.findall(f.read_text(errors="replace")):
            dst = inc.rsplit(".", 1)[0]
            if dst != mod and (ROOT / inc).exists():
                graph.setdefault(mod, set()).add(dst)
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
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
                cycles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def main():
    problems = []
    sources = []
    for f in sorted(p for p in ROOT.glob("**/*") if p.suffix in SOURCES and p.is_file()):
        rel = f.relative_to(ROOT).as_posix()
        if rel.startswith(SKIP):
            continue
        room = room_of(rel)
        if rank_of(room) is None:
            problems.append(f"{rel}: room {room}/ is in no rank of the order (tests/tools/check_layers.py, docs/architecture.md)")
            continue
        check_file(f, rel, problems)
        if not rel.startswith(("tests/", "bench/")):
            sources.append(f)
    for cycle in module_cycles(sources):
        problems.append("include cycle between modules: " + " <-> ".join(cycle) + " (let the arrows point one way)")
    doc = (ROOT / "docs" / "architecture.md").read_text()
    if stated_order() not in doc:
        problems.append(f"docs/architecture.md does not state the include order {stated_order()}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
