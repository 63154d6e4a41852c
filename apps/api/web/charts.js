// Small SVG charts: every element a plain SVG node, numbers kept in data- attributes for tests and tools.
const NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs = {}, children = []) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, String(v));
  for (const c of children) if (c) e.append(c);
  return e;
}

export function text(x, y, s, attrs = {}) {
  const t = svg('text', { x, y, ...attrs });
  t.textContent = s;
  return t;
}

const PALETTE = ['#2f5fb3', '#c0392b', '#2e8b57', '#d68910', '#7d3c98', '#16a085', '#a04000', '#5d6d7e'];
const assigned = new Map();
/** A stable colour per name (power, side, bot). */
export function colour(name) {
  if (!assigned.has(name)) assigned.set(name, PALETTE[assigned.size % PALETTE.length]);
  return assigned.get(name);
}

export const pct = (x) => `${(100 * x).toFixed(1)}%`;

/**
 * Horizontal bars of rates in [0, 1] with interval whiskers. rows: { label, rate, low, high, note, data }.
 */
export function intervalBars(rows, { width = 560, testid = 'bar' } = {}) {
  const left = 150;
  const right = 150;
  const rowH = 26;
  const plotW = width - left - right;
  const h = rows.length * rowH + 26;
  const x = (v) => left + v * plotW;
  const g = svg('svg', { viewBox: `0 0 ${width} ${h}`, width: '100%', role: 'img' });
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    g.append(svg('line', { x1: x(t), x2: x(t), y1: 0, y2: h - 18, class: t === 0.5 ? 'axis' : 'grid-line' }));
    g.append(text(x(t), h - 4, `${t * 100}%`, { 'text-anchor': 'middle', fill: '#667085' }));
  }
  rows.forEach((r, i) => {
    const y = i * rowH + 4;
    const bar = svg('rect', { x: left, y: y + 4, width: Math.max(0, x(r.rate) - left), height: rowH - 10, rx: 2, fill: r.colour ?? colour(r.label), 'data-testid': testid, 'data-rate': r.rate, ...(r.data ?? {}) });
    bar.append(svg('title', {}, [document.createTextNode(`${r.label}: ${pct(r.rate)} (95% ${pct(r.low)}–${pct(r.high)}) ${r.note ?? ''}`)]));
    g.append(
      text(left - 8, y + rowH / 2 + 3, r.label, { 'text-anchor': 'end' }),
      bar,
      svg('line', { x1: x(r.low), x2: x(r.high), y1: y + rowH / 2, y2: y + rowH / 2, stroke: '#1f2430', 'stroke-width': 1.5 }),
      svg('line', { x1: x(r.low), x2: x(r.low), y1: y + 7, y2: y + rowH - 7, stroke: '#1f2430' }),
      svg('line', { x1: x(r.high), x2: x(r.high), y1: y + 7, y2: y + rowH - 7, stroke: '#1f2430' }),
      text(width - right + 8, y + rowH / 2 + 3, `${pct(r.rate)} ${r.note ?? ''}`),
    );
  });
  return g;
}

/** A histogram of buckets { from, to, count }. */
export function histogram(buckets, { width = 420, height = 180, label = '', testid = 'histogram' } = {}) {
  const pad = { l: 36, r: 8, t: 8, b: 28 };
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const w = (width - pad.l - pad.r) / Math.max(1, buckets.length);
  const y = (v) => pad.t + (height - pad.t - pad.b) * (1 - v / max);
  const g = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'data-testid': testid });
  g.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: y(0), y2: y(0), class: 'axis' }), text(4, pad.t + 8, String(max), { fill: '#667085' }));
  buckets.forEach((b, i) => {
    const r = svg('rect', { x: pad.l + i * w + 1, y: y(b.count), width: Math.max(1, w - 2), height: y(0) - y(b.count), fill: '#2f5fb3', 'data-count': b.count });
    r.append(svg('title', {}, [document.createTextNode(`${b.from === b.to ? b.from : `${b.from}–${b.to}`}: ${b.count}`)]));
    g.append(r);
    if (buckets.length <= 12 || i % Math.ceil(buckets.length / 12) === 0) g.append(text(pad.l + i * w + w / 2, height - 12, String(b.from), { 'text-anchor': 'middle', fill: '#667085' }));
  });
  if (label) g.append(text(width - pad.r, height - 1, label, { 'text-anchor': 'end', fill: '#667085' }));
  return g;
}

/** Lines over a shared x: series { name, points: [[x, y]] }; xLabels: x -> text. */
export function lineChart(series, { width = 900, height = 280, xLabel = (v) => String(v), testid = 'line-chart' } = {}) {
  const pad = { l: 44, r: 110, t: 10, b: 28 };
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ys = series.flatMap((s) => s.points.map((p) => p[1]));
  const [x0, x1] = [Math.min(...xs, 0), Math.max(...xs, 1)];
  const [y0, y1] = [Math.min(0, ...ys), Math.max(1, ...ys)];
  const X = (v) => pad.l + ((v - x0) / (x1 - x0 || 1)) * (width - pad.l - pad.r);
  const Y = (v) => pad.t + (1 - (v - y0) / (y1 - y0 || 1)) * (height - pad.t - pad.b);
  const g = svg('svg', { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'data-testid': testid });
  for (let i = 0; i <= 4; i++) {
    const v = y0 + ((y1 - y0) * i) / 4;
    g.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: Y(v), y2: Y(v), class: 'grid-line' }), text(pad.l - 6, Y(v) + 3, v.toFixed(v >= 100 ? 0 : 1), { 'text-anchor': 'end', fill: '#667085' }));
  }
  const ticks = [...new Set(xs)].sort((a, b) => a - b);
  const step = Math.ceil(ticks.length / 14) || 1;
  ticks.forEach((t, i) => i % step === 0 && g.append(text(X(t), height - 10, xLabel(t), { 'text-anchor': 'middle', fill: '#667085' })));
  series.forEach((s, i) => {
    const c = s.colour ?? colour(s.name);
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join('');
    g.append(svg('path', { d, fill: 'none', stroke: c, 'stroke-width': 2, 'data-series': s.name }));
    const last = s.points.at(-1);
    if (last) g.append(text(width - pad.r + 6, Math.min(height - pad.b, Math.max(pad.t + 8, Y(last[1]) + 3 + (i % 2) * 2)), s.name, { fill: c }));
  });
  return g;
}
