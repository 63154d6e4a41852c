// Charts, drawn with Observable Plot (served by this server: ./vendor/plot.js, bundled by
// apps/api/src/vendor.ts). This module sizes each chart to the box it sits in (drawn again when the
// box changes width, so its text stays readable on a phone), keeps the numbers a mark stands for in
// data- attributes (for tests and for anyone reading the page's source), gives each chart a label and
// a description of its figures for screen readers, and says so plainly when there is nothing to draw.
// The small SVG helpers at the top are for the maps, which draw their own SVG.
import * as Plot from './vendor/plot.js';
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

/** About how wide `s` is in pixels at a font size of `px`. */
const approxWidth = (s, px = 12) => String(s).length * px * 0.58;

const INK = '#1d2330';
const MUTED = '#5f6b7e';
/** Plot's text at the dashboard's sizes, in the page's font. */
const STYLE = { fontFamily: 'inherit', fontSize: '11px', color: MUTED, background: 'transparent', overflow: 'visible' };

/** What a chart with nothing to draw shows instead of an empty box. */
export const noData = (message, attrs = {}) => h('p', { class: 'note no-data', role: 'status', 'data-testid': 'no-data', ...attrs }, message);

/**
 * A mark's `render` option: once Plot has drawn the mark, each of its elements gets the attributes
 * `attrs(i)` of the datum it draws (Plot binds the datum's index to the element; a line's element
 * gets its series' first index).
 */
