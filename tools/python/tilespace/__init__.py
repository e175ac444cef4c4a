"""tilespace: exact distances and optimal solutions of sliding-tile puzzles.

The Python face of the `tilespace` command; every function gives the command's answer, computed
by the same C++ code (the module tilespace._core).

States are strings in any spelling the command accepts ("1 2 3 4 5 6 7 8 0", "123456780",
"1,2,3/4,5,6/7,8,0") or sequences of ints cell by cell, row-major, 0 for the blank. A goal of None
is the canonical goal: the tiles in order with the blank last. A board ("3x4") is needed only
where the tile count leaves it open (6 or 12 tiles).

Distance tables live in a database folder, `db` ("out" by default, like the command's --db).
A missing table that builds in under a minute is built and saved there at first use; a longer
one is refused with the `tilespace build` command to run. Tables stay loaded for the life of
the process.

Errors: ValueError for bad input (the message names the parameter at fault), tilespace.DataError
for a database file that cannot be trusted (or a table too long to build on the fly), MemoryError
where the command exits 4 (a job that cannot fit; tilespace.SearchLimit for a search stopped by
a limit).
"""

import json as _json
import operator as _operator

import numpy as _np

from . import _core

__version__ = _core.version
__all__ = ["distance", "distances", "solve", "random_states", "stats", "check", "DataError", "SearchLimit",
           "algorithms", "heuristics", "__version__"]

DataError = _core.DataError
DataError.__doc__ = "A database file that cannot be trusted, or a missing table too long to build on the fly."


class SearchLimit(MemoryError):
    """A search stopped by a limit (max_nodes, max_seconds, max_memory, depth_limit) before it
    found a solution: where `tilespace solve` exits 4. `result` is the answer as solve() would
    have returned it, with "stopped" naming the limit."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


def algorithms():
    """The names of the search algorithms solve() takes."""
    return _core.algorithms()


def heuristics():
    """The names of the heuristics solve() takes ("pdb" also as "pdb:SPEC")."""
    return _core.heuristics()


def _text(state, what):
    """A state as the grammar's text: strings as they are, sequences of ints as "1 2 3 ..."."""
    if state is None or isinstance(state, str):
        return state
    if isinstance(state, bytes):
        try:
            return state.decode()
        except UnicodeDecodeError:
            raise ValueError(f"{what}: not UTF-8 text") from None
    try:
        values = list(state)
    except TypeError:
        raise ValueError(f"{what}: expected a string or a sequence of ints, not {type(state).__name__}") from None
    words = []
    for v in values:
        try:
            words.append(str(_operator.index(v)))
        except TypeError:
            words.append(str(v))  # 1.0, None: the grammar names the symbol it cannot read
    return " ".join(words)


def _option(value):
    """An option's value as the command's text (None: not given)."""
    return None if value is None else str(value)


def _rows(states, board, what):
    """States as a uint8 array of shape (n, cells): an integer array as it is, strings parsed."""
    if isinstance(states, (str, bytes)):
        raise ValueError(f"{what}: expected many states (an array of shape (n, cells) or a list), not one string")
    if not isinstance(states, _np.ndarray):
        states = list(states)
        if states and all(isinstance(s, (str, bytes)) for s in states):
            return _core.parse_states([_text(s, what) for s in states], board, what, 0)
        states = _array(states, what)
    return _uint8(states, board, what)


def _array(rows, what):
    """A list of rows as one array, or a ValueError naming the first row of another length."""
    if not rows:
        return _np.empty((0, 0), _np.uint8)
    lengths = [len(r) if hasattr(r, "__len__") else -1 for r in rows]
    for i, n in enumerate(lengths):
        if n != lengths[0]:
            raise ValueError(f"{what} row {i}: {max(n, 0)} tiles, but row 0 has {lengths[0]}")
    return _np.asarray(rows)


def _uint8(array, board, what):
    """An integer array of shape (n, cells) as uint8, rows out of that range named as the grammar names them."""
    if array.ndim != 2:
        raise ValueError(f"{what}: expected an array of shape (n, cells), got shape {array.shape}")
    if array.dtype != _np.uint8:
        if array.size and not _np.issubdtype(array.dtype, _np.integer):
            raise ValueError(f"{what}: expected integer tiles, got {array.dtype}")
        if array.size:
            bad = _np.nonzero(((array < 0) | (array > 255)).any(axis=1))[0]
            if len(bad):  # the grammar's words for that row
                i = int(bad[0])
                _core.parse_states([" ".join(str(int(v)) for v in array[i])], board, what, i)
        array = array.astype(_np.uint8)
    return _np.ascontiguousarray(array)


def distance(start, goal=None, board=None, db="out", max_seconds=None, max_nodes=None, metric=None):
    """The optimal number of moves from start to goal, or None when the goal is unreachable.

    >>> tilespace.distance("8 6 7 2 5 4 3 0 1")
    31

    From the goal's exact table; on 4x4 and 5x5, where no table can exist, searched as solve()
    searches (pattern databases, the move automaton) within max_seconds and max_nodes (default:
    none); a search a limit stops raises SearchLimit. metric: "single" (default) or "multi" (a
    move slides one or more tiles of the blank's row or column; from the multi-tile table, on 4x4
    searched with multi-tile pattern databases, refused on 5x5).
    """
    if start is None:
        raise ValueError("start: a state is required")
    limits = {name: _option(value) for name, value in
              (("max_seconds", max_seconds), ("max_nodes", max_nodes), ("metric", metric)) if value is not None}
    length, stopped = _core.distance(_text(start, "start"), _text(goal, "goal"), board, str(db), limits)
    if stopped:
        raise SearchLimit(f"search stopped by {stopped} before finding a solution",
                          {"length": None, "stopped": stopped})
    return length


