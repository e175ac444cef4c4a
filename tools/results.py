#!/usr/bin/env python3
"""The radius of every blank class and the diameter of sliding-tile boards, in both metrics.

    tools/results.py [--tilespace PATH] [--db DIR] [--metrics M] BOARD...     prints rows of docs/results.md
    tools/results.py [--tilespace PATH] [--db DIR] [--metrics M] --check FILE BOARD...

For each BOARD (WxH, as `tilespace build --board` takes it) and each metric (--metrics: single,
multi or both, the default) it runs
`tilespace build --all-goals` (one table per blank class: the cells alike under the board's mirrors
and turns) and `tilespace stats --all-goals --json`, and prints one markdown row per class: its
cells, the goal that represents it, the radius, the states at the radius, the mean distance, the
class table's build time and its file's checksums (the header's XXH3-64 fields at offsets 48 and
56, docs/file-format.md), and the published radius where tests/data has one. The diameter of a
board (the longest optimal solution between any two states) is the largest radius of its classes:
every goal is answered by its class's table.

--check FILE: recomputes the boards and compares every column except the times and the checksums
with FILE's rows for those boards (docs/results.md); exit 1 naming the first difference.
Tables go to --db (default: a temporary folder, removed at the end).
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METRICS = ("single", "multi")
HEADER = ("| board | metric | blank cells | goal of the class | radius | at the radius | mean "
          "| diameter | published | build s | XXH3 trailer / header |")
RULE = "|---|---|---|---|---:|---:|---:|---:|---|---:|---|"


def published():
    """{(board, metric, position): radius} from tests/data, with both orientations of a board."""
    facts = {}
    with open(os.path.join(ROOT, "tests/data/bfs-distributions.txt")) as f:
        for line in f:
            w = line.split()
            if len(w) > 4 and not line.startswith("#"):
                facts[(w[0], "single", w[1])] = int(w[3])
    with open(os.path.join(ROOT, "tests/data/multi-tile.txt")) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0] == "radius":
                facts[(w[1], "multi", "corner")] = int(w[3])
    both = {}
    for (board, metric, pos), r in facts.items():
        width, height = board.split("x")
        both[(board, metric, pos)] = r
        both[(f"{height}x{width}", metric, pos)] = r
    return both


def position(board, cells):
    """The published position word of a class (corner, edge, center), or None."""
    width, height = (int(v) for v in board.split("x"))
    if 0 in cells:
        return "corner"
    if width == 3 and height == 3:
        return "center" if cells == [4] else "edge"
    return None


def checksums(path):
    with open(path, "rb") as f:
        f.seek(48)
        trailer, header = struct.unpack("<QQ", f.read(16))
    return f"`{trailer:016x}` / `{header:016x}`"


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"results.py: {' '.join(args)} exited {r.returncode}: {r.stderr.strip()}")
    return r


def rows(tilespace, db, board, metric, facts, build_args):
    start = time.monotonic()
    built = run([tilespace, "build", "--board", board, "--metric", metric, "--all-goals", "--db", db, *build_args])
    wall = time.monotonic() - start
    files = {}  # cells -> (path, seconds)
    for line in (built.stdout + built.stderr).splitlines():
        m = re.match(r"built (\S+): .*, ([0-9.]+) s; serves the blank on cells ([0-9 ]+)$", line)
        if m:
            files[tuple(int(c) for c in m.group(3).split())] = (m.group(1), m.group(2))
    stats = json.loads(run([tilespace, "stats", "--board", board, "--metric", metric, "--all-goals", "--db", db,
                            "--json"]).stdout)
    out = []
    for c in stats["classes"]:
        cells = c["cells"]
        path, seconds = files.get(tuple(cells), (None, ""))
        pos = position(board, cells)
        fact = facts.get((board, metric, pos)) if pos else None
        if fact is not None and fact != c["radius"]:
            sys.exit(f"results.py: {board} {metric} cells {cells}: radius {c['radius']}, published {fact}")
        out.append("| " + " | ".join([
            board, metric, " ".join(map(str, cells)), "`" + " ".join(map(str, c["goal"])) + "`", str(c["radius"]),
            f"{c['farthest_count']:,}", f"{c['mean']:.4f}", str(stats["longest"]),
            f"{fact} ({pos})" if fact is not None else "", seconds or "",
            checksums(path) if path else ""]) + " |")
    return out, wall


def compared(line):
    """The columns of a row that do not depend on the machine (not the time, not the checksums)."""
    cols = [c.strip() for c in line.strip().strip("|").split("|")]
    return cols[:9]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tilespace", default=os.path.join(ROOT, "build/tilespace"))
    p.add_argument("--db")
    p.add_argument("--check", metavar="FILE")
    p.add_argument("--metrics", choices=("single", "multi", "both"), default="both")
    p.add_argument("--build-arg", action="append", default=[], metavar="ARG",
                   help="an argument for every tilespace build, e.g. --build-arg=--checkpoint-every=0")
    p.add_argument("boards", nargs="+", metavar="BOARD")
    a = p.parse_args()
    for b in a.boards:
        if not re.fullmatch(r"[1-9]x[1-9]", b):
            sys.exit(f"results.py: '{b}' is not a board (WxH)")
    db = a.db or tempfile.mkdtemp(prefix="tilespace-results-")
    facts = published()
    try:
        lines, walls = [], []
        for b in a.boards:
            for m in METRICS if a.metrics == "both" else (a.metrics,):
                r, wall = rows(a.tilespace, db, b, m, facts, a.build_arg)
                lines += r
                walls.append(f"{b} {m}: {wall:.2f} s")
    finally:
        if not a.db:
            shutil.rmtree(db, ignore_errors=True)
    if not a.check:
        print(HEADER)
        print(RULE)
        print("\n".join(lines))
        print("\nwall time of each build --all-goals: " + "; ".join(walls))
        return 0
    with open(a.check) as f:
        table = [[c.strip() for c in l.strip().strip("|").split("|")] for l in f if l.startswith("| ")]
    documented = [c[:9] for c in table if len(c) == 11 and c[0] in a.boards and c[1] in METRICS
                  and (a.metrics == "both" or c[1] == a.metrics)]
    computed = [compared(l) for l in lines]
    if not documented:
        sys.exit(f"results.py: {a.check} has no row for {' '.join(a.boards)}")
    for d, c in zip(documented, computed):
        if d != c:
            sys.exit(f"results.py: {a.check} says\n  {' | '.join(d)}\nbut the tables give\n  {' | '.join(c)}")
    if len(documented) != len(computed):
        sys.exit(f"results.py: {a.check} has {len(documented)} rows for {' '.join(a.boards)}, the tables {len(computed)}")
    # The diameters' table: | board | states | single | multi |, each figure the first number of its cell.
    first = lambda cell: re.match(r"\**([0-9,]+)", cell).group(1).replace(",", "")
    for c in table:
        if len(c) == 4 and c[0] in a.boards:
            for metric, cell in zip(METRICS, c[2:]):
                if a.metrics in ("both", metric):
                    want = next(int(r[7]) for r in computed if r[0] == c[0] and r[1] == metric)
                    if int(first(cell)) != want:
                        sys.exit(f"results.py: {a.check} gives {c[0]} the {metric} diameter {cell}, the tables {want}")
    print(f"results.py: {a.check}: the {len(computed)} rows of {' '.join(a.boards)} are true")
    return 0


if __name__ == "__main__":
    sys.exit(main())
