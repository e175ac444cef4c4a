"""Tests of the Python module `tilespace` (tools/python/).

Correctness is checked against facts nobody here invented (tests/data/bfs-distributions.txt,
the published BFS distance distributions; tests/data/korf100.tsv, Korf's 15-puzzle instances with
their optimal lengths; the bipartite move graph) and against the `tilespace` command, which the
module must agree with exactly (except "seconds", and node counts of multi-threaded searches,
which these tests avoid by using single-threaded algorithms with threads=1).

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python -q
"""

import inspect
import pathlib
import os
import random
import re
import threading
import time

import numpy as np
import pytest

import tilespace

# --- Helpers -------------------------------------------------------------------------------

E = inspect.Parameter.empty

# The two farthest states of the 8-puzzle from the goal 1 2 3 / 4 5 6 / 7 8 _: 31 moves
# (Reinefeld 1993; bfs-distributions.txt: 3x3 corner, radius 31, 2 states there).
HARDEST = [[8, 6, 7, 2, 5, 4, 3, 0, 1], [6, 4, 7, 8, 5, 0, 3, 2, 1]]
GOAL_3X3 = [1, 2, 3, 4, 5, 6, 7, 8, 0]
UNREACHABLE_3X3 = [1, 2, 3, 4, 5, 6, 8, 7, 0]  # two tiles swapped: the other parity class
KORF_GOAL = list(range(16))  # korf100.tsv: the blank top-left

SOLVE_KEYS = {"board", "start", "goal", "algorithm", "metric", "heuristic", "solvable", "length", "moves",
              "expanded", "generated", "peak_open", "closed", "peak_bytes", "seconds", "stopped",
              "path"}
STATS_KEYS = {"board", "goal", "states", "radius", "histogram", "mean", "farthest_count", "farthest", "metric"}
CHECK_KEYS = {"lines", "passed", "failed", "undecided", "malformed", "failed_by_kind", "total_excess",
              "seconds", "verdicts"}
VERDICT_KINDS = ["ok", "illegal-move", "wrong-end", "longer", "wrong-length", "unreachable-missed",
                 "falsely-unreachable"]


def plain(x):
    """JSON-like plain Python values: numpy arrays and scalars and tuples become lists and numbers,
    so a module result compares with the command's JSON."""
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, np.ndarray):
        return plain(x.tolist())
    if isinstance(x, np.generic):
        return x.item()
    return x


def without_seconds(d):
    d = dict(d)
    d.pop("seconds")
    return d


def spell(state):
    return " ".join(str(int(t)) for t in state)


def dims(board):
    w, h = board.split("x")
    return int(w), int(h)


def canonical_goal(cells, blank):
    """Tiles 1..cells-1 in order with the blank on cell `blank`."""
    tiles = list(range(1, cells))
    tiles.insert(blank, 0)
    return tiles


def cell_kind(w, h, c):
    x, y = c % w, c // w
    on_x, on_y = x in (0, w - 1), y in (0, h - 1)
    return "corner" if on_x and on_y else "edge" if on_x or on_y else "center"


STEP = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}


def replay(state, moves, w):
    """The state after `moves` (letters name where the blank goes), or None at an illegal move."""
    s = list(state)
    h = len(s) // w
    for m in moves:
        b = s.index(0)
        dx, dy = STEP[m.upper()]
        x, y = b % w + dx, b // w + dy
        if not (0 <= x < w and 0 <= y < h):
            return None
        t = y * w + x
        s[b], s[t] = s[t], s[b]
    return s


def scramble(goal, w, k, seed):
    """A state k legal moves from `goal` (never undoing the last move), and the moves."""
    rng = random.Random(seed)
    s, moves = list(goal), ""
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    while len(moves) < k:
        m = rng.choice("UDLR")
        if moves and m == undo[moves[-1]]:
            continue
        nxt = replay(s, m, w)
        if nxt is not None:
            s, moves = nxt, moves + m
    return s, moves


def swap_tiles(state):
    """The same state with its first two tiles (not the blank) swapped: the other parity class."""
    s = list(state)
    i, j = [k for k, t in enumerate(s) if t != 0][:2]
    s[i], s[j] = s[j], s[i]
    return s


def python_message(cli_message):
    """The command's message as the module words it: a leading option '--max-nodes:' names the
    Python parameter 'max_nodes:'."""
    if cli_message.startswith("--"):
        name, rest = cli_message[2:].split(":", 1)
        return name.replace("-", "_") + ":" + rest
    return cli_message


# --- Version, signatures and exception types ------------------------------------------------------

