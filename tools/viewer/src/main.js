// The viewer's entry: wires the controls and keys to the modules, then draws the first render.
// The build bundles it with the other modules into /app.js (esbuild, cmake/viewer_assets.cmake), a
// classic script that index.html loads after d3 v7 (/vendor/d3.min.js, the global `d3`). Talks to
// `tilespace serve` (tools/viewer/API.md); never throws on bad input: every error is shown inline.
'use strict'; // modules are strict; esbuild keeps this directive at the top of the classic-script bundle
import { $, debounce } from './util.js';
import { canonicalGoal, parseBoard, scramble } from './puzzle.js';
import { A, S, instKey, isMulti, parseMetric } from './state.js';
import { api } from './api.js';
import { clearSolverErrors, setFieldError, setStatus, showApiError } from './errors.js';
import { drawEditors, ensureBoardOption, instanceChanged, loadHash, loadTables, populateBoards, readFields, updateBoardNote, writeFields } from './instance.js';
import { applyMetric, populateSolverSelects, solve, updateSolverInputs } from './solver.js';
import { clearResult } from './results.js';
import { drawAnimBoard, drawProfile, play, setStep, stopAnim, updateSpeedLabel, updateStepInfo } from './board.js';
import { drawHistogram } from './histogram.js';
import { abortCompare, clearCompare, drawCompare, runCompare } from './compare.js';
import * as Tree from './tree.js';
import { openTraceFile } from './tracefile.js';

const hasD3 = typeof window.d3 === 'object' && window.d3 && typeof window.d3.select === 'function';

function wire() {
  $('board-select').addEventListener('change', () => {
    const b = parseBoard($('board-select').value);
    if (!b) return;
    stopAnim();
    abortCompare();
    S.board = b;
    S.goal = canonicalGoal(b.n);
    S.start = scramble(S.goal, b.w, b.h, 40 + Math.floor(Math.random() * 20), S.metric);
    setFieldError('board', '');
    writeFields();
    updateBoardNote();
    clearResult('');
    clearCompare('Press “Compare all” to run every algorithm on this instance.');
    instanceChanged();
  });
  // The metric: every table, distance, solve, comparison and chart follows it.
  $('metric-select').addEventListener('change', () => {
    const m = parseMetric($('metric-select').value);
    if (m === S.metric) return;
    stopAnim();
    abortCompare();
    S.metric = m;
    applyMetric();
    updateBoardNote();
    clearResult('Metric changed: press Solve.');
    clearCompare('Metric changed: press “Compare all” again.');
    instanceChanged();
  });
  // A link or an edited address (#board=…&start=…&goal=…[&metric=multi]) sets the instance without a reload.
  window.addEventListener('hashchange', () => {
    const before = instKey(S.board.name, S.start, S.goal, S.metric);
    loadHash();
    if (instKey(S.board.name, S.start, S.goal, S.metric) === before) return;
    applyMetric();
    stopAnim();
    ensureBoardOption(S.board.name);
    updateBoardNote();
    writeFields();
    instanceChanged();
  });
  const onType = debounce(() => instanceChanged(), 250);
  $('start-input').addEventListener('input', onType);
  $('goal-input').addEventListener('input', onType);
  $('start-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') { instanceChanged(); solve(); } });
  $('goal-input').addEventListener('keydown', (e) => { if (e.key === 'Enter') { instanceChanged(); solve(); } });
  $('random-button').addEventListener('click', async () => {
    if (!readFields()) { if ($('goal-error').textContent) return; }
    $('instance-error').textContent = '';
    const r = await api('/api/random', { board: S.board.name, goal: S.goal });
    if (!r.ok) { showApiError(r, 'instance-error'); return; }
    if (!Array.isArray(r.data.state) || r.data.state.length !== S.board.n) { $('instance-error').textContent = 'random: unexpected answer'; return; }
    S.start = r.data.state;
    writeFields();
    instanceChanged();
  });
  $('scramble-button').addEventListener('click', () => {
    readFields();
    S.start = scramble(S.goal, S.board.w, S.board.h, (isMulti(S.metric) ? 8 : 12) + Math.floor(Math.random() * 12), S.metric);
    writeFields();
    instanceChanged();
  });
  $('swap-button').addEventListener('click', () => {
    if (!readFields()) return;
    const t = S.start; S.start = S.goal; S.goal = t;
    writeFields();
    instanceChanged();
  });
  $('hardest-select').addEventListener('change', () => {
    const v = $('hardest-select').value;
    const st = S.stats;
    if (v && st && Array.isArray(st.farthest) && st.farthest.length) {
      const i = v === 'random' ? Math.floor(Math.random() * st.farthest.length) : +v;
      if (st.farthest[i]) { S.start = st.farthest[i].slice(); writeFields(); instanceChanged(); }
    }
    $('hardest-select').value = '';
  });
  $('algorithm-select').addEventListener('change', updateSolverInputs);
  for (const id of ['heuristic-select', 'weight-input', 'depth-input', 'trace-limit-input']) $(id).addEventListener('input', clearSolverErrors);
  $('solve-button').addEventListener('click', () => solve());
  $('compare-button').addEventListener('click', () => runCompare());
  $('play-button').addEventListener('click', play);
  $('pause-button').addEventListener('click', stopAnim);
  $('step-button').addEventListener('click', () => { stopAnim(); setStep(A.k + 1, true); });
  $('back-button').addEventListener('click', () => { stopAnim(); setStep(A.k - 1, true); });
  $('reset-button').addEventListener('click', () => { stopAnim(); setStep(0, false); });
  $('speed-input').addEventListener('input', updateSpeedLabel);
  $('hist-log').addEventListener('change', drawHistogram);
  $('trace-file').addEventListener('change', (e) => { const f = e.target.files && e.target.files[0]; openTraceFile(f); e.target.value = ''; });
  document.addEventListener('keydown', (e) => {
    const tag = (e.target && e.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === ' ') { e.preventDefault(); if (A.playing) stopAnim(); else play(); }
    else if (e.key === 'ArrowRight') { stopAnim(); setStep(A.k + 1, true); }
    else if (e.key === 'ArrowLeft') { stopAnim(); setStep(A.k - 1, true); }
    else if (e.key === 'Home') { stopAnim(); setStep(0, false); }
  });
  window.addEventListener('resize', debounce(() => { drawHistogram(); drawCompare(); drawProfile(); Tree.redraw(); }, 150));
  window.addEventListener('error', (e) => setStatus('internal error: ' + (e.message || e), true));
  window.addEventListener('unhandledrejection', (e) => setStatus('internal error: ' + ((e.reason && e.reason.message) || e.reason), true));
}