export const tagged = (attrs) => (index, scales, values, dimensions, context, next) => {
  const g = next(index, scales, values, dimensions, context);
  for (const el of g?.children ?? []) {
    const i = Array.isArray(el.__data__) ? el.__data__[0] : el.__data__;
    if (typeof i !== 'number') continue;
    for (const [k, v] of Object.entries(attrs(i) ?? {})) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  return g;
};

// One observer for every chart box: a box whose width changed is drawn again at its new width; a box
// taken off the page is let go.
const watcher =
  typeof ResizeObserver === 'function'
    ? new ResizeObserver((entries) => {
        for (const e of entries) {
          if (!e.target.isConnected) watcher.unobserve(e.target);
          else e.target.redraw?.();
        }
      })
    : null;

/**
 * A box that holds a chart drawn at the box's width: `draw(width)` returns the chart's node. Before the
 * box is on the page it is drawn at `guess` (or the view's width, if less); it is drawn again, at
 * most `maxWidth` wide, whenever its width changes. attrs go on the box.
 */
export function chartBox(draw, { attrs = {}, guess = 560, minWidth = 220, maxWidth = 1400 } = {}) {
  const box = h('div', { class: 'chart-box', ...attrs });
  let drawnAt = 0;
  box.redraw = () => {
    const room = Math.floor(box.clientWidth) || Math.min(guess, (document.getElementById('view')?.clientWidth ?? guess) - 40);
    const width = Math.max(minWidth, Math.min(maxWidth, room));
    if (width === drawnAt) return;
    drawnAt = width;
    box.replaceChildren(draw(width));
    box.afterDraw?.();
  };
  box.redraw();
  watcher?.observe(box);
  return box;
}

/** Plot.plot with the dashboard's style, a label and a description for screen readers. */
function plot(options, label, description) {
  const chart = Plot.plot({ ...options, style: STYLE, ariaLabel: label, ariaDescription: description });
  chart.classList.add('chart');
  chart.setAttribute('role', 'img');
  return chart;
}

/**
 * Horizontal bars of rates in [0, 1] with their 95% interval as whiskers, and the counts in text
 * (beside the bar, or under it where the box is narrow). A bar's element carries `data-testid` =
 * testid, data-rate/low/high and the row's attrs.
 * rows: [{ label, rate, low, high, text, colour, attrs }]
 */
export function intervalBars(rows, { width = 560, caption = '', testid = 'bar', xLabel = 'share of games won', empty = 'No games to show.' } = {}) {
  if (!rows.length) return noData(empty, { 'data-chart': testid });
  const label = caption || 'Rates with 95% intervals';
  const valueText = (r) => r.text ?? pct(r.rate);
  const tipText = (r) => `${r.label}: ${pct(r.rate)}\n95% interval ${pct(r.low)} – ${pct(r.high)}${r.text ? `\n${r.text}` : ''}`;
  const description = rows.map((r) => `${r.label} ${pct(r.rate)}, 95% interval ${pct(r.low)} to ${pct(r.high)}${r.text ? ` (${r.text})` : ''}`).join('; ');
  const left = Math.ceil(Math.max(30, ...rows.map((r) => approxWidth(r.label, 11.5))) + 12);
  const right = Math.ceil(Math.max(48, ...rows.map((r) => approxWidth(valueText(r), 11))) + 14);
  const y = (_, i) => i;
  return chartBox(
    (w) => {
      // Too narrow for the text beside the bars: it goes under each bar, across the plot.
      const under = w - left - right < 170;
      const rowH = under ? 44 : 30;
      const [top, bottom] = under ? [4, 20] : [6, 6];
      const barY = under ? -8 : 0;
      return plot(
        {
          width: w,
          height: rows.length * rowH + 38,
          marginLeft: left,
          marginRight: under ? 14 : right,
          marginTop: 6,
          marginBottom: 32,
          x: { domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1], tickFormat: (v) => `${Math.round(v * 100)}%`, label: xLabel, labelAnchor: 'center', labelArrow: 'none', grid: true },
          y: { domain: rows.map((_, i) => i), axis: null, padding: 0 },
          marks: [
            Plot.barX(rows, { x1: 0, x2: 1, y, fill: '#f1f3f7', insetTop: top, insetBottom: bottom, rx: 2, ariaHidden: true }),
            Plot.ruleX([0.5], { stroke: '#9aa3b2', strokeDasharray: '3 3' }),
            Plot.text(rows, { x: 0, y, dy: barY, text: 'label', textAnchor: 'end', dx: -8, fill: INK, fontSize: 12.5, render: tagged(() => ({ class: 'label' })) }),
            Plot.barX(rows, {
              x1: 0,
              x2: (r) => Math.min(1, Math.max(0, r.rate)),
              y,
              fill: (r) => r.colour,
              insetTop: top,
              insetBottom: bottom,
              rx: 2,
              ariaLabel: (r) => tipText(r).replaceAll('\n', ', '),
              render: tagged((i) => ({ 'data-testid': testid, 'data-rate': rows[i].rate, 'data-low': rows[i].low, 'data-high': rows[i].high, ...(rows[i].attrs ?? {}) })),
            }),
            Plot.ruleY(rows, { y, x1: 'low', x2: 'high', stroke: INK, strokeWidth: 1.5, dy: barY, ariaHidden: true }),
            Plot.tickX(rows, { x: 'low', y, stroke: INK, strokeWidth: 1.5, insetTop: top + 3, insetBottom: bottom + 3, ariaHidden: true }),
            Plot.tickX(rows, { x: 'high', y, stroke: INK, strokeWidth: 1.5, insetTop: top + 3, insetBottom: bottom + 3, ariaHidden: true }),
            under
              ? Plot.text(rows, { x: 0, y, text: valueText, textAnchor: 'start', dy: 13, fill: INK, fontVariant: 'tabular-nums', render: tagged(() => ({ class: 'value' })) })
              : Plot.text(rows, { x: 1, y, text: valueText, textAnchor: 'start', dx: 10, fill: INK, fontVariant: 'tabular-nums', render: tagged(() => ({ class: 'value' })) }),
            Plot.tip(rows, Plot.pointerY({ x: (r) => Math.min(1, Math.max(0, r.rate)), y, dy: barY, title: tipText, anchor: 'left' })),
          ],
        },
        label,
        description,
      );
    },
    { guess: width, maxWidth: Math.round(width * 1.4), attrs: { 'data-chart': testid } },
  );
}

/**
 * A histogram of buckets [{ from, to, count }] (integer ranges, both ends in), each bar with its
 * count over it. The box gets data-testid = testid and attrs; each bar data-count/from/to.
 */
