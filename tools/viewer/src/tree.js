// The search tree: a trace (data/process) laid out with d3.tree (top-down or radial), grown
// expansion by expansion, one IDA*/IDDFS iteration at a time, zoomable, with mini boards and
// g/h/f when zoomed in, node details on click, and a canvas under the svg for big iterations.
import { $, fmt } from './util.js';

const SVGNS = 'http://www.w3.org/2000/svg';
const T = { res: null, board: null, zoom: null, t: null, n: 0 };
const CELL = 10, GX = 10, GY = 26;
const CANVAS_MIN = 4000; // more nodes than this in one iteration: nodes and links go on a canvas under the svg
let svg, viewport, linkPath, solPath, gNodes, gDetail, defs;
let playTimer = 0, detailRaf = 0, canvasRaf = 0, canvasDrawn = false;

export function init() {
  if (svg) return;
  svg = d3.select('#tree-svg');
  defs = svg.append('defs');
  viewport = svg.append('g').attr('class', 'viewport');
  linkPath = viewport.append('path').attr('class', 'links');
  solPath = viewport.append('path').attr('class', 'links sol');
  gNodes = viewport.append('g').attr('class', 'nodes');
  gDetail = viewport.append('g').attr('class', 'details');
  T.zoom = d3.zoom().scaleExtent([1e-4, 8]).on('zoom', (ev) => {
    viewport.attr('transform', ev.transform);
    T.t = ev.transform;
    scheduleDetails();
    if (T.useCanvas) scheduleCanvas();
  });
  svg.call(T.zoom).on('dblclick.zoom', null);
  // double-click: zoom in on that point until the boards are readable (or back out when already there)
  svg.on('dblclick.focus', (ev) => {
    if (!T.n || !T.t) return;
    ev.preventDefault();
    const [px, py] = T.t.invert(d3.pointer(ev, svg.node()));
    const el = $('tree-svg');
    const k = T.t.k < 1.15 ? 1.6 : T.t.k * 2;
    const t = d3.zoomIdentity.translate(el.clientWidth / 2 - px * k, el.clientHeight / 2 - py * k).scale(Math.min(8, k));
    svg.transition().duration(400).call(T.zoom.transform, t);
  });
  T.t = d3.zoomIdentity;
  gNodes.on('click', (ev) => {
    const el = ev.target.closest && ev.target.closest('rect.node');
    if (el) { selectNode(+el.getAttribute('data-id')); ev.stopPropagation(); }
  });
  svg.on('click.info', (ev) => {
    if (ev.defaultPrevented) return;
    if (T.useCanvas && T.n && T.t) { selectNode(nodeAt(T.t.invert(d3.pointer(ev, svg.node())))); return; }
    selectNode(-1);
  });
  $('tree-slider').addEventListener('input', () => { stopPlay(); setStep(+$('tree-slider').value); });
  $('tree-all').addEventListener('click', () => { stopPlay(); if (T.P) setStep(T.P.length); });
  $('tree-play').addEventListener('click', () => { if (playTimer) stopPlay(); else startPlay(); });
  $('tree-fit').addEventListener('click', () => fit(true));
  $('tree-iteration').addEventListener('change', () => { stopPlay(); showIteration(+$('tree-iteration').value); });
  $('tree-layout').addEventListener('change', () => { stopPlay(); if (T.P) { const s0 = T.s; showIteration(T.it); setStep(s0); } });
  clear();
}

export function clear(msg) {
  if (!svg) init();
  stopPlay();
  T.res = null; T.n = 0; T.P = null; T.sel = -1; T.useCanvas = false;
  drawCanvas();
  if (gNodes) { gNodes.selectAll('*').remove(); gDetail.selectAll('*').remove(); linkPath.attr('d', null); solPath.attr('d', null); }
  $('tree-node-count').textContent = '0';
  $('tree-shown').textContent = '';
  $('tree-step').textContent = '0/0';
  $('tree-slider').max = '0'; $('tree-slider').value = '0';
  $('iteration-wrap').hidden = true;
  $('node-info').hidden = true;
  const e = $('tree-empty');
  e.hidden = false;
  e.textContent = msg || 'Solve (a trace is requested) or open a trace file to see the search tree.';
  for (const id of ['tree-play', 'tree-all', 'tree-fit', 'tree-slider']) $(id).disabled = true;
}