async function start() {
  performance.mark('app-start');
  if (!hasD3) {
    document.body.insertAdjacentHTML('afterbegin', '<p style="color:#dc2626;padding:12px">d3 did not load from /vendor/d3.min.js.</p>');
    window.__tilespaceReady = performance.now();
    return;
  }
  loadHash();
  populateBoards();
  ensureBoardOption(S.board.name);
  updateBoardNote();
  writeFields();
  updateSpeedLabel();
  wire();
  drawEditors();
  drawAnimBoard(S.start, null, false);
  updateStepInfo();
  const infoP = api('/api/info').then((r) => {
    if (!r.ok) { setStatus('cannot load /api/info: ' + r.error, true); return; }
    S.info = r.data;
    if (!Array.isArray(S.info.algorithms)) S.info.algorithms = [];
    if (!Array.isArray(S.info.heuristics)) S.info.heuristics = [];
    $('version').textContent = S.info.version ? 'server ' + S.info.version : '';
    populateSolverSelects(S.info);
  });
  performance.mark('app-sync-done');
  S.instGen++;
  await Promise.all([infoP, loadTables()]);
  updateStepInfo();
  window.__tilespaceReady = performance.now();
  document.body.dataset.ready = '1';
  window.__tilespaceTree = { inspect: Tree.inspect, screenPos: Tree.screenPos };
  // not needed for the first render
  Tree.init();
  if (!S.compareRows) drawCompare();
}

try { start(); } catch (e) {
  setStatus('startup failed: ' + (e && e.message), true);
  window.__tilespaceReady = performance.now();
}
