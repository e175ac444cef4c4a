// The page's shared state: the instance and caches (S), the solution animation (A), and the keys
// that tell instances and tables apart.
import { canonicalGoal, parseBoard, stateKey } from './puzzle.js';

export const S = {
  info: null,
  board: parseBoard('3x3'),
  start: [2, 4, 3, 7, 1, 6, 0, 5, 8],
  goal: canonicalGoal(9),
  statsCache: new Map(), // board|goal -> stats or {error}
  distCache: new Map(), // board|goal|state -> length|null
  result: null,
  resultKey: '',
  solveCtl: null,
  compareCtl: null,
  instGen: 0,
};
export const instKey = (b, s, g) => `${b}|${stateKey(s)}|${stateKey(g)}`;
export const tableKey = (b, g) => `${b}|${stateKey(g)}`;

// The solution animation: the path, the step shown, the distances along it.
export const A = { path: [], k: 0, dist: [], playing: false, timer: 0, goal: null };