export function load(res, board) {
  if (!svg) init();
  clear();
  const data = res.data;
  const proc = Array.isArray(res.process) ? res.process : [];
  const N = data.length;
  T.res = res; T.board = board; T.data = data; T.proc = proc;
  $('tree-node-count').textContent = String(N);
  if (!N) { clear('The trace is empty.'); $('tree-node-count').textContent = '0'; return; }
  // iteration of each node: from the process entries that expand or generate it, else inherited.
  const iterOf = new Int32Array(N).fill(-1);
  for (const p of proc) {
    const it = typeof p.iteration === 'number' ? p.iteration : 0;
    if (p.parent !== null && p.parent >= 0 && p.parent < N && iterOf[p.parent] < 0) iterOf[p.parent] = it;
    if (Array.isArray(p.children)) for (const c of p.children) if (c >= 0 && c < N && iterOf[c] < 0) iterOf[c] = it;
  }
  let cur = 0;
  for (let i = 0; i < N; i++) {
    if (iterOf[i] < 0) {
      const par = data[i] ? data[i].parent : null;
      iterOf[i] = par !== null && par !== undefined && par >= 0 && par < i ? iterOf[par] : cur;
    }
    cur = Math.max(cur, iterOf[i]);
  }
  T.iterOf = iterOf;
  const its = [...new Set(iterOf)].sort((a, b) => a - b);
  T.iterations = its;
  const sol = Array.isArray(res.solution) ? res.solution : [];
  T.solSet = new Set(sol);
  T.solution = sol;
  const sel = $('tree-iteration');
  sel.textContent = '';
  if (its.length > 1) {
    const counts = new Map();
    for (let i = 0; i < N; i++) counts.set(iterOf[i], (counts.get(iterOf[i]) || 0) + 1);
    for (const it of its) {
      const o = document.createElement('option');
      o.value = String(it); o.textContent = `${it} (${fmt(counts.get(it))} nodes)`;
      sel.appendChild(o);
    }
    sel.value = String(its[its.length - 1]);
    $('iteration-wrap').hidden = false;
  }
  $('tree-empty').hidden = true;
  for (const id of ['tree-play', 'tree-all', 'tree-fit', 'tree-slider']) $(id).disabled = false;
  showIteration(its[its.length - 1]);
}

