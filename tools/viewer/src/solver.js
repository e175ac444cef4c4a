// The Solver inputs (algorithm, heuristic and their options, from /api/info; in the multi-tile
// metric, the ones that count single-tile moves are disabled) and the Solve button.
import { $, fmt } from './util.js';
import { S, isMulti, metricParam } from './state.js';
import { api } from './api.js';
import { clearSolverErrors, setFieldError, setStatus, showApiError } from './errors.js';
import { readFields } from './instance.js';
import { loadResult } from './results.js';

function currentAlgo() {
  const name = $('algorithm-select').value;
  return (S.info && S.info.algorithms.find((a) => a.name === name)) || { name, optimal: false, uses_heuristic: true };
}
export function populateSolverSelects(info) {
  const as = $('algorithm-select'), hs = $('heuristic-select');
  as.textContent = ''; hs.textContent = '';
  for (const a of info.algorithms || []) {
    const o = document.createElement('option');
    o.value = a.name;
    o.textContent = a.name + (a.optimal ? '' : ' (not optimal)');
    o.title = a.description || '';
    as.appendChild(o);
  }
  for (const h of info.heuristics || []) {
    if (h.pattern_database) continue;  // pattern databases: from the command line only
    const o = document.createElement('option');
    o.value = h.name;
    o.textContent = h.name + (h.admissible ? '' : ' (inadmissible)');
    o.title = h.description || '';
    hs.appendChild(o);
  }
  if ([...as.options].some((o) => o.value === 'astar')) as.value = 'astar';
  if ([...hs.options].some((o) => o.value === 'manhattan')) hs.value = 'manhattan';
  if (info.limits && info.limits.trace_limit) $('trace-limit-input').placeholder = `server default ${fmt(info.limits.trace_limit)}`;
  applyMetric();
}
// Whether an algorithm or heuristic of /api/info counts moves in `metric` (multi_tile: false ones
// count single-tile moves only; older servers without the key: single-tile only).
export const countsIn = (entry, metric) => !isMulti(metric) || !!(entry && entry.multi_tile);
const DEFAULT_HEURISTIC = { single: 'manhattan', multi: 'multi-manhattan' };
/** The metric's choices: disables what does not count its moves, and moves a selection off them. */
export function applyMetric() {
  if (!S.info) return;
  for (const [id, list, fallback] of [['algorithm-select', S.info.algorithms, 'astar'],
    ['heuristic-select', S.info.heuristics, DEFAULT_HEURISTIC[S.metric] || 'manhattan']]) {
    const sel = $(id);
    for (const o of sel.options) {
      const entry = list.find((x) => x.name === o.value);
      o.disabled = !countsIn(entry, S.metric);
      o.title = o.disabled ? `${o.value} counts single-tile moves` : (entry && entry.description) || '';
    }
    const cur = sel.options[sel.selectedIndex];
    const keep = cur && !cur.disabled && !(id === 'heuristic-select' && cur.value === DEFAULT_HEURISTIC[isMulti(S.metric) ? 'single' : 'multi']);
    if (!keep && [...sel.options].some((o) => o.value === fallback && !o.disabled)) sel.value = fallback;
  }
  updateSolverInputs();
}
export function updateSolverInputs() {
  const a = currentAlgo();
  $('heuristic-select').disabled = !a.uses_heuristic;
  document.querySelectorAll('.opt-weight').forEach((e) => { e.style.display = takes(a, 'weight') ? '' : 'none'; });
  document.querySelectorAll('.opt-depth').forEach((e) => { e.style.display = takes(a, 'depth_limit') ? '' : 'none'; });
  $('algo-desc').textContent = a.description || '';
  clearSolverErrors();
}
// Whether an algorithm takes an option: the server's registry says (/api/info `options`).
function takes(algo, option) {
  if (algo.options) return algo.options.includes(option);
  return option === 'weight' ? algo.name === 'wastar' : option === 'depth_limit' ? algo.name === 'dfs' || algo.name === 'iddfs' : false;
}
export function solveParams(algo, withTrace) {
  const p = { board: S.board.name, start: S.start, goal: S.goal, algorithm: algo.name, metric: metricParam(S.metric) };
  if (takes(algo, 'heuristic')) p.heuristic = $('heuristic-select').value;
  if (takes(algo, 'weight')) p.weight = $('weight-input').value;
  if (takes(algo, 'depth_limit')) p.depth_limit = $('depth-input').value;
  if (withTrace) {
    p.trace = 1;
    const tl = $('trace-limit-input').value.trim();
    if (tl) p.trace_limit = tl;
  }
  return p;
}

export async function solve() {
  if (!readFields()) return;
  clearSolverErrors();
  setFieldError('start', ''); setFieldError('goal', ''); setFieldError('board', '');
  if (S.solveCtl) S.solveCtl.abort();
  const ctl = new AbortController();
  S.solveCtl = ctl;
  const algo = currentAlgo();
  const params = solveParams(algo, true);
  const btn = $('solve-button');
  btn.disabled = true; btn.textContent = 'Solving…';
  setStatus(`solving with ${algo.name}${params.heuristic ? ' + ' + params.heuristic : ''}…`);
  const t0 = performance.now();
  const r = await api('/api/solve', params, { signal: ctl.signal });
  if (S.solveCtl !== ctl) return;
  S.solveCtl = null;
  btn.disabled = false; btn.textContent = 'Solve';
  if (!r.ok) {
    if (!r.aborted) { showApiError(r, 'solver-error'); setStatus('solve failed: ' + r.error, true); }
    return;
  }
  setStatus(`solved in ${((performance.now() - t0) / 1000).toFixed(2)} s (round trip)`);
  loadResult(r.data, `${r.data.algorithm || algo.name}${r.data.heuristic ? ' · ' + r.data.heuristic : ''}`);
}
