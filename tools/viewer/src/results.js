// A solve answer (from the server or a trace file): the summary, the path handed to the
// animation, the remaining distances along it and the trace handed to the search tree.
import { $, bytes, fmt, ms } from './util.js';
import { parseBoard } from './puzzle.js';
import { A, S, instKey, isMulti, parseMetric } from './state.js';
import { queryDistance } from './api.js';
import { drawAnimBoard, renderMoves, stopAnim, updateStepInfo } from './board.js';
import * as Tree from './tree.js';

export function clearResult(note) {
  stopAnim();
  S.result = null; S.resultKey = '';
  A.path = []; A.k = 0; A.dist = [];
  $('summary').textContent = '';
  $('result-source').textContent = note || '';
  $('moves').textContent = '';
  updateStepInfo();
  drawAnimBoard(S.start, null, false);
  Tree.clear();
}

/** Show a solve answer (server or trace file). */
export function loadResult(res, sourceLabel) {
  const board = parseBoard(res.board) || S.board;
  const path = Array.isArray(res.path) ? res.path.filter((s) => Array.isArray(s) && s.length === board.n) : [];
  S.result = res;
  S.resultBoard = board;
  S.resultKey = instKey(board.name, res.start || S.start, res.goal || S.goal, res.metric);
  $('result-source').textContent = sourceLabel ? '— ' + sourceLabel : '';
  renderSummary(res);
  stopAnim();
  A.path = path;
  A.k = 0;
  A.goal = Array.isArray(res.goal) ? res.goal : S.goal;
  A.metric = parseMetric(res.metric); // the answer's own (a trace file may differ from the page's)
  A.dist = new Array(path.length).fill(undefined);
  renderMoves(res.moves || '');
  const n = path.length - 1;
  if (n >= 0 && Array.isArray(res.remaining) && res.remaining.length === path.length) {
    for (let k = 0; k <= n; k++) A.dist[k] = typeof res.remaining[k] === 'number' ? res.remaining[k] : null;
  } else if (n >= 0 && typeof res.length === 'number' && res.length === n && !res.stopped &&
    (res.optimal_length === res.length || (res.optimal_length == null && provenOptimal(res)))) {
    for (let k = 0; k <= n; k++) A.dist[k] = n - k; // every suffix of an optimal path is optimal
  } else if (n >= 0) {
    fillDistances(board.name, A.goal, path, A.metric);
  }
  drawAnimBoard(path.length ? path[0] : (res.start || S.start), null, false, board);
  updateStepInfo();
  if (res.solvable === false) Tree.clear('Start and goal lie in different halves of the state space (parity): there is nothing to search.');
  else if (Array.isArray(res.data)) Tree.load(res, board);
  else Tree.clear(res.data === undefined ? 'This answer has no trace (data/process).' : undefined);
}

/** An optimal algorithm with an admissible heuristic (or none): its path is optimal even without a table. */
function provenOptimal(res) {
  if (!S.info) return false;
  const a = S.info.algorithms.find((x) => x.name === res.algorithm);
  if (!a || !a.optimal) return false;
  if (!a.uses_heuristic) return true;
  const h = S.info.heuristics.find((x) => x.name === res.heuristic);
  return !!(h && h.admissible);
}

function renderSummary(res) {
  const dl = $('summary');
  dl.textContent = '';
  const add = (k, v, cls) => {
    const dt = document.createElement('dt'); dt.textContent = k;
    const dd = document.createElement('dd'); dd.textContent = v; if (cls) dd.className = cls;
    dl.append(dt, dd);
  };
  const solved = typeof res.length === 'number';
  let lenCls = '';
  if (solved && typeof res.optimal_length === 'number') lenCls = res.length === res.optimal_length ? 'good' : 'bad';
  add('Length', solved ? String(res.length) : res.solvable === false ? 'unsolvable' : 'not solved', solved ? lenCls : 'bad');
  add('Metric', isMulti(res.metric) ? 'multi-tile' : 'single-tile');
  add('Optimal', res.optimal_length === null || res.optimal_length === undefined ? (res.solvable === false ? 'none' : '?') : String(res.optimal_length));
  add('Expanded', fmt(res.expanded));
  add('Generated', fmt(res.generated));
  add('Peak open', fmt(res.peak_open));
  add('Closed', fmt(res.closed));
  add('Peak mem', res.peak_bytes === undefined ? '–' : bytes(res.peak_bytes));
  add('Time', res.seconds === undefined ? '–' : ms(res.seconds * 1000));
  if (res.stopped) add('Stopped', String(res.stopped), 'bad');
  if (Array.isArray(res.data)) add('Trace', `${fmt(res.data.length)} nodes${res.trace_truncated ? ' (truncated at the limit)' : ''}`, (res.trace_truncated ? 'bad ' : '') + 'wide');
}
/** Remaining optimal distances along a (possibly non-optimal) path: /api/query per state, 8 at a time. */
async function fillDistances(board, goal, path, metric) {
  const res = S.result;
  let next = 0;
  const worker = async () => {
    while (next < path.length && S.result === res) {
      const i = next++;
      const d = await queryDistance(board, goal, path[i], metric);
      if (S.result !== res) return;
      A.dist[i] = d === null ? null : d;
      if (i === A.k) updateStepInfo();
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, path.length) }, worker));
  if (S.result === res) updateStepInfo();
}
