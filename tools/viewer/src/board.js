// The Solution card: the big board animated move by move (a multi-tile move slides every tile of
// its run at once), the step controls and the moves list, and the small chart of the remaining
// optimal distance along the path.
import { $, chartSize } from './util.js';
import { moveTitle, moveTokens, stateKey, stateText } from './puzzle.js';
import { A, S, isMulti } from './state.js';

const SPEEDS = [0.5, 1, 2, 3, 5, 8, 15]; // moves per second

function boardGeometry(board) {
  const cell = Math.floor(Math.max(30, Math.min(76, 250 / board.w, 250 / board.h)));
  return { cell, pad: 6, width: board.w * cell + 12, height: board.h * cell + 12 };
}
/** Draw the big board. prev: the state before (to animate), or null to jump. */
export function drawAnimBoard(state, prev, animate, boardOpt) {
  const board = boardOpt || (S.result && S.resultBoard) || S.board;
  const { cell, pad, width, height } = boardGeometry(board);
  const svg = d3.select('#anim-board').attr('width', width).attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`)
    .attr('data-state', stateText(state))
    .attr('data-board', board.name);
  svg.selectAll('rect.frame').data([0]).join('rect').attr('class', 'frame').attr('rx', 8).attr('width', width).attr('height', height);
  const gCells = svg.selectAll('g.cells').data([0]).join('g').attr('class', 'cells');
  const gTiles = svg.selectAll('g.tiles').data([0]).join('g').attr('class', 'tiles');
  gCells.selectAll('rect.cellbg').data(d3.range(board.n), (d) => d).join('rect').attr('class', 'cellbg')
    .attr('x', (i) => pad + (i % board.w) * cell + 2).attr('y', (i) => pad + Math.floor(i / board.w) * cell + 2)
    .attr('width', cell - 4).attr('height', cell - 4).attr('rx', 5);
  const goal = (S.result && A.goal) || S.goal;
  const items = state.map((t, i) => ({ t, i })).filter((d) => d.t !== 0);
  // The tiles this move slides: one in the single-tile metric, the whole run in the multi-tile one.
  const moved = new Set(prev ? state.filter((t, i) => t !== 0 && prev[i] !== t) : []);
  const sel = gTiles.selectAll('g.tile').data(items, (d) => d.t);
  sel.exit().remove();
  const pos = (d) => `translate(${pad + (d.i % board.w) * cell},${pad + Math.floor(d.i / board.w) * cell})`;
  const enter = sel.enter().append('g').attr('class', 'tile').attr('data-tile', (d) => d.t).attr('transform', pos);
  enter.append('rect').attr('x', 2).attr('y', 2).attr('rx', 6);
  enter.append('text');
  const all = enter.merge(sel);
  all.attr('data-cell', (d) => d.i)
    .classed('home', (d) => goal && goal[d.i] === d.t)
    .classed('moving', (d) => moved.has(d.t));
  svg.attr('data-moved', [...moved].sort((a, b) => a - b).join(' '));
  all.select('rect').attr('width', cell - 4).attr('height', cell - 4);
  all.select('text').attr('x', cell / 2).attr('y', cell / 2).style('font-size', `${Math.round(cell * 0.38)}px`).text((d) => d.t);
  if (animate) {
    all.interrupt().transition().duration(A.duration || 200).ease(d3.easeCubicOut).attr('transform', pos);
  } else {
    all.interrupt().attr('transform', pos);
  }
}

function speed() { return SPEEDS[+$('speed-input').value] || 2; }
export function updateSpeedLabel() { const s = speed(); $('speed-label').textContent = (s < 1 ? s.toFixed(1) : s) + '/s'; }

export function setStep(k, animate) {
  const n = A.path.length - 1;
  if (n < 0) return;
  k = Math.max(0, Math.min(n, k));
  const oldK = A.k;
  A.k = k;
  A.duration = Math.min(260, (1000 / speed()) * 0.75);
  drawAnimBoard(A.path[k], animate && Math.abs(k - oldK) === 1 ? A.path[oldK] : null, animate);
  updateStepInfo();
}

export function updateStepInfo() {
  const n = A.path.length - 1;
  const sc = $('step-counter'), rem = $('remaining');
  if (n < 0) {
    sc.textContent = '–'; sc.dataset.step = ''; sc.dataset.total = '';
    const d = S.startDepth;
    rem.textContent = S.result ? '–' : (typeof d === 'number' ? String(d) : '–');
    rem.dataset.value = rem.textContent;
    $('goal-banner').hidden = true;
    d3.select('#anim-board').classed('solved', false);
    setAnimButtons();
    drawProfile();
    return;
  }
  sc.textContent = `${A.k} / ${n}`;
  sc.dataset.step = String(A.k); sc.dataset.total = String(n);
  const d = A.dist[A.k];
  rem.textContent = d === undefined ? '…' : d === null ? '?' : String(d);
  rem.dataset.value = rem.textContent;
  rem.title = d === undefined ? 'asking the table…' : `optimal distance of this board to the goal (path has ${n - A.k} moves left)`;
  const atGoal = A.k === n && A.goal && stateKey(A.path[n]) === stateKey(A.goal);
  $('goal-banner').hidden = !atGoal;
  $('goal-banner').textContent = atGoal ? `Goal reached in ${n}${isMulti(A.metric) ? ' multi-tile' : ''} move${n === 1 ? '' : 's'}` : '';
  d3.select('#anim-board').classed('solved', !!atGoal);
  drawProfile();
  const spans = $('moves').children;
  for (let i = 0; i < spans.length; i++) spans[i].className = i < A.k - 1 ? 'done' : i === A.k - 1 ? 'now' : '';
  const now = spans[A.k - 1];
  if (now && now.scrollIntoView && A.playing) { const box = $('moves'); if (now.offsetTop > box.scrollTop + box.clientHeight - 20 || now.offsetTop < box.scrollTop) box.scrollTop = now.offsetTop - 20; }
  setAnimButtons();
}
/** Small chart under the board: the table's optimal distance at every step vs the moves left on this path. */
export function drawProfile() {
  const svgEl = $('profile-svg');
  const svg = d3.select(svgEl);
  svg.selectAll('*').remove();
  const n = A.path.length - 1;
  if (n < 1) { svgEl.style.display = 'none'; return; }
  svgEl.style.display = '';
  const { width, height } = chartSize(svgEl);
  const m = { l: 30, r: 8, t: 16, b: 18 };
  const known = A.dist.map((d, k) => ({ k, d })).filter((p) => typeof p.d === 'number');
  const maxY = Math.max(n, d3.max(known, (p) => p.d) || 0);
  const x = d3.scaleLinear().domain([0, n]).range([m.l, width - m.r]);
  const y = d3.scaleLinear().domain([0, maxY]).range([height - m.b, m.t]).nice();
  svg.append('g').attr('class', 'grid').attr('transform', `translate(${m.l},0)`).call(d3.axisLeft(y).ticks(3).tickSize(-(width - m.l - m.r)).tickFormat(''));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(${m.l},0)`).call(d3.axisLeft(y).ticks(3).tickFormat(d3.format('d')));
  svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${height - m.b})`).call(d3.axisBottom(x).ticks(Math.min(n, 8)).tickFormat(d3.format('d')).tickSizeOuter(0));
  svg.append('path').attr('class', 'pline left').attr('d', `M${x(0)},${y(n)}L${x(n)},${y(0)}`);
  if (known.length) svg.append('path').attr('class', 'pline').attr('d', d3.line().x((p) => x(p.k)).y((p) => y(p.d))(known));
  svg.append('line').attr('class', 'pnow').attr('x1', x(A.k)).attr('x2', x(A.k)).attr('y1', m.t - 2).attr('y2', height - m.b);
  const dk = A.dist[A.k];
  if (typeof dk === 'number') svg.append('circle').attr('class', 'pdot').attr('r', 4).attr('cx', x(A.k)).attr('cy', y(dk));
  const lg = svg.append('g').attr('class', 'legend').attr('transform', `translate(${m.l + 4},10)`);
  lg.append('line').attr('class', 'pline').attr('x1', 0).attr('x2', 16).attr('y1', -3).attr('y2', -3);
  lg.append('text').attr('x', 20).text('optimal distance (table)');
  lg.append('line').attr('class', 'pline left').attr('x1', 150).attr('x2', 166).attr('y1', -3).attr('y2', -3);
  lg.append('text').attr('x', 170).text('moves left on this path');
  svg.on('click', (ev) => {
    const [px] = d3.pointer(ev);
    stopAnim();
    setStep(Math.round(x.invert(px)), false);
  });
}

function setAnimButtons() {
  const n = A.path.length - 1;
  $('play-button').disabled = n <= 0 || A.playing;
  $('pause-button').disabled = !A.playing;
  $('step-button').disabled = n <= 0 || A.k >= n;
  $('back-button').disabled = n <= 0 || A.k <= 0;
  $('reset-button').disabled = n <= 0 || A.k === 0;
}
export function renderMoves(moves) {
  const box = $('moves');
  box.textContent = '';
  const frag = document.createDocumentFragment();
  moveTokens(moves).forEach((m, i) => {
    const s = document.createElement('span');
    s.textContent = m;
    s.title = `move ${i + 1}: ${moveTitle(m)}`;
    s.addEventListener('click', () => { stopAnim(); setStep(i + 1, false); });
    frag.appendChild(s);
  });
  box.appendChild(frag);
  box.scrollTop = 0;
}
export function play() {
  const n = A.path.length - 1;
  if (n <= 0) return;
  if (A.k >= n) setStep(0, false);
  A.playing = true;
  setAnimButtons();
  const tick = () => {
    if (!A.playing) return;
    setStep(A.k + 1, true);
    if (A.k >= A.path.length - 1) { A.playing = false; setAnimButtons(); return; }
    A.timer = setTimeout(tick, 1000 / speed());
  };
  A.timer = setTimeout(tick, Math.min(250, 1000 / speed()));
}
export function stopAnim() {
  A.playing = false;
  clearTimeout(A.timer);
  setAnimButtons();
}