export function histogram(buckets, { width = 300, height = 170, axis = '', testid = 'histogram', colour = '#4a6fa5', attrs = {}, what = ['match', 'matches'], empty = 'Nothing to count.' } = {}) {
  const total = buckets.reduce((a, b) => a + b.count, 0);
  if (!total) return noData(empty, { 'data-chart': testid, ...attrs });
  const range = (b) => (b.from === b.to ? num(b.from) : b.from < 0 ? `${num(b.from)} to ${num(b.to)}` : `${num(b.from)}–${num(b.to)}`);
  const counted = (n) => `${n} ${n === 1 ? what[0] : what[1]}`;
  const max = Math.max(1, ...buckets.map((b) => b.count));
  const yTicks = ticks(0, max, 3).filter((t) => Number.isInteger(t) && t <= max);
  const x = (_, i) => i;
  const label = `Histogram${axis ? ` of ${axis}` : ''}: ${counted(total)}`;
  const description = buckets.filter((b) => b.count).map((b) => `${range(b)}: ${counted(b.count)}`).join('; ');
  const widest = Math.max(...buckets.map((b) => approxWidth(range(b), 10.5))) + 8;
  return chartBox(
    (w) => {
      const slot = (w - 34 - 8) / buckets.length;
      const every = Math.max(1, Math.ceil(widest / slot));
      // Bars at most 56 px wide, however few the buckets.
      const inset = Math.max(0, (slot * 0.9 - 56) / 2);
      return plot(
        {
          width: w,
          height,
          marginLeft: 34,
          marginRight: 8,
          marginTop: 16,
          marginBottom: axis ? 38 : 24,
          x: { domain: buckets.map((_, i) => i), ticks: buckets.map((_, i) => i).filter((i) => i % every === 0), tickFormat: (i) => range(buckets[i]), label: axis || null, labelAnchor: 'center', labelArrow: 'none', tickSize: 0, padding: 0.1 },
          y: { domain: [0, Math.max(max, yTicks.at(-1) ?? max)], ticks: yTicks, tickFormat: 'd', grid: true, label: null },
          marks: [
            Plot.ruleY([0], { stroke: '#aab2c0' }),
            Plot.barY(buckets, {
              x,
              y: 'count',
              fill: colour,
              insetLeft: inset,
              insetRight: inset,
              ariaLabel: (b) => `${range(b)}${axis ? ` ${axis}` : ''}: ${counted(b.count)}`,
              render: tagged((i) => ({ class: 'bucket', 'data-count': buckets[i].count, 'data-from': buckets[i].from, 'data-to': buckets[i].to })),
            }),
            Plot.text(buckets, { x, y: 'count', text: (b) => (b.count ? String(b.count) : ''), dy: -7, fill: INK, fontSize: 10.5, render: tagged(() => ({ class: 'count' })) }),
            Plot.tip(buckets, Plot.pointerX({ x, y: 'count', title: (b) => `${range(b)}${axis ? ` ${axis}` : ''}: ${counted(b.count)}` })),
          ],
        },
        label,
        description,
      );
    },
    { guess: width, maxWidth: 720, attrs: { 'data-testid': testid, 'data-chart': testid, ...attrs } },
  );
}

/**
 * Lines over a shared numeric x. series: [{ name, colour, points: [{ x, y, note? }] }]. Each series is
 * a path with data-series, and (up to 80 points) a dot per point (class `point`, data-x/y). Hovering
 * shows every series' value at the nearest x. The returned box has `cursor(x)`, which draws (or, with
 * null, hides) a vertical marker at x, kept across redraws.
 */
