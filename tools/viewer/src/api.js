// The HTTP side: api() wraps fetch for `tilespace serve` (tools/viewer/API.md) and never throws;
// queryDistance() asks the table for one state's optimal distance, cached.
import { stateKey } from './puzzle.js';
import { S, metricParam } from './state.js';

/** fetch wrapper that never throws: {ok, status, data} or {ok:false, status, error, param, aborted}. */
export async function api(path, params, opts = {}) {
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

/** Optimal distance of one state in `metric` from the table (cached). null when unknown. */
export async function queryDistance(board, goal, state, metric, signal) {
  const k = `${board}|${stateKey(goal)}|${stateKey(state)}|${metric || 'single'}`;
  if (S.distCache.has(k)) return S.distCache.get(k);
  const r = await api('/api/query', { board, start: state, goal, metric: metricParam(metric) }, { signal });
  if (!r.ok) return null;
  const v = r.data.reachable === false ? null : (typeof r.data.length === 'number' ? r.data.length : null);
  S.distCache.set(k, v);
  return v;
}