function showIteration(it) {
  const data = T.data, N = data.length;
  const ids = [];
  for (let i = 0; i < N; i++) if (T.iterOf[i] === it) ids.push(i);
  const local = new Int32Array(N).fill(-1);
  ids.forEach((id, li) => { local[id] = li; });
  const n = ids.length;
  const P = T.proc.filter((p) => (typeof p.iteration === 'number' ? p.iteration : 0) === it);
  const BIG = 0x7fffffff;
  const appear = new Int32Array(n).fill(-2);
  const expand = new Int32Array(n).fill(BIG);
  P.forEach((p, j) => {
    const pl = p.parent !== null && p.parent >= 0 && p.parent < N ? local[p.parent] : -1;
    if (pl >= 0 && expand[pl] === BIG) expand[pl] = j;
    if (Array.isArray(p.children)) for (const c of p.children) { const cl = c >= 0 && c < N ? local[c] : -1; if (cl >= 0 && appear[cl] === -2) appear[cl] = j; }
  });
  const parentLocal = new Int32Array(n).fill(-1);
  for (let li = 0; li < n; li++) {
    const par = data[ids[li]].parent;
    parentLocal[li] = par !== null && par !== undefined && par >= 0 && par < N ? local[par] : -1;
  }
  for (let li = 0; li < n; li++) {
    if (appear[li] === -2) {
      const pl = parentLocal[li];
      appear[li] = pl >= 0 && expand[pl] !== BIG ? expand[pl] : -1;
    }
  }
  // Depth-first searches (expanded ids strictly increasing: each expansion is of the newest node) generate
  // a node's children one by one between the expansions of its descendants; a node then appears just before
  // the first expansion of a node generated after it, not with its parent's expansion.
  let depthFirst = P.length > 1;
  for (let j = 1; j < P.length && depthFirst; j++) if (!(P[j].parent > P[j - 1].parent)) depthFirst = false;
  if (depthFirst) {
    let j = 0;
    for (let li = 0; li < n; li++) { // ids ascend with li
      while (j < P.length && P[j].parent < ids[li]) j++;
      if (j - 1 > appear[li]) appear[li] = j - 1;
    }
  }
  T.depthFirst = depthFirst;
  // layout: d3.tree over a virtual root whose children are this iteration's roots
  const objs = ids.map((id, li) => ({ li, kids: null }));
  const vroot = { li: -1, kids: [] };
  for (let li = 0; li < n; li++) {
    const pl = parentLocal[li];
    const par = pl >= 0 ? objs[pl] : vroot;
    (par.kids || (par.kids = [])).push(objs[li]);
  }
  const { w, h } = T.board;
  const nodeW = w * CELL, nodeH = h * CELL;
  const root = d3.hierarchy(vroot.kids && vroot.kids.length === 1 ? vroot.kids[0] : vroot, (d) => d.kids);
  const xs = new Float64Array(n), ys = new Float64Array(n);
  // top-down tidy tree; a radial one when that would be far wider than high (big BFS-like trees)
  d3.tree().nodeSize([nodeW + GX, nodeH + GY]).separation((a, b) => (a.parent === b.parent ? 1 : 1.3))(root);
  let minX = Infinity, maxX = -Infinity;
  root.each((d) => { if (d.x < minX) minX = d.x; if (d.x > maxX) maxX = d.x; });
  const spanX = maxX - minX + nodeW, spanY = (root.height + 1) * (nodeH + GY);
  const mode = $('tree-layout').value;
  const radial = mode === 'radial' || (mode === 'auto' && n > 200 && spanX > 6 * spanY);
  if (radial) {
    // unit layout with the classic radial separation (1/depth): neighbours at depth d are >= 1/d apart, so with
    // angle = x * 2pi / B and radius = d * ring, their arc distance is >= ring * 2pi / B on every ring.
    d3.tree().nodeSize([1, 1]).separation((a, b) => (a.parent === b.parent ? 1 : 1.4) / Math.max(1, a.depth))(root);
    let x0 = Infinity, x1 = -Infinity;
    root.each((d) => { if (d.x < x0) x0 = d.x; if (d.x > x1) x1 = d.x; });
    const B = x1 - x0 + 1;
    const ring = Math.max(nodeH + GY, ((Math.hypot(nodeW, nodeH) + GX) * B) / (2 * Math.PI));
    root.each((d) => {
      if (d.data.li < 0) return;
      const a = ((d.x - x0) / B) * 2 * Math.PI, r = (d.depth - (root.data === vroot ? 1 : 0)) * ring;
      xs[d.data.li] = r * Math.sin(a); ys[d.data.li] = -r * Math.cos(a);
    });
  } else {
    const dy = root.data === vroot ? nodeH + GY : 0;
    root.each((d) => { if (d.data.li >= 0) { xs[d.data.li] = d.x; ys[d.data.li] = d.y - dy; } });
  }
  T.radial = radial;
  Object.assign(T, { it, ids, local, n, P, appear, expand, parentLocal, xs, ys, nodeW, nodeH, code: new Int16Array(n).fill(-1), s: -1, sel: -1 });
  T.goalLocal = T.solution.length ? local[T.solution[T.solution.length - 1]] ?? -1 : -1;
  if (T.goalLocal === undefined) T.goalLocal = -1;
  T.dup = new Uint8Array(n);
  for (let li = 0; li < n; li++) T.dup[li] = data[ids[li]].dup ? 1 : 0;
  // mini-grid definition for this board size
  defs.selectAll('*').remove();
  let gd = '';
  for (let c = 1; c < w; c++) gd += `M${c * CELL},0V${nodeH}`;
  for (let r = 1; r < h; r++) gd += `M0,${r * CELL}H${nodeW}`;
  defs.append('path').attr('id', 'mini-grid').attr('class', 'gridl').attr('d', gd);
  // node elements (one rect each, state by class)
  gNodes.selectAll('*').remove();
  gDetail.selectAll('*').remove();
  T.useCanvas = n > CANVAS_MIN;
  svg.attr('data-render', T.useCanvas ? 'canvas' : 'svg');
  const frag = document.createDocumentFragment();
  const els = new Array(T.useCanvas ? 0 : n);
  for (let li = 0; li < n && !T.useCanvas; li++) {
    const r = document.createElementNS(SVGNS, 'rect');
    r.setAttribute('x', (xs[li] - nodeW / 2).toFixed(1));
    r.setAttribute('y', (ys[li] - nodeH / 2).toFixed(1));
    r.setAttribute('width', nodeW); r.setAttribute('height', nodeH);
    r.setAttribute('rx', 2);
    r.setAttribute('data-id', ids[li]);
    r.setAttribute('class', 'node hidden');
    els[li] = r;
    frag.appendChild(r);
  }
  gNodes.node().appendChild(frag);
  T.els = els;
  const slider = $('tree-slider');
  slider.max = String(P.length);
  $('node-info').hidden = true;
  setStep(P.length);
  fit(false);
}

