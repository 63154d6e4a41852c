// #/lengths : how long games run (turns, impulses, decisions), and by how much they are won.
import { api } from './api.js';
import { card, h, note } from './dom.js';
import { histogram, ticks } from './charts.js';
import { filterBar } from './filters.js';
import { fixed, groupBy, int, scenarioDetail, scenarioKey, scenarioTitle } from './format.js';

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
    ...[...groupBy(rows, scenarioKey)].map(([key, metrics]) =>
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
          marginFigure(margins.get(key) ?? [], page.total > page.matches.length ? page.total : 0),
        ),
      ),
    ),
  ];
}

/** Final score difference between the two powers of a scenario, from the match summaries. */
function marginFigure(matches, total) {
  const powers = [...new Set(matches.flatMap((m) => Object.keys(m.scores)))].sort();
  if (powers.length !== 2) return null;
  const [a, b] = powers;
  const values = matches.filter((m) => a in m.scores && b in m.scores).map((m) => m.scores[a] - m.scores[b]);
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
    h('figcaption', {}, h('strong', {}, `margin ${a} − ${b}`), h('span', { class: 'muted' }, ` final score · mean ${fixed(mean)} · ${values.length} matches${total ? ` (newest of ${int(total)})` : ''}`)),
    histogram(buckets, { axis: `${a} score − ${b} score`, colour: '#7a8aa6', testid: 'margin-histogram' }),
  );
}
