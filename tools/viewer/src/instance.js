// The Instance card: board, metric, start and goal (text fields and click editors), the address
// hash, the start's optimal distance, the goal's table statistics and the Hardest list (both in the
// metric chosen).
import { $, debounce, fmt } from './util.js';
import { factorialHalf, moveTargets, parseBoard, parseTiles, slideBlank, solvable, stateText } from './puzzle.js';
import { S, instKey, isMulti, metricParam, parseMetric, tableKey } from './state.js';
import { api, queryDistance } from './api.js';
import { setFieldError } from './errors.js';
import { clearResult } from './results.js';
import { drawAnimBoard, updateStepInfo } from './board.js';
import { drawHistogram } from './histogram.js';
import { abortCompare, clearCompare } from './compare.js';

const BOARDS = ['2x3', '3x2', '2x4', '4x2', '3x3', '2x5', '5x2', '3x4', '4x3', '2x6', '6x2', '2x7', '7x2', '3x5', '5x3', '2x8', '8x2', '4x4'];

export function populateBoards() {
  const sel = $('board-select');
  sel.textContent = '';
  for (const b of BOARDS) {
    const o = document.createElement('option');
    o.value = b; o.textContent = b.replace('x', ' × ');
    sel.appendChild(o);
  }
  sel.value = S.board.name;
}
export function ensureBoardOption(name) {
  const sel = $('board-select');
  if (![...sel.options].some((o) => o.value === name)) {
    const o = document.createElement('option');
    o.value = name; o.textContent = name.replace('x', ' × ');
    sel.appendChild(o);
  }
  sel.value = name;
}
export function updateBoardNote() {
  $('board-note').textContent = `${S.board.n - 1}-puzzle · ${fmt(factorialHalf(S.board.n))} states`;
  $('metric-note').textContent = isMulti(S.metric) ? 'a move slides a run of tiles' : 'a move slides one tile';
}

/** Parse both fields, mark errors, update S.start/S.goal. Returns true when both are valid. */
export function readFields() {
  const a = parseTiles($('start-input').value, S.board);
  const b = parseTiles($('goal-input').value, S.board);
  setFieldError('start', a.error ? 'start: ' + a.error : '');
  setFieldError('goal', b.error ? 'goal: ' + b.error : '');
  if (a.tiles) S.start = a.tiles;
  if (b.tiles) S.goal = b.tiles;
  return !a.error && !b.error;
}
export function writeFields() {
  $('start-input').value = stateText(S.start);
  $('goal-input').value = stateText(S.goal);
}

function drawEditor(svgId, tiles, onChange) {
  const { w, h } = S.board;
  const cell = Math.max(16, Math.min(34, Math.floor(150 / w), Math.floor(136 / h)));
  const pad = 3;
  const svg = d3.select('#' + svgId).attr('width', w * cell + 2 * pad).attr('height', h * cell + 2 * pad);
  svg.selectAll('rect.frame').data([0]).join('rect').attr('class', 'frame')
    .attr('x', 0.5).attr('y', 0.5).attr('rx', 4).attr('width', w * cell + 2 * pad - 1).attr('height', h * cell + 2 * pad - 1);
  const blank = tiles.indexOf(0);
  const movable = new Set(moveTargets(blank, w, h, S.metric));
  const items = tiles.map((t, i) => ({ t, i })).filter((d) => d.t !== 0);
  const sel = svg.selectAll('g.etile').data(items, (d) => d.t);
  sel.exit().remove();
  const enter = sel.enter().append('g').attr('class', 'etile')
    .attr('data-tile', (d) => d.t)
    .attr('transform', (d) => `translate(${pad + (d.i % w) * cell},${pad + Math.floor(d.i / w) * cell})`);
  enter.append('rect').attr('x', 1).attr('y', 1).attr('rx', 3);
  enter.append('text');
  const all = enter.merge(sel);
  all.classed('movable', (d) => movable.has(d.i)).attr('data-cell', (d) => d.i);
  all.select('rect').attr('width', cell - 2).attr('height', cell - 2);
  all.select('text').attr('x', cell / 2).attr('y', cell / 2).style('font-size', `${Math.round(cell * 0.42)}px`).text((d) => d.t);
  all.transition().duration(120)
    .attr('transform', (d) => `translate(${pad + (d.i % w) * cell},${pad + Math.floor(d.i / w) * cell})`);
  all.on('click', (ev, d) => {
    const cur = tiles.indexOf(d.t), b = tiles.indexOf(0);
    if (!moveTargets(b, w, h, S.metric).includes(cur)) return;
    onChange(slideBlank(tiles, cur, w)); // multi: the tiles between slide with it
  });
}
export function drawEditors() {
  $('editor-hint').textContent = isMulti(S.metric) ? "click a tile in the blank's row or column" : 'click a tile next to the blank';
  drawEditor('start-editor', S.start, (s) => { S.start = s; writeFields(); instanceChanged(); });
  drawEditor('goal-editor', S.goal, (g) => { S.goal = g; writeFields(); instanceChanged(); });
}