function setStep(s) {
  if (!T.P) return;
  s = Math.max(0, Math.min(T.P.length, s | 0));
  T.s = s;
  $('tree-slider').value = String(s);
  $('tree-step').textContent = `${s}/${T.P.length}`;
  const { n, appear, expand, dup, els, code, ids, xs, ys, nodeH, parentLocal } = T;
  const curP = s > 0 ? T.P[s - 1] : null;
  const curL = curP && curP.parent !== null && curP.parent >= 0 && curP.parent < T.data.length ? T.local[curP.parent] : -1;
  const goalShown = T.goalLocal >= 0 && appear[T.goalLocal] < s;
  let visible = 0, links = '', sol = '';
  const hb = T.radial ? 0 : nodeH / 2;
  const lb = T.radial ? 0 : 9; // top-down: links leave below the g/h/f label
  const svgMode = !T.useCanvas;
  for (let li = 0; li < n; li++) {
    const vis = appear[li] < s;
    let c = 0;
    if (vis) {
      visible++;
      c = dup[li] ? 3 : expand[li] < s ? 2 : 1;
      const onSol = goalShown && T.solSet.has(ids[li]);
      if (onSol) c |= 4;
      if (li === curL) c |= 8;
      if (li === T.sel) c |= 16;
      const pl = parentLocal[li];
      if (svgMode && pl >= 0) {
        const seg = `M${xs[pl].toFixed(1)},${(ys[pl] + hb + lb).toFixed(1)}L${xs[li].toFixed(1)},${(ys[li] - hb).toFixed(1)}`;
        if (onSol && T.solSet.has(ids[pl])) sol += seg; else links += seg;
      }
    }
    if (code[li] !== c) {
      code[li] = c;
      if (svgMode) els[li].setAttribute('class', c === 0 ? 'node hidden' : 'node ' + ['', 'gen', 'exp', 'dup'][c & 3] + (c & 4 ? ' sol' : '') + (c & 8 ? ' cur' : '') + (c & 16 ? ' sel' : ''));
    }
  }
  linkPath.attr('d', links || null);
  solPath.attr('d', sol || null);
  T.visible = visible;
  if (!svgMode) scheduleCanvas();
  const itTxt = T.iterations.length > 1 ? `iteration ${T.it}: ${fmt(n)} nodes · ` : '';
  const modes = [T.radial ? 'radial' : '', T.useCanvas ? 'drawn on canvas' : ''].filter(Boolean).join(', ');
  $('tree-shown').textContent = `${itTxt}${fmt(visible)} shown` + (modes ? ` (${modes})` : '') +
    (T.res && T.res.trace_truncated ? ' · trace truncated at the limit' : '');
  $('tree-shown').dataset.visible = String(visible);
  scheduleDetails();
}

