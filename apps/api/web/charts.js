// Small SVG charts. Every mark is a plain SVG node with a <title>; the numbers a mark stands for are
// kept in data- attributes too, for tests and for anyone reading the page's source.
import { h, swatch } from './dom.js';
import { pct } from './format.js';

const NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes (undefined ones left out) and children. */
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) e.append(c);
  return e;
}

export function text(x, y, s, attrs = {}) {
  const t = svg('text', { x, y, ...attrs });
  t.textContent = s;
  return t;
}

/** A tooltip for an SVG mark. */
export function title(s) {
  const t = svg('title');
  t.textContent = s;
  return t;
}

/** Round tick values from at or below `lo` to at or above `hi`, about `count` steps apart. */
export function ticks(lo, hi, count = 4) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out = [];
  for (let v = Math.floor(lo / step + 1e-9) * step; v < hi + step - step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/** A number as a chart label, with a true minus sign. */
export const num = (v) => String(Number(v.toPrecision(10))).replace('-', '\u2212');

/** A legend of coloured names, as HTML above a chart. items: [{ name, colour, note? }] */
export const legend = (items) =>
  h('ul', { class: 'legend', 'aria-label': 'Legend' }, items.map((i) => h('li', { 'data-name': i.name }, swatch(i.colour), i.name, i.note ? h('span', { class: 'muted' }, ` ${i.note}`) : null)));

const approxWidth = (s, px = 12) => String(s).length * px * 0.58;

/**
 * Horizontal bars of rates in [0, 1] with their interval as whiskers, and the counts in text.
 * rows: [{ label, rate, low, high, text, colour, attrs }]
 */
export function intervalBars(rows, { width = 560, caption = '', testid = 'bar' } = {}) {
  const rowH = 30;
  const left = Math.ceil(Math.max(40, ...rows.map((r) => approxWidth(r.label))) + 12);
  const right = Math.ceil(Math.max(60, ...rows.map((r) => approxWidth(r.text ?? '', 11))) + 14);
  const plotW = width - left - right;
  const height = rows.length * rowH + 24;
  const x = (v) => left + Math.min(1, Math.max(0, v)) * plotW;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', style: `max-width:${width * 1.1}px`, role: 'img', 'aria-label': caption || 'Rates with 95% intervals' });
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(
      svg('line', { x1: x(t), x2: x(t), y1: 2, y2: height - 20, class: t === 0.5 ? 'axis-mid' : 'grid-line' }),
      text(x(t), height - 6, `${t * 100}%`, { 'text-anchor': 'middle', class: 'tick' }),
    );
  }
  rows.forEach((r, i) => {
    const y = i * rowH + 4;
    const mid = y + rowH / 2;
    const bar = svg('rect', { x: left, y: y + 6, width: Math.max(0.5, x(r.rate) - left), height: rowH - 12, rx: 2, fill: r.colour, 'data-testid': testid, 'data-rate': r.rate, 'data-low': r.low, 'data-high': r.high, ...(r.attrs ?? {}) });
    bar.append(title(`${r.label}: ${pct(r.rate)}, 95% interval ${pct(r.low)} – ${pct(r.high)}${r.text ? `; ${r.text}` : ''}`));
    chart.append(
      text(left - 10, mid + 4, r.label, { 'text-anchor': 'end', class: 'label' }),
      svg('rect', { x: left, y: y + 6, width: plotW, height: rowH - 12, rx: 2, class: 'track' }),
      bar,
      svg('g', { class: 'whisker', 'aria-hidden': 'true' },
        svg('line', { x1: x(r.low), x2: x(r.high), y1: mid, y2: mid }),
        svg('line', { x1: x(r.low), x2: x(r.low), y1: mid - 6, y2: mid + 6 }),
        svg('line', { x1: x(r.high), x2: x(r.high), y1: mid - 6, y2: mid + 6 }),
      ),
      text(width - right + 10, mid + 4, r.text ?? pct(r.rate), { class: 'value' }),
    );
  });
  return chart;
}

/**
 * A histogram of buckets [{ from, to, count }], each bar with its count over it.
 * attrs go on the <svg> (data-metric etc.).
 */
