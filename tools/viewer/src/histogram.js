// The depth histogram of the goal's table in the metric chosen (log or linear), with the start's
// depth marked.
import { $, chartSize, fmt } from './util.js';
import { S, isMulti } from './state.js';

export function drawHistogram() {
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
  const unit = isMulti(st.metric) ? 'multi-tile moves' : 'moves';
  $('hist-caption').textContent = `${fmt(st.states)} states · radius ${st.radius} · mean ${typeof st.mean === 'number' ? st.mean.toFixed(2) : '–'} · x: ${unit} from the goal`;
  svgEl.dataset.metric = st.metric || 'single';
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
