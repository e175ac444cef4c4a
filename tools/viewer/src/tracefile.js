// Open trace file…: a JSON written by `tilespace solve … --trace FILE.json`, checked and shown
// without the server (the server is only asked for the histogram and missing distances).
import { $, bytes, fmt } from './util.js';
import { canonicalGoal, parseBoard } from './puzzle.js';
import { S, parseMetric } from './state.js';
import { setStatus } from './errors.js';
import { ensureBoardOption, instanceChanged, updateBoardNote, writeFields } from './instance.js';
import { applyMetric, updateSolverInputs } from './solver.js';
import { loadResult } from './results.js';
import { stopAnim } from './board.js';
import { abortCompare } from './compare.js';

export function openTraceFile(file) {
  if (!file) return;
  if (file.size > 512 * 1024 * 1024) { setStatus(`${file.name}: too large (${bytes(file.size)})`, true); return; }
  const reader = new FileReader();
  reader.onerror = () => setStatus(`${file.name}: cannot be read`, true);
  reader.onload = () => {
    let res;
    try { res = JSON.parse(String(reader.result)); } catch (e) {
      setStatus(`${file.name}: not JSON (${String(e.message || e).slice(0, 80)})`, true); return;
    }
    const err = checkTrace(res);
    if (err) { setStatus(`${file.name}: ${err}`, true); return; }
    const board = parseBoard(res.board) || guessBoard(res);
    if (!board) { setStatus(`${file.name}: no usable "board"`, true); return; }
    res.board = board.name;
    stopAnim();
    abortCompare();
    S.board = board;
    S.metric = parseMetric(res.metric); // the trace's metric (files before it: single)
    $('metric-select').value = S.metric;
    applyMetric();
    ensureBoardOption(board.name);
    updateBoardNote();
    if (Array.isArray(res.start) && res.start.length === board.n) S.start = res.start.slice();
    else if (Array.isArray(res.path) && res.path.length) S.start = res.path[0].slice();
    if (Array.isArray(res.goal) && res.goal.length === board.n) S.goal = res.goal.slice();
    else if (Array.isArray(res.path) && res.path.length) S.goal = res.path[res.path.length - 1].slice();
    else S.goal = canonicalGoal(board.n);
    if (!Array.isArray(res.goal)) res.goal = S.goal;
    if (!Array.isArray(res.start)) res.start = S.start;
    writeFields();
    selectIfPresent('algorithm-select', res.algorithm);
    updateSolverInputs();
    selectIfPresent('heuristic-select', res.heuristic);
    loadResult(res, `trace file ${file.name}`);
    instanceChanged({ keepResult: true });
    setStatus(`opened ${file.name}: ${Array.isArray(res.data) ? fmt(res.data.length) + ' trace nodes' : 'no trace nodes'}`);
  };
  reader.readAsText(file);
}
function selectIfPresent(id, value) {
  const sel = $(id);
  if (typeof value === 'string' && [...sel.options].some((o) => o.value === value)) sel.value = value;
}
function guessBoard(res) {
  const s = (Array.isArray(res.start) && res.start) || (Array.isArray(res.path) && res.path[0]);
  if (!s) return null;
  const r = Math.round(Math.sqrt(s.length));
  return r * r === s.length ? parseBoard(`${r}x${r}`) : null;
}
function checkTrace(res) {
  if (!res || typeof res !== 'object' || Array.isArray(res)) return 'not a solve/trace object';
  if (res.path !== undefined && !Array.isArray(res.path)) return '"path" is not a list';
  if (res.data !== undefined && !Array.isArray(res.data)) return '"data" is not a list';
  if (res.process !== undefined && !Array.isArray(res.process)) return '"process" is not a list';
  if (!Array.isArray(res.path) && !Array.isArray(res.data)) return 'neither "path" nor "data": not a tilespace trace';
  if (Array.isArray(res.data)) {
    for (let i = 0; i < res.data.length; i++) {
      const d = res.data[i];
      if (!d || typeof d !== 'object' || !Array.isArray(d.state)) return `data[${i}] has no state`;
      if (d.parent !== null && d.parent !== undefined && (typeof d.parent !== 'number' || d.parent >= res.data.length)) return `data[${i}].parent is not a node id`;
    }
  }
  return '';
}
