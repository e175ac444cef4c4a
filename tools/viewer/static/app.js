/* tilespace viewer: plain ES2020, no build step. Needs d3 v7 (loaded before this file from /vendor/d3.min.js).
 * Talks to `tilespace serve` (see tools/viewer/API.md). Never throws on bad input: every error is shown inline. */
(() => {
  'use strict';

  // ---------------------------------------------------------------- utilities
  const $ = (id) => document.getElementById(id);
  // thousands separators without toLocaleString (its first call loads ICU data: tens of ms at startup)
  const fmt = (n) => {
    if (n === null || n === undefined || Number.isNaN(Number(n))) return '–';
    const [i, f] = String(Number(n)).split('.');
    return i.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f ? '.' + f : '');
  };
  const BOARDS = ['2x3', '3x2', '2x4', '4x2', '3x3', '2x5', '5x2', '3x4', '4x3', '2x6', '6x2', '2x7', '7x2', '3x5', '5x3', '2x8', '8x2', '4x4'];
  const SPEEDS = [0.5, 1, 2, 3, 5, 8, 15]; // moves per second
  const STATE_PARAMS = new Set(['start', 'goal']);
  const SVGNS = 'http://www.w3.org/2000/svg';
  const hasD3 = typeof window.d3 === 'object' && window.d3 && typeof window.d3.select === 'function';

  function debounce(fn, ms) {
    let t = 0;
    return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
  }
  function parseBoard(s) {
    const m = /^(\d+)x(\d+)$/.exec(String(s || '').trim());
    if (!m) return null;
    const w = +m[1], h = +m[2];
    if (w < 2 || h < 2 || w * h > 25) return null;
    return { w, h, n: w * h, name: `${w}x${h}` };
  }
  function canonicalGoal(n) { const g = []; for (let i = 1; i < n; i++) g.push(i); g.push(0); return g; }
  const stateText = (t) => t.join(' ');
  const stateKey = (t) => t.join(',');
  function factorialHalf(n) { let f = 1; for (let i = 2; i <= n; i++) f *= i; return f / 2; }

  /** Parse a state typed by the user. Returns {tiles} or {error}. */
  function parseTiles(text, board) {
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
  function solvable(start, goal, w) {
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
  function neighbourCells(cell, w, h) {
    const r = Math.floor(cell / w), c = cell % w, out = [];
    if (r > 0) out.push(cell - w);
    if (r < h - 1) out.push(cell + w);
    if (c > 0) out.push(cell - 1);
    if (c < w - 1) out.push(cell + 1);
    return out;
  }
  function scramble(goal, w, h, moves) {
    const s = goal.slice();
    let prev = -1;
    for (let i = 0; i < moves; i++) {
      const b = s.indexOf(0);
      const opts = neighbourCells(b, w, h).filter((c) => c !== prev);
      const c = opts[Math.floor(Math.random() * opts.length)];
      s[b] = s[c]; s[c] = 0; prev = b;
    }
    return s;
  }

  /** fetch wrapper that never throws: {ok, status, data} or {ok:false, status, error, param, aborted}. */
  async function api(path, params, opts = {}) {
    const qs = Object.entries(params || {})
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : encodeURIComponent(v)}`)
      .join('&');
    const url = path + (qs ? '?' + qs : '');
    const boot = window.__tsBoot;
    let resp;
    try {
      if (boot && boot[url]) { const p = boot[url]; delete boot[url]; resp = await p; } // started by index.html
      else resp = await fetch(url, { signal: opts.signal, cache: 'no-store' });
    } catch (e) {
      if (e && e.name === 'AbortError') return { ok: false, aborted: true, status: 0, error: 'aborted' };
      return { ok: false, status: 0, error: 'the server does not answer (is `tilespace serve` running?)' };
    }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (!resp.ok) {
      return { ok: false, status: resp.status, error: (data && data.error) || `HTTP ${resp.status} ${resp.statusText || ''}`.trim(), param: data && data.param };
    }
    if (!data || typeof data !== 'object') return { ok: false, status: resp.status, error: 'the server sent something that is not JSON' };
    return { ok: true, status: resp.status, data };
  }

  function setStatus(msg, isError) {
    const el = $('status');
    el.textContent = msg || '';
    el.classList.toggle('error', !!isError);
    el.title = msg || '';
  }

  // ------------------------------------------------------------------ state
  const S = {
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
  const instKey = (b, s, g) => `${b}|${stateKey(s)}|${stateKey(g)}`;
  const tableKey = (b, g) => `${b}|${stateKey(g)}`;

  // ---------------------------------------------------------- inline errors
  const FIELD_ERRORS = {
    start: ['start-error', 'start-input'],
    goal: ['goal-error', 'goal-input'],
    board: ['board-error', 'board-select'],
    algorithm: ['solver-error', 'algorithm-select'],
    heuristic: ['solver-error', 'heuristic-select'],
    weight: ['solver-error', 'weight-input'],
    depth_limit: ['solver-error', 'depth-input'],
    trace_limit: ['solver-error', 'trace-limit-input'],
    max_seconds: ['solver-error', null],
    max_nodes: ['solver-error', null],
  };
  function setFieldError(param, msg) {
    const spec = FIELD_ERRORS[param] || ['solver-error', null];
    const el = $(spec[0]);
    el.textContent = msg || '';
    if (spec[1]) $(spec[1]).classList.toggle('invalid', !!msg);
  }
  function clearSolverErrors() {
    for (const p of ['algorithm', 'heuristic', 'weight', 'depth_limit', 'trace_limit']) setFieldError(p, '');
  }
  /** Show an API failure next to the field it names, or in the given fallback slot. */
  function showApiError(r, fallback) {
    if (r.aborted) return;
    const msg = r.status === 0 ? r.error : r.error + (r.status === 503 ? ' (try again in a moment)' : '');
    if (r.param && FIELD_ERRORS[r.param]) setFieldError(r.param, msg);
    else if (fallback) { $(fallback).textContent = msg; }
    else setStatus(msg, true);
    if (r.status === 0) setStatus(r.error, true);
  }

  // ------------------------------------------------------- instance editing
  function populateBoards() {
    const sel = $('board-select');
    sel.textContent = '';
    for (const b of BOARDS) {
      const o = document.createElement('option');
      o.value = b; o.textContent = b.replace('x', ' × ');
      sel.appendChild(o);
    }
    sel.value = S.board.name;
  }
  function ensureBoardOption(name) {
    const sel = $('board-select');
    if (![...sel.options].some((o) => o.value === name)) {
      const o = document.createElement('option');
      o.value = name; o.textContent = name.replace('x', ' × ');
      sel.appendChild(o);
    }
    sel.value = name;
  }
  function updateBoardNote() {
    $('board-note').textContent = `${S.board.n - 1}-puzzle · ${fmt(factorialHalf(S.board.n))} states`;
  }

  /** Parse both fields, mark errors, update S.start/S.goal. Returns true when both are valid. */
  function readFields() {
    const a = parseTiles($('start-input').value, S.board);
    const b = parseTiles($('goal-input').value, S.board);
    setFieldError('start', a.error ? 'start: ' + a.error : '');
    setFieldError('goal', b.error ? 'goal: ' + b.error : '');
    if (a.tiles) S.start = a.tiles;
    if (b.tiles) S.goal = b.tiles;
    return !a.error && !b.error;
  }
  function writeFields() {
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
    const movable = new Set(neighbourCells(blank, w, h));
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
      if (!neighbourCells(b, w, h).includes(cur)) return;
      const next = tiles.slice();
      next[b] = d.t; next[cur] = 0;
      onChange(next);
    });
  }
  function drawEditors() {
    drawEditor('start-editor', S.start, (s) => { S.start = s; writeFields(); instanceChanged(); });
    drawEditor('goal-editor', S.goal, (g) => { S.goal = g; writeFields(); instanceChanged(); });
  }

  /** Called after any change of board, start or goal (fields, editors, buttons). */
  function instanceChanged(opts = {}) {
    const ok = readFields();
    $('instance-error').textContent = '';
    if (!ok) { $('start-depth').textContent = ''; return; }
    drawEditors();
    const key = instKey(S.board.name, S.start, S.goal);
    if (S.result && S.resultKey !== key && !opts.keepResult) clearResult('Instance changed: press Solve.');
    if (!S.result) drawAnimBoard(S.start, null, false);
    if (S.compareKey && S.compareKey !== key) { abortCompare(); clearCompare('Instance changed: press “Compare all” again.'); }
    saveHash();
    refreshTables();
  }
  /** The instance in the address (#board=3x3&start=...&goal=...), so a reload or a shared link shows it again. */
  function saveHash() {
    const h = `#board=${S.board.name}&start=${S.start.join(',')}&goal=${S.goal.join(',')}`;
    if (location.hash !== h) { try { history.replaceState(null, '', h); } catch (e) { /* file:// or sandboxed */ } }
  }
  function loadHash() {
    const q = new URLSearchParams(location.hash.replace(/^#/, ''));
    const b = parseBoard(q.get('board') || '');
    if (!b) return;
    const st = parseTiles(q.get('start') || '', b), gl = parseTiles(q.get('goal') || '', b);
    if (st.error || gl.error) return;
    S.board = b; S.start = st.tiles; S.goal = gl.tiles;
  }
  const refreshTables = debounce(() => { loadTables(); }, 120);

  /** Fetch stats (cached) and the start's depth; draw the histogram. Resolves when drawn. */
  async function loadTables() {
    const gen = ++S.instGen;
    const board = S.board, start = S.start.slice(), goal = S.goal.slice();
    const reach = solvable(start, goal, board.w);
    const tk = tableKey(board.name, goal);
    $('start-depth').textContent = reach ? 'optimal distance …' : '';
    if (!reach) setDepthText(null, false);
    const statsP = S.statsCache.has(tk) ? Promise.resolve(S.statsCache.get(tk))
      : api('/api/stats', { board: board.name, goal }).then((r) => {
        const v = r.ok ? r.data : { error: r.error, status: r.status, param: r.param };
        if (r.ok || r.status === 400 || r.status === 404) S.statsCache.set(tk, v);
        return v;
      });
    const depthP = reach ? queryDistance(board.name, goal, start) : Promise.resolve(null);
    const [stats, depth] = await Promise.all([statsP, depthP]);
    if (gen !== S.instGen) return;
    S.stats = stats && !stats.error ? stats : null;
    S.startDepth = depth;
    const noTable = !!(stats && stats.error && stats.status === 404);
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
    if (depth === undefined || depth === null) { el.textContent = noTable ? 'optimal distance: no table' : 'optimal distance: ?'; return; }
    el.textContent = `optimal distance: ${depth}`;
  }

  /** Optimal distance of one state from the table (cached). null when unknown. */
  async function queryDistance(board, goal, state, signal) {
    const k = `${board}|${stateKey(goal)}|${stateKey(state)}`;
    if (S.distCache.has(k)) return S.distCache.get(k);
    const r = await api('/api/query', { board, start: state, goal }, { signal });
    if (!r.ok) return null;
    const v = r.data.reachable === false ? null : (typeof r.data.length === 'number' ? r.data.length : null);
    S.distCache.set(k, v);
    return v;
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
    head.textContent = `Hardest (${st.radius} moves, ${fmt(total)} state${total === 1 ? '' : 's'})…`;
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

  // ---------------------------------------------------------- solver inputs
  function currentAlgo() {
    const name = $('algorithm-select').value;
    return (S.info && S.info.algorithms.find((a) => a.name === name)) || { name, optimal: false, uses_heuristic: true };
  }
  function populateSolverSelects(info) {
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
    updateSolverInputs();
  }
  function updateSolverInputs() {
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
  function solveParams(algo, withTrace) {
    const p = { board: S.board.name, start: S.start, goal: S.goal, algorithm: algo.name };
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

  async function solve() {
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

  // ------------------------------------------------------------- results
  function clearResult(note) {
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
  function loadResult(res, sourceLabel) {
    const board = parseBoard(res.board) || S.board;
    const path = Array.isArray(res.path) ? res.path.filter((s) => Array.isArray(s) && s.length === board.n) : [];
    S.result = res;
    S.resultBoard = board;
    S.resultKey = instKey(board.name, res.start || S.start, res.goal || S.goal);
    $('result-source').textContent = sourceLabel ? '— ' + sourceLabel : '';
    renderSummary(res);
    stopAnim();
    A.path = path;
    A.k = 0;
    A.goal = Array.isArray(res.goal) ? res.goal : S.goal;
    A.dist = new Array(path.length).fill(undefined);
    renderMoves(res.moves || '');
    const n = path.length - 1;
    if (n >= 0 && Array.isArray(res.remaining) && res.remaining.length === path.length) {
      for (let k = 0; k <= n; k++) A.dist[k] = typeof res.remaining[k] === 'number' ? res.remaining[k] : null;
    } else if (n >= 0 && typeof res.length === 'number' && res.length === n && !res.stopped &&
      (res.optimal_length === res.length || (res.optimal_length == null && provenOptimal(res)))) {
      for (let k = 0; k <= n; k++) A.dist[k] = n - k; // every suffix of an optimal path is optimal
    } else if (n >= 0) {
      fillDistances(board.name, A.goal, path);
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
  function bytes(b) {
    if (b < 1024) return b + ' B';
    if (b < 1048576) return (b / 1024).toFixed(1) + ' KiB';
    return (b / 1048576).toFixed(1) + ' MiB';
  }
  function ms(v) {
    if (v < 1) return v.toFixed(3) + ' ms';
    if (v < 1000) return v.toFixed(v < 10 ? 2 : 1) + ' ms';
    return (v / 1000).toFixed(2) + ' s';
  }

  /** Remaining optimal distances along a (possibly non-optimal) path: /api/query per state, 8 at a time. */
  async function fillDistances(board, goal, path) {
    const res = S.result;
    let next = 0;
    const worker = async () => {
      while (next < path.length && S.result === res) {
        const i = next++;
        const d = await queryDistance(board, goal, path[i]);
        if (S.result !== res) return;
        A.dist[i] = d === null ? null : d;
        if (i === A.k) updateStepInfo();
      }
    };
    await Promise.all(Array.from({ length: Math.min(8, path.length) }, worker));
    if (S.result === res) updateStepInfo();
  }

  // ------------------------------------------------------------- animation
  const A = { path: [], k: 0, dist: [], playing: false, timer: 0, goal: null };

  function boardGeometry(board) {
    const cell = Math.floor(Math.max(30, Math.min(76, 250 / board.w, 250 / board.h)));
    return { cell, pad: 6, width: board.w * cell + 12, height: board.h * cell + 12 };
  }
  /** Draw the big board. prev: the state before (to animate), or null to jump. */
  function drawAnimBoard(state, prev, animate, boardOpt) {
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
    const movedTile = prev ? state[prev.indexOf(0)] : -1;
    const sel = gTiles.selectAll('g.tile').data(items, (d) => d.t);
    sel.exit().remove();
    const pos = (d) => `translate(${pad + (d.i % board.w) * cell},${pad + Math.floor(d.i / board.w) * cell})`;
    const enter = sel.enter().append('g').attr('class', 'tile').attr('data-tile', (d) => d.t).attr('transform', pos);
    enter.append('rect').attr('x', 2).attr('y', 2).attr('rx', 6);
    enter.append('text');
    const all = enter.merge(sel);
    all.attr('data-cell', (d) => d.i)
      .classed('home', (d) => goal && goal[d.i] === d.t)
      .classed('moving', (d) => d.t === movedTile);
    all.select('rect').attr('width', cell - 4).attr('height', cell - 4);
    all.select('text').attr('x', cell / 2).attr('y', cell / 2).style('font-size', `${Math.round(cell * 0.38)}px`).text((d) => d.t);
    if (animate) {
      all.interrupt().transition().duration(A.duration || 200).ease(d3.easeCubicOut).attr('transform', pos);
    } else {
      all.interrupt().attr('transform', pos);
    }
  }

  function speed() { return SPEEDS[+$('speed-input').value] || 2; }
  function updateSpeedLabel() { const s = speed(); $('speed-label').textContent = (s < 1 ? s.toFixed(1) : s) + '/s'; }

  function setStep(k, animate) {
    const n = A.path.length - 1;
    if (n < 0) return;
    k = Math.max(0, Math.min(n, k));
    const oldK = A.k;
    A.k = k;
    A.duration = Math.min(260, (1000 / speed()) * 0.75);
    drawAnimBoard(A.path[k], animate && Math.abs(k - oldK) === 1 ? A.path[oldK] : null, animate);
    updateStepInfo();
  }

  function updateStepInfo() {
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
    $('goal-banner').textContent = atGoal ? `Goal reached in ${n} move${n === 1 ? '' : 's'}` : '';
    d3.select('#anim-board').classed('solved', !!atGoal);
    drawProfile();
    const spans = $('moves').children;
    for (let i = 0; i < spans.length; i++) spans[i].className = i < A.k - 1 ? 'done' : i === A.k - 1 ? 'now' : '';
    const now = spans[A.k - 1];
    if (now && now.scrollIntoView && A.playing) { const box = $('moves'); if (now.offsetTop > box.scrollTop + box.clientHeight - 20 || now.offsetTop < box.scrollTop) box.scrollTop = now.offsetTop - 20; }
    setAnimButtons();
  }
  /** Small chart under the board: the table's optimal distance at every step vs the moves left on this path. */
  function drawProfile() {
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
  function renderMoves(moves) {
    const box = $('moves');
    box.textContent = '';
    const frag = document.createDocumentFragment();
    [...moves].forEach((m, i) => {
      const s = document.createElement('span');
      s.textContent = m;
      s.title = `move ${i + 1}: blank goes ${{ U: 'up', D: 'down', L: 'left', R: 'right' }[m] || m}`;
      s.addEventListener('click', () => { stopAnim(); setStep(i + 1, false); });
      frag.appendChild(s);
    });
    box.appendChild(frag);
    box.scrollTop = 0;
  }
  function play() {
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
  function stopAnim() {
    A.playing = false;
    clearTimeout(A.timer);
    setAnimButtons();
  }

  // -------------------------------------------------------------- histogram
  function chartSize(svgEl) {
    const r = svgEl.getBoundingClientRect();
    return { width: Math.max(200, r.width), height: Math.max(100, r.height) };
  }
  function drawHistogram() {
    const svgEl = $('hist-svg');
    const svg = d3.select(svgEl);
    svg.selectAll('*').remove();
    const st = S.stats;
    const { width, height } = chartSize(svgEl);
    if (!st || !Array.isArray(st.histogram)) {
      $('hist-caption').textContent = '';
      svg.append('text').attr('class', 'empty').attr('x', width / 2).attr('y', height / 2).attr('text-anchor', 'middle')
        .text('No histogram for this board and goal.');
      return;
    }
    const hist = st.histogram;
    $('hist-caption').textContent = `${fmt(st.states)} states · radius ${st.radius} · mean ${typeof st.mean === 'number' ? st.mean.toFixed(2) : '–'} · x: moves from the goal`;
    const m = { l: 50, r: 12, t: 14, b: 24 };
    const logScale = $('hist-log').checked;
    const x = d3.scaleBand().domain(d3.range(hist.length)).range([m.l, width - m.r]).paddingInner(0.12);
    const maxv = d3.max(hist) || 1;
    const y = logScale ? d3.scaleLog().domain([0.8, maxv * 1.3]).range([height - m.b, m.t]).clamp(true)
      : d3.scaleLinear().domain([0, maxv * 1.05]).range([height - m.b, m.t]).nice();
    const yTicks = logScale ? y.ticks(5).filter((v) => Number.isInteger(Math.log10(v))) : y.ticks(5);
    svg.append('g').attr('class', 'grid').attr('transform', `translate(${m.l},0)`)
      .call(d3.axisLeft(y).tickValues(yTicks).tickSize(-(width - m.l - m.r)).tickFormat(''));
    svg.append('g').attr('class', 'axis').attr('transform', `translate(${m.l},0)`)
      .call(d3.axisLeft(y).tickValues(yTicks).tickFormat(d3.format(logScale ? '~s' : '~s')));
    const every = Math.max(1, Math.ceil(hist.length / Math.max(1, (width - m.l - m.r) / 22)));
    svg.append('g').attr('class', 'axis').attr('transform', `translate(0,${height - m.b})`)
      .call(d3.axisBottom(x).tickValues(x.domain().filter((d) => d % every === 0)).tickSizeOuter(0));
    const depth = S.startDepth;
    svg.append('g').selectAll('rect').data(hist.map((v, i) => ({ v, i }))).join('rect')
      .attr('class', (d) => 'bar' + (d.i === depth ? ' at-start' : ''))
      .attr('x', (d) => x(d.i)).attr('width', x.bandwidth())
      .attr('y', (d) => y(Math.max(d.v, logScale ? 0.8 : 0)))
      .attr('height', (d) => Math.max(0, height - m.b - y(Math.max(d.v, logScale ? 0.8 : 0))))
      .append('title').text((d) => `depth ${d.i}: ${fmt(d.v)} state${d.v === 1 ? '' : 's'}`);
    if (typeof depth === 'number' && depth < hist.length) {
      const cx = x(depth) + x.bandwidth() / 2;
      const g = svg.append('g').attr('class', 'marker').attr('data-testid', 'hist-marker').attr('data-depth', depth);
      g.append('line').attr('x1', cx).attr('x2', cx).attr('y1', m.t - 4).attr('y2', height - m.b);
      const right = cx < width - 110;
      g.append('text').attr('x', cx + (right ? 5 : -5)).attr('y', m.t + 4).attr('text-anchor', right ? 'start' : 'end')
        .text(`start: ${depth} (${fmt(hist[depth])} states)`);
    }
  }

  // ------------------------------------------------------------- comparison
  function abortCompare() { if (S.compareCtl) { S.compareCtl.abort(); S.compareCtl = null; } }
  function clearCompare(msg) {
    S.compareRows = null; S.compareKey = '';
    drawCompare();
    $('compare-status').textContent = msg || '';
    $('compare-button').textContent = 'Compare all';
  }
  async function runCompare() {
    if (S.compareCtl) { abortCompare(); $('compare-status').textContent = 'stopped'; $('compare-button').textContent = 'Compare all'; return; }
    if (!readFields() || !S.info) return;
    const ctl = new AbortController();
    S.compareCtl = ctl;
    S.compareKey = instKey(S.board.name, S.start, S.goal);
    const algos = S.info.algorithms || [];
    const heur = $('heuristic-select').value;
    S.compareRows = algos.map((a) => ({ name: a.name, optimal: a.optimal, heuristic: a.uses_heuristic ? heur : null, state: 'pending' }));
    $('compare-button').textContent = 'Stop';
    drawCompare();
    for (let i = 0; i < algos.length; i++) {
      if (ctl.signal.aborted) return;
      const row = S.compareRows[i];
      row.state = 'running';
      $('compare-status').textContent = `running ${row.name} (${i + 1}/${algos.length})…`;
      drawCompare();
      const params = solveParams(algos[i], false);
      if (algos[i].uses_heuristic) params.heuristic = heur;
      params.max_seconds = 5;
      let r;
      for (let attempt = 0; attempt < 4; attempt++) {
        r = await api('/api/solve', params, { signal: ctl.signal });
        if (r.ok || r.status !== 503) break;
        await new Promise((res) => setTimeout(res, 400 * (attempt + 1)));
      }
      if (ctl.signal.aborted || r.aborted) return;
      if (r.ok) Object.assign(row, { state: 'done', res: r.data });
      else Object.assign(row, { state: 'error', error: r.error });
      drawCompare();
    }
    if (S.compareCtl === ctl) {
      S.compareCtl = null;
      $('compare-button').textContent = 'Compare all';
      const opt = S.compareRows.find((r) => r.res && typeof r.res.optimal_length === 'number');
      $('compare-status').textContent = `done: ${algos.length} algorithms, max 5 s each` + (opt ? ` · optimal length ${opt.res.optimal_length}` : '') +
        (heur ? ` · heuristic ${heur}` : '');
    }
  }
  function drawCompare() {
    const svgEl = $('compare-svg');
    const svg = d3.select(svgEl);
    svg.selectAll('*').remove();
    const rows = S.compareRows;
    const { width, height } = chartSize(svgEl);
    if (!rows) {
      svg.append('text').attr('class', 'empty').attr('x', width / 2).attr('y', height / 2).attr('text-anchor', 'middle')
        .text('Nodes expanded and time of every algorithm on this instance will be charted here.');
      return;
    }
    const defs = svg.append('defs');
    const pat = defs.append('pattern').attr('id', 'hatch').attr('patternUnits', 'userSpaceOnUse').attr('width', 6).attr('height', 6)
      .attr('patternTransform', 'rotate(45)');
    pat.append('rect').attr('width', 6).attr('height', 6).attr('fill', '#fde2e2');
    pat.append('line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6).attr('stroke', '#ef4444').attr('stroke-width', 2);
    const m = { l: 74, r: 8, t: 18, b: 22 };
    const resW = 150;
    const plotW = width - m.l - m.r - resW;
    const gap = 18;
    const panelW = (plotW - gap) / 2;
    const y = d3.scaleBand().domain(rows.map((r) => r.name)).range([m.t, height - m.b]).paddingInner(0.22);
    const done = rows.filter((r) => r.res);
    const maxExp = d3.max(done, (r) => Math.max(1, r.res.expanded || 0)) || 10;
    const maxT = d3.max(done, (r) => Math.max(0.001, (r.res.seconds || 0) * 1000)) || 1;
    const xe = d3.scaleLog().domain([1, Math.max(10, maxExp * 1.5)]).range([0, panelW]).clamp(true);
    const minT = Math.min(0.01, d3.min(done, (r) => Math.max(0.001, (r.res.seconds || 0) * 1000)) || 0.01);
    const xt = d3.scaleLog().domain([minT, Math.max(minT * 10, maxT * 1.5)]).range([0, panelW]).clamp(true);
    const p1 = m.l, p2 = m.l + panelW + gap;
    const sel = $('algorithm-select').value;
    svg.append('g').selectAll('text').data(rows).join('text')
      .attr('class', (r) => 'rowname' + (r.name === sel ? ' cur' : ''))
      .attr('x', m.l - 6).attr('y', (r) => y(r.name) + y.bandwidth() / 2).attr('dy', '0.35em').attr('text-anchor', 'end')
      .text((r) => r.name);
    const decades = (scale) => {
      const [a, b] = scale.domain();
      const out = [];
      for (let e = Math.ceil(Math.log10(a) - 1e-9); e <= Math.floor(Math.log10(b) + 1e-9); e++) out.push(10 ** e);
      const step = Math.ceil(out.length / 6);
      return out.filter((_, i) => i % step === 0);
    };
    const panel = (x0, scale, title, cls, val, label, tickFmt) => {
      const g = svg.append('g').attr('transform', `translate(${x0},0)`);
      const ticks = decades(scale);
      g.append('g').attr('class', 'grid').attr('transform', `translate(0,${height - m.b})`)
        .call(d3.axisBottom(scale).tickValues(ticks).tickSize(-(height - m.b - m.t)).tickFormat(''));
      g.append('g').attr('class', 'axis').attr('transform', `translate(0,${height - m.b})`).call(d3.axisBottom(scale).tickValues(ticks).tickFormat(tickFmt));
      g.append('text').attr('class', 'title').attr('x', 0).attr('y', m.t - 6).text(title);
      const rr = g.append('g').selectAll('g').data(rows).join('g').attr('transform', (r) => `translate(0,${y(r.name)})`);
      rr.filter((r) => !!r.res).append('rect')
        .attr('class', (r) => `cbar ${cls}` + (r.res.stopped ? ' stopped' : typeof r.res.length !== 'number' ? ' nosol' : ''))
        .attr('height', y.bandwidth()).attr('width', (r) => Math.max(1.5, scale(val(r))))
        .append('title').text((r) => `${r.name}: ${label(r)}${r.res.stopped ? ' (stopped: ' + r.res.stopped + ')' : ''}`);
      rr.filter((r) => !!r.res).append('text').attr('class', 'clabel')
        .attr('x', (r) => Math.min(panelW - 2, Math.max(1.5, scale(val(r))) + 4)).attr('y', y.bandwidth() / 2).attr('dy', '0.35em')
        .attr('text-anchor', (r) => (scale(val(r)) + 50 > panelW ? 'end' : 'start'))
        .text(label);
    };
    const msTick = (v) => (v >= 1000 ? `${v / 1000} s` : v >= 1 ? `${v} ms` : `${+v.toPrecision(1)}`);
    panel(p1, xe, 'nodes expanded (log)', 'exp', (r) => Math.max(1, r.res.expanded || 0), (r) => fmt(r.res.expanded), d3.format('~s'));
    panel(p2, xt, 'search time (log)', 'time', (r) => Math.max(minT, (r.res.seconds || 0) * 1000), (r) => ms((r.res.seconds || 0) * 1000), msTick);
    // result column
    const rx = width - m.r - resW + 10;
    svg.append('text').attr('class', 'title').attr('x', rx).attr('y', m.t - 6).text('result');
    svg.append('g').selectAll('text').data(rows).join('text')
      .attr('class', (r) => 'clabel' + (r.state === 'error' || (r.res && (r.res.stopped || typeof r.res.length !== 'number' || (typeof r.res.optimal_length === 'number' && r.res.length > r.res.optimal_length))) ? ' bad' : ''))
      .attr('x', rx).attr('y', (r) => y(r.name) + y.bandwidth() / 2).attr('dy', '0.35em')
      .text((r) => {
        if (r.state === 'pending') return '·';
        if (r.state === 'running') return 'running…';
        if (r.state === 'error') return 'error: ' + (r.error || '').slice(0, 22);
        const x = r.res;
        if (x.stopped) return `stopped (${x.stopped})`;
        if (typeof x.length !== 'number') return x.solvable === false ? 'unsolvable' : 'no solution';
        if (typeof x.optimal_length === 'number') return x.length === x.optimal_length ? `${x.length} moves ✓ optimal` : `${x.length} moves (+${x.length - x.optimal_length})`;
        return `${x.length} moves`;
      })
      .append('title').text((r) => (r.error ? r.error : ''));
  }

  // ------------------------------------------------------------ search tree
  const Tree = (() => {
    const T = { res: null, board: null, zoom: null, t: null, n: 0 };
    const CELL = 10, GX = 10, GY = 26;
    const CANVAS_MIN = 4000; // more nodes than this in one iteration: nodes and links go on a canvas under the svg
    let svg, viewport, linkPath, solPath, gNodes, gDetail, defs;
    let playTimer = 0, detailRaf = 0, canvasRaf = 0, canvasDrawn = false;

    function init() {
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

    function clear(msg) {
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

    function load(res, board) {
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
    function inspect() {
      return { n: T.n || 0, step: T.s, steps: T.P ? T.P.length : 0, visible: T.visible || 0, render: T.useCanvas ? 'canvas' : 'svg',
        radial: !!T.radial, transform: T.t ? { x: T.t.x, y: T.t.y, k: T.t.k } : null, iteration: T.it };
    }
    /** Screen position (relative to the tree svg) of a trace node id, or null. */
    function screenPos(id) {
      if (!T.n || !T.t || !T.local || T.local[id] === undefined || T.local[id] < 0) return null;
      const li = T.local[id];
      return { x: T.t.applyX(T.xs[li]), y: T.t.applyY(T.ys[li]) };
    }

    return { init, clear, load, fit, inspect, screenPos, redraw: () => { scheduleDetails(); scheduleCanvas(); } };
  })();

  // ------------------------------------------------------------ trace files
  function openTraceFile(file) {
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

  // ------------------------------------------------------------------ wiring
  function wire() {
    $('board-select').addEventListener('change', () => {
      const b = parseBoard($('board-select').value);
      if (!b) return;
      stopAnim();
      abortCompare();
      S.board = b;
      S.goal = canonicalGoal(b.n);
      S.start = scramble(S.goal, b.w, b.h, 40 + Math.floor(Math.random() * 20));
      setFieldError('board', '');
      writeFields();
      updateBoardNote();
      clearResult('');
      clearCompare('Press “Compare all” to run every algorithm on this instance.');
      instanceChanged();
    });
    // A link or an edited address (#board=…&start=…&goal=…) sets the instance without a reload.
    window.addEventListener('hashchange', () => {
      const before = instKey(S.board.name, S.start, S.goal);
      loadHash();
      if (instKey(S.board.name, S.start, S.goal) === before) return;
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
      S.start = scramble(S.goal, S.board.w, S.board.h, 12 + Math.floor(Math.random() * 12));
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
})();
