// The sliding-tile puzzle itself, without the page: board names, parsing a typed state, the
// parity rule for reachability, the moves of either metric (single: the blank's neighbours;
// multi: every cell of the blank's row and column, the tiles between sliding together), random
// slides, and the move notation (`RRDL`, `R2 U D`) read back.

export function parseBoard(s) {
  const m = /^(\d+)x(\d+)$/.exec(String(s || '').trim());
  if (!m) return null;
  const w = +m[1], h = +m[2];
  if (w < 2 || h < 2 || w * h > 25) return null;
  return { w, h, n: w * h, name: `${w}x${h}` };
}
export function canonicalGoal(n) { const g = []; for (let i = 1; i < n; i++) g.push(i); g.push(0); return g; }
export const stateText = (t) => t.join(' ');
export const stateKey = (t) => t.join(',');
export function factorialHalf(n) { let f = 1; for (let i = 2; i <= n; i++) f *= i; return f / 2; }

/** Parse a state typed by the user. Returns {tiles} or {error}. */
export function parseTiles(text, board) {
  const t = String(text || '').trim();
  if (!t) return { error: 'enter the tiles, e.g. ' + stateText(canonicalGoal(board.n)) };
  let toks = t.split(/[\s,+/;]+/).filter(Boolean);
  if (toks.length === 1 && board.n <= 10 && toks[0].length === board.n) toks = [...toks[0]];
  const tiles = [];
  for (const tok of toks) {
    const v = tok === '_' || tok === '.' ? 0 : /^\d+$/.test(tok) ? parseInt(tok, 10) : NaN;
    if (Number.isNaN(v)) return { error: `'${tok.slice(0, 12)}' is not a tile number` };
    tiles.push(v);
  }
  if (tiles.length !== board.n) return { error: `${tiles.length} tiles; the ${board.name} board needs ${board.n} (0 = blank)` };
  const seen = new Array(board.n).fill(false);
  for (const v of tiles) {
    if (v >= board.n) return { error: `tile ${v} is out of range for ${board.name} (0..${board.n - 1})` };
    if (seen[v]) return { error: `tile ${v} appears twice` };
    seen[v] = true;
  }
  return { tiles };
}
/** Same parity rule as the server: permutation parity (blank included) == parity of the blank's move distance. */
export function solvable(start, goal, w) {
  const n = start.length, pos = new Array(n);
  goal.forEach((t, i) => { pos[t] = i; });
  const perm = start.map((t) => pos[t]);
  const seen = new Array(n).fill(false);
  let parity = 0;
  for (let i = 0; i < n; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = perm[j]) { seen[j] = true; len++; }
    parity ^= (len - 1) & 1;
  }
  const a = start.indexOf(0), b = goal.indexOf(0);
  const d = Math.abs((a % w) - (b % w)) + Math.abs(Math.floor(a / w) - Math.floor(b / w));
  return parity === (d & 1);
}
export function neighbourCells(cell, w, h) {
  const r = Math.floor(cell / w), c = cell % w, out = [];
  if (r > 0) out.push(cell - w);
  if (r < h - 1) out.push(cell + w);
  if (c > 0) out.push(cell - 1);
  if (c < w - 1) out.push(cell + 1);
  return out;
}
/** The cells the blank can move to in one move of `metric` ('single' or 'multi'). */
export function moveTargets(cell, w, h, metric) {
  if (metric !== 'multi') return neighbourCells(cell, w, h);
  const r = Math.floor(cell / w), c = cell % w, out = [];
  for (let x = 0; x < w; x++) if (x !== c) out.push(r * w + x);
  for (let y = 0; y < h; y++) if (y !== r) out.push(y * w + c);
  return out;
}
/** The state after the blank travels to `to` along its row or column: the tiles between slide one cell each. */
export function slideBlank(tiles, to, w) {
  const s = tiles.slice();
  const from = s.indexOf(0);
  const step = Math.floor(from / w) === Math.floor(to / w) ? (to > from ? 1 : -1) : (to > from ? w : -w);
  for (let at = from; at !== to; at += step) { s[at] = s[at + step]; s[at + step] = 0; }
  return s;
}
/** `moves` random moves of `metric` from goal, never straight back (nor, in multi, along the last move's line). */
export function scramble(goal, w, h, moves, metric) {
  let s = goal.slice();
  let prev = -1;
  for (let i = 0; i < moves; i++) {
    const b = s.indexOf(0);
    const sameLine = (c) => prev >= 0 && (metric === 'multi'
      ? (Math.floor(c / w) === Math.floor(prev / w) && Math.floor(b / w) === Math.floor(prev / w)) || (c % w === prev % w && b % w === prev % w)
      : c === prev);
    const opts = moveTargets(b, w, h, metric).filter((c) => !sameLine(c));
    const c = opts[Math.floor(Math.random() * opts.length)];
    s = slideBlank(s, c, w); prev = b;
  }
  return s;
}
/** A solution's moves as tokens: `R2 U D` (multi-tile, spaced) or `RRDL` (one letter a move). */
export function moveTokens(moves) {
  const t = String(moves || '').trim();
  if (!t) return [];
  return /\s/.test(t) || /\d/.test(t) ? t.split(/\s+/) : [...t];
}
const DIR_WORD = { U: 'up', D: 'down', L: 'left', R: 'right' };
/** "blank goes right 2 cells (2 tiles slide)" for the token R2. */
export function moveTitle(token) {
  const m = /^([UDLR])(\d*)$/.exec(token);
  if (!m) return token;
  const k = m[2] ? +m[2] : 1;
  return `blank goes ${DIR_WORD[m[1]]}` + (k > 1 ? ` ${k} cells (${k} tiles slide)` : '');
}
