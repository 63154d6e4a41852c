// #/curves : mean score, losses, control or units by power, impulse by impulse.
import { api } from './api.js';
import { card, h, note } from './dom.js';
import { colour } from './colours.js';
import { legend, lineChart } from './charts.js';
import { filterBar, filtersOf, link } from './filters.js';
import { groupBy, scenarioDetail, scenarioKey, scenarioTitle } from './format.js';
import { measuresOf } from './measures.js';

// The score is named per game in each card (its `measures.score`): Blitz!'s is not victory points.
const MEASURES = [
  ['meanScore', 'score'],
  ['meanLosses', 'losses'],
  ['meanControl', 'areas controlled'],
  ['meanUnits', 'units on the map'],
];

export async function curves(params) {
  const measure = MEASURES.some(([m]) => m === params.measure) ? params.measure : 'meanScore';
  const measureName = MEASURES.find(([m]) => m === measure)[1];
  const select = h('select', { name: 'measure', 'data-testid': 'curve-measure' }, MEASURES.map(([v, t]) => h('option', { value: v, selected: v === measure }, t)));
  select.addEventListener('change', () => (location.hash = link('#/curves', { ...filtersOf(params), measure: select.value })));
  const [{ curves: rows }, bar] = await Promise.all([api('curves', filtersOf(params)), filterBar('#/curves', params, { keep: { measure: params.measure }, extra: [h('label', {}, h('span', {}, 'measure'), select)] })]);
  const head = [h('h1', {}, 'Impulse by impulse'), bar];
  if (!rows.length) return [...head, card(null, note('No impulses recorded for these filters.'))];
  return [
    ...head,
    note(`Mean ${measureName} of each power at the end of each impulse (turn.impulse). A point averages the matches that reached that impulse; hover a point for its count.`),
    ...(await Promise.all([...groupBy(rows, scenarioKey).values()].map(async (points) => {
      const score = (await measuresOf(points[0].game)).score;
      return curveCard(points, measure, measure === 'meanScore' ? score.name : measureName, measure === 'meanScore' ? score.description : '');
    }))),
  ];
}

function curveCard(points, measure, measureName, explained) {
  const order = (p) => p.turn * 1000 + p.impulse;
  const positions = [...new Set(points.map(order))].sort((a, b) => a - b);
  const index = new Map(positions.map((p, i) => [p, i]));
  const label = (i) => {
    const p = positions[i];
    return p === undefined ? '' : `${Math.floor(p / 1000)}.${p % 1000}`;
  };
  const powers = [...new Set(points.map((p) => p.power))];
  const series = powers.map((power) => ({
    name: power,
    colour: colour(power),
    points: points
      .filter((p) => p.power === power && typeof p[measure] === 'number')
      .sort((a, b) => order(a) - order(b))
      .map((p) => ({ x: index.get(order(p)), y: p[measure], note: `${p.matches} ${p.matches === 1 ? 'match' : 'matches'}` })),
  }));
  const drawn = series.filter((s) => s.points.length);
  return card(
    h('span', {}, scenarioTitle(points[0]), h('span', { class: 'subtitle' }, ` · mean ${measureName} by power`)),
    { 'data-testid': 'curve-card', 'data-scenario': points[0].scenario },
    h('p', { class: 'muted small' }, scenarioDetail(points[0])),
    explained ? h('p', { class: 'small', 'data-testid': 'measure-note' }, explained) : null,
    drawn.length
      ? [legend(drawn.map((s) => ({ name: s.name, colour: s.colour }))), lineChart(drawn, { xLabel: label, xAxis: 'turn.impulse', yAxis: `mean ${measureName}` })]
      : note(`This game does not report ${measureName}.`),
  );
}
