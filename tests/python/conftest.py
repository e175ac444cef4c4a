"""Shared fixtures of the tilespace Python tests.

Environment (set by ctest; defaults for a run by hand):
  TILESPACE_CLI        the `tilespace` command (default: build/tilespace of this checkout)
  TILESPACE_TEST_DATA  the folder of published data (default: tests/data next to this folder)

Every database the tests use lives in a temporary folder (never the default "out"); the one
session-wide folder `db` is shared so that each small table is built once.
"""

import json
import os
import pathlib
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent


def cli_path():
    return os.environ.get("TILESPACE_CLI") or str(REPO / "build" / "tilespace")


def data_dir():
    return pathlib.Path(os.environ.get("TILESPACE_TEST_DATA") or (HERE.parent / "data"))


class Cli:
    """Runs the `tilespace` command; every call names its database folder."""

    def __init__(self, path):
        self.path = path

    def run(self, *args, stdin=None):
        proc = subprocess.run([self.path, *map(str, args)], input=stdin, capture_output=True,
                              text=True, timeout=120)
        return proc

    def json(self, *args, ok=(0,), stdin=None):
        """The command's --json output (one document) and its exit code, which must be in `ok`."""
        proc = self.run(*args, "--json", stdin=stdin)
        assert proc.returncode in ok, (args, proc.returncode, proc.stderr)
        return json.loads(proc.stdout)

    def json_lines(self, *args, ok=(0,)):
        proc = self.run(*args, "--json")
        assert proc.returncode in ok, (args, proc.returncode, proc.stderr)
        return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]

    def error(self, *args):
        """The one-line input error of a command that must exit 2, without the 'tilespace: error: '
        prefix."""
        proc = self.run(*args)
        assert proc.returncode == 2, (args, proc.returncode, proc.stdout, proc.stderr)
        lines = [l for l in proc.stderr.splitlines() if l.startswith("tilespace: error: ")]
        assert len(lines) == 1, proc.stderr
        return lines[0][len("tilespace: error: "):]


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    assert os.access(path, os.X_OK), f"TILESPACE_CLI: no executable {path}"
    return Cli(path)


@pytest.fixture(scope="session")
def data():
    d = data_dir()
    assert (d / "bfs-distributions.txt").is_file(), f"TILESPACE_TEST_DATA: no bfs-distributions.txt in {d}"
    return d


@pytest.fixture(scope="session")
def db(tmp_path_factory):
    """The session's database folder (a str, as the API takes it)."""
    return str(tmp_path_factory.mktemp("db"))


@pytest.fixture(scope="session")
def distributions(data):
    """{(W, H, 'corner'|'edge'|'center'): (states, radius, [count at d=0, ...])} from
    bfs-distributions.txt, with each W x H line also under H x W (the transpose)."""
    out = {}
    for line in (data / "bfs-distributions.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        board, kind, states, radius, *counts = line.split()
        w, h = map(int, board.split("x"))
        counts = [int(c) for c in counts]
        assert len(counts) == int(radius) + 1 and sum(counts) == int(states), line
        out[(w, h, kind)] = out[(h, w, kind)] = (int(states), int(radius), counts)
    return out


@pytest.fixture(scope="session")
def korf100(data):
    """[(tiles, optimal length)] of Korf's 100 instances, in file order."""
    rows = []
    for line in (data / "korf100.tsv").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        tiles, length = line.split("\t")
        rows.append(([int(t) for t in tiles.split()], int(length)))
    assert len(rows) == 100
    return rows
