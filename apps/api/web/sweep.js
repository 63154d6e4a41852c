// Balance as the bots get stronger: one card per strength-sweep scenario (GET /api/balance/sweep), with
// each side's win rate against the bot's strength level (log scale), the 95% intervals as bands, and a
// marker where the figure stopped moving.
import { api } from './api.js';
import { card, h, note, table } from './dom.js';
import { colour } from './colours.js';
import { bandChart, legend } from './charts.js';
import { interval, pct, scenarioDetail, scenarioTitle } from './format.js';

/** The sweeps the overview's filters select (a tournament filter picks that sweep only); `margin` as the API takes it. */
export async function sweepSection(params) {
  const r = await api('balance/sweep', { game: params.game, scenario: params.scenario, margin: params.margin });
  const scenarios = r.scenarios.filter((s) => !params.tournament || s.tournament === params.tournament);
  if (!scenarios.length) return null;
  return h(
    'section',
    { 'data-testid': 'sweeps' },
    h('h2', {}, 'Balance as the bots get stronger'),
    note(
      `Each strength sweep plays one bot against itself at rising strength on the same seeds. Lines are each side’s win rate at each level, bands their 95% Wilson intervals. Two levels agree when a χ² test on their outcomes does not separate them and each side’s change has a 95% interval inside ±${pct(r.margin, 0)}; the dashed rule marks the level from which every stronger level agrees (“stopped moving”).`,
    ),
    h('div', { class: 'grid' }, scenarios.map(sweepCard)),
  );
}

const factor = (f) => `×${Number.isInteger(f) ? f : Number(f.toPrecision(3))}`;

function sweepCard(s) {
  const first = s.levels[0]?.level ?? 1;
  const sides = s.levels[0]?.sides.map((x) => x.side) ?? [];
  const series = sides.map((side) => ({
    name: side,
    colour: colour(side),
    points: s.levels
      .filter((l) => l.games > 0)
      .map((l) => {
        const x = l.sides.find((y) => y.side === side);
        return { x: l.level, y: x.winRate, low: x.interval.low, high: x.interval.high, note: `${x.wins} of ${x.games} won`, attrs: { 'data-wins': x.wins, 'data-games': x.games } };
      }),
  }));
  const stopped = s.verdict.status === 'stopped moving' && s.verdict.level !== undefined;
  return card(
    h('span', {}, scenarioTitle(s), h('span', { class: 'subtitle' }, ` · ${s.bot} over ${s.param}`)),
    { 'data-testid': 'sweep-card', 'data-scenario': s.scenario, 'data-tournament': s.tournament, 'data-status': s.verdict.status },
    h('p', { class: 'muted small' }, `${scenarioDetail(s)} · tournament ${s.tournament}`),
    legend(series.map((x) => ({ name: x.name, colour: x.colour, note: `(${s.levels[0]?.sides.find((y) => y.side === x.name)?.powers.join(', ') || 'side'})` }))),
    bandChart(series, {
      xAxis: s.param,
      xLabel: (v) => `${v} (${factor(v / first)})`,
      testid: 'sweep-chart',
      caption: `Win rate by side against ${s.param} in ${scenarioTitle(s)}`,
      marker: stopped ? { x: s.verdict.level, label: `stopped moving at ${factor(s.verdict.level / first)}` } : null,
      empty: 'No level of this sweep has results yet.',
    }),
    h('p', { class: 'small', 'data-testid': 'sweep-verdict' }, h('strong', {}, 'Verdict: '), s.verdict.text),
    table(
      [{ label: s.param, num: true }, { label: 'Games', num: true }, ...sides.flatMap((side) => [{ label: `${side} won`, num: true }, { label: '95% interval', num: true }]), { label: 'Drawn', num: true }, { label: 'Against the level below' }],
      s.levels.map((l) => [
        `${l.level} (${factor(l.factor)})`,
        l.games,
        ...sides.flatMap((side) => {
          const x = l.sides.find((y) => y.side === side);
          return [pct(x.winRate), interval(x.interval)];
        }),
        l.draws,
        l.step ? `${l.step.verdict} (p = ${l.step.pValue.toPrecision(2)})` : '–',
      ]),
      { class: 'compact' },
    ),
  );
}
