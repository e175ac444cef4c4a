// The page's shared state: the instance, its metric and caches (S), the solution animation (A), and
// the keys that tell instances and tables apart.
import { canonicalGoal, parseBoard, stateKey } from './puzzle.js';

export const S = {
  info: null,
  board: parseBoard('3x3'),
  start: [2, 4, 3, 7, 1, 6, 0, 5, 8],
  goal: canonicalGoal(9),
  metric: 'single', // how moves are counted: 'single' or 'multi' (the Metric control, metric= on the API)
  statsCache: new Map(), // board|goal|metric -> stats or {error}
  distCache: new Map(), // board|goal|state|metric -> length|null
  result: null,
  resultKey: '',
  solveCtl: null,
  compareCtl: null,
  instGen: 0,
};
export const instKey = (b, s, g, m) => `${b}|${stateKey(s)}|${stateKey(g)}|${m || 'single'}`;
export const tableKey = (b, g, m) => `${b}|${stateKey(g)}|${m || 'single'}`;
// metric= for the API: only when multi, so single-tile requests (and their URLs) stay as they were.
export const metricParam = (m) => (m === 'multi' ? 'multi' : undefined);
export const isMulti = (m) => m === 'multi';
// A metric read from outside (an answer, a trace file, the address, a select): multi or single.
export const parseMetric = (x) => (isMulti(x) ? 'multi' : 'single');

// The solution animation: the path, the step shown, the distances along it.
export const A = { path: [], k: 0, dist: [], playing: false, timer: 0, goal: null, metric: 'single' };