function startPlay() {
  if (!T.P || !T.P.length) return;
  if (T.s >= T.P.length) setStep(0);
  const total = T.P.length;
  const per = Math.max(1, Math.ceil(total / 240)); // whole replay in about 12 s at most
  $('tree-play').textContent = '❚❚ Pause';
  const tick = () => {
    setStep(T.s + per);
    if (T.s >= total) { stopPlay(); return; }
    playTimer = setTimeout(tick, 50);
  };
  playTimer = setTimeout(tick, 50);
}
function stopPlay() {
  clearTimeout(playTimer); playTimer = 0;
  $('tree-play').textContent = '▶ Replay';
}

function fit(animate) {
  if (!T.n) return;
  const el = $('tree-svg');
  const W = el.clientWidth || 800, H = el.clientHeight || 500;
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let li = 0; li < T.n; li++) {
    if (T.xs[li] < x0) x0 = T.xs[li];
    if (T.xs[li] > x1) x1 = T.xs[li];
    if (T.ys[li] < y0) y0 = T.ys[li];
    if (T.ys[li] > y1) y1 = T.ys[li];
  }
  x0 -= T.nodeW; x1 += T.nodeW; y0 -= T.nodeH; y1 += T.nodeH + 12;
  const kk = Math.max(1e-4, Math.min(3, (W - 20) / (x1 - x0), (H - 20) / (y1 - y0)));
  const tx = W / 2 - ((x0 + x1) / 2) * kk;
  const ty = (H - (y1 - y0) * kk) / 2 - y0 * kk;
  const t = d3.zoomIdentity.translate(tx, Math.max(10 - y0 * kk, ty)).scale(kk);
  const sel = svg;
  if (animate) sel.transition().duration(350).call(T.zoom.transform, t);
  else sel.call(T.zoom.transform, t);
}

function scheduleCanvas() {
  if (canvasRaf) return;
  canvasRaf = requestAnimationFrame(() => { canvasRaf = 0; drawCanvas(); });
}
/** Canvas rendering for big iterations: only what is in view, nodes at least 2 px, links 1 px. */
function drawCanvas() {
  const cv = $('tree-canvas');
  if (!T.useCanvas && !canvasDrawn) return;
  const dpr = window.devicePixelRatio || 1;
  const W = cv.clientWidth, H = cv.clientHeight;
  if (cv.width !== Math.round(W * dpr) || cv.height !== Math.round(H * dpr)) { cv.width = Math.round(W * dpr); cv.height = Math.round(H * dpr); }
  if (!T.useCanvas && !canvasDrawn) return; // never used: nothing to clear (and no 2d context to create)
  const ctx = cv.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, cv.width, cv.height);
  canvasDrawn = false;
  if (!T.useCanvas || !T.n || !T.t) return;
  canvasDrawn = true;
  const { n, xs, ys, code, parentLocal, nodeW, nodeH } = T;
  const t = T.t, k = t.k;
  ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * t.x, dpr * t.y);
  const x0 = -t.x / k - nodeW, x1 = (W - t.x) / k + nodeW, y0 = -t.y / k - nodeH, y1 = (H - t.y) / k + nodeH;
  const inView = new Uint8Array(n);
  for (let li = 0; li < n; li++) inView[li] = code[li] > 0 && xs[li] >= x0 && xs[li] <= x1 && ys[li] >= y0 && ys[li] <= y1 ? 1 : 0;
  const hb = T.radial ? 0 : nodeH / 2;
  const links = (solOnly) => {
    ctx.beginPath();
    for (let li = 0; li < n; li++) {
      const pl = parentLocal[li];
      if (pl < 0 || code[li] === 0 || !(inView[li] || inView[pl])) continue;
      const sol = (code[li] & 4) && (code[pl] & 4);
      if (!!sol !== solOnly) continue;
      ctx.moveTo(xs[pl], ys[pl] + hb + (T.radial ? 0 : 9));
      ctx.lineTo(xs[li], ys[li] - hb);
    }
    ctx.stroke();
  };
  ctx.lineWidth = 1 / k; ctx.strokeStyle = '#b6c0cc';
  links(false);
  ctx.lineWidth = 3 / k; ctx.strokeStyle = '#f59e0b';
  links(true);
  const big = k * nodeW >= 4;
  const w = Math.max(nodeW, 2 / k), h = Math.max(nodeH, 2 / k);
  const styles = [null, ['#ffffff', '#64748b', '#64748b'], ['#dbeafe', '#2563eb', '#2563eb'], ['#f8fafc', '#b0b8c4', '#cbd5e1']];
  for (let cat = 1; cat <= 3; cat++) {
    ctx.beginPath();
    for (let li = 0; li < n; li++) if (inView[li] && (code[li] & 3) === cat) ctx.rect(xs[li] - w / 2, ys[li] - h / 2, w, h);
    const st = styles[cat];
    if (big) {
      ctx.fillStyle = st[0]; ctx.fill();
      ctx.setLineDash(cat === 3 ? [3 / k, 2 / k] : []);
      ctx.lineWidth = 1.2 / k; ctx.strokeStyle = st[1]; ctx.stroke();
      ctx.setLineDash([]);
    } else { ctx.fillStyle = st[2]; ctx.fill(); }
  }
  const outline = (mask, color, width) => {
    ctx.beginPath();
    for (let li = 0; li < n; li++) if (inView[li] && (code[li] & mask)) ctx.rect(xs[li] - w / 2, ys[li] - h / 2, w, h);
    ctx.lineWidth = width / k; ctx.strokeStyle = color; ctx.stroke();
  };
  outline(4, '#f59e0b', 2.5);
  outline(8, '#dc2626', 3);
  outline(16, '#7c3aed', 3);
}
/** The node under a point in tree coordinates (canvas mode), or -1. */
function nodeAt([px, py]) {
  const k = T.t.k;
  const w = Math.max(T.nodeW, 6 / k) / 2, h = Math.max(T.nodeH, 6 / k) / 2;
  let best = -1, bestD = Infinity;
  for (let li = 0; li < T.n; li++) {
    if (!T.code[li]) continue;
    const dx = Math.abs(T.xs[li] - px), dy = Math.abs(T.ys[li] - py);
    if (dx <= w && dy <= h && dx + dy < bestD) { bestD = dx + dy; best = li; }
  }
  return best < 0 ? -1 : T.ids[best];
}