def test_version_matches_the_command(cli):
    proc = cli.run("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"tilespace {tilespace.__version__}"
    assert isinstance(tilespace.__version__, str)


@pytest.mark.parametrize("function, parameters", [
    ("distance", [("start", E), ("goal", None), ("board", None), ("db", "out"), ("max_seconds", None),
                  ("max_nodes", None), ("metric", None)]),
    ("distances", [("starts", E), ("goals", None), ("board", None), ("db", "out"), ("max_seconds", None),
                   ("max_nodes", None), ("metric", None)]),
    ("solve", [("start", E), ("goal", None), ("algorithm", None), ("heuristic", None), ("board", None),
               ("db", "out"), ("threads", 0), ("limits", E)]),
    ("random_states", [("n", E), ("board", None), ("goal", None), ("depth", None), ("seed", None),
                       ("db", "out"), ("metric", None)]),
    ("stats", [("board", None), ("goal", None), ("db", "out"), ("metric", None)]),
    ("check", [("answers", E), ("goal", None), ("board", None), ("db", "out"), ("max_seconds", None),
               ("metric", None)]),
])
def test_signatures(function, parameters):
    """The documented parameters, in order, with their defaults (the default database is "out")."""
    sig = inspect.signature(getattr(tilespace, function))
    assert [(p.name, p.default) for p in sig.parameters.values()] == parameters


def test_exception_types():
    assert issubclass(tilespace.DataError, Exception)
    assert not issubclass(tilespace.DataError, (ValueError, MemoryError))
    assert issubclass(tilespace.SearchLimit, MemoryError)


@pytest.mark.parametrize("state, says", [
    ("\uff11 2 3 4 5 6 7 0 8", "full-width digits; write tiles with the digits 0-9"),
    ("1 2 3 4 5 6 7 8 99999999999999999999", "tile '99999999999999999999' is too large for a 3x3 board"),
])
def test_distance_names_full_width_digits_and_huge_tiles(db, state, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        tilespace.distance(state, db=db)


def test_a_mistyped_db_creates_nothing(tmp_path):
    """db= with a missing parent is a DataError naming it, and no folder is made anywhere."""
    db = tmp_path / "typo" / "deep" / "er"
    with pytest.raises(tilespace.DataError, match=re.escape("no folder " + str(tmp_path / "typo" / "deep"))):
        tilespace.distance("1 2 3 4 5 6 7 0 8", db=str(db))
    assert not (tmp_path / "typo").exists()
    # One missing folder under an existing one is made when a table is written there.
    assert tilespace.distance("1 2 3 4 5 6 7 0 8", db=str(tmp_path / "fresh")) == 1
    assert (tmp_path / "fresh").is_dir()


# --- distance ------------------------------------------------------------------------------------

@pytest.mark.parametrize("spelling", [
    "8 6 7 2 5 4 3 0 1",
    "867254301",
    "8,6,7/2,5,4/3,0,1",
    [8, 6, 7, 2, 5, 4, 3, 0, 1],
    (8, 6, 7, 2, 5, 4, 3, 0, 1),
    np.array([8, 6, 7, 2, 5, 4, 3, 0, 1], dtype=np.uint8),
    np.array([8, 6, 7, 2, 5, 4, 3, 0, 1], dtype=np.int64),
], ids=["spaces", "digits", "rows", "list", "tuple", "uint8", "int64"])
def test_distance_accepts_every_spelling(db, spelling):
    assert tilespace.distance(spelling, db=db) == 31


@pytest.mark.parametrize("state", HARDEST)
def test_distance_of_the_farthest_states_is_the_published_radius(db, state):
    assert tilespace.distance(state, db=db) == 31
    assert tilespace.distance(state, goal=GOAL_3X3, board="3x3", db=db) == 31


def test_distance_basics(db):
    assert tilespace.distance(GOAL_3X3, db=db) == 0
    assert tilespace.distance(UNREACHABLE_3X3, db=db) is None
    # Every neighbour of the goal is one move away.
    for m in "UL":
        assert tilespace.distance(replay(GOAL_3X3, m, 3), db=db) == 1
    # The move graph is undirected: the distance is symmetric, for goals with any blank cell.
    rng = random.Random(7)
    for _ in range(20):
        a, b = list(range(9)), list(range(9))
        rng.shuffle(a)
        rng.shuffle(b)
        d = tilespace.distance(a, goal=b, db=db)
        assert d == tilespace.distance(b, goal=a, db=db)
        assert (d is None) == (tilespace.distance(swap_tiles(a), goal=b, db=db) is not None)


def test_distance_return_type(db):
    d = tilespace.distance("1 2 3 4 5 6 7 0 8", db=db)
    assert type(d) is int and d == 1


@pytest.mark.parametrize("start, goal, board", [
    ("8 6 7 2 5 4 3 0 1", None, None),
    ("1 2 3 4 5 6 8 7 0", None, None),
    ("8 6 7 2 5 4 3 0 1", "1 2 3 4 0 5 6 7 8", None),
    ("8 6 7 2 5 4 3 0 1", "0 1 2 3 4 5 6 7 8", None),
    ("3 1 2 4 0 5", None, "2x3"),
    ("3 1 2 4 0 5", None, "3x2"),
    ("5 4 3 2 1 0", "0 1 2 3 4 5", "2x3"),
    ("7 6 5 4 3 2 1 0", None, "2x4"),
    ("3 1 2 0", None, None),
    ("h f g b e d c _ a", "a b c d e f g h _", None),   # named tiles
    ("cat dog _ ant", "ant cat dog _", None),
    ("3,1,2/4,0,5", None, None),                       # rows: the board is 3 wide
    ("3,1/2,4/0,5", None, None),                       # rows: the board is 2 wide
])
def test_distance_matches_query(cli, db, start, goal, board):
    args = ["query", start, "--db", db]
    if goal is not None:
        args += ["--goal", goal]
    if board is not None:
        args += ["--board", board]
    expected = cli.json(*args, ok=(0, 1))
    assert tilespace.distance(start, goal=goal, board=board, db=db) == expected["length"]
    assert (expected["length"] is None) == (not expected["reachable"])


def test_distance_needs_the_board_when_the_tile_count_is_ambiguous(cli, db):
    with pytest.raises(ValueError) as e:
        tilespace.distance("3 1 2 4 0 5", db=db)
    assert str(e.value) == cli.error("query", "3 1 2 4 0 5", "--db", db)
    assert tilespace.distance("3 1 2 4 0 5", board="2x3", db=db) == 7
    assert tilespace.distance("3 1 2 4 0 5", board="3x2", db=db) == 15
    with pytest.raises(ValueError):
        tilespace.distance(list(range(1, 12)) + [0], db=db)  # 12 tiles: 3x4, 4x3, 2x6 or 6x2


@pytest.mark.parametrize("start, goal, board", [
    ("1 2 3 4 5 6 7 8", None, None),               # a tile short
    ("1 2 3 4 5 6 7 8 8", None, None),             # duplicate
    ("1 2 3 4 5 6 7 8 9", None, None),             # out of range
    ("a b c d e f g h 0", None, None),             # unknown symbol
    ("1 2 3 4 5 0", None, "3x3"),                  # the board does not fit the tiles
    ("1 2 3 4 5 0", None, "9x9"),                  # bad board
    ("1 2 3 4 5 0", None, "foo"),                  # bad board
    ("8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 7 7 0", None),  # bad goal
    ("8 6 7 2 5 4 3 0 1", "1 2 3 4 5 0", None),        # goal of another board
])
def test_distance_bad_input_is_a_value_error_with_the_commands_message(cli, db, start, goal, board):
    args = ["query", start, "--db", db]
    if goal is not None:
        args += ["--goal", goal]
    if board is not None:
        args += ["--board", board]
    expected = python_message(cli.error(*args))
    with pytest.raises(ValueError) as e:
        tilespace.distance(start, goal=goal, board=board, db=db)
    assert str(e.value) == expected


@pytest.mark.parametrize("state", [
    [1, 2, 3, 4, 5, 6, 7, 8, 99],
    [1, 2, 3, 4, 5, 6, 7, 8, -1],
    [1, 2, 3, 4, 5, 6, 7, 264, 0],   # 264 would wrap to 8 as a byte: must not be accepted
    np.array([1, 2, 3, 4, 5, 6, 7, 264, 0], dtype=np.int64),
    [1, 2, 3, 4, 5, 6, 7, 8, 8],
    [1, 2, 3, 4, 5, 6, 7, 8],
    [],
], ids=["99", "negative", "264", "264-array", "duplicate", "short", "empty"])
def test_distance_bad_sequences_are_value_errors(db, state):
    with pytest.raises(ValueError):
        tilespace.distance(state, db=db)


def test_bytes_that_are_not_utf8_are_a_value_error_naming_the_parameter(db):
    with pytest.raises(ValueError, match=r"^start: not UTF-8 text$"):
        tilespace.distance(b"\xff 2 3", db=db)


@pytest.mark.parametrize("triple, says", [
    ((None, None, "R"), "answers row 1: the start is missing"),
    (("1 2 3 4 5 6 7 8 0", None, None), "answers row 1: the answer is missing"),
])
def test_check_triples_with_missing_fields_are_value_errors(db, triple, says):
    with pytest.raises(ValueError) as e:
        tilespace.check([triple], db=db)
    assert str(e.value) == says


def test_distance_of_a_4x4_state_is_searched(db, korf100):
    # No table can exist for 4x4: the answer is searched as solve() searches, within its limits.
    tiles, length = korf100[0]
    assert tilespace.distance(tiles, goal=KORF_GOAL, db=db) == length
    with pytest.raises(tilespace.SearchLimit) as e:
        tilespace.distance(tiles, goal=KORF_GOAL, db=db, max_nodes=100)
    assert "max-nodes" in str(e.value)
    with pytest.raises(ValueError, match="max_seconds"):
        tilespace.distance("1 2 3 4 5 6 7 8 0", db=db, max_seconds=5)  # a table answers 3x3


def test_distances_of_4x4_states_are_searched(db, korf100):
    starts = [tiles for tiles, _ in korf100[:3]] + [[0, 2, 1] + list(range(3, 16))]  # the last unreachable
    got = tilespace.distances(starts, goals=KORF_GOAL, db=db)
    assert got.tolist() == [length for _, length in korf100[:3]] + [-1]
    with pytest.raises(MemoryError, match="starts row 0"):
        tilespace.distances(starts, goals=KORF_GOAL, db=db, max_nodes=100)


def test_random_states_at_a_depth_on_4x4_are_that_far(db):
    states = tilespace.random_states(4, board="4x4", depth=15, seed=9, db=db)
    assert states.shape == (4, 16)
    assert tilespace.distances(states, db=db).tolist() == [15] * 4
    with pytest.raises(ValueError, match="at most 45 on 4x4"):
        tilespace.random_states(1, board="4x4", depth=46, db=db)


def test_distance_of_none_or_floats_gets_the_grammar_s_message(db):
    with pytest.raises(ValueError, match="^start: a state is required$"):
        tilespace.distance(None, db=db)
    with pytest.raises(ValueError) as e:
        tilespace.distance([1.0, 2, 3, 4, 5, 6, 7, 8, 0], db=db)
    assert str(e.value).startswith("start:") and "1.0" in str(e.value)


def test_distance_without_a_table_too_long_to_build_is_a_data_error(tmp_path):
    db = str(tmp_path / "db")
    start = "1 2 3 4 5 6 7 8 9 10 11 12 0 13"
    with pytest.raises(tilespace.DataError) as e:
        tilespace.distance(start, board="2x7", db=db)
    assert "tilespace build" in str(e.value) and "2x7" in str(e.value)


@pytest.mark.parametrize("bits", ["8", "2", "1"])
@pytest.mark.parametrize("damage", ["truncate", "flip", "magic"])
def test_a_damaged_table_is_a_data_error(cli, tmp_path, damage, bits):
    db = str(tmp_path / "db")
    assert cli.run("build", "--board", "2x3", "--bits", bits, "--db", db).returncode == 0
    (path,) = (tmp_path / "db").glob("*.tsdb")
    b = bytearray(path.read_bytes())
    if damage == "truncate":
        b = b[:len(b) // 2]
    elif damage == "flip":
        b[len(b) - 10] ^= 0xFF
    else:
        b[:16] = bytes(16)
    path.write_bytes(bytes(b))
    proc = cli.run("query", "1 2 3 4 0 5", "--board", "2x3", "--db", db)
    assert proc.returncode == 3
    message = proc.stderr.strip().splitlines()[-1].removeprefix("tilespace: file error: ")
    with pytest.raises(tilespace.DataError) as e:
        tilespace.distance("1 2 3 4 0 5", board="2x3", db=db)
    assert message in str(e.value)


@pytest.mark.parametrize("call", [
    lambda db: tilespace.distance(GOAL_3X3, db=db, bogus=1),
    lambda db: tilespace.distances([GOAL_3X3], db=db, bogus=1),
    lambda db: tilespace.solve(GOAL_3X3, db=db, bogus=1),
    lambda db: tilespace.solve(GOAL_3X3, db=db, maxnodes=10),
    lambda db: tilespace.random_states(1, db=db, bogus=1),
    lambda db: tilespace.stats(db=db, bogus=1),
    lambda db: tilespace.check("", db=db, bogus=1),
], ids=["distance", "distances", "solve", "solve-limit", "random_states", "stats", "check"])
def test_unknown_keywords_are_type_errors(db, call):
    with pytest.raises(TypeError):
        call(db)


# --- distances -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def batch(db):
    """Reachable and unreachable 3x3 starts with goals on every blank cell."""
    starts = tilespace.random_states(60, seed=11, db=db).tolist()
    starts += [swap_tiles(s) for s in starts[:20]] + [GOAL_3X3] + HARDEST
    rng = random.Random(5)
    goals = []
    for _ in starts:
        g = list(range(9))
        rng.shuffle(g)
        goals.append(g)
    return np.array(starts, dtype=np.uint8), np.array(goals, dtype=np.uint8)


def expected_rows(starts, goals, db, board=None):
    out = []
    for s, g in zip(starts, goals):
        d = tilespace.distance(list(s), goal=None if g is None else list(g), board=board, db=db)
        out.append(-1 if d is None else d)
    return out


def test_distances_agree_with_distance_on_every_row(db, batch):
    starts, goals = batch
    got = tilespace.distances(starts, db=db)
    assert isinstance(got, np.ndarray) and got.dtype == np.int32 and got.shape == (len(starts),)
    assert got.tolist() == expected_rows(starts, [None] * len(starts), db)
    assert (got == -1).sum() == 20
    pairwise = tilespace.distances(starts, goals, db=db)
    assert pairwise.dtype == np.int32 and pairwise.shape == (len(starts),)
    assert pairwise.tolist() == expected_rows(starts, goals, db)


@pytest.mark.parametrize("form", ["uint8", "int64", "int32", "uint16", "strings", "lists", "tuples",
                                  "digit-strings"])
def test_distances_start_forms(db, batch, form):
    starts, _ = batch
    arg = {
        "uint8": starts,
        "int64": starts.astype(np.int64),
        "int32": starts.astype(np.int32),
        "uint16": starts.astype(np.uint16),
        "strings": [spell(s) for s in starts],
        "lists": starts.tolist(),
        "tuples": [tuple(s) for s in starts.tolist()],
        "digit-strings": ["".join(map(str, s)) for s in starts.tolist()],
    }[form]
    assert tilespace.distances(arg, db=db).tolist() == tilespace.distances(starts, db=db).tolist()


@pytest.mark.parametrize("form", ["str", "list", "array", "array-int64"])
def test_distances_one_goal_for_every_row(db, batch, form):
    starts, _ = batch
    goal = [0, 1, 2, 3, 4, 5, 6, 7, 8]
    arg = {"str": spell(goal), "list": goal, "array": np.array(goal, dtype=np.uint8),
           "array-int64": np.array(goal, dtype=np.int64)}[form]
    got = tilespace.distances(starts, arg, db=db)
    assert got.tolist() == expected_rows(starts, [goal] * len(starts), db)


@pytest.mark.parametrize("form", ["array", "lists", "strings"])
def test_distances_pairwise_goal_forms(db, batch, form):
    starts, goals = batch
    arg = {"array": goals, "lists": goals.tolist(), "strings": [spell(g) for g in goals]}[form]
    assert tilespace.distances(starts, goals=arg, db=db).tolist() == expected_rows(starts, goals, db)


def test_distances_on_a_board_given_by_name(db):
    starts = tilespace.random_states(30, board="2x3", seed=3, db=db)
    assert starts.shape == (30, 6)
    got = tilespace.distances(starts, board="2x3", db=db)
    assert got.tolist() == expected_rows(starts, [None] * 30, db, board="2x3")
    transposed = tilespace.distances(starts, board="3x2", db=db)
    assert transposed.tolist() == expected_rows(starts, [None] * 30, db, board="3x2")
    with pytest.raises(ValueError):
        tilespace.distances(starts, db=db)  # 6 cells: 2x3 or 3x2


@pytest.mark.parametrize("starts", [np.zeros((0, 9), dtype=np.uint8), []], ids=["array", "list"])
def test_distances_of_no_rows(db, starts):
    got = tilespace.distances(starts, db=db)
    assert isinstance(got, np.ndarray) and got.dtype == np.int32 and got.shape == (0,)


def test_distances_names_the_bad_row(db):
    rows = [GOAL_3X3, HARDEST[0], HARDEST[1], [1, 2, 3, 4, 5, 6, 7, 8, 8], GOAL_3X3]
    for starts in (rows, np.array(rows, dtype=np.uint8), [spell(r) for r in rows]):
        with pytest.raises(ValueError, match=r"^starts row 3: ") as e:
            tilespace.distances(starts, db=db)
        assert "appears twice" in str(e.value)
    goals = [spell(GOAL_3X3)] * 5
    goals[2] = "1 2 3 4 5 6 7 8 9"
    with pytest.raises(ValueError, match=r"^goals row 2: "):
        tilespace.distances([GOAL_3X3] * 5, goals=goals, db=db)
    # Rows whose values or length are wrong before any parsing: still named.
    big = [GOAL_3X3, [1, 2, 3, 4, 5, 6, 7, 264, 0]]  # 264 would wrap to 8 as a byte
    for starts in (big, np.array(big, dtype=np.int64)):
        with pytest.raises(ValueError, match=r"^starts row 1: "):
            tilespace.distances(starts, db=db)
    with pytest.raises(ValueError, match=r"^starts row 2: "):
        tilespace.distances([GOAL_3X3, GOAL_3X3, GOAL_3X3[:8]], db=db)


@pytest.mark.parametrize("starts, goals", [
    (np.zeros((3, 8), dtype=np.uint8), None),                              # 8 cells on a 3x3 board
    (np.array([GOAL_3X3] * 3, dtype=np.uint8)[None], None),                 # 3-D
    (np.array([GOAL_3X3] * 3, dtype=np.uint8), np.array([GOAL_3X3] * 2, dtype=np.uint8)),  # 2 goals
    (np.array([GOAL_3X3] * 3, dtype=np.uint8), np.array([GOAL_3X3] * 4, dtype=np.uint8)),  # 4 goals
    (np.array([GOAL_3X3] * 3, dtype=np.uint8), [spell(GOAL_3X3)] * 2),                      # 2 goals
    (np.array([GOAL_3X3] * 3, dtype=np.uint8), np.zeros((3, 6), dtype=np.uint8)),           # 6 cells
    (np.array([GOAL_3X3] * 3, dtype=np.uint8), np.zeros((3, 9, 1), dtype=np.uint8)),        # 3-D
])
def test_distances_shape_mismatches_are_value_errors(db, starts, goals):
    with pytest.raises(ValueError):
        tilespace.distances(starts, goals, board="3x3", db=db)


def test_distances_matches_a_query_batch(cli, db, batch, tmp_path):
    starts, goals = batch
    lines = [f"{spell(s)} {spell(g)}" for s, g in zip(starts, goals)]
    (tmp_path / "batch.txt").write_text("\n".join(lines) + "\n")
    answers = cli.json_lines("query", "--batch", tmp_path / "batch.txt", "--db", db, ok=(0, 1))
    expected = [-1 if a["length"] is None else a["length"] for a in answers]
    assert tilespace.distances(starts, goals, db=db).tolist() == expected


def test_distances_speed_report(db):
    """Prints a speed (not asserted)."""
    starts = tilespace.random_states(50_000, seed=1, db=db)
    tilespace.distances(starts[:10], db=db)  # the table loaded
    t = time.perf_counter()
    got = tilespace.distances(starts, db=db)
    dt = time.perf_counter() - t
    assert got.shape == (50_000,) and (got >= 0).all() and got.max() <= 31
    print(f"\ndistances: {len(starts) / max(dt, 1e-9):,.0f} rows/s")


def test_distances_lets_another_thread_run(db):
    """The GIL is released during the batch: a Python thread runs meanwhile. A call that held the
    GIL would let no other thread take a time stamp between its start and its end (margins of
    several 5 ms switch intervals). Asserted only when the call lasts long enough to tell."""
    starts = np.repeat(tilespace.random_states(1000, seed=2, db=db), 3000, axis=0)  # 3M rows
    tilespace.distances(starts[:10], db=db)  # the table loaded
    stamps, done = [], threading.Event()

    def stamp():
        while not done.is_set():
            stamps.append(time.perf_counter())

    counter = threading.Thread(target=stamp)
    counter.start()
    time.sleep(0.02)
    t0 = time.perf_counter()
    got = tilespace.distances(starts, db=db)
    t1 = time.perf_counter()
    done.set()
    counter.join()
    assert got.shape == (len(starts),)
    inside = sum(1 for t in stamps if t0 + 0.03 < t < t1 - 0.01)
    print(f"\ndistances of {len(starts):,} rows: {t1 - t0:.3f} s; another thread ran {inside} times meanwhile")
    if t1 - t0 > 0.1:
        assert inside > 0


# --- solve ---------------------------------------------------------------------------------------

def solve_both(cli, db, start, goal=None, board=None, algorithm=None, heuristic=None,
               cli_limits=(), ok=(0, 1), **limits):
    """The module's solve (threads=1) and the command's solve --json --threads 1 of one instance."""
    args = ["solve", spell(start) if not isinstance(start, str) else start, "--db", db, "--threads", "1"]
    if goal is not None:
        args += ["--goal", spell(goal) if not isinstance(goal, str) else goal]
    if board is not None:
        args += ["--board", board]
    if algorithm is not None:
        args += ["--algorithm", algorithm]
    if heuristic is not None:
        args += ["--heuristic", heuristic]
    expected = cli.json(*args, *cli_limits, ok=ok)
    got = tilespace.solve(start, goal=goal, algorithm=algorithm, heuristic=heuristic, board=board,
                          db=db, threads=1, **limits)
    return got, expected


def assert_valid_path(result, w):
    start, goal, path = plain(result["start"]), plain(result["goal"]), plain(result["path"])
    assert len(result["moves"]) == result["length"]
    assert len(path) == result["length"] + 1
    assert path[0] == start and path[-1] == goal
    for i, m in enumerate(result["moves"]):
        assert replay(path[i], m, w) == path[i + 1]


@pytest.mark.parametrize("start, goal, board, algorithm, heuristic, limits, cli_limits", [
    (HARDEST[0], None, None, None, None, {}, []),                                  # default: table
    (HARDEST[0], None, None, "astar", None, {}, []),
    (HARDEST[1], None, None, "idastar", "linear-conflict", {}, []),
    (HARDEST[0], None, None, "idastar", None, {"automaton": "off"}, ["--automaton", "off"]),
    (HARDEST[0], "1 2 3 4 0 5 6 7 8", None, "astar", "misplaced", {}, []),
    (HARDEST[0], None, None, "wastar", None, {"weight": 1.5}, ["--weight", "1.5"]),
    (HARDEST[0], None, None, "wastar", None, {"weight": "3"}, ["--weight", "3"]),
    (HARDEST[0], None, None, "astar", "pdb", {"pattern": "1,2,3,4/5,6,7,8"},
     ["--pattern", "1,2,3,4/5,6,7,8"]),
    (HARDEST[0], None, None, "idastar", "zpdb:4-4", {}, []),
    (HARDEST[1], None, None, "astar", "catalogue:4-4+1,2,3/4,5,6/7,8", {}, []),
    (HARDEST[0], None, None, "bibfs", None, {}, []),
    ([3, 1, 2, 4, 0, 5], None, "2x3", "astar", None, {"max_nodes": 100000}, ["--max-nodes", "100000"]),
    ([3, 1, 2, 4, 0, 5], None, "3x2", "bfs", None, {"max_memory": "64M"}, ["--max-memory", "64M"]),
    (replay([1, 2, 3, 4, 5, 6, 7, 0], "ULURUL", 2), None, "2x4", "iddfs", None, {"depth_limit": 10}, ["--depth-limit", "10"]),
], ids=["table", "astar", "idastar-lc", "idastar-no-automaton", "astar-center-goal", "wastar-1.5",
        "wastar-str", "astar-pdb", "idastar-zpdb", "astar-catalogue", "bibfs", "2x3-astar", "3x2-bfs", "2x4-iddfs"])
def test_solve_matches_the_command(cli, db, start, goal, board, algorithm, heuristic, limits, cli_limits):
    got, expected = solve_both(cli, db, start, goal, board, algorithm, heuristic, cli_limits, **limits)
    assert set(got) == SOLVE_KEYS == set(expected)
    assert plain(without_seconds(got)) == without_seconds(expected)
    assert isinstance(got["seconds"], float) and got["seconds"] >= 0
    w = dims(got["board"])[0]
    assert_valid_path(got, w)
    # Optimal algorithms: the exact distance.
    if algorithm != "wastar":
        assert got["length"] == tilespace.distance(start, goal=goal, board=board, db=db)


@pytest.mark.parametrize("rank", [0, 1])
def test_solve_korf_instances_optimally(cli, db, korf100, rank):
    """The easiest of Korf's 15-puzzle instances (IDA* with linear conflict solves them in well
    under a second)."""
    tiles, length = sorted(korf100, key=lambda r: r[1])[rank]
    got, expected = solve_both(cli, db, tiles, KORF_GOAL, None, "idastar", "linear-conflict")
    assert got["length"] == length
    assert got["solvable"] is True and got["stopped"] is None
    assert plain(without_seconds(got)) == without_seconds(expected)
    assert_valid_path(got, 4)


@pytest.mark.parametrize("seed", [1, 2])
def test_solve_a_constructed_4x4_state(cli, db, seed):
    start, moves = scramble(KORF_GOAL, 4, 14, seed)
    got, expected = solve_both(cli, db, start, KORF_GOAL, None, "idastar", "manhattan")
    # At most the construction's moves, and of the same parity (the move graph is bipartite).
    assert got["length"] <= len(moves) and (len(moves) - got["length"]) % 2 == 0
    assert plain(without_seconds(got)) == without_seconds(expected)
    assert_valid_path(got, 4)


def test_solve_unreachable_is_a_result(cli, db):
    got, expected = solve_both(cli, db, UNREACHABLE_3X3, None, None, "astar", None)
    assert got["solvable"] is False and got["length"] is None
    assert plain(without_seconds(got)) == without_seconds(expected)
    got = tilespace.solve(UNREACHABLE_3X3, db=db)
    assert got["solvable"] is False and got["length"] is None


@pytest.mark.parametrize("algorithm, limits, cli_limits, stopped", [
    ("astar", {"max_nodes": 10}, ["--max-nodes", "10"], "max-nodes"),
    ("idastar", {"max_nodes": 100}, ["--max-nodes", "100"], "max-nodes"),
    ("iddfs", {"depth_limit": 5}, ["--depth-limit", "5"], "depth-limit"),
    ("astar", {"max_memory": "1K"}, ["--max-memory", "1K"], "max-memory"),
], ids=["astar-max-nodes", "idastar-max-nodes", "iddfs-depth-limit", "astar-max-memory"])
def test_a_search_stopped_by_a_limit_raises_search_limit(cli, db, algorithm, limits, cli_limits, stopped):
    expected = cli.json("solve", spell(HARDEST[0]), "--db", db, "--threads", "1", "--algorithm", algorithm,
                        *cli_limits, ok=(4,))
    assert expected["stopped"] == stopped
    with pytest.raises(tilespace.SearchLimit) as e:
        tilespace.solve(HARDEST[0], algorithm=algorithm, db=db, threads=1, **limits)
    assert isinstance(e.value, MemoryError)
    result = e.value.result
    assert set(result) == SOLVE_KEYS
    assert result["stopped"] == stopped and result["length"] is None
    assert plain(without_seconds(result)) == without_seconds(expected)


def test_max_seconds_stops_a_search(db):
    with pytest.raises(tilespace.SearchLimit) as e:
        tilespace.solve(HARDEST[0], algorithm="idastar", heuristic="misplaced", db=db, threads=1,
                        max_seconds=1e-6)
    assert e.value.result["stopped"] == "max-seconds"


@pytest.mark.parametrize("kwargs, cli_args", [
    ({"algorithm": "astar", "weight": 3}, ["--algorithm", "astar", "--weight", "3"]),
    ({"algorithm": "bfs", "heuristic": "manhattan"}, ["--algorithm", "bfs", "--heuristic", "manhattan"]),
    ({"algorithm": "astar", "depth_limit": 5}, ["--algorithm", "astar", "--depth-limit", "5"]),
    ({"algorithm": "astar", "automaton": "off"}, ["--algorithm", "astar", "--automaton", "off"]),
    ({"algorithm": "astar", "max_nodes": 0}, ["--algorithm", "astar", "--max-nodes", "0"]),
    ({"algorithm": "astar", "max_memory": "12Q"}, ["--algorithm", "astar", "--max-memory", "12Q"]),
    ({"algorithm": "wastar", "weight": 0.5}, ["--algorithm", "wastar", "--weight", "0.5"]),
    ({"algorithm": "foo"}, ["--algorithm", "foo"]),
    ({"algorithm": "astar", "heuristic": "foo"}, ["--algorithm", "astar", "--heuristic", "foo"]),
    ({"algorithm": "idastar", "automaton": "maybe"}, ["--algorithm", "idastar", "--automaton", "maybe"]),
], ids=["weight-astar", "heuristic-bfs", "depth-limit-astar", "automaton-astar", "max-nodes-0",
        "max-memory-unit", "weight-0.5", "algorithm", "heuristic", "automaton-value"])
def test_solve_bad_options_are_value_errors_naming_the_parameter(cli, db, kwargs, cli_args):
    expected = python_message(cli.error("solve", spell(HARDEST[0]), "--db", db, *cli_args))
    with pytest.raises(ValueError) as e:
        tilespace.solve(HARDEST[0], db=db, **kwargs)
    assert str(e.value) == expected
    name = expected.split(":", 1)[0]
    assert name in kwargs and name.isidentifier()


@pytest.mark.parametrize("flag, word", [(True, "on"), (False, "off")])
def test_solve_automaton_takes_a_bool_as_on_or_off(db, flag, word):
    as_bool = tilespace.solve(HARDEST[0], algorithm="idastar", automaton=flag, db=db, threads=1)
    as_word = tilespace.solve(HARDEST[0], algorithm="idastar", automaton=word, db=db, threads=1)
    assert as_bool["length"] == as_word["length"] == 31
    assert as_bool["expanded"] == as_word["expanded"]


def test_solve_bad_threads_is_a_value_error(db):
    with pytest.raises(ValueError):
        tilespace.solve(HARDEST[0], db=db, threads=-1)


# --- random_states -------------------------------------------------------------------------------

def test_random_states_shape_type_and_seed(db):
    a = tilespace.random_states(40, seed=123, db=db)
    assert isinstance(a, np.ndarray) and a.dtype == np.uint8 and a.shape == (40, 9)
    assert np.array_equal(a, tilespace.random_states(40, seed=123, db=db))
    assert not np.array_equal(a, tilespace.random_states(40, seed=124, db=db))
    for row in a:
        assert sorted(row.tolist()) == list(range(9))


@pytest.mark.parametrize("board, goal, cells", [
    (None, None, 9),
    (None, "0 1 2 3 4 5 6 7 8", 9),
    ("2x3", None, 6),
    ("3x2", "0 1 2 3 4 5", 6),
    ("4x4", None, 16),
    (None, " ".join(map(str, KORF_GOAL)), 16),
])
def test_random_states_match_the_command(cli, db, board, goal, cells):
    args = ["random", "--count", 25, "--seed", 99, "--db", db]
    if board:
        args += ["--board", board]
    if goal:
        args += ["--goal", goal]
    expected = [line["state"] for line in cli.json_lines(*args)]
    got = tilespace.random_states(25, board=board, goal=goal, seed=99, db=db)
    assert got.shape == (25, cells) and got.dtype == np.uint8
    assert got.tolist() == expected


@pytest.mark.parametrize("board, goal", [
    (None, None), (None, "1 2 3 4 0 5 6 7 8"), ("2x3", None), ("2x4", "0 1 2 3 4 5 6 7")])
def test_random_states_are_reachable_from_the_goal(db, board, goal):
    states = tilespace.random_states(200, board=board, goal=goal, seed=5, db=db)
    d = tilespace.distances(states, goal, board=board, db=db)
    assert (d >= 0).all()


@pytest.mark.parametrize("depth", [0, 1, 5, 20, 31])
def test_random_states_at_a_depth(cli, db, depth):
    states = tilespace.random_states(30, depth=depth, seed=8, db=db)
    assert states.shape == (30, 9)
    assert (tilespace.distances(states, db=db) == depth).all()
    expected = cli.json_lines("random", "--count", 30, "--depth", depth, "--seed", 8, "--db", db)
    assert states.tolist() == [line["state"] for line in expected]
    if depth == 31:  # the published count at the radius: exactly the two farthest states
        assert {tuple(s) for s in states.tolist()} == {tuple(s) for s in HARDEST}


def test_random_states_at_a_depth_on_another_board(cli, db):
    goal = "5 4 3 2 1 0"
    states = tilespace.random_states(12, board="2x3", goal=goal, depth=9, seed=21, db=db)
    assert (tilespace.distances(states, goal, board="2x3", db=db) == 9).all()
    expected = cli.json_lines("random", "--count", 12, "--depth", 9, "--seed", 21, "--board", "2x3",
                              "--goal", goal, "--db", db)
    assert states.tolist() == [line["state"] for line in expected]


@pytest.mark.parametrize("board, cells", [(None, 9), ("2x3", 6), ("4x4", 16)])
def test_random_states_of_none(db, board, cells):
    got = tilespace.random_states(0, board=board, seed=1, db=db)
    assert got.shape == (0, cells) and got.dtype == np.uint8


def test_random_states_bad_arguments(cli, db):
    expected = python_message(cli.error("random", "--depth", "32", "--db", db))
    with pytest.raises(ValueError) as e:
        tilespace.random_states(3, depth=32, seed=1, db=db)
    assert str(e.value) == expected
    with pytest.raises(ValueError):
        tilespace.random_states(-1, db=db)
    with pytest.raises(ValueError):
        tilespace.random_states(3, board="1x9", db=db)


# --- stats ---------------------------------------------------------------------------------------

# Every goal of the 3x3 board (corner, edge, center); the corner goals of the 2-wide boards and
# their transposes (the only ones published).
STATS_CASES = ([("3x3", c) for c in range(9)]
               + [(b, c) for b in ("2x2", "2x3", "3x2", "2x4", "4x2")
                  for c in range(dims(b)[0] * dims(b)[1]) if cell_kind(*dims(b), c) == "corner"])


@pytest.mark.parametrize("board, blank", STATS_CASES, ids=[f"{b}-blank{c}" for b, c in STATS_CASES])
def test_stats_match_the_published_distributions(db, distributions, board, blank):
    w, h = dims(board)
    states, radius, counts = distributions[(w, h, cell_kind(w, h, blank))]
    goal = canonical_goal(w * h, blank)
    s = tilespace.stats(board=board, goal=goal, db=db)
    assert set(s) == STATS_KEYS
    assert s["board"] == board and plain(s["goal"]) == goal
    assert isinstance(s["histogram"], np.ndarray) and s["histogram"].dtype == np.int64
    assert s["histogram"].tolist() == counts
    assert s["states"] == states and s["radius"] == radius
    assert s["metric"] == "single"
    assert s["farthest_count"] == counts[-1]
    assert s["mean"] == pytest.approx(sum(d * n for d, n in enumerate(counts)) / states, rel=1e-12)
    farthest = plain(s["farthest"])
    assert 0 < len(farthest) <= counts[-1]
    for f in farthest:
        assert tilespace.distance(f, goal=goal, board=board, db=db) == radius


@pytest.mark.parametrize("board, goal", [
    (None, None), (None, "1 2 3 4 0 5 6 7 8"), (None, "1 0 2 3 4 5 6 7 8"), ("2x3", "5 4 3 2 1 0"),
    ("2x4", None)])
def test_stats_match_the_command(cli, db, board, goal):
    args = ["stats", "--db", db]
    if board:
        args += ["--board", board]
    if goal:
        args += ["--goal", goal]
    expected = cli.json(*args)
    got = tilespace.stats(board=board, goal=goal, db=db)
    assert plain(got) == expected


def test_stats_default_goal_is_the_canonical_one(db):
    s = tilespace.stats(db=db)
    assert s["board"] == "3x3" and plain(s["goal"]) == GOAL_3X3
    assert sorted(map(tuple, plain(s["farthest"]))) == sorted(map(tuple, HARDEST))


def test_stats_bad_input(cli, db):
    with pytest.raises(ValueError):
        tilespace.stats(board="2x3", goal="1 2 3 4 5 6 7 8 0", db=db)
    with pytest.raises(ValueError):
        tilespace.stats(board="nonsense", db=db)
    with pytest.raises(tilespace.DataError):
        tilespace.stats(board="2x7", db=db)
    with pytest.raises(MemoryError):
        tilespace.stats(board="4x4", db=db)


# --- one-bit tables ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def widths(cli, tmp_path_factory):
    """{bits: folder} holding the 2x5 tables of the default goal and of the blank on cell 4, built
    with --bits 1 and --bits 2 (the two-bit engine's table in one bit a state, and in two)."""
    folders = {}
    for bits in ("1", "2"):
        db = str(tmp_path_factory.mktemp(f"bits{bits}"))
        for goal in ("1 2 3 4 5 6 7 8 9 0", "1 2 3 4 0 5 6 7 8 9"):
            proc = cli.run("build", "--board", "2x5", "--goal", goal, "--bits", bits, "--db", db)
            assert proc.returncode == 0, proc.stderr
        folders[bits] = db
    return folders


def test_one_bit_and_two_bit_tables_answer_alike(cli, widths):
    one, two = widths["1"], widths["2"]
    for db, kind in ((one, 5), (two, 3)):
        files = sorted(pathlib.Path(db).glob("*.tsdb"))
        assert len(files) == 2 and all(f.read_bytes()[16] == kind for f in files)
    starts = tilespace.random_states(2000, board="2x5", seed=8, db=one)
    goals = np.array([canonical_goal(10, 4) if i % 2 else canonical_goal(10, 9) for i in range(2000)], dtype=np.uint8)
    d1 = tilespace.distances(starts, board="2x5", db=one)
    assert d1.tolist() == tilespace.distances(starts, board="2x5", db=two).tolist()
    assert d1.min() >= 0 and d1.max() <= 55
    pairwise = tilespace.distances(starts, goals, board="2x5", db=one)
    assert pairwise.tolist() == tilespace.distances(starts, goals, board="2x5", db=two).tolist()
    for i in range(0, 2000, 97):
        assert tilespace.distance(starts[i], board="2x5", db=one) == d1[i]
    assert plain(tilespace.stats(board="2x5", db=one)) == plain(tilespace.stats(board="2x5", db=two))
    assert plain(tilespace.stats(board="2x5", db=one)) == cli.json("stats", "--board", "2x5", "--db", two)
    for s in starts[:20]:
        a = tilespace.solve(s, board="2x5", algorithm="table", db=one)
        b = tilespace.solve(s, board="2x5", algorithm="table", db=two)
        # The peak memory counts the table the search reads, which is half as large at one bit.
        assert a["peak_bytes"] < b["peak_bytes"]
        a.pop("peak_bytes"), b.pop("peak_bytes")
        assert without_seconds(a) == without_seconds(b)
    for depth in (20, 34, 55):
        a = tilespace.random_states(10, board="2x5", depth=depth, seed=2, db=one)
        assert a.tolist() == tilespace.random_states(10, board="2x5", depth=depth, seed=2, db=two).tolist()
        assert tilespace.distances(a, board="2x5", db=two).tolist() == [depth] * 10
    triples = [(s, None, int(d) + (i % 2)) for i, (s, d) in enumerate(zip(starts[:30], d1[:30]))]
    a, b = tilespace.check(triples, board="2x5", db=one), tilespace.check(triples, board="2x5", db=two)
    assert without_seconds(a) == without_seconds(b) and a["failed"] == 15


# --- check ---------------------------------------------------------------------------------------

S1 = "1 2 3 4 5 6 7 0 8"  # one move (R) from the canonical goal
U = spell(UNREACHABLE_3X3)

# (line, the verdict it must get) in file order; None: not a checked line (comment, blank).
CHECK_LINES = [
    ("# answers of some solver", None),
    (f"{S1}\t\tR", "ok"),
    (f"{S1}\t\tD", "illegal-move"),            # the blank is on the bottom row
    (f"{S1}\t\tL", "wrong-end"),
    (f"{S1}\t\tRLR", "longer"),                # 2 moves in excess
    (f"{S1}\t\t3", "wrong-length"),
    (f"{S1}\t\t1", "ok"),
    ("", None),
    (f"{U}\t\tUL", "unreachable-missed"),
    (f"{U}\t\tunreachable", "ok"),
    (f"{S1}\t\tunreachable", "falsely-unreachable"),
    ("this line has no tabs", "malformed"),
    (f"{S1}\t\tX", "malformed"),
    (f"1 2 3\t\tR", "malformed"),
    (f"1 2 3 4 5 6 7 8 0\t{S1}\tL", "ok"),     # an explicit goal
    (f"123456708\t\tr", "ok"),                 # another spelling, lower-case moves
    (f"1 2 3 4 5 6 7 8 0\t\t", "ok"),          # zero moves
    (f"{spell(HARDEST[0])}\t\t31", "ok"),
    (f"{spell(HARDEST[0])}\t\t29", "wrong-length"),
]
CHECK_TEXT = "\n".join(line for line, _ in CHECK_LINES) + "\n"


def check_cli(cli, db, tmp_path, text, *args):
    path = tmp_path / "answers.tsv"
    path.write_text(text)
    return cli.json("check", path, "--db", db, *args, ok=(0, 1, 2))


def test_check_every_verdict(db):
    got = tilespace.check(CHECK_TEXT, db=db)
    assert set(got) == CHECK_KEYS
    expected = [v for _, v in CHECK_LINES if v is not None]
    assert [v["verdict"] for v in got["verdicts"]] == expected
    assert [v["line"] for v in got["verdicts"]] == [i + 1 for i, (_, v) in enumerate(CHECK_LINES) if v]
    assert got["lines"] == len(expected)
    assert got["passed"] == expected.count("ok")
    assert got["malformed"] == expected.count("malformed")
    assert got["failed"] == len(expected) - expected.count("ok") - expected.count("malformed")
    assert got["undecided"] == 0
    assert got["total_excess"] == 2
    for kind in VERDICT_KINDS[1:]:
        assert got["failed_by_kind"][kind] == expected.count(kind), kind


def test_check_text_matches_the_command(cli, db, tmp_path):
    expected = check_cli(cli, db, tmp_path, CHECK_TEXT)
    got = tilespace.check(CHECK_TEXT, db=db)
    assert plain(without_seconds(got)) == without_seconds(expected)


def test_check_triples_equal_the_same_text(cli, db, tmp_path):
    triples = [
        (S1, None, "R"),
        (list(map(int, S1.split())), None, "D"),
        (S1, None, "L"),
        (S1, None, "RLR"),
        (S1, None, 3),                      # a claimed length as an int
        (S1, None, "1"),
        (UNREACHABLE_3X3, None, "UL"),
        (U, None, "unreachable"),
        (S1, None, "unreachable"),
        (S1, None, "X"),
        ("1 2 3", None, "R"),
        (np.array(GOAL_3X3, dtype=np.uint8), S1, "L"),
        ("1 2 3 4 5 6 7 8 0", None, ""),
        (HARDEST[0], GOAL_3X3, 31),
    ]

    def field(x):
        if x is None:
            return ""
        return x if isinstance(x, str) else spell(x)

    text = "".join(f"{field(s)}\t{field(g)}\t{a}\n" for s, g, a in triples)
    expected = check_cli(cli, db, tmp_path, text)
    assert {v["verdict"] for v in expected["verdicts"]} >= set(VERDICT_KINDS) | {"malformed"}
    got = tilespace.check(triples, db=db)
    assert plain(without_seconds(got)) == without_seconds(expected)
    # Any iterable: a generator too.
    got = tilespace.check((t for t in triples), db=db)
    assert plain(without_seconds(got)) == without_seconds(expected)


def test_check_with_a_goal_and_a_board(cli, db, tmp_path):
    text = "1 2 3 4 5 6 7 8 0\t\tL\n1 2 3 4 5 6 7 8 0\t\t1\n1 2 3 4 5 6 8 7 0\t\tunreachable\n"
    expected = check_cli(cli, db, tmp_path, text, "--goal", S1)
    got = tilespace.check(text, goal=S1, db=db)
    assert plain(without_seconds(got)) == without_seconds(expected)
    assert got["passed"] == 3

    text = "3 1 2 4 0 5\t\tULLDR\n3 1 2 4 0 5\t1 2 3 4 5 0\t5\n"
    expected = check_cli(cli, db, tmp_path, text, "--board", "2x3")
    got = tilespace.check(text, board="2x3", db=db)
    assert plain(without_seconds(got)) == without_seconds(expected)
    got = tilespace.check(text, board="2x3", db=db, max_seconds=5)
    assert plain(without_seconds(got)) == without_seconds(expected)


def test_check_passes_the_solvers_own_answers(db):
    states = tilespace.random_states(20, seed=4, db=db)
    triples = [(s, None, tilespace.solve(s, db=db)["moves"]) for s in states]
    triples += [(s, None, int(d)) for s, d in zip(states, tilespace.distances(states, db=db))]
    got = tilespace.check(triples, db=db)
    assert got["lines"] == got["passed"] == 40 and got["failed"] == 0 and got["total_excess"] == 0


@pytest.mark.parametrize("answers", ["", "# only a comment\n\n", []], ids=["empty", "comment", "no-triples"])
def test_check_of_nothing_is_refused_like_the_command(cli, db, tmp_path, answers):
    text = answers if isinstance(answers, str) else ""
    (tmp_path / "a.tsv").write_text(text)
    assert cli.error("check", tmp_path / "a.tsv", "--db", db).endswith(": no answers in it")
    with pytest.raises(ValueError, match="no answers in it"):
        tilespace.check(answers, db=db)


def test_check_bad_options(cli, db, tmp_path):
    (tmp_path / "a.tsv").write_text(f"{S1}\t\tR\n")
    expected = python_message(cli.error("check", tmp_path / "a.tsv", "--db", db, "--max-seconds", "0"))
    with pytest.raises(ValueError) as e:
        tilespace.check(f"{S1}\t\tR\n", db=db, max_seconds=0)
    assert str(e.value) == expected
    with pytest.raises(ValueError):
        tilespace.check(f"{S1}\t\tR\n", goal="1 2 3 4 5 0", db=db)
    with pytest.raises(ValueError):
        tilespace.check(f"{S1}\t\tR\n", board="bad", db=db)


# --- goals of every blank cell, from one table per blank class ------------------------------------

def test_goals_of_every_blank_cell_from_the_class_tables(cli, tmp_path):
    """build --all-goals makes one table per blank class; every function answers goals of every
    blank cell from them (through the board's symmetries) as the goal's own table does: the
    command answers from the own table in a folder of its own."""
    classes = str(tmp_path / "classes")
    built = cli.json("build", "--board", "2x5", "--all-goals", "--bits", "2", "--db", classes)
    assert [b["serves"] for b in built] == [[0, 1, 8, 9], [2, 3, 6, 7], [4, 5]]
    files = sorted(os.listdir(classes))
    rng = random.Random(23)
    for cell in range(10):
        tiles = list(range(1, 10))
        rng.shuffle(tiles)
        tiles.insert(cell, 0)
        goal = " ".join(map(str, tiles))
        starts = tilespace.random_states(40, board="2x5", goal=goal, seed=cell, db=classes)
        starts[::2, [0, 1]] = starts[::2, [1, 0]]  # half of them the other parity (or another blank)
        lines = "".join(" ".join(map(str, s)) + "\n" for s in starts)
        own = cli.run("query", "--batch", "-", "--board", "2x5", "--goal", goal, "--db", tmp_path / f"own{cell}",
                      stdin=lines)
        assert own.returncode in (0, 1), own.stderr
        want = [-1 if line == "unreachable" else int(line) for line in own.stdout.split()]
        assert tilespace.distances(starts, goal, board="2x5", db=classes).tolist() == want
        assert [tilespace.distance(s, goal, board="2x5", db=classes) for s in starts[:6]] == \
            [None if w < 0 else w for w in want[:6]]
        reachable = starts[1]
        solved = tilespace.solve(reachable, goal, algorithm="table", board="2x5", db=classes)
        assert solved["length"] == want[1] and len(solved["path"]) == want[1] + 1
        assert solved["path"][0] == reachable.tolist() and solved["path"][-1] == tiles
        at_depth = tilespace.random_states(5, board="2x5", goal=goal, depth=20, seed=1, db=classes)
        assert (tilespace.distances(at_depth, goal, board="2x5", db=tmp_path / f"own{cell}") == 20).all()
        canonical = " ".join(map(str, list(range(1, cell + 1)) + [0] + list(range(cell + 1, 10))))
        assert tilespace.stats(board="2x5", goal=canonical, db=classes)["histogram"].tolist() == \
            tilespace.stats(board="2x5", goal=canonical, db=tmp_path / f"own{cell}")["histogram"].tolist()
    assert sorted(os.listdir(classes)) == files  # nothing built there


def test_goals_of_the_transposed_board_from_its_tables(cli, tmp_path):
    """A 5x2 goal is answered from the 2x5 class tables on disk, through the transposition (the
    same puzzle turned over its diagonal), in both metrics, and nothing is built for 5x2."""
    rng = random.Random(47)
    for metric in ("single", "multi"):
        tables = str(tmp_path / f"tables-{metric}")
        cli.json("build", "--board", "2x5", "--all-goals", "--metric", metric, "--db", tables)
        files = sorted(os.listdir(tables))
        for cell in (0, 2, 4, 7):
            tiles = list(range(1, 10))
            rng.shuffle(tiles)
            tiles.insert(cell, 0)
            goal = " ".join(map(str, tiles))
            starts = tilespace.random_states(30, board="5x2", goal=goal, seed=cell, db=tmp_path / "none")
            lines = "".join(" ".join(map(str, s)) + "\n" for s in starts)
            own = cli.run("query", "--batch", "-", "--board", "5x2", "--goal", goal, "--metric", metric,
                          "--db", tmp_path / f"own-{metric}-{cell}", stdin=lines)
            assert own.returncode == 0, own.stderr
            want = [int(line) for line in own.stdout.split()]
            assert tilespace.distances(starts, goal, board="5x2", db=tables, metric=metric).tolist() == want
            solved = tilespace.solve(starts[0], goal, algorithm="table", board="5x2", db=tables, metric=metric)
            assert solved["length"] == want[0] and solved["path"][-1] == tiles
        assert sorted(os.listdir(tables)) == files  # nothing built for 5x2


# --- The multi-tile metric ------------------------------------------------------------------------

def test_multi_tile_metric_everywhere(tmp_path):
    """metric="multi": a move slides one or more tiles of the blank's row or column. The 8-puzzle's
    hardest single-tile state (31) is 20 such moves; the multi-tile radius is 24 (lightln2)."""
    db = str(tmp_path)
    start = HARDEST[0]
    assert tilespace.distance(start, db=db, metric="multi") == 20
    assert tilespace.distance(start, db=db) == 31
    result = tilespace.solve(start, db=db, metric="multi", algorithm="idastar")
    assert set(result) == SOLVE_KEYS
    assert (result["length"], result["metric"], result["heuristic"]) == (20, "multi", "multi-manhattan")
    assert len(result["moves"].split()) == 20
    assert tilespace.solve(start, db=db)["metric"] == "single"
    s = tilespace.stats(board="3x3", db=db, metric="multi")
    assert (s["radius"], s["metric"]) == (24, "multi")
    verdicts = tilespace.check([(start, None, result["moves"]), (start, None, 20), (start, None, 31)],
                               db=db, metric="multi")["verdicts"]
    assert [v["verdict"] for v in verdicts] == ["ok", "ok", "wrong-length"]
    single = tilespace.check([(start, None, result["moves"])], db=db)["verdicts"][0]
    assert single["answered"] > 20  # the same moves, counted one tile at a time
    states = tilespace.random_states(4, board="3x3", depth=19, seed=2, db=db, metric="multi")
    assert list(tilespace.distances(states, db=db, metric="multi")) == [19] * 4
    with pytest.raises(ValueError, match="^metric: 'triple' is not a metric"):
        tilespace.distance(start, db=db, metric="triple")
    with pytest.raises(ValueError, match="^metric: multi: no exact table of 5x5 can exist, and its multi-tile searches take too long"):
        tilespace.distance(list(range(25)), db=db, metric="multi")
    # 4x4: searched with the stock multi-tile pattern databases (6-6, built here on first use).
    one_move = "1 2 3 4 5 6 7 8 9 10 11 12 0 13 14 15"  # R3 from the goal: one multi-tile move
    assert tilespace.distance(one_move, db=db, metric="multi") == 1
    assert tilespace.distance(one_move, db=db) == 3
    assert list(tilespace.distances([one_move, "1 2 3 4 5 6 7 8 0 10 11 12 9 13 14 15"], board="4x4", db=db,
                                    metric="multi")) == [1, 2]
    # random_states at a multi-tile depth: walks of multi-tile moves proven that far by the search.
    walks = tilespace.random_states(3, board="4x4", depth=14, seed=5, db=db, metric="multi")
    assert walks.shape == (3, 16)
    assert list(tilespace.distances(walks, board="4x4", db=db, metric="multi")) == [14] * 3
    with pytest.raises(ValueError, match="^metric: multi: no exact table of 4x4 can exist \\(query, check and random --depth search"):
        tilespace.stats(board="4x4", db=db, metric="multi")
    with pytest.raises(ValueError, match="^metric: applies with depth"):
        tilespace.random_states(2, board="3x3", db=db, metric="multi")
    with pytest.raises(ValueError, match="^algorithm: aidastar counts single-tile moves"):
        tilespace.solve(start, db=db, metric="multi", algorithm="aidastar")
