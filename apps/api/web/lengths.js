// #/lengths : how long games run (turns, impulses, decisions), and by how much they are won (the game's margin).
import { api } from './api.js';
import { card, h, note } from './dom.js';
import { histogram, ticks } from './charts.js';
import { filterBar } from './filters.js';
import { fixed, groupBy, int, scenarioDetail, scenarioKey, scenarioTitle } from './format.js';
import { measuresOf } from './measures.js';

const METRICS = ['turns', 'impulses', 'decisions'];
/** Matches read for the margins: the newest this many. */
const MARGIN_SAMPLE = 500;

export async function lengths(params) {
  const [{ lengths: rows }, page, bar] = await Promise.all([api('lengths', params), api('matches', { ...params, limit: MARGIN_SAMPLE }), filterBar('#/lengths', params)]);
  const head = [h('h1', {}, 'How long games run'), bar];
  if (!rows.length) return [...head, card(null, note('No completed matches for these filters.'))];
  const margins = groupBy(page.matches, scenarioKey);
  return [
    ...head,
    note('Histograms of completed matches; the number over a bar is its count of matches.'),
    ...(await Promise.all([...groupBy(rows, scenarioKey)].map(async ([key, metrics]) => [key, metrics, (await measuresOf(metrics[0].game)).margin]))).map(([key, metrics, margin]) =>
      card(
        h('span', {}, scenarioTitle(metrics[0]), h('span', { class: 'subtitle' }, ` · ${int(metrics[0].matches)} matches`)),
        { 'data-testid': 'lengths-card', 'data-scenario': metrics[0].scenario },
        h('p', { class: 'muted small' }, scenarioDetail(metrics[0])),
        h(
          'div',
          { class: 'grid-3' },
          METRICS.map((m) => metrics.find((r) => r.metric === m)).filter(Boolean).map((m) =>
            h(
              'figure',
              {},
              h('figcaption', {}, h('strong', {}, m.metric), h('span', { class: 'muted' }, ` mean ${fixed(m.mean)} · median ${m.p50} · p90 ${m.p90} · ${m.min}–${m.max}`)),
              histogram(m.buckets, { axis: m.metric, attrs: { 'data-metric': m.metric, 'data-scenario': m.scenario, 'data-matches': m.matches } }),
            ),
          ),
          marginFigure(margins.get(key) ?? [], page.total > page.matches.length ? page.total : 0, margin),
        ),
      ),
    ),
  ];
}

/** Matches whose result the game's rules gave (not a forfeit, an error or a cancel): they have a margin. */
const RULED = new Set(['completed', 'adjudicated']);

/** The game's own margin of each result (`GameResult.margin`), named and explained as the game defines it. */
function marginFigure(matches, total, measure) {
  const values = matches.filter((m) => RULED.has(m.kind)).map((m) => m.margin);
  if (!values.length) return null;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const width = Math.max(1, Math.ceil(ticks(0, hi - lo + 1, 12)[1] ?? 1));
  const buckets = [];
  for (let from = Math.floor(lo / width) * width; from <= hi; from += width) buckets.push({ from, to: from + width - 1, count: values.filter((v) => v >= from && v < from + width).length });
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return h(
    'figure',
    { 'data-testid': 'margin' },
    h('figcaption', {}, h('strong', {}, measure.name), h('span', { class: 'muted' }, ` of the result · mean ${fixed(mean)} · ${values.length} matches${total ? ` (newest of ${int(total)})` : ''}`)),
    histogram(buckets, { axis: measure.name, colour: '#7a8aa6', testid: 'margin-histogram' }),
    measure.description ? h('p', { class: 'muted small', 'data-testid': 'measure-note' }, measure.description) : null,
  );
}
