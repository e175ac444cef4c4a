// Small helpers shared by every part of the viewer: element lookup, number, byte and time
// formatting, debounce, and the size of a chart's svg.

export const $ = (id) => document.getElementById(id);
// thousands separators without toLocaleString (its first call loads ICU data: tens of ms at startup)
export const fmt = (n) => {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return '–';
  const [i, f] = String(Number(n)).split('.');
  return i.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (f ? '.' + f : '');
};

export function debounce(fn, ms) {
  let t = 0;
  return (...a) => { clearTimeout(t); t = setTimeout(() => fn(...a), ms); };
}

export function bytes(b) {
  if (b < 1024) return b + ' B';
  if (b < 1048576) return (b / 1024).toFixed(1) + ' KiB';
  return (b / 1048576).toFixed(1) + ' MiB';
}
export function ms(v) {
  if (v < 1) return v.toFixed(3) + ' ms';
  if (v < 1000) return v.toFixed(v < 10 ? 2 : 1) + ' ms';
  return (v / 1000).toFixed(2) + ' s';
}

export function chartSize(svgEl) {
  const r = svgEl.getBoundingClientRect();
  return { width: Math.max(200, r.width), height: Math.max(100, r.height) };
}