export function histogram(buckets, { width = 280, height = 150, axis = '', testid = 'histogram', colour = '#4a6fa5', attrs = {} } = {}) {
  const pad = { l: 26, r: 6, t: 14, b: 32 };
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const plotW = width - pad.l - pad.r;
  const slot = Math.min(plotW / Math.max(1, buckets.length), 56);
  const x0 = pad.l + (plotW - slot * buckets.length) / 2;
  const y = (v) => pad.t + (height - pad.t - pad.b) * (1 - v / max);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', style: `max-width:${width * 1.3}px`, role: 'img', 'aria-label': `Histogram${axis ? ` of ${axis}` : ''}`, 'data-testid': testid, ...attrs });
  for (const t of ticks(0, max, 3).filter((t) => Number.isInteger(t) && t <= max)) {
    chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: y(t), y2: y(t), class: t === 0 ? 'axis' : 'grid-line' }), text(pad.l - 6, y(t) + 4, String(t), { 'text-anchor': 'end', class: 'tick' }));
  }
  const range = (b) => (b.from === b.to ? num(b.from) : b.from < 0 ? `${num(b.from)} to ${num(b.to)}` : `${num(b.from)}–${num(b.to)}`);
  const labelEvery = Math.max(1, Math.ceil((Math.max(0, ...buckets.map((b) => approxWidth(range(b), 10))) + 6) / slot));
  buckets.forEach((b, i) => {
    const bx = x0 + i * slot;
    const r = svg('rect', { x: bx + 1, y: y(b.count), width: Math.max(1, slot - 2), height: Math.max(0, y(0) - y(b.count)), fill: colour, class: 'bucket', 'data-count': b.count, 'data-from': b.from, 'data-to': b.to });
    r.append(title(`${range(b)}${axis ? ` ${axis}` : ''}: ${b.count} ${b.count === 1 ? 'match' : 'matches'}`));
    chart.append(r);
    if (b.count > 0 && slot >= 14) chart.append(text(bx + slot / 2, y(b.count) - 4, String(b.count), { 'text-anchor': 'middle', class: 'count' }));
    if (i % labelEvery === 0) chart.append(text(bx + slot / 2, height - pad.b + 14, range(b), { 'text-anchor': 'middle', class: 'tick' }));
  });
  if (axis) chart.append(text(pad.l + plotW / 2, height - 4, axis, { 'text-anchor': 'middle', class: 'caption' }));
  return chart;
}

/**
 * Lines over a shared numeric x. series: [{ name, colour, points: [{ x, y, note? }] }].
 * The returned <svg> has a `cursor(x)` method that draws (or, with null, hides) a vertical marker.
 */
export function lineChart(series, { width = 900, height = 260, xLabel = String, xAxis = '', yAxis = '', testid = 'line-chart', markers = true } = {}) {
  const pad = { l: 48, r: 16, t: yAxis ? 26 : 12, b: xAxis ? 40 : 28 };
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  const yTicks = ticks(Math.min(0, ...ys), Math.max(1, ...ys), 4);
  const [y0, y1] = [yTicks[0], yTicks.at(-1)];
  const X = (v) => pad.l + ((v - x0) / (x1 - x0 || 1)) * (width - pad.l - pad.r);
  const Y = (v) => pad.t + (1 - (v - y0) / (y1 - y0 || 1)) * (height - pad.t - pad.b);
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': `${yAxis || 'Values'} by ${xAxis || 'x'}: ${series.map((s) => s.name).join(', ')}`, 'data-testid': testid });
  for (const t of yTicks) chart.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: Y(t), y2: Y(t), class: t === 0 ? 'axis' : 'grid-line' }), text(pad.l - 8, Y(t) + 4, num(t), { 'text-anchor': 'end', class: 'tick' }));
  const xTicks = [...new Set(xs)].sort((a, b) => a - b);
  const every = Math.max(1, Math.ceil((xTicks.length * approxWidth(xLabel(xTicks.at(-1) ?? 0), 11)) / ((width - pad.l - pad.r) * 0.8)));
  xTicks.forEach((t, i) => i % every === 0 && chart.append(text(X(t), height - pad.b + 16, xLabel(t), { 'text-anchor': 'middle', class: 'tick' })));
  if (xAxis) chart.append(text(pad.l + (width - pad.l - pad.r) / 2, height - 4, xAxis, { 'text-anchor': 'middle', class: 'caption' }));
  if (yAxis) chart.append(text(pad.l - 8, 11, yAxis, { class: 'caption' }));
  const cursor = svg('line', { y1: pad.t, y2: height - pad.b, class: 'cursor', visibility: 'hidden', 'data-testid': `${testid}-cursor` });
  chart.append(cursor);
  for (const s of series) {
    const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join('');
    const g = svg('g', { 'data-series': s.name }, svg('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': 2, 'stroke-linejoin': 'round', class: 'series', 'data-series': s.name }));
    if (markers && s.points.length <= 80) {
      for (const p of s.points) g.append(svg('circle', { cx: X(p.x), cy: Y(p.y), r: 2.6, fill: s.colour, class: 'point', 'data-x': p.x, 'data-y': p.y }, title(`${s.name} at ${xLabel(p.x)}: ${Number(p.y.toFixed(2))}${p.note ? ` (${p.note})` : ''}`)));
    }
    chart.append(g);
  }
  chart.cursor = (x) => {
    if (x === null || x === undefined || !Number.isFinite(x)) return cursor.setAttribute('visibility', 'hidden');
    cursor.setAttribute('x1', X(x));
    cursor.setAttribute('x2', X(x));
    cursor.setAttribute('visibility', 'visible');
  };
  return chart;
}