function scheduleDetails() {
  if (detailRaf) return;
  detailRaf = requestAnimationFrame(() => { detailRaf = 0; drawDetails(); });
}
/** Mini boards with numbers and g/h/f only for nodes in view and only when they are big enough to read. */
function drawDetails() {
  if (!T.n || !T.t) { if (gDetail) gDetail.selectAll('*').remove(); return; }
  const k = T.t.k;
  const el = $('tree-svg');
  const W = el.clientWidth, H = el.clientHeight;
  let list = [];
  if (k * CELL >= 6) {
    const x0 = (-T.t.x) / k - T.nodeW, x1 = (W - T.t.x) / k + T.nodeW;
    const y0 = (-T.t.y) / k - T.nodeH, y1 = (H - T.t.y) / k + T.nodeH;
    for (let li = 0; li < T.n; li++) {
      if (T.code[li] <= 0) continue;
      const x = T.xs[li], y = T.ys[li];
      if (x < x0 || x > x1 || y < y0 || y > y1) continue;
      list.push(li);
      if (list.length > 900) { list = []; break; }
    }
  }
  const { w, h } = T.board;
  const data = T.data, ids = T.ids;
  const fs = T.board.n > 10 ? CELL * 0.56 : CELL * 0.78;
  gDetail.selectAll('g.detail').data(list, (li) => li).join(
    (enter) => {
      const g = enter.append('g')
        .attr('class', (li) => 'detail' + (T.dup[li] ? ' dup' : ''))
        .attr('transform', (li) => `translate(${(T.xs[li] - T.nodeW / 2).toFixed(1)},${(T.ys[li] - T.nodeH / 2).toFixed(1)})`);
      g.each(function (li) {
        const node = data[ids[li]];
        const st = Array.isArray(node.state) ? node.state : [];
        const sel = d3.select(this);
        const b = st.indexOf(0);
        if (b >= 0) sel.append('rect').attr('class', 'blank').attr('x', (b % w) * CELL).attr('y', Math.floor(b / w) * CELL).attr('width', CELL).attr('height', CELL);
        sel.append('use').attr('href', '#mini-grid');
        for (let r = 0; r < h; r++) {
          let txt = '';
          const xsList = [];
          for (let c = 0; c < w; c++) {
            const v = st[r * w + c];
            if (!v) continue;
            const s = String(v);
            const cx = c * CELL + CELL / 2;
            const cw = fs * 0.6;
            for (let q = 0; q < s.length; q++) xsList.push((cx - (s.length * cw) / 2 + q * cw + cw / 2).toFixed(2));
            txt += s;
          }
          if (txt) {
            sel.append('text').attr('class', 'cells').attr('x', xsList.join(' ')).attr('y', r * CELL + CELL / 2)
              .attr('dy', '0.35em').attr('text-anchor', 'middle').style('font-size', fs + 'px').text(txt);
          }
        }
        const hh = node.h === undefined || node.h === null ? '' : ` h${node.h}`;
        const ff = node.f === undefined || node.f === null ? '' : ` f${fmtNum(node.f)}`;
        sel.append('text').attr('class', 'gh').attr('x', T.nodeW / 2).attr('y', T.nodeH + 7).attr('text-anchor', 'middle')
          .style('font-size', '6.5px').text(`g${node.g}${hh}${ff}`);
      });
      return g;
    },
    (update) => update,
    (exit) => exit.remove(),
  );
}
const fmtNum = (v) => (Number.isInteger(v) ? String(v) : Number(v).toFixed(1));