/** Called after any change of board, start or goal (fields, editors, buttons). */
export function instanceChanged(opts = {}) {
  const ok = readFields();
  $('instance-error').textContent = '';
  if (!ok) { $('start-depth').textContent = ''; return; }
  drawEditors();
  const key = instKey(S.board.name, S.start, S.goal, S.metric);
  if (S.result && S.resultKey !== key && !opts.keepResult) clearResult('Instance changed: press Solve.');
  if (!S.result) drawAnimBoard(S.start, null, false);
  if (S.compareKey && S.compareKey !== key) { abortCompare(); clearCompare('Instance changed: press “Compare all” again.'); }
  saveHash();
  refreshTables();
}
/** The instance in the address (#board=3x3&start=...&goal=...[&metric=multi]), so a reload or a shared link shows it again. */
function saveHash() {
  const h = `#board=${S.board.name}&start=${S.start.join(',')}&goal=${S.goal.join(',')}` + (isMulti(S.metric) ? '&metric=multi' : '');
  if (location.hash !== h) { try { history.replaceState(null, '', h); } catch (e) { /* file:// or sandboxed */ } }
}
export function loadHash() {
  const q = new URLSearchParams(location.hash.replace(/^#/, ''));
  const b = parseBoard(q.get('board') || '');
  if (!b) return;
  const st = parseTiles(q.get('start') || '', b), gl = parseTiles(q.get('goal') || '', b);
  if (st.error || gl.error) return;
  S.board = b; S.start = st.tiles; S.goal = gl.tiles;
  S.metric = parseMetric(q.get('metric'));
  $('metric-select').value = S.metric;
}
const refreshTables = debounce(() => { loadTables(); }, 120);

/** Fetch stats (cached) and the start's depth; draw the histogram. Resolves when drawn. */
export async function loadTables() {
  const gen = ++S.instGen;
  const board = S.board, start = S.start.slice(), goal = S.goal.slice(), metric = S.metric;
  const reach = solvable(start, goal, board.w);
  const tk = tableKey(board.name, goal, metric);
  $('start-depth').textContent = reach ? 'optimal distance …' : '';
  if (!reach) setDepthText(null, false);
  const statsP = S.statsCache.has(tk) ? Promise.resolve(S.statsCache.get(tk))
    : api('/api/stats', { board: board.name, goal, metric: metricParam(metric) }).then((r) => {
      const v = r.ok ? r.data : { error: r.error, status: r.status, param: r.param };
      if (r.ok || r.status === 400 || r.status === 404) S.statsCache.set(tk, v);
      return v;
    });
  const depthP = reach ? queryDistance(board.name, goal, start, metric) : Promise.resolve(null);
  const [stats, depth] = await Promise.all([statsP, depthP]);
  if (gen !== S.instGen) return;
  S.stats = stats && !stats.error ? stats : null;
  S.startDepth = depth;
  // No table: 404 (not built, or too large), or 400 about the metric (multi on 4x4: none can exist).
  const noTable = !!(stats && stats.error && (stats.status === 404 || stats.param === 'metric'));
  if (reach) setDepthText(depth, true, noTable);
  const warn = $('board-warn');
  warn.textContent = noTable ? stats.error : '';
  warn.title = warn.textContent;
  if (!S.result) updateStepInfo();
  drawHistogram();
  fillHardest();
  $('hist-error').textContent = stats && stats.error && !noTable ? `${board.name}: ${stats.error}` : '';
}
function setDepthText(depth, reachable, noTable) {
  const el = $('start-depth');
  el.classList.remove('muted');
  if (!reachable) { el.textContent = 'unreachable from the goal (parity)'; el.style.color = 'var(--err)'; return; }
  el.style.color = '';
  const unit = isMulti(S.metric) ? ' multi-tile moves' : '';
  if (depth === undefined || depth === null) { el.textContent = noTable ? 'optimal distance: no table' : 'optimal distance: ?'; return; }
  el.textContent = `optimal distance: ${depth}${unit}`;
}


function fillHardest() {
  const sel = $('hardest-select');
  sel.textContent = '';
  const head = document.createElement('option');
  head.value = '';
  const st = S.stats;
  if (!st || !Array.isArray(st.farthest) || !st.farthest.length) {
    head.textContent = 'Hardest…'; sel.appendChild(head); sel.disabled = !st; return;
  }
  sel.disabled = false;
  const shown = st.farthest.length, total = st.farthest_count || shown;
  head.textContent = `Hardest (${st.radius}${isMulti(st.metric) ? ' multi-tile' : ''} moves, ${fmt(total)} state${total === 1 ? '' : 's'})…`;
  sel.appendChild(head);
  const frag = document.createDocumentFragment();
  const rnd = document.createElement('option');
  rnd.value = 'random'; rnd.textContent = 'a random one of them';
  frag.appendChild(rnd);
  st.farthest.forEach((s, i) => {
    const o = document.createElement('option');
    o.value = String(i); o.textContent = stateText(s);
    frag.appendChild(o);
  });
  sel.appendChild(frag);
  if (total > shown) {
    const o = document.createElement('option');
    o.disabled = true; o.textContent = `(first ${fmt(shown)} of ${fmt(total)})`;
    sel.appendChild(o);
  }
}
