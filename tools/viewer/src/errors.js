// Where messages go: the status line in the top bar, and inline errors next to the field an API
// error names (its `param`).
import { $ } from './util.js';

export function setStatus(msg, isError) {
  const el = $('status');
  el.textContent = msg || '';
  el.classList.toggle('error', !!isError);
  el.title = msg || '';
}

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
export function setFieldError(param, msg) {
  const spec = FIELD_ERRORS[param] || ['solver-error', null];
  const el = $(spec[0]);
  el.textContent = msg || '';
  if (spec[1]) $(spec[1]).classList.toggle('invalid', !!msg);
}
export function clearSolverErrors() {
  for (const p of ['algorithm', 'heuristic', 'weight', 'depth_limit', 'trace_limit']) setFieldError(p, '');
}
/** Show an API failure next to the field it names, or in the given fallback slot. */
export function showApiError(r, fallback) {
  if (r.aborted) return;
  const msg = r.status === 0 ? r.error : r.error + (r.status === 503 ? ' (try again in a moment)' : '');
  if (r.param && FIELD_ERRORS[r.param]) setFieldError(r.param, msg);
  else if (fallback) { $(fallback).textContent = msg; }
  else setStatus(msg, true);
  if (r.status === 0) setStatus(r.error, true);
}