def distances(starts, goals=None, board=None, db="out", max_seconds=None, max_nodes=None, metric=None):
    """The optimal number of moves of many pairs at once: a numpy int32 array, -1 where unreachable.

    starts: a numpy integer array of shape (n, cells) (uint8 is read in place) or a list of states.
    goals: None (the canonical goal), one goal for every start, or one goal per start.
    The lookups run in C++ on every core, without the GIL. On 4x4 and 5x5, where no table can
    exist, each pair is searched as distance() searches it, within max_seconds and max_nodes per
    pair; a pair a limit stops raises MemoryError naming its row. metric: as distance()'s.
    """
    limits = {name: _option(value) for name, value in
              (("max_seconds", max_seconds), ("max_nodes", max_nodes), ("metric", metric)) if value is not None}
    rows = _rows(starts, board, "starts")
    cells = rows.shape[1]
    if goals is None:
        goal_rows = _np.empty((0, cells), _np.uint8)
    elif isinstance(goals, (str, bytes)):
        goal_rows = _core.parse_states([_text(goals, "goals")], board, "goals", 0)
    else:
        if not isinstance(goals, _np.ndarray):
            goals = list(goals)
            if goals and all(isinstance(g, (str, bytes)) for g in goals):
                goals = _core.parse_states([_text(g, "goals") for g in goals], board, "goals", 0)
            elif goals and all(isinstance(g, (int, _np.integer)) for g in goals):
                goals = _np.asarray(goals)  # one goal as a list of ints
            else:
                goals = _array(goals, "goals")
        goal_rows = _uint8(goals[None, :] if goals.ndim == 1 else goals, board, "goals")
    return _core.distances(rows, goal_rows, board, str(db), limits)


def solve(start, goal=None, algorithm=None, heuristic=None, board=None, db="out", threads=0, **limits):
    """Solve one instance as `tilespace solve --json` does; returns its answer as a dict (board,
    start, goal, algorithm, heuristic, solvable, length, moves, expanded, generated, peak_open,
    closed, peak_bytes, seconds, stopped, path).

    algorithm: one of algorithms() (default: the exact table where it is at hand, else the
    fastest search for the board); heuristic: one of heuristics().
    limits: pattern, weight, depth_limit, max_nodes, max_seconds, max_memory (e.g. "512M"),
    automaton ("on"/"off", or True/False), metric ("single" or "multi"), as the command's options
    of those names.
    An unreachable goal gives solvable False and length None; a search stopped by a limit raises
    SearchLimit (a MemoryError) holding the answer.
    """
    options = {name: ("on" if value else "off") if name == "automaton" and isinstance(value, bool) else _option(value)
               for name, value in limits.items() if value is not None}
    text, stopped = _core.solve(_text(start, "start"), _text(goal, "goal"), board, algorithm, heuristic,
                                _operator.index(threads), str(db), options)
    result = _json.loads(text)
    if stopped:
        raise SearchLimit(f"search stopped by {result['stopped']} before finding a solution", result)
    return result


def random_states(n, board=None, goal=None, depth=None, seed=None, db="out", metric=None):
    """n start states drawn uniformly from those that reach the goal, as a uint8 array (n, cells);
    with depth, only states exactly that many moves from the goal (uses the distance table). The
    same seed gives the same states as `tilespace random --count n --seed SEED`. metric: "multi"
    counts depth in multi-tile moves (with depth only)."""
    return _core.random_states(str(_operator.index(n)), _text(goal, "goal"), board, _option(depth),
                               _option(seed), str(db), _option(metric))


def stats(board=None, goal=None, db="out", metric=None):
    """The goal's distance distribution, as `tilespace stats --json`: board, goal, states, radius,
    histogram (a numpy int64 array indexed by distance), mean, farthest_count, farthest, metric.
    metric: "single" (default) or "multi"."""
    result = _json.loads(_core.stats(_text(goal, "goal"), board, str(db), _option(metric)))
    result["histogram"] = _np.asarray(result["histogram"], dtype=_np.int64)
    return result


def check(answers, goal=None, board=None, db="out", max_seconds=None, metric=None):
    """Verify another solver's answers, as `tilespace check --json`: returns lines, passed, failed,
    undecided, malformed, failed_by_kind, total_excess, seconds and verdicts (one per line).

    answers: the text of a check file ("START<TAB>GOAL<TAB>ANSWER" lines), or (start, goal,
    answer) triples, goal None for the default goal (`goal`, else 1 2 ... N-1 0; a row's own
    goal must equal `goal` when that is given, else the row is malformed), answer a move string
    such as "RDLU" or "R D L U" (where the blank goes; "R3 U D2" with counts), a claimed optimal
    length, or "unreachable"; metric: "single" (default) or "multi", how the answers' moves are
    counted. Rows are numbered from 1, as the verdicts' `line` numbers them.
    """
    if not isinstance(answers, str):
        lines = []
        for i, item in enumerate(answers, start=1):
            try:
                start, line_goal, answer = item
            except (TypeError, ValueError):
                raise ValueError(f"answers row {i}: expected a (start, goal, answer) triple") from None
            if start is None or answer is None:
                raise ValueError(f"answers row {i}: the {'start' if start is None else 'answer'} is missing")
            answer = str(_operator.index(answer)) if isinstance(answer, (int, _np.integer)) else str(answer)
            fields = [_text(start, f"answers row {i}"), _text(line_goal, f"answers row {i}") or "", answer]
            if any("\t" in f or "\n" in f or "\r" in f for f in fields):
                raise ValueError(f"answers row {i}: a field holds a tab or a line break")
            lines.append("\t".join(fields))
        answers = "\n".join(lines)
    return _json.loads(_core.check(answers, _text(goal, "goal"), board, _option(max_seconds), str(db), _option(metric)))