export function lineChart(series, { width = 900, height = 260, xLabel = String, xAxis = '', yAxis = '', testid = 'line-chart', markers = true, empty = 'No values to draw.' } = {}) {
  const drawn = series.filter((s) => s.points.length);
  if (!drawn.length) return noData(empty, { 'data-chart': testid });
  const fmt = (v) => String(Number(v.toFixed(2))).replace('-', '\u2212');
  const xs = [...new Set(drawn.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  // One row per x with every series' point there: what the hover shows.
  const at = xs.map((x) => ({ x, points: drawn.map((s) => [s, s.points.find((p) => p.x === x)]).filter(([, p]) => p) }));
  const hover = (d) => [`${xAxis || 'x'} ${xLabel(d.x)}`, ...d.points.map(([s, p]) => `${s.name}: ${fmt(p.y)}${p.note ? ` (${p.note})` : ''}`)].join('\n');
  const label = `${yAxis || 'Values'} by ${xAxis || 'x'}: ${drawn.map((s) => s.name).join(', ')}`;
  const description = drawn.map((s) => `${s.name}: ${s.points.length} points from ${fmt(s.points[0].y)} at ${xLabel(s.points[0].x)} to ${fmt(s.points.at(-1).y)} at ${xLabel(s.points.at(-1).x)}`).join('; ');
  const ys = drawn.flatMap((s) => s.points.map((p) => p.y));
  let cursorAt = null;
  const box = chartBox(
    (w) => {
      const every = Math.max(1, Math.ceil((xs.length * (approxWidth(xLabel(xs.at(-1)), 11) + 10)) / (w - 60)));
      return plot(
        {
          width: w,
          height,
          marginLeft: 48,
          marginRight: 16,
          marginTop: yAxis ? 24 : 12,
          marginBottom: xAxis ? 38 : 26,
          x: { domain: xs.length > 1 ? [xs[0], xs.at(-1)] : [xs[0] - 1, xs[0] + 1], ticks: xs.filter((_, i) => i % every === 0), tickFormat: xLabel, label: xAxis || null, labelAnchor: 'center', labelArrow: 'none' },
          y: { domain: [Math.min(0, ...ys), Math.max(1, ...ys)], nice: true, grid: true, label: yAxis || null, labelArrow: 'none', tickFormat: num },
          marks: [
            Plot.ruleY([0], { stroke: '#aab2c0' }),
            ...drawn.map((s) =>
              Plot.line(s.points, { x: 'x', y: 'y', stroke: s.colour, strokeWidth: 2, ariaLabel: () => s.name, render: tagged(() => ({ class: 'series', 'data-series': s.name })) }),
            ),
            ...(markers
              ? drawn
                  .filter((s) => s.points.length <= 80)
                  .map((s) =>
                    Plot.dot(s.points, {
                      x: 'x',
                      y: 'y',
                      r: 2.6,
                      fill: s.colour,
                      ariaLabel: (p) => `${s.name} at ${xLabel(p.x)}: ${fmt(p.y)}${p.note ? ` (${p.note})` : ''}`,
                      render: tagged((i) => ({ class: 'point', 'data-series': s.name, 'data-x': s.points[i].x, 'data-y': s.points[i].y })),
                    }),
                  )
              : []),
            Plot.ruleX(at, Plot.pointerX({ x: 'x', stroke: MUTED, strokeOpacity: 0.5 })),
            Plot.tip(at, Plot.pointerX({ x: 'x', y: (d) => Math.max(...d.points.map(([, p]) => p.y)), title: hover })),
          ],
        },
        label,
        description,
      );
    },
    { guess: width, maxWidth: 1400, attrs: { 'data-testid': testid, 'data-chart': testid } },
  );
  const line = svg('line', { class: 'cursor', visibility: 'hidden', 'data-testid': `${testid}-cursor`, 'aria-hidden': 'true' });
  box.afterDraw = () => {
    const chart = box.querySelector('svg.chart');
    if (!chart) return;
    const [y1, y2] = chart.scale('y').range;
    line.setAttribute('y1', y1);
    line.setAttribute('y2', y2);
    if (cursorAt === null) line.setAttribute('visibility', 'hidden');
    else {
      const x = chart.scale('x').apply(cursorAt);
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      line.setAttribute('visibility', 'visible');
    }
    chart.append(line);
  };
  box.afterDraw();
  box.cursor = (x) => {
    cursorAt = x === null || x === undefined || !Number.isFinite(x) ? null : x;
    box.afterDraw();
  };
  return box;
}

/**
 * Rates in [0, 1] against a rising quantity on a log x axis: a line per series through its points,
 * each point's 95% interval as a shaded band (and a whisker), and an optional marker: a dashed rule at
 * `marker.x` labelled `marker.label`. Each point's element carries data-testid = `${testid}-point`,
 * data-series, data-x, data-y, data-low, data-high and the point's attrs; the marker's rule
 * data-testid = `${testid}-marker` and data-x.
 * series: [{ name, colour, points: [{ x, y, low, high, note?, attrs? }] }]
 */
export function bandChart(series, { width = 560, height = 240, xLabel = String, xAxis = '', yAxis = 'share of games won', testid = 'band-chart', marker = null, caption = '', empty = 'No values to draw.' } = {}) {
  const drawn = series.filter((s) => s.points.length);
  if (!drawn.length) return noData(empty, { 'data-chart': testid });
  const xs = [...new Set(drawn.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const rows = drawn.flatMap((s) => s.points.map((p) => ({ ...p, series: s.name, colour: s.colour })));
  const pointText = (r) => `${r.series} at ${xAxis || 'x'} ${xLabel(r.x)}: ${pct(r.y)} (95% interval ${pct(r.low)} – ${pct(r.high)})${r.note ? `, ${r.note}` : ''}`;
  const label = caption || `${yAxis} by ${xAxis || 'x'}: ${drawn.map((s) => s.name).join(', ')}`;
  const description = drawn.map((s) => `${s.name}: ${s.points.map((p) => `${pct(p.y)} at ${xLabel(p.x)}`).join(', ')}`).join('; ') + (marker ? `. ${marker.label}.` : '');
  // A log axis over the levels, with a little room either side so the end points are not on the frame.
  const domain = xs.length > 1 ? [xs[0] / 1.25, xs.at(-1) * 1.25] : [xs[0] / 2, xs[0] * 2];
  return chartBox(
    (w) =>
      plot(
        {
          width: w,
          height,
          marginLeft: 44,
          marginRight: 16,
          marginTop: marker ? 26 : 14,
          marginBottom: 38,
          x: { type: 'log', domain, ticks: xs, tickFormat: xLabel, label: xAxis || null, labelAnchor: 'center', labelArrow: 'none' },
          y: { domain: [0, 1], ticks: [0, 0.25, 0.5, 0.75, 1], tickFormat: (v) => `${Math.round(v * 100)}%`, grid: true, label: yAxis || null, labelArrow: 'none' },
          marks: [
            Plot.ruleY([0.5], { stroke: '#9aa3b2', strokeDasharray: '3 3' }),
            ...drawn.map((s) => Plot.areaY(s.points, { x: 'x', y1: 'low', y2: 'high', fill: s.colour, fillOpacity: 0.14, ariaHidden: true, render: tagged(() => ({ class: 'band', 'data-series': s.name })) })),
            ...drawn.map((s) => Plot.ruleX(s.points, { x: 'x', y1: 'low', y2: 'high', stroke: s.colour, strokeOpacity: 0.6, strokeWidth: 1.5, ariaHidden: true })),
            ...drawn.map((s) => Plot.line(s.points, { x: 'x', y: 'y', stroke: s.colour, strokeWidth: 2, ariaLabel: () => s.name, render: tagged(() => ({ class: 'series', 'data-series': s.name })) })),
            Plot.dot(rows, {
              x: 'x',
              y: 'y',
              r: 3.2,
              fill: 'colour',
              ariaLabel: pointText,
              render: tagged((i) => ({ 'data-testid': `${testid}-point`, 'data-series': rows[i].series, 'data-x': rows[i].x, 'data-y': rows[i].y, 'data-low': rows[i].low, 'data-high': rows[i].high, ...(rows[i].attrs ?? {}) })),
            }),
            ...(marker
              ? [
                  Plot.ruleX([marker.x], { stroke: INK, strokeDasharray: '4 3', render: tagged(() => ({ 'data-testid': `${testid}-marker`, 'data-x': marker.x })) }),
                  Plot.text([marker.x], { x: (d) => d, frameAnchor: 'top', dy: -14, text: () => marker.label, fill: INK, fontSize: 11.5 }),
                ]
              : []),
            Plot.tip(rows, Plot.pointerX({ x: 'x', y: 'y', title: pointText })),
          ],
        },
        label,
        description,
      ),
    { guess: width, maxWidth: Math.round(width * 1.6), attrs: { 'data-testid': testid, 'data-chart': testid } },
  );
}
