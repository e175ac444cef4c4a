// Compare all: every algorithm that counts the metric's moves run on the instance (max 5 s each),
// charted by nodes expanded and time, with each one's result.
import { $, chartSize, fmt, ms } from './util.js';
import { S, instKey, isMulti } from './state.js';
import { api } from './api.js';
import { readFields } from './instance.js';
import { countsIn, solveParams } from './solver.js';

export function abortCompare() { if (S.compareCtl) { S.compareCtl.abort(); S.compareCtl = null; } }
export function clearCompare(msg) {
  S.compareRows = null; S.compareKey = '';
  drawCompare();
  $('compare-status').textContent = msg || '';
  $('compare-button').textContent = 'Compare all';
}
export async function runCompare() {
  if (S.compareCtl) { abortCompare(); $('compare-status').textContent = 'stopped'; $('compare-button').textContent = 'Compare all'; return; }
  if (!readFields() || !S.info) return;
  const ctl = new AbortController();
  S.compareCtl = ctl;
  S.compareKey = instKey(S.board.name, S.start, S.goal, S.metric);
  const algos = (S.info.algorithms || []).filter((a) => countsIn(a, S.metric));
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
      (heur ? ` · heuristic ${heur}` : '') + (isMulti(S.metric) ? ' · multi-tile moves' : '');
  }
}
export function drawCompare() {
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