function selectNode(id) {
  const box = $('node-info');
  if (!T.n || id < 0 || T.local[id] === undefined || T.local[id] < 0) {
    if (T.sel >= 0) { T.sel = -1; setStep(T.s); }
    box.hidden = true; return;
  }
  const li = T.local[id];
  T.sel = li;
  setStep(T.s);
  const node = T.data[id];
  const st = Array.isArray(node.state) ? node.state : [];
  const { w } = T.board;
  let grid = '';
  const width = String(T.board.n - 1).length;
  for (let i = 0; i < st.length; i += w) grid += st.slice(i, i + w).map((v) => (v ? String(v) : '·').padStart(width)).join(' ') + '\n';
  const gen = T.appear[li] >= 0 ? `generated by expansion ${T.appear[li] + 1}` : 'root';
  const exp = T.expand[li] !== 0x7fffffff ? `expanded as number ${T.expand[li] + 1}` : node.dup ? 'duplicate, discarded' : 'never expanded';
  box.textContent = '';
  const title = document.createElement('div');
  title.innerHTML = '';
  title.textContent = `node #${id}` + (T.iterations.length > 1 ? ` · iteration ${T.it}` : '') + (T.solSet.has(id) ? ' · on the solution path' : '');
  title.style.fontWeight = '600';
  const vals = document.createElement('div');
  vals.textContent = `g = ${node.g}   h = ${node.h ?? '–'}   f = ${node.f ?? '–'}`;
  const pre = document.createElement('div');
  pre.className = 'mono'; pre.textContent = grid.trimEnd();
  const more = document.createElement('div');
  more.className = 'muted';
  more.textContent = `${gen}; ${exp}` + (node.parent !== null && node.parent !== undefined ? `; parent #${node.parent}` : '');
  box.append(title, vals, pre, more);
  box.hidden = false;
}

/** For tests and the console: what the tree shows. */
export function inspect() {
  return { n: T.n || 0, step: T.s, steps: T.P ? T.P.length : 0, visible: T.visible || 0, render: T.useCanvas ? 'canvas' : 'svg',
    radial: !!T.radial, transform: T.t ? { x: T.t.x, y: T.t.y, k: T.t.k } : null, iteration: T.it };
}
/** Screen position (relative to the tree svg) of a trace node id, or null. */
export function screenPos(id) {
  if (!T.n || !T.t || !T.local || T.local[id] === undefined || T.local[id] < 0) return null;
  const li = T.local[id];
  return { x: T.t.applyX(T.xs[li]), y: T.t.applyY(T.ys[li]) };
}

/** Redraw what depends on the view's size (after a window resize). */
export function redraw() { scheduleDetails(); scheduleCanvas(); }
